/* Predefined datatypes and the pack engine (core/datatype.c,
 * core/datatype_builtin.c):
 *   - every predefined handle of include/mpi.h is found, with its name, the
 *     size of the C type it stands for (Fortran types: their usual sizes),
 *     the size its handle encodes in bits 15-8, extent = size, lb 0,
 *     contiguous, predefined, committed;
 *   - the library knows no predefined type that is not in that list;
 *   - MPI_DATATYPE_NULL, other objects' handles and garbage give NULL (all
 *     65536 low halves of the builtin and direct datatype prefixes, and a
 *     million random values);
 *   - the MINLOC/MAXLOC pair types: size = value + int, extent and layout of
 *     the C struct; pack and unpack of arrays (also partial unpacks cut at
 *     every interesting byte count) against an element-by-element reference
 *     that leaves the padding alone. */
#include "core/dmpi.h"
#include "unit.h"
#include <complex.h>
#include <stdbool.h>
#include <string.h>
#include <wchar.h>
#include <sys/uio.h>

typedef struct known {
    MPI_Datatype h;
    const char *name;
    size_t size;
} known_t;

#define T(h, size) {h, #h, size}
static const known_t known[] = {
    T(MPI_CHAR, sizeof(char)), T(MPI_SIGNED_CHAR, sizeof(signed char)),
    T(MPI_UNSIGNED_CHAR, sizeof(unsigned char)), T(MPI_BYTE, 1), T(MPI_WCHAR, sizeof(wchar_t)),
    T(MPI_SHORT, sizeof(short)), T(MPI_UNSIGNED_SHORT, sizeof(unsigned short)), T(MPI_INT, sizeof(int)),
    T(MPI_UNSIGNED, sizeof(unsigned)), T(MPI_LONG, sizeof(long)), T(MPI_UNSIGNED_LONG, sizeof(unsigned long)),
    T(MPI_LONG_LONG_INT, sizeof(long long)), T(MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long)),
    T(MPI_FLOAT, sizeof(float)), T(MPI_DOUBLE, sizeof(double)), T(MPI_LONG_DOUBLE, sizeof(long double)),
    T(MPI_PACKED, 1), T(MPI_LB, 0), T(MPI_UB, 0), T(MPI_2INT, 2 * sizeof(int)),
    T(MPI_INT8_T, sizeof(int8_t)), T(MPI_INT16_T, sizeof(int16_t)), T(MPI_INT32_T, sizeof(int32_t)),
    T(MPI_INT64_T, sizeof(int64_t)), T(MPI_UINT8_T, sizeof(uint8_t)), T(MPI_UINT16_T, sizeof(uint16_t)),
    T(MPI_UINT32_T, sizeof(uint32_t)), T(MPI_UINT64_T, sizeof(uint64_t)), T(MPI_C_BOOL, sizeof(_Bool)),
    T(MPI_C_FLOAT_COMPLEX, sizeof(float _Complex)), T(MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex)),
    T(MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex)), T(MPI_CXX_BOOL, 1),
    T(MPI_CXX_FLOAT_COMPLEX, sizeof(float _Complex)), T(MPI_CXX_DOUBLE_COMPLEX, sizeof(double _Complex)),
    T(MPI_CXX_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex)), T(MPI_AINT, sizeof(MPI_Aint)),
    T(MPI_OFFSET, sizeof(MPI_Offset)), T(MPI_COUNT, sizeof(MPI_Count)),
    /* Fortran: default INTEGER/REAL/LOGICAL of 4 bytes, as MPICH's gfortran build */
    T(MPI_CHARACTER, 1), T(MPI_LOGICAL, 4), T(MPI_INTEGER, 4), T(MPI_REAL, 4), T(MPI_DOUBLE_PRECISION, 8),
    T(MPI_COMPLEX, 8), T(MPI_DOUBLE_COMPLEX, 16), T(MPI_2INTEGER, 8), T(MPI_2REAL, 8),
    T(MPI_2DOUBLE_PRECISION, 16), T(MPI_INTEGER1, 1), T(MPI_INTEGER2, 2), T(MPI_INTEGER4, 4), T(MPI_INTEGER8, 8),
    T(MPI_REAL4, 4), T(MPI_REAL8, 8), T(MPI_REAL16, 16), T(MPI_COMPLEX8, 8), T(MPI_COMPLEX16, 16),
    T(MPI_COMPLEX32, 32),
    /* MPI-4.1 / MPICH 4.1: half precision, 128-bit integers, sized logicals, 16-bit floats */
    T(MPI_REAL2, 2), T(MPI_COMPLEX4, 4), T(MPI_INTEGER16, 16), T(MPI_LOGICAL1, 1), T(MPI_LOGICAL2, 2),
    T(MPI_LOGICAL4, 4), T(MPI_LOGICAL8, 8), T(MPI_LOGICAL16, 16), T(MPIX_C_FLOAT16, 2), T(MPIX_BFLOAT16, 2),
};
#define NKNOWN (sizeof known / sizeof known[0])

/* The pair types, as the C compiler lays out their structs. */
struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct short_int { short v; int i; };
struct long_double_int { long double v; int i; };

typedef struct pair_info {
    MPI_Datatype h;
    const char *name;
    size_t vsize, ioff, extent;
} pair_info_t;

