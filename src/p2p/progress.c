/* The progress engine: run every hook (each transport's progress, and the
 * layers above that advance work of their own, such as collective
 * schedules); while waiting, spin for a
 * while, then yield the core between polls. The spin is short when the node
 * has more ranks than cores, longer otherwise; but even with a core each, a
 * long wait yields, so that other work on the machine (a second job, a busy
 * CI runner) cannot keep the rank we wait for off the processor. A yield
 * with nothing else to run returns at once, so this costs little. A wait
 * that lasts sleeps in short naps between polls (nap() below).
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
    if (r->kind == DMPI_REQ_RMA) {
        snprintf(buf, len, "a one-sided operation (its target may not be calling MPI to serve it)");
        return;
    }
    if (r->kind == DMPI_REQ_BFLUSH) {
        snprintf(buf, len, "a flush of a buffer of buffered sends (their receivers may not have received them)");
        return;
    }
    if (r->kind == DMPI_REQ_PART) {
        snprintf(buf, len, "a partitioned operation with rank %d, tag %d (its partner may not have started it, "
                 "or a partition is not marked ready)", r->rank, r->tag);
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

/* How long a wait has lasted, and when it next reports or naps. */
typedef struct wait_clock {
    uint64_t polls;             /* unproductive polls so far */
    uint64_t spins;             /* their cost, in shm polls (dmpi_tport_poll_cost) */
    double start;               /* when the wait began (0: not yet read) */
    double next_report;
    bool napping;               /* from the first nap on, one nap per poll */
} wait_clock_t;

/* A wait that has lasted DMPI_IDLE_NAP_AFTER sleeps between polls, so the
 * ranks that do work get the cores (8 ranks on 2 cores, 6 of them in a
 * barrier: the 2 in a ping-pong keep their latency). Each nap is at most an
 * eighth of the time waited so far, so a wake-up comes at most about 12%
 * late, and at most DMPI_IDLE_NAP microseconds. */
static bool nap(double waited)
{
    double after = dmpi_params.idle_nap_after * 1e-3 * (dmpi_world.oversubscribed ? 1 : 100);
    if (dmpi_params.idle_nap <= 0 || waited < after)
        return false;
    double s = waited / 8;
    if (s > dmpi_params.idle_nap * 1e-6)
        s = dmpi_params.idle_nap * 1e-6;
    dmpi_tport_nap(s);
    return true;
}

/* Called after every unproductive poll. */
static void idle(const waiting_for_t *w, wait_clock_t *k)
{
    k->polls++;
    k->spins += dmpi_tport_poll_cost;
    if (DMPI_UNLIKELY(dmpi_lock_on))
        dmpi_lock_yield();          /* other threads call MPI while this one waits */
    /* 64 bits: DMPI_SPIN_COUNT goes up to 10^9, 16 times that overflows 32 */
    uint64_t limit = (uint64_t)dmpi_params.spin_count * (dmpi_world.oversubscribed ? 1 : 16);
    bool yielding = k->spins >= limit;
    if (yielding)
        sched_yield();
    if ((k->polls & 63) != 0 && !k->napping)
        return;                     /* the clock is read every 64 polls, or after each nap */
    double now = dmpi_wtime();
    if (k->start == 0) {
        k->start = now;
        k->next_report = now + dmpi_params.hang_timeout;
        return;
    }
    if (yielding)
        k->napping = nap(now - k->start);
    if (DMPI_UNLIKELY(dmpi_params.hang_timeout > 0) && now >= k->next_report) {
        report_hang(w, now - k->start);
        k->next_report = now + dmpi_params.hang_timeout;
    }
}

void dmpi_progress_wait(dmpi_request_t *r)
{
    wait_clock_t k = {0, 0, 0, 0, false};
    waiting_for_t w = {r, NULL, NULL};
    while (!r->done) {
        if (poll_all())
            continue;
        idle(&w, &k);
    }
}

void dmpi_progress_until_described(bool (*cond)(void *), void *arg, void (*describe)(void *arg, char *buf, size_t len))
{
    wait_clock_t k = {0, 0, 0, 0, false};
    waiting_for_t w = {NULL, describe, arg};
    while (!cond(arg)) {
        if (poll_all())
            continue;
        idle(&w, &k);
    }
}

void dmpi_progress_until(bool (*cond)(void *), void *arg)
{
    dmpi_progress_until_described(cond, arg, NULL);
}
