/* The w-form collectives with MPI_BOTTOM buffers and absolute addresses
 * (MPI_Get_address) as displacements, as the standard allows: Alltoallw_c,
 * Ialltoallw_c, Alltoallw_init_c on MPI_COMM_WORLD and Neighbor_alltoallw,
 * its _c, nonblocking and persistent forms on a periodic ring; every received
 * int checked. A NULL buffer with a zero displacement and a nonzero count
 * stays an error (MPI_ERR_BUFFER). */
#include "mtest.h"
#include <stdbool.h>

#define N 3          /* ints per block */
#define MAXDEG 64

static int value(int sender, int receiver, int k, int round)
{
    return 100000 * round + 1000 * sender + 10 * receiver + k;
}

static void run(MPI_Comm comm, bool nbr, int form, MPI_Count *counts, MPI_Aint *sd, MPI_Aint *rd,
                MPI_Datatype *types)
{
    int icounts[MAXDEG];
    for (int j = 0; j < MAXDEG; j++)
        icounts[j] = (int)counts[j];
    MPI_Request req;
    switch (form) {
    case 0:     /* blocking */
        if (nbr)
            MTEST_RC(MPI_Neighbor_alltoallw(MPI_BOTTOM, icounts, sd, types, MPI_BOTTOM, icounts, rd, types, comm));
        else
            MTEST_RC(MPI_Alltoallw_c(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts, rd, types, comm));
        return;
    case 1:     /* nonblocking */
        if (nbr)
            MTEST_RC(MPI_Ineighbor_alltoallw_c(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts, rd, types, comm,
                                               &req));
        else
            MTEST_RC(MPI_Ialltoallw_c(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts, rd, types, comm, &req));
        MTEST_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
        return;
    default:    /* persistent */
        if (nbr)
            MTEST_RC(MPI_Neighbor_alltoallw_init(MPI_BOTTOM, icounts, sd, types, MPI_BOTTOM, icounts, rd, types, comm,
                                                 MPI_INFO_NULL, &req));
        else
            MTEST_RC(MPI_Alltoallw_init_c(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts, rd, types, comm,
                                          MPI_INFO_NULL, &req));
        MTEST_RC(MPI_Start(&req));
        MTEST_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));
        MTEST_RC(MPI_Request_free(&req));
    }
}

/* degree blocks each way: to dsts[j], from srcs[j] */
static void exchange(MPI_Comm comm, bool nbr, int degree, const int *dsts, const int *srcs, int form, int round)
{
    int sbuf[MAXDEG * N], rbuf[MAXDEG * N];
    MPI_Count counts[MAXDEG] = {0};
    MPI_Aint sd[MAXDEG], rd[MAXDEG];
    MPI_Datatype types[MAXDEG];
    for (int j = 0; j < degree; j++) {
        for (int k = 0; k < N; k++) {
            sbuf[j * N + k] = value(mtest_rank, dsts[j], k, round);
            rbuf[j * N + k] = -1;
        }
        counts[j] = N;
        types[j] = MPI_INT;
        MPI_Get_address(&sbuf[j * N], &sd[j]);
        MPI_Get_address(&rbuf[j * N], &rd[j]);
    }
    run(comm, nbr, form, counts, sd, rd, types);
    for (int j = 0; j < degree; j++)
        for (int k = 0; k < N; k++)
            MTEST_CHECK(rbuf[j * N + k] == value(srcs[j], mtest_rank, k, round),
                        "%s form %d: block %d from %d, int %d is %d, want %d", nbr ? "neighbor" : "world", form, j,
                        srcs[j], k, rbuf[j * N + k], value(srcs[j], mtest_rank, k, round));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    int n = mtest_size < MAXDEG ? mtest_size : MAXDEG, all[MAXDEG];
    for (int j = 0; j < n; j++)
        all[j] = j;
    int dims[1] = {mtest_size}, periods[1] = {1}, ring[2];
    MPI_Comm cart;
    MTEST_RC(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart));
    MTEST_RC(MPI_Cart_shift(cart, 0, 1, &ring[0], &ring[1]));
    /* Cartesian order: the -1 neighbour, then +1; what we send towards -1
     * arrives in that rank's +1 block */
    int srcs[2] = {ring[0], ring[1]};
    for (int round = 0; round < 2; round++)
        for (int form = 0; form < 3; form++) {
            if (mtest_size <= MAXDEG)
                exchange(MPI_COMM_WORLD, false, n, all, all, form, round);
            exchange(cart, true, 2, srcs, srcs, form, round);
        }

    /* NULL with a zero displacement is still no buffer */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    MPI_Aint zero[2] = {0, 0};
    int icounts[2] = {N, N};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    int rbuf[2 * N];
    MPI_Aint rd[2] = {0, (MPI_Aint)(N * sizeof(int))};
    mtest_check_class(MPI_Neighbor_alltoallw(NULL, icounts, zero, types, rbuf, icounts, rd, types, cart),
                      MPI_ERR_BUFFER, "Neighbor_alltoallw: NULL sendbuf, zero displacements");
    MPI_Comm_free(&cart);
    return mtest_finalize();
}
