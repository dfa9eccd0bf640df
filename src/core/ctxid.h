/* Context ids. Each communicator takes a pair: 2p for point-to-point,
 * 2p + 1 for collectives. A new communicator's pair is the lowest one free
 * on every member: members AND their masks of free pairs together (one
 * collective exchange), so ids never collide, however communicators are
 * created, and freed pairs are used again. */
#ifndef DMPI_CTXID_H
#define DMPI_CTXID_H

#include <stdint.h>

#define DMPI_CTX_PAIRS 4096
#define DMPI_CTX_WORDS (DMPI_CTX_PAIRS / 32)

void dmpi_ctx_init(void);                        /* pairs 0 and 1: MPI_COMM_WORLD, MPI_COMM_SELF */
/* Pairs free here and not offered by an agreement still in flight. */
void dmpi_ctx_free_mask(uint32_t mask[DMPI_CTX_WORDS]);
/* An agreement in flight offers pairs; no other may offer them meanwhile. */
void dmpi_ctx_reserve(const uint32_t mask[DMPI_CTX_WORDS]);
void dmpi_ctx_unreserve(const uint32_t mask[DMPI_CTX_WORDS]);
int dmpi_ctx_lowest(const uint32_t mask[DMPI_CTX_WORDS]);   /* -1 if none */
void dmpi_ctx_take(int pair);
void dmpi_ctx_release(int pair);
/* Called with every pair released, before it can be taken again (the
 * matching layer forgets the message order of its context ids). */
void dmpi_ctx_set_release_hook(void (*fn)(int pair));

#endif
