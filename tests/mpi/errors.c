/*
 * errors: argument checking and error handlers.
 *
 * With MPI_ERRORS_RETURN on MPI_COMM_WORLD (and MPI_COMM_SELF: errors on an
 * invalid communicator handle cannot be raised on that communicator), every
 * bad argument must give an error of the class the MPI standard names, and
 * MPI_Error_string must give a non-empty message for it:
 *   MPI_ERR_RANK     dest >= size, negative dest other than MPI_PROC_NULL,
 *                    MPI_ANY_SOURCE as dest, bad source in Recv/Probe
 *   MPI_ERR_COUNT    negative count
 *   MPI_ERR_TAG      negative tag, MPI_ANY_TAG on a send (and a tag above
 *                    MPI_TAG_UB: INT_MAX is checked for consistency between
 *                    send and receive, since MPI_TAG_UB cannot be queried
 *                    with the functions the suite may use)
 *   MPI_ERR_COMM     MPI_COMM_NULL, a garbage handle
 *   MPI_ERR_TYPE     MPI_DATATYPE_NULL, a garbage handle
 *   MPI_ERR_BUFFER   NULL buffer with count > 0
 *   MPI_ERR_REQUEST  freeing / starting MPI_REQUEST_NULL, starting a
 *                    non-persistent request, a garbage handle
 *   MPI_ERR_ARG      MPI_Error_class / MPI_Error_string of an invalid code
 *                    (negative, too large, or one no error had: 123456),
 *                    MPI_ERRHANDLER_NULL as error handler
 * User error handlers (MPI_Comm_create_errhandler) are called with the
 * communicator and the error code, MPI_Comm_call_errhandler calls them, and
 * MPI_Comm_get_errhandler returns what was set.
 *
 * Where MPICH 4.0 disagrees with the standard the check is skipped under
 * MPICH (MTEST_MPICH_DEVIATION) and a comment says what MPICH does.
 * Garbage integer handles assume the MPICH ABI (integer handles); they are
 * skipped under Open MPI, whose handles are pointers.  (Open MPI 4.1 also
 * raises errors on MPI_COMM_NULL through MPI_ERRORS_ARE_FATAL, so this
 * program is validated with MPICH only.)
 */
#include "mtest.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT(cls, call) mtest_check_class((call), (cls), "%s", #call)

static int me, size;

/* Garbage integer handles in the MPICH ABI encoding (bits 31-30 kind:
 * 0 invalid, 1 builtin, 2 direct, 3 indirect; bits 29-26 object type:
 * 1 communicator, 3 datatype, 11 request).  mpich_ok = 0 marks values that
 * make MPICH 4.0 assert or crash instead of returning an error; those are
 * checked only under dmpi. */
#if !MTEST_OMPI_DEVIATION
struct garbage {
    unsigned value;
    int mpich_ok;
    const char *what;
};
static const struct garbage garbage_comm[] = {
    {0x12345678u, 1, "invalid kind"},
    {0x4c000000u, 1, "a builtin datatype's encoding"},
    {0x84000123u, 1, "unallocated direct communicator"},
    {0xc4001234u, 1, "unallocated indirect communicator"},
    {0x440000ffu, 0, "builtin communicator index out of range"},
};
static const struct garbage garbage_type[] = {
    {0x12345678u, 1, "invalid kind"},
    {0x44000000u, 1, "MPI_COMM_WORLD's encoding"},
    {0xac000123u, 1, "a request's encoding"},
    {0x4c0000ffu, 0, "builtin datatype index out of range (MPICH: size 0, no error)"},
    {0x8c000123u, 0, "unallocated direct datatype"},
    {0xcc001234u, 0, "unallocated indirect datatype"},
};
static const struct garbage garbage_req[] = {
    {0x12345678u, 1, "invalid kind"},
    {0x44000000u, 1, "MPI_COMM_WORLD's encoding"},
    {0x4c000000u, 1, "a builtin datatype's encoding"},
    {0xac000123u, 0, "unallocated direct request"},
    {0xec001234u, 0, "unallocated indirect request"},
};
#endif

