/* The pack engine: moves bytes between a typed buffer and the packed
 * stream, for any byte range of it, by walking the type's runs. Inside a
 * run the copy loop has the block length fixed, and the common lengths
 * (1, 2, 4, 8, 16 bytes) get loops of their own so that a vector of
 * doubles packs with plain loads and stores. */
#include "core/dmpi.h"
#include <string.h>
#include <sys/uio.h>

/* A position in the packed stream of a typed buffer. */
typedef struct cursor {
    const dmpi_dtype_t *dt;
    char *elem;                  /* start of the current element */
    int run;
    size_t blk;                  /* block within the run */
    size_t in;                   /* byte within the block */
} cursor_t;

static void seek(cursor_t *c, const dmpi_dtype_t *dt, const void *base, size_t first)
{
    size_t e = first / dt->size, r = first % dt->size;
    int lo = 0, hi = dt->nruns - 1;
    while (lo < hi) {              /* last run that starts at or before r */
        int mid = (lo + hi + 1) / 2;
        if (dt->runs[mid].before <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    const dmpi_run_t *run = &dt->runs[lo];
    *c = (cursor_t){dt, (char *)base + (MPI_Aint)e * dt->extent, lo, (r - run->before) / run->len,
                    (r - run->before) % run->len};
}

static inline char *block_addr(const cursor_t *c)
{
    const dmpi_run_t *run = &c->dt->runs[c->run];
    return c->elem + run->off + (MPI_Aint)c->blk * run->stride + (MPI_Aint)c->in;
}

/* Moves past n bytes that end at or before the end of the current block. */
static inline void advance(cursor_t *c, size_t n)
{
    const dmpi_run_t *run = &c->dt->runs[c->run];
    c->in += n;
    if (c->in < run->len)
        return;
    c->in = 0;
    if (++c->blk < run->count)
        return;
    c->blk = 0;
    if (++c->run < c->dt->nruns)
        return;
    c->run = 0;
    c->elem += c->dt->extent;
}

/* Four blocks per turn: independent loads and stores the processor can
 * overlap, and a quarter of the loop overhead. */
#define GATHER(T)                                                                 \
    {                                                                             \
        size_t i = 0;                                                             \
        for (; i + 4 <= k; i += 4, s += 4 * stride, d += 4 * sizeof(T)) {        \
            T v0, v1, v2, v3;                                                     \
            memcpy(&v0, s, sizeof(T));                                            \
            memcpy(&v1, s + stride, sizeof(T));                                   \
            memcpy(&v2, s + 2 * stride, sizeof(T));                               \
            memcpy(&v3, s + 3 * stride, sizeof(T));                               \
            memcpy(d, &v0, sizeof(T));                                            \
            memcpy(d + sizeof(T), &v1, sizeof(T));                                \
            memcpy(d + 2 * sizeof(T), &v2, sizeof(T));                            \
            memcpy(d + 3 * sizeof(T), &v3, sizeof(T));                            \
        }                                                                         \
        for (; i < k; i++, s += stride, d += sizeof(T)) {                         \
            T v;                                                                  \
            memcpy(&v, s, sizeof(T));                                             \
            memcpy(d, &v, sizeof(T));                                             \
        }                                                                         \
    }

/* k whole blocks of len bytes, stride apart, between s and the stream d. */
static void pack_blocks(char *d, const char *s, size_t len, MPI_Aint stride, size_t k)
{
    switch (len) {
    case 1: GATHER(uint8_t) break;
    case 2: GATHER(uint16_t) break;
    case 4: GATHER(uint32_t) break;
    case 8: GATHER(uint64_t) break;
    case 16:
        for (size_t i = 0; i < k; i++, s += stride, d += 16)
            memcpy(d, s, 16);
        break;
    default:
        for (size_t i = 0; i < k; i++, s += stride, d += len)
            memcpy(d, s, len);
    }
}

#define SCATTER(T)                                                                \
    {                                                                             \
        size_t i = 0;                                                             \
        for (; i + 4 <= k; i += 4, d += 4 * stride, s += 4 * sizeof(T)) {        \
            T v0, v1, v2, v3;                                                     \
            memcpy(&v0, s, sizeof(T));                                            \
            memcpy(&v1, s + sizeof(T), sizeof(T));                                \
            memcpy(&v2, s + 2 * sizeof(T), sizeof(T));                            \
            memcpy(&v3, s + 3 * sizeof(T), sizeof(T));                            \
            memcpy(d, &v0, sizeof(T));                                            \
            memcpy(d + stride, &v1, sizeof(T));                                   \
            memcpy(d + 2 * stride, &v2, sizeof(T));                               \
            memcpy(d + 3 * stride, &v3, sizeof(T));                               \
        }                                                                         \
        for (; i < k; i++, d += stride, s += sizeof(T)) {                         \
            T v;                                                                  \
            memcpy(&v, s, sizeof(T));                                             \
            memcpy(d, &v, sizeof(T));                                             \
        }                                                                         \
    }

static void unpack_blocks(char *d, const char *s, size_t len, MPI_Aint stride, size_t k)
{
    switch (len) {
    case 1: SCATTER(uint8_t) break;
    case 2: SCATTER(uint16_t) break;
    case 4: SCATTER(uint32_t) break;
    case 8: SCATTER(uint64_t) break;
    case 16:
        for (size_t i = 0; i < k; i++, d += stride, s += 16)
            memcpy(d, s, 16);
        break;
    default:
        for (size_t i = 0; i < k; i++, d += stride, s += len)
            memcpy(d, s, len);
    }
}

/* A short copy of any length without a call: overlapping fixed-size
 * moves, which compile to a few loads and stores. */
static inline void copy_bytes(char *d, const char *s, size_t n)
{
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 16) {
        memcpy(d, s, 16);
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

/* One step of the general walk: up to the end of the current block. */
static size_t move_piece(cursor_t *c, char *stream, size_t n, bool pack)
{
    const dmpi_run_t *run = &c->dt->runs[c->run];
    if (c->in == 0 && run->count - c->blk > 1 && n >= 2 * run->len) {
        size_t k = run->count - c->blk;    /* whole blocks of this run at once */
        if (k > n / run->len)
            k = n / run->len;
        char *at = block_addr(c);
        if (pack)
            pack_blocks(stream, at, run->len, run->stride, k);
        else
            unpack_blocks(at, stream, run->len, run->stride, k);
        c->blk += k - 1;
        c->in = run->len - 1;
        advance(c, 1);
        return k * run->len;
    }
    size_t m = run->len - c->in;
    if (m > n)
        m = n;
    if (pack)
        copy_bytes(stream, block_addr(c), m);
    else
        copy_bytes(block_addr(c), stream, m);
    advance(c, m);
    return m;
}

/* Whole elements from the start of one: every run in turn, no cursor. */
static size_t move_elements(const dmpi_dtype_t *dt, char **elem, char *stream, size_t n, bool pack)
{
    size_t moved = 0;
    char *e = *elem;
    for (; n - moved >= dt->size; e += dt->extent) {
        for (int i = 0; i < dt->nruns; i++) {
            const dmpi_run_t *r = &dt->runs[i];
            if (r->count == 1) {
                if (pack)
                    copy_bytes(stream, e + r->off, r->len);
                else
                    copy_bytes(e + r->off, stream, r->len);
            } else if (pack) {
                pack_blocks(stream, e + r->off, r->len, r->stride, r->count);
            } else {
                unpack_blocks(e + r->off, stream, r->len, r->stride, r->count);
            }
            stream += r->len * r->count;
        }
        moved += dt->size;
    }
    *elem = e;
    return moved;
}

/* Copies n bytes of the stream from the cursor: to the stream buffer
 * (pack) or from it (unpack). */
static void move(cursor_t *c, char *stream, size_t n, bool pack)
{
    while (n > 0 && (c->run || c->blk || c->in)) {   /* finish a partial element */
        size_t m = move_piece(c, stream, n, pack);
        stream += m;
        n -= m;
    }
    size_t m = move_elements(c->dt, &c->elem, stream, n, pack);
    stream += m;
    n -= m;
    while (n > 0) {                                   /* a partial element at the end */
        m = move_piece(c, stream, n, pack);
        stream += m;
        n -= m;
    }
}

void dmpi_dtype_pack_range(const dmpi_dtype_t *dt, const void *base, size_t first, size_t n, void *dst)
{
    if (n == 0)
        return;
    if (dt->contig) {
        memcpy(dst, (const char *)base + dt->true_lb + first, n);
        return;
    }
    cursor_t c;
    seek(&c, dt, base, first);
    move(&c, dst, n, true);
}

void dmpi_dtype_unpack_range(const dmpi_dtype_t *dt, void *base, size_t first, size_t n, const void *src)
{
    if (n == 0)
        return;
    if (dt->contig) {
        memcpy((char *)base + dt->true_lb + first, src, n);
        return;
    }
    cursor_t c;
    seek(&c, dt, base, first);
    move(&c, (char *)src, n, false);
}

void dmpi_dtype_pack(const dmpi_dtype_t *dt, size_t count, const void *src, void *dst)
{
    dmpi_dtype_pack_range(dt, src, 0, count * dt->size, dst);
}

void dmpi_dtype_unpack(const dmpi_dtype_t *dt, size_t count, const void *src, void *dst, size_t bytes)
{
    size_t n = count * dt->size;
    dmpi_dtype_unpack_range(dt, dst, 0, bytes < n ? bytes : n, src);
}

int dmpi_dtype_iov(const dmpi_dtype_t *dt, const void *base, size_t first, size_t n, struct iovec *iov, int max,
                   size_t *covered)
{
    size_t done = 0;
    int k = 0;
    if (n > 0 && dt->contig && max > 0) {
        iov[0] = (struct iovec){(char *)base + dt->true_lb + first, n};
        *covered = n;
        return 1;
    }
    cursor_t c;
    if (n > 0)
        seek(&c, dt, base, first);
    while (done < n) {
        const dmpi_run_t *run = &dt->runs[c.run];
        size_t m = run->len - c.in;
        if (m > n - done)
            m = n - done;
        char *at = block_addr(&c);
        if (k > 0 && (char *)iov[k - 1].iov_base + iov[k - 1].iov_len == at)
            iov[k - 1].iov_len += m;       /* continues the previous piece */
        else if (k == max)
            break;
        else
            iov[k++] = (struct iovec){at, m};
        done += m;
        advance(&c, m);
    }
    *covered = done;
    return k;
}
