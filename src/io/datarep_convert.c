/* Data between the user's buffer and its file form under a representation
 * (MPI-4.1 sections 14.5.2 and 14.5.3). The file form is the access's
 * predefined data items back to back in typemap order, each in its file
 * representation. Items are counted as the user's conversion functions
 * count them: the predefined elements of dt's typemap (MPI_Get_elements'
 * count), dt tiled from ubuf; position is the index of the first item of a
 * piece, and ubuf stays the buffer of the whole access, so a caller may
 * convert an access in several pieces exactly as the standard lets an
 * implementation call a conversion function several times.
 *
 * native, internal and MPI_CONVERSION_FN_NULL: the items' native bytes.
 * external32: core/dtype_external32.c, whole elements of dt at once, the
 * items of a piece that starts or ends inside an element one run at a time.
 * A user representation: its conversion function; the int form takes at
 * most INT_MAX items a call, so a larger piece becomes several calls, cut
 * at element boundaries where it can be. */
#include "io/datarep_internal.h"
#include "core/dtype_external32.h"
#include <limits.h>
#include <stdint.h>

/* A piece being converted: the user's data (dt tiled from ubuf, which may be
 * MPI_BOTTOM, so addresses are integers) and the file stream. */
typedef struct piece {
    const char *fn;
    const dmpi_datarep_t *rep;
    const dmpi_dtype_t *dt;
    uintptr_t ubuf;
    unsigned char *fbuf;         /* NULL: only count the file bytes */
    MPI_Aint fpos;               /* the next byte of the file stream */
    bool to_file;
    MPI_Offset lo, hi, cur;      /* items wanted of the element being clipped, and the next item's index */
} piece_t;

/* Converts (or counts) k elements of type t at addr, whole. */
static int whole(piece_t *p, const dmpi_dtype_t *t, size_t k, uintptr_t addr)
{
    if (!p->fbuf) {
        MPI_Count bytes;
        int err = dmpi_datarep_size(p->fn, p->rep, t, (MPI_Count)k, &bytes);
        p->fpos += (MPI_Aint)bytes;
        return err;
    }
    if (p->to_file)
        return dmpi_ext32_pack(p->fn, t, k, (const void *)addr, p->fbuf, PTRDIFF_MAX, &p->fpos);
    return dmpi_ext32_unpack(p->fn, t, k, p->fbuf, PTRDIFF_MAX, &p->fpos, (void *)addr);
}

/* A run of n predefined elements of t at disp in the element being
 * clipped: the part of it inside [lo, hi). */
static int clip(void *ctx, dmpi_dtype_t *t, MPI_Aint disp, size_t n)
{
    piece_t *p = ctx;
    MPI_Offset per = (MPI_Offset)t->nbasic, first = p->cur, end = first + (MPI_Offset)n * per;
    p->cur = end;
    MPI_Offset a = first > p->lo ? first : p->lo, z = end < p->hi ? end : p->hi;
    if (a >= z)
        return 0;
    size_t j0 = (size_t)((a - first) / per), j1 = (size_t)((z - first + per - 1) / per);
    return whole(p, t, j1 - j0, p->ubuf + (uintptr_t)disp + (uintptr_t)((MPI_Aint)j0 * t->extent));
}

/* Items [lo, hi) of element e only (0 <= lo < hi <= items of one element). */
static int part(piece_t *p, MPI_Offset e, MPI_Offset lo, MPI_Offset hi)
{
    uintptr_t base = p->ubuf;
    p->ubuf += (uintptr_t)(e * p->dt->extent);
    p->lo = lo;
    p->hi = hi;
    p->cur = 0;
    int err = dmpi_dtype_walk(p->dt, 1, clip, p);
    p->ubuf = base;
    return err;
}

/* Items [first, first + n) of the tiled dt: a partial element, whole
 * elements, a partial element. */
static int items(piece_t *p, MPI_Offset first, MPI_Offset n)
{
    MPI_Offset per = (MPI_Offset)p->dt->nbasic, end = first + n, e = first / per;
    int err = MPI_SUCCESS;
    if (n <= 0 || per == 0)
        return MPI_SUCCESS;
    if (first % per) {
        MPI_Offset stop = end < (e + 1) * per ? end - e * per : per;
        if ((err = part(p, e, first % per, stop)) != MPI_SUCCESS || end <= (e + 1) * per)
            return err;
        e++;
    }
    MPI_Offset k = end / per - e;
    if (k > 0 && (err = whole(p, p->dt, (size_t)k, p->ubuf + (uintptr_t)(e * p->dt->extent))) != MPI_SUCCESS)
        return err;
    if (end % per)
        err = part(p, end / per, 0, end % per);
    return err;
}

