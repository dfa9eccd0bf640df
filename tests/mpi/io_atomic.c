/*
 * io_atomic: consistency semantics (MPI-4.1 14.6.1).
 * Atomic mode (File_set_atomicity true), rounds of concurrent accesses
 * (argv[1]: rounds, default 12; argv[2]: region bytes, default 64 KiB):
 *   - all ranks write the same region at once, contiguous and through views
 *     of 1000-byte and of 8-byte blocks with gaps: afterwards the region
 *     holds one rank's data of that round entire (a header names the rank,
 *     every other byte must match it), the gaps untouched;
 *   - rank r writes [r H, r H + 2 H) (each half overlaps a neighbour's):
 *     every overlapped half is one neighbour's entire;
 *   - rank 0 writes versions 1, 2, ... of a region through the view of
 *     8-byte blocks while the others read it: every read sees one version
 *     entire;
 *   - a write followed by a barrier is seen by the neighbour's read without
 *     sync.
 * Non-atomic mode: a write, File_sync, barrier, File_sync, then the
 * neighbour reads it through a noncontiguous view.
 */
#include "io_util.h"

static int me, np, rounds = 12;
static size_t S = 65536;

struct hdr {
    int32_t rank, round;
};

static void fill_region(unsigned char *buf, size_t n, int rank, int round, int salt)
{
    io_fill(buf, n, io_seed(rank, salt * 10000 + round), 0);
    struct hdr h = {rank, round};
    memcpy(buf, &h, sizeof h);
}

/* 1 if buf is (rank, round)'s region of salt entire */
static int is_region(const unsigned char *buf, size_t n, int rank, int round, int salt)
{
    struct hdr h;
    memcpy(&h, buf, sizeof h);
    if (h.rank != rank || h.round != round)
        return 0;
    uint64_t seed = io_seed(rank, salt * 10000 + round);
    for (size_t i = sizeof h; i < n; i++)
        if (buf[i] != io_byte(seed, i))
            return 0;
    return 1;
}

static void describe(const unsigned char *buf, size_t n, int round, int salt, const char *what)
{
    struct hdr h;
    memcpy(&h, buf, sizeof h);
    size_t bad = 0;
    if (h.rank >= 0 && h.rank < np) {
        uint64_t seed = io_seed(h.rank, salt * 10000 + round);
        for (size_t i = sizeof h; i < n; i++)
            bad += buf[i] != io_byte(seed, i);
    }
    mtest_fail("%s, round %d: the region is not one rank's entire (header rank %d round %d; %zu of %zu bytes "
               "differ from that rank's)", what, round, h.rank, h.round, bad, n);
}

/* ---- all ranks write one region ------------------------------------------------------ */

/* A view of blocks of blk bytes every stride bytes (blk = 0: none); the
 * bytes between the blocks hold 0xEE, written before (bytes never written
 * at all would be undefined), never to be touched. Returns the file's
 * length through the view for S bytes of data. */
static size_t gapped_view(MPI_File fh, size_t blk, size_t stride, MPI_Datatype *ft)
{
    if (blk == 0)
        return S;
    size_t flen = (S - 1) / blk * stride + (S - 1) % blk + 1;
    if (me == 0) {
        unsigned char *ee = mtest_malloc(flen);
        memset(ee, 0xEE, flen);
        IO_RC(MPI_File_write_at(fh, 0, ee, (int)flen, MPI_BYTE, MPI_STATUS_IGNORE));
        free(ee);
    }
    IO_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_sync(fh));
    MPI_Datatype v;
    MPI_Type_contiguous((int)blk, MPI_BYTE, &v);
    MPI_Type_create_resized(v, 0, (MPI_Aint)stride, ft);
    MPI_Type_free(&v);
    MPI_Type_commit(ft);
    IO_RC(MPI_File_set_view(fh, 0, MPI_BYTE, *ft, "native", MPI_INFO_NULL));
    return flen;
}

static void check_gaps(const char *path, size_t blk, size_t stride, size_t flen, const char *what)
{
    if (blk == 0 || me != 0)
        return;
    unsigned char *file = mtest_malloc(flen + 1);
    long long n = io_posix_read(path, 0, file, flen + 1);
    MTEST_CHECK(n == (long long)flen, "%s: the file has %lld bytes, expected %zu", what, n, flen);
    for (size_t i = 0; i < flen; i++)
        if (i % stride >= blk && !MTEST_CHECK(file[i] == 0xEE, "%s: gap byte %zu written", what, i))
            break;
    free(file);
}

