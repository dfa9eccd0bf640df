/*
 * io_size: file manipulation (MPI-4.1 14.2.6-14.2.7, 14.6.1, 14.6.2).
 *   - File_get_size of a new file (0), after writes past the end (the byte
 *     after the last one written) and after a write by plain POSIX on one
 *     rank (no cached size);
 *   - File_set_size growing and shrinking the file: the size seen by
 *     File_get_size and stat(), the bytes below the new size kept; sizes
 *     in bytes whatever the view; the file pointers unmoved;
 *   - File_preallocate never shrinks the file, grows it to the size asked,
 *     keeps what was written;
 *   - errors: a negative size (MPI_ERR_ARG), different sizes on the ranks
 *     (MPI_ERR_NOT_SAME), set_size on a read-only file (an error);
 *   - File_sync + barrier + File_sync makes one rank's write visible to
 *     the others; sync on a read-only file;
 *   - File_get_atomicity (false after open), set_atomicity true and back.
 */
#include "io_util.h"

static int me, np;

static MPI_Offset size_of(MPI_File fh)
{
    MPI_Offset s = -1;
    IO_RC(MPI_File_get_size(fh, &s));
    return s;
}

static void test_size(void)
{
    char path[256];
    io_name(path, sizeof path, "size", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh)))
        return;
    MTEST_CHECK(size_of(fh) == 0, "a new file's size is %lld", (long long)size_of(fh));
    MPI_Barrier(MPI_COMM_WORLD);

    /* rank r writes 10 bytes at 1000 * r + 5 */
    unsigned char b[10];
    io_fill(b, 10, io_seed(me, 1), 0);
    IO_RC(MPI_File_write_at(fh, 1000 * me + 5, b, 10, MPI_BYTE, MPI_STATUS_IGNORE));
    IO_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_sync(fh));
    long long want = 1000LL * (np - 1) + 15;
    MTEST_CHECK(size_of(fh) == want, "size %lld after writes, expected %lld", (long long)size_of(fh), want);
    MTEST_CHECK(io_posix_size(path) == want, "stat size %lld after writes, expected %lld", io_posix_size(path), want);

    /* grow */
    IO_RC(MPI_File_seek(fh, 7, MPI_SEEK_SET));
    IO_RC(MPI_File_set_size(fh, 5000LL * np));
    MTEST_CHECK(size_of(fh) == 5000LL * np, "size %lld after set_size(%d)", (long long)size_of(fh), 5000 * np);
    MTEST_CHECK(io_posix_size(path) == 5000LL * np, "stat size %lld after set_size(%d)", io_posix_size(path),
                5000 * np);
    MPI_Offset pos = -1;
    IO_RC(MPI_File_get_position(fh, &pos));
    MTEST_CHECK(pos == 7, "set_size moved the individual pointer to %lld", (long long)pos);
    /* everybody's bytes still there */
    unsigned char got[10];
    for (int r = 0; r < np; r++) {
        memset(got, 0, 10);
        MPI_Status st;
        IO_RC(MPI_File_read_at(fh, 1000 * r + 5, got, 10, MPI_BYTE, &st));
        io_check_status(&st, MPI_BYTE, 10, 10, "read after growing");
        io_check_stream(got, 10, io_seed(r, 1), 0, "bytes kept by set_size growing the file");
    }

    /* shrink to 1000 + 9: rank 0's bytes whole, rank 1's first 4 */
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_set_size(fh, 1009));
    MTEST_CHECK(size_of(fh) == 1009, "size %lld after set_size(1009)", (long long)size_of(fh));
    MTEST_CHECK(io_posix_size(path) == 1009, "stat size %lld after set_size(1009)", io_posix_size(path));
    if (me == 0) {
        memset(got, 0, 10);
        io_posix_read(path, 5, got, 10);
        io_check_stream(got, 10, io_seed(0, 1), 0, "rank 0's bytes after shrinking");
        if (np > 1) {
            memset(got, 0, 10);
            MTEST_CHECK(io_posix_read(path, 1005, got, 10) == 4, "POSIX read at 1005 does not stop at 1009");
            io_check_stream(got, 4, io_seed(1, 1), 0, "rank 1's bytes cut by shrinking");
        }
    }
    /* a read across the new end is short */
    MPI_Status st;
    unsigned char big[40];
    IO_RC(MPI_File_read_at(fh, 1000, big, 40, MPI_BYTE, &st));
    io_check_status(&st, MPI_BYTE, 9, 9, "read_at(1000, 40 bytes) of a 1009-byte file");

    /* preallocate never shrinks */
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_preallocate(fh, 20));
    MTEST_CHECK(size_of(fh) == 1009, "preallocate(20) changed the size to %lld", (long long)size_of(fh));
    IO_RC(MPI_File_preallocate(fh, 1009));
    MTEST_CHECK(size_of(fh) == 1009, "preallocate(1009) changed the size to %lld", (long long)size_of(fh));
    IO_RC(MPI_File_preallocate(fh, 8192));
    MTEST_CHECK(size_of(fh) == 8192, "size %lld after preallocate(8192)", (long long)size_of(fh));
    MTEST_CHECK(io_posix_size(path) == 8192, "stat size %lld after preallocate(8192)", io_posix_size(path));
    memset(got, 0, 10);
    IO_RC(MPI_File_read_at(fh, 5, got, 10, MPI_BYTE, MPI_STATUS_IGNORE));
    io_check_stream(got, 10, io_seed(0, 1), 0, "rank 0's bytes after preallocate");
    IO_RC(MPI_File_get_position(fh, &pos));
    MTEST_CHECK(pos == 7, "set_size/preallocate moved the individual pointer to %lld", (long long)pos);

    /* sizes are bytes whatever the view */
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    IO_RC(MPI_File_set_view(fh, 12, MPI_INT, vec, "native", MPI_INFO_NULL));
    IO_RC(MPI_File_set_size(fh, 100));
    MTEST_CHECK(size_of(fh) == 100, "with a view of ints at displacement 12: size %lld after set_size(100)",
                (long long)size_of(fh));
    MTEST_CHECK(io_posix_size(path) == 100, "stat size %lld after set_size(100) with a view", io_posix_size(path));
    MPI_Type_free(&vec);
    IO_RC(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));

    /* a POSIX write by one rank shows in everybody's get_size */
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        int fd = open(path, O_WRONLY);
        if (fd >= 0) {
            if (pwrite(fd, "x", 1, 299) != 1)
                mtest_fail("pwrite: %s", strerror(errno));
            close(fd);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_CHECK(size_of(fh) == 300, "size %lld after a POSIX write of byte 299", (long long)size_of(fh));

    /* errors */
    io_check_class(MPI_File_set_size(fh, -1), MPI_ERR_ARG, "set_size(-1)");
    io_check_class(MPI_File_preallocate(fh, -5), MPI_ERR_ARG, "preallocate(-5)");
    if (np > 1 && !MTEST_MPICH_DEVIATION) {
        /* MPICH 4.0.2: MPI_ERR_ARG */
        int rc = MPI_File_set_size(fh, me == 1 ? 200 : 100);
        io_check_class(rc, MPI_ERR_NOT_SAME, "set_size(200) on rank 1, set_size(100) on the others");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_close(&fh));

    /* read-only */
    if (IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh))) {
        MTEST_CHECK(size_of(fh) == 300, "read-only: size %lld", (long long)size_of(fh));
        int rc = MPI_File_set_size(fh, 10);
        MTEST_CHECK(rc != MPI_SUCCESS, "set_size on a read-only file succeeded");
        rc = MPI_File_preallocate(fh, 100000);
        /* MPICH 4.0.2: an error on rank 0 only */
        if (!MTEST_MPICH_DEVIATION)
            MTEST_CHECK(rc != MPI_SUCCESS, "preallocate on a read-only file succeeded");
        /* sync is what makes others' writes visible to a reader: allowed
         * (MPICH 4.0.2: MPI_ERR_READ_ONLY) */
        rc = MPI_File_sync(fh);
        if (!MTEST_MPICH_DEVIATION)
            IO_RC(rc);
        IO_RC(MPI_File_close(&fh));
        MPI_Barrier(MPI_COMM_WORLD);
        MTEST_CHECK(io_posix_size(path) == 300, "a read-only file changed size to %lld", io_posix_size(path));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        io_unlink(path);
}

