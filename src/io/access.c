/* The data access engine: one function for the 4 positionings x read and
 * write x independent and collective. An access is a run of the view's
 * stream bytes [s, s + n) (s = position * esize) and the user's count
 * elements of dt; it moves in one of three ways:
 *   direct:    no conversion and large blocks in memory: preadv/pwritev
 *              straight between the user's buffer (its pieces as iovecs,
 *              batches of IO_IOV) and each contiguous range of the file;
 *   packed:    small blocks in memory, or a view of small pieces read with
 *              data sieving: the data goes through a buffer of IO_CHUNK
 *              bytes with the pack engine;
 *   converted: a representation that converts: whole elements at a time
 *              through dmpi_datarep_to_file / from_file.
 * A read that meets the end of the file moves less, which is not an
 * error: the status counts the bytes (of dt) that arrived. Collective
 * forms need no communication of their own (each rank's data goes
 * straight to the file); ordered access agrees on positions through the
 * shared file pointer (io/shared_fp.c). In atomic mode each access holds
 * an fcntl lock over the file range it touches. */
#include "io/io_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define IO_IOV 1024              /* iovecs per preadv/pwritev (Linux's UIO_MAXIOV) */
#define IO_SMALL_BLOCK 256       /* memory blocks below this are packed rather than sent as iovecs */
#define IO_SIEVE_BLOCK 65536     /* views of smaller pieces are read and written through a sieve */
#define IO_SIEVE_SPAN ((MPI_Offset)16 << 20)   /* the largest file range one sieve covers */

/* ---- system calls -------------------------------------------------------- */

/* preadv/pwritev of iov[0..k) at off until all of it has moved or a read
 * meets the end of the file; *done: the bytes moved. */
static int xfer(const char *fn, const dmpi_file_t *f, bool write, struct iovec *iov, int k, MPI_Offset off,
                size_t *done)
{
    size_t total = 0;
    while (k > 0 && iov->iov_len == 0)
        iov++, k--;
    while (k > 0) {
        ssize_t r = write ? pwritev(f->fd, iov, k > IO_IOV ? IO_IOV : k, off)
                          : preadv(f->fd, iov, k > IO_IOV ? IO_IOV : k, off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            *done = total;
            return io_errno(fn, write ? "write to" : "read from", f->path, errno);
        }
        if (r == 0) {
            *done = total;
            return write ? dmpi_err(MPI_ERR_IO, "%s: writing to \"%s\" made no progress", fn, f->path)
                         : MPI_SUCCESS;       /* the end of the file */
        }
        total += (size_t)r;
        off += r;
        while (k > 0 && (size_t)r >= iov->iov_len) {
            r -= (ssize_t)iov->iov_len;
            iov++, k--;
        }
        if (k > 0) {
            iov->iov_base = (char *)iov->iov_base + r;
            iov->iov_len -= (size_t)r;
        }
    }
    *done = total;
    return MPI_SUCCESS;
}

static int xfer1(const char *fn, const dmpi_file_t *f, bool write, void *p, size_t n, MPI_Offset off, size_t *done)
{
    struct iovec iov = {p, n};
    return xfer(fn, f, write, &iov, 1, off, done);
}

/* A byte-range lock (read or write) over [lo, hi), or its release: 0 or an errno value. */
static int try_lock(const dmpi_file_t *f, short type, MPI_Offset lo, MPI_Offset hi)
{
    struct flock l = {.l_type = type, .l_whence = SEEK_SET, .l_start = lo, .l_len = hi - lo};
    int cmd = F_SETLKW;
#ifdef F_OFD_SETLKW
    cmd = F_OFD_SETLKW;          /* the open file's lock, not the process's: two handles on one file exclude */
#endif
    for (;;) {
        if (fcntl(f->fd, cmd, &l) == 0)
            return 0;
        if (errno == EINTR)
            continue;
#ifdef F_OFD_SETLKW
        if (errno == EINVAL && cmd == F_OFD_SETLKW) {
            cmd = F_SETLKW;      /* an older kernel */
            continue;
        }
#endif
        return errno;
    }
}

