/*
 * errclass_add: error classes, codes and strings added by the program
 * (MPI_Add_error_class/_code/_string) and removed again (MPI-4.1's
 * MPI_Remove_error_class/_code/_string).
 *
 * New classes lie above MPI_ERR_LASTCODE and are distinct; MPI_Error_class
 * of a class is itself and of a new code its class (a new class or a
 * predefined one); MPI_Error_string gives the string added (replaced when
 * added again; empty before one is added); the MPI_LASTUSEDCODE attribute
 * of MPI_COMM_WORLD starts at MPI_ERR_LASTCODE or above and grows to cover
 * every new class and code; a user error handler gets the new code from
 * MPI_Comm_call_errhandler; a generalized request's query_fn can return a
 * new code and MPI_Wait returns it. Errors: a code where a class is due,
 * an invalid class, a string for a predefined code, a string longer than
 * MPI_MAX_ERROR_STRING - 1 (MPI_ERR_ARG). Removing: a string, then a code
 * (invalid afterwards), a class only once it has no codes, never a
 * predefined class; MPI_LASTUSEDCODE shrinks back.
 */
#include "mtest.h"

#include <stdio.h>
#include <string.h>

static int lastused(void)
{
    int *v = NULL, flag = 0;
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    if (!MTEST_CHECK(flag && v, "MPI_LASTUSEDCODE not set (flag %d)", flag))
        return -1;
    return *v;
}

static void expect_string(int code, const char *want, const char *what)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = -1;
    memset(s, 'x', sizeof s);
    MTEST_RC(MPI_Error_string(code, s, &len));
    MTEST_CHECK(len == (int)strlen(want) && strcmp(s, want) == 0, "%s: Error_string(%d) = '%.*s' (len %d), want '%s'",
                what, code, len >= 0 && len < MPI_MAX_ERROR_STRING ? len : 0, s, len, want);
}

static void expect_class(int code, int cls, const char *what)
{
    int c = -1;
    MTEST_RC(MPI_Error_class(code, &c));
    MTEST_CHECK(c == cls, "%s: Error_class(%d) = %d, want %d", what, code, c, cls);
}

static int handler_code, handler_calls;
static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_code = *code;
    handler_calls++;
}

