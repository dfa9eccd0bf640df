/*
 * handle_convert: conversion of handles and statuses between C and Fortran
 * (MPI-4.0 19.3.4-19.3.5).
 *
 * Handles: the exported functions (called through their parenthesised
 * names, past the macros of the same names) and the header's macros, MPI_
 * and PMPI_, for every handle kind: communicators, groups, datatypes,
 * requests, windows, ops, infos, error handlers, messages, sessions and
 * files; predefined, null and made handles. In this ABI the Fortran handle
 * is the C handle's value; MPI_FILE_NULL is 0. A handle converted there and
 * back is used: a communicator and a datatype carry a message around the
 * ring, a request is completed.
 *
 * Statuses: a real receive's status through Status_c2f / f2c / c2f08 /
 * f082c / f2f08 / f082f keeps every field (source, tag, error at MPI_F_*,
 * and the count: MPI_Get_count on the round-tripped status). The ignore
 * objects are distinct and not NULL; passing one, or MPI_STATUS_IGNORE or
 * NULL, is MPI_ERR_ARG. Status_c2f also works before MPI_Init.
 */
#include "mtest.h"

#include <string.h>

#define N 37

/* MPI_X_c2f / MPI_X_f2c through the functions, the PMPI_ functions and the
 * macros: all must give the handle's value and back. */