/* ---- all ranks write one region ------------------------------------------------------ */

/* kind 0: contiguous; 1: 1000-byte blocks every 1500 bytes; 2: 8-byte
 * blocks every 16 (thousands of pieces: more than one system call) */
static void test_same_region(int kind)
{
    static const char *names[] = {"atomic writes of one region", "atomic writes of one region through a view "
                                  "of 1000-byte blocks", "atomic writes of one region through a view of 8-byte blocks"};
    static const size_t blks[] = {0, 1000, 8}, strides[] = {0, 1500, 16};
    const char *what = names[kind];
    int salt = 1 + kind;
    char path[256];
    io_name(path, sizeof path, "atomic", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh)))
        return;
    IO_RC(MPI_File_set_atomicity(fh, 1));
    MPI_Datatype ft = MPI_DATATYPE_NULL;
    size_t flen = gapped_view(fh, blks[kind], strides[kind], &ft);
    unsigned char *buf = mtest_malloc(S), *got = mtest_malloc(S);
    for (int round = 0; round < rounds; round++) {
        fill_region(buf, S, me, round, salt);
        MPI_Status st;
        IO_RC(MPI_File_write_at(fh, 0, buf, (int)S, MPI_BYTE, &st));
        io_check_status(&st, MPI_BYTE, (int)S, (int)S, what);
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == (round % np)) {
            memset(got, 0, S);
            IO_RC(MPI_File_read_at(fh, 0, got, (int)S, MPI_BYTE, &st));
            io_check_status(&st, MPI_BYTE, (int)S, (int)S, what);
            struct hdr h;
            memcpy(&h, got, sizeof h);
            if (h.rank < 0 || h.rank >= np || !is_region(got, S, h.rank, round, salt))
                describe(got, S, round, salt, what);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    check_gaps(path, blks[kind], strides[kind], flen, what);
    free(buf);
    free(got);
    if (ft != MPI_DATATYPE_NULL)
        MPI_Type_free(&ft);
    IO_RC(MPI_File_close(&fh));
}

/* ---- overlapping neighbours ------------------------------------------------------------ */

