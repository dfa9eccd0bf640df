/* The "external32" representation (MPI-4.0 section 14.5.2): big-endian,
 * two's complement and IEEE floats, with the fixed sizes of the standard's
 * table whatever the platform: LONG and UNSIGNED_LONG 4 bytes (the table
 * is ILP32's; values outside 32 bits lose their high bytes, as in MPICH and
 * Open MPI), WCHAR 2 (a UTF-16 unit), AINT/OFFSET/COUNT 8, C and C++ bool 1
 * (any nonzero byte is true), long double 16 bytes of IEEE binary128. A type's data is visited in typemap
 * order (dmpi_dtype_walk); each predefined element is one or two parts:
 * complex numbers are two floats, the MINLOC/MAXLOC pair types a value and
 * an int, each part converted on its own. x86_64 long double is the x87
 * 80-bit format, converted to and from binary128 here. */
#include "core/dtype_external32.h"
#include "core/dtype_internal.h"
#include <float.h>
#include <string.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "external32 conversion assumes a little-endian host"
#endif

enum {
    K_NONE,                      /* no external32 form: a zero-size marker */
    K_COPY,                      /* bytes as they are */
    K_SINT,                      /* two's complement, sign-extended if it grows */
    K_UINT,                      /* unsigned integers and IEEE floats: byte order only */
    K_BOOL,                      /* one byte, 0 or 1 natively; nonzero is true */
    K_LDBL                       /* the C long double */
};
#if LDBL_MANT_DIG == 64
#define LDBL_IS_X87 1
#elif LDBL_MANT_DIG == 113
#define LDBL_IS_X87 0            /* already binary128: byte order only */
#else
#error "external32: unsupported long double format"
#endif

/* One part of a predefined element: its kind, native and external sizes,
 * and its offset inside the element. */
typedef struct part {
    unsigned char kind, nsize, xsize, off;
} part_t;