#define PAIR(h, S, VT) {h, #h, sizeof(VT), offsetof(struct S, i), sizeof(struct S)}
static const pair_info_t pairs[] = {
    PAIR(MPI_FLOAT_INT, float_int, float),
    PAIR(MPI_DOUBLE_INT, double_int, double),
    PAIR(MPI_LONG_INT, long_int, long),
    PAIR(MPI_SHORT_INT, short_int, short),
    PAIR(MPI_LONG_DOUBLE_INT, long_double_int, long double),
};
#define NPAIRS (sizeof pairs / sizeof pairs[0])

static bool is_known(unsigned h)
{
    for (size_t i = 0; i < NKNOWN; i++)
        if ((unsigned)known[i].h == h)
            return true;
    for (size_t i = 0; i < NPAIRS; i++)
        if ((unsigned)pairs[i].h == h)
            return true;
    return false;
}

static void test_predefined(void)
{
    int bad = 0;
    for (size_t i = 0; i < NKNOWN; i++) {
        const known_t *k = &known[i];
        dmpi_dtype_t *t = dmpi_dtype_get(k->h);
        if (!t) {
            NOTE(bad, "%s (%#x) not found", k->name, (unsigned)k->h);
            continue;
        }
        if (t->handle != k->h || t->size != k->size || (((unsigned)k->h >> 8) & 0xff) != k->size ||
            t->extent != (MPI_Aint)k->size || t->lb != 0 || !t->contig || !t->predefined || !t->committed ||
            strcmp(t->name, k->name) != 0 || dmpi_dtype_get(k->h) != t)
            NOTE(bad, "%s: handle %#x size %zu (C type %zu) extent %ld lb %ld contig %d name %s", k->name,
                 (unsigned)t->handle, t->size, k->size, (long)t->extent, (long)t->lb, t->contig, t->name);
    }
    CHECK(bad == 0, "%d predefined types wrong", bad);
    CHECK(dmpi_dtype_get(MPI_LONG_LONG) == dmpi_dtype_get(MPI_LONG_LONG_INT) &&
          dmpi_dtype_get(MPI_C_COMPLEX) == dmpi_dtype_get(MPI_C_FLOAT_COMPLEX), "aliases differ");

    /* Nothing else in the builtin and direct ranges: all low 16 bits. */
    int extra = 0, found = 0;
    for (unsigned low = 0; low <= 0xffff; low++) {
        static const unsigned prefixes[] = {0x4c000000u, 0x8c000000u, 0xcc000000u, 0x0c000000u};
        for (size_t p = 0; p < 4; p++) {
            unsigned h = prefixes[p] | low;
            dmpi_dtype_t *t = dmpi_dtype_get((MPI_Datatype)h);
            if (t && !is_known(h))
                NOTE(extra, "unknown handle %#x is a datatype (%s)", h, t->name ? t->name : "?");
            found += t != NULL;
        }
    }
    CHECK(extra == 0, "%d handles not in mpi.h are datatypes", extra);
    CHECK(found == (int)(NKNOWN + NPAIRS), "%d datatypes in the handle ranges, want %zu", found, NKNOWN + NPAIRS);
}

static void test_invalid(void)
{
    static const unsigned bad_handles[] = {
        (unsigned)MPI_DATATYPE_NULL, 0, 0xffffffffu, (unsigned)MPI_COMM_WORLD, (unsigned)MPI_COMM_NULL,
        (unsigned)MPI_REQUEST_NULL, (unsigned)MPI_OP_NULL, (unsigned)MPI_SUM, (unsigned)MPI_INFO_NULL,
        (unsigned)MPI_ERRORS_RETURN, (unsigned)MPI_GROUP_EMPTY,
        0x4c000000u, 0x4c000100u,  /* index 0 */
        0x4c000412u,               /* unused index 0x12 */
        0x4c000805u,               /* MPI_INT's index with the wrong size */
        0x4c010405u,               /* MPI_INT with a bit set above the size */
        0x4c0004ffu, 0x4c00014du,  /* indices beyond the table */
        0x8c000005u, 0x8c000100u, 0x8c010000u, 0x8d000000u, 0xcc000000u,
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof bad_handles / sizeof bad_handles[0]; i++)
        if (dmpi_dtype_get((MPI_Datatype)bad_handles[i]) != NULL)
            NOTE(bad, "handle %#x is a datatype", bad_handles[i]);
    CHECK(bad == 0, "%d invalid handles accepted", bad);
    CHECK(dmpi_dtype_get(MPI_INTEGER16) && dmpi_dtype_get(MPI_INTEGER16)->align == 16,
          "MPI_INTEGER16 is not a 16-byte type aligned as __int128");

    uint64_t rng = 99;
    bad = 0;
    for (int i = 0; i < 1000000; i++) {
        unsigned h = (unsigned)unit_rand(&rng);
        if (dmpi_dtype_get((MPI_Datatype)h) != NULL && !is_known(h))
            NOTE(bad, "random handle %#x is a datatype", h);
    }
    CHECK(bad == 0, "%d random handles accepted", bad);
}