static int lock_range(const char *fn, const dmpi_file_t *f, short type, MPI_Offset lo, MPI_Offset hi)
{
    int e = try_lock(f, type, lo, hi);
    return e ? io_errno(fn, "lock a range of", f->path, e) : MPI_SUCCESS;
}

/* Outside atomic mode, every write holds a write lock over the range it
 * writes, so that no write lands between the read and the write back of
 * another rank's read-modify-write (sieve_write). A file system without
 * locks gets neither: plain writes, one per piece. false: no lock taken. */
static bool write_lock(const char *fn, const dmpi_file_t *f, MPI_Offset lo, MPI_Offset hi, int *err)
{
    *err = MPI_SUCCESS;
    if (f->atomic || (f->view->flags & IO_NO_LOCKS) || hi <= lo)
        return false;            /* atomic mode: the whole access holds its lock already */
    int e = try_lock(f, F_WRLCK, lo, hi);
    if (e == 0)
        return true;
    if (e == ENOLCK || e == EINVAL || e == EOPNOTSUPP || e == ENOSYS)
        f->view->flags |= IO_NO_LOCKS;
    else
        *err = io_errno(fn, "lock a range of", f->path, e);
    return false;
}

static void write_unlock(const dmpi_file_t *f, bool locked, MPI_Offset lo, MPI_Offset hi)
{
    if (locked)
        try_lock(f, F_UNLCK, lo, hi);
}

/* One contiguous range of the file written under its lock (or read). */
static int xfer_range(const char *fn, const dmpi_file_t *f, bool write, struct iovec *iov, int k, MPI_Offset off,
                      size_t len, size_t *done)
{
    int err;
    bool locked = write && write_lock(fn, f, off, off + (MPI_Offset)len, &err);
    if (write && err != MPI_SUCCESS) {
        *done = 0;
        return err;
    }
    err = xfer(fn, f, write, iov, k, off, done);
    write_unlock(f, locked, off, off + (MPI_Offset)len);
    return err;
}

/* ---- the file side: stream bytes <-> a contiguous buffer --------------------- */

/* Reads stream bytes [s, s + m) into buf through one read of the file range
 * they span (the view's pieces are small and close together). */
static int sieve_read(const char *fn, const dmpi_file_t *f, MPI_Offset s, char *buf, size_t m, MPI_Offset lo,
                      MPI_Offset hi, size_t *got)
{
    char *sieve = malloc((size_t)(hi - lo));
    if (!sieve)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for a read buffer", fn);
    size_t have;
    int err = xfer1(fn, f, false, sieve, (size_t)(hi - lo), lo, &have);
    io_seg_iter_t it;
    io_seg_start(&it, f, s);
    size_t q = 0;
    while (err == MPI_SUCCESS && q < m) {
        MPI_Offset off, len = io_seg_next(&it, (MPI_Offset)(m - q), &off);
        if (off - lo >= (MPI_Offset)have)
            break;
        MPI_Offset avail = (MPI_Offset)have - (off - lo);
        if (avail > len)
            avail = len;
        memcpy(buf + q, sieve + (off - lo), (size_t)avail);
        q += (size_t)avail;
        if (avail < len)
            break;
    }
    free(sieve);
    *got = q;
    return err;
}

/* Writes stream bytes [s, s + m) from buf by read-modify-write of the file
 * range they span, under a write lock. *done false: nothing was written
 * (no locks, or no memory): the caller writes piece by piece. */
