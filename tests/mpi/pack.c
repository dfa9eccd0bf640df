/*
 * pack: MPI_Pack, MPI_Unpack and MPI_Pack_size of every constructor
 * (negative strides and displacements, unaligned displacements, padded
 * structs, pair types, resized, dup, three levels of nesting, zero sizes)
 * at several counts, against a reference that copies the typemap element
 * by element. The typemap is taken from MPI_Type_get_contents, so the
 * reference does not depend on how the library lays types out.
 *   - packed bytes at a nonzero start position, nothing written around them;
 *   - unpack writes the typemap's bytes and nothing else (gaps, padding);
 *   - several calls appending at position, and unpacking them in pieces;
 *   - an outsize/insize one byte short is MPI_ERR_TRUNCATE, an exact fit works;
 *   - absolute addresses from MPI_BOTTOM;
 *   - packed data sent as MPI_PACKED to the next rank and unpacked there;
 *   - error classes of bad arguments.
 */
#include "mtest.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLASS(rc, cls, what) mtest_check_class_at(__FILE__, __LINE__, (rc), (cls), "%s", (what))

/* ---- reference typemap --------------------------------------------------- */

typedef struct seg {
    MPI_Aint disp;
    int len;
} seg_t;

typedef struct typemap {
    seg_t *segs;
    int n, cap;
} typemap_t;

static void add_seg(typemap_t *m, MPI_Aint disp, int len)
{
    if (len == 0)
        return;
    if (m->n && m->segs[m->n - 1].disp + m->segs[m->n - 1].len == disp) {
        m->segs[m->n - 1].len += len;     /* continues the last one */
        return;
    }
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 16;
        m->segs = realloc(m->segs, (size_t)m->cap * sizeof *m->segs);
        if (!m->segs)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    m->segs[m->n++] = (seg_t){disp, len};
}

static MPI_Aint extent_of(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

/* The pair types as C lays them out. */
struct short_int {
    short v;
    int i;
};
struct double_int {
    double v;
    int i;
};

/* The bytes of t placed at base, in typemap order. */
static void flatten(MPI_Datatype t, MPI_Aint base, typemap_t *m)
{
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED) {
        /* the pair types have a gap between value and index */
        if (t == MPI_SHORT_INT) {
            add_seg(m, base, sizeof(short));
            add_seg(m, base + offsetof(struct short_int, i), sizeof(int));
        } else if (t == MPI_DOUBLE_INT) {
            add_seg(m, base, sizeof(double));
            add_seg(m, base + offsetof(struct double_int, i), sizeof(int));
        } else {
            int size;
            MPI_Type_size(t, &size);
            add_seg(m, base, size);
        }
        return;
    }
    int *ci = malloc(sizeof(int) * (size_t)(ni + 1));
    MPI_Aint *ca = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
    MPI_Datatype *ct = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1));
    MPI_Type_get_contents(t, ni, na, nd, ci, ca, ct);
    MPI_Aint ext = extent_of(ct[0]);
    switch (comb) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        flatten(ct[0], base, m);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        for (int i = 0; i < ci[0]; i++)
            flatten(ct[0], base + i * ext, m);
        break;
    case MPI_COMBINER_VECTOR:
        for (int i = 0; i < ci[0]; i++)
            for (int j = 0; j < ci[1]; j++)
                flatten(ct[0], base + ((MPI_Aint)i * ci[2] + j) * ext, m);
        break;
    case MPI_COMBINER_HVECTOR:
        for (int i = 0; i < ci[0]; i++)
            for (int j = 0; j < ci[1]; j++)
                flatten(ct[0], base + i * ca[0] + j * ext, m);
        break;
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < ci[0]; i++)
            for (int j = 0; j < ci[1 + i]; j++)
                flatten(ct[0], base + ((MPI_Aint)ci[1 + ci[0] + i] + j) * ext, m);
        break;
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < ci[0]; i++)
            for (int j = 0; j < ci[1 + i]; j++)
                flatten(ct[0], base + ca[i] + j * ext, m);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        for (int i = 0; i < ci[0]; i++)
            for (int j = 0; j < ci[1]; j++)
                flatten(ct[0], base + ((MPI_Aint)ci[2 + i] + j) * ext, m);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < ci[0]; i++)
            for (int j = 0; j < ci[1]; j++)
                flatten(ct[0], base + ca[i] + j * ext, m);
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < ci[0]; i++)
            for (int j = 0; j < ci[1 + i]; j++)
                flatten(ct[i], base + ca[i] + j * extent_of(ct[i]), m);
        break;
    default:
        mtest_fail("flatten: combiner %d not handled", comb);
    }
    for (int i = 0; i < nd; i++) {
        int e_i, e_a, e_d, e_c;
        MPI_Type_get_envelope(ct[i], &e_i, &e_a, &e_d, &e_c);
        if (e_c != MPI_COMBINER_NAMED)
            MPI_Type_free(&ct[i]);
    }
    free(ci);
    free(ca);
    free(ct);
}

