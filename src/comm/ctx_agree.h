/* Agreeing on a new communicator's context pair (comm/ctx_agree.c). */
#ifndef DMPI_COMM_CTX_AGREE_H
#define DMPI_COMM_CTX_AGREE_H

#include "core/dmpi.h"
#include "core/ctxid.h"

/* One agreement of this process, blocking or nonblocking. Each round, the
 * members AND what they offer: the pairs free here that no other agreement
 * has offered (they are reserved until the round ends), or nothing while an
 * agreement of higher priority (a lower parent context id, or on the same
 * parent an idup called earlier: the same order on every process) is in
 * flight here. The last word says whether every
 * member offered freely; if the AND is empty but someone held back, the
 * members try again. So two agreements in flight at once never take the
 * same pair, and the one of highest priority always gets through. */
typedef struct dmpi_ctx_agreement {
    uint32_t prio;                       /* the parent's context id */
    uint32_t serial;                     /* then, on one parent: the idup's number; blocking ones last */
    uint32_t offer[DMPI_CTX_WORDS];      /* reserved by this round */
    uint32_t buf[DMPI_CTX_WORDS + 1];    /* the round's AND (in place), + the "offered freely" word */
    struct dmpi_ctx_agreement *next;
} dmpi_ctx_agreement_t;
#define DMPI_CTX_AGREE_WORDS (DMPI_CTX_WORDS + 1)

void dmpi_ctx_agree_begin(dmpi_ctx_agreement_t *a, uint32_t prio, uint32_t serial);
#define DMPI_CTX_AGREE_BLOCKING 0xffffffffu
/* Fills a->buf with this process's offer for the next round. */
void dmpi_ctx_agree_offer(dmpi_ctx_agreement_t *a);
/* After the round's AND in a->buf: 1 and the *pair agreed (the caller takes
 * it, dmpi_ctx_take, before progress runs again), 0 to go again, or an
 * error code (every pair in use). */
int dmpi_ctx_agree_result(dmpi_ctx_agreement_t *a, int *pair);
void dmpi_ctx_agree_end(dmpi_ctx_agreement_t *a);

#endif
