/*
 * coll_barrier: MPI_Barrier and MPI_Ibarrier.
 *   - no rank leaves before the last one has entered: one rank at a time
 *     enters late, every rank notes when it entered and left (the
 *     monotonic clock is the same for all processes of a node), and rank
 *     0 checks max(entered) <= min(left); blocking, nonblocking with Wait
 *     and with a Test loop;
 *   - several Ibarriers outstanding at once, on one communicator and on
 *     several, completed in reverse order, with point-to-point traffic on
 *     the same communicator and tags in between;
 *   - on MPI_COMM_WORLD, MPI_COMM_SELF, a duplicate and halves of it; many
 *     barriers in a row;
 *   - error classes: MPI_COMM_NULL, NULL request, intercommunicator.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int rank, size;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum { BLOCKING, WAIT, TEST_LOOP, MODES };
static const char *const mode_name[MODES] = {"MPI_Barrier", "MPI_Ibarrier + Wait", "MPI_Ibarrier + Test loop"};

/* Rank `late` enters 30 ms after the others. */
static void check_order(MPI_Comm comm, const char *cname, int late, int mode)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    MTEST_RC(MPI_Barrier(comm));
    if (me == late)
        mtest_sleep_ms(30);
    double t[2];
    t[0] = now();
    if (mode == BLOCKING) {
        MTEST_RC(MPI_Barrier(comm));
    } else {
        MPI_Request rq;
        MTEST_RC(MPI_Ibarrier(comm, &rq));
        if (mode == WAIT) {
            MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        } else {
            int flag = 0;
            while (!flag)
                MTEST_RC(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
            MTEST_CHECK(rq == MPI_REQUEST_NULL, "%s: completed Ibarrier request not freed", cname);
        }
    }
    t[1] = now();
    if (me != 0) {
        MTEST_RC(MPI_Send(t, 2, MPI_DOUBLE, 0, 3, comm));
        return;
    }
    double last_in = t[0], first_out = t[1];
    int who_in = 0, who_out = 0;
    for (int j = 1; j < p; j++) {
        double u[2];
        MTEST_RC(MPI_Recv(u, 2, MPI_DOUBLE, j, 3, comm, MPI_STATUS_IGNORE));
        if (u[0] > last_in) {
            last_in = u[0];
            who_in = j;
        }
        if (u[1] < first_out) {
            first_out = u[1];
            who_out = j;
        }
    }
    MTEST_CHECK(last_in <= first_out, "%s, %s, rank %d late: rank %d left %.6f s before rank %d entered", cname,
                mode_name[mode], late, who_out, last_in - first_out, who_in);
}

static void test_order(MPI_Comm comm, const char *cname)
{
    int p;
    MPI_Comm_size(comm, &p);
    for (int late = 0; late < p; late++)
        check_order(comm, cname, late, late % MODES);
    /* every mode with the last rank late, whatever p */
    for (int mode = 0; mode < MODES; mode++)
        check_order(comm, cname, p - 1, mode);
}

/* Three Ibarriers on comm and one on a duplicate, point-to-point messages
 * with tag 0 on comm in between, completed in reverse order. */
static void test_outstanding(MPI_Comm comm, const char *cname)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    MPI_Comm dup;
    MTEST_RC(MPI_Comm_dup(comm, &dup));
    for (int round = 0; round < 3; round++) {
        MPI_Request rq[6];
        int out = me * 100 + round, in = -1;
        MTEST_RC(MPI_Ibarrier(comm, &rq[0]));
        MTEST_RC(MPI_Irecv(&in, 1, MPI_INT, (me - 1 + p) % p, 0, comm, &rq[1]));
        MTEST_RC(MPI_Ibarrier(dup, &rq[2]));
        MTEST_RC(MPI_Ibarrier(comm, &rq[3]));
        MTEST_RC(MPI_Isend(&out, 1, MPI_INT, (me + 1) % p, 0, comm, &rq[4]));
        MTEST_RC(MPI_Ibarrier(comm, &rq[5]));
        if (round == 0) {
            for (int i = 5; i >= 0; i--)
                MTEST_RC(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
        } else if (round == 1) {
            MTEST_RC(MPI_Waitall(6, rq, MPI_STATUSES_IGNORE));
        } else {
            int done = 0;
            while (!done)
                MTEST_RC(MPI_Testall(6, rq, &done, MPI_STATUSES_IGNORE));
        }
        MTEST_CHECK(in == ((me - 1 + p) % p) * 100 + round, "%s: point-to-point message among Ibarriers: %d",
                    cname, in);
    }
    MPI_Comm_free(&dup);
}

static void test_errors(void)
{
    MPI_Request rq;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    mtest_check_class(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "Barrier on MPI_COMM_NULL");
    mtest_check_class(MPI_Ibarrier(MPI_COMM_NULL, &rq), MPI_ERR_COMM, "Ibarrier on MPI_COMM_NULL");
    mtest_check_class(MPI_Ibarrier(MPI_COMM_SELF, NULL), MPI_ERR_ARG, "Ibarrier with a NULL request");
    /* a barrier on an intercommunicator (tests/mpi/coll_inter.c has the rest) */
    if (size > 1 && !MTEST_MPICH_DEVIATION) {
        MPI_Comm half, inter;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        MTEST_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        MTEST_RC(MPI_Barrier(inter));
        MTEST_RC(MPI_Ibarrier(inter, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_order(MPI_COMM_WORLD, "world");
    test_order(MPI_COMM_SELF, "self");
    test_outstanding(MPI_COMM_WORLD, "world");
    test_outstanding(MPI_COMM_SELF, "self");
    if (size > 2) {
        MPI_Comm half;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half));
        test_order(half, rank % 2 ? "odd half" : "even half");
        test_outstanding(half, "half");
        MPI_Comm_free(&half);
    }
    for (int i = 0; i < 200; i++) {
        MPI_Request rq;
        MTEST_RC(MPI_Barrier(MPI_COMM_WORLD));
        MTEST_RC(MPI_Ibarrier(MPI_COMM_WORLD, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    test_errors();
    return mtest_finalize();
}
