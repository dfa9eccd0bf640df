/* MPI_Comm_spawn and MPI_Comm_spawn_multiple of this program: arguments
 * (with blanks), info keys (wdir, path, host, soft), errcodes, traffic on
 * the intercommunicator both ways checked byte for byte (eager and
 * rendezvous sizes), a collective across it, Intercomm_merge, the
 * children's own MPI_COMM_WORLD, MPI_APPNUM, MPI_UNIVERSE_SIZE,
 * Comm_disconnect on both sides, and errors (a program that does not exist,
 * a host that is not this one, a soft range below maxprocs, a missing wdir,
 * bad root and maxprocs) as MPI_ERR_SPAWN and
 * the others. Children report their error counts to the parents, so that
 * only the parents' rank 0 says "No Errors". */
#include "mtest.h"
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (1 << 20)                /* a rendezvous message */

/* ---- the children --------------------------------------------------------- */

static void child_traffic(MPI_Comm parent)
{
    int prank, psize, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_remote_size(parent, &psize);
    /* every parent rank sends each child a small and a big message */
    char *buf = malloc(BIG);
    for (prank = 0; prank < psize; prank++) {
        int n[2] = {100 + rank, BIG};
        for (int k = 0; k < 2; k++) {
            MPI_Status st;
            mtest_poison(buf, (size_t)n[k], prank, 10 + k);
            MTEST_RC(MPI_Recv(buf, n[k], MPI_BYTE, prank, 5 + k, parent, &st));
            mtest_check_status(&st, prank, 5 + k, MPI_BYTE, n[k], "child receive from a parent");
            mtest_check_data(buf, (size_t)n[k], prank, 10 + k, "child data from parent %d", prank);
        }
        mtest_fill(buf, (size_t)n[1], 1000 + rank, prank);
        MTEST_RC(MPI_Send(buf, BIG, MPI_BYTE, prank, 7, parent));
    }
    free(buf);
    /* the parents' root broadcasts to us */
    int word = 0;
    MTEST_RC(MPI_Bcast(&word, 1, MPI_INT, 0, parent));
    MTEST_CHECK(word == 4242, "broadcast from the parents gave %d", word);
    /* merged: the parents first (high = 0 there) */
    MPI_Comm merged;
    int mrank, msize, sum = 0;
    MTEST_RC(MPI_Intercomm_merge(parent, 1, &merged));
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    MTEST_CHECK(msize == psize + size && mrank == psize + rank, "merged: rank %d of %d", mrank, msize);
    MTEST_RC(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged));
    MTEST_CHECK(sum == msize * (msize - 1) / 2, "merged allreduce gave %d", sum);
    /* an intercommunicator again, through the merged one (names across jobs) */
    MPI_Comm ic2;
    int rs = 0, word2 = -1;
    MTEST_RC(MPI_Intercomm_create(MPI_COMM_WORLD, 0, merged, 0, 17, &ic2));
    MPI_Comm_remote_size(ic2, &rs);
    MTEST_CHECK(rs == psize, "Intercomm_create across jobs: remote size %d", rs);
    MTEST_RC(MPI_Recv(&word2, 1, MPI_INT, 0, 18, ic2, MPI_STATUS_IGNORE));
    MTEST_CHECK(word2 == 1000 + rank, "Intercomm_create across jobs: got %d", word2);
    MPI_Comm_free(&ic2);
    MPI_Comm_free(&merged);
}

static int child(int argc, char **argv, MPI_Comm parent)
{
    int rank, size, *appnum, *usize, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
    MTEST_CHECK(flag, "MPI_APPNUM is not set in a spawned job");
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag));
    MTEST_CHECK(flag && *usize >= size, "MPI_UNIVERSE_SIZE %d below the world size %d", flag ? *usize : -1, size);
    int is_inter = 0;
    MPI_Comm_test_inter(parent, &is_inter);
    MTEST_CHECK(is_inter, "the parent communicator is not an intercommunicator");
    MTEST_CHECK(argc >= 2, "a child got no arguments");
    const char *mode = argc >= 2 ? argv[1] : "";
    if (!strcmp(mode, "single")) {
        char cwd[PATH_MAX];
        MTEST_CHECK(argc == 4 && !strcmp(argv[2], "an argument with blanks") && !strcmp(argv[3], ""),
                    "arguments not passed as given (argc %d)", argc);
        MTEST_CHECK(getcwd(cwd, sizeof cwd) && !strcmp(cwd, "/"), "info wdir=/ not applied: %s", cwd);
        MTEST_CHECK(*appnum == 0 && size == 2, "single: appnum %d, size %d", *appnum, size);
        child_traffic(parent);
    } else if (!strncmp(mode, "multi", 5)) {
        int want = mode[5] - '0';
        MTEST_CHECK(*appnum == want && size == 3, "multi: appnum %d (want %d), size %d", *appnum, want, size);
        int word = 0;
        MTEST_RC(MPI_Bcast(&word, 1, MPI_INT, 0, parent));
        MTEST_CHECK(word == 77, "multi: broadcast gave %d", word);
    } else if (!strcmp(mode, "soft")) {
        MTEST_CHECK(size == 2, "info soft=1:2 with maxprocs 3 started %d", size);
    }
    /* report to the parents' root, then leave */
    int errs = mtest_error_count(), total = 0;
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Send(&total, 1, MPI_INT, 0, 99, parent);
    MTEST_RC(MPI_Comm_disconnect(&parent));
    MTEST_CHECK(parent == MPI_COMM_NULL, "Comm_disconnect did not set MPI_COMM_NULL");
    MPI_Comm_get_parent(&parent);
    MTEST_CHECK(parent == MPI_COMM_NULL, "Comm_get_parent after disconnect is not MPI_COMM_NULL");
    MPI_Finalize();
    return mtest_error_count() != 0;
}

