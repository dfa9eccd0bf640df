/*
 * mtest.c - helpers shared by the tests in tests/mpi (see mtest.h).
 */
#include "mtest.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int mtest_rank = -1;
int mtest_size = -1;

/* Failures may be counted from several threads (the threads_* tests):
 * the counters are touched only under this lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int errors;                 /* failures counted on this rank */
static int printed;                /* failure messages printed so far */
#define MAX_PRINTED 40

void mtest_start(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &mtest_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mtest_size);
    setvbuf(stdout, NULL, _IOLBF, 0);
}

void mtest_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    mtest_start();
}

int mtest_error_count(void)
{
    pthread_mutex_lock(&lock);
    int n = errors;
    pthread_mutex_unlock(&lock);
    return n;
}

void mtest_add_errors(int n)
{
    pthread_mutex_lock(&lock);
    errors += n;
    pthread_mutex_unlock(&lock);
}

static void vreport(const char *file, int line, const char *fmt, va_list ap)
{
    if (printed >= MAX_PRINTED)
        return;
    printed++;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    printf("[rank %d] %s:%d: %s\n", mtest_rank, file, line, msg);
    if (printed == MAX_PRINTED)
        printf("[rank %d] (further failure messages suppressed)\n", mtest_rank);
    fflush(stdout);
}

void mtest_fail_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&lock);
    errors++;
    va_start(ap, fmt);
    vreport(file, line, fmt, ap);
    va_end(ap);
    pthread_mutex_unlock(&lock);
}

int mtest_rc_at(const char *file, int line, int rc, const char *what)
{
    if (rc == MPI_SUCCESS)
        return 1;
    char str[MPI_MAX_ERROR_STRING];
    int len = 0, cls = -1;
    MPI_Error_class(rc, &cls);
    if (MPI_Error_string(rc, str, &len) != MPI_SUCCESS)
        snprintf(str, sizeof str, "(no error string)");
    mtest_fail_at(file, line, "%s returned %d (class %s): %s", what, rc,
                  mtest_class_name(cls), str);
    return 0;
}

int mtest_global_errors(void)
{
    int total = mtest_error_count();
    /* no rank's report can be taken by another rank's wildcard receive:
     * every rank has finished its receives before anyone reports */
    MPI_Barrier(MPI_COMM_WORLD);
    if (mtest_rank == 0) {
        for (int r = 1; r < mtest_size; r++) {
            int e = 0;
            MPI_Status st;
            MPI_Recv(&e, 1, MPI_INT, r, MTEST_REPORT_TAG, MPI_COMM_WORLD, &st);
            total += e;
        }
    } else {
        MPI_Send(&total, 1, MPI_INT, 0, MTEST_REPORT_TAG, MPI_COMM_WORLD);
    }
    return total;
}

int mtest_finalize(void)
{
    int total = mtest_global_errors();
    if (mtest_rank == 0) {
        if (total == 0)
            printf("No Errors\n");
        else
            printf(" Found %d errors\n", total);
        fflush(stdout);
    }
    MPI_Finalize();
    if (mtest_rank == 0)
        return total != 0;
    return mtest_error_count() != 0;
}

/* ---- patterns ---------------------------------------------------------- */

static inline uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t seed_of(int sender, int idx)
{
    return mix64(((uint64_t)(uint32_t)sender << 32) ^ (uint32_t)idx ^ 0x5bd1e995ull);
}

static inline uint64_t word_of(uint64_t seed, uint64_t w)
{
    return mix64(seed ^ (w * 0xd1b54a32d192ed03ull));
}

static void fill_words(unsigned char *p, size_t n, uint64_t seed, uint64_t flip)
{
    size_t nw = n / 8, w;
    for (w = 0; w < nw; w++) {
        uint64_t v = word_of(seed, w) ^ flip;
        memcpy(p + 8 * w, &v, 8);
    }
    if (n % 8) {
        uint64_t v = word_of(seed, w) ^ flip;
        memcpy(p + 8 * w, &v, n % 8);
    }
}

void mtest_fill(void *buf, size_t nbytes, int sender, int idx)
{
    fill_words(buf, nbytes, seed_of(sender, idx), 0);
}

void mtest_poison(void *buf, size_t nbytes, int sender, int idx)
{
    fill_words(buf, nbytes, seed_of(sender, idx), ~0ull);
}

unsigned char mtest_pattern_byte(int sender, int idx, size_t off)
{
    uint64_t v = word_of(seed_of(sender, idx), off / 8);
    unsigned char b[8];
    memcpy(b, &v, 8);
    return b[off % 8];
}

