/*
 * info_env: MPI_Info_create_env (MPI-4.0), before MPI_Init, while
 * initialized and after MPI_Finalize.
 *
 * Before MPI_Init it builds the keys from the argc/argv it is given:
 * "command" is argv[0], "argv" the arguments joined by spaces (absent
 * without arguments), "maxprocs" the number of processes started, "wdir"
 * the working directory. After MPI_Init, with argc/argv of main or 0/NULL,
 * it has every key of MPI_INFO_ENV with the same value; the object is the
 * program's own (writable, freed with MPI_Info_free, independent of other
 * such objects). After MPI_Finalize it still works (checked after the
 * report: a failure there makes the exit status non-zero). Errors: a NULL
 * info pointer, a negative argc (MPI_ERR_ARG).
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int get(MPI_Info info, const char *key, char *val)
{
    int flag = 0;
    val[0] = 0;
    if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag) != MPI_SUCCESS)
        return -1;
    return flag;
}

/* Checks made before MPI_Init, reported once mtest can count them. */
static char early_fail[1024];

static void check_from_args(MPI_Info info, int argc, char **argv, char *fail, size_t len)
{
    char val[MPI_MAX_INFO_VAL + 1], want[MPI_MAX_INFO_VAL + 1] = "", cwd[4096];
    size_t n = 0;
    for (int i = 1; i < argc; i++)
        n += (size_t)snprintf(want + n, sizeof want - n, "%s%s", i > 1 ? " " : "", argv[i]);
    if (get(info, "command", val) != 1 || strcmp(val, argv[0]) != 0)
        snprintf(fail, len, "command is '%.300s', want '%.300s'", val, argv[0]);
    else if (argc > 1 && (get(info, "argv", val) != 1 || strcmp(val, want) != 0))
        snprintf(fail, len, "argv is '%.300s', want '%.300s'", val, want);
    else if (argc == 1 && get(info, "argv", val) != 0)
        snprintf(fail, len, "argv is '%.300s' without arguments", val);
    else if (get(info, "maxprocs", val) != 1 || atoi(val) < 1)
        snprintf(fail, len, "maxprocs is '%.300s'", val);
    else if (!getcwd(cwd, sizeof cwd) || get(info, "wdir", val) != 1 || strcmp(val, cwd) != 0)
        snprintf(fail, len, "wdir is '%.300s', want '%.300s'", val, cwd);
}

int main(int argc, char **argv)
{
    char val[MPI_MAX_INFO_VAL + 1], val2[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
    MPI_Info before = MPI_INFO_NULL;
    if (MPI_Info_create_env(argc, argv, &before) != MPI_SUCCESS)
        snprintf(early_fail, sizeof early_fail, "MPI_Info_create_env failed before MPI_Init");
    else
        check_from_args(before, argc, argv, early_fail, sizeof early_fail);

    mtest_init(&argc, &argv);
    /* MPICH 4.0 makes these objects without any key */
    const int keys = !MTEST_MPICH_DEVIATION;
    if (keys) {
        MTEST_CHECK(early_fail[0] == 0, "before MPI_Init: %s", early_fail);
        MTEST_CHECK(get(before, "maxprocs", val) == 1 && atoi(val) == mtest_size,
                    "before MPI_Init: maxprocs '%s', the job has %d processes", val, mtest_size);
    }

    /* now: the keys of MPI_INFO_ENV, with their values */
    MPI_Info info, other;
    MTEST_RC(MPI_Info_create_env(0, NULL, &info));
    MTEST_CHECK(info != MPI_INFO_NULL && info != MPI_INFO_ENV, "Info_create_env gave 0x%x", (unsigned)info);
    int nenv = 0, n = 0;
    MTEST_RC(MPI_Info_get_nkeys(MPI_INFO_ENV, &nenv));
    MTEST_RC(MPI_Info_get_nkeys(info, &n));
    MTEST_CHECK(n >= nenv, "Info_create_env has %d keys, MPI_INFO_ENV %d", n, nenv);
    for (int i = 0; i < nenv; i++) {
        MTEST_RC(MPI_Info_get_nthkey(MPI_INFO_ENV, i, key));
        get(MPI_INFO_ENV, key, val);
        int f = get(info, key, val2);
        MTEST_CHECK(f == 1 && strcmp(val, val2) == 0, "key '%s': MPI_INFO_ENV has '%s', Info_create_env '%s' (flag %d)",
                    key, val, val2, f);
    }
    if (keys) {
        MTEST_CHECK(get(info, "command", val) == 1 && strcmp(val, argv[0]) == 0, "command '%s', argv[0] '%s'", val,
                    argv[0]);
        MTEST_CHECK(get(info, "maxprocs", val) == 1 && atoi(val) == mtest_size, "maxprocs '%s', size %d", val,
                    mtest_size);
    }
    /* with main's arguments, the same as before MPI_Init */
    MTEST_RC(MPI_Info_create_env(argc, argv, &other));
    char fail[1024] = "";
    check_from_args(other, argc, argv, fail, sizeof fail);
    if (keys)
        MTEST_CHECK(fail[0] == 0, "after MPI_Init, with argc/argv: %s", fail);
    /* the program's own object */
    MTEST_RC(MPI_Info_set(info, "maxprocs", "12345"));
    MTEST_RC(MPI_Info_set(info, "mine", "yes"));
    if (keys)
        MTEST_CHECK(get(other, "maxprocs", val) == 1 && atoi(val) == mtest_size, "objects share keys: maxprocs '%s'",
                    val);
    MTEST_CHECK(get(MPI_INFO_ENV, "mine", val) == 0, "setting a key reached MPI_INFO_ENV");
    MTEST_RC(MPI_Info_free(&info));
    MTEST_RC(MPI_Info_free(&other));
    MTEST_RC(MPI_Info_free(&before));
    MTEST_CHECK(before == MPI_INFO_NULL, "Info_free left the handle");

    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    if (!MTEST_MPICH_DEVIATION) {
        mtest_check_class(MPI_Info_create_env(0, NULL, NULL), MPI_ERR_ARG, "Info_create_env(NULL)");
        mtest_check_class(MPI_Info_create_env(-1, argv, &info), MPI_ERR_ARG, "Info_create_env(argc -1)");
    }
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));

    int rc = mtest_finalize();
    /* after MPI_Finalize */
    MPI_Info after = MPI_INFO_NULL;
    if (MPI_Info_create_env(argc, argv, &after) != MPI_SUCCESS) {
        fprintf(stderr, "rank %d: MPI_Info_create_env failed after MPI_Finalize\n", mtest_rank);
        return 1;
    }
    fail[0] = 0;
    check_from_args(after, argc, argv, fail, sizeof fail);
    if ((fail[0] && !MTEST_MPICH_DEVIATION) || MPI_Info_free(&after) != MPI_SUCCESS) {
        fprintf(stderr, "rank %d: after MPI_Finalize: %s\n", mtest_rank, fail[0] ? fail : "Info_free failed");
        return 1;
    }
    return rc;
}