/* Predefined types by handle index: kind, external bytes of a part, parts. */
static const struct {
    unsigned char kind, xsize, parts;
} xrep[DMPI_BUILTIN_TYPES] = {
    [0x01] = {K_COPY, 1, 1},     /* MPI_CHAR */
    [0x02] = {K_COPY, 1, 1},     /* MPI_UNSIGNED_CHAR */
    [0x03] = {K_SINT, 2, 1},     /* MPI_SHORT */
    [0x04] = {K_UINT, 2, 1},     /* MPI_UNSIGNED_SHORT */
    [0x05] = {K_SINT, 4, 1},     /* MPI_INT */
    [0x06] = {K_UINT, 4, 1},     /* MPI_UNSIGNED */
    [0x07] = {K_SINT, 4, 1},     /* MPI_LONG */
    [0x08] = {K_UINT, 4, 1},     /* MPI_UNSIGNED_LONG */
    [0x09] = {K_SINT, 8, 1},     /* MPI_LONG_LONG_INT */
    [0x0a] = {K_UINT, 4, 1},     /* MPI_FLOAT */
    [0x0b] = {K_UINT, 8, 1},     /* MPI_DOUBLE */
    [0x0c] = {K_LDBL, 16, 1},    /* MPI_LONG_DOUBLE */
    [0x0d] = {K_COPY, 1, 1},     /* MPI_BYTE */
    [0x0e] = {K_UINT, 2, 1},     /* MPI_WCHAR */
    [0x0f] = {K_COPY, 1, 1},     /* MPI_PACKED */
    [0x16] = {K_SINT, 4, 2},     /* MPI_2INT */
    [0x18] = {K_COPY, 1, 1},     /* MPI_SIGNED_CHAR */
    [0x19] = {K_UINT, 8, 1},     /* MPI_UNSIGNED_LONG_LONG */
    [0x1a] = {K_COPY, 1, 1},     /* MPI_CHARACTER */
    [0x1b] = {K_SINT, 4, 1},     /* MPI_INTEGER */
    [0x1c] = {K_UINT, 4, 1},     /* MPI_REAL */
    [0x1d] = {K_SINT, 4, 1},     /* MPI_LOGICAL */
    [0x1e] = {K_UINT, 4, 2},     /* MPI_COMPLEX */
    [0x1f] = {K_UINT, 8, 1},     /* MPI_DOUBLE_PRECISION */
    [0x20] = {K_SINT, 4, 2},     /* MPI_2INTEGER */
    [0x21] = {K_UINT, 4, 2},     /* MPI_2REAL */
    [0x22] = {K_UINT, 8, 2},     /* MPI_DOUBLE_COMPLEX */
    [0x23] = {K_UINT, 8, 2},     /* MPI_2DOUBLE_PRECISION */
    [0x26] = {K_UINT, 2, 1},     /* MPI_REAL2: IEEE binary16 */
    [0x27] = {K_UINT, 4, 1},     /* MPI_REAL4 */
    [0x28] = {K_UINT, 4, 2},     /* MPI_COMPLEX8 */
    [0x29] = {K_UINT, 8, 1},     /* MPI_REAL8 */
    [0x2a] = {K_UINT, 8, 2},     /* MPI_COMPLEX16 */
    [0x2b] = {K_UINT, 16, 1},    /* MPI_REAL16: Fortran's REAL(16) is binary128 already */
    [0x2c] = {K_UINT, 16, 2},    /* MPI_COMPLEX32 */
    [0x2d] = {K_SINT, 1, 1},     /* MPI_INTEGER1 */
    [0x2e] = {K_UINT, 2, 2},     /* MPI_COMPLEX4 */
    [0x2f] = {K_SINT, 2, 1},     /* MPI_INTEGER2 */
    [0x30] = {K_SINT, 4, 1},     /* MPI_INTEGER4 */
    [0x31] = {K_SINT, 8, 1},     /* MPI_INTEGER8 */
    [0x32] = {K_SINT, 16, 1},    /* MPI_INTEGER16 */
    [0x33] = {K_BOOL, 1, 1},     /* MPI_CXX_BOOL */
    [0x34] = {K_UINT, 4, 2},     /* MPI_CXX_FLOAT_COMPLEX */
    [0x35] = {K_UINT, 8, 2},     /* MPI_CXX_DOUBLE_COMPLEX */
    [0x36] = {K_LDBL, 16, 2},    /* MPI_CXX_LONG_DOUBLE_COMPLEX */
    [0x37] = {K_SINT, 1, 1},     /* MPI_INT8_T */
    [0x38] = {K_SINT, 2, 1},     /* MPI_INT16_T */
    [0x39] = {K_SINT, 4, 1},     /* MPI_INT32_T */
    [0x3a] = {K_SINT, 8, 1},     /* MPI_INT64_T */
    [0x3b] = {K_UINT, 1, 1},     /* MPI_UINT8_T */
    [0x3c] = {K_UINT, 2, 1},     /* MPI_UINT16_T */
    [0x3d] = {K_UINT, 4, 1},     /* MPI_UINT32_T */
    [0x3e] = {K_UINT, 8, 1},     /* MPI_UINT64_T */
    [0x3f] = {K_BOOL, 1, 1},     /* MPI_C_BOOL */
    [0x40] = {K_UINT, 4, 2},     /* MPI_C_FLOAT_COMPLEX */
    [0x41] = {K_UINT, 8, 2},     /* MPI_C_DOUBLE_COMPLEX */
    [0x42] = {K_LDBL, 16, 2},    /* MPI_C_LONG_DOUBLE_COMPLEX */
    [0x43] = {K_SINT, 8, 1},     /* MPI_AINT */
    [0x44] = {K_SINT, 8, 1},     /* MPI_OFFSET */
    [0x45] = {K_SINT, 8, 1},     /* MPI_COUNT */
    [0x46] = {K_UINT, 2, 1},     /* MPIX_C_FLOAT16: IEEE binary16 */
    [0x47] = {K_SINT, 1, 1},     /* MPI_LOGICAL1 ... */
    [0x48] = {K_SINT, 2, 1},
    [0x49] = {K_SINT, 4, 1},
    [0x4a] = {K_SINT, 8, 1},
    [0x4b] = {K_SINT, 16, 1},    /* ... MPI_LOGICAL16 */
    [0x4c] = {K_UINT, 2, 1},     /* MPIX_BFLOAT16 */
};