/* Compares buf[0..n) with the pattern; returns the number of wrong bytes
 * and the first one in *first. */
static size_t compare(const unsigned char *p, size_t n, uint64_t seed, size_t *first)
{
    size_t bad = 0, nw = n / 8;
    *first = (size_t)-1;
    for (size_t w = 0; w <= nw; w++) {
        size_t len = w < nw ? 8 : n % 8;
        if (len == 0)
            break;
        uint64_t v = word_of(seed, w), got = 0;
        memcpy(&got, p + 8 * w, len);
        if (len == 8 ? got == v : memcmp(&got, &v, len) == 0)
            continue;
        unsigned char e[8], g[8];
        memcpy(e, &v, 8);
        memcpy(g, &got, 8);
        for (size_t i = 0; i < len; i++) {
            if (e[i] != g[i]) {
                if (bad++ == 0)
                    *first = 8 * w + i;
            }
        }
    }
    return bad;
}

int mtest_check_data_at(const char *file, int line, const void *buf, size_t nbytes,
                        int sender, int idx, const char *fmt, ...)
{
    size_t first;
    size_t bad = compare(buf, nbytes, seed_of(sender, idx), &first);
    if (bad == 0)
        return 1;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const unsigned char *p = buf;
    mtest_fail_at(file, line,
                  "%s: %zu of %zu bytes wrong (sender %d, msg %d); first at offset %zu: "
                  "got 0x%02x expected 0x%02x",
                  what, bad, nbytes, sender, idx, first, p[first],
                  mtest_pattern_byte(sender, idx, first));
    return 0;
}

int mtest_check_elems_at(const char *file, int line, const void *buf, size_t nelem,
                         size_t elem, size_t sig, int sender, int idx, const char *what)
{
    if (sig >= elem)
        return mtest_check_data_at(file, line, buf, nelem * elem, sender, idx, "%s", what);
    const unsigned char *p = buf;
    size_t bad = 0, first = 0;
    for (size_t e = 0; e < nelem; e++) {
        for (size_t i = 0; i < sig; i++) {
            size_t off = e * elem + i;
            if (p[off] != mtest_pattern_byte(sender, idx, off)) {
                if (bad++ == 0)
                    first = off;
            }
        }
    }
    if (bad == 0)
        return 1;
    mtest_fail_at(file, line,
                  "%s: %zu significant bytes wrong in %zu elements of %zu bytes (sender %d, "
                  "msg %d); first at offset %zu: got 0x%02x expected 0x%02x",
                  what, bad, nelem, elem, sender, idx, first, p[first],
                  mtest_pattern_byte(sender, idx, first));
    return 0;
}

void mtest_guard_set(void *p)
{
    memset(p, 0xA5, MTEST_GUARD);
}

int mtest_guard_check_at(const char *file, int line, const void *p, const char *what)
{
    const unsigned char *g = p;
    for (int i = 0; i < MTEST_GUARD; i++) {
        if (g[i] != 0xA5) {
            mtest_fail_at(file, line, "%s: byte %d behind the receive buffer was overwritten "
                          "(0x%02x)", what, i, g[i]);
            return 0;
        }
    }
    return 1;
}

/* ---- statuses and error classes ----------------------------------------- */

int mtest_check_status_at(const char *file, int line, const MPI_Status *st, int source,
                          int tag, MPI_Datatype type, int count, const char *what)
{
    int ok = 1;
    if (source != MTEST_DONTCARE && st->MPI_SOURCE != source) {
        mtest_fail_at(file, line, "%s: status.MPI_SOURCE %d, expected %d", what,
                      st->MPI_SOURCE, source);
        ok = 0;
    }
    if (tag != MTEST_DONTCARE && st->MPI_TAG != tag) {
        mtest_fail_at(file, line, "%s: status.MPI_TAG %d, expected %d", what, st->MPI_TAG, tag);
        ok = 0;
    }
    if (count != MTEST_DONTCARE) {
        int c = -12345;
        int rc = MPI_Get_count(st, type, &c);
        if (rc != MPI_SUCCESS || c != count) {
            mtest_fail_at(file, line, "%s: MPI_Get_count gives %d (rc %d), expected %d", what, c,
                          rc, count);
            ok = 0;
        }
    }
    return ok;
}

