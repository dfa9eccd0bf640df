/*
 * io_engine: the paths of dmpi's MPI-IO data access engine (src/io/access.c,
 * docs/io.md), each with data checked byte for byte:
 *   - direct: a memory type of more pieces than one preadv/pwritev takes
 *     (1024 iovecs), written and read at an explicit offset;
 *   - packed: small memory blocks over more than one 4 MiB staging buffer;
 *   - sieved reads: a view of every nprocs-th int (data sieving), reads
 *     that cross several buffers and end at the end of the file (short count);
 *   - converted: external32 over more than one conversion buffer, the bytes
 *     on disk big-endian, a short read counting whole elements only;
 *   - the shared file pointer: write_shared records from every rank, then
 *     write_ordered: every record once, in rank order for the ordered part;
 *   - atomic mode: one rank rewrites a block with one value at a time while
 *     another reads it: every read sees a single value.
 */
#include "mtest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, np;
static char path[512];

static void make_path(const char *what)
{
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    int tag = 0;
    if (me == 0)
        tag = (int)(MPI_Wtime() * 1000) & 0xffffff;
    MPI_Bcast(&tag, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/io_engine_%s_%d_%d", dir, what, np, tag);
}

static MPI_File open_rw(void)
{
    MPI_File fh = MPI_FILE_NULL;
    MTEST_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh));
    return fh;
}

static int count_of(const MPI_Status *st, MPI_Datatype dt)
{
    int c = -2;
    MPI_Get_count(st, dt, &c);
    return c;
}

static unsigned val(int rank, long i) { return (unsigned)rank * 0x01000193u ^ (unsigned)i * 2654435761u; }

