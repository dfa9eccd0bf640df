/*
 * io_util.h - helpers shared by the MPI-IO tests (io_*.c), on top of
 * mtest.h.
 *
 * File names: io_name(buf, tag, comm) gives every rank of comm the same
 * unique name "$TMPDIR/dmpi_io_<tag>_<pid of rank 0>_<counter>" (TMPDIR
 * unset or empty: /tmp); io_name_self() one for this rank alone. The
 * programs delete what they create (io_unlink()).
 *
 * Patterns: io_byte(seed, k) is byte k of a stream hashed from seed;
 * io_seed(rank, case) makes a seed, so bytes from the wrong rank, case or
 * stream position are told apart. io_fill() writes a stream.
 *
 * The file is also read with plain POSIX calls (io_posix_read,
 * io_posix_size), so what MPI says it wrote is checked against the bytes
 * that are really there.
 *
 * io_check_class(rc, cls, ...) is mtest_check_class() with the names of
 * the I/O error classes in its messages.
 */
#ifndef IO_UTIL_H
#define IO_UTIL_H

#include "mtest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline uint64_t io_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t io_seed(int rank, int salt)
{
    return io_mix(((uint64_t)(uint32_t)rank << 32) ^ (uint64_t)(uint32_t)salt ^ 0x51ed270bull);
}

static inline unsigned char io_byte(uint64_t seed, uint64_t k)
{
    return (unsigned char)(io_mix(seed ^ ((k / 8) * 0xd1b54a32d192ed03ull)) >> (8 * (k % 8)));
}

/* Bytes [first, first + n) of the stream of seed. */
static inline void io_fill(void *buf, size_t n, uint64_t seed, uint64_t first)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < n; i++)
        p[i] = io_byte(seed, first + i);
}

/* Compares buf with bytes [first, first + n) of the stream of seed; one
 * error, naming the first wrong byte, if they differ. */
static inline int io_check_stream_at(const char *file, int line, const void *buf, size_t n, uint64_t seed,
                                     uint64_t first, const char *what)
{
    const unsigned char *p = buf;
    size_t bad = 0, firstbad = 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] != io_byte(seed, first + i) && bad++ == 0)
            firstbad = i;
    if (bad == 0)
        return 1;
    mtest_fail_at(file, line, "%s: %zu of %zu bytes wrong, the first at %zu: 0x%02x, expected 0x%02x", what, bad, n,
                  firstbad, p[firstbad], io_byte(seed, first + firstbad));
    return 0;
}
#define io_check_stream(buf, n, seed, first, what) \
    io_check_stream_at(__FILE__, __LINE__, (buf), (n), (seed), (first), (what))

/* Compares n bytes with an expected image. */
static inline int io_compare_at(const char *file, int line, const void *got, const void *want, size_t n,
                                const char *what)
{
    const unsigned char *g = got, *w = want;
    size_t bad = 0, firstbad = 0;
    for (size_t i = 0; i < n; i++)
        if (g[i] != w[i] && bad++ == 0)
            firstbad = i;
    if (bad == 0)
        return 1;
    mtest_fail_at(file, line, "%s: %zu of %zu bytes wrong, the first at %zu: 0x%02x, expected 0x%02x", what, bad, n,
                  firstbad, g[firstbad], w[firstbad]);
    return 0;
}
#define io_compare(got, want, n, what) io_compare_at(__FILE__, __LINE__, (got), (want), (n), (what))

static inline const char *io_tmpdir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

/* A name for this rank alone. */
static inline void io_name_self(char *buf, size_t len, const char *tag)
{
    static int counter;
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    snprintf(buf, len, "%s/dmpi_io_%s_%ld_r%d_%d", io_tmpdir(), tag, (long)getpid(), r, counter++);
}

/* The same name on every rank of comm (collective). */
static inline void io_name(char *buf, size_t len, const char *tag, MPI_Comm comm)
{
    static int counter;
    long pid = (long)getpid();
    MPI_Bcast(&pid, 1, MPI_LONG, 0, comm);
    snprintf(buf, len, "%s/dmpi_io_%s_%ld_%d", io_tmpdir(), tag, pid, counter++);
}

static inline void io_unlink(const char *path)
{
    if (unlink(path) != 0 && errno != ENOENT)
        mtest_fail("unlink(%s): %s", path, strerror(errno));
}

/* The file's size by stat(); -1 if it does not exist. */
static inline long long io_posix_size(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    return (long long)st.st_size;
}

/* pread of n bytes at off; returns the bytes read (less at the end). */
static inline long long io_posix_read(const char *path, long long off, void *buf, size_t n)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        mtest_fail("open(%s) for reading: %s", path, strerror(errno));
        return -1;
    }
    size_t done = 0;
    while (done < n) {
        ssize_t k = pread(fd, (char *)buf + done, n - done, (off_t)(off + (long long)done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        done += (size_t)k;
    }
    close(fd);
    return (long long)done;
}

/* Creates (or truncates) path with n bytes of content by plain POSIX. */
static inline void io_posix_write(const char *path, const void *buf, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        mtest_fail("open(%s) for writing: %s", path, strerror(errno));
        return;
    }
    if (n && write(fd, buf, n) != (ssize_t)n)
        mtest_fail("write(%s): %s", path, strerror(errno));
    close(fd);
}