static int sieve_write(const char *fn, const dmpi_file_t *f, MPI_Offset s, const char *buf, size_t m,
                       MPI_Offset lo, MPI_Offset hi, bool *done)
{
    *done = false;
    size_t span = (size_t)(hi - lo), have = 0;
    char *sieve = malloc(span);
    if (!sieve)
        return MPI_SUCCESS;      /* piece by piece needs no buffer */
    int err;
    bool locked = write_lock(fn, f, lo, hi, &err);
    if (err != MPI_SUCCESS || (!locked && !f->atomic)) {
        free(sieve);
        return err;
    }
    err = xfer1(fn, f, false, sieve, span, lo, &have);
    if (err == MPI_SUCCESS) {
        memset(sieve + have, 0, span - have);  /* beyond the end: the holes read as zeros */
        io_seg_iter_t it;
        io_seg_start(&it, f, s);
        for (size_t q = 0; q < m;) {
            MPI_Offset off, len = io_seg_next(&it, (MPI_Offset)(m - q), &off);
            memcpy(sieve + (off - lo), buf + q, (size_t)len);
            q += (size_t)len;
        }
        size_t wrote;
        err = xfer1(fn, f, true, sieve, span, lo, &wrote);
        *done = true;
    }
    write_unlock(f, locked, lo, hi);
    free(sieve);
    return err;
}

/* Whether the view's pieces are small (and dense) enough to read and write
 * through a sieve. */
static bool sieved(const dmpi_file_t *f, bool write)
{
    const struct io_view *v = f->view;
    if (v->contig || v->tile_size / v->blocks >= IO_SIEVE_BLOCK || v->tile_extent > 64 * v->tile_size)
        return false;
    return !write || !(v->flags & (IO_NO_LOCKS | IO_NO_RMW));
}

/* Stream bytes [s, s + m) one file range at a time. */
static int piecewise(const char *fn, const dmpi_file_t *f, bool write, MPI_Offset s, char *buf, size_t m,
                     size_t *got)
{
    io_seg_iter_t it;
    io_seg_start(&it, f, s);
    size_t q = 0;
    int err = MPI_SUCCESS;
    while (q < m) {
        MPI_Offset off, len = io_seg_next(&it, (MPI_Offset)(m - q), &off);
        size_t done;
        struct iovec iov = {buf + q, (size_t)len};
        err = xfer_range(fn, f, write, &iov, 1, off, (size_t)len, &done);
        q += done;
        if (err != MPI_SUCCESS || done < (size_t)len)
            break;
    }
    *got = q;
    return err;
}

/* Moves stream bytes [s, s + m) between the file and buf; *got: the bytes
 * moved (a read stops at the end of the file). Through a sieve, parts of
 * the stream whose file range is at most IO_SIEVE_SPAN bytes at a time. */
static int file_side(const char *fn, const dmpi_file_t *f, bool write, MPI_Offset s, char *buf, size_t m,
                     size_t *got)
{
    if (!sieved(f, write))
        return piecewise(fn, f, write, s, buf, m, got);
    int err = MPI_SUCCESS;
    size_t q = 0, part = m;
    while (q < m && err == MPI_SUCCESS) {
        if (part > m - q)
            part = m - q;
        MPI_Offset lo = io_view_offset(f, s + (MPI_Offset)q), hi;
        while ((hi = io_view_offset(f, s + (MPI_Offset)(q + part) - 1) + 1) - lo > IO_SIEVE_SPAN &&
               part > IO_SIEVE_BLOCK)
            part /= 2;
        size_t n = 0;
        bool done = false;
        if (hi - lo <= IO_SIEVE_SPAN) {
            if (!write) {
                err = sieve_read(fn, f, s + (MPI_Offset)q, buf + q, part, lo, hi, &n);
                done = true;
            } else if ((err = sieve_write(fn, f, s + (MPI_Offset)q, buf + q, part, lo, hi, &done)) == MPI_SUCCESS &&
                       done) {
                n = part;
            }
        }
        if (!done && err == MPI_SUCCESS)
            err = piecewise(fn, f, write, s + (MPI_Offset)q, buf + q, part, &n);
        q += n;
        if (n < part)
            break;
    }
    *got = q;
    return err;
}

