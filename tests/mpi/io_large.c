/*
 * io_large: the large-count (_c) forms of MPI-IO (MPI-4.1 14.4, with
 * MPI_Count counts and extents).
 * At ordinary sizes, every _c data access call: write/read at explicit
 * offsets, through the individual pointer, their collective, split
 * collective and nonblocking forms, the shared pointer (write_shared_c,
 * read_shared_c, iwrite_shared_c, iread_shared_c) and ordered ones
 * (write/read_ordered_c, _ordered_begin_c) - each writes fresh data to the
 * rank's region, reads it back through its read counterpart and checks
 * MPI_Get_count_c/MPI_Get_elements_c; the file is checked by POSIX at the
 * end. File_get_type_extent_c; a negative MPI_Count -> MPI_ERR_COUNT.
 * Argument "big" (label bigmem; about 2 GiB of memory and 2 GiB of disk in
 * $TMPDIR): rank 0 writes 2^31 + 5 bytes with one write_at_c at offset 3
 * and reads them back with read_at_all_c, while rank 1 (if any) reads the
 * last 50 bytes (across 2^31); everybody a short read across the end;
 * statuses with counts above INT_MAX (MPI_Get_count: MPI_UNDEFINED).
 */
#include "io_util.h"

static int me, np;
static MPI_File fh;
static char path[256];

#define N 300            /* bytes per access */
#define REGION 4096

static void st_check(const MPI_Status *st, MPI_Count want, const char *what)
{
    MPI_Count c = -77, e = -77;
    MPI_Get_count_c(st, MPI_BYTE, &c);
    MPI_Get_elements_c(st, MPI_BYTE, &e);
    MTEST_CHECK(c == want && e == want, "%s: Get_count_c %lld, Get_elements_c %lld, expected %lld", what,
                (long long)c, (long long)e, (long long)want);
}

static unsigned char wbuf[N], rbuf[N];
static int salt;

/* fresh data for the next write */
static void next(void)
{
    io_fill(wbuf, N, io_seed(me, ++salt), 0);
    memset(rbuf, 0, N);
}

static void verify(const char *what)
{
    io_check_stream(rbuf, N, io_seed(me, salt), 0, what);
}

static void test_individual(void)
{
    MPI_Offset base = (MPI_Offset)REGION * me;
    MPI_Count n = N;
    MPI_Status st;
    MPI_Request rq;

    next();
    IO_RC(MPI_File_write_at_c(fh, base, wbuf, n, MPI_BYTE, &st));
    st_check(&st, n, "write_at_c");
    IO_RC(MPI_File_read_at_c(fh, base, rbuf, n, MPI_BYTE, &st));
    st_check(&st, n, "read_at_c");
    verify("read_at_c");

    next();
    IO_RC(MPI_File_seek(fh, base, MPI_SEEK_SET));
    IO_RC(MPI_File_write_c(fh, wbuf, n, MPI_BYTE, &st));
    st_check(&st, n, "write_c");
    IO_RC(MPI_File_seek(fh, base, MPI_SEEK_SET));
    IO_RC(MPI_File_read_c(fh, rbuf, n, MPI_BYTE, &st));
    st_check(&st, n, "read_c");
    verify("read_c");

    next();
    IO_RC(MPI_File_iwrite_at_c(fh, base, wbuf, n, MPI_BYTE, &rq));
    IO_RC(MPI_Wait(&rq, &st));
    st_check(&st, n, "iwrite_at_c");
    IO_RC(MPI_File_iread_at_c(fh, base, rbuf, n, MPI_BYTE, &rq));
    IO_RC(MPI_Wait(&rq, &st));
    st_check(&st, n, "iread_at_c");
    verify("iread_at_c");

    next();
    IO_RC(MPI_File_seek(fh, base, MPI_SEEK_SET));
    IO_RC(MPI_File_iwrite_c(fh, wbuf, n, MPI_BYTE, &rq));
    IO_RC(MPI_Wait(&rq, &st));
    st_check(&st, n, "iwrite_c");
    IO_RC(MPI_File_seek(fh, base, MPI_SEEK_SET));
    IO_RC(MPI_File_iread_c(fh, rbuf, n, MPI_BYTE, &rq));
    IO_RC(MPI_Wait(&rq, &st));
    st_check(&st, n, "iread_c");
    verify("iread_c");
}

