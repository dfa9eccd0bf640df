/*
 * alloc_mem_p2p: point-to-point from MPI_Alloc_mem memory, which an MPI may
 * give its node's peers to map (dmpi does: the receiver copies straight out
 * of its mapping of the sender's block, from DMPI_SHM_MAPPED_MIN bytes).
 *
 *  - to every rank (rank + d for each distance d), at sizes around a page
 *    and the eager limit up to a maximum (default 16 MiB, argv[1]
 *    overrides, e.g. "1M"), sent from several offsets inside one block
 *    (0, odd, past the first page), with Isend, blocking Send to a posted
 *    receive and Ssend; received contiguously (guard behind) and with a
 *    noncontiguous type (gaps must keep their poison);
 *  - a message longer than the receive: MPI_ERR_TRUNCATE, the first bytes
 *    in place, nothing written behind;
 *  - order: every rank sends to every other a stream that mixes Alloc_mem
 *    and malloc buffers, small and large, under one tag; receives from
 *    MPI_ANY_SOURCE must see each sender's messages in order;
 *  - blocks freed while the receivers still map them, then allocated again
 *    (often at the same address, with the same file descriptor): receivers
 *    must see the new data; and more blocks than a receiver keeps mapped
 *    (DMPI_SHM_MAP_CACHE), each sent from in turn.
 * Data are checked byte for byte (mtest patterns).
 */
#include "mtest.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG 7
static size_t max_bytes = 16 << 20;

/* Noncontiguous receive: items of 64 bytes in two blocks of 32, 16 bytes
 * apart, 80 bytes per item. Byte k of the message lands at nc_pos(k). */
#define NC_ITEM 64
#define NC_EXTENT 80
static size_t nc_pos(size_t k) { return k / NC_ITEM * NC_EXTENT + (k % NC_ITEM < 32 ? k % NC_ITEM : 16 + k % NC_ITEM); }

static MPI_Datatype nc_type(void)
{
    MPI_Datatype t;
    MTEST_RC(MPI_Type_vector(2, 32, 48, MPI_BYTE, &t));
    MTEST_RC(MPI_Type_commit(&t));
    return t;
}

/* Checks an nc receive of n bytes (sender, idx): data where the type puts
 * it, poison (0x5a) everywhere else in the items' extent. */
static void check_nc(const unsigned char *buf, size_t n, int sender, int idx, const char *what)
{
    size_t bad = 0, first = 0, span = n / NC_ITEM * NC_EXTENT;
    unsigned char *want = mtest_malloc(span ? span : 1);
    memset(want, 0x5a, span);
    for (size_t k = 0; k < n; k++)
        want[nc_pos(k)] = mtest_pattern_byte(sender, idx, k);
    for (size_t i = 0; i < span; i++)
        if (buf[i] != want[i] && bad++ == 0)
            first = i;
    MTEST_CHECK(bad == 0, "%s: %zu wrong bytes of %zu, the first at %zu (0x%02x, want 0x%02x)", what, bad, span,
                first, buf[first], want[first]);
    free(want);
}

static int size_list(size_t *sizes)
{
    static const size_t all[] = {1, 1000, 4095, 4096, 4097, 6000, 8191, 8192, 8193, 16384, 65536, 65599,
                                 (1 << 20) + 3};
    int n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i] <= max_bytes)
            sizes[n++] = all[i];
    sizes[n++] = max_bytes;
    return n;
}

