/*
 * status_null: a NULL status pointer is a user error, not a crash.
 *
 * MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are (MPI_Status *)1 in the
 * MPICH ABI, so NULL can only be a mistake.  Under MPI_ERRORS_RETURN every
 * call below, given NULL where it writes (or reads) a status, must return
 * an error of class MPI_ERR_ARG whose MPI_Error_string names the call and
 * the argument, and must not have done anything: the message it would have
 * received, probed or matched is still there afterwards, and the request it
 * would have completed is still active.
 *
 *   single status:  Recv (fast and slow paths), Wait, Test, Waitany, Testany,
 *                   Probe, Iprobe, Mprobe, Improbe, Mrecv, Sendrecv,
 *                   Sendrecv_replace, Request_get_status; also with
 *                   MPI_REQUEST_NULL / MPI_PROC_NULL / count 0, where
 *                   the call would write an empty status
 *   status input:   Get_count, Get_elements, Get_elements_x, Test_cancelled
 *   status arrays:  Waitall, Testall, Waitsome, Testsome with count > 0;
 *                   with count 0 a NULL array is fine
 *
 * Every rank talks only to itself, so any process count works.
 */
#include "mtest.h"

#include <stdio.h>
#include <string.h>

#define TAG 5
#define NMSG 3           /* messages to self waiting while the checks run */

static int me;

/* rc must be MPI_ERR_ARG with a message naming call and word. */
static void expect_arg(int rc, const char *call, const char *word, const char *what)
{
    if (!mtest_check_class(rc, MPI_ERR_ARG, "%s", what) || rc == MPI_SUCCESS)
        return;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS) {
        mtest_fail("%s: MPI_Error_string of its code failed", what);
        return;
    }
    MTEST_CHECK(strstr(msg, call) != NULL && strstr(msg, word) != NULL,
                "%s: message \"%s\" does not name %s and %s", what, msg, call, word);
}
#define EXPECT_STATUS(call_name, rc) expect_arg((rc), call_name, "status", #rc)

