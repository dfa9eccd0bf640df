/* Matching: per context id, the posted receives and the unexpected messages,
 * each kept in arrival order so that the first match is MPI's match.
 * Messages from one source are matched in send order, which gives the
 * non-overtaking rule: each carries a sequence number per (context id,
 * source), and one that arrives early waits (p2p/deliver.c) until those
 * before it have been matched. */
#ifndef DMPI_MATCH_H
#define DMPI_MATCH_H

#include "p2p/request.h"

enum { DMPI_MSG_EAGER = 1, DMPI_MSG_RNDV };

/* A message that arrived before its receive was posted. */
typedef struct dmpi_msg {
    struct dmpi_msg *next, *prev;
    uint32_t ctx;
    int src, tag;                /* comm rank of the sender, tag */
    int peer;                    /* world rank of the sender */
    uint32_t seq;                /* sequence number from src on ctx */
    size_t len;                  /* total bytes of the message */
    uint8_t proto;
    uint8_t sync;                /* the sender waits for a match acknowledgement */
    uint8_t tflags;              /* the transport's own flags for this message */
    size_t arrived;              /* eager: bytes received so far */
    uint64_t cookie;             /* sender's request id */
    uint64_t addr;               /* rendezvous: sender's buffer address */
    uint64_t layout;             /* rendezvous, SHM_F_LAYOUT: address of the sender's datatype */
    dmpi_request_t *waiter;      /* receive matched while bytes still arrive */
    char *data;                  /* eager payload (points just past this struct) */
} dmpi_msg_t;

typedef struct dmpi_matchq {
    dmpi_request_t *posted_head, *posted_tail;
    dmpi_msg_t *unexp_head, *unexp_tail;
    uint32_t *seq_in;            /* next sequence number expected from each source rank */
    int nseq;
    dmpi_msg_t *early;           /* arrived before messages sent ahead of them (any order) */
} dmpi_matchq_t;

/* Sequence number of a message that is matched as it arrives (traffic of
 * a temporary communicator whose ranks number a subgroup). */
#define DMPI_SEQ_NONE 0xffffffffu

/* The queues of a context id, created on first use. */
extern dmpi_matchq_t **dmpi_mq_table;
extern uint32_t dmpi_mq_count;
dmpi_matchq_t *dmpi_mq_create(uint32_t ctx);
static inline dmpi_matchq_t *dmpi_mq(uint32_t ctx)
{
    if (DMPI_LIKELY(ctx < dmpi_mq_count && dmpi_mq_table[ctx]))
        return dmpi_mq_table[ctx];
    return dmpi_mq_create(ctx);
}
void dmpi_mq_finalize(void);
/* A context pair was released (core/ctxid.h): its message order starts over. */
void dmpi_mq_forget_pair(int pair);

static inline bool dmpi_match(int want_src, int want_tag, int src, int tag)
{
    return (want_src == src || want_src == MPI_ANY_SOURCE) &&
           (want_tag == tag || (want_tag == MPI_ANY_TAG && tag >= 0));
}

/* First posted receive matching (src, tag), unlinked; NULL if none. */
dmpi_request_t *dmpi_mq_take_posted(dmpi_matchq_t *q, int src, int tag);
void dmpi_mq_post(dmpi_matchq_t *q, dmpi_request_t *r);
bool dmpi_mq_unpost(dmpi_matchq_t *q, dmpi_request_t *r);   /* false if not there */

/* First unexpected message matching (src, tag); unlinked if take. */
dmpi_msg_t *dmpi_mq_find_unexp(dmpi_matchq_t *q, int src, int tag, bool take);
void dmpi_mq_add_unexp(dmpi_matchq_t *q, dmpi_msg_t *m);

dmpi_msg_t *dmpi_msg_alloc(size_t eager_bytes);     /* data area of that size */
void dmpi_msg_free(dmpi_msg_t *m);

#endif
