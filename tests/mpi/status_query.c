/*
 * status_query: MPI-4.1's status accessors and the request queries that
 * leave requests as they are.
 *
 * MPI_Status_get/set_source, _tag, _error store and read any value and
 * touch no other field; NULL and MPI_STATUS_IGNORE are MPI_ERR_ARG.
 *
 * MPI_Request_get_status_any/_all/_some on real receives that the partner
 * sends only when told to, so each state is seen for certain: nothing
 * complete (flag 0, index MPI_UNDEFINED, outcount 0), one complete (its
 * index and full status, the others pending), all complete (every status).
 * The requests stay valid and active throughout: the handles are unchanged,
 * a later MPI_Waitall completes them with the same statuses and data.
 * Arrays of only MPI_REQUEST_NULL and inactive persistent requests (and
 * count 0): flag 1 with MPI_UNDEFINED and an empty status (_any),
 * flag 1 and empty statuses (_all), outcount MPI_UNDEFINED (_some). A
 * generalized request whose query_fn fails gives MPI_ERR_IN_STATUS with the
 * error in its status (_all, _some) or the error itself (_any), and stays.
 * Errors: an invalid or freed handle (MPI_ERR_REQUEST), a negative count
 * (MPI_ERR_COUNT), NULL outputs (MPI_ERR_ARG).
 *
 * Rank pairs (0, 1), (2, 3), ...; an odd rank out only checks the local
 * parts.
 */
#include "mtest.h"

#include <string.h>

#define N 50

