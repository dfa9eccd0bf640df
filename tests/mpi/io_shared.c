/*
 * io_shared: the shared file pointer (MPI-4.1 14.4.4).
 * Records of 16 bytes: {rank, sequence number, 8 bytes hashed from both}.
 *   - write_shared: every rank writes K records (argv[1], default 40) one
 *     at a time, all at once; afterwards the file is exactly nprocs x K
 *     records, each (rank, sequence) present once, at a multiple of 16 (no
 *     record torn or overlapping another), each rank's in its own order;
 *     File_get_position_shared is the end;
 *   - read_shared after a collective seek_shared to 0: the ranks read
 *     records until a read comes back empty; together they read every
 *     record exactly once;
 *   - iwrite_shared/iread_shared the same, completed with Waitall;
 *   - seek_shared SEEK_SET/SEEK_CUR/SEEK_END and get_position_shared, in
 *     etypes under a view of ints; another file's shared pointer unmoved;
 *   - write_ordered/read_ordered and write_ordered_begin/end,
 *     read_ordered_begin/end: rank r writes a different number of records
 *     (0 on ranks r % 3 == 2), the file holds them in rank order, the shared
 *     pointer ends after all, each rank reads its own back;
 *   - MPI_MODE_SEQUENTIAL: write_shared and write_ordered work; explicit
 *     offsets, the individual pointer's calls, seek_shared elsewhere than
 *     the end -> MPI_ERR_UNSUPPORTED_OPERATION; set_view with
 *     MPI_DISPLACEMENT_CURRENT starts the view at the shared pointer; read
 *     back through read_shared on a read-only sequential open.
 */
#include "io_util.h"

static int me, np, K = 40;

struct rec {
    int32_t rank, seq;
    unsigned char pat[8];
};

static void make_rec(struct rec *r, int rank, int seq, int salt)
{
    r->rank = rank;
    r->seq = seq;
    io_fill(r->pat, 8, io_seed(rank, salt), 8 * (uint64_t)seq);
}

static int rec_ok(const struct rec *r, int salt)
{
    if (r->rank < 0 || r->rank >= np || r->seq < 0)
        return 0;
    for (int i = 0; i < 8; i++)
        if (r->pat[i] != io_byte(io_seed(r->rank, salt), 8 * (uint64_t)r->seq + (uint64_t)i))
            return 0;
    return 1;
}

static MPI_Offset spos(MPI_File fh)
{
    MPI_Offset p = -1;
    IO_RC(MPI_File_get_position_shared(fh, &p));
    return p;
}

/* rank 0: the file holds nrec records of salt, each (rank, seq < per[rank]) once,
 * each rank's in increasing order */
static void check_records(const char *path, const int *per, int salt, const char *what)
{
    long long total = 0;
    for (int r = 0; r < np; r++)
        total += per[r];
    long long size = io_posix_size(path);
    MTEST_CHECK(size == 16 * total, "%s: the file has %lld bytes, expected %lld records of 16", what, size, total);
    struct rec *all = mtest_malloc(16 * (size_t)total + 16);
    long long n = io_posix_read(path, 0, all, 16 * (size_t)total);
    char *seen = calloc((size_t)np * 4096, 1);
    int *last = malloc(sizeof(int) * (size_t)np);
    for (int r = 0; r < np; r++)
        last[r] = -1;
    int bad = 0;
    for (long long i = 0; i < n / 16; i++) {
        const struct rec *x = &all[i];
        if (!rec_ok(x, salt) || x->seq >= per[x->rank] || x->seq >= 4096) {
            if (bad++ < 3)
                mtest_fail("%s: record %lld is no record (rank %d, seq %d)", what, i, x->rank, x->seq);
            continue;
        }
        if (seen[x->rank * 4096 + x->seq]++ && bad++ < 3)
            mtest_fail("%s: record (%d, %d) twice", what, x->rank, x->seq);
        if (x->seq <= last[x->rank] && bad++ < 3)
            mtest_fail("%s: record (%d, %d) after (%d, %d)", what, x->rank, x->seq, x->rank, last[x->rank]);
        last[x->rank] = x->seq;
    }
    for (int r = 0; r < np; r++)
        for (int s = 0; s < per[r] && s < 4096; s++)
            if (!seen[r * 4096 + s] && bad++ < 3)
                mtest_fail("%s: record (%d, %d) is missing", what, r, s);
    free(all);
    free(seen);
    free(last);
}