static void test_pair_types(void)
{
    int bad = 0;
    for (size_t i = 0; i < NPAIRS; i++) {
        const pair_info_t *p = &pairs[i];
        dmpi_dtype_t *t = dmpi_dtype_get(p->h);
        if (!t) {
            NOTE(bad, "%s not found", p->name);
            continue;
        }
        bool gap = p->ioff != p->vsize;
        bool contig = !gap && p->vsize + sizeof(int) == p->extent;
        /* the layout, whatever its number of blocks: value bytes at 0, int at ioff */
        size_t covered = 0, at_v = 0, at_i = 0;
        for (int b = 0; b < t->nruns; b++) {
            covered += t->runs[b].len * t->runs[b].count;
            if (t->runs[b].off == 0)
                at_v = t->runs[b].len;
            if ((size_t)t->runs[b].off == p->ioff)
                at_i = t->runs[b].len;
        }
        bool layout = covered == p->vsize + sizeof(int) &&
                      (gap ? (t->nruns == 2 && at_v == p->vsize && at_i == sizeof(int))
                                                      : (t->nruns == 1 && at_v == p->vsize + sizeof(int)));
        if (t->handle != p->h || t->size != p->vsize + sizeof(int) || t->extent != (MPI_Aint)p->extent ||
            t->lb != 0 || t->contig != contig || !layout || !t->predefined || !t->committed ||
            strcmp(t->name, p->name) != 0)
            NOTE(bad, "%s: size %zu (want %zu) extent %ld (want %zu) contig %d nruns %d name %s", p->name,
                 t->size, p->vsize + sizeof(int), (long)t->extent, p->extent, t->contig, t->nruns, t->name);
    }
    CHECK(bad == 0, "%d pair types do not match their C structs", bad);
}

/* Reference pack: element by element, value then index, no padding. */
static void ref_pack(const pair_info_t *p, size_t count, const unsigned char *src, unsigned char *dst)
{
    for (size_t e = 0; e < count; e++, src += p->extent) {
        memcpy(dst, src, p->vsize);
        dst += p->vsize;
        memcpy(dst, src + p->ioff, sizeof(int));
        dst += sizeof(int);
    }
}

/* Reference unpack of the first `bytes` packed bytes: fields in order,
 * the last one cut short; padding and everything after stay as they were. */
static void ref_unpack(const pair_info_t *p, size_t count, const unsigned char *src, unsigned char *dst,
                       size_t bytes)
{
    for (size_t e = 0; e < count && bytes; e++, dst += p->extent) {
        size_t n = p->vsize < bytes ? p->vsize : bytes;
        memcpy(dst, src, n);
        src += n;
        bytes -= n;
        n = sizeof(int) < bytes ? sizeof(int) : bytes;
        memcpy(dst + p->ioff, src, n);
        src += n;
        bytes -= n;
    }
}

static void test_pair_pack(void)
{
    enum { COUNT = 37 };
    static unsigned char user[COUNT * 32 + 64], packed[COUNT * 32 + 64], want[COUNT * 32 + 64];
    static unsigned char out[COUNT * 32 + 64], ref[COUNT * 32 + 64];
    uint64_t rng = 5;
    int bad_pack = 0, bad_unpack = 0, bad_zero = 0;
    for (size_t i = 0; i < NPAIRS; i++) {
        const pair_info_t *p = &pairs[i];
        dmpi_dtype_t *t = dmpi_dtype_get(p->h);
        if (!t)
            continue;
        size_t psize = p->vsize + sizeof(int);
        /* user array: random bytes everywhere, padding included */
        for (size_t b = 0; b < sizeof user; b++)
            user[b] = (unsigned char)unit_rand(&rng);
        for (size_t count = 0; count <= COUNT; count += count < 4 ? 1 : 11) {
            memset(packed, 0xcd, sizeof packed);
            memset(want, 0xcd, sizeof want);
            dmpi_dtype_pack(t, count, user, packed);
            ref_pack(p, count, user, want);
            if (memcmp(packed, want, sizeof packed) != 0)
                NOTE(bad_pack, "%s: pack of %zu elements differs (or writes past %zu bytes)", p->name, count,
                     count * psize);
        }
        /* full and partial unpacks: every byte count in the first two
         * elements, then the field edges of later ones and the end */
        ref_pack(p, COUNT, user, want);
        for (size_t bytes = 0; bytes <= COUNT * psize + 8; bytes++) {
            bool edge = bytes <= 2 * psize || bytes % psize == 0 || bytes % psize == p->vsize ||
                        bytes % psize == 1 || bytes % psize == psize - 1 || bytes >= COUNT * psize - 2;
            if (!edge)
                continue;
            memset(out, 0x5a, sizeof out);
            memset(ref, 0x5a, sizeof ref);
            dmpi_dtype_unpack(t, COUNT, want, out, bytes);
            ref_unpack(p, COUNT, want, ref, bytes);
            if (memcmp(out, ref, sizeof out) != 0)
                NOTE(bad_unpack, "%s: unpack of %zu bytes into %d elements differs", p->name, bytes, COUNT);
        }
        /* count 0 moves nothing */
        memset(out, 0x5a, sizeof out);
        dmpi_dtype_unpack(t, 0, want, out, COUNT * psize);
        memset(ref, 0x5a, sizeof ref);
        dmpi_dtype_pack(t, 0, user, out);
        if (memcmp(out, ref, sizeof out) != 0)
            NOTE(bad_zero, "%s: count 0 changed memory", p->name);
    }
    CHECK(bad_pack == 0, "%d pair-type packs differ from the reference", bad_pack);
    CHECK(bad_unpack == 0, "%d pair-type (partial) unpacks differ from the reference", bad_unpack);
    CHECK(bad_zero == 0, "%d count-0 pack/unpack calls changed memory", bad_zero);

    /* Round trip through real structs. */
    struct double_int a[5], b[5];
    memset(b, 0, sizeof b);
    for (int i = 0; i < 5; i++)
        a[i] = (struct double_int){i * 1.5, -i};
    unsigned char buf[5 * 12];
    dmpi_dtype_pack(dmpi_dtype_get(MPI_DOUBLE_INT), 5, a, buf);
    dmpi_dtype_unpack(dmpi_dtype_get(MPI_DOUBLE_INT), 5, buf, b, sizeof buf);
    int diff = 0;
    for (int i = 0; i < 5; i++)
        diff += b[i].v != a[i].v || b[i].i != a[i].i;
    CHECK(diff == 0, "MPI_DOUBLE_INT round trip: %d elements differ", diff);
    struct short_int s[3] = {{1, 10}, {-2, 20}, {3, -30}}, r[3] = {{0, 0}, {0, 0}, {0, 0}};
    unsigned char sb[3 * 6];
    dmpi_dtype_pack(dmpi_dtype_get(MPI_SHORT_INT), 3, s, sb);
    dmpi_dtype_unpack(dmpi_dtype_get(MPI_SHORT_INT), 3, sb, r, 2 * 6 + 2);    /* 2 elements and a value */
    CHECK(r[0].v == 1 && r[0].i == 10 && r[1].v == -2 && r[1].i == 20 && r[2].v == 3 && r[2].i == 0,
          "MPI_SHORT_INT partial unpack: %d/%d %d/%d %d/%d", r[0].v, r[0].i, r[1].v, r[1].i, r[2].v, r[2].i);
}