/* count elements at base <-> the packed stream, one segment at a time. */
static size_t ref_pack(const typemap_t *m, MPI_Aint ext, int count, const char *base, char *out)
{
    size_t at = 0;
    for (int e = 0; e < count; e++)
        for (int s = 0; s < m->n; s++) {
            memcpy(out + at, base + e * ext + m->segs[s].disp, (size_t)m->segs[s].len);
            at += (size_t)m->segs[s].len;
        }
    return at;
}

static void ref_unpack(const typemap_t *m, MPI_Aint ext, int count, char *base, const char *in)
{
    size_t at = 0;
    for (int e = 0; e < count; e++)
        for (int s = 0; s < m->n; s++) {
            memcpy(base + e * ext + m->segs[s].disp, in + at, (size_t)m->segs[s].len);
            at += (size_t)m->segs[s].len;
        }
}

/* ---- the types ------------------------------------------------------------ */

#define NTYPES 20
static MPI_Datatype types[NTYPES];
static const char *names[NTYPES];
static int ntypes;

static void keep(MPI_Datatype t, const char *name)
{
    MPI_Type_commit(&t);
    types[ntypes] = t;
    names[ntypes++] = name;
}

struct cdi {
    char c;
    double d;
    int i;
};

static void make_types(void)
{
    MPI_Datatype vec, t, idx, hv;
    keep(MPI_INT, "MPI_INT");
    keep(MPI_DOUBLE_INT, "MPI_DOUBLE_INT");
    MPI_Type_contiguous(5, MPI_SHORT, &t);
    keep(t, "contiguous(5, SHORT)");
    MPI_Type_vector(4, 3, 5, MPI_INT, &vec);
    keep(vec, "vector(4, 3, 5, INT)");
    MPI_Type_vector(3, 2, -4, MPI_DOUBLE, &t);
    keep(t, "vector(3, 2, -4, DOUBLE)");
    MPI_Type_create_hvector(3, 2, 13, MPI_CHAR, &t);
    keep(t, "hvector(3, 2, 13, CHAR)");
    MPI_Type_create_hvector(2, 1, -24, vec, &t);
    keep(t, "hvector(2, 1, -24, vector)");
    {
        const int bl[4] = {3, 0, 1, 2}, d[4] = {7, 2, -3, 12};
        MPI_Type_indexed(4, bl, d, MPI_FLOAT, &t);
        keep(t, "indexed({3,0,1,2}, {7,2,-3,12}, FLOAT)");
    }
    {
        const int bl[3] = {1, 2, 1};
        const MPI_Aint d[3] = {40, -16, 3};
        MPI_Type_create_hindexed(3, bl, d, MPI_SHORT, &t);
        keep(t, "hindexed({1,2,1}, {40,-16,3}, SHORT)");
    }
    {
        const int d[3] = {6, 0, -4};
        MPI_Type_create_indexed_block(3, 2, d, MPI_INT, &t);
        keep(t, "indexed_block(2, {6,0,-4}, INT)");
    }
    {
        const MPI_Aint d[4] = {0, 100, 50, -30};
        MPI_Type_create_hindexed_block(4, 1, d, MPI_DOUBLE, &t);
        keep(t, "hindexed_block(1, {0,100,50,-30}, DOUBLE)");
    }
    {
        const int bl[3] = {1, 1, 1};
        const MPI_Aint d[3] = {offsetof(struct cdi, c), offsetof(struct cdi, d), offsetof(struct cdi, i)};
        const MPI_Datatype ts[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
        MPI_Type_create_struct(3, bl, d, ts, &t);
        keep(t, "struct {char, double, int}");
    }
    MPI_Datatype mix;
    {
        const int bl[3] = {1, 2, 1};
        const MPI_Aint d[3] = {0, 120, -40};
        const MPI_Datatype ts[3] = {vec, MPI_SHORT_INT, MPI_DOUBLE_INT};
        MPI_Type_create_struct(3, bl, d, ts, &mix);
        keep(mix, "struct {vector, 2 SHORT_INT, DOUBLE_INT at -40}");
    }
    MPI_Type_create_resized(vec, -8, 120, &t);
    keep(t, "resized(vector, -8, 120)");
    MPI_Type_dup(mix, &t);
    keep(t, "dup(struct mix)");
    {
        const int bl[2] = {2, 1}, d[2] = {3, -1};
        MPI_Type_indexed(2, bl, d, MPI_INT, &idx);
        MPI_Type_create_hvector(2, 1, -200, idx, &hv);
        MPI_Type_contiguous(2, hv, &t);
        keep(t, "contiguous(2, hvector(2, 1, -200, indexed))");
        MPI_Type_free(&idx);
        MPI_Type_free(&hv);
    }
    MPI_Type_contiguous(0, MPI_INT, &t);
    keep(t, "contiguous(0, INT)");
    {
        const int bl[2] = {0, 3};
        const MPI_Aint d[2] = {0, 4};
        const MPI_Datatype ts[2] = {MPI_DOUBLE, MPI_INT};
        MPI_Type_create_struct(2, bl, d, ts, &t);
        keep(t, "struct {0 doubles, 3 ints}");
    }
}

/* ---- the tests ------------------------------------------------------------ */

#define ARENA (1 << 16)
#define MID (ARENA / 2)
static char *arena, *want_arena, *packed, *want_packed;
static const int counts[] = {0, 1, 2, 3, 7};

/* Whether count elements of t at arena + at stay inside the arena. */
static int fits_at(MPI_Datatype t, int count, MPI_Aint at)
{
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_get_true_extent(t, &tlb, &text);
    MPI_Aint lo = tlb + (ext < 0 ? (count - 1) * ext : 0), hi = tlb + text + (ext > 0 ? (count - 1) * ext : 0);
    return count == 0 || (at + lo >= 0 && at + hi <= ARENA);
}

static int fits(MPI_Datatype t, int count) { return fits_at(t, count, MID); }

static void test_one(int k)
{
    MPI_Datatype t = types[k];
    typemap_t m = {0};
    flatten(t, 0, &m);
    MPI_Aint ext = extent_of(t);
    int size;
    MPI_Type_size(t, &size);
    if (size == 0 && MTEST_MPICH_DEVIATION) {   /* MPICH divides by zero unpacking these */
        free(m.segs);
        return;
    }
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        int count = counts[ci];
        if (!MTEST_CHECK(fits(t, count), "%s x %d does not fit the test's arena", names[k], count))
            continue;
        int need = size * count, psize = -1;
        MTEST_RC(MPI_Pack_size(count, t, MPI_COMM_WORLD, &psize));
        MTEST_CHECK(psize >= need, "%s: Pack_size(%d) = %d, less than the %d bytes of data", names[k], count,
                    psize, need);
        /* the same representation on every rank: no header */
        MTEST_CHECK(psize == need, "%s: Pack_size(%d) = %d, want %d", names[k], count, psize, need);

        /* pack at position 3, with 16 spare bytes after */
        mtest_fill(arena, ARENA, mtest_rank, k);
        memset(packed, 0xee, (size_t)need + 64);
        memset(want_packed, 0xee, (size_t)need + 64);
        ref_pack(&m, ext, count, arena + MID, want_packed + 3);
        int pos = 3;
        MTEST_RC(MPI_Pack(arena + MID, count, t, packed, need + 19, &pos, MPI_COMM_WORLD));
        MTEST_CHECK(pos == 3 + need, "%s x %d: position %d after Pack, want %d", names[k], count, pos, 3 + need);
        if (memcmp(packed, want_packed, (size_t)need + 64) != 0)
            mtest_fail("%s x %d: packed bytes differ from the typemap's", names[k], count);

        /* unpack into a poisoned arena: the typemap's bytes change, nothing else */
        mtest_poison(arena, ARENA, mtest_rank, k);
        memcpy(want_arena, arena, ARENA);
        ref_unpack(&m, ext, count, want_arena + MID, want_packed + 3);
        pos = 3;
        MTEST_RC(MPI_Unpack(packed, need + 19, &pos, arena + MID, count, t, MPI_COMM_WORLD));
        MTEST_CHECK(pos == 3 + need, "%s x %d: position %d after Unpack, want %d", names[k], count, pos, 3 + need);
        if (memcmp(arena, want_arena, ARENA) != 0)
            mtest_fail("%s x %d: unpack wrote other bytes than the typemap's", names[k], count);

        /* an exact fit works; one byte less is truncation */
        if (need > 0) {
            pos = 0;
            MTEST_RC(MPI_Pack(arena + MID, count, t, packed, need, &pos, MPI_COMM_WORLD));
            MTEST_CHECK(pos == need, "%s x %d: exact-fit Pack moved position to %d", names[k], count, pos);
            /* MPICH packs what fits and returns MPI_SUCCESS */
            if (!MTEST_MPICH_DEVIATION) {
                pos = 1;
                CLASS(MPI_Pack(arena + MID, count, t, packed, need, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                      "Pack with outsize one byte short");
                MTEST_CHECK(pos == 1, "a failed Pack moved position to %d", pos);
                pos = 1;
                CLASS(MPI_Unpack(packed, need, &pos, arena + MID, count, t, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                      "Unpack with insize one byte short");
                MTEST_CHECK(pos == 1, "a failed Unpack moved position to %d", pos);
            }
        }
    }

    /* appending: 2 elements, 3 ints, 3 elements from elsewhere; then unpack
     * in the same pieces */
    if (fits(t, 3)) {
        int ints[3] = {11, -22, 33}, back[3] = {0, 0, 0};
        char *second = arena + MID + 2 * 4096;
        mtest_fill(arena, ARENA, mtest_rank, 100 + k);
        size_t at = 0;
        at += ref_pack(&m, ext, 2, arena + MID, want_packed + at);
        memcpy(want_packed + at, ints, sizeof ints);
        at += sizeof ints;
        int ok3 = fits_at(t, 3, MID + 2 * 4096);
        if (ok3)
            at += ref_pack(&m, ext, 3, second, want_packed + at);
        int total = 0, pos = 0;
        MPI_Pack_size(2, t, MPI_COMM_WORLD, &total);
        total += 64 + (ok3 ? 3 * size : 0);
        MTEST_RC(MPI_Pack(arena + MID, 2, t, packed, total, &pos, MPI_COMM_WORLD));
        MTEST_RC(MPI_Pack(ints, 3, MPI_INT, packed, total, &pos, MPI_COMM_WORLD));
        if (ok3)
            MTEST_RC(MPI_Pack(second, 3, t, packed, total, &pos, MPI_COMM_WORLD));
        MTEST_CHECK(pos == (int)at && memcmp(packed, want_packed, at) == 0,
                    "%s: three appending Pack calls: position %d (want %zu) or bytes differ", names[k], pos, at);
        mtest_poison(arena, ARENA, mtest_rank, k);
        memcpy(want_arena, arena, ARENA);
        ref_unpack(&m, ext, 2, want_arena + MID, want_packed);
        if (ok3)
            ref_unpack(&m, ext, 3, want_arena + MID + 2 * 4096, want_packed + 2 * size + sizeof ints);
        pos = 0;
        MTEST_RC(MPI_Unpack(packed, (int)at, &pos, arena + MID, 2, t, MPI_COMM_WORLD));
        MTEST_RC(MPI_Unpack(packed, (int)at, &pos, back, 3, MPI_INT, MPI_COMM_WORLD));
        if (ok3)
            MTEST_RC(MPI_Unpack(packed, (int)at, &pos, arena + MID + 2 * 4096, 3, t, MPI_COMM_WORLD));
        MTEST_CHECK(pos == (int)at && memcmp(arena, want_arena, ARENA) == 0 && back[0] == 11 && back[1] == -22 &&
                        back[2] == 33,
                    "%s: unpacking the appended pieces: position %d (want %zu), ints %d %d %d", names[k], pos, at,
                    back[0], back[1], back[2]);
    }
    free(m.segs);
}

/* A struct of absolute addresses, packed from and unpacked to MPI_BOTTOM. */
static void test_bottom(void)
{
    double d = 2.5;
    int v[3] = {7, 8, 9};
    char c = 'z';
    MPI_Aint a[3];
    MPI_Get_address(&d, &a[0]);
    MPI_Get_address(v, &a[1]);
    MPI_Get_address(&c, &a[2]);
    const int bl[3] = {1, 3, 1};
    const MPI_Datatype ts[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
    MPI_Datatype t;
    MPI_Type_create_struct(3, bl, a, ts, &t);
    MPI_Type_commit(&t);
    char buf[64], want[64];
    memcpy(want, &d, 8);
    memcpy(want + 8, v, 12);
    want[20] = c;
    int pos = 0;
    MTEST_RC(MPI_Pack(MPI_BOTTOM, 1, t, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    MTEST_CHECK(pos == 21 && memcmp(buf, want, 21) == 0, "Pack from MPI_BOTTOM: position %d or bytes differ", pos);
    d = 0;
    v[0] = v[1] = v[2] = 0;
    c = 0;
    pos = 0;
    MTEST_RC(MPI_Unpack(buf, pos + 21, &pos, MPI_BOTTOM, 1, t, MPI_COMM_WORLD));
    MTEST_CHECK(d == 2.5 && v[0] == 7 && v[1] == 8 && v[2] == 9 && c == 'z',
                "Unpack to MPI_BOTTOM: %g %d %d %d %c", d, v[0], v[1], v[2], c);
    MPI_Type_free(&t);
}

/* Packed data travels as MPI_PACKED to the next rank, which unpacks it. */
static void test_exchange(void)
{
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    for (int k = 0; k < ntypes; k++) {
        MPI_Datatype t = types[k];
        int size, pos = 0;
        MPI_Type_size(t, &size);
        if (!fits(t, 3) || (size == 0 && MTEST_MPICH_DEVIATION))
            continue;
        int header = 1000 + k, got_header = -1;
        mtest_fill(arena, ARENA, mtest_rank, 200 + k);
        MPI_Pack(&header, 1, MPI_INT, packed, 4 + 3 * size, &pos, MPI_COMM_WORLD);
        MPI_Pack(arena + MID, 3, t, packed, 4 + 3 * size, &pos, MPI_COMM_WORLD);
        MPI_Status st;
        MTEST_RC(MPI_Sendrecv(packed, pos, MPI_PACKED, right, k, want_packed, 4 + 3 * size, MPI_PACKED, left, k,
                              MPI_COMM_WORLD, &st));
        int n = -1;
        MPI_Get_count(&st, MPI_PACKED, &n);
        MTEST_CHECK(n == 4 + 3 * size, "%s: %d packed bytes arrived, want %d", names[k], n, 4 + 3 * size);
        /* what the left neighbour's arena held, unpacked by the reference */
        typemap_t m = {0};
        flatten(t, 0, &m);
        mtest_fill(arena, ARENA, left, 200 + k);
        ref_pack(&m, extent_of(t), 3, arena + MID, packed);
        mtest_poison(arena, ARENA, mtest_rank, k);
        memcpy(want_arena, arena, ARENA);
        ref_unpack(&m, extent_of(t), 3, want_arena + MID, packed);
        pos = 0;
        MTEST_RC(MPI_Unpack(want_packed, n, &pos, &got_header, 1, MPI_INT, MPI_COMM_WORLD));
        MTEST_RC(MPI_Unpack(want_packed, n, &pos, arena + MID, 3, t, MPI_COMM_WORLD));
        MTEST_CHECK(got_header == 1000 + k && memcmp(arena, want_arena, ARENA) == 0,
                    "%s: data from rank %d unpacked wrong (header %d)", names[k], left, got_header);
        free(m.segs);
    }
}

static void test_errors(void)
{
    int x[4] = {0}, pos = 0, size;
    char buf[64];
    MPI_Datatype v;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);     /* not committed */
    CLASS(MPI_Pack(x, 1, MPI_INT, buf, 64, &pos, MPI_COMM_NULL), MPI_ERR_COMM, "Pack with MPI_COMM_NULL");
    CLASS(MPI_Unpack(buf, 64, &pos, x, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM, "Unpack with MPI_COMM_NULL");
    CLASS(MPI_Pack_size(1, MPI_INT, MPI_COMM_NULL, &size), MPI_ERR_COMM, "Pack_size with MPI_COMM_NULL");
    CLASS(MPI_Pack(x, 1, v, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE, "Pack with an uncommitted type");
    CLASS(MPI_Pack_size(1, v, MPI_COMM_WORLD, &size), MPI_ERR_TYPE, "Pack_size with an uncommitted type");
    CLASS(MPI_Pack(x, -1, MPI_INT, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT, "Pack with incount -1");
    CLASS(MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &size), MPI_ERR_COUNT, "Pack_size with incount -1");
    CLASS(MPI_Pack(x, 1, MPI_DATATYPE_NULL, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE, "Pack of NULL type");
    /* MPICH takes a negative position and packs before the buffer */
    if (!MTEST_MPICH_DEVIATION) {
        pos = -1;
        CLASS(MPI_Pack(x, 1, MPI_INT, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_ARG, "Pack at position -1");
        pos = 65;
        CLASS(MPI_Unpack(buf, 64, &pos, x, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG, "Unpack at position 65 of 64");
    }
    MPI_Type_free(&v);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    arena = mtest_malloc(ARENA);
    want_arena = mtest_malloc(ARENA);
    packed = mtest_malloc(ARENA);
    want_packed = mtest_malloc(ARENA);
    make_types();
    for (int k = 0; k < ntypes; k++)
        test_one(k);
    if (!MTEST_MPICH_DEVIATION)     /* MPICH rejects MPI_BOTTOM as inbuf/outbuf */
        test_bottom();
    test_exchange();
    test_errors();
    for (int k = 0; k < ntypes; k++) {
        int ni, na, nd, comb;
        MPI_Type_get_envelope(types[k], &ni, &na, &nd, &comb);
        if (comb != MPI_COMBINER_NAMED)
            MPI_Type_free(&types[k]);
    }
    free(arena);
    free(want_arena);
    free(packed);
    free(want_packed);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return mtest_finalize();
}