int mtest_check_empty_status_at(const char *file, int line, const MPI_Status *st,
                                int check_error, const char *what)
{
    int ok = mtest_check_status_at(file, line, st, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_BYTE, 0, what);
    int flag = -1;
    MPI_Test_cancelled(st, &flag);
    if (flag != 0) {
        mtest_fail_at(file, line, "%s: MPI_Test_cancelled of an empty status gives %d", what,
                      flag);
        ok = 0;
    }
    if (check_error && st->MPI_ERROR != MPI_SUCCESS) {
        mtest_fail_at(file, line, "%s: status.MPI_ERROR %d, expected MPI_SUCCESS", what,
                      st->MPI_ERROR);
        ok = 0;
    }
    return ok;
}

void mtest_status_garbage(MPI_Status *st)
{
    memset(st, 0x5c, sizeof *st);
    st->MPI_SOURCE = -77;
    st->MPI_TAG = -77;
    st->MPI_ERROR = -77;
}

const char *mtest_class_name(int cls)
{
    switch (cls) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
    case MPI_ERR_TAG: return "MPI_ERR_TAG";
    case MPI_ERR_COMM: return "MPI_ERR_COMM";
    case MPI_ERR_RANK: return "MPI_ERR_RANK";
    case MPI_ERR_REQUEST: return "MPI_ERR_REQUEST";
    case MPI_ERR_ROOT: return "MPI_ERR_ROOT";
    case MPI_ERR_GROUP: return "MPI_ERR_GROUP";
    case MPI_ERR_OP: return "MPI_ERR_OP";
    case MPI_ERR_TOPOLOGY: return "MPI_ERR_TOPOLOGY";
    case MPI_ERR_DIMS: return "MPI_ERR_DIMS";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_UNKNOWN: return "MPI_ERR_UNKNOWN";
    case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE";
    case MPI_ERR_OTHER: return "MPI_ERR_OTHER";
    case MPI_ERR_INTERN: return "MPI_ERR_INTERN";
    case MPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS";
    case MPI_ERR_PENDING: return "MPI_ERR_PENDING";
    case MPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM";
    default: return "(other class)";
    }
}

int mtest_check_class_at(const char *file, int line, int rc, int cls, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (rc == MPI_SUCCESS && cls != MPI_SUCCESS) {
        mtest_fail_at(file, line, "%s: returned MPI_SUCCESS, expected %s", what,
                      mtest_class_name(cls));
        return 0;
    }
    int got = -1;
    int rc2 = MPI_Error_class(rc, &got);
    if (rc2 != MPI_SUCCESS || got != cls) {
        mtest_fail_at(file, line, "%s: error class %d (%s), expected %s (code %d, "
                      "MPI_Error_class rc %d)", what, got, mtest_class_name(got),
                      mtest_class_name(cls), rc, rc2);
        return 0;
    }
    char str[MPI_MAX_ERROR_STRING + 1];
    int len = -1;
    memset(str, 0, sizeof str);
    rc2 = MPI_Error_string(rc, str, &len);
    if (rc2 != MPI_SUCCESS || len <= 0 || len >= MPI_MAX_ERROR_STRING ||
        (int)strlen(str) != len) {
        mtest_fail_at(file, line, "%s: MPI_Error_string(%d) rc %d, len %d, \"%s\"", what, rc, rc2,
                      len, str);
        return 0;
    }
    return 1;
}

/* ---- misc -------------------------------------------------------------- */

void *mtest_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        printf("[rank %d] out of memory allocating %zu bytes\n", mtest_rank, n);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

void mtest_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

size_t mtest_parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    switch (*end) {
    case 'k': case 'K': v <<= 10; break;
    case 'm': case 'M': v <<= 20; break;
    case 'g': case 'G': v <<= 30; break;
    default: break;
    }
    return (size_t)v;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

size_t *mtest_size_list(size_t max, int *n)
{
    static const size_t odd[] = {4095, 12345, 65537, 100000, 1048576 + 3, 3000000};
    size_t *v = mtest_malloc(256 * sizeof *v);
    int k = 0;
    for (size_t s = 0; s <= 8; s++)
        v[k++] = s;
    for (size_t p = 16; p / 2 <= max && p != 0; p *= 2) {
        v[k++] = p - 1;
        v[k++] = p;
        v[k++] = p + 1;
    }
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        v[k++] = odd[i];
    qsort(v, k, sizeof *v, cmp_size);
    int m = 0;
    for (int i = 0; i < k; i++) {
        if (v[i] > max || (m > 0 && v[m - 1] == v[i]))
            continue;
        v[m++] = v[i];
    }
    *n = m;
    return v;
}

uint64_t mtest_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

size_t mtest_rand_range(uint64_t *state, size_t lo, size_t hi)
{
    return lo + (size_t)(mtest_rand(state) % (uint64_t)(hi - lo + 1));
}
