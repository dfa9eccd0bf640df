/* The progress engine: run every hook (each transport's progress, and the
 * layers above that advance work of their own, such as collective
 * schedules); while waiting, spin for a
 * while, then yield the core between polls. The spin is short when the node
 * has more ranks than cores, longer otherwise; but even with a core each, a
 * long wait yields, so that other work on the machine (a second job, a busy
 * CI runner) cannot keep the rank we wait for off the processor. A yield
 * with nothing else to run returns at once, so this costs little.
 * After DMPI_HANG_TIMEOUT seconds, say what this rank is waiting for. */
#include "p2p/p2p.h"
#include "core/params.h"
#include "core/lock.h"
#include <sched.h>
#include <stdio.h>

#define MAX_HOOKS 16
static dmpi_progress_fn *hooks[MAX_HOOKS];
static int nhooks;

void dmpi_progress_add_hook(dmpi_progress_fn *fn)
{
    if (nhooks == MAX_HOOKS)
        dmpi_fatal("internal error: more than %d progress hooks", MAX_HOOKS);
    hooks[nhooks++] = fn;
}

void dmpi_progress_remove_hook(dmpi_progress_fn *fn)
{
    for (int i = 0; i < nhooks; i++)
        if (hooks[i] == fn) {
            hooks[i] = hooks[--nhooks];
            return;
        }
}

int dmpi_p2p_init(void)
{
    if (dmpi_tport_init() != 0)
        return -1;
    for (int i = 0; dmpi_tports[i]; i++)
        if (dmpi_tports[i]->progress)
            dmpi_progress_add_hook(dmpi_tports[i]->progress);
    return 0;
}

void dmpi_p2p_finalize(void)
{
    for (int i = 0; dmpi_tports[i]; i++)
        if (dmpi_tports[i]->progress)
            dmpi_progress_remove_hook(dmpi_tports[i]->progress);
    dmpi_tport_finalize();
}

/* One pass over every hook. */
static inline int poll_all(void)
{
    int did = 0;
    for (int i = 0; i < nhooks; i++)
        did += hooks[i]();
    return did;
}

int dmpi_progress(void) { return poll_all(); }

/* What r is, for a person: "a receive from rank 3 with tag 5 on MPI_COMM_WORLD". */
static void describe(const dmpi_request_t *r, char *buf, size_t len)
{
    if (!r) {
        snprintf(buf, len, "one of several requests (%d in use)", dmpi_req_live_count());
        return;
    }
    if (r->kind == DMPI_REQ_GREQ) {
        snprintf(buf, len, "a generalized request (the program completes it with MPI_Grequest_complete)");
        return;
    }
    if (r->kind == DMPI_REQ_COLL) {
        snprintf(buf, len, "a collective operation (its other ranks may not have called it yet)");
        return;
    }
    const char *what = r->kind == DMPI_REQ_SEND ? "a send to" : "a receive from";
    const char *comm = r->comm && r->comm->name[0] ? r->comm->name : "a communicator";
    char peer[32], tag[32];
    if (r->rank == MPI_ANY_SOURCE)
        snprintf(peer, sizeof peer, "any rank");
    else
        snprintf(peer, sizeof peer, "rank %d", r->rank);
    if (r->tag == MPI_ANY_TAG)
        snprintf(tag, sizeof tag, "any tag");
    else
        snprintf(tag, sizeof tag, "tag %d", r->tag);
    if (r->ctx & 1)                 /* odd context ids carry collective traffic */
        snprintf(buf, len, "a collective %s %s on %s (a collective call, or MPI_Finalize)", what + 2, peer, comm);
    else
        snprintf(buf, len, "%s %s with %s on %s", what, peer, tag, comm);
}

/* What a wait is for: a request, or a condition that describes itself. */
typedef struct waiting_for {
    const dmpi_request_t *r;
    void (*describe)(void *arg, char *buf, size_t len);
    void *arg;
} waiting_for_t;

static void report_hang(const waiting_for_t *w, double waited)
{
    char what[512];
    if (w->describe)
        w->describe(w->arg, what, sizeof what);
    else
        describe(w->r, what, sizeof what);
    fprintf(stderr, "dmpi: rank %d has waited %.0f s for %s to complete; is a matching call missing? "
                    "(DMPI_HANG_TIMEOUT=0 silences this)\n", dmpi_world.rank, waited, what);
}

/* Called after every unproductive poll; returns the updated idle count. */
static uint64_t idle(const waiting_for_t *w, uint64_t spins, double *start, double *next_report)
{
    spins++;
    if (DMPI_UNLIKELY(dmpi_lock_on))
        dmpi_lock_yield();          /* other threads call MPI while this one waits */
    /* 64 bits: DMPI_SPIN_COUNT goes up to 10^9, 16 times that overflows 32 */
    uint64_t limit = (uint64_t)dmpi_params.spin_count * (dmpi_world.oversubscribed ? 1 : 16);
    if (spins >= limit)
        sched_yield();
    if (DMPI_UNLIKELY(dmpi_params.hang_timeout > 0) && (spins & 255) == 0) {
        double now = dmpi_wtime();
        if (*start == 0) {
            *start = now;
            *next_report = now + dmpi_params.hang_timeout;
        } else if (now >= *next_report) {
            report_hang(w, now - *start);
            *next_report = now + dmpi_params.hang_timeout;
        }
    }
    return spins;
}

void dmpi_progress_wait(dmpi_request_t *r)
{
    uint64_t spins = 0;
    double start = 0, next = 0;
    waiting_for_t w = {r, NULL, NULL};
    while (!r->done) {
        if (poll_all())
            continue;
        spins = idle(&w, spins, &start, &next);
    }
}

void dmpi_progress_until_described(bool (*cond)(void *), void *arg, void (*describe)(void *arg, char *buf, size_t len))
{
    uint64_t spins = 0;
    double start = 0, next = 0;
    waiting_for_t w = {NULL, describe, arg};
    while (!cond(arg)) {
        if (poll_all())
            continue;
        spins = idle(&w, spins, &start, &next);
    }
}

void dmpi_progress_until(bool (*cond)(void *), void *arg)
{
    dmpi_progress_until_described(cond, arg, NULL);
}