/* The parts of one element of predefined type t; 0 if t has none. */
static int describe(const dmpi_dtype_t *t, part_t parts[2])
{
    MPI_Datatype value = dmpi_dtype_pair_value(t);
    if (value != MPI_DATATYPE_NULL) {            /* MINLOC/MAXLOC pair: value, then int */
        if (describe(dmpi_dtype_get(value), parts) != 1)
            return 0;
        parts[1] = (part_t){K_SINT, sizeof(int), 4, (unsigned char)(t->true_extent - (MPI_Aint)sizeof(int))};
        return 2;
    }
    if (t->predefined && t->contents)            /* MPI_Type_create_f90_*: as its sized type */
        return describe(dmpi_dtype_get(t->basic), parts);
    unsigned i = (unsigned)t->handle & 0xff;
    if (!t->predefined || t->size == 0 || i >= DMPI_BUILTIN_TYPES || xrep[i].kind == K_NONE)
        return 0;
    int n = xrep[i].parts;
    unsigned char nsize = (unsigned char)(t->size / (size_t)n);
    for (int p = 0; p < n; p++)
        parts[p] = (part_t){xrep[i].kind, nsize, xrep[i].xsize, (unsigned char)(p * nsize)};
    return n;
}

static size_t xsize_of(const part_t *parts, int n)
{
    size_t s = 0;
    for (int p = 0; p < n; p++)
        s += parts[p].xsize;
    return s;
}

/* ---- integers and IEEE floats ------------------------------------------- */

/* Native (little-endian, nsize bytes) to big-endian xsize bytes: reversed,
 * sign- or zero-extended or cut to the external size. */
static void int_out(const unsigned char *src, size_t nsize, bool sign, unsigned char *dst, size_t xsize)
{
    if (nsize == xsize && xsize == 4) {
        uint32_t v;
        memcpy(&v, src, 4);
        v = __builtin_bswap32(v);
        memcpy(dst, &v, 4);
        return;
    }
    if (nsize == xsize && xsize == 8) {
        uint64_t v;
        memcpy(&v, src, 8);
        v = __builtin_bswap64(v);
        memcpy(dst, &v, 8);
        return;
    }
    unsigned char fill = sign && (src[nsize - 1] & 0x80) ? 0xff : 0;
    for (size_t i = 0; i < xsize; i++)
        dst[xsize - 1 - i] = i < nsize ? src[i] : fill;
}

static void int_in(const unsigned char *src, size_t xsize, bool sign, unsigned char *dst, size_t nsize)
{
    if (nsize == xsize && (xsize == 4 || xsize == 8)) {
        int_out(src, xsize, false, dst, nsize);      /* reversing is its own inverse */
        return;
    }
    unsigned char fill = sign && (src[0] & 0x80) ? 0xff : 0;
    for (size_t i = 0; i < nsize; i++)
        dst[i] = i < xsize ? src[xsize - 1 - i] : fill;
}

/* ---- long double: x87 80-bit extended <-> binary128 --------------------- */

static void put_be64(unsigned char *p, uint64_t v)
{
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
}

static uint64_t get_be64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

#define X87_INT_BIT (1ull << 63)

/* x87: 64-bit significand with an explicit integer bit, then sign and a
 * 15-bit exponent (bias 16383, as binary128's). binary128 keeps 112 bits
 * of fraction with the integer bit implied, so the 63 fraction bits move
 * up 49 places and every value is exact. */
static void x87_out(const unsigned char *src, unsigned char *dst)
{
    uint64_t m, hi;
    uint16_t se;
    memcpy(&m, src, 8);
    memcpy(&se, src + 8, 2);
    uint64_t sign = (uint64_t)(se >> 15) << 63, exp = se & 0x7fff, frac = m & ~X87_INT_BIT;
    if (exp == 0 && (m & X87_INT_BIT)) {
        exp = 1;                                     /* pseudo-denormal: same value, exponent 1 */
    } else if (exp != 0 && !(m & X87_INT_BIT)) {     /* unnormal or pseudo-NaN: invalid, a NaN */
        put_be64(dst, sign | 0x7fffull << 48 | 1ull << 47);
        put_be64(dst + 8, 0);
        return;
    }
    hi = sign | exp << 48 | frac >> 15;
    put_be64(dst, hi);
    put_be64(dst + 8, frac << 49);
}