static void receives_and_probes(void)
{
    int buf[4] = {0}, flag = 0;
    MPI_Message msg;

    /* messages that a wrongly accepted call would take */
    for (int i = 0; i < NMSG; i++) {
        int v = 100 + i;
        MTEST_RC(MPI_Send(&v, 1, MPI_INT, me, TAG, MPI_COMM_WORLD));
    }
    EXPECT_STATUS("MPI_Recv", MPI_Recv(buf, 1, MPI_INT, me, TAG, MPI_COMM_WORLD, NULL));
    EXPECT_STATUS("MPI_Recv", MPI_Recv(buf, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, NULL));
    EXPECT_STATUS("MPI_Recv", MPI_Recv(buf, 1, MPI_INT, me, MPI_ANY_TAG, MPI_COMM_WORLD, NULL));
    EXPECT_STATUS("MPI_Recv", MPI_Recv(buf, 1, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, NULL));
    EXPECT_STATUS("MPI_Recv", MPI_Recv(buf, 0, MPI_INT, 0, 0, MPI_COMM_SELF, NULL));
    EXPECT_STATUS("MPI_Probe", MPI_Probe(me, TAG, MPI_COMM_WORLD, NULL));
    EXPECT_STATUS("MPI_Probe", MPI_Probe(MPI_PROC_NULL, TAG, MPI_COMM_WORLD, NULL));
    EXPECT_STATUS("MPI_Iprobe", MPI_Iprobe(me, TAG, MPI_COMM_WORLD, &flag, NULL));
    EXPECT_STATUS("MPI_Iprobe", MPI_Iprobe(MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &flag, NULL));
    msg = MPI_MESSAGE_NULL;
    EXPECT_STATUS("MPI_Mprobe", MPI_Mprobe(me, TAG, MPI_COMM_WORLD, &msg, NULL));
    MTEST_CHECK(msg == MPI_MESSAGE_NULL, "MPI_Mprobe with a NULL status set the message handle");
    EXPECT_STATUS("MPI_Mprobe", MPI_Mprobe(MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &msg, NULL));
    msg = MPI_MESSAGE_NULL;
    EXPECT_STATUS("MPI_Improbe", MPI_Improbe(me, TAG, MPI_COMM_WORLD, &flag, &msg, NULL));
    MTEST_CHECK(msg == MPI_MESSAGE_NULL, "MPI_Improbe with a NULL status set the message handle");
    EXPECT_STATUS("MPI_Improbe", MPI_Improbe(MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &flag, &msg, NULL));

    /* a matched message survives an Mrecv with a NULL status */
    int v = -1;
    MTEST_RC(MPI_Mprobe(me, TAG, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE));
    MPI_Message kept = msg;
    EXPECT_STATUS("MPI_Mrecv", MPI_Mrecv(&v, 1, MPI_INT, &msg, NULL));
    MTEST_CHECK(msg == kept, "MPI_Mrecv with a NULL status changed the message handle");
    MTEST_RC(MPI_Mrecv(&v, 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
    MTEST_CHECK(v == 100, "the matched message holds %d, want 100", v);
    v = 100;
    MTEST_RC(MPI_Send(&v, 1, MPI_INT, me, TAG, MPI_COMM_WORLD));   /* back at the end of the queue */
    msg = MPI_MESSAGE_NO_PROC;
    EXPECT_STATUS("MPI_Mrecv", MPI_Mrecv(&v, 1, MPI_INT, &msg, NULL));

    /* Sendrecv: nothing sent, nothing received */
    v = 999;
    EXPECT_STATUS("MPI_Sendrecv", MPI_Sendrecv(&v, 1, MPI_INT, me, TAG, buf, 1, MPI_INT, me, TAG,
                                               MPI_COMM_WORLD, NULL));
    EXPECT_STATUS("MPI_Sendrecv", MPI_Sendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, TAG, buf, 1, MPI_INT,
                                               MPI_PROC_NULL, TAG, MPI_COMM_WORLD, NULL));
    EXPECT_STATUS("MPI_Sendrecv_replace", MPI_Sendrecv_replace(&v, 1, MPI_INT, me, TAG, me, TAG,
                                                               MPI_COMM_WORLD, NULL));
    EXPECT_STATUS("MPI_Sendrecv_replace", MPI_Sendrecv_replace(&v, 1, MPI_INT, MPI_PROC_NULL, TAG,
                                                               MPI_PROC_NULL, TAG, MPI_COMM_WORLD,
                                                               NULL));
    /* messages 101, 102, 100 now: receive them in that order */
    int want[NMSG] = {101, 102, 100};
    for (int i = 0; i < NMSG; i++) {
        v = -1;
        MTEST_RC(MPI_Recv(&v, 1, MPI_INT, me, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MTEST_CHECK(v == want[i], "message %d to self: got %d, want %d (a call with a NULL status "
                    "sent or took one)", i, v, want[i]);
    }
    MTEST_RC(MPI_Iprobe(me, TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    MTEST_CHECK(!flag, "a call with a NULL status sent a message");
}

static void completions(void)
{
    int v = 0, r = 0, flag = 0, index = 0, outcount = 0, indices[2];
    MPI_Request req = MPI_REQUEST_NULL, reqs[2];

    /* on MPI_REQUEST_NULL the calls would write an empty status */
    EXPECT_STATUS("MPI_Wait", MPI_Wait(&req, NULL));
    EXPECT_STATUS("MPI_Test", MPI_Test(&req, &flag, NULL));
    EXPECT_STATUS("MPI_Request_get_status", MPI_Request_get_status(MPI_REQUEST_NULL, &flag, NULL));
    reqs[0] = reqs[1] = MPI_REQUEST_NULL;
    EXPECT_STATUS("MPI_Waitany", MPI_Waitany(2, reqs, &index, NULL));
    EXPECT_STATUS("MPI_Testany", MPI_Testany(2, reqs, &index, &flag, NULL));
    EXPECT_STATUS("MPI_Waitany", MPI_Waitany(0, reqs, &index, NULL));
    EXPECT_STATUS("MPI_Testany", MPI_Testany(0, reqs, &index, &flag, NULL));
    EXPECT_STATUS("MPI_Waitall", MPI_Waitall(2, reqs, NULL));
    EXPECT_STATUS("MPI_Testall", MPI_Testall(2, reqs, &flag, NULL));
    EXPECT_STATUS("MPI_Waitsome", MPI_Waitsome(2, reqs, &outcount, indices, NULL));
    EXPECT_STATUS("MPI_Testsome", MPI_Testsome(2, reqs, &outcount, indices, NULL));

    /* count 0: the array is never touched, NULL is fine */
    MTEST_RC(MPI_Waitall(0, reqs, NULL));
    MTEST_RC(MPI_Testall(0, reqs, &flag, NULL));
    MTEST_RC(MPI_Waitsome(0, reqs, &outcount, indices, NULL));
    MTEST_RC(MPI_Testsome(0, reqs, &outcount, indices, NULL));

    /* complete requests: each call with NULL leaves them active */
    v = 7;
    MTEST_RC(MPI_Isend(&v, 1, MPI_INT, me, TAG, MPI_COMM_WORLD, &reqs[0]));
    MTEST_RC(MPI_Irecv(&r, 1, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &reqs[1]));
    MPI_Request keep0 = reqs[0], keep1 = reqs[1];
    req = reqs[1];
    EXPECT_STATUS("MPI_Wait", MPI_Wait(&req, NULL));
    EXPECT_STATUS("MPI_Test", MPI_Test(&req, &flag, NULL));
    MTEST_CHECK(req == keep1, "MPI_Wait/Test with a NULL status freed the request");
    EXPECT_STATUS("MPI_Request_get_status", MPI_Request_get_status(req, &flag, NULL));
    EXPECT_STATUS("MPI_Waitany", MPI_Waitany(2, reqs, &index, NULL));
    EXPECT_STATUS("MPI_Testany", MPI_Testany(2, reqs, &index, &flag, NULL));
    EXPECT_STATUS("MPI_Waitall", MPI_Waitall(2, reqs, NULL));
    EXPECT_STATUS("MPI_Testall", MPI_Testall(2, reqs, &flag, NULL));
    EXPECT_STATUS("MPI_Waitsome", MPI_Waitsome(2, reqs, &outcount, indices, NULL));
    EXPECT_STATUS("MPI_Testsome", MPI_Testsome(2, reqs, &outcount, indices, NULL));
    MTEST_CHECK(reqs[0] == keep0 && reqs[1] == keep1,
                "a completion call with a NULL status array freed a request");
    /* the requests are intact: complete them properly */
    MPI_Status st[2];
    MTEST_RC(MPI_Waitall(2, reqs, st));
    MTEST_CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL, "Waitall left requests");
    MTEST_CHECK(st[1].MPI_SOURCE == MPI_PROC_NULL, "receive from MPI_PROC_NULL: source %d",
                st[1].MPI_SOURCE);
    v = -1;
    MTEST_RC(MPI_Recv(&v, 1, MPI_INT, me, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MTEST_CHECK(v == 7, "the Isend's message holds %d, want 7", v);

    /* MPI_STATUSES_IGNORE is not NULL */
    reqs[0] = reqs[1] = MPI_REQUEST_NULL;
    MTEST_RC(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    MTEST_RC(MPI_Testsome(2, reqs, &outcount, indices, MPI_STATUSES_IGNORE));
}

static void status_inputs(void)
{
    int n = 0, flag = 0;
    MPI_Count nx = 0;
    EXPECT_STATUS("MPI_Get_count", MPI_Get_count(NULL, MPI_INT, &n));
    EXPECT_STATUS("MPI_Get_elements", MPI_Get_elements(NULL, MPI_INT, &n));
    EXPECT_STATUS("MPI_Get_elements_x", MPI_Get_elements_x(NULL, MPI_INT, &nx));
    EXPECT_STATUS("MPI_Test_cancelled", MPI_Test_cancelled(NULL, &flag));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    me = mtest_rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    receives_and_probes();
    completions();
    status_inputs();
    return mtest_finalize();
}