static void test_contig_pack(void)
{
    int in[100], out[100];
    for (int i = 0; i < 100; i++) {
        in[i] = i * 7 - 300;
        out[i] = -1;
    }
    dmpi_dtype_t *t = dmpi_dtype_get(MPI_INT);
    unsigned char buf[sizeof in];
    dmpi_dtype_pack(t, 100, in, buf);
    CHECK(memcmp(buf, in, sizeof in) == 0, "MPI_INT pack is not a copy");
    dmpi_dtype_unpack(t, 100, buf, out, 10 * sizeof(int) + 2);
    int bad = 0;
    for (int i = 0; i < 10; i++)
        bad += out[i] != in[i];
    bad += memcmp(&out[10], &in[10], 2) != 0;                      /* two bytes of element 10 */
    unsigned char after[2] = {0xff, 0xff};
    bad += memcmp((unsigned char *)&out[10] + 2, after, 2) != 0;   /* the rest of it untouched */
    for (int i = 11; i < 100; i++)
        bad += out[i] != -1;
    CHECK(bad == 0, "MPI_INT partial unpack of 42 bytes: %d wrong", bad);
    for (int i = 0; i < 100; i++)
        out[i] = -1;
    dmpi_dtype_unpack(t, 3, buf, out, sizeof buf);                 /* more bytes than count holds */
    bad = 0;
    for (int i = 0; i < 100; i++)
        bad += i < 3 ? out[i] != in[i] : out[i] != -1;
    CHECK(bad == 0, "unpack of 3 elements from 400 bytes: %d wrong (wrote past count?)", bad);
    int zero = -7;
    dmpi_dtype_unpack(t, 1, buf, &zero, 0);
    CHECK(zero == -7, "unpack of 0 bytes changed the buffer");
    char c = 'q';
    dmpi_dtype_pack(dmpi_dtype_get(MPI_LB), 5, &c, &c);
    dmpi_dtype_unpack(dmpi_dtype_get(MPI_UB), 5, &c, &c, 5);
    CHECK(c == 'q', "a zero-size type moved data");
}

/* ---- derived types: runs, pack/unpack ranges, iovecs ----------------------
 * The layouts of vector/indexed/struct types (the runs the builder makes,
 * merged where blocks continue each other), and pack_range/unpack_range at
 * every split point and iov pieces against a reference that flattens the
 * type's contents on its own, element by element. */

static dmpi_dtype_t *mk(int comb, int ni, const int *ints, int na, const MPI_Aint *aints, int nt,
                        const MPI_Datatype *types)
{
    dmpi_dtype_t *t = NULL;
    if (dmpi_dtype_create(comb, ni, ints, na, aints, nt, types, &t) != MPI_SUCCESS)
        return NULL;
    return t;
}

static bool run_is(const dmpi_dtype_t *t, int i, MPI_Aint off, size_t len, MPI_Aint stride, size_t count)
{
    const dmpi_run_t *r = &t->runs[i];
    return i < t->nruns && r->off == off && r->len == len && r->count == count && (count == 1 || r->stride == stride);
}