static inline int io_class(int rc)
{
    int c = -1;
    if (MPI_Error_class(rc, &c) != MPI_SUCCESS)
        return -1;
    return c;
}

static inline const char *io_class_name(int cls)
{
    switch (cls) {
    case MPI_ERR_FILE: return "MPI_ERR_FILE";
    case MPI_ERR_NOT_SAME: return "MPI_ERR_NOT_SAME";
    case MPI_ERR_AMODE: return "MPI_ERR_AMODE";
    case MPI_ERR_UNSUPPORTED_DATAREP: return "MPI_ERR_UNSUPPORTED_DATAREP";
    case MPI_ERR_UNSUPPORTED_OPERATION: return "MPI_ERR_UNSUPPORTED_OPERATION";
    case MPI_ERR_NO_SUCH_FILE: return "MPI_ERR_NO_SUCH_FILE";
    case MPI_ERR_FILE_EXISTS: return "MPI_ERR_FILE_EXISTS";
    case MPI_ERR_BAD_FILE: return "MPI_ERR_BAD_FILE";
    case MPI_ERR_ACCESS: return "MPI_ERR_ACCESS";
    case MPI_ERR_NO_SPACE: return "MPI_ERR_NO_SPACE";
    case MPI_ERR_QUOTA: return "MPI_ERR_QUOTA";
    case MPI_ERR_READ_ONLY: return "MPI_ERR_READ_ONLY";
    case MPI_ERR_FILE_IN_USE: return "MPI_ERR_FILE_IN_USE";
    case MPI_ERR_DUP_DATAREP: return "MPI_ERR_DUP_DATAREP";
    case MPI_ERR_CONVERSION: return "MPI_ERR_CONVERSION";
    case MPI_ERR_IO: return "MPI_ERR_IO";
    default: return mtest_class_name(cls);
    }
}

static inline int io_check_class_at(const char *file, int line, int rc, int cls, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static inline int io_check_class_at(const char *file, int line, int rc, int cls, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int got = rc == MPI_SUCCESS ? MPI_SUCCESS : io_class(rc);
    if (got != cls) {
        mtest_fail_at(file, line, "%s: returned %s, expected %s", what, io_class_name(got), io_class_name(cls));
        return 0;
    }
    if (rc == MPI_SUCCESS)
        return 1;
    return mtest_check_class_at(file, line, rc, cls, "%s", what);
}
#define io_check_class(rc, cls, ...) io_check_class_at(__FILE__, __LINE__, (rc), (cls), __VA_ARGS__)

/* Checks MPI_Get_count and MPI_Get_elements of st against count and
 * elements (MTEST_DONTCARE skips one). */
static inline int io_check_status_at(const char *file, int line, const MPI_Status *st, MPI_Datatype dt, int count,
                                     int elements, const char *what)
{
    int ok = 1, c = -77, e = -77;
    if (count != MTEST_DONTCARE) {
        MPI_Get_count(st, dt, &c);
        if (c != count) {
            mtest_fail_at(file, line, "%s: MPI_Get_count gives %d, expected %d", what, c, count);
            ok = 0;
        }
    }
    if (elements != MTEST_DONTCARE) {
        MPI_Get_elements(st, dt, &e);
        if (e != elements) {
            mtest_fail_at(file, line, "%s: MPI_Get_elements gives %d, expected %d", what, e, elements);
            ok = 0;
        }
    }
    return ok;
}
#define io_check_status(st, dt, count, elements, what) \
    io_check_status_at(__FILE__, __LINE__, (st), (dt), (count), (elements), (what))

/* Frees a handler that File_get_errhandler returned (a new reference,
 * MPI-4.1 9.3.1). MPICH 4.0.2's ROMIO hands out the handler without a
 * reference, and freeing it aborts there. */
static inline void io_free_errhandler(MPI_Errhandler *eh)
{
    if (MTEST_MPICH_DEVIATION || *eh == MPI_ERRHANDLER_NULL)
        return;
    MPI_Errhandler_free(eh);
}

/* A file operation that must succeed: reports the class if it does not. */
#define IO_RC(call) io_rc_at(__FILE__, __LINE__, (call), #call)
static inline int io_rc_at(const char *file, int line, int rc, const char *what)
{
    if (rc == MPI_SUCCESS)
        return 1;
    char s[MPI_MAX_ERROR_STRING + 1] = "";
    int len = 0;
    MPI_Error_string(rc, s, &len);
    mtest_fail_at(file, line, "%s returned %s: %s", what, io_class_name(io_class(rc)), s);
    return 0;
}

#endif