/* sync-barrier-sync: each rank writes, then reads its left neighbour's */
static void test_sync(void)
{
    char path[256];
    io_name(path, sizeof path, "sync", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh)))
        return;
    for (int round = 0; round < 3; round++) {
        unsigned char b[64], got[64];
        io_fill(b, 64, io_seed(me, 10 + round), 0);
        IO_RC(MPI_File_write_at(fh, 64 * me, b, 64, MPI_BYTE, MPI_STATUS_IGNORE));
        IO_RC(MPI_File_sync(fh));
        MPI_Barrier(MPI_COMM_WORLD);
        IO_RC(MPI_File_sync(fh));
        int left = (me + np - 1) % np;
        memset(got, 0, 64);
        IO_RC(MPI_File_read_at(fh, 64 * left, got, 64, MPI_BYTE, MPI_STATUS_IGNORE));
        io_check_stream(got, 64, io_seed(left, 10 + round), 0, "the left neighbour's write after sync-barrier-sync");
        MPI_Barrier(MPI_COMM_WORLD);   /* nobody overwrites before all have read */
    }
    IO_RC(MPI_File_close(&fh));
}

static void test_atomicity(void)
{
    char path[256];
    io_name(path, sizeof path, "atom", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh)))
        return;
    int flag = -1;
    IO_RC(MPI_File_get_atomicity(fh, &flag));
    MTEST_CHECK(flag == 0, "get_atomicity after open gives %d", flag);
    IO_RC(MPI_File_set_atomicity(fh, 1));
    IO_RC(MPI_File_get_atomicity(fh, &flag));
    MTEST_CHECK(flag != 0, "get_atomicity after set_atomicity(true) gives %d", flag);
    int x = me;
    IO_RC(MPI_File_write_at(fh, 4 * me, &x, 1, MPI_INT, MPI_STATUS_IGNORE));
    IO_RC(MPI_File_set_atomicity(fh, 0));
    IO_RC(MPI_File_get_atomicity(fh, &flag));
    MTEST_CHECK(flag == 0, "get_atomicity after set_atomicity(false) gives %d", flag);
    IO_RC(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_size();
    test_sync();
    test_atomicity();
    return mtest_finalize();
}