static void test_layouts(void)
{
    MPI_Datatype tint = MPI_INT, tdouble = MPI_DOUBLE;
    /* vector of doubles: one strided run */
    const int v1[3] = {5, 2, 4};
    dmpi_dtype_t *t = mk(MPI_COMBINER_VECTOR, 3, v1, 0, NULL, 1, &tdouble);
    CHECK(t && t->nruns == 1 && run_is(t, 0, 0, 16, 32, 5) && !t->contig && t->size == 80 && t->extent == 144,
          "vector(5, 2, 4, DOUBLE): %d runs, first {off %ld len %zu stride %ld count %zu}", t->nruns,
          (long)t->runs[0].off, t->runs[0].len, (long)t->runs[0].stride, t->runs[0].count);
    dmpi_dtype_release(t);
    /* stride = blocklength: one block, contiguous */
    const int v2[3] = {3, 2, 2};
    t = mk(MPI_COMBINER_VECTOR, 3, v2, 0, NULL, 1, &tint);
    CHECK(t && t->nruns == 1 && run_is(t, 0, 0, 24, 0, 1) && t->contig, "vector(3, 2, 2, INT): %d runs, contig %d",
          t->nruns, t->contig);
    dmpi_dtype_release(t);
    /* indexed, typemap order kept: three runs, "before" counts the bytes ahead */
    const int i1[7] = {3, 2, 1, 3, 5, -2, 0};
    t = mk(MPI_COMBINER_INDEXED, 7, i1, 0, NULL, 1, &tint);
    CHECK(t && t->nruns == 3 && run_is(t, 0, 20, 8, 0, 1) && run_is(t, 1, -8, 4, 0, 1) && run_is(t, 2, 0, 12, 0, 1) &&
              t->runs[0].before == 0 && t->runs[1].before == 8 && t->runs[2].before == 12 && t->lb == -8 &&
              t->extent == 36 && t->true_lb == -8,
          "indexed({2,1,3}, {5,-2,0}, INT): %d runs, lb %ld extent %ld", t->nruns, (long)t->lb, (long)t->extent);
    dmpi_dtype_release(t);
    /* evenly spaced blocks of one length merge into one strided run */
    const int ib[5] = {3, 1, 0, 3, 6};
    t = mk(MPI_COMBINER_INDEXED_BLOCK, 5, ib, 0, NULL, 1, &tint);
    CHECK(t && t->nruns == 1 && run_is(t, 0, 0, 4, 12, 3), "indexed_block(1, {0,3,6}, INT): %d runs", t->nruns);
    dmpi_dtype_release(t);
    /* struct {char, double, int}: the double and the int touch */
    const int s1[4] = {3, 1, 1, 1};
    const MPI_Aint sd[3] = {0, 8, 16};
    const MPI_Datatype st[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    t = mk(MPI_COMBINER_STRUCT, 4, s1, 3, sd, 3, st);
    CHECK(t && t->nruns == 2 && run_is(t, 0, 0, 1, 0, 1) && run_is(t, 1, 8, 12, 0, 1) && t->extent == 24 &&
              t->size == 13 && t->true_extent == 20 && t->basic == MPI_DATATYPE_NULL && t->nbasic == 3,
          "struct {char, double, int}: %d runs, extent %ld size %zu", t->nruns, (long)t->extent, t->size);
    dmpi_dtype_release(t);
    /* hvector of a vector: one strided run per copy */
    const int v3[3] = {2, 1, 3};
    dmpi_dtype_t *in = mk(MPI_COMBINER_VECTOR, 3, v3, 0, NULL, 1, &tint);
    MPI_Datatype inh = in->handle;
    const int h1[2] = {3, 1};
    const MPI_Aint hs[1] = {100};
    t = mk(MPI_COMBINER_HVECTOR, 2, h1, 1, hs, 1, &inh);
    CHECK(t && t->nruns == 3 && run_is(t, 0, 0, 4, 12, 2) && run_is(t, 1, 100, 4, 12, 2) &&
              run_is(t, 2, 200, 4, 12, 2) && t->basic == MPI_INT && t->nbasic == 6,
          "hvector(3, 1, 100, vector(2, 1, 3, INT)): %d runs", t->nruns);
    /* the child lives on in the parent after its own reference goes */
    CHECK(in->refcount == 2, "a type built from another holds it: refcount %d", in->refcount);
    dmpi_dtype_release(in);
    CHECK(dmpi_dtype_get(inh) == in, "the child was freed while its parent holds it");
    dmpi_dtype_release(t);
    CHECK(dmpi_dtype_get(inh) == NULL, "the child outlived its last reference");
}

/* Reference: the bytes of a type's typemap, flattened from its contents. */
typedef struct ref_seg {
    MPI_Aint disp;
    size_t len;
} ref_seg_t;

typedef struct ref_map {
    ref_seg_t segs[4096];
    int n;
} ref_map_t;

static void ref_add(ref_map_t *m, MPI_Aint disp, size_t len)
{
    if (len == 0 || m->n == 4096)
        return;
    m->segs[m->n++] = (ref_seg_t){disp, len};
}

static void ref_flatten(const dmpi_dtype_t *t, MPI_Aint base, ref_map_t *m)
{
    const dmpi_dtype_contents_t *c = t->contents;
    if (!c) {
        for (int i = 0; i < t->nruns; i++)     /* predefined: its one or two parts */
            ref_add(m, base + t->runs[i].off, t->runs[i].len);
        return;
    }
    const int *v = c->ints;
    dmpi_dtype_t *ch = dmpi_dtype_get(c->types[0]);
    MPI_Aint ext = ch->extent;
    switch (c->combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        ref_flatten(ch, base, m);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        for (int i = 0; i < v[0]; i++)
            ref_flatten(ch, base + i * ext, m);
        break;
    case MPI_COMBINER_VECTOR:
        for (int i = 0; i < v[0]; i++)
            for (int j = 0; j < v[1]; j++)
                ref_flatten(ch, base + ((MPI_Aint)i * v[2] + j) * ext, m);
        break;
    case MPI_COMBINER_HVECTOR:
        for (int i = 0; i < v[0]; i++)
            for (int j = 0; j < v[1]; j++)
                ref_flatten(ch, base + i * c->aints[0] + j * ext, m);
        break;
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < v[0]; i++)
            for (int j = 0; j < v[1 + i]; j++)
                ref_flatten(ch, base + ((MPI_Aint)v[1 + v[0] + i] + j) * ext, m);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < v[0]; i++)
            for (int j = 0; j < v[1]; j++)
                ref_flatten(ch, base + c->aints[i] + j * ext, m);
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < v[0]; i++) {
            dmpi_dtype_t *ci = dmpi_dtype_get(c->types[i]);
            for (int j = 0; j < v[1 + i]; j++)
                ref_flatten(ci, base + c->aints[i] + j * ci->extent, m);
        }
        break;
    }
}