/* ---- the three ways ---------------------------------------------------------- */

typedef struct access {
    const char *fn;
    dmpi_file_t *f;
    bool write;
    MPI_Offset s, n;             /* stream bytes */
    char *buf;
    MPI_Count count;
    dmpi_dtype_t *dt;
    MPI_Offset moved;            /* stream bytes moved */
    size_t ubytes;               /* bytes of dt moved: the status' count */
} access_t;

static int move_direct(access_t *a)
{
    io_seg_iter_t it;
    io_seg_start(&it, a->f, a->s);
    struct iovec iov[IO_IOV];
    MPI_Offset p = 0;
    while (p < a->n) {
        MPI_Offset off, len = io_seg_next(&it, a->n - p, &off), q = 0;
        while (q < len) {
            size_t cov, done;
            int k = dmpi_dtype_iov(a->dt, a->buf, (size_t)(p + q), (size_t)(len - q), iov, IO_IOV, &cov);
            int err = xfer_range(a->fn, a->f, a->write, iov, k, off + q, cov, &done);
            q += (MPI_Offset)done;
            if (err != MPI_SUCCESS || done < cov) {
                a->moved = p + q;
                a->ubytes = (size_t)(p + q);
                return err;
            }
        }
        p += len;
    }
    a->moved = p;
    a->ubytes = (size_t)p;
    return MPI_SUCCESS;
}

static int move_packed(access_t *a)
{
    size_t chunk = a->n < (MPI_Offset)IO_CHUNK ? (size_t)a->n : IO_CHUNK;
    char *stage = malloc(chunk);
    if (!stage)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for a staging buffer", a->fn);
    int err = MPI_SUCCESS;
    MPI_Offset p = 0;
    while (p < a->n) {
        size_t m = a->n - p < (MPI_Offset)chunk ? (size_t)(a->n - p) : chunk, got;
        if (a->write)
            dmpi_dtype_pack_range(a->dt, a->buf, (size_t)p, m, stage);
        err = file_side(a->fn, a->f, a->write, a->s + p, stage, m, &got);
        if (!a->write)
            dmpi_dtype_unpack_range(a->dt, a->buf, (size_t)p, got, stage);
        p += (MPI_Offset)got;
        if (err != MPI_SUCCESS || got < m)
            break;
    }
    free(stage);
    a->moved = p;
    a->ubytes = (size_t)p;
    return err;
}

static int move_converted(access_t *a)
{
    const dmpi_datarep_t *rep = a->f->rep;
    MPI_Count fsz;               /* file bytes of one element */
    int err = dmpi_datarep_size(a->fn, rep, a->dt, 1, &fsz);
    if (err != MPI_SUCCESS)
        return err;
    MPI_Count per = (MPI_Count)IO_CHUNK / fsz > 0 ? (MPI_Count)IO_CHUNK / fsz : 1;
    if (per > a->count)
        per = a->count;
    char *stage = malloc((size_t)(per * fsz));
    if (!stage)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for a conversion buffer", a->fn);
    MPI_Count e = 0;
    while (e < a->count) {
        MPI_Count k = a->count - e < per ? a->count - e : per;
        MPI_Offset items = e * (MPI_Offset)a->dt->nbasic;   /* the position conversion functions see */
        size_t got = 0;
        if (a->write) {
            if ((err = dmpi_datarep_to_file(a->fn, rep, a->dt, a->buf, k, stage, items)) != MPI_SUCCESS)
                break;
            err = file_side(a->fn, a->f, true, a->s + e * fsz, stage, (size_t)(k * fsz), &got);
        } else {
            err = file_side(a->fn, a->f, false, a->s + e * fsz, stage, (size_t)(k * fsz), &got);
            MPI_Count whole = (MPI_Count)got / fsz;
            int e2 = whole > 0 ? dmpi_datarep_from_file(a->fn, rep, a->dt, a->buf, whole, stage, items) : MPI_SUCCESS;
            if (err == MPI_SUCCESS)
                err = e2;
        }
        a->moved += (MPI_Offset)got;
        MPI_Count whole = (MPI_Count)got / fsz;
        a->ubytes += (size_t)whole * a->dt->size;
        e += whole;
        if (err != MPI_SUCCESS || whole < k)
            break;
    }
    free(stage);
    return err;
}

