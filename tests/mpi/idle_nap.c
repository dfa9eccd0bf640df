/* A rank that waits long sleeps between polls (DMPI_IDLE_NAP_AFTER,
 * DMPI_IDLE_NAP), so it leaves the processor to the ranks that work. Rank 0
 * keeps everyone waiting for WAIT_MS, first in MPI_Barrier (a node-level
 * collective's flag), then in MPI_Recv; every other rank measures the
 * processor time its wait took and fails if that is more than a quarter of
 * the wait: a rank that only spins and yields takes far more (all of a core
 * when it has one, its share of the cores when oversubscribed). Each wait
 * must also end: the received data and status are checked. Run with
 * DMPI_IDLE_NAP_AFTER low enough that the naps begin well within WAIT_MS. */
#include "mtest.h"
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

#define WAIT_MS 400
#define MAX_SHARE 0.25

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

typedef struct span {
    double wall, cpu;
} span_t;

static span_t span_begin(void)
{
    return (span_t){MPI_Wtime(), cpu_seconds()};
}

static void span_check(span_t s, const char *what)
{
    double wall = MPI_Wtime() - s.wall, cpu = cpu_seconds() - s.cpu;
    MTEST_CHECK(wall >= WAIT_MS * 1e-3 * 0.9, "%s returned after %.3f s, before rank 0 came (%d ms)", what, wall,
                WAIT_MS);
    MTEST_CHECK(cpu <= MAX_SHARE * wall, "%s: %.3f s of processor time in a wait of %.3f s (at most %.0f%%)", what,
                cpu, wall, MAX_SHARE * 100);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    int me = mtest_rank, n = mtest_size;

    /* in a collective */
    MPI_Barrier(MPI_COMM_WORLD);
    span_t s = span_begin();
    if (me == 0)
        mtest_sleep_ms(WAIT_MS);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me != 0)
        span_check(s, "MPI_Barrier");

    /* in a receive */
    MPI_Barrier(MPI_COMM_WORLD);
    s = span_begin();
    if (me == 0) {
        mtest_sleep_ms(WAIT_MS);
        for (int r = 1; r < n; r++) {
            int64_t v = 1000 + r;
            MPI_Send(&v, 1, MPI_INT64_T, r, 7, MPI_COMM_WORLD);
        }
    } else {
        int64_t v = -1;
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_INT64_T, 0, 7, MPI_COMM_WORLD, &st);
        span_check(s, "MPI_Recv");
        mtest_check_status(&st, 0, 7, MPI_INT64_T, 1, "the receive rank 0 made wait");
        MTEST_CHECK(v == 1000 + me, "received %lld, expected %d", (long long)v, 1000 + me);
    }
    return mtest_finalize();
}