/* more than 1024 pieces of 1 KiB in memory, every other one skipped */
static void test_direct(void)
{
    make_path("direct");
    MPI_File fh = open_rw();
    const int n = 2500, blk = 256;
    MPI_Datatype vec;
    MPI_Type_vector(n, blk, 2 * blk, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    unsigned *m = mtest_malloc((size_t)n * 2 * blk * 4), *back = mtest_malloc((size_t)n * 2 * blk * 4);
    for (long i = 0; i < (long)n * 2 * blk; i++)
        m[i] = val(me, i);
    MPI_Offset at = (MPI_Offset)me * n * blk * 4;
    MPI_Status st;
    MTEST_RC(MPI_File_write_at_all(fh, at, m, 1, vec, &st));
    MTEST_CHECK(count_of(&st, vec) == 1, "direct write: count %d", count_of(&st, vec));
    MTEST_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_RC(MPI_File_sync(fh));
    /* contiguous read of what was written: the blocks back to back */
    MTEST_RC(MPI_File_read_at(fh, at, back, n * blk, MPI_INT, &st));
    MTEST_CHECK(count_of(&st, MPI_INT) == n * blk, "read count %d", count_of(&st, MPI_INT));
    int bad = 0;
    for (long b = 0; b < n && !bad; b++)
        for (long j = 0; j < blk; j++)
            if (back[b * blk + j] != m[2 * b * blk + j])
                bad = 1;
    MTEST_CHECK(!bad, "direct write: wrong data");
    /* and read back through the vector: the gaps untouched */
    memset(back, 0xa5, (size_t)n * 2 * blk * 4);
    MTEST_RC(MPI_File_read_at(fh, at, back, 1, vec, &st));
    bad = 0;
    for (long i = 0; i < (long)n * 2 * blk && !bad; i++)
        if ((i / blk) % 2 ? back[i] != 0xa5a5a5a5u : back[i] != m[i])
            bad = 1;
    MTEST_CHECK(!bad, "direct read through the vector: wrong data");
    MPI_Type_free(&vec);
    free(m);
    free(back);
    MTEST_RC(MPI_File_close(&fh));
}

/* small blocks: 3 MiB of data in 4-byte pieces (over 6 MiB of memory) and
 * a view of every np-th int read with sieving, crossing buffers, to the end */
static void test_packed_sieved(void)
{
    make_path("packed");
    MPI_File fh = open_rw();
    const long n = (3L << 20) / 4;
    MPI_Datatype every2, ft;
    MPI_Type_vector((int)n, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&every2);
    MPI_Type_create_resized(MPI_INT, 0, 4 * np, &ft);
    MPI_Type_commit(&ft);
    unsigned *m = mtest_malloc((size_t)n * 8), *back = mtest_malloc((size_t)n * 8);
    for (long i = 0; i < 2 * n; i++)
        m[i] = val(me, i);
    MTEST_RC(MPI_File_set_view(fh, 4 * me, MPI_INT, ft, "native", MPI_INFO_NULL));
    MPI_Status st;
    MTEST_RC(MPI_File_write_all(fh, m, 1, every2, &st));
    MTEST_CHECK(count_of(&st, every2) == 1, "packed write: count %d", count_of(&st, every2));
    MPI_Offset pos = -1;
    MPI_File_get_position(fh, &pos);
    MTEST_CHECK(pos == n, "position %lld after the packed write", (long long)pos);
    MTEST_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_RC(MPI_File_sync(fh));
    /* sieved read of my ints, asking for 10 more than there are */
    memset(back, 0, (size_t)n * 8);
    MTEST_RC(MPI_File_read_at_all(fh, 0, back, (int)n + 10, MPI_INT, &st));
    MTEST_CHECK(count_of(&st, MPI_INT) == n, "sieved read: count %d of %ld", count_of(&st, MPI_INT), n);
    int bad = 0;
    for (long i = 0; i < n && !bad; i++)
        if (back[i] != m[2 * i])
            bad = 1;
    MTEST_CHECK(!bad, "sieved read: wrong data");
    /* rank 0 reads the whole file contiguously: rank r's i-th int at i * np + r */
    MTEST_RC(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    if (me == 0) {
        unsigned *all = mtest_malloc((size_t)n * np * 4);
        MTEST_RC(MPI_File_read_at(fh, 0, all, (int)n * np, MPI_INT, &st));
        bad = 0;
        for (long i = 0; i < n * np && !bad; i++)
            if (all[i] != val((int)(i % np), 2 * (i / np)))
                bad = 1;
        MTEST_CHECK(!bad, "the file of interleaved ints is wrong");
        free(all);
    }
    MPI_Type_free(&every2);
    MPI_Type_free(&ft);
    free(m);
    free(back);
    MTEST_RC(MPI_File_close(&fh));
}

/* external32 over more than one 4 MiB conversion buffer */
static void test_converted(void)
{
    make_path("ext32");
    MPI_File fh = open_rw();
    const long n = (5L << 20) / 8;
    double *d = mtest_malloc((size_t)n * 8), *back = mtest_malloc((size_t)n * 8);
    for (long i = 0; i < n; i++)
        d[i] = (double)val(me, i) + 0.25;
    MTEST_RC(MPI_File_set_view(fh, (MPI_Offset)me * n * 8, MPI_DOUBLE, MPI_DOUBLE, "external32", MPI_INFO_NULL));
    MPI_Status st;
    MTEST_RC(MPI_File_write_all(fh, d, (int)n, MPI_DOUBLE, &st));
    MTEST_CHECK(count_of(&st, MPI_DOUBLE) == n, "external32 write: count %d", count_of(&st, MPI_DOUBLE));
    MTEST_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_RC(MPI_File_sync(fh));
    MTEST_RC(MPI_File_read_at_all(fh, 0, back, (int)n, MPI_DOUBLE, &st));
    MTEST_CHECK(memcmp(d, back, (size_t)n * 8) == 0, "external32 read: wrong data");
    /* the bytes on disk: big-endian */
    MTEST_RC(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    unsigned char raw[8], want[8];
    MTEST_RC(MPI_File_read_at(fh, (MPI_Offset)me * n * 8 + 8 * 12345, raw, 8, MPI_BYTE, &st));
    memcpy(want, &d[12345], 8);
    int bad = 0;
    for (int k = 0; k < 8; k++)
        if (raw[k] != want[7 - k])
            bad = 1;
    MTEST_CHECK(!bad, "external32 bytes on disk are not big-endian");
    MPI_Barrier(MPI_COMM_WORLD);
    /* a short read from 4 bytes before the end: no whole double */
    MTEST_RC(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_DOUBLE, "external32", MPI_INFO_NULL));
    MPI_Offset size = 0;
    MPI_File_get_size(fh, &size);
    MTEST_RC(MPI_File_read_at(fh, size - 12, back, 2, MPI_DOUBLE, &st));
    MTEST_CHECK(count_of(&st, MPI_DOUBLE) == 1, "external32 short read: count %d", count_of(&st, MPI_DOUBLE));
    free(d);
    free(back);
    MTEST_RC(MPI_File_close(&fh));
}

/* write_shared and write_ordered: every record exactly once */
static void test_shared(void)
{
    make_path("shared");
    MPI_File fh = open_rw();
    const int k = 20;
    MPI_Status st;
    for (int i = 0; i < k; i++) {
        int rec[2] = {me, i};
        MTEST_RC(MPI_File_write_shared(fh, rec, 2, MPI_INT, &st));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Offset pos = -1;
    MTEST_RC(MPI_File_get_position_shared(fh, &pos));
    MTEST_CHECK(pos == (MPI_Offset)8 * k * np, "shared pointer at %lld", (long long)pos);
    int rec[3] = {me, -1, -1};   /* rank r writes r + 1 ints */
    MTEST_RC(MPI_File_write_ordered(fh, rec, me % 3 + 1, MPI_INT, &st));
    MTEST_CHECK(count_of(&st, MPI_INT) == me % 3 + 1, "ordered count %d", count_of(&st, MPI_INT));
    MTEST_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_RC(MPI_File_sync(fh));
    if (me == 0) {
        int *all = mtest_malloc((size_t)(2 * k * np + 3 * np) * 4);
        unsigned char *seen = calloc((size_t)(k * np), 1);
        MTEST_RC(MPI_File_read_at(fh, 0, all, 2 * k * np + 3 * np, MPI_INT, &st));
        for (int i = 0; i < k * np; i++) {
            int r = all[2 * i], j = all[2 * i + 1];
            if (r < 0 || r >= np || j < 0 || j >= k || seen[r * k + j]++)
                mtest_fail("shared record %d is (%d, %d)", i, r, j);
        }
        int at = 2 * k * np;
        for (int r = 0; r < np; r++)
            for (int j = 0; j <= r % 3; j++, at++)
                MTEST_CHECK(all[at] == (j ? -1 : r), "ordered int %d of rank %d is %d", j, r, all[at]);
        MTEST_CHECK(count_of(&st, MPI_INT) == at, "the file holds %d ints, not %d", count_of(&st, MPI_INT), at);
        free(all);
        free(seen);
    }
    MTEST_RC(MPI_File_close(&fh));
}

/* atomic mode: rank 0 rewrites a block, rank 1 reads it */
static void test_atomic(void)
{
    make_path("atomic");
    MPI_File fh = open_rw();
    enum { N = 64 * 1024 / 4, ROUNDS = 50 };
    int *b = mtest_malloc(N * 4);
    MPI_Status st;
    MTEST_RC(MPI_File_set_atomicity(fh, 1));
    int flag = 0;
    MPI_File_get_atomicity(fh, &flag);
    MTEST_CHECK(flag, "atomicity not set");
    if (me == 0) {
        for (int i = 0; i < N; i++)
            b[i] = -1;
        MTEST_RC(MPI_File_write_at(fh, 0, b, N, MPI_INT, &st));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int round = 0; round < ROUNDS; round++) {
        if (me == 0) {
            for (int i = 0; i < N; i++)
                b[i] = round;
            MTEST_RC(MPI_File_write_at(fh, 0, b, N, MPI_INT, &st));
        } else if (me == 1) {
            MTEST_RC(MPI_File_read_at(fh, 0, b, N, MPI_INT, &st));
            int mixed = 0;
            for (int i = 1; i < N; i++)
                if (b[i] != b[0])
                    mixed = 1;
            MTEST_CHECK(!mixed, "an atomic read saw two writes' data");
        }
    }
    free(b);
    MTEST_RC(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    test_direct();
    test_packed_sieved();
    test_converted();
    test_shared();
    test_atomic();
    return mtest_finalize();
}
