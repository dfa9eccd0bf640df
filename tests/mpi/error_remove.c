/*
 * error_remove: the error classes of MPI-4.1's MPI_Remove_error_class,
 * _code and _string, and MPI-4.1's class MPI_ERR_ERRHANDLER.
 *
 * Removal (errclass_add covers adding): each call on what was added
 * succeeds in the order the standard requires (string, then codes, then
 * the class), after which the value is no error code any more (Error_class
 * and Error_string: MPI_ERR_ARG) and its string is gone; out of order,
 * twice, on the wrong kind (a code given to Remove_error_class, a class to
 * Remove_error_code), on predefined classes and codes and on values never
 * added it is MPI_ERR_ARG and nothing changes. A new class added after a
 * removal works.
 *
 * MPI_ERR_ERRHANDLER (80): a class of its own with its own string; an
 * invalid error handler handle given to Comm_set_errhandler,
 * Win_set_errhandler and Errhandler_free is that class, while a valid
 * handler of the wrong kind (a communicator's on a window) stays
 * MPI_ERR_ARG.
 */
#include "mtest.h"

#include <string.h>

static void is_gone(int code, const char *what)
{
    int cls = -1, len = -1;
    char s[MPI_MAX_ERROR_STRING];
    mtest_check_class(MPI_Error_class(code, &cls), MPI_ERR_ARG, "Error_class of %s", what);
    mtest_check_class(MPI_Error_string(code, s, &len), MPI_ERR_ARG, "Error_string of %s", what);
}

static void expect_string(int code, const char *want, const char *what)
{
    char s[MPI_MAX_ERROR_STRING] = "x";
    int len = -1;
    MTEST_RC(MPI_Error_string(code, s, &len));
    MTEST_CHECK(len == (int)strlen(want) && strcmp(s, want) == 0, "%s: string '%s', want '%s'", what, s, want);
}

static void removal(void)
{
    int cls, code, code2;
    MTEST_RC(MPI_Add_error_class(&cls));
    MTEST_RC(MPI_Add_error_code(cls, &code));
    MTEST_RC(MPI_Add_error_code(MPI_ERR_OTHER, &code2));
    MTEST_RC(MPI_Add_error_string(code, "a code of my class"));
    MTEST_RC(MPI_Add_error_string(cls, "my class"));

    /* out of order and wrong kinds: nothing changes */
    mtest_check_class(MPI_Remove_error_class(cls), MPI_ERR_ARG, "Remove_error_class with a code and a string left");
    mtest_check_class(MPI_Remove_error_code(code), MPI_ERR_ARG, "Remove_error_code with its string left");
    mtest_check_class(MPI_Remove_error_code(cls), MPI_ERR_ARG, "Remove_error_code of a class");
    mtest_check_class(MPI_Remove_error_class(code2), MPI_ERR_ARG, "Remove_error_class of a code");
    mtest_check_class(MPI_Remove_error_string(code2), MPI_ERR_ARG, "Remove_error_string of a code without one");
    mtest_check_class(MPI_Remove_error_class(MPI_ERR_OTHER), MPI_ERR_ARG, "Remove_error_class(MPI_ERR_OTHER)");
    mtest_check_class(MPI_Remove_error_code(MPI_ERR_TRUNCATE), MPI_ERR_ARG, "Remove_error_code(MPI_ERR_TRUNCATE)");
    mtest_check_class(MPI_Remove_error_string(MPI_ERR_ARG), MPI_ERR_ARG, "Remove_error_string(MPI_ERR_ARG)");
    mtest_check_class(MPI_Remove_error_code(code2 + 1000), MPI_ERR_ARG, "Remove_error_code of a value never added");
    expect_string(code, "a code of my class", "the code after failed removals");
    expect_string(cls, "my class", "the class after failed removals");

    /* in order */
    MTEST_RC(MPI_Remove_error_string(code));
    expect_string(code, "", "the code without its string");
    mtest_check_class(MPI_Remove_error_string(code), MPI_ERR_ARG, "Remove_error_string twice");
    MTEST_RC(MPI_Remove_error_code(code));
    is_gone(code, "a removed code");
    mtest_check_class(MPI_Remove_error_code(code), MPI_ERR_ARG, "Remove_error_code twice");
    mtest_check_class(MPI_Remove_error_class(cls), MPI_ERR_ARG, "Remove_error_class with its string left");
    MTEST_RC(MPI_Remove_error_string(cls));
    MTEST_RC(MPI_Remove_error_class(cls));
    is_gone(cls, "a removed class");
    mtest_check_class(MPI_Add_error_code(cls, &code), MPI_ERR_ARG, "Add_error_code to a removed class");
    MTEST_RC(MPI_Remove_error_code(code2));
    is_gone(code2, "a removed code of a predefined class");

    /* a new class after the removals */
    int c3, got = -1;
    MTEST_RC(MPI_Add_error_class(&c3));
    MTEST_RC(MPI_Error_class(c3, &got));
    MTEST_CHECK(got == c3, "a class added after removals has class %d, want itself %d", got, c3);
    MTEST_RC(MPI_Remove_error_class(c3));
}

static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

static void errhandler_class(void)
{
    int cls = -1;
    MTEST_RC(MPI_Error_class(MPI_ERR_ERRHANDLER, &cls));
    MTEST_CHECK(cls == MPI_ERR_ERRHANDLER && MPI_ERR_ERRHANDLER == 80, "MPI_ERR_ERRHANDLER (%d) has class %d",
                MPI_ERR_ERRHANDLER, cls);
    char s[MPI_MAX_ERROR_STRING], t[MPI_MAX_ERROR_STRING];
    int len = 0, len2 = 0;
    MTEST_RC(MPI_Error_string(MPI_ERR_ERRHANDLER, s, &len));
    MTEST_RC(MPI_Error_string(MPI_ERR_ARG, t, &len2));
    MTEST_CHECK(len > 0 && strcmp(s, t) != 0, "MPI_ERR_ERRHANDLER's string '%s'", s);

    MPI_Errhandler bad = (MPI_Errhandler)0x94001234, none = MPI_ERRHANDLER_NULL;
    mtest_check_class(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER,
                      "Comm_set_errhandler(MPI_ERRHANDLER_NULL)");
    mtest_check_class(MPI_Comm_set_errhandler(MPI_COMM_WORLD, bad), MPI_ERR_ERRHANDLER,
                      "Comm_set_errhandler with a garbage handle");
    mtest_check_class(MPI_Errhandler_free(&none), MPI_ERR_ERRHANDLER, "Errhandler_free(MPI_ERRHANDLER_NULL)");

    int wbuf = 0;
    MPI_Win win;
    MPI_Errhandler ceh;
    MTEST_RC(MPI_Win_create(&wbuf, sizeof wbuf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MTEST_RC(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    mtest_check_class(MPI_Win_set_errhandler(win, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER,
                      "Win_set_errhandler(MPI_ERRHANDLER_NULL)");
    MTEST_RC(MPI_Comm_create_errhandler(comm_handler, &ceh));
    mtest_check_class(MPI_Win_set_errhandler(win, ceh), MPI_ERR_ARG, "Win_set_errhandler of a communicator's handler");
    MTEST_RC(MPI_Errhandler_free(&ceh));
    MTEST_RC(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    removal();
    errhandler_class();
    return mtest_finalize();
}