/* ---- write_shared, read_shared, iwrite_shared, iread_shared ----------------------- */

static void test_shared(int nonblocking)
{
    const char *how = nonblocking ? "iwrite_shared" : "write_shared";
    int salt = nonblocking ? 2 : 1;
    char path[256];
    io_name(path, sizeof path, "shared", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh)))
        return;
    MTEST_CHECK(spos(fh) == 0, "the shared pointer of a new file is at %lld", (long long)spos(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    struct rec *recs = mtest_malloc(sizeof(struct rec) * (size_t)K);
    MPI_Request *rq = mtest_malloc(sizeof(MPI_Request) * (size_t)K);
    MPI_Status *sts = mtest_malloc(sizeof(MPI_Status) * (size_t)K);
    for (int s = 0; s < K; s++) {
        make_rec(&recs[s], me, s, salt);
        if (nonblocking) {
            IO_RC(MPI_File_iwrite_shared(fh, &recs[s], 16, MPI_BYTE, &rq[s]));
        } else {
            MPI_Status st;
            IO_RC(MPI_File_write_shared(fh, &recs[s], 16, MPI_BYTE, &st));
            io_check_status(&st, MPI_BYTE, 16, 16, how);
        }
    }
    if (nonblocking) {
        IO_RC(MPI_Waitall(K, rq, sts));
        for (int s = 0; s < K; s++)
            io_check_status(&sts[s], MPI_BYTE, 16, 16, how);
    }
    IO_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_sync(fh));
    MTEST_CHECK(spos(fh) == 16LL * K * np, "%s: the shared pointer at %lld, expected %lld", how,
                (long long)spos(fh), 16LL * K * np);
    MPI_Barrier(MPI_COMM_WORLD);   /* the seek_shared below may finish early on some rank */
    int *per = mtest_malloc(sizeof(int) * (size_t)np);
    for (int r = 0; r < np; r++)
        per[r] = K;
    if (me == 0)
        check_records(path, per, salt, how);

    /* read them all back, shared among the ranks */
    IO_RC(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    MTEST_CHECK(spos(fh) == 0, "seek_shared(0, SEEK_SET): at %lld", (long long)spos(fh));
    MPI_Barrier(MPI_COMM_WORLD);   /* nobody reads before all have seen 0 */
    int cap = K * np, got = 0;
    struct rec *mine = mtest_malloc(sizeof(struct rec) * (size_t)cap);
    for (;;) {
        MPI_Status st;
        int c = -1;
        if (nonblocking) {
            MPI_Request r;
            IO_RC(MPI_File_iread_shared(fh, &mine[got], 16, MPI_BYTE, &r));
            IO_RC(MPI_Wait(&r, &st));
        } else {
            IO_RC(MPI_File_read_shared(fh, &mine[got], 16, MPI_BYTE, &st));
        }
        MPI_Get_count(&st, MPI_BYTE, &c);
        if (c == 0)
            break;
        if (!MTEST_CHECK(c == 16, "%s: a read of a record gave %d bytes", how, c))
            break;
        if (!MTEST_CHECK(rec_ok(&mine[got], salt), "%s: a record read back is no record", how))
            break;
        if (++got == cap)
            break;
    }
    /* together: every record once */
    int *counts = mtest_malloc(sizeof(int) * (size_t)np), *displs = mtest_malloc(sizeof(int) * (size_t)np);
    int gotb = 16 * got;
    MPI_Gather(&gotb, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    struct rec *all = me == 0 ? mtest_malloc(16 * (size_t)cap + 16) : NULL;
    int total = 0;
    if (me == 0)
        for (int r = 0; r < np; r++) {
            displs[r] = total;
            total += counts[r];
        }
    MPI_Gatherv(mine, gotb, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (me == 0) {
        MTEST_CHECK(total == 16 * cap, "%s: the ranks read %d records together, expected %d", how, total / 16, cap);
        char *seen = calloc((size_t)cap, 1);
        for (int i = 0; i < total / 16; i++) {
            int k = all[i].rank * K + all[i].seq;
            if (all[i].seq < K && k < cap && !seen[k]++)
                continue;
            mtest_fail("%s: record (%d, %d) read twice or unknown", how, all[i].rank, all[i].seq);
            break;
        }
        free(seen);
        free(all);
    }
    free(counts);
    free(displs);
    free(mine);
    free(per);
    free(recs);
    free(rq);
    free(sts);
    IO_RC(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        io_unlink(path);
}

/* ---- seek_shared ------------------------------------------------------------------ */

static void test_seek(void)
{
    char path[256];
    io_name(path, sizeof path, "seek", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh)))
        return;
    /* a second file open meanwhile keeps its own shared pointer */
    char path2[256];
    io_name(path2, sizeof path2, "seek2", MPI_COMM_WORLD);
    MPI_File f2;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path2, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &f2)))
        f2 = MPI_FILE_NULL;
    IO_RC(MPI_File_set_view(fh, 8, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    /* (get_position_shared is no collective: a barrier after each look
     * keeps the next seek from overtaking it) */
    IO_RC(MPI_File_seek_shared(fh, 100, MPI_SEEK_SET));
    MTEST_CHECK(spos(fh) == 100, "seek_shared(100, SEEK_SET): at %lld", (long long)spos(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_seek_shared(fh, -10, MPI_SEEK_CUR));
    MTEST_CHECK(spos(fh) == 90, "seek_shared(-10, SEEK_CUR) from 100: at %lld", (long long)spos(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    /* 3 ints from every rank: the pointer moves by 3 etypes each */
    int v[3] = {me, me, me};
    IO_RC(MPI_File_write_shared(fh, v, 3, MPI_INT, MPI_STATUS_IGNORE));
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_CHECK(spos(fh) == 90 + 3 * np, "after 3 ints from each rank: at %lld, expected %d", (long long)spos(fh),
                90 + 3 * np);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Offset size;
    IO_RC(MPI_File_get_size(fh, &size));
    MTEST_CHECK(size == 8 + 4 * (90 + 3 * np), "the file has %lld bytes, expected %d", (long long)size,
                8 + 4 * (90 + 3 * np));
    IO_RC(MPI_File_seek_shared(fh, -5, MPI_SEEK_END));
    MTEST_CHECK(spos(fh) == 90 + 3 * np - 5, "seek_shared(-5, SEEK_END): at %lld, expected %d",
                (long long)spos(fh), 90 + 3 * np - 5);
    /* the shared pointer and the individual one are separate */
    MPI_Offset ip = -1;
    IO_RC(MPI_File_get_position(fh, &ip));
    MTEST_CHECK(ip == 0, "the individual pointer moved to %lld with the shared one", (long long)ip);
    if (!MTEST_MPICH_DEVIATION) /* MPICH 4.0.2 fails on rank 0 only and hangs */
        io_check_class(MPI_File_seek_shared(fh, -1, MPI_SEEK_SET), MPI_ERR_ARG, "seek_shared to -1");
    if (f2 != MPI_FILE_NULL) {
        MTEST_CHECK(spos(f2) == 0, "another file's shared pointer moved to %lld", (long long)spos(f2));
        IO_RC(MPI_File_close(&f2));
    }
    IO_RC(MPI_File_close(&fh));
}

/* ---- ordered ---------------------------------------------------------------------- */

static int nrec_of(int r)
{
    return r % 3 == 2 ? 0 : 1 + (r * 7) % 5;
}

static void test_ordered(int split)
{
    const char *how = split ? "write_ordered_begin/end" : "write_ordered";
    int salt = split ? 4 : 3;
    char path[256];
    io_name(path, sizeof path, "ordered", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh)))
        return;
    /* etype: a record */
    MPI_Datatype rt;
    MPI_Type_contiguous(16, MPI_BYTE, &rt);
    MPI_Type_commit(&rt);
    IO_RC(MPI_File_set_view(fh, 0, rt, rt, "native", MPI_INFO_NULL));
    int n = nrec_of(me), before = 0, total = 0;
    for (int r = 0; r < np; r++) {
        if (r < me)
            before += nrec_of(r);
        total += nrec_of(r);
    }
    struct rec recs[8], back[8];
    for (int s = 0; s < n; s++)
        make_rec(&recs[s], me, s, salt);
    MPI_Status st;
    mtest_status_garbage(&st);
    if (split) {
        IO_RC(MPI_File_write_ordered_begin(fh, recs, n, rt));
        IO_RC(MPI_File_write_ordered_end(fh, recs, &st));
    } else {
        IO_RC(MPI_File_write_ordered(fh, recs, n, rt, &st));
    }
    io_check_status(&st, rt, n, 16 * n, how);
    MTEST_CHECK(spos(fh) == total, "%s: the shared pointer at %lld, expected %d", how, (long long)spos(fh), total);
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_sync(fh));
    if (me == 0) {
        struct rec *all = mtest_malloc(16 * (size_t)total + 16);
        long long got = io_posix_read(path, 0, all, 16 * (size_t)total + 16);
        MTEST_CHECK(got == 16LL * total, "%s: the file has %lld bytes, expected %d", how, got, 16 * total);
        int i = 0;
        for (int r = 0; r < np; r++)
            for (int s = 0; s < nrec_of(r); s++, i++)
                if (!MTEST_CHECK(all[i].rank == r && all[i].seq == s && rec_ok(&all[i], salt),
                                 "%s: record %d is (%d, %d), expected (%d, %d) in rank order", how, i, all[i].rank,
                                 all[i].seq, r, s))
                    r = np;
        free(all);
    }
    /* everybody reads its own back in order */
    IO_RC(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    memset(back, 0, sizeof back);
    mtest_status_garbage(&st);
    if (split) {
        IO_RC(MPI_File_read_ordered_begin(fh, back, n, rt));
        IO_RC(MPI_File_read_ordered_end(fh, back, &st));
    } else {
        IO_RC(MPI_File_read_ordered(fh, back, n, rt, &st));
    }
    io_check_status(&st, rt, n, 16 * n, split ? "read_ordered_begin/end" : "read_ordered");
    MTEST_CHECK(memcmp(back, recs, 16 * (size_t)n) == 0, "%s: a rank's records read back in order differ (%d before)",
                split ? "read_ordered_begin/end" : "read_ordered", before);
    MTEST_CHECK(spos(fh) == total, "after read_ordered: the shared pointer at %lld, expected %d", (long long)spos(fh),
                total);
    MPI_Barrier(MPI_COMM_WORLD);
    /* past the end: everybody's count 0 */
    mtest_status_garbage(&st);
    IO_RC(MPI_File_read_ordered(fh, back, n, rt, &st));
    io_check_status(&st, rt, 0, 0, "read_ordered at the end");
    MPI_Type_free(&rt);
    IO_RC(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        io_unlink(path);
}

/* ---- MPI_MODE_SEQUENTIAL ------------------------------------------------------------ */

static void test_sequential(void)
{
    char path[256];
    io_name(path, sizeof path, "seq", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL,
                             MPI_INFO_NULL, &fh)))
        return;
    struct rec r;
    make_rec(&r, me, 0, 5);
    MPI_Status st;
    IO_RC(MPI_File_write_shared(fh, &r, 16, MPI_BYTE, &st));
    io_check_status(&st, MPI_BYTE, 16, 16, "write_shared on a sequential file");
    const int U = MPI_ERR_UNSUPPORTED_OPERATION;
    io_check_class(MPI_File_write_at(fh, 0, &r, 16, MPI_BYTE, &st), U, "write_at on a sequential file");
    io_check_class(MPI_File_write(fh, &r, 16, MPI_BYTE, &st), U, "write on a sequential file");
    MPI_Request rq;
    io_check_class(MPI_File_iwrite_at(fh, 0, &r, 16, MPI_BYTE, &rq), U, "iwrite_at on a sequential file");
    io_check_class(MPI_File_seek(fh, 0, MPI_SEEK_SET), U, "seek on a sequential file");
    MPI_Offset p;
    if (!MTEST_MPICH_DEVIATION) /* MPICH 4.0.2 answers */
        io_check_class(MPI_File_get_position(fh, &p), U, "get_position on a sequential file");
    io_check_class(MPI_File_write_at_all(fh, 0, &r, 16, MPI_BYTE, &st), U, "write_at_all on a sequential file");
    if (!MTEST_MPICH_DEVIATION) /* MPICH 4.0.2 seeks */
        io_check_class(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET), U, "seek_shared to 0 on a sequential file");
    MPI_Barrier(MPI_COMM_WORLD);
    /* a view from the current position: the records so far are before it */
    /* MPICH 4.0.2 refuses get_position_shared on a sequential file */
    MPI_Offset cur = MTEST_MPICH_DEVIATION ? 16 * np : spos(fh);
    MTEST_CHECK(cur == 16 * np, "sequential: the shared pointer at %lld, expected %d", (long long)cur, 16 * np);
    IO_RC(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MPI_Offset disp = -1;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING + 1];
    IO_RC(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    MTEST_CHECK(disp == 16 * np, "set_view(MPI_DISPLACEMENT_CURRENT): displacement %lld, expected %d",
                (long long)disp, 16 * np);
    make_rec(&r, me, 1, 5);
    IO_RC(MPI_File_write_ordered(fh, &r, 16, MPI_BYTE, &st));
    io_check_status(&st, MPI_BYTE, 16, 16, "write_ordered on a sequential file");
    IO_RC(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        int *per = mtest_malloc(sizeof(int) * (size_t)np);
        for (int q = 0; q < np; q++)
            per[q] = 2;
        check_records(path, per, 5, "sequential file");
        /* the second half in rank order */
        struct rec x;
        for (int q = 0; q < np; q++) {
            io_posix_read(path, 16 * (np + q), &x, 16);
            MTEST_CHECK(x.rank == q && x.seq == 1, "sequential: write_ordered record %d is (%d, %d)", q, x.rank,
                        x.seq);
        }
        free(per);
    }
    /* read back sequentially */
    if (IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh))) {
        struct rec two[2];
        IO_RC(MPI_File_read_ordered(fh, two, 32, MPI_BYTE, &st));
        io_check_status(&st, MPI_BYTE, 32, 32, "read_ordered on a sequential file");
        /* rank q gets records 2q and 2q + 1 of the file */
        struct rec want[2];
        io_posix_read(path, 32 * me, want, 32);
        MTEST_CHECK(memcmp(two, want, 32) == 0 && rec_ok(&two[0], 5) && rec_ok(&two[1], 5),
                    "sequential read_ordered: rank %d got (%d, %d), (%d, %d); the file has (%d, %d), (%d, %d) there",
                    me, two[0].rank, two[0].seq, two[1].rank, two[1].seq, want[0].rank, want[0].seq, want[1].rank,
                    want[1].seq);
        io_check_class(MPI_File_read_at(fh, 0, two, 16, MPI_BYTE, &st), U, "read_at on a sequential file");
        io_check_class(MPI_File_read(fh, two, 16, MPI_BYTE, &st), U, "read on a sequential file");
        IO_RC(MPI_File_read_shared(fh, two, 16, MPI_BYTE, &st));
        io_check_status(&st, MPI_BYTE, 0, 0, "read_shared at the end of a sequential file");
        IO_RC(MPI_File_close(&fh));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        io_unlink(path);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (argc > 1)
        K = atoi(argv[1]);
    if (K < 1 || K > 4096)
        K = 40;
    test_shared(0);
    test_shared(1);
    test_seek();
    test_ordered(0);
    test_ordered(1);
    test_sequential();
    return mtest_finalize();
}
