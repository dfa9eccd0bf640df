/* Context pair agreements in flight on this process (comm/ctx_agree.h). */
#include "comm/ctx_agree.h"
#include <string.h>

static dmpi_ctx_agreement_t *in_flight;

void dmpi_ctx_agree_begin(dmpi_ctx_agreement_t *a, uint32_t prio, uint32_t serial)
{
    memset(a, 0, sizeof *a);
    a->prio = prio;
    a->serial = serial;
    a->next = in_flight;
    in_flight = a;
}

static bool outranked(const dmpi_ctx_agreement_t *a)
{
    for (const dmpi_ctx_agreement_t *b = in_flight; b; b = b->next)
        if (b != a && (b->prio < a->prio || (b->prio == a->prio && b->serial < a->serial)))
            return true;
    return false;
}

static bool others_in_flight(const dmpi_ctx_agreement_t *a)
{
    for (const dmpi_ctx_agreement_t *b = in_flight; b; b = b->next)
        if (b != a)
            return true;
    return false;
}

void dmpi_ctx_agree_offer(dmpi_ctx_agreement_t *a)
{
    if (outranked(a))
        memset(a->offer, 0, sizeof a->offer);
    else
        dmpi_ctx_free_mask(a->offer);
    dmpi_ctx_reserve(a->offer);
    memcpy(a->buf, a->offer, sizeof a->offer);
    a->buf[DMPI_CTX_WORDS] = others_in_flight(a) ? 0 : 1;
}

int dmpi_ctx_agree_result(dmpi_ctx_agreement_t *a, int *pair)
{
    dmpi_ctx_unreserve(a->offer);
    memset(a->offer, 0, sizeof a->offer);
    if ((*pair = dmpi_ctx_lowest(a->buf)) >= 0)
        return 1;                   /* the caller takes it, before anything else progresses */
    if (a->buf[DMPI_CTX_WORDS] == 0)
        return 0;                   /* someone held back: another round */
    return dmpi_err(MPI_ERR_OTHER, "all %d communicator context ids are in use; free some communicators",
                    DMPI_CTX_PAIRS);
}

void dmpi_ctx_agree_end(dmpi_ctx_agreement_t *a)
{
    dmpi_ctx_unreserve(a->offer);
    for (dmpi_ctx_agreement_t **p = &in_flight; *p; p = &(*p)->next)
        if (*p == a) {
            *p = a->next;
            break;
        }
}
