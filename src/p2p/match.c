#include "p2p/match.h"
#include "core/pvar.h"
#include <stdlib.h>
#include <string.h>

dmpi_matchq_t **dmpi_mq_table;   /* indexed by context id */
uint32_t dmpi_mq_count;
#define queues dmpi_mq_table
#define nqueues dmpi_mq_count

dmpi_matchq_t *dmpi_mq_create(uint32_t ctx)
{
    if (ctx >= nqueues) {
        uint32_t n = nqueues ? nqueues : 64;
        while (n <= ctx && n < (1u << 31))
            n *= 2;
        if (n <= ctx)
            dmpi_fatal("context id %u out of range", ctx);
        dmpi_matchq_t **g = realloc(queues, n * sizeof *g);
        if (!g)
            dmpi_fatal("out of memory for matching queues");
        memset(g + nqueues, 0, (n - nqueues) * sizeof *g);
        queues = g;
        nqueues = n;
    }
    if (!queues[ctx] && !(queues[ctx] = calloc(1, sizeof(dmpi_matchq_t))))
        dmpi_fatal("out of memory for matching queues");
    return queues[ctx];
}

/* A context pair is free again: the next communicator on it numbers its
 * messages from 0. */
void dmpi_mq_forget_pair(int pair)
{
    for (uint32_t ctx = 2u * (uint32_t)pair; ctx <= 2u * (uint32_t)pair + 1; ctx++)
        if (ctx < nqueues && queues[ctx]) {
            free(queues[ctx]->seq_in);
            queues[ctx]->seq_in = NULL;
            queues[ctx]->nseq = 0;
        }
}

void dmpi_mq_finalize(void)
{
    for (uint32_t i = 0; i < nqueues; i++) {
        if (!queues[i])
            continue;
        for (dmpi_msg_t *m = queues[i]->unexp_head, *n; m; m = n) {
            n = m->next;
            dmpi_msg_free(m);
        }
        for (dmpi_msg_t *m = queues[i]->early, *n; m; m = n) {
            n = m->next;
            dmpi_msg_free(m);
        }
        free(queues[i]->seq_in);
        free(queues[i]);
    }
    free(queues);
    queues = NULL;
    dmpi_pv.unexp_len = dmpi_pv.posted_len = 0;
    nqueues = 0;
}

static void unlink_posted(dmpi_matchq_t *q, dmpi_request_t *r)
{
    if (r->prev) r->prev->next = r->next; else q->posted_head = r->next;
    if (r->next) r->next->prev = r->prev; else q->posted_tail = r->prev;
    r->next = r->prev = NULL;
    dmpi_pv.posted_len--;
}

dmpi_request_t *dmpi_mq_take_posted(dmpi_matchq_t *q, int src, int tag)
{
    for (dmpi_request_t *r = q->posted_head; r; r = r->next) {
        if (dmpi_match(r->rank, r->tag, src, tag)) {
            unlink_posted(q, r);
            return r;
        }
    }
    return NULL;
}

void dmpi_mq_post(dmpi_matchq_t *q, dmpi_request_t *r)
{
    r->next = NULL;
    r->prev = q->posted_tail;
    if (q->posted_tail)
        q->posted_tail->next = r;
    else
        q->posted_head = r;
    q->posted_tail = r;
    dmpi_pv.posted_len++;
}

bool dmpi_mq_unpost(dmpi_matchq_t *q, dmpi_request_t *r)
{
    dmpi_request_t *p;
    for (p = q->posted_head; p && p != r; p = p->next)
        ;
    if (!p)
        return false;
    unlink_posted(q, r);
    return true;
}

dmpi_msg_t *dmpi_mq_find_unexp(dmpi_matchq_t *q, int src, int tag, bool take)
{
    dmpi_msg_t *m;
    for (m = q->unexp_head; m; m = m->next)
        if (dmpi_match(src, tag, m->src, m->tag))
            break;
    if (m && take) {
        if (m->prev) m->prev->next = m->next; else q->unexp_head = m->next;
        if (m->next) m->next->prev = m->prev; else q->unexp_tail = m->prev;
        m->next = m->prev = NULL;
        dmpi_pv.unexp_len--;
    }
    return m;
}

void dmpi_mq_add_unexp(dmpi_matchq_t *q, dmpi_msg_t *m)
{
    m->next = NULL;
    m->prev = q->unexp_tail;
    if (q->unexp_tail)
        q->unexp_tail->next = m;
    else
        q->unexp_head = m;
    q->unexp_tail = m;
    dmpi_pv_unexp_add();
}

dmpi_msg_t *dmpi_msg_alloc(size_t eager_bytes)
{
    dmpi_msg_t *m = malloc(sizeof *m + eager_bytes);
    if (!m)
        dmpi_fatal("out of memory: cannot buffer an unexpected message of %zu bytes", eager_bytes);
    memset(m, 0, sizeof *m);
    m->data = (char *)(m + 1);
    return m;
}

void dmpi_msg_free(dmpi_msg_t *m) { free(m); }