/* ---- the parents ---------------------------------------------------------- */

static void collect(MPI_Comm ic)
{
    int rank, n = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MTEST_RC(MPI_Recv(&n, 1, MPI_INT, 0, 99, ic, MPI_STATUS_IGNORE));
        mtest_add_errors(n);
    }
    MTEST_RC(MPI_Comm_disconnect(&ic));
    MTEST_CHECK(ic == MPI_COMM_NULL, "Comm_disconnect did not set MPI_COMM_NULL");
}

static void spawn_single(const char *self)
{
    char *args[] = {"single", "an argument with blanks", "", NULL};
    int errcodes[2] = {-1, -1}, size, rsize, lsize, rank;
    MPI_Comm ic;
    MPI_Info info;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Info_create(&info);
    MPI_Info_set(info, "wdir", "/");
    MPI_Info_set(info, "host", "localhost");
    MTEST_RC(MPI_Comm_spawn(self, args, 2, info, 0, MPI_COMM_WORLD, &ic, errcodes));
    MPI_Info_free(&info);
    MTEST_CHECK(errcodes[0] == MPI_SUCCESS && errcodes[1] == MPI_SUCCESS, "errcodes %d %d", errcodes[0], errcodes[1]);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm_size(ic, &lsize);
    MTEST_CHECK(rsize == 2 && lsize == size, "spawn: remote size %d, local size %d", rsize, lsize);
    char *buf = malloc(BIG);
    for (int c = 0; c < 2; c++) {
        int n = 100 + c;
        mtest_fill(buf, (size_t)n, rank, 10);
        MTEST_RC(MPI_Send(buf, n, MPI_BYTE, c, 5, ic));
        mtest_fill(buf, BIG, rank, 11);
        MTEST_RC(MPI_Send(buf, BIG, MPI_BYTE, c, 6, ic));
        MPI_Status st;
        mtest_poison(buf, BIG, 1000 + c, rank);
        MTEST_RC(MPI_Recv(buf, BIG, MPI_BYTE, c, 7, ic, &st));
        mtest_check_status(&st, c, 7, MPI_BYTE, BIG, "parent receive from a child");
        mtest_check_data(buf, BIG, 1000 + c, rank, "parent data from child %d", c);
    }
    free(buf);
    int word = 4242;
    MTEST_RC(MPI_Bcast(&word, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic));
    MPI_Comm merged;
    int mrank, msize, sum = 0;
    MTEST_RC(MPI_Intercomm_merge(ic, 0, &merged));
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    MTEST_CHECK(msize == size + 2 && mrank == rank, "merged: rank %d of %d", mrank, msize);
    MTEST_RC(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged));
    MTEST_CHECK(sum == msize * (msize - 1) / 2, "merged allreduce gave %d", sum);
    MPI_Comm ic2;
    int rs = 0;
    MTEST_RC(MPI_Intercomm_create(MPI_COMM_WORLD, 0, merged, size, 17, &ic2));
    MPI_Comm_remote_size(ic2, &rs);
    MTEST_CHECK(rs == 2, "Intercomm_create across jobs: remote size %d", rs);
    if (rank == 0)
        for (int c = 0; c < 2; c++) {
            int w = 1000 + c;
            MTEST_RC(MPI_Send(&w, 1, MPI_INT, c, 18, ic2));
        }
    MPI_Comm_free(&ic2);
    MPI_Comm_free(&merged);
    collect(ic);
}

static void spawn_multiple(const char *self)
{
    char *cmds[2] = {(char *)self, (char *)self};
    char *a0[] = {"multi0", NULL}, *a1[] = {"multi1", NULL};
    char **argvs[2] = {a0, a1};
    int maxprocs[2] = {1, 2}, errcodes[3] = {-1, -1, -1}, rsize, rank;
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    MPI_Comm ic;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* a child's own directory in info path, the program by its bare name */
    char dir[PATH_MAX], *slash;
    snprintf(dir, sizeof dir, "%s", self);
    slash = strrchr(dir, '/');
    *slash = '\0';
    MPI_Info_create(&infos[1]);
    MPI_Info_set(infos[1], "path", dir);
    cmds[1] = slash + 1;
    MTEST_RC(MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, &ic, errcodes));
    MPI_Info_free(&infos[1]);
    for (int i = 0; i < 3; i++)
        MTEST_CHECK(errcodes[i] == MPI_SUCCESS, "spawn_multiple: errcodes[%d] = %d", i, errcodes[i]);
    MPI_Comm_remote_size(ic, &rsize);
    MTEST_CHECK(rsize == 3, "spawn_multiple: remote size %d", rsize);
    int word = 77;
    MTEST_RC(MPI_Bcast(&word, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic));
    collect(ic);
}

