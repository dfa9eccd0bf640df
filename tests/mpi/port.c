/* Ports between two halves of a job: Open_port, Publish_name /
 * Lookup_name / Unpublish_name, Comm_accept on one half and Comm_connect on
 * the other (then the other way round, one process against a group),
 * traffic on the intercommunicator checked byte for byte (eager and
 * rendezvous sizes), a broadcast across it, Intercomm_merge, and
 * Comm_disconnect; errors: a malformed port name and a closed port
 * (MPI_ERR_PORT), names never published (MPI_ERR_NAME, MPI_ERR_SERVICE), a
 * name published twice (MPI_ERR_SERVICE). At 1 process only the name
 * service and the errors run. */
#include "mtest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (1 << 20)

static void expect_class(int rc, int cls, const char *what)
{
    int c = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    MTEST_CHECK(c == cls, "%s: class %d, expected %d", what, c, cls);
}

/* Local rank r of one side sends to every remote rank a small and a big
 * message and receives the same from them; tags say the direction. */
static void traffic(MPI_Comm ic, int side)
{
    int rank, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_remote_size(ic, &rsize);
    char *out = malloc(BIG), *in = malloc(BIG);
    for (int p = 0; p < rsize; p++) {
        int n[2] = {64 + p, BIG};
        for (int k = 0; k < 2; k++) {
            MPI_Request rq;
            MPI_Status st;
            int me = 100 * side + rank, them = 100 * (1 - side) + p;
            mtest_fill(out, (size_t)n[k], me, k);
            int nin = k ? BIG : 64 + rank;      /* what remote rank p sends to this one */
            mtest_poison(in, (size_t)nin, them, k);
            MTEST_RC(MPI_Isend(out, n[k], MPI_BYTE, p, 10 + k, ic, &rq));
            MTEST_RC(MPI_Recv(in, nin, MPI_BYTE, p, 10 + k, ic, &st));
            MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            mtest_check_status(&st, p, 10 + k, MPI_BYTE, nin, "receive across the intercommunicator");
            mtest_check_data(in, (size_t)nin, them, k, "data from remote rank %d", p);
        }
    }
    free(out);
    free(in);
}

static void use(MPI_Comm ic, int side, int high)
{
    int rank, size, rsize, word = side ? 0 : 31337;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_size(ic, &size);
    MPI_Comm_remote_size(ic, &rsize);
    traffic(ic, side);
    /* side 0's rank 0 broadcasts to side 1 */
    int root = side == 1 ? 0 : rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    MTEST_RC(MPI_Bcast(&word, 1, MPI_INT, root, ic));
    if (side == 1)
        MTEST_CHECK(word == 31337, "broadcast across gave %d", word);
    MPI_Comm merged;
    int mrank, msize, sum = 0;
    MTEST_RC(MPI_Intercomm_merge(ic, high, &merged));
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    MTEST_CHECK(msize == size + rsize && mrank == (high ? rsize + rank : rank), "merged: rank %d of %d", mrank, msize);
    MTEST_RC(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged));
    MTEST_CHECK(sum == msize * (msize - 1) / 2, "merged allreduce gave %d", sum);
    MPI_Comm_free(&merged);
}

static void errors(void)
{
    char port[MPI_MAX_PORT_NAME], found[MPI_MAX_PORT_NAME], svc[64];
    int rank;
    MPI_Comm ic = MPI_COMM_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    snprintf(svc, sizeof svc, "dmpi port test %d", rank);
    MTEST_RC(MPI_Open_port(MPI_INFO_NULL, port));
    MTEST_RC(MPI_Publish_name(svc, MPI_INFO_NULL, port));
    expect_class(MPI_Publish_name(svc, MPI_INFO_NULL, port), MPI_ERR_SERVICE, "publishing a name twice");
    MTEST_RC(MPI_Lookup_name(svc, MPI_INFO_NULL, found));
    MTEST_CHECK(!strcmp(found, port), "lookup found '%s' for '%s'", found, port);
    MTEST_RC(MPI_Unpublish_name(svc, MPI_INFO_NULL, port));
    expect_class(MPI_Lookup_name(svc, MPI_INFO_NULL, found), MPI_ERR_NAME, "lookup of an unpublished name");
    expect_class(MPI_Unpublish_name(svc, MPI_INFO_NULL, port), MPI_ERR_SERVICE, "unpublishing twice");
    MTEST_RC(MPI_Close_port(port));
    expect_class(MPI_Close_port(port), MPI_ERR_PORT, "closing a port twice");
    expect_class(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic), MPI_ERR_PORT,
                 "connecting to a closed port");
    expect_class(MPI_Comm_connect("no port at all", MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic), MPI_ERR_PORT,
                 "connecting to a malformed port name");
    expect_class(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic), MPI_ERR_PORT,
                 "accepting on a port that is not open");
    expect_class(MPI_Comm_accept(port, MPI_INFO_NULL, 5, MPI_COMM_SELF, &ic), MPI_ERR_ROOT, "root 5 of COMM_SELF");
    MTEST_CHECK(ic == MPI_COMM_NULL, "a failed accept or connect set newcomm");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    errors();
    if (mtest_size >= 2) {
        /* halves: side 0 the lower ranks, side 1 the rest */
        int side = mtest_rank >= mtest_size / 2;
        MPI_Comm half, ic;
        char port[MPI_MAX_PORT_NAME] = "";
        MPI_Comm_split(MPI_COMM_WORLD, side, mtest_rank, &half);
        if (mtest_rank == 0) {
            MTEST_RC(MPI_Open_port(MPI_INFO_NULL, port));
            MTEST_RC(MPI_Publish_name("dmpi-port-test", MPI_INFO_NULL, port));
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (side == 0) {
            MTEST_RC(MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &ic));
        } else {
            if (mtest_rank == mtest_size / 2)
                MTEST_RC(MPI_Lookup_name("dmpi-port-test", MPI_INFO_NULL, port));
            MTEST_RC(MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &ic));
        }
        use(ic, side, side);
        MTEST_RC(MPI_Comm_disconnect(&ic));
        MTEST_CHECK(ic == MPI_COMM_NULL, "Comm_disconnect did not set MPI_COMM_NULL");
        if (mtest_rank == 0) {
            MTEST_RC(MPI_Unpublish_name("dmpi-port-test", MPI_INFO_NULL, port));
            MTEST_RC(MPI_Close_port(port));
        }
        /* the other way round: the last rank alone accepts, side 0 connects */
        int last = mtest_size - 1;
        if (mtest_rank == last)
            MTEST_RC(MPI_Open_port(MPI_INFO_NULL, port));
        MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, last, MPI_COMM_WORLD);
        if (mtest_rank == last) {
            MTEST_RC(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
            use(ic, 1, 1);
            MTEST_RC(MPI_Comm_disconnect(&ic));
            MTEST_RC(MPI_Close_port(port));
        } else if (side == 0) {
            MTEST_RC(MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &ic));
            use(ic, 0, 0);
            MTEST_RC(MPI_Comm_disconnect(&ic));
        }
        MPI_Comm_free(&half);
    }
    return mtest_finalize();
}