#define CHECK_ROUND(K, T, h, what)                                                                   \
    do {                                                                                             \
        T h_ = (h);                                                                                  \
        MPI_Fint f1 = (MPI_##K##_c2f)(h_), f2 = (PMPI_##K##_c2f)(h_), f3 = MPI_##K##_c2f(h_);         \
        MTEST_CHECK(f1 == (MPI_Fint)h_ && f2 == f1 && f3 == f1, "%s: c2f gave %d/%d/%d, want %d", what, \
                    (int)f1, (int)f2, (int)f3, (int)h_);                                             \
        T b1 = (MPI_##K##_f2c)(f1), b2 = (PMPI_##K##_f2c)(f1), b3 = MPI_##K##_f2c(f1);               \
        MTEST_CHECK(b1 == h_ && b2 == h_ && b3 == h_, "%s: f2c(c2f) did not give the handle back", what); \
    } while (0)

static void handles(void)
{
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;

    /* communicators: predefined, null, a duplicate used after the round trip */
    MPI_Comm dup;
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_ROUND(Comm, MPI_Comm, MPI_COMM_WORLD, "MPI_COMM_WORLD");
    CHECK_ROUND(Comm, MPI_Comm, MPI_COMM_SELF, "MPI_COMM_SELF");
    CHECK_ROUND(Comm, MPI_Comm, MPI_COMM_NULL, "MPI_COMM_NULL");
    CHECK_ROUND(Comm, MPI_Comm, dup, "a duplicate of MPI_COMM_WORLD");

    /* datatypes: predefined, pair, null, derived */
    MPI_Datatype vec;
    MTEST_RC(MPI_Type_vector(N, 1, 2, MPI_INT, &vec));
    MTEST_RC(MPI_Type_commit(&vec));
    CHECK_ROUND(Type, MPI_Datatype, MPI_INT, "MPI_INT");
    CHECK_ROUND(Type, MPI_Datatype, MPI_DOUBLE_INT, "MPI_DOUBLE_INT");
    CHECK_ROUND(Type, MPI_Datatype, MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL");
    CHECK_ROUND(Type, MPI_Datatype, vec, "a vector type");

    /* a message around the ring on the converted communicator and type */
    MPI_Comm fc = MPI_Comm_f2c(MPI_Comm_c2f(dup));
    MPI_Datatype ft = (MPI_Type_f2c)((MPI_Type_c2f)(vec));
    int sbuf[2 * N], rbuf[2 * N];
    for (int i = 0; i < 2 * N; i++)
        sbuf[i] = mtest_rank * 1000 + i, rbuf[i] = -1;
    MPI_Request req;
    MPI_Status st;
    MTEST_RC(MPI_Irecv(rbuf, 1, ft, left, 5, fc, &req));
    CHECK_ROUND(Request, MPI_Request, req, "a receive request");
    CHECK_ROUND(Request, MPI_Request, MPI_REQUEST_NULL, "MPI_REQUEST_NULL");
    MTEST_RC(MPI_Send(sbuf, 1, ft, right, 5, fc));
    MPI_Request back = (MPI_Request_f2c)((MPI_Request_c2f)(req));
    MTEST_RC(MPI_Wait(&back, &st));
    MTEST_CHECK(back == MPI_REQUEST_NULL, "Wait on the converted request left it %#x", (unsigned)back);
    mtest_check_status(&st, left, 5, MPI_INT, N, "receive on converted handles");
    for (int i = 0; i < 2 * N; i++) {
        int want = i % 2 ? -1 : left * 1000 + i;
        if (!MTEST_CHECK(rbuf[i] == want, "element %d: %d, want %d", i, rbuf[i], want))
            break;
    }

    /* groups */
    MPI_Group g;
    MTEST_RC(MPI_Comm_group(dup, &g));
    CHECK_ROUND(Group, MPI_Group, g, "the group of a communicator");
    CHECK_ROUND(Group, MPI_Group, MPI_GROUP_EMPTY, "MPI_GROUP_EMPTY");
    CHECK_ROUND(Group, MPI_Group, MPI_GROUP_NULL, "MPI_GROUP_NULL");
    int gsize = -1;
    MTEST_RC(MPI_Group_size(MPI_Group_f2c(MPI_Group_c2f(g)), &gsize));
    MTEST_CHECK(gsize == mtest_size, "converted group has size %d, want %d", gsize, mtest_size);
    MTEST_RC(MPI_Group_free(&g));

    /* windows */
    int winbuf = 0;
    MPI_Win win;
    MTEST_RC(MPI_Win_create(&winbuf, sizeof winbuf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_ROUND(Win, MPI_Win, win, "a window");
    CHECK_ROUND(Win, MPI_Win, MPI_WIN_NULL, "MPI_WIN_NULL");
    MPI_Win fw = MPI_Win_f2c(MPI_Win_c2f(win));
    MTEST_RC(MPI_Win_free(&fw));

    /* ops */
    CHECK_ROUND(Op, MPI_Op, MPI_SUM, "MPI_SUM");
    CHECK_ROUND(Op, MPI_Op, MPI_OP_NULL, "MPI_OP_NULL");
    int in[3] = {1, 2, 3}, inout[3] = {10, 20, 30};
    MTEST_RC(MPI_Reduce_local(in, inout, 3, MPI_INT, (MPI_Op_f2c)((MPI_Op_c2f)(MPI_PROD))));
    MTEST_CHECK(inout[0] == 10 && inout[1] == 40 && inout[2] == 90, "PROD through a converted op: %d %d %d",
                inout[0], inout[1], inout[2]);

    /* infos */
    MPI_Info info;
    MTEST_RC(MPI_Info_create(&info));
    MTEST_RC(MPI_Info_set(info, "key", "value"));
    CHECK_ROUND(Info, MPI_Info, info, "an info object");
    CHECK_ROUND(Info, MPI_Info, MPI_INFO_NULL, "MPI_INFO_NULL");
    CHECK_ROUND(Info, MPI_Info, MPI_INFO_ENV, "MPI_INFO_ENV");
    int nkeys = -1;
    MTEST_RC(MPI_Info_get_nkeys(MPI_Info_f2c(MPI_Info_c2f(info)), &nkeys));
    MTEST_CHECK(nkeys == 1, "converted info has %d keys, want 1", nkeys);
    MTEST_RC(MPI_Info_free(&info));

    /* error handlers */
    CHECK_ROUND(Errhandler, MPI_Errhandler, MPI_ERRORS_RETURN, "MPI_ERRORS_RETURN");
    CHECK_ROUND(Errhandler, MPI_Errhandler, MPI_ERRORS_ARE_FATAL, "MPI_ERRORS_ARE_FATAL");
    CHECK_ROUND(Errhandler, MPI_Errhandler, MPI_ERRHANDLER_NULL, "MPI_ERRHANDLER_NULL");
    MTEST_RC(MPI_Comm_set_errhandler(dup, (MPI_Errhandler_f2c)((MPI_Errhandler_c2f)(MPI_ERRORS_RETURN))));

    /* messages: a matched probe's handle, received after the round trip */
    MPI_Message msg;
    MTEST_RC(MPI_Isend(sbuf, 3, MPI_INT, right, 6, dup, &req));
    MTEST_RC(MPI_Mprobe(left, 6, dup, &msg, &st));
    CHECK_ROUND(Message, MPI_Message, msg, "a matched message");
    CHECK_ROUND(Message, MPI_Message, MPI_MESSAGE_NULL, "MPI_MESSAGE_NULL");
    CHECK_ROUND(Message, MPI_Message, MPI_MESSAGE_NO_PROC, "MPI_MESSAGE_NO_PROC");
    MPI_Message fm = MPI_Message_f2c(MPI_Message_c2f(msg));
    MTEST_RC(MPI_Mrecv(rbuf, 3, MPI_INT, &fm, &st));
    mtest_check_status(&st, left, 6, MPI_INT, 3, "Mrecv of a converted message");
    MTEST_CHECK(rbuf[2] == left * 1000 + 2, "Mrecv data %d, want %d", rbuf[2], left * 1000 + 2);
    MTEST_RC(MPI_Wait(&req, MPI_STATUS_IGNORE));

    /* sessions and files: the null handles (0 for files) */
    CHECK_ROUND(Session, MPI_Session, MPI_SESSION_NULL, "MPI_SESSION_NULL");
    MTEST_CHECK(MPI_File_c2f(MPI_FILE_NULL) == 0 && PMPI_File_c2f(MPI_FILE_NULL) == 0,
                "File_c2f(MPI_FILE_NULL) is not 0");
    MTEST_CHECK(MPI_File_f2c(0) == MPI_FILE_NULL && PMPI_File_f2c(0) == MPI_FILE_NULL,
                "File_f2c(0) is not MPI_FILE_NULL");

    MTEST_RC(MPI_Type_free(&vec));
    MTEST_RC(MPI_Comm_free(&dup));
}

static void check_fields(const MPI_Fint *f, const MPI_Status *c, const char *what)
{
    MTEST_CHECK(f[MPI_F_SOURCE] == c->MPI_SOURCE && f[MPI_F_TAG] == c->MPI_TAG && f[MPI_F_ERROR] == c->MPI_ERROR,
                "%s: Fortran status has source %d tag %d error %d, want %d %d %d", what, (int)f[MPI_F_SOURCE],
                (int)f[MPI_F_TAG], (int)f[MPI_F_ERROR], c->MPI_SOURCE, c->MPI_TAG, c->MPI_ERROR);
}

static void statuses(void)
{
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    char sbuf[100], rbuf[100];
    MPI_Status st;
    mtest_fill(sbuf, sizeof sbuf, mtest_rank, 0);
    MTEST_RC(MPI_Sendrecv(sbuf, 77, MPI_CHAR, right, 9, rbuf, 100, MPI_CHAR, left, 9, MPI_COMM_WORLD, &st));
    st.MPI_ERROR = MPI_ERR_TRUNCATE;     /* a value to carry through */

    MPI_Fint f[MPI_F_STATUS_SIZE], f2[MPI_F_STATUS_SIZE];
    MPI_F08_status f08, f08b;
    MPI_Status back;
    memset(f, 0xa5, sizeof f);
    MTEST_RC(MPI_Status_c2f(&st, f));
    check_fields(f, &st, "Status_c2f");
    memset(&back, 0x5a, sizeof back);
    MTEST_RC(MPI_Status_f2c(f, &back));
    MTEST_CHECK(memcmp(&back, &st, sizeof st) == 0, "Status_f2c(Status_c2f) differs from the status");
    int count = -1;
    MTEST_RC(MPI_Get_count(&back, MPI_CHAR, &count));
    MTEST_CHECK(count == 77, "Get_count of the round-tripped status: %d, want 77", count);

    memset(&f08, 0xa5, sizeof f08);
    MTEST_RC(MPI_Status_c2f08(&st, &f08));
    MTEST_CHECK(f08.MPI_SOURCE == st.MPI_SOURCE && f08.MPI_TAG == st.MPI_TAG && f08.MPI_ERROR == st.MPI_ERROR,
                "Status_c2f08: source %d tag %d error %d", (int)f08.MPI_SOURCE, (int)f08.MPI_TAG,
                (int)f08.MPI_ERROR);
    memset(&back, 0x5a, sizeof back);
    MTEST_RC(PMPI_Status_f082c(&f08, &back));
    MTEST_CHECK(memcmp(&back, &st, sizeof st) == 0, "Status_f082c(Status_c2f08) differs from the status");

    memset(&f08b, 0, sizeof f08b);
    MTEST_RC(MPI_Status_f2f08(f, &f08b));
    MTEST_CHECK(memcmp(&f08b, &f08, sizeof f08) == 0, "Status_f2f08 differs from Status_c2f08");
    memset(f2, 0, sizeof f2);
    MTEST_RC(MPI_Status_f082f(&f08b, f2));
    MTEST_CHECK(memcmp(f2, f, sizeof f) == 0, "Status_f082f differs from Status_c2f");

    /* the ignore objects: real, distinct, and no status to convert */
    MTEST_CHECK(MPI_F_STATUS_IGNORE && MPI_F_STATUSES_IGNORE && MPI_F_STATUS_IGNORE != MPI_F_STATUSES_IGNORE,
                "MPI_F_STATUS(ES)_IGNORE are NULL or equal");
    MTEST_CHECK(MPI_F08_STATUS_IGNORE && MPI_F08_STATUSES_IGNORE &&
                    MPI_F08_STATUS_IGNORE != MPI_F08_STATUSES_IGNORE,
                "MPI_F08_STATUS(ES)_IGNORE are NULL or equal");
    mtest_check_class(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG, "Status_c2f(MPI_STATUS_IGNORE)");
    mtest_check_class(MPI_Status_c2f(&st, MPI_F_STATUS_IGNORE), MPI_ERR_ARG, "Status_c2f into MPI_F_STATUS_IGNORE");
    mtest_check_class(MPI_Status_c2f(&st, NULL), MPI_ERR_ARG, "Status_c2f into NULL");
    mtest_check_class(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back), MPI_ERR_ARG, "Status_f2c(MPI_F_STATUS_IGNORE)");
    mtest_check_class(MPI_Status_f2c(MPI_F_STATUSES_IGNORE, &back), MPI_ERR_ARG,
                      "Status_f2c(MPI_F_STATUSES_IGNORE)");
    mtest_check_class(MPI_Status_f2c(f, MPI_STATUS_IGNORE), MPI_ERR_ARG, "Status_f2c into MPI_STATUS_IGNORE");
    mtest_check_class(MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &back), MPI_ERR_ARG,
                      "Status_f082c(MPI_F08_STATUS_IGNORE)");
    mtest_check_class(MPI_Status_c2f08(&st, MPI_F08_STATUSES_IGNORE), MPI_ERR_ARG,
                      "Status_c2f08 into MPI_F08_STATUSES_IGNORE");
    mtest_check_class(MPI_Status_f2f08(NULL, &f08), MPI_ERR_ARG, "Status_f2f08(NULL)");
    mtest_check_class(MPI_Status_f082f(&f08, MPI_F_STATUSES_IGNORE), MPI_ERR_ARG,
                      "Status_f082f into MPI_F_STATUSES_IGNORE");
}

int main(int argc, char **argv)
{
    /* before MPI_Init: conversions touch no library state */
    MPI_Status pre = {0, 0, 3, 4, 5};
    MPI_Fint fpre[MPI_F_STATUS_SIZE] = {0};
    int rc = MPI_Status_c2f(&pre, fpre);
    int pre_ok = rc == MPI_SUCCESS && fpre[MPI_F_SOURCE] == 3 && fpre[MPI_F_TAG] == 4 && fpre[MPI_F_ERROR] == 5 &&
                 MPI_Comm_c2f(MPI_COMM_WORLD) == (MPI_Fint)MPI_COMM_WORLD;

    mtest_init(&argc, &argv);
    MTEST_CHECK(pre_ok, "Status_c2f before MPI_Init: rc %d, fields %d %d %d", rc, (int)fpre[MPI_F_SOURCE],
                (int)fpre[MPI_F_TAG], (int)fpre[MPI_F_ERROR]);
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    handles();
    statuses();
    return mtest_finalize();
}
