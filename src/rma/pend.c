/* The origin's operations in flight: each is the point-to-point requests
 * that carry it (command, data, reply), freed together once all are
 * complete; an R-form request (MPI_Rput ...) completes with them. */
#include "rma/rma_internal.h"
#include "p2p/p2p.h"
#include <stdio.h>
#include <stdlib.h>

rma_pend_t *rma_pend_new(struct rma_state *st, int target)
{
    (void)st;
    rma_pend_t *p = calloc(1, sizeof *p);
    if (p)
        p->target = target;
    return p;
}

void rma_pend_add(struct rma_state *st, rma_pend_t *p)
{
    p->next = st->pend;
    st->pend = p;
}

bool rma_pend_done(const rma_pend_t *p)
{
    for (int i = 0; i < p->nparts; i++)
        if (!p->parts[i]->done)
            return false;
    return true;
}

/* Frees a complete one; returns the first error of its parts. */
static int pend_finish(rma_pend_t *p)
{
    int err = MPI_SUCCESS;
    for (int i = 0; i < p->nparts; i++) {
        if (err == MPI_SUCCESS && p->parts[i]->st_error != MPI_SUCCESS)
            err = p->parts[i]->st_error;
    }
    if (p->user) {
        dmpi_req_set_empty_status(p->user, err);
        dmpi_req_complete(p->user);
        p->user = NULL;
    }
    rma_pend_free(p);
    return err;
}

void rma_pend_free(rma_pend_t *p)
{
    for (int i = 0; i < p->nparts; i++)
        dmpi_req_free(p->parts[i]);
    free(p->tmp);
    free(p->tmp2);
    free(p);
}

int rma_pend_reap_list(rma_pend_t **list)
{
    int first = MPI_SUCCESS;
    rma_pend_t **pp = list;
    while (*pp) {
        rma_pend_t *p = *pp;
        if (!rma_pend_done(p)) {
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        int err = pend_finish(p);
        if (first == MPI_SUCCESS)
            first = err;
    }
    return first;
}

int rma_pend_reap(struct rma_state *st)
{
    int err = rma_pend_reap_list(&st->pend);
    if (st->pend_err == MPI_SUCCESS)
        st->pend_err = err;
    return st->pend_err;
}

typedef struct wait_arg {
    struct rma_state *st;
    int target;
} wait_arg_t;

static bool none_left(void *arg)
{
    wait_arg_t *a = arg;
    for (rma_pend_t *p = a->st->pend; p; p = p->next)
        if (a->target < 0 || p->target == a->target)
            return false;
    return true;
}

static void describe_wait(void *arg, char *buf, size_t len)
{
    wait_arg_t *a = arg;
    snprintf(buf, len, "one-sided operations of window %s to %s%d",
             a->st->win->name[0] ? a->st->win->name : "(no name)", a->target < 0 ? "all ranks, e.g. " : "rank ",
             a->target < 0 ? (a->st->pend ? a->st->pend->target : 0) : a->target);
}

int rma_pend_wait(struct rma_state *st, int target)
{
    rma_pend_reap(st);
    wait_arg_t a = {st, target};
    if (!none_left(&a))
        dmpi_progress_until_described(none_left, &a, describe_wait);   /* the hook reaps */
    int err = st->pend_err;
    st->pend_err = MPI_SUCCESS;
    return err;
}
