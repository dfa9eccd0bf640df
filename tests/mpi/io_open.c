/*
 * io_open: opening, closing and deleting files (MPI-4.1 14.2), and the
 * handles and error handlers of files.
 *   - MPI_File_open/close on MPI_COMM_WORLD, a split of it and
 *     MPI_COMM_SELF (each rank its own file, all at once); close sets the
 *     handle to MPI_FILE_NULL; what was written is in the file (POSIX read);
 *   - amode rules: none or two of RDONLY/RDWR/WRONLY, RDONLY with CREATE or
 *     EXCL, RDWR with SEQUENTIAL -> MPI_ERR_AMODE; CREATE|EXCL on an existing
 *     file -> MPI_ERR_FILE_EXISTS; a missing file without CREATE and a file in
 *     a missing directory -> MPI_ERR_NO_SUCH_FILE; different amodes on the
 *     ranks -> MPI_ERR_NOT_SAME; MPI_COMM_NULL and an intercommunicator ->
 *     MPI_ERR_COMM; the file untouched or absent after each failure (root
 *     cannot be denied access, so MPI_ERR_ACCESS is not tried);
 *   - DELETE_ON_CLOSE (gone after close), APPEND (both pointers at the end),
 *     MPI_File_delete of a file and of a missing one (MPI_ERR_NO_SUCH_FILE);
 *   - File_get_amode, File_get_group (MPI_IDENT with the communicator's
 *     group), File_get_info/set_info (a new info object each time), hints
 *     at open, c2f/f2c round trips;
 *   - error handlers: MPI_ERRORS_RETURN on new files and on MPI_FILE_NULL;
 *     a handler from MPI_File_create_errhandler set on MPI_FILE_NULL is
 *     called with MPI_FILE_NULL and the code by a failing open and delete,
 *     and is inherited by files opened meanwhile; File_call_errhandler and a
 *     real error on the file call the file's handler with the file; calls on
 *     MPI_FILE_NULL -> MPI_ERR_FILE.
 */
#include "io_util.h"

static int me, np;

/* ---- a user error handler ------------------------------------------------------- */

static int eh_calls, eh_code;
static MPI_File eh_file;

static void file_eh(MPI_File *fh, int *code, ...)
{
    eh_calls++;
    eh_file = *fh;
    eh_code = *code;
}

static void eh_reset(void)
{
    eh_calls = 0;
    eh_code = MPI_SUCCESS;
    eh_file = (MPI_File)-1;
}

/* ---- basics -------------------------------------------------------------------- */