/* The packed stream of count elements, byte k at base + where[k]. */
static size_t ref_where(const dmpi_dtype_t *t, size_t count, MPI_Aint *where, size_t max)
{
    static ref_map_t m;
    m.n = 0;
    ref_flatten(t, 0, &m);
    size_t k = 0;
    for (size_t e = 0; e < count; e++)
        for (int s = 0; s < m.n; s++)
            for (size_t b = 0; b < m.segs[s].len && k < max; b++)
                where[k++] = (MPI_Aint)e * t->extent + m.segs[s].disp + (MPI_Aint)b;
    return k;
}

#define ARENA_BYTES 65536
#define ARENA_MID 32768

static void check_ranges(const char *name, dmpi_dtype_t *t, size_t count)
{
    static unsigned char arena[ARENA_BYTES], out[ARENA_BYTES], want_out[ARENA_BYTES];
    static unsigned char packed[8192], want[8192];
    static MPI_Aint where[8192];
    size_t total = ref_where(t, count, where, 8192);
    if (total != count * t->size) {
        CHECK(false, "%s: the reference has %zu bytes, the type %zu", name, total, count * t->size);
        return;
    }
    uint64_t rng = 77;
    for (size_t i = 0; i < sizeof arena; i++)
        arena[i] = (unsigned char)unit_rand(&rng);
    unsigned char *base = arena + ARENA_MID;
    for (size_t k = 0; k < total; k++)
        want[k] = base[where[k]];

    int bad_full = 0, bad_split = 0, bad_range = 0, bad_unpack = 0, bad_iov = 0;
    memset(packed, 0, sizeof packed);
    dmpi_dtype_pack(t, count, base, packed);
    if (memcmp(packed, want, total) != 0)
        NOTE(bad_full, "%s: pack of %zu elements differs", name, count);

    /* every split point, both halves; every (first, n) for small streams */
    for (size_t k = 0; k <= total; k++) {
        memset(packed, 0xa5, total + 8);
        dmpi_dtype_pack_range(t, base, 0, k, packed);
        dmpi_dtype_pack_range(t, base, k, total - k, packed + k);
        if (memcmp(packed, want, total) != 0 || packed[total] != 0xa5)
            NOTE(bad_split, "%s: pack split at %zu of %zu differs", name, k, total);
    }
    for (size_t first = 0; total <= 200 && first <= total; first++)
        for (size_t n = 0; first + n <= total; n++) {
            packed[n] = 0x3c;
            dmpi_dtype_pack_range(t, base, first, n, packed);
            if (memcmp(packed, want + first, n) != 0 || packed[n] != 0x3c)
                NOTE(bad_range, "%s: pack_range(%zu, %zu) differs", name, first, n);
        }

    /* unpack in two pieces at every split: exactly the typemap's bytes change */
    for (size_t k = 0; k <= total; k += total > 300 ? 7 : 1) {
        memset(out, 0x5a, sizeof out);
        memset(want_out, 0x5a, sizeof want_out);
        for (size_t b = 0; b < total; b++)
            want_out[ARENA_MID + where[b]] = want[b];
        dmpi_dtype_unpack_range(t, out + ARENA_MID, 0, k, want);
        dmpi_dtype_unpack_range(t, out + ARENA_MID, k, total - k, want + k);
        if (memcmp(out, want_out, sizeof out) != 0)
            NOTE(bad_unpack, "%s: unpack split at %zu of %zu differs", name, k, total);
    }

    /* iov pieces: in stream order, covering [first, first + covered), merged
     * only where memory continues; with room enough they cover everything */
    for (size_t first = 0; first < total; first += 1 + first / 8)
        for (int max = 1; max <= 64; max *= 4) {
            struct iovec iov[64];
            size_t covered = 0;
            int k = dmpi_dtype_iov(t, base, first, total - first, iov, max, &covered);
            size_t at = first;
            bool ok = k >= 1 && k <= max && covered > 0 && covered <= total - first;
            for (int i = 0; ok && i < k; i++) {
                ok = iov[i].iov_len > 0 && at + iov[i].iov_len <= total;
                for (size_t b = 0; ok && b < iov[i].iov_len; b++)
                    ok = (unsigned char *)iov[i].iov_base + b == base + where[at + b];
                if (ok && i > 0)   /* a new piece only where memory jumps */
                    ok = (char *)iov[i - 1].iov_base + iov[i - 1].iov_len != (char *)iov[i].iov_base;
                at += iov[i].iov_len;
            }
            ok = ok && at == first + covered;
            if (ok && k < max)     /* it stopped early only at the end */
                ok = covered == total - first;
            if (!ok)
                NOTE(bad_iov, "%s: iov from %zu with %d pieces: %d pieces cover %zu bytes", name, first, max, k,
                     covered);
        }
    CHECK(bad_full + bad_split + bad_range + bad_unpack + bad_iov == 0,
          "%s x %zu: %d full, %d split, %d range, %d unpack, %d iov mismatches", name, count, bad_full, bad_split,
          bad_range, bad_unpack, bad_iov);
}