static void rank_errors(void)
{
    int buf[4] = {0, 0, 0, 0};
    MPI_Request r;
    MPI_Status st;
    int flag;
    MPI_Message msg;

    EXPECT(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, size + 100, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_RANK, MPI_Ssend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_RANK, MPI_Rsend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_RANK, MPI_Isend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_RANK, MPI_Issend(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_RANK, MPI_Irsend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_RANK, MPI_Send_init(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_RANK, MPI_Recv(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_RANK, MPI_Recv(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_RANK, MPI_Irecv(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_RANK, MPI_Recv_init(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_RANK, MPI_Probe(size, 0, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_RANK, MPI_Iprobe(-5, 0, MPI_COMM_WORLD, &flag, &st));
    EXPECT(MPI_ERR_RANK, MPI_Improbe(size, 0, MPI_COMM_WORLD, &flag, &msg, &st));
    EXPECT(MPI_ERR_RANK, MPI_Sendrecv(buf, 1, MPI_INT, size, 0, buf + 1, 1, MPI_INT, me, 0,
                                      MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_RANK, MPI_Sendrecv(buf, 1, MPI_INT, me, 0, buf + 1, 1, MPI_INT, size, 0,
                                      MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, 1, 0, MPI_COMM_SELF));
    EXPECT(MPI_ERR_RANK, MPI_Recv(buf, 1, MPI_INT, 1, 0, MPI_COMM_SELF, &st));
    /* valid special ranks */
    EXPECT(MPI_SUCCESS, MPI_Send(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    EXPECT(MPI_SUCCESS, MPI_Recv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
}

static void count_errors(void)
{
    int buf[4] = {0, 0, 0, 0};
    MPI_Request r;
    MPI_Status st;

    EXPECT(MPI_ERR_COUNT, MPI_Send(buf, -1, MPI_INT, me, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_COUNT, MPI_Ssend(buf, -1, MPI_INT, me, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_COUNT, MPI_Rsend(buf, -1, MPI_INT, me, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_COUNT, MPI_Isend(buf, -1, MPI_INT, me, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_COUNT, MPI_Send_init(buf, -1, MPI_INT, me, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_COUNT, MPI_Recv(buf, -1, MPI_INT, me, 0, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_COUNT, MPI_Irecv(buf, -1, MPI_INT, me, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_COUNT, MPI_Recv_init(buf, -1, MPI_INT, me, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_COUNT, MPI_Sendrecv(buf, -1, MPI_INT, me, 0, buf + 1, 1, MPI_INT, me, 0,
                                       MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_COUNT, MPI_Sendrecv(buf, 1, MPI_INT, me, 0, buf + 1, -1, MPI_INT, me, 0,
                                       MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_COUNT, MPI_Sendrecv_replace(buf, -1, MPI_INT, me, 0, me, 0,
                                               MPI_COMM_WORLD, &st));
}

static void tag_errors(void)
{
    int buf[4] = {0, 0, 0, 0};
    MPI_Request r;
    MPI_Status st;
    int flag;

    EXPECT(MPI_ERR_TAG, MPI_Send(buf, 1, MPI_INT, me, -1, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_TAG, MPI_Send(buf, 1, MPI_INT, me, MPI_ANY_TAG, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_TAG, MPI_Isend(buf, 1, MPI_INT, me, MPI_ANY_TAG, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_TAG, MPI_Ssend(buf, 1, MPI_INT, me, -7, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_TAG, MPI_Send_init(buf, 1, MPI_INT, me, -7, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_TAG, MPI_Recv(buf, 1, MPI_INT, me, -7, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_TAG, MPI_Irecv(buf, 1, MPI_INT, me, -7, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_TAG, MPI_Iprobe(me, -7, MPI_COMM_WORLD, &flag, &st));
    EXPECT(MPI_ERR_TAG, MPI_Sendrecv(buf, 1, MPI_INT, me, MPI_ANY_TAG, buf + 1, 1, MPI_INT, me,
                                     0, MPI_COMM_WORLD, &st));

    /* INT_MAX is valid iff MPI_TAG_UB == INT_MAX: the send and the receive
     * side must agree, and a valid one must work */
    int v = 77, w = 0;
    MPI_Request rr;
    int rc_r = MPI_Irecv(&w, 1, MPI_INT, me, INT_MAX, MPI_COMM_WORLD, &rr);
    int rc_s = MPI_Isend(&v, 1, MPI_INT, me, INT_MAX, MPI_COMM_WORLD, &r);
    if (rc_s == MPI_SUCCESS || rc_r == MPI_SUCCESS) {
        MTEST_CHECK(rc_s == MPI_SUCCESS && rc_r == MPI_SUCCESS, "tag INT_MAX: Isend rc %d, "
                    "Irecv rc %d: one accepts it, the other does not", rc_s, rc_r);
        if (rc_s == MPI_SUCCESS && rc_r == MPI_SUCCESS) {
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            MPI_Wait(&rr, &st);
            mtest_check_status(&st, me, INT_MAX, MPI_INT, 1, "message with tag INT_MAX");
            MTEST_CHECK(w == 77, "message with tag INT_MAX carried %d", w);
        }
    } else {
        mtest_check_class(rc_s, MPI_ERR_TAG, "Isend with tag INT_MAX (above MPI_TAG_UB)");
        mtest_check_class(rc_r, MPI_ERR_TAG, "Irecv with tag INT_MAX (above MPI_TAG_UB)");
    }
    /* the smallest MPI_TAG_UB the standard allows is 32767 */
    v = 78;
    EXPECT(MPI_SUCCESS, MPI_Sendrecv(&v, 1, MPI_INT, me, 32767, &w, 1, MPI_INT, me, 32767,
                                     MPI_COMM_WORLD, &st));
    MTEST_CHECK(w == 78 && st.MPI_TAG == 32767, "tag 32767: got %d, tag %d", w, st.MPI_TAG);
}

static void comm_errors(void)
{
    int buf[4] = {0, 0, 0, 0};
    MPI_Request r;
    MPI_Status st;
    int flag, x;

    EXPECT(MPI_ERR_COMM, MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL));
    EXPECT(MPI_ERR_COMM, MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &st));
    EXPECT(MPI_ERR_COMM, MPI_Isend(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &r));
    EXPECT(MPI_ERR_COMM, MPI_Irecv(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &r));
    EXPECT(MPI_ERR_COMM, MPI_Iprobe(0, 0, MPI_COMM_NULL, &flag, &st));
    EXPECT(MPI_ERR_COMM, MPI_Send_init(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &r));
    EXPECT(MPI_ERR_COMM, MPI_Sendrecv(buf, 1, MPI_INT, 0, 0, buf + 1, 1, MPI_INT, 0, 0,
                                      MPI_COMM_NULL, &st));
    EXPECT(MPI_ERR_COMM, MPI_Comm_rank(MPI_COMM_NULL, &x));
    EXPECT(MPI_ERR_COMM, MPI_Comm_size(MPI_COMM_NULL, &x));
    EXPECT(MPI_ERR_COMM, MPI_Barrier(MPI_COMM_NULL));
#if !MTEST_OMPI_DEVIATION
    for (int i = 0; i < (int)(sizeof garbage_comm / sizeof garbage_comm[0]); i++) {
        if (MTEST_MPICH_DEVIATION && !garbage_comm[i].mpich_ok)
            continue;
        MPI_Comm c = (MPI_Comm)garbage_comm[i].value;
        mtest_check_class(MPI_Send(buf, 1, MPI_INT, 0, 0, c), MPI_ERR_COMM,
                          "MPI_Send on garbage communicator %#x (%s)", garbage_comm[i].value,
                          garbage_comm[i].what);
        mtest_check_class(MPI_Comm_rank(c, &x), MPI_ERR_COMM,
                          "MPI_Comm_rank on garbage communicator %#x (%s)",
                          garbage_comm[i].value, garbage_comm[i].what);
    }
#endif
}

static void type_errors(void)
{
    int buf[4] = {0, 0, 0, 0};
    MPI_Request r;
    MPI_Status st;
    int x;

    EXPECT(MPI_ERR_TYPE, MPI_Send(buf, 1, MPI_DATATYPE_NULL, me, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_TYPE, MPI_Recv(buf, 1, MPI_DATATYPE_NULL, me, 0, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_TYPE, MPI_Isend(buf, 1, MPI_DATATYPE_NULL, me, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_TYPE, MPI_Irecv(buf, 1, MPI_DATATYPE_NULL, me, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_TYPE, MPI_Type_size(MPI_DATATYPE_NULL, &x));
    MPI_Sendrecv(buf, 1, MPI_INT, me, 0, buf + 1, 1, MPI_INT, me, 0, MPI_COMM_WORLD, &st);
    EXPECT(MPI_ERR_TYPE, MPI_Get_count(&st, MPI_DATATYPE_NULL, &x));
#if !MTEST_OMPI_DEVIATION
    for (int i = 0; i < (int)(sizeof garbage_type / sizeof garbage_type[0]); i++) {
        if (MTEST_MPICH_DEVIATION && !garbage_type[i].mpich_ok)
            continue;
        MPI_Datatype t = (MPI_Datatype)garbage_type[i].value;
        mtest_check_class(MPI_Send(buf, 1, t, me, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
                          "MPI_Send with garbage datatype %#x (%s)", garbage_type[i].value,
                          garbage_type[i].what);
        mtest_check_class(MPI_Type_size(t, &x), MPI_ERR_TYPE,
                          "MPI_Type_size of garbage datatype %#x (%s)", garbage_type[i].value,
                          garbage_type[i].what);
    }
#endif
}

static void buffer_errors(void)
{
    MPI_Request r;
    MPI_Status st;

    EXPECT(MPI_ERR_BUFFER, MPI_Send(NULL, 1, MPI_INT, me, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_BUFFER, MPI_Recv(NULL, 1, MPI_INT, me, 0, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_BUFFER, MPI_Isend(NULL, 4, MPI_BYTE, me, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_BUFFER, MPI_Irecv(NULL, 4, MPI_BYTE, me, 0, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_BUFFER, MPI_Ssend(NULL, 1, MPI_DOUBLE, me, 0, MPI_COMM_WORLD));
    /* NULL with count 0 is fine */
    MPI_Request rr;
    EXPECT(MPI_SUCCESS, MPI_Irecv(NULL, 0, MPI_INT, me, 3, MPI_COMM_WORLD, &rr));
    EXPECT(MPI_SUCCESS, MPI_Send(NULL, 0, MPI_INT, me, 3, MPI_COMM_WORLD));
    EXPECT(MPI_SUCCESS, MPI_Wait(&rr, &st));
    mtest_check_status(&st, me, 3, MPI_INT, 0, "0-int message with NULL buffers");
}

static void request_errors(void)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st;
    int flag, v = 0;

    EXPECT(MPI_ERR_REQUEST, MPI_Request_free(&r));
    r = MPI_REQUEST_NULL;
    EXPECT(MPI_ERR_REQUEST, MPI_Start(&r));
    r = MPI_REQUEST_NULL;
    MPI_Request arr[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    EXPECT(MPI_ERR_REQUEST, MPI_Startall(2, arr));

    /* starting a request that is not persistent */
    EXPECT(MPI_SUCCESS, MPI_Irecv(&v, 1, MPI_INT, me, 11, MPI_COMM_WORLD, &r));
    EXPECT(MPI_ERR_REQUEST, MPI_Start(&r));
    EXPECT(MPI_SUCCESS, MPI_Cancel(&r));
    EXPECT(MPI_SUCCESS, MPI_Wait(&r, &st));
    MPI_Test_cancelled(&st, &flag);
    MTEST_CHECK(flag, "receive cancelled after failed Start not cancelled");

    /* starting an active persistent request */
    EXPECT(MPI_SUCCESS, MPI_Recv_init(&v, 1, MPI_INT, me, 12, MPI_COMM_WORLD, &r));
    EXPECT(MPI_SUCCESS, MPI_Start(&r));
    /* MPICH 4.0 starts it a second time without complaint */
    if (!MTEST_MPICH_DEVIATION)
        EXPECT(MPI_ERR_REQUEST, MPI_Start(&r));
    EXPECT(MPI_SUCCESS, MPI_Cancel(&r));
    EXPECT(MPI_SUCCESS, MPI_Wait(&r, &st));
    EXPECT(MPI_SUCCESS, MPI_Request_free(&r));

#if !MTEST_OMPI_DEVIATION
    for (int i = 0; i < (int)(sizeof garbage_req / sizeof garbage_req[0]); i++) {
        if (MTEST_MPICH_DEVIATION && !garbage_req[i].mpich_ok)
            continue;
        unsigned g = garbage_req[i].value;
        const char *what = garbage_req[i].what;
        r = (MPI_Request)g;
        mtest_check_class(MPI_Wait(&r, &st), MPI_ERR_REQUEST, "MPI_Wait on garbage request "
                          "%#x (%s)", g, what);
        r = (MPI_Request)g;
        mtest_check_class(MPI_Test(&r, &flag, &st), MPI_ERR_REQUEST, "MPI_Test on garbage "
                          "request %#x (%s)", g, what);
        r = (MPI_Request)g;
        mtest_check_class(MPI_Request_free(&r), MPI_ERR_REQUEST, "MPI_Request_free of "
                          "garbage request %#x (%s)", g, what);
    }
#endif
}

static void class_errors(void)
{
    int cls = -1, len = -1;
    char str[MPI_MAX_ERROR_STRING];

    /* MPICH 4.0 returns MPI_SUCCESS and a class made of the code's low
     * bits for invalid codes */
    if (!MTEST_MPICH_DEVIATION) {
        EXPECT(MPI_ERR_ARG, MPI_Error_class(-1, &cls));
        EXPECT(MPI_ERR_ARG, MPI_Error_class(0x7fff0000, &cls));
        EXPECT(MPI_ERR_ARG, MPI_Error_string(-1, str, &len));
        EXPECT(MPI_ERR_ARG, MPI_Error_string(0x7fff0000, str, &len));
        /* within 0 .. MPI_ERR_LASTCODE, but no error ever had this code */
        EXPECT(MPI_ERR_ARG, MPI_Error_class(123456, &cls));
        EXPECT(MPI_ERR_ARG, MPI_Error_string(123456, str, &len));
        EXPECT(MPI_ERR_ARG, MPI_Error_class(MPI_ERR_LASTCODE - 1000, &cls));
        EXPECT(MPI_ERR_ARG, MPI_Error_string(MPI_ERR_LASTCODE - 1000, str, &len));
    }
    /* every predefined class maps to itself and has a message */
    static const int classes[] = {
        MPI_SUCCESS, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG, MPI_ERR_COMM,
        MPI_ERR_RANK, MPI_ERR_REQUEST, MPI_ERR_ROOT, MPI_ERR_GROUP, MPI_ERR_OP,
        MPI_ERR_TOPOLOGY, MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_UNKNOWN, MPI_ERR_TRUNCATE,
        MPI_ERR_OTHER, MPI_ERR_INTERN, MPI_ERR_IN_STATUS, MPI_ERR_PENDING, MPI_ERR_NO_MEM,
        MPI_ERR_KEYVAL, MPI_ERR_INFO, MPI_ERR_WIN, MPI_ERR_FILE, MPI_ERR_LASTCODE};
    for (int i = 0; i < (int)(sizeof classes / sizeof classes[0]); i++) {
        int c = classes[i];
        cls = -1;
        EXPECT(MPI_SUCCESS, MPI_Error_class(c, &cls));
        if (c != MPI_ERR_LASTCODE)
            MTEST_CHECK(cls == c, "MPI_Error_class(%d) = %d", c, cls);
        memset(str, 0, sizeof str);
        len = -1;
        EXPECT(MPI_SUCCESS, MPI_Error_string(c, str, &len));
        MTEST_CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && (int)strlen(str) == len,
                    "MPI_Error_string(%d): len %d, \"%s\"", c, len, str);
    }
}

/* ---- error handlers ---------------------------------------------------- */

static int eh_calls;
static MPI_Comm eh_comm;
static int eh_code;

static void my_handler(MPI_Comm *comm, int *code, ...)
{
    eh_calls++;
    eh_comm = *comm;
    eh_code = *code;
}

static void errhandler_tests(void)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    int buf = 0, rc, cls;

    EXPECT(MPI_SUCCESS, MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    MTEST_CHECK(got == MPI_ERRORS_RETURN, "Comm_get_errhandler(WORLD) does not give the "
                "MPI_ERRORS_RETURN that was set");

    EXPECT(MPI_SUCCESS, MPI_Comm_create_errhandler(my_handler, &eh));
    MTEST_CHECK(eh != MPI_ERRHANDLER_NULL, "Comm_create_errhandler gave MPI_ERRHANDLER_NULL");
    EXPECT(MPI_SUCCESS, MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    EXPECT(MPI_SUCCESS, MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    MTEST_CHECK(got == eh, "Comm_get_errhandler does not give the user handler");
    EXPECT(MPI_SUCCESS, MPI_Errhandler_free(&got));
    MTEST_CHECK(got == MPI_ERRHANDLER_NULL, "Errhandler_free did not set "
                "MPI_ERRHANDLER_NULL");

    /* an error on WORLD calls it */
    eh_calls = 0;
    rc = MPI_Send(&buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    MTEST_CHECK(eh_calls == 1, "user handler called %d times for one error", eh_calls);
    MTEST_CHECK(eh_comm == MPI_COMM_WORLD, "user handler got a communicator other than "
                "MPI_COMM_WORLD");
    cls = -1;
    MPI_Error_class(eh_code, &cls);
    MTEST_CHECK(cls == MPI_ERR_RANK, "user handler got code %d of class %s, expected "
                "MPI_ERR_RANK", eh_code, mtest_class_name(cls));
    MTEST_CHECK(rc == eh_code, "MPI_Send returned %d after the handler got %d", rc, eh_code);

    /* Comm_call_errhandler */
    eh_calls = 0;
    rc = MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
    MTEST_CHECK(rc == MPI_SUCCESS, "Comm_call_errhandler returned %d", rc);
    MTEST_CHECK(eh_calls == 1 && eh_code == MPI_ERR_OTHER && eh_comm == MPI_COMM_WORLD,
                "Comm_call_errhandler: handler calls %d, code %d", eh_calls, eh_code);

    /* the handler stays attached after Errhandler_free of our handle */
    EXPECT(MPI_SUCCESS, MPI_Errhandler_free(&eh));
    MTEST_CHECK(eh == MPI_ERRHANDLER_NULL, "Errhandler_free did not set "
                "MPI_ERRHANDLER_NULL");
    eh_calls = 0;
    rc = MPI_Recv(&buf, 1, MPI_INT, 0, -7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Error_class(eh_code, &cls);
    MTEST_CHECK(eh_calls == 1 && cls == MPI_ERR_TAG, "freed-but-attached handler: calls %d, "
                "class %s", eh_calls, mtest_class_name(cls));

    /* on COMM_SELF */
    EXPECT(MPI_SUCCESS, MPI_Comm_create_errhandler(my_handler, &eh));
    EXPECT(MPI_SUCCESS, MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    eh_calls = 0;
    rc = MPI_Send(&buf, -1, MPI_INT, 0, 0, MPI_COMM_SELF);
    MPI_Error_class(eh_code, &cls);
    MTEST_CHECK(eh_calls == 1 && eh_comm == MPI_COMM_SELF && cls == MPI_ERR_COUNT,
                "handler on COMM_SELF: calls %d, comm is SELF: %d, class %s", eh_calls,
                eh_comm == MPI_COMM_SELF, mtest_class_name(cls));
    eh_calls = 0;
    EXPECT(MPI_SUCCESS, MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_TRUNCATE));
    MTEST_CHECK(eh_calls == 1 && eh_comm == MPI_COMM_SELF && eh_code == MPI_ERR_TRUNCATE,
                "Comm_call_errhandler(SELF): calls %d", eh_calls);
    EXPECT(MPI_SUCCESS, MPI_Errhandler_free(&eh));

    /* back to MPI_ERRORS_RETURN */
    EXPECT(MPI_SUCCESS, MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    EXPECT(MPI_SUCCESS, MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    eh_calls = 0;
    rc = MPI_Send(&buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    MTEST_CHECK(eh_calls == 0, "user handler called after it was replaced");
    mtest_check_class(rc, MPI_ERR_RANK, "MPI_Send after the handler was replaced");
    EXPECT(MPI_SUCCESS, MPI_Comm_get_errhandler(MPI_COMM_SELF, &got));
    MTEST_CHECK(got == MPI_ERRORS_RETURN, "Comm_get_errhandler(SELF) does not give "
                "MPI_ERRORS_RETURN");

    /* invalid error handler arguments */
    EXPECT(MPI_ERR_ERRHANDLER, MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL));
    got = MPI_ERRHANDLER_NULL;
    EXPECT(MPI_ERR_ERRHANDLER, MPI_Errhandler_free(&got));
    EXPECT(MPI_ERR_COMM, MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN));
    EXPECT(MPI_ERR_COMM, MPI_Comm_get_errhandler(MPI_COMM_NULL, &got));
    EXPECT(MPI_ERR_COMM, MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_OTHER));
    /* the handler is still MPI_ERRORS_RETURN after the failed set */
    rc = MPI_Send(&buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    mtest_check_class(rc, MPI_ERR_RANK, "MPI_Send after a failed Comm_set_errhandler");
}

/* After all those errors, communication still works. */
static void still_works(void)
{
    int right = (me + 1) % size, left = (me + size - 1) % size;
    int out = 1000 + me, in = -1;
    MPI_Status st;
    EXPECT(MPI_SUCCESS, MPI_Sendrecv(&out, 1, MPI_INT, right, 5, &in, 1, MPI_INT, left, 5,
                                     MPI_COMM_WORLD, &st));
    MTEST_CHECK(in == 1000 + left, "ring exchange after errors got %d", in);
    /* and no message was left behind by a failed call */
    int flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MTEST_CHECK(!flag, "a message (source %d, tag %d) was left behind", st.MPI_SOURCE,
                st.MPI_TAG);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    me = mtest_rank;
    size = mtest_size;

    MPI_Errhandler got = MPI_ERRHANDLER_NULL;
    EXPECT(MPI_SUCCESS, MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    MTEST_CHECK(got == MPI_ERRORS_ARE_FATAL, "default error handler of MPI_COMM_WORLD is not "
                "MPI_ERRORS_ARE_FATAL");
    EXPECT(MPI_SUCCESS, MPI_Comm_get_errhandler(MPI_COMM_SELF, &got));
    MTEST_CHECK(got == MPI_ERRORS_ARE_FATAL, "default error handler of MPI_COMM_SELF is not "
                "MPI_ERRORS_ARE_FATAL");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    rank_errors();
    count_errors();
    tag_errors();
    comm_errors();
    type_errors();
    buffer_errors();
    request_errors();
    class_errors();
    errhandler_tests();
    MPI_Barrier(MPI_COMM_WORLD);
    still_works();
    return mtest_finalize();
}
