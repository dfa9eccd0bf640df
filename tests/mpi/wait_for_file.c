/* A job that stays in MPI until a file appears, for tests that poke a
 * running job from outside (tools.tcp_key): rank 0 polls MPI (MPI_Iprobe)
 * every 10 ms until the file named by argv[1] exists, at most 60 s; the
 * other ranks wait in MPI_Barrier meanwhile. Then a ring exchange checks
 * that the job still communicates.
 *   usage: wait_for_file PATH */
#include "mtest.h"
#include <stdint.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    int me = mtest_rank, n = mtest_size;
    if (argc < 2) {
        (void)MTEST_CHECK(0, "usage: wait_for_file PATH");
        return mtest_finalize();
    }
    if (me == 0) {
        int waited = 0, flag;
        while (access(argv[1], F_OK) != 0 && waited < 6000) {
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            mtest_sleep_ms(10);
            waited++;
        }
        (void)MTEST_CHECK(waited < 6000, "%s did not appear within 60 s", argv[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int64_t out = 1000 + me, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT64_T, (me + 1) % n, 3, &in, 1, MPI_INT64_T, (me + n - 1) % n, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    (void)MTEST_CHECK(in == 1000 + (me + n - 1) % n, "ring: got %lld", (long long)in);
    return mtest_finalize();
}
