/*
 * io_coll: collective, split collective and nonblocking data access
 * (MPI-4.1 14.4.2-14.4.5).
 *
 * One file, one view: etype int, each rank owning blocks of 16 ints in a
 * cycle of 16 x nprocs ints (a vector filetype at displacement 64 x rank).
 * Rank r accesses a different number of ints (0 on every rank r % 3 == 2,
 * 40 + 23 r on the others). Every form writes fresh data; afterwards rank 0
 * checks every byte of the file by POSIX against the image of all ranks'
 * data, and each rank reads its own back through another form:
 *   - write_at_all/read_at_all, write_all/read_all (two calls each; the
 *     individual pointer after them), with noncontiguous memory (ints at a
 *     stride of 8 bytes; gaps untouched);
 *   - the split collectives write_at_all_begin/end, read_at_all_begin/end,
 *     write_all_begin/end, read_all_begin/end: the status of end; a second
 *     begin before the end, an end without a begin and the end of another
 *     begin are errors (MPI_ERR_OTHER, which is what io.h promises) that
 *     leave the pending one intact;
 *   - the nonblocking forms iwrite_at/iread_at (three pieces at once,
 *     MPI_Waitall), iwrite/iread (the pointer moves at the call), and the
 *     collective iwrite_at_all/iread_at_all/iwrite_all/iread_all completed
 *     by MPI_Wait and MPI_Test loops; statuses from the completion call;
 *   - collective reads that meet the end of the file (short counts, 0 at
 *     and past the end, on different ranks in one call);
 *   - writes (collective, split, nonblocking) on a read-only file and reads
 *     on a write-only one: MPI_ERR_ACCESS, from the call or from the
 *     MPI_Wait that completes it; the file unchanged.
 */
#include "io_util.h"

static int me, np;
static MPI_File fh;
static char path[256];
static MPI_Datatype ftype;

#define B 16

static int count_of(int r)
{
    return r % 3 == 2 ? 0 : 40 + 23 * r;
}

/* the file offset of int i of rank r's stream */
static long long where(int r, long long i)
{
    return 4 * ((i / B) * B * np + (long long)r * B + i % B);
}

static long long file_len(void)
{
    long long len = 0;
    for (int r = 0; r < np; r++)
        if (count_of(r) > 0 && where(r, count_of(r) - 1) + 4 > len)
            len = where(r, count_of(r) - 1) + 4;
    return len;
}

static void set_view(void)
{
    IO_RC(MPI_File_set_view(fh, 4 * B * me, MPI_INT, ftype, "native", MPI_INFO_NULL));
}

/* every byte of the file against the image of salt */
static void check_file(int salt, const char *what)
{
    IO_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        long long len = file_len();
        unsigned char *img = calloc((size_t)len + 1, 1), *got = calloc((size_t)len + 1, 1);
        for (int r = 0; r < np; r++)
            for (long long i = 0; i < count_of(r); i++)
                for (int b = 0; b < 4; b++)
                    img[where(r, i) + b] = io_byte(io_seed(r, salt), (uint64_t)(4 * i + b));
        long long n = io_posix_read(path, 0, got, (size_t)len + 1);
        MTEST_CHECK(n == len, "%s: the file has %lld bytes, expected %lld", what, n, len);
        io_compare(got, img, (size_t)len, what);
        free(img);
        free(got);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_sync(fh));
}

static MPI_Offset position(void)
{
    MPI_Offset p = -1;
    IO_RC(MPI_File_get_position(fh, &p));
    return p;
}

/* ---- blocking collectives ------------------------------------------------------ */