/* Every size to rank + d from rank - d, for each d, in three ways. */
static void test_to_every_rank(void)
{
    size_t sizes[16];
    int ns = size_list(sizes);
    static const size_t offsets[] = {0, 13, 4096 + 64};
    size_t block = max_bytes + 8192;
    char *out, *in = mtest_malloc(max_bytes / NC_ITEM * NC_EXTENT + NC_EXTENT + MTEST_GUARD);
    MTEST_RC(MPI_Alloc_mem((MPI_Aint)block, MPI_INFO_NULL, &out));
    MPI_Datatype nc = nc_type();
    int idx = 0;
    for (int d = 1; d < mtest_size; d++) {
        int to = (mtest_rank + d) % mtest_size, from = (mtest_rank + mtest_size - d) % mtest_size;
        for (int i = 0; i < ns; i++)
            for (int way = 0; way < 4; way++, idx++) {
                size_t n = sizes[i], off = offsets[(i + way) % 3];
                if (off + n > block)
                    off = 0;
                bool typed = way == 3 && n % NC_ITEM == 0;
                char what[96];
                snprintf(what, sizeof what, "%zu bytes from %d (offset %zu, way %d)", n, from, off, way);
                mtest_fill(out + off, n, mtest_rank, idx);
                if (typed)
                    memset(in, 0x5a, n / NC_ITEM * NC_EXTENT);
                else
                    mtest_poison(in, n, from, idx);
                mtest_guard_set(in + (typed ? n / NC_ITEM * NC_EXTENT : n));
                MPI_Request rr, sr;
                MPI_Status st;
                if (typed)
                    MTEST_RC(MPI_Irecv(in, (int)(n / NC_ITEM), nc, from, TAG, MPI_COMM_WORLD, &rr));
                else
                    MTEST_RC(MPI_Irecv(in, (int)n, MPI_BYTE, from, TAG, MPI_COMM_WORLD, &rr));
                /* the receive is posted everywhere before anyone sends */
                MTEST_RC(MPI_Sendrecv(NULL, 0, MPI_BYTE, to, 1, NULL, 0, MPI_BYTE, from, 1, MPI_COMM_WORLD,
                                      MPI_STATUS_IGNORE));
                if (way == 1)
                    MTEST_RC(MPI_Send(out + off, (int)n, MPI_BYTE, to, TAG, MPI_COMM_WORLD));
                else if (way == 2)
                    MTEST_RC(MPI_Ssend(out + off, (int)n, MPI_BYTE, to, TAG, MPI_COMM_WORLD));
                else {
                    MTEST_RC(MPI_Isend(out + off, (int)n, MPI_BYTE, to, TAG, MPI_COMM_WORLD, &sr));
                    MTEST_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE));
                }
                MTEST_RC(MPI_Wait(&rr, &st));
                mtest_check_status(&st, from, TAG, MPI_BYTE, (int)n, what);
                if (typed)
                    check_nc((unsigned char *)in, n, from, idx, what);
                else
                    mtest_check_data(in, n, from, idx, "%s", what);
                mtest_guard_check(in + (typed ? n / NC_ITEM * NC_EXTENT : n), what);
            }
    }
    MTEST_RC(MPI_Type_free(&nc));
    MTEST_RC(MPI_Free_mem(out));
    free(in);
}

