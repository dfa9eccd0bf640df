/*
 * intercomm_err: error classes of intercommunicator calls, with
 * MPI_ERRORS_RETURN: intercommunicator queries on an intracommunicator, a
 * bad local leader, a bad remote leader or tag at the leaders (every
 * process of the group gets the error, not only the leader), a remote
 * leader inside the local group (overlapping groups), an intercommunicator
 * as local_comm, and the calls not defined or not yet supported on an
 * intercommunicator (scans, Comm_create_group).
 * After each error a correct Intercomm_create must still work.
 */
#include "mtest.h"

#include <stdlib.h>

static int rank, size;

/* A correct intercommunicator over the parity halves, checked with one
 * message each way between the leaders. */
static void good_create(MPI_Comm local, const char *after)
{
    MPI_Comm inter;
    int lme, v = -1;
    MPI_Comm_rank(local, &lme);
    if (!MTEST_RC(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 3, &inter)))
        return;
    if (lme == 0) {
        MTEST_RC(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 4, &v, 1, MPI_INT, 0, 4, inter, MPI_STATUS_IGNORE));
        MTEST_CHECK(v == (rank % 2 ? 0 : 1), "after %s: the remote leader is world rank %d", after, v);
    }
    MTEST_RC(MPI_Comm_free(&inter));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm out = MPI_COMM_NULL;
    MPI_Group g;
    int n;

    /* Intercommunicator calls on an intracommunicator. MPICH answers the
     * remote queries (with its own group) and aborts in the merge. */
    if (!MTEST_MPICH_DEVIATION) {
        mtest_check_class(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM, "Comm_remote_size(WORLD)");
        mtest_check_class(MPI_Comm_remote_group(MPI_COMM_WORLD, &g), MPI_ERR_COMM, "Comm_remote_group(WORLD)");
        mtest_check_class(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &out), MPI_ERR_COMM, "Intercomm_merge(WORLD)");
    }
    mtest_check_class(MPI_Intercomm_create(MPI_COMM_NULL, 0, MPI_COMM_WORLD, 0, 0, &out), MPI_ERR_COMM,
                      "Intercomm_create(MPI_COMM_NULL)");
    if (size < 2)
        return mtest_finalize();

    MPI_Comm local;
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local));
    int lsize, remote_leader = rank % 2 ? 0 : 1;
    MPI_Comm_size(local, &lsize);

    /* the local leader is checked by every process */
    mtest_check_class(MPI_Intercomm_create(local, lsize, MPI_COMM_WORLD, remote_leader, 0, &out), MPI_ERR_RANK,
                      "local_leader %d", lsize);
    mtest_check_class(MPI_Intercomm_create(local, -1, MPI_COMM_WORLD, remote_leader, 0, &out), MPI_ERR_RANK,
                      "local_leader -1");
    good_create(local, "a bad local leader");

    /* Arguments that only the leaders look at: the leaders find the error
     * and tell their groups (MPICH checks the tag everywhere). */
    mtest_check_class(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, remote_leader, -5, &out), MPI_ERR_TAG,
                      "tag -5");
    good_create(local, "a bad tag");
    /* MPICH returns these at the leaders only and leaves the other
     * processes waiting (overlapping groups: all of them), so they are not
     * run there. */
    if (!MTEST_MPICH_DEVIATION) {
        mtest_check_class(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, size, 0, &out), MPI_ERR_RANK,
                          "remote_leader %d", size);
        good_create(local, "a bad remote leader");
        mtest_check_class(MPI_Intercomm_create(local, 0, MPI_COMM_NULL, remote_leader, 0, &out), MPI_ERR_COMM,
                          "peer_comm MPI_COMM_NULL");
        good_create(local, "a null peer_comm");
        /* the remote leader in the local group: the groups would overlap */
        MPI_Comm all;
        MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &all));
        mtest_check_class(MPI_Intercomm_create(all, 0, MPI_COMM_WORLD, 1, 0, &out), MPI_ERR_COMM,
                          "remote leader inside the local group");
        MTEST_RC(MPI_Comm_free(&all));
        good_create(local, "overlapping groups");
    }

    /* what an intercommunicator cannot do (yet) */
    MPI_Comm inter;
    MTEST_RC(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, remote_leader, 1, &inter));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    mtest_check_class(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, remote_leader, 0, &out), MPI_ERR_COMM,
                      "an intercommunicator as local_comm");
    /* MPI defines collectives on intercommunicators, but no scans */
    MTEST_RC(MPI_Barrier(inter));
    {
        int x = rank, y = -1;
        mtest_check_class(MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM, "Scan on an intercommunicator");
    }
    /* MPI defines create_group for intracommunicators only (split_type
     * splits an intercommunicator as Comm_split does: tests/mpi/intercomm.c) */
    MPI_Comm_group(inter, &g);
    mtest_check_class(MPI_Comm_create_group(inter, g, 0, &out), MPI_ERR_COMM,
                      "Comm_create_group on an intercommunicator");
    MPI_Group_free(&g);
    MPI_Status st;
    mtest_check_class(MPI_Send(&n, 1, MPI_INT, size, 0, inter), MPI_ERR_RANK, "Send to rank %d", size);
    mtest_check_class(MPI_Probe(-7, 0, inter, &st), MPI_ERR_RANK, "Probe from rank -7");
    MTEST_RC(MPI_Comm_free(&inter));
    good_create(local, "the calls on an intercommunicator");
    MTEST_RC(MPI_Comm_free(&local));
    return mtest_finalize();
}