/* binary128 to x87: the 49 fraction bits that do not fit are rounded to
 * nearest, ties to even; rounding up may carry into the exponent. NaNs stay
 * NaNs (quiet bit set if the payload would vanish). */
static void x87_in(const unsigned char *src, unsigned char *dst)
{
    uint64_t hi = get_be64(src), lo = get_be64(src + 8);
    uint16_t sign = (uint16_t)((hi >> 63) << 15);
    uint64_t exp = (hi >> 48) & 0x7fff, fhi = hi & ((1ull << 48) - 1);
    uint64_t frac = fhi << 15 | lo >> 49, rest = lo & ((1ull << 49) - 1), m;
    if (exp == 0x7fff) {
        m = X87_INT_BIT | frac;
        if ((fhi | lo) && !frac)
            m |= 1ull << 62;
    } else {
        m = (exp ? X87_INT_BIT : 0) | frac;
        uint64_t half = 1ull << 48;
        if (rest > half || (rest == half && (m & 1))) {
            m++;
            if (m == 0) {                            /* 1.11...1 rounded up to 2 */
                m = X87_INT_BIT;
                exp++;
            } else if (exp == 0 && (m & X87_INT_BIT)) {
                exp = 1;                             /* largest denormal rounded up to the smallest normal */
            }
        }
        if (exp == 0x7fff)
            m = X87_INT_BIT;                         /* rounded up to infinity */
    }
    uint16_t se = (uint16_t)(sign | exp);
    memset(dst, 0, sizeof(long double));            /* the 6 padding bytes too */
    memcpy(dst, &m, 8);
    memcpy(dst + 8, &se, 2);
}

/* ---- parts and walks ----------------------------------------------------- */

static void part_out(const part_t *p, const unsigned char *src, unsigned char *dst)
{
    switch (p->kind) {
    case K_COPY: memcpy(dst, src, p->xsize); break;
    case K_BOOL: *dst = *src != 0; break;
    case K_SINT: int_out(src, p->nsize, true, dst, p->xsize); break;
    case K_UINT: int_out(src, p->nsize, false, dst, p->xsize); break;
    case K_LDBL:
        if (LDBL_IS_X87)
            x87_out(src, dst);
        else
            int_out(src, p->nsize, false, dst, p->xsize);
        break;
    default: break;
    }
}

static void part_in(const part_t *p, const unsigned char *src, unsigned char *dst)
{
    switch (p->kind) {
    case K_COPY: memcpy(dst, src, p->xsize); break;
    case K_BOOL: *dst = *src != 0; break;
    case K_SINT: int_in(src, p->xsize, true, dst, p->nsize); break;
    case K_UINT: int_in(src, p->xsize, false, dst, p->nsize); break;
    case K_LDBL:
        if (LDBL_IS_X87)
            x87_in(src, dst);
        else
            int_in(src, p->xsize, false, dst, p->nsize);
        break;
    default: break;
    }
}

/* A conversion in progress: the user's data (elements at data + disp; data
 * may be MPI_BOTTOM, so addresses are computed as integers) and the
 * external32 stream with its next byte and end. */
typedef struct xwalk {
    uintptr_t data;
    unsigned char *stream;
    size_t start, pos, end;      /* where this call began, the next byte, the end */
    bool pack;
    dmpi_dtype_t *bad;           /* a predefined type with no external32 form */
} xwalk_t;

static int convert(void *ctx, dmpi_dtype_t *t, MPI_Aint disp, size_t n)
{
    xwalk_t *w = ctx;
    part_t parts[2];
    int np = describe(t, parts);
    if (!np) {
        w->bad = t;
        return MPI_ERR_TYPE;
    }
    size_t xsize = xsize_of(parts, np);
    if (w->pos > w->end || w->end - w->pos < n * xsize)
        return MPI_ERR_TRUNCATE;
    unsigned char *s = w->stream + w->pos;
    uintptr_t elem = w->data + (uintptr_t)disp;
    if (np == 1 && parts[0].kind == K_COPY && (size_t)t->extent == t->size) {
        if (w->pack)                                 /* bytes back to back: one copy */
            memcpy(s, (const void *)elem, n * xsize);
        else
            memcpy((void *)elem, s, n * xsize);
        w->pos += n * xsize;
        return 0;
    }
    for (size_t e = 0; e < n; e++, elem += (uintptr_t)t->extent)
        for (int p = 0; p < np; p++) {
            unsigned char *native = (unsigned char *)(elem + parts[p].off);
            if (w->pack)
                part_out(&parts[p], native, s);
            else
                part_in(&parts[p], s, native);
            s += parts[p].xsize;
        }
    w->pos += n * xsize;
    return 0;
}