/* A longer message than the receive holds. */
static void test_truncate(void)
{
    size_t n = max_bytes < (256 << 10) ? max_bytes : 256 << 10, short_n = n / 2;
    int to = (mtest_rank + 1) % mtest_size, from = (mtest_rank + mtest_size - 1) % mtest_size;
    char *out, *in = mtest_malloc(short_n + MTEST_GUARD);
    MTEST_RC(MPI_Alloc_mem((MPI_Aint)n, MPI_INFO_NULL, &out));
    mtest_fill(out, n, mtest_rank, 900);
    mtest_poison(in, short_n, from, 900);
    mtest_guard_set(in + short_n);
    MPI_Comm c;
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MTEST_RC(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    MPI_Request rr, sr;
    MTEST_RC(MPI_Irecv(in, (int)short_n, MPI_BYTE, from, TAG, c, &rr));
    MTEST_RC(MPI_Isend(out, (int)n, MPI_BYTE, to, TAG, c, &sr));
    MTEST_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    MPI_Status st;
    mtest_check_class(MPI_Wait(&rr, &st), MPI_ERR_TRUNCATE, "%zu bytes into %zu", n, short_n);
    mtest_check_data(in, short_n, from, 900, "the part of a truncated message that fits");
    mtest_guard_check(in + short_n, "behind a truncated receive");
    MTEST_RC(MPI_Comm_free(&c));
    MTEST_RC(MPI_Free_mem(out));
    free(in);
}

/* Message k of a stream: its size and whether it comes from Alloc_mem. */
#define STREAM 48
static size_t stream_size(int k)
{
    static const size_t s[] = {5000, 100, 70000, 4096, 12000, 0, 300000, 8192};
    size_t n = s[k % 8];
    return n <= max_bytes ? n : max_bytes;
}
static bool stream_mapped(int k) { return k % 3 != 1; }

static void test_order_any_source(void)
{
    int npeers = mtest_size - 1;
    char **am = mtest_malloc((size_t)STREAM * sizeof *am), **hp = mtest_malloc((size_t)STREAM * sizeof *hp);
    MPI_Request *sr = mtest_malloc((size_t)(STREAM * (npeers ? npeers : 1)) * sizeof *sr);
    for (int k = 0; k < STREAM; k++) {
        size_t n = stream_size(k);
        MTEST_RC(MPI_Alloc_mem((MPI_Aint)(n ? n : 1), MPI_INFO_NULL, &am[k]));
        hp[k] = mtest_malloc(n ? n : 1);
        mtest_fill(stream_mapped(k) ? am[k] : hp[k], n, mtest_rank, 1000 + k);
    }
    int ns = 0;
    for (int k = 0; k < STREAM; k++)        /* interleaved: message k to every peer, then k + 1 */
        for (int d = 1; d < mtest_size; d++)
            MTEST_RC(MPI_Isend(stream_mapped(k) ? am[k] : hp[k], (int)stream_size(k), MPI_BYTE,
                               (mtest_rank + d) % mtest_size, TAG, MPI_COMM_WORLD, &sr[ns++]));
    size_t cap = max_bytes < 300000 ? max_bytes : 300000;
    char *in = mtest_malloc(cap + MTEST_GUARD);
    int *next = calloc((size_t)mtest_size, sizeof *next);
    for (int m = 0; m < STREAM * npeers; m++) {
        MPI_Status st;
        memset(in, 0x33, cap);
        MTEST_RC(MPI_Recv(in, (int)cap, MPI_BYTE, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st));
        int src = st.MPI_SOURCE, count;
        if (!MTEST_CHECK(src >= 0 && src < mtest_size && src != mtest_rank && next[src] < STREAM,
                         "message from unexpected source %d", src))
            continue;
        int k = next[src]++;
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (MTEST_CHECK((size_t)count == stream_size(k), "message %d from %d: %d bytes, want %zu (out of order?)",
                        k, src, count, stream_size(k)))
            mtest_check_data(in, (size_t)count, src, 1000 + k, "message %d from %d", k, src);
    }
    MTEST_RC(MPI_Waitall(ns, sr, MPI_STATUSES_IGNORE));
    for (int k = 0; k < STREAM; k++) {
        MTEST_RC(MPI_Free_mem(am[k]));
        free(hp[k]);
    }
    free(next);
    free(in);
    free(sr);
    free(am);
    free(hp);
}

/* Sends block b (n bytes, pattern idx) to every peer and checks what
 * arrives from each of them. */
static void exchange(char *b, size_t n, int idx, char *in)
{
    for (int d = 1; d < mtest_size; d++) {
        int to = (mtest_rank + d) % mtest_size, from = (mtest_rank + mtest_size - d) % mtest_size;
        mtest_poison(in, n, from, idx);
        MTEST_RC(MPI_Sendrecv(b, (int)n, MPI_BYTE, to, TAG, in, (int)n, MPI_BYTE, from, TAG, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
        mtest_check_data(in, n, from, idx, "%zu bytes (pattern %d) from %d", n, idx, from);
    }
}

/* Free_mem while peers map the block, then Alloc_mem again; and more
 * blocks than a receiver keeps mapped. */
static void test_free_and_reuse(void)
{
    size_t n = max_bytes < (256 << 10) ? max_bytes : 256 << 10;
    char *in = mtest_malloc(n);
    for (int round = 0; round < 6; round++) {
        char *b;
        MTEST_RC(MPI_Alloc_mem((MPI_Aint)n, MPI_INFO_NULL, &b));
        mtest_fill(b, n, mtest_rank, 2000 + round);
        exchange(b, n, 2000 + round, in);
        mtest_fill(b, n, mtest_rank, 2100 + round);     /* same block, new data */
        exchange(b, n, 2100 + round, in);
        MTEST_RC(MPI_Free_mem(b));
    }
    enum { MANY = 80 };
    size_t m = max_bytes < 16384 ? max_bytes : 16384;
    char *blocks[MANY];
    for (int i = 0; i < MANY; i++) {
        MTEST_RC(MPI_Alloc_mem((MPI_Aint)m, MPI_INFO_NULL, &blocks[i]));
        mtest_fill(blocks[i], m, mtest_rank, 3000 + i);
    }
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < MANY; i++)
            exchange(blocks[i], m, 3000 + i, in);
    for (int i = 0; i < MANY; i += 2)        /* free half, reuse their room */
        MTEST_RC(MPI_Free_mem(blocks[i]));
    for (int i = 0; i < MANY; i += 2) {
        MTEST_RC(MPI_Alloc_mem((MPI_Aint)m, MPI_INFO_NULL, &blocks[i]));
        mtest_fill(blocks[i], m, mtest_rank, 3100 + i);
    }
    for (int i = 0; i < MANY; i++)
        exchange(blocks[i], m, (i % 2 ? 3000 : 3100) + i, in);
    for (int i = 0; i < MANY; i++)
        MTEST_RC(MPI_Free_mem(blocks[i]));
    free(in);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    if (argc > 1)
        max_bytes = mtest_parse_size(argv[1]);
    if (max_bytes < 8192)
        max_bytes = 8192;
    if (mtest_size > 1) {
        test_to_every_rank();
        test_truncate();
        test_order_any_source();
        test_free_and_reuse();
    }
    return mtest_finalize();
}