/* Native bytes: the packed stream's bytes of items [first, first + n). */
static int native(const char *fn, const dmpi_dtype_t *dt, uintptr_t ubuf, MPI_Offset first, MPI_Offset n,
                  unsigned char *fbuf, bool to_file)
{
    size_t a, z;
    if (dmpi_dtype_elements_bytes(dt, first, &a) || dmpi_dtype_elements_bytes(dt, first + n, &z))
        return dmpi_err(MPI_ERR_COUNT, "%s: %lld data items of datatype %s are too many", fn,
                        (long long)(first + n), dmpi_dtype_desc(dt));
    if (to_file)
        dmpi_dtype_pack_range(dt, (const void *)ubuf, a, z - a, fbuf);
    else
        dmpi_dtype_unpack_range(dt, (void *)ubuf, a, z - a, fbuf);
    return MPI_SUCCESS;
}

/* The user's conversion function (to_file: write, else read) on items
 * [first, first + n). */
static int user(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *dt, uintptr_t ubuf,
                MPI_Offset first, MPI_Offset n, unsigned char *fbuf, bool to_file)
{
    MPI_Datarep_conversion_function_c *fc = to_file ? rep->write_c : rep->read_c;
    MPI_Datarep_conversion_function *fi = to_file ? rep->write : rep->read;
    const char *dir = to_file ? "write" : "read";
    MPI_Offset per = (MPI_Offset)dt->nbasic;
    piece_t p = {.fn = fn, .rep = rep, .dt = dt, .ubuf = ubuf};
    while (n > 0) {
        MPI_Offset k = n;
        int rc;
        if (fc) {
            rc = fc((void *)ubuf, dt->handle, (MPI_Count)k, fbuf + p.fpos, first, rep->extra_state);
        } else {
            if (k > INT_MAX) {
                k = INT_MAX;
                if ((first + k) / per * per > first)
                    k = (first + k) / per * per - first;     /* end at an element's end */
            }
            rc = fi((void *)ubuf, dt->handle, (int)k, fbuf + p.fpos, first, rep->extra_state);
        }
        if (rc != MPI_SUCCESS)
            return dmpi_err(MPI_ERR_CONVERSION, "%s: the %s conversion function of data representation \"%s\" "
                            "returned error %d (datatype %s, %lld items from position %lld)", fn, dir, rep->name,
                            rc, dmpi_dtype_desc(dt), (long long)k, (long long)first);
        n -= k;
        if (n > 0) {             /* the next call's data starts after these items' file bytes */
            int err = items(&p, first, k);
            if (err != MPI_SUCCESS)
                return err;
        }
        first += k;
    }
    return MPI_SUCCESS;
}

static int convert(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *dt, uintptr_t ubuf,
                   MPI_Count count, unsigned char *fbuf, MPI_Offset position, bool to_file)
{
    if (count < 0 || position < 0)
        return dmpi_err(MPI_ERR_ARG, "%s: a negative count or position for a data conversion", fn);
    MPI_Offset n = (MPI_Offset)count * (MPI_Offset)dt->nbasic;
    if (n == 0)
        return MPI_SUCCESS;
    bool has_fn = to_file ? rep->write || rep->write_c : rep->read || rep->read_c;
    if (rep->builtin == 0 && has_fn)
        return user(fn, rep, dt, ubuf, position, n, fbuf, to_file);
    if (rep->builtin == 3) {
        piece_t p = {.fn = fn, .rep = rep, .dt = dt, .ubuf = ubuf, .fbuf = fbuf, .to_file = to_file};
        return items(&p, position, n);
    }
    return native(fn, dt, ubuf, position, n, fbuf, to_file);
}

int dmpi_datarep_to_file(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *dt, const void *ubuf,
                         MPI_Count count, void *fbuf, MPI_Offset position)
{
    return convert(fn, rep, dt, (uintptr_t)ubuf, count, fbuf, position, true);
}

int dmpi_datarep_from_file(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *dt, void *ubuf,
                           MPI_Count count, const void *fbuf, MPI_Offset position)
{
    return convert(fn, rep, dt, (uintptr_t)ubuf, count, (unsigned char *)(uintptr_t)fbuf, position, false);
}