/* Whether dt's blocks are large enough to go to the file as iovecs. */
static bool large_blocks(const dmpi_dtype_t *dt)
{
    if (dt->contig)
        return true;
    size_t blocks = 0;
    for (int i = 0; i < dt->nruns; i++)
        blocks += dt->runs[i].count;
    return blocks == 0 || dt->size / blocks >= IO_SMALL_BLOCK;
}

static int move(access_t *a)
{
    const struct io_view *v = a->f->view;
    if (v->converts)
        return move_converted(a);
    if (large_blocks(a->dt) && !sieved(a->f, a->write))
        return move_direct(a);
    return move_packed(a);
}

/* ---- checks and the access ----------------------------------------------------- */

int io_access_check(const char *fn, dmpi_file_t *f, int how, MPI_Offset offset, MPI_Count count, dmpi_dtype_t *dt)
{
    int pos = how & DMPI_IO_POS_MASK;
    bool write = how & DMPI_IO_WRITE;
    if (write && (f->amode & MPI_MODE_RDONLY))
        return dmpi_err(MPI_ERR_ACCESS, "%s: the file was opened MPI_MODE_RDONLY", fn);
    if (!write && (f->amode & MPI_MODE_WRONLY))
        return dmpi_err(MPI_ERR_ACCESS, "%s: the file was opened MPI_MODE_WRONLY", fn);
    if ((pos == DMPI_IO_AT || pos == DMPI_IO_INDIVIDUAL) && (f->amode & MPI_MODE_SEQUENTIAL))
        return dmpi_err(MPI_ERR_UNSUPPORTED_OPERATION, "%s: the file was opened MPI_MODE_SEQUENTIAL, which allows "
                        "only the shared file pointer", fn);
    if (pos == DMPI_IO_AT && offset < 0)
        return dmpi_err(MPI_ERR_ARG, "%s: offset %ld is negative", fn, (long)offset);
    if (count > 0 && !io_made_of(f->etype, dt))
        return dmpi_err(MPI_ERR_TYPE, "%s: datatype %s (%zu bytes) is not made of whole etypes %s (%zu bytes)", fn,
                        dmpi_dtype_desc(dt), dt->size, dmpi_dtype_desc(f->etype), f->etype->size);
    return MPI_SUCCESS;
}

/* The access's size in stream bytes (*n) and etypes (*netypes). */
static int access_size(const char *fn, dmpi_file_t *f, MPI_Count count, dmpi_dtype_t *dt, MPI_Offset *n,
                       MPI_Offset *netypes)
{
    MPI_Offset bytes = 0, e = f->view->esize;
    if (count > 0 && dt->size > 0) {
        if (f->view->converts) {
            MPI_Count b;
            int err = dmpi_datarep_size(fn, f->rep, dt, count, &b);
            if (err != MPI_SUCCESS)
                return err;
            bytes = b;
        } else if ((size_t)count > (size_t)INT64_MAX / dt->size) {
            return dmpi_err(MPI_ERR_COUNT, "%s: %ld elements of %zu bytes are more than a file holds", fn,
                            (long)count, dt->size);
        } else {
            bytes = count * (MPI_Offset)dt->size;
        }
    }
    if (bytes % e != 0)
        return dmpi_err(MPI_ERR_TYPE, "%s: the data (%ld bytes in the file) is not made of whole etypes (%ld "
                        "bytes)", fn, (long)bytes, (long)e);
    *n = bytes;
    *netypes = bytes / e;
    return MPI_SUCCESS;
}