static int add_size(void *ctx, dmpi_dtype_t *t, MPI_Aint disp, size_t n)
{
    (void)disp;
    part_t parts[2];
    int np = describe(t, parts);
    if (!np)
        return MPI_ERR_TYPE;
    *(size_t *)ctx += n * xsize_of(parts, np);
    return 0;
}

static int bad_type(const char *fn, const dmpi_dtype_t *dt)
{
    return dmpi_err(MPI_ERR_TYPE, "%s: datatype %s holds data with no external32 representation", fn,
                    dmpi_dtype_desc(dt));
}

int dmpi_ext32_size(const char *fn, const dmpi_dtype_t *dt, size_t count, MPI_Aint *size)
{
    size_t one = 0;
    part_t parts[2];
    if (dt->size == 0) {
        one = 0;
    } else if (dt->basic != MPI_DATATYPE_NULL) {    /* all one predefined type: no walk */
        const dmpi_dtype_t *b = dmpi_dtype_get(dt->basic);
        int np = describe(b, parts);
        if (!np)
            return bad_type(fn, dt);
        one = dt->size / b->size * xsize_of(parts, np);
    } else if (dmpi_dtype_walk(dt, 1, add_size, &one)) {
        return bad_type(fn, dt);
    }
    if (one && count > (size_t)INTPTR_MAX / one)
        return dmpi_err(MPI_ERR_COUNT, "%s: %zu elements of %zu bytes do not fit in MPI_Aint", fn, count, one);
    *size = (MPI_Aint)(count * one);
    return MPI_SUCCESS;
}

/* Runs the conversion of count elements; *w holds the stream position. */
static int run(const char *fn, const dmpi_dtype_t *dt, size_t count, xwalk_t *w)
{
    int err;
    if (dt->predefined)          /* count elements every extent bytes */
        err = dt->size ? convert(w, (dmpi_dtype_t *)dt, 0, count) : 0;
    else
        err = dmpi_dtype_walk(dt, count, convert, w);
    if (err == MPI_ERR_TYPE)
        return bad_type(fn, w->bad ? w->bad : dt);
    if (err == MPI_ERR_TRUNCATE) {
        MPI_Aint need = 0;
        dmpi_ext32_size(fn, dt, count, &need);
        return dmpi_err(MPI_ERR_TRUNCATE, "%s: %zu elements of %s take %ld bytes in external32 but %s holds only "
                        "%zu bytes after position %zu", fn, count, dmpi_dtype_desc(dt),
                        (long)need, w->pack ? "outbuf" : "inbuf", w->end > w->start ? w->end - w->start : 0,
                        w->start);
    }
    return err;
}

int dmpi_ext32_pack(const char *fn, const dmpi_dtype_t *dt, size_t count, const void *in, void *out,
                    MPI_Aint outsize, MPI_Aint *position)
{
    xwalk_t w = {.data = (uintptr_t)in, .stream = out, .start = (size_t)*position, .pos = (size_t)*position,
                 .end = (size_t)outsize, .pack = true};
    int err = run(fn, dt, count, &w);
    if (err == MPI_SUCCESS)
        *position = (MPI_Aint)w.pos;
    return err;
}

int dmpi_ext32_unpack(const char *fn, const dmpi_dtype_t *dt, size_t count, const void *in, MPI_Aint insize,
                      MPI_Aint *position, void *out)
{
    xwalk_t w = {.data = (uintptr_t)out, .stream = (unsigned char *)in, .start = (size_t)*position,
                 .pos = (size_t)*position, .end = (size_t)insize, .pack = false};
    int err = run(fn, dt, count, &w);
    if (err == MPI_SUCCESS)
        *position = (MPI_Aint)w.pos;
    return err;
}