static void test_basic(void)
{
    char path[256];
    io_name(path, sizeof path, "open", MPI_COMM_WORLD);
    MPI_File fh = MPI_FILE_NULL;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh)))
        return;
    MTEST_CHECK(fh != MPI_FILE_NULL, "open gave MPI_FILE_NULL");
    int amode = -1;
    IO_RC(MPI_File_get_amode(fh, &amode));
    MTEST_CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), "get_amode gives %d, expected %d", amode,
                MPI_MODE_CREATE | MPI_MODE_RDWR);
    MPI_Group g, wg;
    int cmp = -1;
    IO_RC(MPI_File_get_group(fh, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    MTEST_CHECK(cmp == MPI_IDENT, "File_get_group: compare with the world's group gives %d", cmp);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    /* each rank 16 bytes at 16 * rank */
    unsigned char buf[16];
    MPI_Status st;
    io_fill(buf, 16, io_seed(me, 1), 0);
    IO_RC(MPI_File_write_at(fh, 16 * me, buf, 16, MPI_BYTE, &st));
    io_check_status(&st, MPI_BYTE, 16, 16, "write_at of 16 bytes");

    /* the handle converted and back is the same file */
    MPI_Fint f = MPI_File_c2f(fh);
    MTEST_CHECK(MPI_File_f2c(f) == fh, "File_f2c(File_c2f(fh)) is not fh");
    MTEST_CHECK(MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL,
                "f2c(c2f(MPI_FILE_NULL)) is not MPI_FILE_NULL");
    int amode2 = -1;
    IO_RC(MPI_File_get_amode(MPI_File_f2c(f), &amode2));
    MTEST_CHECK(amode2 == amode, "get_amode through the converted handle gives %d", amode2);

    /* MPI_ERRORS_RETURN by default */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    IO_RC(MPI_File_get_errhandler(fh, &eh));
    MTEST_CHECK(eh == MPI_ERRORS_RETURN, "a new file's error handler is not MPI_ERRORS_RETURN");
    io_free_errhandler(&eh);

    IO_RC(MPI_File_close(&fh));
    MTEST_CHECK(fh == MPI_FILE_NULL, "close did not set the handle to MPI_FILE_NULL");

    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        MTEST_CHECK(io_posix_size(path) == 16LL * np, "file size %lld after close, expected %d",
                    io_posix_size(path), 16 * np);
        unsigned char got[16];
        for (int r = 0; r < np; r++) {
            char what[64];
            snprintf(what, sizeof what, "rank %d's 16 bytes (POSIX read)", r);
            if (io_posix_read(path, 16 * r, got, 16) == 16)
                io_check_stream(got, 16, io_seed(r, 1), 0, what);
            else
                mtest_fail("short POSIX read of rank %d's bytes", r);
        }
    }

    /* read-only, each rank reads its right neighbour's bytes */
    if (IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh))) {
        IO_RC(MPI_File_get_amode(fh, &amode));
        MTEST_CHECK(amode == MPI_MODE_RDONLY, "get_amode gives %d, expected MPI_MODE_RDONLY", amode);
        int r = (me + 1) % np;
        memset(buf, 0, sizeof buf);
        IO_RC(MPI_File_read_at(fh, 16 * r, buf, 16, MPI_BYTE, &st));
        io_check_status(&st, MPI_BYTE, 16, 16, "read_at of 16 bytes");
        io_check_stream(buf, 16, io_seed(r, 1), 0, "the neighbour's bytes read back");
        IO_RC(MPI_File_close(&fh));
    }

    /* a second open on top of an open handle, and the same file twice */
    MPI_File a = MPI_FILE_NULL, b = MPI_FILE_NULL;
    IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &a));
    IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &b));
    MTEST_CHECK(a != b, "two opens gave the same handle");
    IO_RC(MPI_File_close(&b));
    IO_RC(MPI_File_close(&a));

    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        IO_RC(MPI_File_delete(path, MPI_INFO_NULL));
        MTEST_CHECK(io_posix_size(path) == -1, "the file exists after MPI_File_delete");
        io_check_class(MPI_File_delete(path, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE,
                       "File_delete of a missing file");
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- access mode errors ---------------------------------------------------------- */

static void test_amode(void)
{
    char path[256], missing[256], nodir[300];
    io_name(path, sizeof path, "amode", MPI_COMM_WORLD);
    io_name(missing, sizeof missing, "missing", MPI_COMM_WORLD);
    snprintf(nodir, sizeof nodir, "%s.nodir/file", missing);
    if (me == 0) {
        unsigned char b[40];
        io_fill(b, sizeof b, io_seed(0, 2), 0);
        io_posix_write(path, b, sizeof b);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    static const struct {
        int amode;
        const char *name;
    } bad[] = {
        {0, "no access mode"},
        {MPI_MODE_CREATE, "CREATE alone"},
        {MPI_MODE_RDONLY | MPI_MODE_RDWR, "RDONLY|RDWR"},
        {MPI_MODE_RDONLY | MPI_MODE_WRONLY, "RDONLY|WRONLY"},
        {MPI_MODE_RDWR | MPI_MODE_WRONLY, "RDWR|WRONLY"},
        {MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY, "all three"},
        {MPI_MODE_RDONLY | MPI_MODE_CREATE, "RDONLY|CREATE"},
        {MPI_MODE_RDONLY | MPI_MODE_EXCL, "RDONLY|EXCL"},
        {MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, "RDWR|SEQUENTIAL"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        MPI_File fh = MPI_FILE_NULL;
        int rc = MPI_File_open(MPI_COMM_WORLD, path, bad[i].amode, MPI_INFO_NULL, &fh);
        io_check_class(rc, MPI_ERR_AMODE, "open with %s", bad[i].name);
        if (rc == MPI_SUCCESS)
            MPI_File_close(&fh);
        /* the same on a file that does not exist: AMODE, and nothing created */
        rc = MPI_File_open(MPI_COMM_WORLD, missing, bad[i].amode, MPI_INFO_NULL, &fh);
        io_check_class(rc, MPI_ERR_AMODE, "open of a missing file with %s", bad[i].name);
        if (rc == MPI_SUCCESS)
            MPI_File_close(&fh);
        MPI_Barrier(MPI_COMM_WORLD);
        MTEST_CHECK(io_posix_size(missing) == -1, "open with %s created the file", bad[i].name);
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 0)
            unlink(missing);
    }

    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR, MPI_INFO_NULL,
                           &fh);
    io_check_class(rc, MPI_ERR_FILE_EXISTS, "CREATE|EXCL on an existing file");
    if (rc == MPI_SUCCESS)
        MPI_File_close(&fh);
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    io_check_class(rc, MPI_ERR_FILE_EXISTS, "CREATE|EXCL|WRONLY on an existing file");
    if (rc == MPI_SUCCESS)
        MPI_File_close(&fh);

    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    io_check_class(rc, MPI_ERR_NO_SUCH_FILE, "RDONLY open of a missing file");
    if (rc == MPI_SUCCESS)
        MPI_File_close(&fh);
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    io_check_class(rc, MPI_ERR_NO_SUCH_FILE, "RDWR open of a missing file without CREATE");
    if (rc == MPI_SUCCESS)
        MPI_File_close(&fh);
    rc = MPI_File_open(MPI_COMM_WORLD, nodir, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    io_check_class(rc, MPI_ERR_NO_SUCH_FILE, "CREATE of a file in a missing directory");
    if (rc == MPI_SUCCESS)
        MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_CHECK(io_posix_size(missing) == -1, "a failed open created the file");

    /* CREATE|EXCL of a new file succeeds once */
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL,
                       &fh);
    if (IO_RC(rc))
        IO_RC(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_CHECK(io_posix_size(missing) == 0, "CREATE|EXCL made no empty file (size %lld)", io_posix_size(missing));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        io_unlink(missing);

    /* amodes that differ between ranks */
    if (np > 1) {
        int amode = me == np - 1 ? MPI_MODE_RDWR : MPI_MODE_RDONLY;
        rc = MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh);
        io_check_class(rc, MPI_ERR_NOT_SAME, "open with RDWR on the last rank, RDONLY on the others");
        if (rc == MPI_SUCCESS)
            MPI_File_close(&fh);
    }
    if (np > 1) {
        /* an amode that breaks a rule on one rank only: every rank fails (none waits for it) */
        int amode = me == 0 ? MPI_MODE_RDONLY | MPI_MODE_CREATE : MPI_MODE_RDWR | MPI_MODE_CREATE;
        rc = MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh);
        io_check_class(rc, MPI_ERR_AMODE, "open with RDONLY|CREATE on rank 0, RDWR|CREATE on the others");
        if (rc == MPI_SUCCESS)
            MPI_File_close(&fh);
    }

    rc = MPI_File_open(MPI_COMM_NULL, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    io_check_class(rc, MPI_ERR_COMM, "open on MPI_COMM_NULL");
    if (np > 1) {
        /* an intercommunicator between the halves */
        MPI_Comm half, inter;
        MPI_Comm_split(MPI_COMM_WORLD, me < np / 2, me, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me < np / 2 ? np / 2 : 0, 7, &inter);
        rc = MPI_File_open(inter, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
        io_check_class(rc, MPI_ERR_COMM, "open on an intercommunicator");
        if (rc == MPI_SUCCESS)
            MPI_File_close(&fh);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }

    /* the file was never changed */
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        unsigned char got[41];
        long long n = io_posix_read(path, 0, got, sizeof got);
        MTEST_CHECK(n == 40, "the file has %lld bytes after the failed opens, expected 40", n);
        io_check_stream(got, 40, io_seed(0, 2), 0, "the file after the failed opens");
        io_unlink(path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- DELETE_ON_CLOSE, APPEND ----------------------------------------------------- */

static void test_modes(void)
{
    char path[256];
    io_name(path, sizeof path, "doc", MPI_COMM_WORLD);
    MPI_File fh;
    if (IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh))) {
        int x = me;
        IO_RC(MPI_File_write_at(fh, 4 * me, &x, 1, MPI_INT, MPI_STATUS_IGNORE));
        MPI_Barrier(MPI_COMM_WORLD);
        MTEST_CHECK(io_posix_size(path) >= 0, "a DELETE_ON_CLOSE file does not exist while open");
        MPI_Barrier(MPI_COMM_WORLD);
        IO_RC(MPI_File_close(&fh));
        MPI_Barrier(MPI_COMM_WORLD);
        MTEST_CHECK(io_posix_size(path) == -1, "a DELETE_ON_CLOSE file still exists after close");
    }

    /* APPEND: both pointers start at the end */
    io_name(path, sizeof path, "append", MPI_COMM_WORLD);
    if (me == 0) {
        unsigned char b[100];
        io_fill(b, sizeof b, io_seed(0, 3), 0);
        io_posix_write(path, b, sizeof b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_APPEND, MPI_INFO_NULL, &fh))) {
        MPI_Offset pos = -1, spos = -1;
        IO_RC(MPI_File_get_position(fh, &pos));
        IO_RC(MPI_File_get_position_shared(fh, &spos));
        MTEST_CHECK(pos == 100, "APPEND: individual pointer at %lld, expected 100", (long long)pos);
        MTEST_CHECK(spos == 100, "APPEND: shared pointer at %lld, expected 100", (long long)spos);
        /* every rank writes 8 bytes at the individual pointer + 8 * rank */
        unsigned char b[8];
        io_fill(b, 8, io_seed(me, 4), 0);
        IO_RC(MPI_File_seek(fh, 8 * me, MPI_SEEK_CUR));
        IO_RC(MPI_File_write(fh, b, 8, MPI_BYTE, MPI_STATUS_IGNORE));
        IO_RC(MPI_File_get_position(fh, &pos));
        MTEST_CHECK(pos == 108 + 8 * me, "APPEND: pointer at %lld after the write, expected %d", (long long)pos,
                    108 + 8 * me);
        IO_RC(MPI_File_close(&fh));
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 0) {
            size_t n = 100 + 8 * (size_t)np;
            unsigned char *got = mtest_malloc(n + 1);
            MTEST_CHECK(io_posix_read(path, 0, got, n + 1) == (long long)n, "APPEND: file size is not %zu", n);
            io_check_stream(got, 100, io_seed(0, 3), 0, "APPEND: the first 100 bytes");
            for (int r = 0; r < np; r++)
                io_check_stream(got + 100 + 8 * r, 8, io_seed(r, 4), 0, "APPEND: a rank's bytes after the end");
            free(got);
            io_unlink(path);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- info --------------------------------------------------------------------- */

static void test_info(void)
{
    char path[256];
    io_name(path, sizeof path, "info", MPI_COMM_WORLD);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "access_style", "write_once,read_mostly");
    MPI_Info_set(info, "dmpi_io_test_unknown_key", "whatever");
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             info, &fh))) {
        MPI_Info_free(&info);
        return;
    }
    MPI_Info_free(&info);
    MPI_Info a = MPI_INFO_NULL, b = MPI_INFO_NULL;
    IO_RC(MPI_File_get_info(fh, &a));
    IO_RC(MPI_File_get_info(fh, &b));
    MTEST_CHECK(a != MPI_INFO_NULL && b != MPI_INFO_NULL, "File_get_info gave MPI_INFO_NULL");
    MTEST_CHECK(a != b, "two File_get_info calls gave the same info object");
    int n = -1;
    if (a != MPI_INFO_NULL) {
        IO_RC(MPI_Info_get_nkeys(a, &n));
        MTEST_CHECK(n >= 0, "Info_get_nkeys of the file's info gives %d", n);
        /* a key of the returned object can be changed without touching the file's */
        MPI_Info_set(a, "dmpi_io_test_mine", "1");
        MPI_Info_free(&a);
    }
    if (b != MPI_INFO_NULL) {
        int flag = 1;
        char v[8];
        MPI_Info_get(b, "dmpi_io_test_mine", 7, v, &flag);
        MTEST_CHECK(!flag, "a key set in one File_get_info result shows in another");
        MPI_Info_free(&b);
    }
    MPI_Info_create(&info);
    MPI_Info_set(info, "access_style", "random");
    IO_RC(MPI_File_set_info(fh, info));
    IO_RC(MPI_File_set_info(fh, MPI_INFO_NULL));
    MPI_Info_free(&info);
    IO_RC(MPI_File_get_info(fh, &a));
    if (a != MPI_INFO_NULL)
        MPI_Info_free(&a);
    IO_RC(MPI_File_close(&fh));
}

