/* A message whose send has returned reaches its receiver while the sender
 * computes: the sender must not have to call into MPI again for it. Run
 * first thing after MPI_Init, so that over TCP the messages are the first
 * between their ranks and connections must be made on the way.
 *
 *   sender_computes send      rank 0 sends every other rank message A,
 *                             computes COMPUTE_MS without calling MPI,
 *                             then sends message B
 *   sender_computes barrier   rank 0 leaves a barrier, computes, then
 *                             enters a second barrier
 *
 * A receiver sees A (or leaves the first barrier) about COMPUTE_MS before
 * B (the second barrier): if A was held back in rank 0 until its next call,
 * both come together. Comparing the two times on the receiver needs no
 * common clock and does not depend on when the ranks started. */
#include "mtest.h"
#include <stdint.h>
#include <string.h>

#define COMPUTE_MS 500
#define MIN_GAP (COMPUTE_MS * 1e-3 * 0.75)

static void by_send(int me, int n)
{
    if (me == 0) {
        for (int r = 1; r < n; r++) {
            int64_t a = 100 + r;
            MPI_Send(&a, 1, MPI_INT64_T, r, 1, MPI_COMM_WORLD);
        }
        mtest_sleep_ms(COMPUTE_MS);
        for (int r = 1; r < n; r++) {
            int64_t b = 200 + r;
            MPI_Send(&b, 1, MPI_INT64_T, r, 2, MPI_COMM_WORLD);
        }
        return;
    }
    int64_t a = -1, b = -1;
    MPI_Status st;
    MPI_Recv(&a, 1, MPI_INT64_T, 0, 1, MPI_COMM_WORLD, &st);
    double ta = MPI_Wtime();
    mtest_check_status(&st, 0, 1, MPI_INT64_T, 1, "message A");
    MPI_Recv(&b, 1, MPI_INT64_T, 0, 2, MPI_COMM_WORLD, &st);
    double tb = MPI_Wtime();
    mtest_check_status(&st, 0, 2, MPI_INT64_T, 1, "message B");
    MTEST_CHECK(a == 100 + me && b == 200 + me, "received %lld and %lld", (long long)a, (long long)b);
    MTEST_CHECK(tb - ta >= MIN_GAP, "message A came %.3f s before B, not about %.1f s: it waited in rank 0",
                tb - ta, COMPUTE_MS * 1e-3);
}

static void by_barrier(int me)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    if (me == 0)
        mtest_sleep_ms(COMPUTE_MS);
    MPI_Barrier(MPI_COMM_WORLD);
    double t2 = MPI_Wtime();
    if (me != 0)
        MTEST_CHECK(t2 - t1 >= MIN_GAP, "left the first barrier %.3f s before the second, not about %.1f s: "
                    "it waited for rank 0's next call", t2 - t1, COMPUTE_MS * 1e-3);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "send";
    if (strcmp(mode, "barrier") == 0)
        by_barrier(mtest_rank);
    else
        by_send(mtest_rank, mtest_size);
    return mtest_finalize();
}
