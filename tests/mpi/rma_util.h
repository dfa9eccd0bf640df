/*
 * rma_util.h - helpers shared by the one-sided communication tests
 * (rma_*.c), on top of mtest.h.
 *
 * Patterns: rma_fill(buf, n, seed) writes the stream of 64-bit words
 * rma_word(seed, 0), rma_word(seed, 1), ...; the byte at offset `off` is
 * byte off % 8 of word off / 8 (rma_byte()).  rma_seed(a, b, salt) makes a
 * seed from two ranks (origin and target, or the owner of a window and a
 * marker) and a case number, so data that lands at the wrong offset, came
 * from the wrong origin, was meant for another target or belongs to an
 * earlier case is told apart.
 *
 * rma_check_class(rc, cls, ...) is mtest_check_class() with the names of
 * the one-sided error classes in its messages.
 *
 * rma_allgather_aint(comm, v, out) gives every rank of comm everybody's v,
 * through point-to-point messages only (the test's own bookkeeping must not
 * depend on the collectives).
 */
#ifndef RMA_UTIL_H
#define RMA_UTIL_H

#include "mtest.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Tag of rma_allgather_aint's messages; tests use smaller tags. */
#define RMA_UTIL_TAG 31001

static inline uint64_t rma_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t rma_seed(int a, int b, int salt)
{
    return rma_mix(((uint64_t)(uint32_t)a << 40) ^ ((uint64_t)(uint32_t)b << 20) ^
                   (uint64_t)(uint32_t)salt ^ 0x7a3c9e1bull);
}

static inline uint64_t rma_word(uint64_t seed, uint64_t w)
{
    return rma_mix(seed ^ (w * 0xd1b54a32d192ed03ull));
}

static inline void rma_fill(void *buf, size_t n, uint64_t seed)
{
    unsigned char *p = buf;
    size_t w;
    for (w = 0; w < n / 8; w++) {
        uint64_t v = rma_word(seed, w);
        memcpy(p + 8 * w, &v, 8);
    }
    if (n % 8) {
        uint64_t v = rma_word(seed, w);
        memcpy(p + 8 * w, &v, n % 8);
    }
}

static inline unsigned char rma_byte(uint64_t seed, size_t off)
{
    uint64_t v = rma_word(seed, off / 8);
    unsigned char b[8];
    memcpy(b, &v, 8);
    return b[off % 8];
}

/* Compares n bytes at got with want; on a difference reports the number of
 * wrong bytes and the first, counts one error and returns 0. */
static inline int rma_compare_at(const char *file, int line, const void *got, const void *want,
                                 size_t n, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static inline int rma_compare_at(const char *file, int line, const void *got, const void *want,
                                 size_t n, const char *fmt, ...)
{
    if (n == 0 || memcmp(got, want, n) == 0)
        return 1;
    const unsigned char *g = got, *w = want;
    size_t bad = 0, first = 0, last = 0;
    for (size_t i = 0; i < n; i++) {
        if (g[i] != w[i]) {
            if (bad++ == 0)
                first = i;
            last = i;
        }
    }
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    mtest_fail_at(file, line, "%s: %zu of %zu bytes wrong, offsets %zu..%zu; at %zu got 0x%02x "
                  "expected 0x%02x", what, bad, n, first, last, first, g[first], w[first]);
    return 0;
}
#define rma_compare(got, want, n, ...) \
    rma_compare_at(__FILE__, __LINE__, (got), (want), (n), __VA_ARGS__)

static inline const char *rma_class_name(int cls)
{
    switch (cls) {
    case MPI_ERR_WIN: return "MPI_ERR_WIN";
    case MPI_ERR_BASE: return "MPI_ERR_BASE";
    case MPI_ERR_SIZE: return "MPI_ERR_SIZE";
    case MPI_ERR_DISP: return "MPI_ERR_DISP";
    case MPI_ERR_LOCKTYPE: return "MPI_ERR_LOCKTYPE";
    case MPI_ERR_ASSERT: return "MPI_ERR_ASSERT";
    case MPI_ERR_INFO: return "MPI_ERR_INFO";
    case MPI_ERR_KEYVAL: return "MPI_ERR_KEYVAL";
    case MPI_ERR_RMA_CONFLICT: return "MPI_ERR_RMA_CONFLICT";
    case MPI_ERR_RMA_SYNC: return "MPI_ERR_RMA_SYNC";
    case MPI_ERR_RMA_RANGE: return "MPI_ERR_RMA_RANGE";
    case MPI_ERR_RMA_ATTACH: return "MPI_ERR_RMA_ATTACH";
    case MPI_ERR_RMA_SHARED: return "MPI_ERR_RMA_SHARED";
    case MPI_ERR_RMA_FLAVOR: return "MPI_ERR_RMA_FLAVOR";
    default: return mtest_class_name(cls);
    }
}

/* The class of rc (-1 if MPI_Error_class rejects it). */
static inline int rma_class_of(int rc)
{
    int cls = -1;
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        return -1;
    return cls;
}

static inline int rma_check_class_at(const char *file, int line, int rc, int cls,
                                     const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static inline int rma_check_class_at(const char *file, int line, int rc, int cls,
                                     const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (rc == MPI_SUCCESS && cls != MPI_SUCCESS) {
        mtest_fail_at(file, line, "%s: returned MPI_SUCCESS, expected %s", what,
                      rma_class_name(cls));
        return 0;
    }
    int got = rma_class_of(rc);
    if (got != cls) {
        mtest_fail_at(file, line, "%s: error class %d (%s), expected %s (code %d)", what, got,
                      rma_class_name(got), rma_class_name(cls), rc);
        return 0;
    }
    if (rc == MPI_SUCCESS)
        return 1;
    char str[MPI_MAX_ERROR_STRING + 1];
    int len = -1;
    memset(str, 0, sizeof str);
    int rc2 = MPI_Error_string(rc, str, &len);
    if (rc2 != MPI_SUCCESS || len <= 0 || len >= MPI_MAX_ERROR_STRING ||
        (int)strlen(str) != len) {
        mtest_fail_at(file, line, "%s: MPI_Error_string(%d) rc %d, len %d, \"%s\"", what, rc, rc2,
                      len, str);
        return 0;
    }
    return 1;
}
#define rma_check_class(rc, cls, ...) \
    rma_check_class_at(__FILE__, __LINE__, (rc), (cls), __VA_ARGS__)

/* Everybody's v in out[0..size of comm), by point-to-point messages. */
static inline void rma_allgather_aint(MPI_Comm comm, MPI_Aint v, MPI_Aint *out)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    out[me] = v;
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n, from = (me - k + n) % n;
        MTEST_RC(MPI_Sendrecv(&v, 1, MPI_AINT, to, RMA_UTIL_TAG, &out[from], 1, MPI_AINT, from,
                              RMA_UTIL_TAG, comm, MPI_STATUS_IGNORE));
    }
}

/* Rounds n up to a multiple of a (a > 0). */
static inline size_t rma_round_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

#endif