static int query_fails(void *extra, MPI_Status *st)
{
    (void)st;
    return *(int *)extra;
}
static int free_ok(void *extra) { (void)extra; return MPI_SUCCESS; }
static int cancel_ok(void *extra, int complete) { (void)extra; (void)complete; return MPI_SUCCESS; }

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int last0 = lastused();
    MTEST_CHECK(last0 >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d is below MPI_ERR_LASTCODE %d", last0,
                MPI_ERR_LASTCODE);

    /* a class, its string, its codes */
    int c1 = -1, c2 = -1, e1 = -1, e2 = -1, e3 = -1;
    MTEST_RC(MPI_Add_error_class(&c1));
    MTEST_CHECK(c1 > MPI_ERR_LASTCODE, "new class %d is not above MPI_ERR_LASTCODE", c1);
    MTEST_CHECK(lastused() >= c1 && lastused() > last0, "MPI_LASTUSEDCODE %d after adding class %d (was %d)",
                lastused(), c1, last0);
    expect_class(c1, c1, "new class");
    if (!MTEST_MPICH_DEVIATION)     /* MPICH 4.0 has no string for it at all */
        expect_string(c1, "", "new class without a string");
    MTEST_RC(MPI_Add_error_string(c1, "the first class of errclass_add"));
    expect_string(c1, "the first class of errclass_add", "class string");
    MTEST_RC(MPI_Add_error_class(&c2));
    MTEST_CHECK(c2 != c1 && c2 > MPI_ERR_LASTCODE, "second class %d (first %d)", c2, c1);
    MTEST_RC(MPI_Add_error_code(c1, &e1));
    MTEST_RC(MPI_Add_error_code(c1, &e2));
    MTEST_CHECK(e1 != e2 && e1 != c1 && e1 != c2 && e2 != c1 && e2 != c2, "codes %d %d, classes %d %d", e1, e2, c1,
                c2);
    expect_class(e1, c1, "code of the new class");
    expect_class(e2, c1, "second code of the new class");
    MTEST_RC(MPI_Add_error_string(e1, "code one"));
    expect_string(e1, "code one", "code string");
    MTEST_RC(MPI_Add_error_string(e1, "code one, again"));
    expect_string(e1, "code one, again", "replaced code string");
    expect_string(c1, "the first class of errclass_add", "the class keeps its string");
    /* a code of a predefined class */
    MTEST_RC(MPI_Add_error_code(MPI_ERR_ARG, &e3));
    expect_class(e3, MPI_ERR_ARG, "new code of MPI_ERR_ARG");
    MTEST_RC(MPI_Add_error_string(e3, "a bad argument, in the program's words"));
    if (!MTEST_MPICH_DEVIATION)     /* MPICH 4.0 returns some other message */
        expect_string(e3, "a bad argument, in the program's words", "string of a new MPI_ERR_ARG code");
    char maxlen[MPI_MAX_ERROR_STRING];
    memset(maxlen, 'm', sizeof maxlen - 1);
    maxlen[sizeof maxlen - 1] = 0;
    MTEST_RC(MPI_Add_error_string(c2, maxlen));
    expect_string(c2, maxlen, "string of the longest length");
    int top = c1 > c2 ? c1 : c2;
    int codes[3] = {e1, e2, e3};
    for (int i = 0; i < 3; i++)
        top = codes[i] > top ? codes[i] : top;
    if (!MTEST_MPICH_DEVIATION)     /* MPICH counts classes only */
        MTEST_CHECK(lastused() >= top, "MPI_LASTUSEDCODE %d is below code %d", lastused(), top);

    /* many classes: all distinct, each its own class */
    int many[64];
    for (int i = 0; i < 64; i++) {
        MTEST_RC(MPI_Add_error_class(&many[i]));
        expect_class(many[i], many[i], "one of 64 classes");
        for (int j = 0; j < i; j++)
            MTEST_CHECK(many[j] != many[i], "classes %d and %d are both %d", j, i, many[i]);
        MTEST_CHECK(lastused() >= many[i], "MPI_LASTUSEDCODE %d below class %d", lastused(), many[i]);
    }

    /* the new codes travel through error handlers and callbacks */
    MPI_Errhandler eh;
    MTEST_RC(MPI_Comm_create_errhandler(handler, &eh));
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    MTEST_RC(MPI_Comm_call_errhandler(MPI_COMM_WORLD, e2));
    MTEST_CHECK(handler_calls == 1 && handler_code == e2, "handler called %d times with %d, want once with %d",
                handler_calls, handler_code, e2);
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MTEST_RC(MPI_Errhandler_free(&eh));
    MPI_Request rq;
    MTEST_RC(MPI_Grequest_start(query_fails, free_ok, cancel_ok, &e1, &rq));
    MTEST_RC(MPI_Grequest_complete(rq));
    int rc = MPI_Wait(&rq, MPI_STATUS_IGNORE);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    MTEST_CHECK(cls == c1, "Wait returned %d of class %d; query_fn returned %d of class %d", rc, cls, e1, c1);
    if (!MTEST_MPICH_DEVIATION)     /* MPICH wraps it in a code of its own */
        MTEST_CHECK(rc == e1, "Wait returned %d, query_fn %d", rc, e1);

    /* errors */
    int x;
    if (!MTEST_MPICH_DEVIATION) {   /* MPICH 4.0 accepts all of these */
        mtest_check_class(MPI_Add_error_code(e1, &x), MPI_ERR_ARG, "Add_error_code with a code for a class");
        mtest_check_class(MPI_Add_error_code(c1 + 100000, &x), MPI_ERR_ARG, "Add_error_code with an invalid class");
        mtest_check_class(MPI_Add_error_string(MPI_ERR_TYPE, "mine"), MPI_ERR_ARG, "Add_error_string(MPI_ERR_TYPE)");
        mtest_check_class(MPI_Add_error_code(MPI_SUCCESS, &x), MPI_ERR_ARG, "Add_error_code(MPI_SUCCESS)");
        char toolong[MPI_MAX_ERROR_STRING + 1];
        memset(toolong, 't', sizeof toolong - 1);
        toolong[sizeof toolong - 1] = 0;
        mtest_check_class(MPI_Add_error_string(c1, toolong), MPI_ERR_ARG, "a string of MPI_MAX_ERROR_STRING chars");
        expect_string(c1, "the first class of errclass_add", "the class keeps its string after a refused one");
        mtest_check_class(MPI_Add_error_class(NULL), MPI_ERR_ARG, "Add_error_class(NULL)");
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(MPI_Add_error_code(e1, &x), msg, &len);
        MTEST_CHECK(strstr(msg, "MPI_Add_error_code") != NULL, "message does not name the call: '%s'", msg);
    }