/* From MPI_COMM_SELF on the last rank, with the arguments only there;
 * info soft=1:2 with maxprocs 3 starts 2. */
static void spawn_soft(const char *self)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != size - 1)
        return;
    char *args[] = {"soft", NULL};
    MPI_Info info;
    MPI_Comm ic;
    int rsize;
    MPI_Info_create(&info);
    MPI_Info_set(info, "soft", "1:2");
    MTEST_RC(MPI_Comm_spawn(self, args, 3, info, 0, MPI_COMM_SELF, &ic, MPI_ERRCODES_IGNORE));
    MPI_Info_free(&info);
    MPI_Comm_remote_size(ic, &rsize);
    MTEST_CHECK(rsize == 2, "soft: remote size %d", rsize);
    int n = 0;
    MTEST_RC(MPI_Recv(&n, 1, MPI_INT, 0, 99, ic, MPI_STATUS_IGNORE));
    mtest_add_errors(n);
    MTEST_RC(MPI_Comm_disconnect(&ic));
}

static void expect_class(int rc, int cls, const char *what)
{
    int c = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    MTEST_CHECK(c == cls, "%s: class %d, expected %d", what, c, cls);
}

static void spawn_errors(const char *self)
{
    int rank, errcodes[2] = {0, 0};
    MPI_Comm ic = MPI_COMM_NULL;
    MPI_Info info;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    expect_class(MPI_Comm_spawn("/nonexistent/dmpi-no-such-program", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0,
                                MPI_COMM_WORLD, &ic, errcodes),
                 MPI_ERR_SPAWN, "spawn of a program that does not exist");
    if (rank == 0)
        MTEST_CHECK(errcodes[0] == MPI_ERR_SPAWN && errcodes[1] == MPI_ERR_SPAWN, "errcodes %d %d", errcodes[0],
                    errcodes[1]);
    MPI_Info_create(&info);
    MPI_Info_set(info, "host", "dmpi-no-such-host.invalid");
    expect_class(MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, info, 0, MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE),
                 MPI_ERR_SPAWN, "spawn on another host");
    MPI_Info_set(info, "host", "localhost");
    MPI_Info_set(info, "soft", "5:9");
    expect_class(MPI_Comm_spawn(self, MPI_ARGV_NULL, 3, info, 0, MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE),
                 MPI_ERR_SPAWN, "info soft that allows no count up to maxprocs");
    MPI_Info_delete(info, "soft");
    MPI_Info_set(info, "wdir", "/nonexistent/dmpi-dir");
    expect_class(MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, info, 0, MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE),
                 MPI_ERR_SPAWN, "spawn into a directory that does not exist");
    MPI_Info_free(&info);
    expect_class(MPI_Comm_spawn(self, MPI_ARGV_NULL, rank == 0 ? 0 : 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                                MPI_ERRCODES_IGNORE),
                 MPI_ERR_ARG, "maxprocs 0 at the root");
    expect_class(MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 99, MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE),
                 MPI_ERR_ROOT, "root 99");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Across hosts our mpiexec refuses to spawn (MPI_ERR_SPAWN on every
 * parent); Hydra spawns. One child that reports nothing tells which. */
static bool can_spawn(const char *self)
{
    char *args[] = {"probe", NULL};
    MPI_Comm ic;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Comm_spawn(self, args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (rc != MPI_SUCCESS) {
        expect_class(rc, MPI_ERR_SPAWN, "spawn across hosts");
        return false;
    }
    collect(ic);
    return true;
}

int main(int argc, char **argv)
{
    MPI_Comm parent;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL)
        return child(argc, argv, parent);
    mtest_start();
    if (argc > 1 && !strcmp(argv[1], "singleton")) {   /* run without mpiexec: MPI_ERR_SPAWN at once */
        MPI_Comm ic = MPI_COMM_NULL;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        expect_class(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                                    MPI_ERRCODES_IGNORE),
                     MPI_ERR_SPAWN, "spawn without a process manager");
        return mtest_finalize();
    }
    char self[PATH_MAX];
    if (!realpath(argv[0], self))
        snprintf(self, sizeof self, "%s", argv[0]);
    if (getenv("MTEST_MULTI_HOST") && !can_spawn(self))
        return mtest_finalize();
    spawn_single(self);
    spawn_multiple(self);
    spawn_soft(self);
    spawn_errors(self);
    return mtest_finalize();
}