static void test_overlap(void)
{
    const char *what = "atomic writes overlapping a neighbour's by half";
    size_t H = S / 2;
    char path[256];
    io_name(path, sizeof path, "overlap", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh)))
        return;
    IO_RC(MPI_File_set_atomicity(fh, 1));
    unsigned char *buf = mtest_malloc(2 * H), *file = mtest_malloc((size_t)(np + 1) * H);
    for (int round = 0; round < rounds; round++) {
        uint64_t seed = io_seed(me, 30000 + round);
        io_fill(buf, 2 * H, seed, 0);
        IO_RC(MPI_File_write_at(fh, (MPI_Offset)(me * H), buf, (int)(2 * H), MPI_BYTE, MPI_STATUS_IGNORE));
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 0) {
            memset(file, 0, (size_t)(np + 1) * H);
            IO_RC(MPI_File_read_at(fh, 0, file, (int)((size_t)(np + 1) * H), MPI_BYTE, MPI_STATUS_IGNORE));
            /* zone z = [z H, (z + 1) H): written by ranks z - 1 (its second half) and z (its first) */
            for (int z = 0; z <= np; z++) {
                const unsigned char *p = file + (size_t)z * H;
                int ok = 0;
                for (int r = z - 1; r <= z && !ok; r++) {
                    if (r < 0 || r >= np)
                        continue;
                    uint64_t s = io_seed(r, 30000 + round);
                    size_t first = (size_t)(z - r) * H, i;
                    for (i = 0; i < H && p[i] == io_byte(s, first + i); i++)
                        ;
                    ok = i == H;
                }
                if (!MTEST_CHECK(ok, "%s, round %d: bytes [%zu, %zu) are not one writer's entire", what, round,
                                 (size_t)z * H, (size_t)(z + 1) * H))
                    break;
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
    free(file);
    IO_RC(MPI_File_close(&fh));
}

/* ---- one writer, many readers ---------------------------------------------------------- */

static void test_readers(void)
{
    const char *what = "atomic reads during writes";
    char path[256];
    io_name(path, sizeof path, "readers", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh)))
        return;
    IO_RC(MPI_File_set_atomicity(fh, 1));
    MPI_Datatype ft = MPI_DATATYPE_NULL;
    size_t flen = gapped_view(fh, 8, 16, &ft);
    unsigned char *buf = mtest_malloc(S);
    if (me == 0) {
        fill_region(buf, S, 0, 0, 4);
        IO_RC(MPI_File_write_at(fh, 0, buf, (int)S, MPI_BYTE, MPI_STATUS_IGNORE));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int versions = 4 * rounds;
    for (int k = 1; k <= versions; k++) {
        if (me == 0) {
            fill_region(buf, S, 0, k, 4);
            IO_RC(MPI_File_write_at(fh, 0, buf, (int)S, MPI_BYTE, MPI_STATUS_IGNORE));
        } else {
            memset(buf, 0, S);
            IO_RC(MPI_File_read_at(fh, 0, buf, (int)S, MPI_BYTE, MPI_STATUS_IGNORE));
            struct hdr h;
            memcpy(&h, buf, sizeof h);
            if (!(h.rank == 0 && h.round >= 0 && h.round <= versions && is_region(buf, S, 0, h.round, 4))) {
                describe(buf, S, h.round, 4, what);
                break;
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    check_gaps(path, 8, 16, flen, what);
    MPI_Type_free(&ft);
    free(buf);
    IO_RC(MPI_File_close(&fh));
}

/* ---- visibility ---------------------------------------------------------------------- */

static void test_visibility(int atomic)
{
    const char *what = atomic ? "atomic mode: a write before a barrier, read after it"
                              : "sync-barrier-sync: a write, read by the neighbour through a view";
    char path[256];
    io_name(path, sizeof path, "visible", MPI_COMM_WORLD);
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh)))
        return;
    IO_RC(MPI_File_set_atomicity(fh, atomic));
    /* each rank's data: 256-byte blocks, every np-th one */
    MPI_Datatype blk, ft;
    MPI_Type_contiguous(256, MPI_BYTE, &blk);
    MPI_Type_create_resized(blk, 0, 256 * np, &ft);
    MPI_Type_free(&blk);
    MPI_Type_commit(&ft);
    size_t n = 16 * 256 + 100;
    unsigned char *buf = mtest_malloc(n), *got = mtest_malloc(n);
    int left = (me + np - 1) % np;
    for (int round = 0; round < 3; round++) {
        IO_RC(MPI_File_set_view(fh, 256 * me, MPI_BYTE, ft, "native", MPI_INFO_NULL));
        io_fill(buf, n, io_seed(me, 40000 + 10 * atomic + round), 0);
        IO_RC(MPI_File_write_at(fh, 0, buf, (int)n, MPI_BYTE, MPI_STATUS_IGNORE));
        if (!atomic)
            IO_RC(MPI_File_sync(fh));
        MPI_Barrier(MPI_COMM_WORLD);
        if (!atomic)
            IO_RC(MPI_File_sync(fh));
        IO_RC(MPI_File_set_view(fh, 256 * left, MPI_BYTE, ft, "native", MPI_INFO_NULL));
        memset(got, 0, n);
        MPI_Status st;
        IO_RC(MPI_File_read_at(fh, 0, got, (int)n, MPI_BYTE, &st));
        io_check_status(&st, MPI_BYTE, (int)n, (int)n, what);
        io_check_stream(got, n, io_seed(left, 40000 + 10 * atomic + round), 0, what);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Type_free(&ft);
    free(buf);
    free(got);
    IO_RC(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (argc > 1 && atoi(argv[1]) > 0)
        rounds = atoi(argv[1]);
    if (argc > 2 && mtest_parse_size(argv[2]) >= 64)
        S = mtest_parse_size(argv[2]) & ~(size_t)1;
    for (int kind = 0; kind < 3; kind++)
        test_same_region(kind);
    test_overlap();
    test_readers();
    test_visibility(1);
    test_visibility(0);
    return mtest_finalize();
}
