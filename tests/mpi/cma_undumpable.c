/* A rank that becomes non-dumpable after MPI_Init (prctl(PR_SET_DUMPABLE,
 * 0)) can no longer be read or written by single copy, though the start-up
 * check passed. Every large message from and to it must still arrive whole:
 * a copy that fails falls back to the ring for that message and the ones
 * after it. Run by tests/tools/cma_undumpable.sh as an unprivileged user
 * (root may read any process). argv[1]: the rank that turns non-dumpable. */
#include "mtest.h"
#include <stdlib.h>
#include <sys/prctl.h>

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    int who = argc > 1 ? atoi(argv[1]) : 0;
    MPI_Barrier(MPI_COMM_WORLD);            /* every rank checked single copy with every other */
    if (mtest_rank == who)
        prctl(PR_SET_DUMPABLE, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mtest_size >= 2 && mtest_rank < 2) {
        int peer = 1 - mtest_rank, idx = 0;
        size_t sizes[] = {64u << 10, 100000, 1u << 20, (4u << 20) + 3, 8u << 20};
        char *sbuf = malloc(8u << 20), *rbuf = malloc((8u << 20) + MTEST_GUARD);
        for (int rep = 0; rep < 2; rep++)
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++, idx++) {
                size_t n = sizes[k];
                for (int dir = 0; dir < 2; dir++) {
                    if (mtest_rank == dir) {
                        mtest_fill(sbuf, n, mtest_rank, idx);
                        MPI_Send(sbuf, (int)n, MPI_BYTE, peer, idx, MPI_COMM_WORLD);
                    } else {
                        MPI_Status st;
                        mtest_poison(rbuf, n, peer, idx);
                        mtest_guard_set(rbuf + n);
                        MPI_Recv(rbuf, (int)n, MPI_BYTE, peer, idx, MPI_COMM_WORLD, &st);
                        mtest_check_status(&st, peer, idx, MPI_BYTE, (int)n, "large message");
                        mtest_check_data(rbuf, n, peer, idx, "%zu bytes from rank %d", n, peer);
                        mtest_guard_check(rbuf + n, "receive buffer");
                    }
                }
            }
        free(sbuf);
        free(rbuf);
    }
    return mtest_finalize();
}