int io_access_run(const char *fn, dmpi_file_t *f, int how, MPI_Offset offset, void *buf, MPI_Count count,
                  dmpi_dtype_t *dt, int err, size_t *bytes)
{
    int pos = how & DMPI_IO_POS_MASK;
    MPI_Offset n = 0, netypes = 0, start = 0, e = f->view->esize;
    *bytes = 0;
    if (err == MPI_SUCCESS)
        err = access_size(fn, f, count, dt, &n, &netypes);
    switch (pos) {
    case DMPI_IO_AT: start = offset; break;
    case DMPI_IO_INDIVIDUAL: start = f->fp; break;
    case DMPI_IO_SHARED:
        if (err == MPI_SUCCESS && netypes > 0)
            err = io_shared_fetch_add(fn, f, netypes, &start);
        break;
    default: {                   /* ordered: collective, even for a rank that failed */
        int e2 = io_shared_ordered(fn, f, err == MPI_SUCCESS ? netypes : 0, &start);
        if (err == MPI_SUCCESS)
            err = e2;
    }
    }
    if (err != MPI_SUCCESS || n == 0)
        return err;
    if (start > (INT64_MAX - n) / e)
        return dmpi_err(MPI_ERR_ARG, "%s: position %ld is beyond any file", fn, (long)start);
    access_t a = {fn, f, how & DMPI_IO_WRITE, start * e, n, buf, count, dt, 0, 0};
    MPI_Offset lo = 0, hi = 0;
    if (f->atomic) {
        lo = io_view_offset(f, a.s);
        hi = io_view_offset(f, a.s + n - 1) + 1;
        if ((err = lock_range(fn, f, a.write ? F_WRLCK : F_RDLCK, lo, hi)) != MPI_SUCCESS)
            return err;
    }
    err = move(&a);
    if (f->atomic) {
        int e2 = lock_range(fn, f, F_UNLCK, lo, hi);
        if (err == MPI_SUCCESS)
            err = e2;
    }
    if (pos == DMPI_IO_INDIVIDUAL)
        f->fp = start + a.moved / e;
    *bytes = a.ubytes;
    return err;
}

/* The status of a file access: the bytes of dt moved (MPI_Get_count and
 * MPI_Get_elements work from them); MPI_ERROR is left as it was. */
static void set_status(MPI_Status *status, size_t bytes)
{
    if (!status || status == MPI_STATUS_IGNORE)
        return;
    int keep = status->MPI_ERROR;
    dmpi_status_set(status, MPI_ANY_SOURCE, MPI_ANY_TAG, keep, bytes, false);
}

int dmpi_file_access(const char *fn, dmpi_file_t *f, int how, MPI_Offset offset, void *buf, MPI_Count count,
                     dmpi_dtype_t *dt, MPI_Status *status)
{
    int err = io_access_check(fn, f, how, offset, count, dt);
    size_t bytes = 0;
    if (err == MPI_SUCCESS || (how & DMPI_IO_POS_MASK) == DMPI_IO_ORDERED)
        err = io_access_run(fn, f, how, offset, buf, count, dt, err, &bytes);
    set_status(status, bytes);
    return err;
}

int dmpi_file_iaccess(const char *fn, dmpi_file_t *f, int how, MPI_Offset offset, void *buf, MPI_Count count,
                      dmpi_dtype_t *dt, dmpi_request_t **req)
{
    int err = io_access_check(fn, f, how, offset, count, dt);
    if (err != MPI_SUCCESS)
        return err;              /* a wrong call, not a failed transfer: no request */
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_PROC_NULL);   /* a request complete from the start */
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of request objects", fn);
    size_t bytes = 0;
    err = io_access_run(fn, f, how, offset, buf, count, dt, MPI_SUCCESS, &bytes);
    dmpi_req_set_empty_status(r, err);
    r->st_bytes = bytes;
    r->done = 1;
    *req = r;
    return MPI_SUCCESS;
}