static void test_ranges(void)
{
    MPI_Datatype tint = MPI_INT, tdouble = MPI_DOUBLE, tshort = MPI_SHORT;
    dmpi_dtype_t *ts[8];
    const char *names[8];
    int n = 0;
    const int v1[3] = {4, 3, 5};
    ts[n] = mk(MPI_COMBINER_VECTOR, 3, v1, 0, NULL, 1, &tint), names[n++] = "vector(4, 3, 5, INT)";
    const int v2[3] = {3, 2, -4};
    ts[n] = mk(MPI_COMBINER_VECTOR, 3, v2, 0, NULL, 1, &tdouble), names[n++] = "vector(3, 2, -4, DOUBLE)";
    const int i1[9] = {4, 3, 0, 1, 2, 7, 2, -3, 12};
    ts[n] = mk(MPI_COMBINER_INDEXED, 9, i1, 0, NULL, 1, &tshort), names[n++] = "indexed({3,0,1,2}, {7,2,-3,12})";
    const int s1[4] = {3, 1, 2, 1};
    const MPI_Aint sd[3] = {0, 8, -24};
    const MPI_Datatype st[3] = {MPI_CHAR, MPI_SHORT_INT, MPI_DOUBLE};
    ts[n] = mk(MPI_COMBINER_STRUCT, 4, s1, 3, sd, 3, st), names[n++] = "struct {char, 2 SHORT_INT, double at -24}";
    MPI_Datatype vh = ts[0]->handle;
    const int h1[2] = {3, 2};
    const MPI_Aint hs[1] = {-300};
    ts[n] = mk(MPI_COMBINER_HVECTOR, 2, h1, 1, hs, 1, &vh), names[n++] = "hvector(3, 2, -300, vector)";
    const MPI_Aint rz[2] = {-16, 200};
    ts[n] = mk(MPI_COMBINER_RESIZED, 0, NULL, 2, rz, 1, &vh), names[n++] = "resized(vector, -16, 200)";
    const int hb[2] = {4, 1};
    const MPI_Aint hbd[4] = {0, 33, 17, -9};
    ts[n] = mk(MPI_COMBINER_HINDEXED_BLOCK, 2, hb, 4, hbd, 1, &tint), names[n++] = "hindexed_block(1, {0,33,17,-9})";
    MPI_Datatype sh = ts[3]->handle;
    ts[n] = mk(MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &sh), names[n++] = "dup(struct)";
    for (int i = 0; i < n; i++) {
        if (!ts[i]) {
            CHECK(false, "%s could not be built", names[i]);
            continue;
        }
        check_ranges(names[i], ts[i], 1);
        check_ranges(names[i], ts[i], 3);
    }
    for (int i = n - 1; i >= 0; i--)
        if (ts[i])
            dmpi_dtype_release(ts[i]);
}

/* How messages name a type (dmpi_dtype_describe): its name, else its handle
 * and the constructor that made it. */
static void test_describe(void)
{
    char buf[DMPI_DTYPE_DESC_MAX], want[DMPI_DTYPE_DESC_MAX];
    MPI_Datatype tint = MPI_INT;
    dmpi_dtype_t *i = dmpi_dtype_get(MPI_INT), *pair = dmpi_dtype_get(MPI_DOUBLE_INT);
    CHECK(strcmp(dmpi_dtype_describe(i, buf, sizeof buf), "MPI_INT") == 0, "MPI_INT described as '%s'", buf);
    CHECK(strcmp(dmpi_dtype_desc(pair), "MPI_DOUBLE_INT") == 0, "MPI_DOUBLE_INT described as '%s'",
          dmpi_dtype_desc(pair));
    char saved[MPI_MAX_OBJECT_NAME];
    strcpy(saved, i->name);
    i->name[0] = 0;                       /* MPI_Type_set_name(MPI_INT, "") */
    snprintf(want, sizeof want, "0x%x (a predefined type, no name)", (unsigned)MPI_INT);
    CHECK(strcmp(dmpi_dtype_desc(i), want) == 0, "unnamed MPI_INT described as '%s'", dmpi_dtype_desc(i));
    strcpy(i->name, saved);

    static const struct { int comb, ni, ints[5], na; MPI_Aint aints[2]; const char *kind; } cases[] = {
        {MPI_COMBINER_CONTIGUOUS, 1, {3}, 0, {0}, "contiguous"},
        {MPI_COMBINER_VECTOR, 3, {2, 1, 3}, 0, {0}, "vector"},
        {MPI_COMBINER_HVECTOR, 2, {2, 1}, 1, {16}, "hvector"},
        {MPI_COMBINER_INDEXED, 5, {2, 1, 1, 0, 4}, 0, {0}, "indexed"},
        {MPI_COMBINER_INDEXED_BLOCK, 4, {2, 1, 0, 3}, 0, {0}, "indexed_block"},
        {MPI_COMBINER_HINDEXED_BLOCK, 2, {2, 1}, 2, {0, 16}, "hindexed_block"},
        {MPI_COMBINER_RESIZED, 0, {0}, 2, {0, 32}, "resized"},
        {MPI_COMBINER_DUP, 0, {0}, 0, {0}, "dup"},
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        dmpi_dtype_t *t = mk(cases[k].comb, cases[k].ni, cases[k].ints, cases[k].na, cases[k].aints, 1, &tint);
        if (!t) {
            NOTE(bad, "cannot make a %s type", cases[k].kind);
            continue;
        }
        snprintf(want, sizeof want, "0x%x (a derived %s type, no name)", (unsigned)t->handle, cases[k].kind);
        if (strcmp(dmpi_dtype_desc(t), want) != 0)
            NOTE(bad, "described as '%s', want '%s'", dmpi_dtype_desc(t), want);
        snprintf(t->name, sizeof t->name, "rowtype");
        if (strcmp(dmpi_dtype_desc(t), "rowtype") != 0)
            NOTE(bad, "named %s type described as '%s'", cases[k].kind, dmpi_dtype_desc(t));
        dmpi_dtype_release(t);
    }
    CHECK(bad == 0, "%d derived types described wrongly", bad);
    /* a short buffer is cut, not overrun */
    char small[8];
    memset(small, 'x', sizeof small);
    dmpi_dtype_describe(i, small, 4);
    CHECK(strcmp(small, "MPI") == 0 && small[4] == 'x', "described into 4 bytes: '%.8s'", small);
}