static void test_blocking(int *buf, int *got)
{
    int c = count_of(me), h = c / 2;
    size_t bytes = 4 * (size_t)c;
    MPI_Status st;

    io_fill(buf, bytes, io_seed(me, 1), 0);
    mtest_status_garbage(&st);
    IO_RC(MPI_File_write_at_all(fh, 0, buf, c, MPI_INT, &st));
    io_check_status(&st, MPI_INT, c, c, "write_at_all");
    check_file(1, "after write_at_all");
    memset(got, 0, bytes);
    mtest_status_garbage(&st);
    IO_RC(MPI_File_read_at_all(fh, 0, got, c, MPI_INT, &st));
    io_check_status(&st, MPI_INT, c, c, "read_at_all");
    io_check_stream(got, bytes, io_seed(me, 1), 0, "read_at_all after write_at_all");

    io_fill(buf, bytes, io_seed(me, 2), 0);
    IO_RC(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    IO_RC(MPI_File_write_all(fh, buf, h, MPI_INT, &st));
    io_check_status(&st, MPI_INT, h, h, "write_all of the first half");
    MTEST_CHECK(position() == h, "pointer at %lld after write_all of %d", (long long)position(), h);
    IO_RC(MPI_File_write_all(fh, buf + h, c - h, MPI_INT, &st));
    io_check_status(&st, MPI_INT, c - h, c - h, "write_all of the second half");
    MTEST_CHECK(position() == c, "pointer at %lld after write_all of %d more", (long long)position(), c - h);
    check_file(2, "after two write_all");
    IO_RC(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    memset(got, 0, bytes);
    IO_RC(MPI_File_read_all(fh, got, c, MPI_INT, &st));
    io_check_status(&st, MPI_INT, c, c, "read_all");
    MTEST_CHECK(position() == c, "pointer at %lld after read_all of %d", (long long)position(), c);
    io_check_stream(got, bytes, io_seed(me, 2), 0, "read_all after write_all");

    /* noncontiguous memory: ints at a stride of 8 bytes */
    MPI_Datatype strided;
    MPI_Type_create_resized(MPI_INT, 0, 8, &strided);
    MPI_Type_commit(&strided);
    int *sbuf = mtest_malloc(8 * (size_t)c + 8), *sgot = mtest_malloc(8 * (size_t)c + 8);
    io_fill(buf, bytes, io_seed(me, 3), 0);
    for (int i = 0; i < c; i++) {
        sbuf[2 * i] = buf[i];
        sbuf[2 * i + 1] = -1;
    }
    IO_RC(MPI_File_write_at_all(fh, 0, sbuf, c, strided, &st));
    io_check_status(&st, strided, c, c, "write_at_all of strided ints");
    check_file(3, "after write_at_all from strided memory");
    for (int i = 0; i < 2 * c; i++)
        sgot[i] = -9;
    IO_RC(MPI_File_read_at_all(fh, 0, sgot, c, strided, &st));
    io_check_status(&st, strided, c, c, "read_at_all into strided ints");
    for (int i = 0; i < c; i++) {
        if (!MTEST_CHECK(sgot[2 * i] == buf[i] && sgot[2 * i + 1] == -9,
                         "read_at_all into strided ints: int %d is %d (gap %d)", i, sgot[2 * i], sgot[2 * i + 1]))
            break;
    }
    MPI_Type_free(&strided);
    free(sbuf);
    free(sgot);
}

/* ---- split collectives --------------------------------------------------------- */

static void test_split(int *buf, int *got)
{
    int c = count_of(me);
    size_t bytes = 4 * (size_t)c;
    MPI_Status st;
    /* MPICH 4.0.2 reports misuse of split collectives as MPI_ERR_IO, and
     * takes the end of another begin for the right one */
    const int mpich = MTEST_MPICH_DEVIATION, cls = mpich ? MPI_ERR_IO : MPI_ERR_OTHER;

    io_fill(buf, bytes, io_seed(me, 4), 0);
    IO_RC(MPI_File_write_at_all_begin(fh, 0, buf, c, MPI_INT));
    io_check_class(MPI_File_read_at_all_begin(fh, 0, got, c, MPI_INT), cls,
                   "read_at_all_begin while write_at_all_begin is pending");
    if (!mpich) {
        io_check_class(MPI_File_read_at_all_end(fh, got, &st), cls,
                       "read_at_all_end while write_at_all_begin is pending");
        io_check_class(MPI_File_write_all_end(fh, buf, &st), cls, "write_all_end while write_at_all_begin is pending");
    }
    mtest_status_garbage(&st);
    IO_RC(MPI_File_write_at_all_end(fh, buf, &st));
    io_check_status(&st, MPI_INT, c, c, "write_at_all_end");
    check_file(4, "after write_at_all_begin/end");
    io_check_class(MPI_File_write_at_all_end(fh, buf, &st), cls, "a second write_at_all_end");
    io_check_class(MPI_File_read_all_end(fh, got, &st), cls, "read_all_end without a begin");
    memset(got, 0, bytes);
    IO_RC(MPI_File_read_at_all_begin(fh, 0, got, c, MPI_INT));
    mtest_status_garbage(&st);
    IO_RC(MPI_File_read_at_all_end(fh, got, &st));
    io_check_status(&st, MPI_INT, c, c, "read_at_all_end");
    io_check_stream(got, bytes, io_seed(me, 4), 0, "read_at_all_begin/end");

    io_fill(buf, bytes, io_seed(me, 5), 0);
    IO_RC(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    IO_RC(MPI_File_write_all_begin(fh, buf, c, MPI_INT));
    mtest_status_garbage(&st);
    IO_RC(MPI_File_write_all_end(fh, buf, &st));
    io_check_status(&st, MPI_INT, c, c, "write_all_end");
    MTEST_CHECK(position() == c, "pointer at %lld after write_all_begin/end of %d", (long long)position(), c);
    check_file(5, "after write_all_begin/end");
    IO_RC(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    memset(got, 0, bytes);
    IO_RC(MPI_File_read_all_begin(fh, got, c, MPI_INT));
    mtest_status_garbage(&st);
    IO_RC(MPI_File_read_all_end(fh, got, &st));
    io_check_status(&st, MPI_INT, c, c, "read_all_end");
    MTEST_CHECK(position() == c, "pointer at %lld after read_all_begin/end of %d", (long long)position(), c);
    io_check_stream(got, bytes, io_seed(me, 5), 0, "read_all_begin/end");
}

/* ---- nonblocking ----------------------------------------------------------------- */

static void wait_by_test(MPI_Request *rq, MPI_Status *st)
{
    int flag = 0;
    for (long spins = 0; !flag; spins++) {
        if (!IO_RC(MPI_Test(rq, &flag, st)))
            return;
        if (spins > 10000000) {
            mtest_fail("MPI_Test never completed an I/O request");
            return;
        }
    }
    MTEST_CHECK(*rq == MPI_REQUEST_NULL, "MPI_Test did not free a completed request");
}

static void test_nonblocking(int *buf, int *got)
{
    int c = count_of(me);
    size_t bytes = 4 * (size_t)c;
    MPI_Status st, sts[3];
    MPI_Request rq[3];

    /* three pieces at once */
    io_fill(buf, bytes, io_seed(me, 6), 0);
    int p1 = c / 3, p2 = 2 * c / 3;
    IO_RC(MPI_File_iwrite_at(fh, 0, buf, p1, MPI_INT, &rq[0]));
    IO_RC(MPI_File_iwrite_at(fh, p2, buf + p2, c - p2, MPI_INT, &rq[2]));
    IO_RC(MPI_File_iwrite_at(fh, p1, buf + p1, p2 - p1, MPI_INT, &rq[1]));
    IO_RC(MPI_Waitall(3, rq, sts));
    io_check_status(&sts[0], MPI_INT, p1, p1, "iwrite_at, first piece");
    io_check_status(&sts[1], MPI_INT, p2 - p1, p2 - p1, "iwrite_at, second piece");
    io_check_status(&sts[2], MPI_INT, c - p2, c - p2, "iwrite_at, third piece");
    check_file(6, "after three iwrite_at");
    memset(got, 0, bytes);
    IO_RC(MPI_File_iread_at(fh, p1, got + p1, c - p1, MPI_INT, &rq[0]));
    IO_RC(MPI_File_iread_at(fh, 0, got, p1, MPI_INT, &rq[1]));
    wait_by_test(&rq[1], &st);
    io_check_status(&st, MPI_INT, p1, p1, "iread_at of the first piece");
    wait_by_test(&rq[0], &st);
    io_check_status(&st, MPI_INT, c - p1, c - p1, "iread_at of the rest");
    io_check_stream(got, bytes, io_seed(me, 6), 0, "iread_at after iwrite_at");

    /* the individual pointer moves at the call */
    io_fill(buf, bytes, io_seed(me, 7), 0);
    IO_RC(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    IO_RC(MPI_File_iwrite(fh, buf, p1, MPI_INT, &rq[0]));
    MTEST_CHECK(position() == p1, "pointer at %lld right after iwrite of %d", (long long)position(), p1);
    IO_RC(MPI_File_iwrite(fh, buf + p1, c - p1, MPI_INT, &rq[1]));
    MTEST_CHECK(position() == c, "pointer at %lld right after iwrite of %d more", (long long)position(), c - p1);
    IO_RC(MPI_Wait(&rq[1], &st));
    io_check_status(&st, MPI_INT, c - p1, c - p1, "second iwrite");
    IO_RC(MPI_Wait(&rq[0], &st));
    io_check_status(&st, MPI_INT, p1, p1, "first iwrite");
    check_file(7, "after two iwrite");
    IO_RC(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    memset(got, 0, bytes);
    IO_RC(MPI_File_iread(fh, got, c, MPI_INT, &rq[0]));
    MTEST_CHECK(position() == c, "pointer at %lld right after iread of %d", (long long)position(), c);
    IO_RC(MPI_Wait(&rq[0], &st));
    io_check_status(&st, MPI_INT, c, c, "iread");
    io_check_stream(got, bytes, io_seed(me, 7), 0, "iread after iwrite");

    /* nonblocking collectives */
    io_fill(buf, bytes, io_seed(me, 8), 0);
    IO_RC(MPI_File_iwrite_at_all(fh, 0, buf, c, MPI_INT, &rq[0]));
    IO_RC(MPI_Wait(&rq[0], &st));
    io_check_status(&st, MPI_INT, c, c, "iwrite_at_all");
    check_file(8, "after iwrite_at_all");
    memset(got, 0, bytes);
    IO_RC(MPI_File_iread_at_all(fh, 0, got, c, MPI_INT, &rq[0]));
    wait_by_test(&rq[0], &st);
    io_check_status(&st, MPI_INT, c, c, "iread_at_all");
    io_check_stream(got, bytes, io_seed(me, 8), 0, "iread_at_all after iwrite_at_all");

    io_fill(buf, bytes, io_seed(me, 9), 0);
    IO_RC(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    IO_RC(MPI_File_iwrite_all(fh, buf, c, MPI_INT, &rq[0]));
    MTEST_CHECK(position() == c, "pointer at %lld right after iwrite_all of %d", (long long)position(), c);
    wait_by_test(&rq[0], &st);
    io_check_status(&st, MPI_INT, c, c, "iwrite_all");
    check_file(9, "after iwrite_all");
    IO_RC(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    memset(got, 0, bytes);
    IO_RC(MPI_File_iread_all(fh, got, c, MPI_INT, &rq[0]));
    IO_RC(MPI_Waitall(1, rq, sts));
    io_check_status(&sts[0], MPI_INT, c, c, "iread_all");
    io_check_stream(got, bytes, io_seed(me, 9), 0, "iread_all after iwrite_all");
}

/* ---- collective reads at the end of the file ------------------------------------- */

static void test_short(void)
{
    IO_RC(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MPI_Offset size;
    IO_RC(MPI_File_get_size(fh, &size));
    MTEST_CHECK(size == file_len(), "get_size gives %lld, expected %lld", (long long)size, file_len());
    MPI_Barrier(MPI_COMM_WORLD);   /* nobody writes below */
    /* MPICH 4.0.2's collective reads over several processes report the whole
     * count even where the file ends */
    if (MTEST_MPICH_DEVIATION && np > 1)
        return;
    unsigned char g[64];
    MPI_Status st;
    /* rank r reads 40 bytes at size - 13 r + 20: past the end for r = 0, 1 */
    MPI_Offset at = size - 13 * me + 20;
    long long want = size - at < 0 ? 0 : size - at > 40 ? 40 : size - at;
    mtest_status_garbage(&st);
    IO_RC(MPI_File_read_at_all(fh, at, g, 40, MPI_BYTE, &st));
    io_check_status(&st, MPI_BYTE, (int)want, (int)want, "read_at_all of 40 bytes near the end");
    /* through the pointer: each rank reads from size - 5 r */
    IO_RC(MPI_File_seek(fh, size - 5 * me, MPI_SEEK_SET));
    mtest_status_garbage(&st);
    IO_RC(MPI_File_read_all(fh, g, 64, MPI_BYTE, &st));
    io_check_status(&st, MPI_BYTE, 5 * me > 64 ? 64 : 5 * me, MTEST_DONTCARE, "read_all of 64 bytes near the end");
    MTEST_CHECK(position() == size - 5 * me + (5 * me > 64 ? 64 : 5 * me),
                "pointer at %lld after a short read_all from %lld", (long long)position(), (long long)(size - 5 * me));
}

/* ---- access modes ------------------------------------------------------------------- */

/* a nonblocking call may report the error itself or through its completion */
static void check_nb(int rc, MPI_Request *rq, int cls, const char *what)
{
    if (rc == MPI_SUCCESS) {
        MPI_Status st;
        rc = MPI_Wait(rq, &st);
    }
    io_check_class(rc, cls, "%s (at the call or its MPI_Wait)", what);
}

static void test_access_modes(void)
{
    /* writing through a read-only handle: MPI_ERR_ACCESS (MPICH 4.0.2:
     * MPI_ERR_READ_ONLY) */
    const int ro = MTEST_MPICH_DEVIATION ? MPI_ERR_READ_ONLY : MPI_ERR_ACCESS;
    MPI_File f;
    int x[4] = {0, 1, 2, 3};
    MPI_Status st;
    MPI_Request rq;
    if (IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f))) {
        io_check_class(MPI_File_write_at_all(f, 0, x, 4, MPI_INT, &st), ro, "write_at_all on RDONLY");
        io_check_class(MPI_File_write_all(f, x, 4, MPI_INT, &st), ro, "write_all on RDONLY");
        int rc = MPI_File_write_all_begin(f, x, 4, MPI_INT);
        if (rc == MPI_SUCCESS)
            rc = MPI_File_write_all_end(f, x, &st);
        /* (MPICH 4.0.2: MPI_ERR_IO here) */
        io_check_class(rc, MTEST_MPICH_DEVIATION ? MPI_ERR_IO : ro, "write_all_begin/end on RDONLY");
        check_nb(MPI_File_iwrite_at(f, 0, x, 4, MPI_INT, &rq), &rq, ro, "iwrite_at on RDONLY");
        check_nb(MPI_File_iwrite_at_all(f, 0, x, 4, MPI_INT, &rq), &rq, ro, "iwrite_at_all on RDONLY");
        IO_RC(MPI_File_close(&f));
    }
    if (IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &f))) {
        io_check_class(MPI_File_read_at_all(f, 0, x, 4, MPI_INT, &st), MPI_ERR_ACCESS, "read_at_all on WRONLY");
        int rc = MPI_File_read_at_all_begin(f, 0, x, 4, MPI_INT);
        if (rc == MPI_SUCCESS)
            rc = MPI_File_read_at_all_end(f, x, &st);
        io_check_class(rc, MPI_ERR_ACCESS, "read_at_all_begin/end on WRONLY");
        check_nb(MPI_File_iread(f, x, 4, MPI_INT, &rq), &rq, MPI_ERR_ACCESS, "iread on WRONLY");
        check_nb(MPI_File_iread_all(f, x, 4, MPI_INT, &rq), &rq, MPI_ERR_ACCESS, "iread_all on WRONLY");
        IO_RC(MPI_File_close(&f));
    }
    /* nothing written */
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        MTEST_CHECK(io_posix_size(path) == file_len(), "the file changed size to %lld after refused writes",
                    io_posix_size(path));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype v;
    MPI_Type_vector(1, B, B * np, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 4 * B * np, &ftype);
    MPI_Type_free(&v);
    MPI_Type_commit(&ftype);
    io_name(path, sizeof path, "coll", MPI_COMM_WORLD);
    if (IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh))) {
        set_view();
        int c = count_of(me);
        int *buf = mtest_malloc(4 * (size_t)c + 4), *got = mtest_malloc(4 * (size_t)c + 4);
        test_blocking(buf, got);
        test_split(buf, got);
        test_nonblocking(buf, got);
        test_short();
        free(buf);
        free(got);
        IO_RC(MPI_File_close(&fh));
        test_access_modes();
    }
    MPI_Type_free(&ftype);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        io_unlink(path);
    return mtest_finalize();
}
