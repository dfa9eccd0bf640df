/*
 * coll_neighbor_big: large-count neighborhood collectives, a block of more
 * than INT_MAX elements. On a distributed graph with one edge, rank 0 ->
 * rank 1, rank 0 sends 2^31 + 4 bytes:
 *   - MPI_Neighbor_alltoall_c: sent as 2^31 + 4 MPI_BYTEs (more than a
 *     message's int count), received as 2^29 + 1 MPI_INTs;
 *   - MPI_Ineighbor_alltoallv_c: sent as 2^29 + 1 MPI_INTs, received as
 *     2^31 + 4 MPI_BYTEs at a displacement of 3 bytes.
 * So the two ends describe the one block with different types and counts,
 * one of them beyond INT_MAX. The data is checked completely against the
 * pattern (mtest_fill), and the bytes around the received block untouched.
 *
 * Meant for exactly 2 processes (2 GiB of memory each); with one process
 * the test does nothing, other ranks only take part in the report.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    const int me = mtest_rank;
    const MPI_Count nbytes = ((MPI_Count)1 << 31) + 4, nints = nbytes / 4;
    if (mtest_size < 2)
        return mtest_finalize();
    int src = 0, dst = 1;
    int in = me == 1, out = me == 0;
    MPI_Comm g;
    MTEST_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, in, &src, MPI_UNWEIGHTED, out, &dst, MPI_UNWEIGHTED,
                                            MPI_INFO_NULL, 0, &g));
    char *buf = NULL;
    if (me <= 1) {
        buf = malloc((size_t)nbytes + 8);
        if (!buf) {
            printf("coll_neighbor_big: no memory for 2 GiB; nothing tested\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    /* bytes -> ints */
    if (me == 0)
        mtest_fill(buf, (size_t)nbytes, 0, 1);
    if (me == 1)
        mtest_poison(buf, (size_t)nbytes, 0, 1);
    int rc = MPI_Neighbor_alltoall_c(me == 0 ? buf : NULL, me == 0 ? nbytes : 0, MPI_BYTE, me == 1 ? buf : NULL,
                                     me == 1 ? nints : 0, MPI_INT, g);
    MTEST_CHECK(rc == MPI_SUCCESS, "MPI_Neighbor_alltoall_c returned %d", rc);
    if (me == 1)
        mtest_check_data(buf, (size_t)nbytes, 0, 1, "MPI_Neighbor_alltoall_c, 2^31 + 4 bytes as ints");
    /* ints -> bytes at an odd displacement */
    MPI_Count scount = nints, rcount = nbytes;
    MPI_Aint zero = 0, three = 3;
    if (me == 0)
        mtest_fill(buf, (size_t)nbytes, 0, 2);
    if (me == 1) {
        memset(buf, 0x5c, 3);
        memset(buf + 3 + nbytes, 0x5c, 5);
        mtest_poison(buf + 3, (size_t)nbytes, 0, 2);
    }
    MPI_Request req;
    rc = MPI_Ineighbor_alltoallv_c(buf, &scount, &zero, MPI_INT, buf, &rcount, &three, MPI_BYTE, g, &req);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    MTEST_CHECK(rc == MPI_SUCCESS, "MPI_Ineighbor_alltoallv_c returned %d", rc);
    if (me == 1) {
        mtest_check_data(buf + 3, (size_t)nbytes, 0, 2, "MPI_Ineighbor_alltoallv_c, 2^31 + 4 bytes from ints");
        const char guard[5] = {0x5c, 0x5c, 0x5c, 0x5c, 0x5c};
        MTEST_CHECK(!memcmp(buf, guard, 3) && !memcmp(buf + 3 + nbytes, guard, 5),
                    "MPI_Ineighbor_alltoallv_c wrote outside its block");
    }
    free(buf);
    MPI_Comm_free(&g);
    return mtest_finalize();
}