#if !MTEST_MPICH_DEVIATION          /* MPICH 4.0 has these as MPIX_Delete_error_* */
    /* removing */
    mtest_check_class(MPI_Remove_error_class(c1), MPI_ERR_ARG, "Remove_error_class of a class with codes");
    mtest_check_class(MPI_Remove_error_class(MPI_ERR_ARG), MPI_ERR_ARG, "Remove_error_class(MPI_ERR_ARG)");
    mtest_check_class(MPI_Remove_error_code(c2), MPI_ERR_ARG, "Remove_error_code of a class");
    mtest_check_class(MPI_Remove_error_class(e1), MPI_ERR_ARG, "Remove_error_class of a code");
    mtest_check_class(MPI_Remove_error_string(MPI_ERR_ARG), MPI_ERR_ARG, "Remove_error_string(MPI_ERR_ARG)");
    /* MPI-4.1: a string goes before its code or class */
    mtest_check_class(MPI_Remove_error_code(e1), MPI_ERR_ARG, "Remove_error_code of a code that has a string");
    mtest_check_class(MPI_Remove_error_string(e2), MPI_ERR_ARG, "Remove_error_string of a code without one");
    MTEST_RC(MPI_Remove_error_string(e1));
    expect_string(e1, "", "code after Remove_error_string");
    expect_class(e1, c1, "code after Remove_error_string");
    MTEST_RC(MPI_Remove_error_code(e1));
    mtest_check_class(MPI_Error_class(e1, &x), MPI_ERR_ARG, "Error_class of a removed code");
    mtest_check_class(MPI_Remove_error_code(e1), MPI_ERR_ARG, "removing a code twice");
    MTEST_RC(MPI_Remove_error_code(e2));
    mtest_check_class(MPI_Remove_error_class(c1), MPI_ERR_ARG, "Remove_error_class of a class that has a string");
    MTEST_RC(MPI_Remove_error_string(c1));
    MTEST_RC(MPI_Remove_error_class(c1));
    mtest_check_class(MPI_Error_class(c1, &x), MPI_ERR_ARG, "Error_class of a removed class");
    char s[MPI_MAX_ERROR_STRING];
    int len;
    mtest_check_class(MPI_Error_string(c1, s, &len), MPI_ERR_ARG, "Error_string of a removed class");
    MTEST_RC(MPI_Remove_error_string(e3));
    MTEST_RC(MPI_Remove_error_code(e3));
    expect_string(MPI_ERR_ARG, "invalid argument", "MPI_ERR_ARG keeps its string");
    for (int i = 0; i < 64; i++)
        MTEST_RC(MPI_Remove_error_class(many[i]));
    MTEST_CHECK(lastused() == c2, "MPI_LASTUSEDCODE %d with class %d left", lastused(), c2);
    MTEST_RC(MPI_Remove_error_string(c2));
    MTEST_RC(MPI_Remove_error_class(c2));
    MTEST_CHECK(lastused() == last0, "MPI_LASTUSEDCODE %d after removing everything, was %d", lastused(), last0);
    /* a class added afterwards is new */
    int c3;
    MTEST_RC(MPI_Add_error_class(&c3));
    MTEST_CHECK(c3 != c1 && c3 != c2, "a removed class value came back: %d", c3);
    MTEST_RC(MPI_Remove_error_class(c3));
#endif
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    return mtest_finalize();
}
