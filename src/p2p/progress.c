/* The progress engine: poll every transport; while waiting, spin for a
 * while, then yield the core between polls. The spin is short when the node
 * has more ranks than cores, longer otherwise; but even with a core each, a
 * long wait yields, so that other work on the machine (a second job, a busy
 * CI runner) cannot keep the rank we wait for off the processor. A yield
 * with nothing else to run returns at once, so this costs little.
 * After DMPI_HANG_TIMEOUT seconds, say what this rank is waiting for. */
#include "p2p/p2p.h"
#include "core/params.h"
#include "tport/tport.h"
#include <sched.h>
#include <stdio.h>

int dmpi_progress(void) { return dmpi_tport_progress(); }

static void report_hang(double waited)
{
    fprintf(stderr, "dmpi: rank %d has waited %.0f s for a message or request to complete "
                    "(%d requests in use); is a matching send or receive missing?\n",
            dmpi_world.rank, waited, dmpi_req_live_count());
}

/* Called after every unproductive poll; returns the updated idle count. */
static unsigned idle(unsigned spins, double *start, double *next_report)
{
    spins++;
    unsigned limit = (unsigned)dmpi_params.spin_count * (dmpi_world.oversubscribed ? 1 : 16);
    if (spins >= limit)
        sched_yield();
    if (DMPI_UNLIKELY(dmpi_params.hang_timeout > 0) && (spins & 255) == 0) {
        double now = dmpi_wtime();
        if (*start == 0) {
            *start = now;
            *next_report = now + dmpi_params.hang_timeout;
        } else if (now >= *next_report) {
            report_hang(now - *start);
            *next_report = now + dmpi_params.hang_timeout;
        }
    }
    return spins;
}

void dmpi_progress_wait(volatile int *flag)
{
    unsigned spins = 0;
    double start = 0, next = 0;
    while (!*flag) {
        if (dmpi_tport_progress())
            continue;
        spins = idle(spins, &start, &next);
    }
}

void dmpi_progress_until(bool (*cond)(void *), void *arg)
{
    unsigned spins = 0;
    double start = 0, next = 0;
    while (!cond(arg)) {
        if (dmpi_tport_progress())
            continue;
        spins = idle(spins, &start, &next);
    }
}