static void accessors(void)
{
    MPI_Status st;
    mtest_status_garbage(&st);
    MPI_Status before = st;
    MTEST_RC(MPI_Status_set_source(&st, 17));
    MTEST_RC(MPI_Status_set_tag(&st, -4));
    MTEST_RC(PMPI_Status_set_error(&st, MPI_ERR_TRUNCATE));
    MTEST_CHECK(st.MPI_SOURCE == 17 && st.MPI_TAG == -4 && st.MPI_ERROR == MPI_ERR_TRUNCATE,
                "set_*: fields %d %d %d", st.MPI_SOURCE, st.MPI_TAG, st.MPI_ERROR);
    MTEST_CHECK(st.count_lo == before.count_lo && st.count_hi_and_cancelled == before.count_hi_and_cancelled,
                "set_* changed the count or the cancelled flag");
    int src = -1, tag = -1, err = -1;
    MTEST_RC(MPI_Status_get_source(&st, &src));
    MTEST_RC(PMPI_Status_get_tag(&st, &tag));
    MTEST_RC(MPI_Status_get_error(&st, &err));
    MTEST_CHECK(src == 17 && tag == -4 && err == MPI_ERR_TRUNCATE, "get_*: %d %d %d", src, tag, err);
    MTEST_RC(MPI_Status_set_source(&st, MPI_ANY_SOURCE));
    MTEST_RC(MPI_Status_get_source(&st, &src));
    MTEST_CHECK(src == MPI_ANY_SOURCE, "source %d after setting MPI_ANY_SOURCE", src);

    mtest_check_class(MPI_Status_get_source(MPI_STATUS_IGNORE, &src), MPI_ERR_ARG, "get_source(MPI_STATUS_IGNORE)");
    mtest_check_class(MPI_Status_get_tag(NULL, &tag), MPI_ERR_ARG, "get_tag(NULL)");
    mtest_check_class(MPI_Status_get_error(&st, NULL), MPI_ERR_ARG, "get_error with error NULL");
    mtest_check_class(MPI_Status_set_source(NULL, 1), MPI_ERR_ARG, "set_source(NULL)");
    mtest_check_class(MPI_Status_set_tag(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG, "set_tag(MPI_STATUS_IGNORE)");
    mtest_check_class(MPI_Status_set_error(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG, "set_error(MPI_STATUS_IGNORE)");

    /* on a real receive's status */
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size, x = 1, y;
    MTEST_RC(MPI_Sendrecv(&x, 1, MPI_INT, right, 44, &y, 1, MPI_INT, left, 44, MPI_COMM_WORLD, &st));
    MTEST_RC(MPI_Status_get_source(&st, &src));
    MTEST_RC(MPI_Status_get_tag(&st, &tag));
    MTEST_CHECK(src == left && tag == 44, "get_source/tag of a receive: %d %d, want %d 44", src, tag, left);
}

/* Empty statuses: the three nulls and inactive persistent requests. */
static void nothing_active(void)
{
    int buf;
    MPI_Request pers, reqs[3];
    MTEST_RC(MPI_Recv_init(&buf, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &pers));
    reqs[0] = MPI_REQUEST_NULL, reqs[1] = pers, reqs[2] = MPI_REQUEST_NULL;
    MPI_Status st, sts[3];
    int index = 5, flag = 0, outcount = 5, indices[3];
    mtest_status_garbage(&st);
    MTEST_RC(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
    MTEST_CHECK(flag == 1 && index == MPI_UNDEFINED, "_any with none active: flag %d index %d", flag, index);
    mtest_check_empty_status(&st, 0, "_any with none active");
    index = 5, flag = 0;
    MTEST_RC(MPI_Request_get_status_any(0, NULL, &index, &flag, MPI_STATUS_IGNORE));
    MTEST_CHECK(flag == 1 && index == MPI_UNDEFINED, "_any with count 0: flag %d index %d", flag, index);
    flag = 0;
    for (int i = 0; i < 3; i++)
        mtest_status_garbage(&sts[i]);
    MTEST_RC(MPI_Request_get_status_all(3, reqs, &flag, sts));
    MTEST_CHECK(flag == 1, "_all with none active: flag %d", flag);
    for (int i = 0; i < 3; i++)
        mtest_check_empty_status(&sts[i], 0, "_all with none active");
    MTEST_RC(MPI_Request_get_status_some(3, reqs, &outcount, indices, sts));
    MTEST_CHECK(outcount == MPI_UNDEFINED, "_some with none active: outcount %d", outcount);
    MTEST_CHECK(reqs[1] == pers, "the inactive persistent request changed");
    MTEST_RC(MPI_Request_free(&pers));
}

static void errors(void)
{
    int buf, index, flag, outcount, indices[2];
    MPI_Request bad[2] = {MPI_REQUEST_NULL, (MPI_Request)0x2c0fffff}, r;
    MTEST_RC(MPI_Irecv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 4321, MPI_COMM_SELF, &r));
    MPI_Request freed = r;
    MTEST_RC(MPI_Cancel(&r));
    MTEST_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    mtest_check_class(MPI_Request_get_status_any(2, bad, &index, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST,
                      "_any with an invalid handle");
    mtest_check_class(MPI_Request_get_status_all(1, &freed, &flag, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST,
                      "_all with a freed request");
    mtest_check_class(MPI_Request_get_status_some(2, bad, &outcount, indices, MPI_STATUSES_IGNORE),
                      MPI_ERR_REQUEST, "_some with an invalid handle");
    mtest_check_class(MPI_Request_get_status_any(-1, bad, &index, &flag, MPI_STATUS_IGNORE), MPI_ERR_COUNT,
                      "_any with count -1");
    mtest_check_class(MPI_Request_get_status_any(1, bad, NULL, &flag, MPI_STATUS_IGNORE), MPI_ERR_ARG,
                      "_any with indx NULL");
    mtest_check_class(MPI_Request_get_status_all(1, bad, NULL, MPI_STATUSES_IGNORE), MPI_ERR_ARG,
                      "_all with flag NULL");
    mtest_check_class(MPI_Request_get_status_some(1, bad, &outcount, NULL, MPI_STATUSES_IGNORE), MPI_ERR_ARG,
                      "_some with array_of_indices NULL");
    mtest_check_class(MPI_Request_get_status_all(2, NULL, &flag, MPI_STATUSES_IGNORE), MPI_ERR_ARG,
                      "_all with array_of_requests NULL");
}

static int query_fails(void *extra, MPI_Status *st)
{
    (void)extra;
    st->MPI_SOURCE = 3;
    return MPI_ERR_OTHER;
}
static int free_ok(void *extra) { (void)extra; return MPI_SUCCESS; }
static int cancel_ok(void *extra, int complete) { (void)extra; (void)complete; return MPI_SUCCESS; }

static void failing_greq(void)
{
    MPI_Request g, reqs[2];
    MTEST_RC(MPI_Grequest_start(query_fails, free_ok, cancel_ok, NULL, &g));
    reqs[0] = MPI_REQUEST_NULL, reqs[1] = g;
    int flag = -1, index = -1, outcount = -1, indices[2] = {-1, -1};
    MPI_Status sts[2];
    MTEST_RC(MPI_Request_get_status_all(2, reqs, &flag, sts));
    MTEST_CHECK(flag == 0, "_all on an incomplete generalized request: flag %d", flag);
    MTEST_RC(MPI_Grequest_complete(g));
    mtest_check_class(MPI_Request_get_status_all(2, reqs, &flag, sts), MPI_ERR_IN_STATUS,
                      "_all on a failing generalized request");
    MTEST_CHECK(flag == 1 && sts[0].MPI_ERROR == MPI_SUCCESS && sts[1].MPI_SOURCE == 3, "_all: flag %d, source %d",
                flag, sts[1].MPI_SOURCE);
    mtest_check_class(sts[1].MPI_ERROR, MPI_ERR_OTHER, "_all: the status's MPI_ERROR");
    mtest_check_class(MPI_Request_get_status_some(2, reqs, &outcount, indices, sts), MPI_ERR_IN_STATUS,
                      "_some on a failing generalized request");
    MTEST_CHECK(outcount == 1 && indices[0] == 1, "_some: outcount %d index %d", outcount, indices[0]);
    mtest_check_class(sts[0].MPI_ERROR, MPI_ERR_OTHER, "_some: the status's MPI_ERROR");
    mtest_check_class(MPI_Request_get_status_any(2, reqs, &index, &flag, MPI_STATUS_IGNORE), MPI_ERR_OTHER,
                      "_any on a failing generalized request");
    MTEST_CHECK(index == 1 && flag == 1 && reqs[1] == g, "_any: index %d flag %d", index, flag);
    mtest_check_class(MPI_Wait(&g, MPI_STATUS_IGNORE), MPI_ERR_OTHER, "Wait on the failing generalized request");
    MTEST_CHECK(g == MPI_REQUEST_NULL, "Wait left the generalized request");
}

static void expect_msg(const MPI_Status *st, const int *buf, int peer, int tag, const char *what)
{
    mtest_check_status(st, peer, tag, MPI_INT, N, what);
    for (int i = 0; i < N; i++)
        if (!MTEST_CHECK(buf[i] == peer * 100000 + tag * 1000 + i, "%s: element %d is %d", what, i, buf[i]))
            break;
}

/* The receiver of a pair: two receives, completed one at a time on request. */
static void receiver(int peer)
{
    int a[N], b[N], go = 0;
    MPI_Request reqs[3];
    MTEST_RC(MPI_Irecv(a, N, MPI_INT, peer, 1, MPI_COMM_WORLD, &reqs[0]));
    reqs[1] = MPI_REQUEST_NULL;
    MTEST_RC(MPI_Irecv(b, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &reqs[2]));
    MPI_Request orig[3];
    memcpy(orig, reqs, sizeof orig);

    int index = -2, flag = -2, outcount = -2, indices[3];
    MPI_Status st, sts[3];
    MTEST_RC(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
    MTEST_CHECK(flag == 0 && index == MPI_UNDEFINED, "_any before any send: flag %d index %d", flag, index);
    MTEST_RC(MPI_Request_get_status_all(3, reqs, &flag, sts));
    MTEST_CHECK(flag == 0, "_all before any send: flag %d", flag);
    MTEST_RC(MPI_Request_get_status_some(3, reqs, &outcount, indices, sts));
    MTEST_CHECK(outcount == 0, "_some before any send: outcount %d", outcount);

    /* the tag-1 message only */
    MTEST_RC(MPI_Send(&go, 1, MPI_INT, peer, 100, MPI_COMM_WORLD));
    for (flag = 0; !flag;)
        MTEST_RC(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
    MTEST_CHECK(index == 0, "_any after the first send: index %d", index);
    expect_msg(&st, a, peer, 1, "_any's status");
    MTEST_RC(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
    MTEST_CHECK(flag == 1 && index == 0, "_any again: flag %d index %d (the request must stay)", flag, index);
    MTEST_RC(MPI_Request_get_status_all(3, reqs, &flag, sts));
    MTEST_CHECK(flag == 0, "_all with one pending: flag %d", flag);
    memset(indices, -1, sizeof indices);
    MTEST_RC(MPI_Request_get_status_some(3, reqs, &outcount, indices, sts));
    MTEST_CHECK(outcount == 1 && indices[0] == 0, "_some with one complete: outcount %d index %d", outcount,
                indices[0]);
    expect_msg(&sts[0], a, peer, 1, "_some's status");
    MTEST_CHECK(memcmp(reqs, orig, sizeof orig) == 0, "the queries changed the request handles");

    /* then the other */
    go = 1;
    MTEST_RC(MPI_Send(&go, 1, MPI_INT, peer, 100, MPI_COMM_WORLD));
    for (flag = 0; !flag;)
        MTEST_RC(MPI_Request_get_status_all(3, reqs, &flag, sts));
    expect_msg(&sts[0], a, peer, 1, "_all's first status");
    mtest_check_empty_status(&sts[1], 0, "_all's status of MPI_REQUEST_NULL");
    expect_msg(&sts[2], b, peer, 2, "_all's third status");
    MTEST_RC(MPI_Request_get_status_some(3, reqs, &outcount, indices, MPI_STATUSES_IGNORE));
    MTEST_CHECK(outcount == 2 && indices[0] == 0 && indices[1] == 2, "_some with both: %d [%d %d]", outcount,
                indices[0], indices[1]);
    MTEST_CHECK(memcmp(reqs, orig, sizeof orig) == 0, "the queries changed the request handles");

    /* the requests are still there: Waitall completes them, same results */
    memset(a, 0, sizeof a);
    MTEST_RC(MPI_Waitall(3, reqs, sts));
    MTEST_CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[2] == MPI_REQUEST_NULL, "Waitall left requests");
    expect_msg(&sts[2], b, peer, 2, "Waitall's status");
    MTEST_CHECK(sts[0].MPI_SOURCE == peer && sts[0].MPI_TAG == 1, "Waitall's first status: %d %d",
                sts[0].MPI_SOURCE, sts[0].MPI_TAG);
}

static void sender(int peer)
{
    int a[N], b[N], go;
    for (int i = 0; i < N; i++)
        a[i] = mtest_rank * 100000 + 1000 + i, b[i] = mtest_rank * 100000 + 2000 + i;
    MTEST_RC(MPI_Recv(&go, 1, MPI_INT, peer, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MTEST_RC(MPI_Send(a, N, MPI_INT, peer, 1, MPI_COMM_WORLD));
    MTEST_RC(MPI_Recv(&go, 1, MPI_INT, peer, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    /* a persistent send, queried while active, then completed */
    MPI_Request p;
    MTEST_RC(MPI_Send_init(b, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &p));
    MTEST_RC(MPI_Start(&p));
    int flag = 0, index = -1;
    MPI_Status st;
    for (; !flag;)
        MTEST_RC(MPI_Request_get_status_any(1, &p, &index, &flag, &st));
    MTEST_CHECK(index == 0 && p != MPI_REQUEST_NULL, "_any on a persistent send: index %d", index);
    MTEST_RC(MPI_Wait(&p, MPI_STATUS_IGNORE));
    MTEST_CHECK(p != MPI_REQUEST_NULL, "Wait freed the persistent request");
    MTEST_RC(MPI_Request_get_status_any(1, &p, &index, &flag, MPI_STATUS_IGNORE));
    MTEST_CHECK(flag == 1 && index == MPI_UNDEFINED, "_any on the inactive persistent send: flag %d index %d",
                flag, index);
    MTEST_RC(MPI_Request_free(&p));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    accessors();
    nothing_active();
    errors();
    failing_greq();
    int peer = mtest_rank ^ 1;
    if (peer < mtest_size) {
        if (mtest_rank % 2 == 0)
            receiver(peer);
        else
            sender(peer);
    }
    return mtest_finalize();
}
