/* A nonblocking collective still in flight is never matched by a blocking
 * collective that a rank starts later on the same communicator. mpi4py's
 * Iagree test has ranks call, on one communicator:
 *   even ranks: Barrier, Iallreduce, Barrier, Wait
 *   odd ranks:  Barrier, Barrier, Iallreduce, Wait
 * MPI asks for one order on all ranks, but users meet this through
 * libraries; the blocking and nonblocking collectives keep apart here. The
 * same with Ibcast/Bcast and a large Iallreduce (rendezvous messages). */
#include "mtest.h"
#include <stdlib.h>

static void mixed(MPI_Comm c, int count, int round)
{
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int *in = malloc((size_t)count * sizeof(int)), *out = malloc((size_t)count * sizeof(int));
    for (int i = 0; i < count; i++) {
        in[i] = me + i + round;
        out[i] = -1;
    }
    int b1 = me == 0 ? 11 + round : -1, b2 = me == 0 ? 22 + round : -1;
    MPI_Request r;
    MPI_Barrier(c);
    if (me % 2 == 0) {
        MPI_Iallreduce(in, out, count, MPI_INT, MPI_SUM, c, &r);
        MPI_Bcast(&b1, 1, MPI_INT, 0, c);
        MPI_Barrier(c);
        MPI_Bcast(&b2, 1, MPI_INT, 0, c);
    } else {
        MPI_Bcast(&b1, 1, MPI_INT, 0, c);
        MPI_Barrier(c);
        MPI_Bcast(&b2, 1, MPI_INT, 0, c);
        MPI_Iallreduce(in, out, count, MPI_INT, MPI_SUM, c, &r);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    (void)MTEST_CHECK(b1 == 11 + round && b2 == 22 + round, "b1 == 11 + round && b2 == 22 + round");
    for (int i = 0; i < count; i++)
        if (out[i] != n * (n - 1) / 2 + n * (i + round)) {
            mtest_fail("allreduce element %d is %d, expected %d", i, out[i], n * (n - 1) / 2 + n * (i + round));
            break;
        }
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int round = 0; round < 10; round++) {
        mixed(MPI_COMM_WORLD, 1, round);
        mixed(dup, 1000, round);
        mixed(dup, 300000, round);
    }
    MPI_Comm_free(&dup);
    return mtest_finalize();
}