static void test_collective(void)
{
    MPI_Offset base = (MPI_Offset)REGION * me;
    MPI_Count n = N;
    MPI_Status st;
    MPI_Request rq;

    next();
    IO_RC(MPI_File_write_at_all_c(fh, base, wbuf, n, MPI_BYTE, &st));
    st_check(&st, n, "write_at_all_c");
    IO_RC(MPI_File_read_at_all_c(fh, base, rbuf, n, MPI_BYTE, &st));
    st_check(&st, n, "read_at_all_c");
    verify("read_at_all_c");

    next();
    IO_RC(MPI_File_seek(fh, base, MPI_SEEK_SET));
    IO_RC(MPI_File_write_all_c(fh, wbuf, n, MPI_BYTE, &st));
    st_check(&st, n, "write_all_c");
    IO_RC(MPI_File_seek(fh, base, MPI_SEEK_SET));
    IO_RC(MPI_File_read_all_c(fh, rbuf, n, MPI_BYTE, &st));
    st_check(&st, n, "read_all_c");
    verify("read_all_c");

    next();
    IO_RC(MPI_File_write_at_all_begin_c(fh, base, wbuf, n, MPI_BYTE));
    IO_RC(MPI_File_write_at_all_end(fh, wbuf, &st));
    st_check(&st, n, "write_at_all_begin_c/end");
    IO_RC(MPI_File_read_at_all_begin_c(fh, base, rbuf, n, MPI_BYTE));
    IO_RC(MPI_File_read_at_all_end(fh, rbuf, &st));
    st_check(&st, n, "read_at_all_begin_c/end");
    verify("read_at_all_begin_c/end");

    next();
    IO_RC(MPI_File_seek(fh, base, MPI_SEEK_SET));
    IO_RC(MPI_File_write_all_begin_c(fh, wbuf, n, MPI_BYTE));
    IO_RC(MPI_File_write_all_end(fh, wbuf, &st));
    st_check(&st, n, "write_all_begin_c/end");
    IO_RC(MPI_File_seek(fh, base, MPI_SEEK_SET));
    IO_RC(MPI_File_read_all_begin_c(fh, rbuf, n, MPI_BYTE));
    IO_RC(MPI_File_read_all_end(fh, rbuf, &st));
    st_check(&st, n, "read_all_begin_c/end");
    verify("read_all_begin_c/end");

    next();
    IO_RC(MPI_File_iwrite_at_all_c(fh, base, wbuf, n, MPI_BYTE, &rq));
    IO_RC(MPI_Wait(&rq, &st));
    st_check(&st, n, "iwrite_at_all_c");
    IO_RC(MPI_File_iread_at_all_c(fh, base, rbuf, n, MPI_BYTE, &rq));
    IO_RC(MPI_Wait(&rq, &st));
    st_check(&st, n, "iread_at_all_c");
    verify("iread_at_all_c");

    next();
    IO_RC(MPI_File_seek(fh, base, MPI_SEEK_SET));
    IO_RC(MPI_File_iwrite_all_c(fh, wbuf, n, MPI_BYTE, &rq));
    IO_RC(MPI_Wait(&rq, &st));
    st_check(&st, n, "iwrite_all_c");
    IO_RC(MPI_File_seek(fh, base, MPI_SEEK_SET));
    IO_RC(MPI_File_iread_all_c(fh, rbuf, n, MPI_BYTE, &rq));
    IO_RC(MPI_Wait(&rq, &st));
    st_check(&st, n, "iread_all_c");
    verify("iread_all_c");

    /* the regions by POSIX: each holds its rank's last data */
    IO_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        for (int r = 0; r < np; r++) {
            unsigned char g[N];
            io_posix_read(path, (long long)REGION * r, g, N);
            io_check_stream(g, N, io_seed(r, salt), 0, "a rank's region by POSIX after the _c calls");
        }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* records of N bytes through the shared pointer: one per rank per call */
static void test_shared(void)
{
    char spath[256];
    io_name(spath, sizeof spath, "large_shared", MPI_COMM_WORLD);
    MPI_File sf;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, spath, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &sf)))
        return;
    MPI_Count n = N;
    MPI_Status st;
    MPI_Request rq;
    MPI_Offset p;

    /* ordered: rank r's record at r N */
    next();
    IO_RC(MPI_File_write_ordered_c(sf, wbuf, n, MPI_BYTE, &st));
    st_check(&st, n, "write_ordered_c");
    IO_RC(MPI_File_seek_shared(sf, 0, MPI_SEEK_SET));
    IO_RC(MPI_File_read_ordered_c(sf, rbuf, n, MPI_BYTE, &st));
    st_check(&st, n, "read_ordered_c");
    verify("read_ordered_c");
    IO_RC(MPI_File_read_at(sf, (MPI_Offset)N * me, rbuf, N, MPI_BYTE, &st));
    verify("the record of write_ordered_c at N x rank");

    next();
    IO_RC(MPI_File_seek_shared(sf, 0, MPI_SEEK_SET));
    IO_RC(MPI_File_write_ordered_begin_c(sf, wbuf, n, MPI_BYTE));
    IO_RC(MPI_File_write_ordered_end(sf, wbuf, &st));
    st_check(&st, n, "write_ordered_begin_c/end");
    IO_RC(MPI_File_seek_shared(sf, 0, MPI_SEEK_SET));
    IO_RC(MPI_File_read_ordered_begin_c(sf, rbuf, n, MPI_BYTE));
    IO_RC(MPI_File_read_ordered_end(sf, rbuf, &st));
    st_check(&st, n, "read_ordered_begin_c/end");
    verify("read_ordered_begin_c/end");

    /* unordered: each record somewhere in [0, np N); found again by its header */
    for (int nb = 0; nb < 2; nb++) {
        const char *w = nb ? "iwrite_shared_c" : "write_shared_c";
        next();
        int32_t tag[2] = {me, salt};
        memcpy(wbuf, tag, sizeof tag);
        IO_RC(MPI_File_seek_shared(sf, 0, MPI_SEEK_SET));
        MPI_Barrier(MPI_COMM_WORLD);
        if (nb) {
            IO_RC(MPI_File_iwrite_shared_c(sf, wbuf, n, MPI_BYTE, &rq));
            IO_RC(MPI_Wait(&rq, &st));
        } else {
            IO_RC(MPI_File_write_shared_c(sf, wbuf, n, MPI_BYTE, &st));
        }
        st_check(&st, n, w);
        IO_RC(MPI_File_sync(sf));
        MPI_Barrier(MPI_COMM_WORLD);
        IO_RC(MPI_File_sync(sf));
        IO_RC(MPI_File_get_position_shared(sf, &p));
        MTEST_CHECK(p == (MPI_Offset)N * np, "%s: the shared pointer at %lld, expected %lld", w, (long long)p,
                    (long long)N * np);
        MPI_Barrier(MPI_COMM_WORLD);
        /* read them all back: everybody reads one record, which must be whole */
        IO_RC(MPI_File_seek_shared(sf, 0, MPI_SEEK_SET));
        MPI_Barrier(MPI_COMM_WORLD);
        unsigned char rec[N];
        if (nb) {
            IO_RC(MPI_File_iread_shared_c(sf, rec, n, MPI_BYTE, &rq));
            IO_RC(MPI_Wait(&rq, &st));
        } else {
            IO_RC(MPI_File_read_shared_c(sf, rec, n, MPI_BYTE, &st));
        }
        st_check(&st, n, nb ? "iread_shared_c" : "read_shared_c");
        int32_t t[2];
        memcpy(t, rec, sizeof t);
        if (MTEST_CHECK(t[0] >= 0 && t[0] < np && t[1] == salt, "%s: a record read back has header (%d, %d)", w,
                        t[0], t[1])) {
            unsigned char want[N];
            io_fill(want, N, io_seed(t[0], salt), 0);
            memcpy(want, t, sizeof t);
            io_compare(rec, want, N, "a record read back through the shared pointer");
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    IO_RC(MPI_File_close(&sf));
}

static void test_misc(void)
{
    MPI_Count ext = -1;
    MPI_Datatype v;
    MPI_Type_vector(3, 2, 5, MPI_INT, &v);
    MPI_Type_commit(&v);
    IO_RC(MPI_File_get_type_extent_c(fh, v, &ext));
    MTEST_CHECK(ext == 4 * 12, "get_type_extent_c of vector(3, 2, 5) of ints: %lld", (long long)ext);
    MPI_Type_free(&v);
    MPI_Status st;
    io_check_class(MPI_File_write_at_c(fh, 0, wbuf, -1, MPI_BYTE, &st), MPI_ERR_COUNT, "write_at_c count -1");
    io_check_class(MPI_File_read_c(fh, rbuf, -5, MPI_BYTE, &st), MPI_ERR_COUNT, "read_c count -5");
}

/* ---- more than 2^31 bytes in one access --------------------------------------------- */

static void test_big(void)
{
    const MPI_Count big = ((MPI_Count)1 << 31) + 5;
    const MPI_Offset at = 3;
    char bpath[256];
    io_name(bpath, sizeof bpath, "big", MPI_COMM_WORLD);
    MPI_File bf;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, bpath, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &bf)))
        return;
    uint64_t seed = io_seed(0, 777);
    unsigned char *buf = NULL;
    MPI_Status st;
    if (me == 0) {
        buf = mtest_malloc((size_t)big);
        io_fill(buf, (size_t)big, seed, 0);
        IO_RC(MPI_File_write_at_c(bf, at, buf, big, MPI_BYTE, &st));
        st_check(&st, big, "write_at_c of 2^31 + 5 bytes");
        int ic = 0;
        MPI_Get_count(&st, MPI_BYTE, &ic);
        MTEST_CHECK(ic == MPI_UNDEFINED, "MPI_Get_count of 2^31 + 5 bytes gives %d, expected MPI_UNDEFINED", ic);
        MTEST_CHECK(io_posix_size(bpath) == at + big, "the file has %lld bytes, expected %lld", io_posix_size(bpath),
                    (long long)(at + big));
    }
    IO_RC(MPI_File_sync(bf));
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_sync(bf));
    MPI_Offset size;
    IO_RC(MPI_File_get_size(bf, &size));
    MTEST_CHECK(size == at + big, "get_size gives %lld, expected %lld", (long long)size, (long long)(at + big));
    unsigned char small[100];
    if (me == 0) {
        memset(buf, 0, (size_t)big);
        IO_RC(MPI_File_read_at_all_c(bf, at, buf, big, MPI_BYTE, &st));
        st_check(&st, big, "read_at_all_c of 2^31 + 5 bytes");
        io_check_stream(buf, (size_t)big, seed, 0, "2^31 + 5 bytes read back");
        free(buf);
    } else if (me == 1) {
        /* the last 50 bytes, from 45 below 2^31 (of the data) */
        IO_RC(MPI_File_read_at_all_c(bf, at + ((MPI_Offset)1 << 31) - 45, small, 50, MPI_BYTE, &st));
        st_check(&st, 50, "read_at_all_c of 50 bytes across 2^31");
        io_check_stream(small, 50, seed, ((uint64_t)1 << 31) - 45, "50 bytes across 2^31");
    } else {
        IO_RC(MPI_File_read_at_all_c(bf, 0, small, 0, MPI_BYTE, &st));
        st_check(&st, 0, "read_at_all_c of nothing");
    }
    /* a short read across the end */
    IO_RC(MPI_File_read_at_c(bf, size - 40, small, 100, MPI_BYTE, &st));
    st_check(&st, 40, "read_at_c of 100 bytes 40 before the end of a 2 GiB file");
    io_check_stream(small, 40, seed, (uint64_t)(big - 40), "the last 40 bytes");
    IO_RC(MPI_File_close(&bf));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (argc > 1 && strcmp(argv[1], "big") == 0) {
        test_big();
        return mtest_finalize();
    }
    io_name(path, sizeof path, "large", MPI_COMM_WORLD);
    if (IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh))) {
        test_individual();
        test_collective();
        test_shared();
        test_misc();
        IO_RC(MPI_File_close(&fh));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        io_unlink(path);
    return mtest_finalize();
}