/* dmpi_dtype_make with counts beyond INT_MAX: a vector of a contiguous type
 * is one strided run however many blocks it has (built without a loop over
 * them), with the bounds and sizes of all of them; and the contents are
 * kept as large counts or as ints, as the form that made the type. */
static void test_large_layouts(void)
{
    MPI_Datatype tint = MPI_INT;
    const MPI_Count n = (MPI_Count)3 << 30;
    const MPI_Count v[3] = {n, 2, 3};
    dmpi_dtype_t *t = NULL;
    CHECK(dmpi_dtype_make(MPI_COMBINER_VECTOR, 3, v, 1, &tint, true, &t) == MPI_SUCCESS && t, "vector_c failed");
    CHECK(t->nruns == 1 && run_is(t, 0, 0, 8, 12, (size_t)n) && t->size == (size_t)n * 8 && t->lb == 0 &&
              t->extent == (MPI_Aint)(n - 1) * 12 + 8 && t->nbasic == (size_t)n * 2 && !t->contig,
          "vector_c(3 * 2^30, 2, 3, INT): %d runs, first {off %ld len %zu count %zu}, size %zu extent %ld", t->nruns,
          (long)t->runs[0].off, t->runs[0].len, t->runs[0].count, t->size, (long)t->extent);
    CHECK(t->contents->nlarge == 3 && t->contents->nints == 0 && t->contents->large[0] == n &&
              t->contents->large[2] == 3,
          "vector_c contents: %lld large counts, %d ints", (long long)t->contents->nlarge, t->contents->nints);
    CHECK(dmpi_dtype_elements(t, (size_t)n * 8 - 4) == 2 * n - 1, "Get_elements of all but one int of vector_c");
    dmpi_dtype_release(t);
    /* negative byte stride: the last block gives the lower bound */
    const MPI_Count h[3] = {n, 1, -16};
    CHECK(dmpi_dtype_make(MPI_COMBINER_HVECTOR, 3, h, 1, &tint, true, &t) == MPI_SUCCESS && t, "hvector_c failed");
    CHECK(t->nruns == 1 && run_is(t, 0, 0, 4, -16, (size_t)n) && t->lb == -(MPI_Aint)(n - 1) * 16 &&
              t->extent == (MPI_Aint)(n - 1) * 16 + 4 && t->true_lb == t->lb,
          "hvector_c(3 * 2^30, 1, -16, INT): %d runs, lb %ld extent %ld", t->nruns, (long)t->lb, (long)t->extent);
    dmpi_dtype_release(t);
    /* the int form of the same arguments reports ints and an address */
    const MPI_Count h2[3] = {4, 1, 24};
    CHECK(dmpi_dtype_make(MPI_COMBINER_HVECTOR, 3, h2, 1, &tint, false, &t) == MPI_SUCCESS && t, "hvector failed");
    CHECK(t->contents->nlarge == 0 && t->contents->nints == 2 && t->contents->naints == 1 &&
              t->contents->ints[0] == 4 && t->contents->ints[1] == 1 && t->contents->aints[0] == 24 &&
              t->nruns == 1 && run_is(t, 0, 0, 4, 24, 4),
          "hvector(4, 1, 24) contents: %d ints, %d addresses, %lld large", t->contents->nints, t->contents->naints,
          (long long)t->contents->nlarge);
    dmpi_dtype_release(t);
}

int main(void)
{
    unit_watchdog(60);
    RUN(test_predefined);
    RUN(test_invalid);
    RUN(test_pair_types);
    RUN(test_pair_pack);
    RUN(test_contig_pack);
    RUN(test_layouts);
    RUN(test_large_layouts);
    RUN(test_ranges);
    RUN(test_describe);
    return unit_summary("test_datatype");
}