/* ---- sub-communicators ------------------------------------------------------------ */

static void test_subcomms(void)
{
    /* halves of the world, each with its own file */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, np - me, &half);
    int hr, hn;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hn);
    char path[256];
    io_name(path, sizeof path, me % 2 ? "odd" : "even", half);
    MPI_File fh;
    if (IO_RC(MPI_File_open(half, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh))) {
        MPI_Group g, hg;
        int cmp = -1;
        IO_RC(MPI_File_get_group(fh, &g));
        MPI_Comm_group(half, &hg);
        MPI_Group_compare(g, hg, &cmp);
        MTEST_CHECK(cmp == MPI_IDENT, "File_get_group on a split: compare gives %d", cmp);
        MPI_Group_free(&g);
        MPI_Group_free(&hg);
        unsigned char b[24];
        io_fill(b, sizeof b, io_seed(me, 5), 0);
        IO_RC(MPI_File_write_at(fh, 24 * hr, b, 24, MPI_BYTE, MPI_STATUS_IGNORE));
        IO_RC(MPI_File_close(&fh));
    }
    /* every rank its own file on MPI_COMM_SELF, all at once */
    char mine[256];
    io_name_self(mine, sizeof mine, "self");
    MPI_File sf;
    if (IO_RC(MPI_File_open(MPI_COMM_SELF, mine, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &sf))) {
        MPI_Group g;
        int gs = -1;
        MPI_File_get_group(sf, &g);
        MPI_Group_size(g, &gs);
        MTEST_CHECK(gs == 1, "File_get_group on MPI_COMM_SELF has %d members", gs);
        MPI_Group_free(&g);
        unsigned char b[33], got[33];
        io_fill(b, sizeof b, io_seed(me, 6), 0);
        IO_RC(MPI_File_write(sf, b, 33, MPI_BYTE, MPI_STATUS_IGNORE));
        MPI_Status st;
        memset(got, 0, sizeof got);
        IO_RC(MPI_File_read_at(sf, 0, got, 33, MPI_BYTE, &st));
        io_check_status(&st, MPI_BYTE, 33, 33, "read back on MPI_COMM_SELF");
        io_check_stream(got, 33, io_seed(me, 6), 0, "own file on MPI_COMM_SELF (MPI read)");
        IO_RC(MPI_File_close(&sf));
        memset(got, 0, sizeof got);
        MTEST_CHECK(io_posix_read(mine, 0, got, 33) == 33 && io_posix_size(mine) == 33,
                    "own file on MPI_COMM_SELF: not 33 bytes");
        io_check_stream(got, 33, io_seed(me, 6), 0, "own file on MPI_COMM_SELF (POSIX read)");
        IO_RC(MPI_File_delete(mine, MPI_INFO_NULL));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (hr == 0) {
        MTEST_CHECK(io_posix_size(path) == 24LL * hn, "the half's file has %lld bytes, expected %d",
                    io_posix_size(path), 24 * hn);
        unsigned char got[24];
        for (int r = 0; r < hn; r++) {
            /* rank r of the half is world rank me%2 + 2*(hn - 1 - r) (split key np - me) */
            int w = me % 2 + 2 * (hn - 1 - r);
            io_posix_read(path, 24 * r, got, 24);
            io_check_stream(got, 24, io_seed(w, 5), 0, "a rank's bytes in its half's file");
        }
        io_unlink(path);
    }
    MPI_Comm_free(&half);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- error handlers ------------------------------------------------------------ */

static void test_errhandlers(void)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    IO_RC(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    MTEST_CHECK(got == MPI_ERRORS_RETURN, "MPI_FILE_NULL's handler is not MPI_ERRORS_RETURN at start");
    io_free_errhandler(&got);

    /* calls on MPI_FILE_NULL */
    int amode;
    MPI_File nf = MPI_FILE_NULL;
    io_check_class(MPI_File_get_amode(MPI_FILE_NULL, &amode), MPI_ERR_FILE, "get_amode(MPI_FILE_NULL)");
    io_check_class(MPI_File_close(&nf), MPI_ERR_FILE, "close of MPI_FILE_NULL");
    MPI_Offset sz;
    io_check_class(MPI_File_get_size(MPI_FILE_NULL, &sz), MPI_ERR_FILE, "get_size(MPI_FILE_NULL)");

    IO_RC(MPI_File_create_errhandler(file_eh, &eh));
    IO_RC(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    got = MPI_ERRHANDLER_NULL;
    IO_RC(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    MTEST_CHECK(got == eh, "File_get_errhandler(MPI_FILE_NULL) does not give the handler set");
    io_free_errhandler(&got);

    char missing[256], path[256];
    io_name(missing, sizeof missing, "ehmissing", MPI_COMM_WORLD);
    io_name(path, sizeof path, "eh", MPI_COMM_WORLD);
    MPI_File fh = MPI_FILE_NULL;
    eh_reset();
    int rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    io_check_class(rc, MPI_ERR_NO_SUCH_FILE, "open of a missing file with a user handler on MPI_FILE_NULL");
    MTEST_CHECK(eh_calls == 1, "the handler of MPI_FILE_NULL was called %d times by a failing open", eh_calls);
    MTEST_CHECK(eh_file == MPI_FILE_NULL, "the handler got another file than MPI_FILE_NULL");
    MTEST_CHECK(eh_code == rc, "the handler got code %d, open returned %d", eh_code, rc);
    io_check_class(eh_code, MPI_ERR_NO_SUCH_FILE, "the code the handler got");
    if (rc == MPI_SUCCESS)
        MPI_File_close(&fh);

    eh_reset();
    if (me == 0) {
        rc = MPI_File_delete(missing, MPI_INFO_NULL);
        io_check_class(rc, MPI_ERR_NO_SUCH_FILE, "delete of a missing file with a user handler");
        MTEST_CHECK(eh_calls == 1 && eh_file == MPI_FILE_NULL && eh_code == rc,
                    "a failing delete: the handler called %d times", eh_calls);
    }

    /* a file opened now starts with the handler of MPI_FILE_NULL */
    eh_reset();
    if (IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh))) {
        MTEST_CHECK(eh_calls == 0, "a successful open called the handler");
        got = MPI_ERRHANDLER_NULL;
        IO_RC(MPI_File_get_errhandler(fh, &got));
        MTEST_CHECK(got == eh, "a file opened while MPI_FILE_NULL has a user handler has another handler");
        io_free_errhandler(&got);
        rc = MPI_File_call_errhandler(fh, MPI_ERR_OTHER);
        MTEST_CHECK(rc == MPI_SUCCESS, "File_call_errhandler returned %d", rc);
        MTEST_CHECK(eh_calls == 1 && eh_file == fh && eh_code == MPI_ERR_OTHER,
                    "File_call_errhandler: handler called %d times, with %s file, code %d", eh_calls,
                    eh_file == fh ? "the" : "another", eh_code);
        /* a real error: read on a write-only file */
        eh_reset();
        int x;
        rc = MPI_File_read_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
        io_check_class(rc, MPI_ERR_ACCESS, "read on a WRONLY file");
        MTEST_CHECK(eh_calls == 1 && eh_file == fh && eh_code == rc,
                    "read on a WRONLY file: handler called %d times, with %s file", eh_calls,
                    eh_file == fh ? "the" : "another");
        /* back to MPI_ERRORS_RETURN on the file only */
        IO_RC(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
        eh_reset();
        rc = MPI_File_read_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
        io_check_class(rc, MPI_ERR_ACCESS, "read on a WRONLY file, MPI_ERRORS_RETURN");
        MTEST_CHECK(eh_calls == 0, "the user handler was called after the file got MPI_ERRORS_RETURN");
        IO_RC(MPI_File_call_errhandler(fh, MPI_ERR_IO));
        MTEST_CHECK(eh_calls == 0, "File_call_errhandler with MPI_ERRORS_RETURN called the user handler");
        eh_reset();
        IO_RC(MPI_File_close(&fh));
        MTEST_CHECK(eh_calls == 0, "close called the handler");
    }
    /* a communicator's handler is no file handler */
    MPI_Errhandler ceh;
    MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)(void (*)(void))file_eh, &ceh);
    if (!MTEST_MPICH_DEVIATION) {
        /* MPICH 4.0.2 accepts it */
        rc = MPI_File_set_errhandler(MPI_FILE_NULL, ceh);
        io_check_class(rc, MPI_ERR_ARG, "File_set_errhandler with a communicator's handler");
    }
    MPI_Errhandler_free(&ceh);

    IO_RC(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&eh);
    eh_reset();
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    io_check_class(rc, MPI_ERR_NO_SUCH_FILE, "open of a missing file, MPI_ERRORS_RETURN again");
    MTEST_CHECK(eh_calls == 0, "the old handler was called after MPI_FILE_NULL got MPI_ERRORS_RETURN");
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_basic();
    test_amode();
    test_modes();
    test_info();
    test_subcomms();
    test_errhandlers();
    return mtest_finalize();
}
