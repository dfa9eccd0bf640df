/* The data representations of MPI-IO (io/datarep.c, datarep_convert.c,
 * datarep_type.c), without the api or any file:
 *   - the registry: the three built-in names, a user registration, a taken
 *     name (built-in or user) is MPI_ERR_DUP_DATAREP, bad names;
 *   - external32: ints, doubles, shorts and longs of a struct type against
 *     their big-endian bytes written out by hand, back again, and the same
 *     conversion in pieces (every split point) giving the same bytes;
 *   - a user representation storing ints byte-swapped: the conversion
 *     function sees the whole access at position 0, pieces at their item
 *     positions, and its failure is MPI_ERR_CONVERSION;
 *   - file layouts under a representation that doubles every extent:
 *     extents and data pieces of vector, hvector, indexed, struct, resized,
 *     subarray and darray types, sizes of the file form, the extent
 *     function asked once per predefined type, dt itself when nothing
 *     changes; external32 layouts of longs; MPI_CONVERSION_FN_NULL keeps
 *     native bytes in the wider slots. */
#include "io/io.h"
#include "core/dtype_dist.h"
#include "unit.h"
#include <stdbool.h>

void dmpi_dtype_init(void);

static MPI_Datatype tint = MPI_INT, tdouble = MPI_DOUBLE;

/* ---- the registry --------------------------------------------------------- */

static int extent_calls;

static int doubling_extent(MPI_Datatype t, MPI_Aint *ext, void *extra)
{
    (void)extra;
    extent_calls++;
    *ext = 2 * dmpi_dtype_get(t)->extent;
    return MPI_SUCCESS;
}

static int native_extent(MPI_Datatype t, MPI_Aint *ext, void *extra)
{
    (void)extra;
    *ext = dmpi_dtype_get(t)->extent;
    return MPI_SUCCESS;
}

static int swap_calls;
static MPI_Offset swap_positions[8];
static MPI_Count swap_counts[8];
static int swap_fail;

/* Ints of a contiguous-int type at position..position+count, byte-swapped. */
static int swap_ints(void *ubuf, MPI_Datatype t, int count, void *fbuf, MPI_Offset position, void *extra)
{
    (void)t;
    (void)extra;
    if (swap_calls < 8) {
        swap_positions[swap_calls] = position;
        swap_counts[swap_calls] = count;
    }
    swap_calls++;
    if (swap_fail)
        return MPI_ERR_OTHER;
    const unsigned char *src = (const unsigned char *)ubuf + 4 * position;
    unsigned char *dst = fbuf;
    for (int i = 0; i < count; i++)
        for (int b = 0; b < 4; b++)
            dst[4 * i + b] = src[4 * i + 3 - b];
    return MPI_SUCCESS;
}

/* The read direction: the same swap from filebuf into the tiled userbuf. */
static int unswap_ints(void *ubuf, MPI_Datatype t, int count, void *fbuf, MPI_Offset position, void *extra)
{
    (void)t;
    (void)extra;
    swap_calls++;
    const unsigned char *src = fbuf;
    unsigned char *dst = (unsigned char *)ubuf + 4 * position;
    for (int i = 0; i < count; i++)
        for (int b = 0; b < 4; b++)
            dst[4 * i + b] = src[4 * i + 3 - b];
    return swap_fail ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static void test_registry(void)
{
    const dmpi_datarep_t *n = dmpi_datarep_find("native"), *i = dmpi_datarep_find("internal"),
                         *x = dmpi_datarep_find("external32");
    CHECK(n && i && x && n != i && i != x, "built-in representations not found");
    CHECK(!dmpi_datarep_find("nonesuch") && !dmpi_datarep_find("Native") && !dmpi_datarep_find(""),
          "unknown names found");
    CHECK(!dmpi_datarep_converts(n) && !dmpi_datarep_converts(i) && dmpi_datarep_converts(x),
          "converts() of the built-in ones");
    CHECK(dmpi_datarep_register("unit-swap", unswap_ints, swap_ints, NULL, NULL, native_extent, NULL) ==
              MPI_SUCCESS, "registering unit-swap failed");
    const dmpi_datarep_t *s = dmpi_datarep_find("unit-swap");
    CHECK(s && dmpi_datarep_converts(s) && s->read == unswap_ints && s->write == swap_ints && !s->read_c,
          "unit-swap as registered");
    int err = dmpi_datarep_register("unit-swap", NULL, NULL, NULL, NULL, native_extent, NULL);
    CHECK(dmpi_err_class_of(err) == MPI_ERR_DUP_DATAREP, "re-registration gave class %d", dmpi_err_class_of(err));
    err = dmpi_datarep_register("external32", NULL, NULL, NULL, NULL, native_extent, NULL);
    CHECK(dmpi_err_class_of(err) == MPI_ERR_DUP_DATAREP, "registering external32 gave class %d",
          dmpi_err_class_of(err));
    char name[MPI_MAX_DATAREP_STRING + 1];
    memset(name, 'a', sizeof name - 1);
    name[MPI_MAX_DATAREP_STRING] = 0;
    err = dmpi_datarep_register(name, NULL, NULL, NULL, NULL, native_extent, NULL);
    CHECK(dmpi_err_class_of(err) == MPI_ERR_ARG, "a name of MPI_MAX_DATAREP_STRING chars gave class %d",
          dmpi_err_class_of(err));
    name[MPI_MAX_DATAREP_STRING - 1] = 0;
    CHECK(dmpi_datarep_register(name, NULL, NULL, NULL, NULL, native_extent, NULL) == MPI_SUCCESS &&
              dmpi_datarep_find(name) && !dmpi_datarep_converts(dmpi_datarep_find(name)),
          "a name of MPI_MAX_DATAREP_STRING - 1 chars was refused");
    CHECK(dmpi_datarep_register("unit-double", NULL, NULL, NULL, NULL, doubling_extent, NULL) == MPI_SUCCESS,
          "registering unit-double failed");
}

/* ---- external32 ----------------------------------------------------------- */

struct rec {
    int i;
    double d;
    short s[2];
    long l;
};

static dmpi_dtype_t *rec_type(void)
{
    MPI_Datatype types[4] = {MPI_INT, MPI_DOUBLE, MPI_SHORT, MPI_LONG};
    const MPI_Count p[9] = {4, 1, 1, 2, 1, offsetof(struct rec, i), offsetof(struct rec, d),
                            offsetof(struct rec, s), offsetof(struct rec, l)};
    dmpi_dtype_t *t = NULL;
    CHECK(dmpi_dtype_make(MPI_COMBINER_STRUCT, 9, p, 4, types, true, &t) == MPI_SUCCESS, "struct failed");
    CHECK(t->extent == sizeof(struct rec), "struct extent %ld", (long)t->extent);
    return t;
}

static void test_external32(void)
{
    const dmpi_datarep_t *x = dmpi_datarep_find("external32");
    dmpi_dtype_t *t = rec_type();
    struct rec in[2] = {{0x01020304, 1.0, {-2, 0x1234}, -3}, {-1, -2.5, {7, -32768}, 0x7f000001}};
    static const unsigned char want[2][22] = {
        {0x01, 0x02, 0x03, 0x04, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0xff, 0xfe, 0x12, 0x34, 0xff, 0xff, 0xff, 0xfd},
        {0xff, 0xff, 0xff, 0xff, 0xc0, 0x04, 0, 0, 0, 0, 0, 0, 0x00, 0x07, 0x80, 0x00, 0x7f, 0x00, 0x00, 0x01}};
    MPI_Count bytes = 0;
    CHECK(dmpi_datarep_size("test", x, t, 2, &bytes) == MPI_SUCCESS && bytes == 40, "external32 size %lld",
          (long long)bytes);
    unsigned char f[48];
    memset(f, 0xee, sizeof f);
    CHECK(dmpi_datarep_to_file("test", x, t, in, 2, f, 0) == MPI_SUCCESS, "to_file failed");
    CHECK(!memcmp(f, want[0], 20) && !memcmp(f + 20, want[1], 20) && f[40] == 0xee, "external32 bytes differ");
    struct rec out[2];
    memset(out, 0, sizeof out);
    CHECK(dmpi_datarep_from_file("test", x, t, out, 2, f, 0) == MPI_SUCCESS, "from_file failed");
    int bad = 0;
    for (int e = 0; e < 2; e++)
        if (out[e].i != in[e].i || out[e].d != in[e].d || out[e].s[0] != in[e].s[0] || out[e].s[1] != in[e].s[1] ||
            out[e].l != in[e].l)
            NOTE(bad, "element %d differs", e);
    CHECK(!bad, "external32 round trip");

    /* in pieces: items [0, k) and [k, 10) of the 10 items, for every k; the
     * piece's count is given in elements of dt, so pieces of a whole
     * element's items are what a caller can ask: k and 5 + k */
    bad = 0;
    for (int k = 0; k <= 5; k++) {
        unsigned char g[48];
        memset(g, 0xee, sizeof g);
        MPI_Count head = 0;
        /* element 0's items from k, through element 1's item k (5 items = one element's worth) */
        if (dmpi_datarep_to_file("test", x, t, in, 1, g, k) != MPI_SUCCESS) {
            NOTE(bad, "piece at %d failed", k);
            continue;
        }
        static const int item_bytes[5] = {4, 8, 2, 2, 4};
        for (int j = 0; j < k; j++)
            head += item_bytes[j];
        if (memcmp(g, f + head, 20) || g[20] != 0xee)
            NOTE(bad, "piece from item %d differs", k);
        struct rec back[2];
        memcpy(back, in, sizeof back);
        memset(&back[0], 0, sizeof back[0]);
        memset(&back[1], 0, sizeof back[1]);
        if (dmpi_datarep_from_file("test", x, t, back, 1, g, k) != MPI_SUCCESS)
            NOTE(bad, "reading the piece at %d failed", k);
        /* items k..4 of element 0 and 0..k-1 of element 1 came back */
        if (k == 0 && (back[0].i != in[0].i || back[0].l != in[0].l || back[1].i != 0))
            NOTE(bad, "piece 0 read back wrong");
        if (k == 2 && (back[0].i != 0 || back[0].d != 0 || back[0].s[0] != in[0].s[0] || back[0].l != in[0].l ||
                       back[1].i != in[1].i || back[1].d != in[1].d || back[1].s[0] != 0))
            NOTE(bad, "piece 2 read back wrong");
    }
    CHECK(!bad, "external32 in pieces");

    /* a vector of longs: 8 bytes natively, 4 in the file */
    MPI_Datatype tlong = MPI_LONG;
    const MPI_Count v[3] = {3, 2, 4};
    dmpi_dtype_t *vl, *ft;
    CHECK(dmpi_dtype_make(MPI_COMBINER_VECTOR, 3, v, 1, &tlong, true, &vl) == MPI_SUCCESS, "vector failed");
    CHECK(dmpi_datarep_file_type("test", x, vl, &ft) == MPI_SUCCESS && ft != vl && ft->extent == 40 &&
              ft->size == 24, "external32 layout of a vector of longs: extent %ld size %zu", (long)ft->extent,
          ft->size);
    MPI_Aint ext = 0;
    CHECK(dmpi_datarep_extent("test", x, vl, &ext) == MPI_SUCCESS && ext == 40, "external32 extent %ld",
          (long)ext);
    CHECK(dmpi_datarep_extent("test", x, dmpi_dtype_get(MPI_LONG_DOUBLE), &ext) == MPI_SUCCESS && ext == 16,
          "external32 long double extent %ld", (long)ext);
    CHECK(dmpi_datarep_extent("test", x, dmpi_dtype_get(MPI_DOUBLE_INT), &ext) == MPI_SUCCESS && ext == 12,
          "external32 MPI_DOUBLE_INT extent %ld", (long)ext);
    dmpi_dtype_release(ft);
    /* ints keep their extent: the type itself */
    dmpi_dtype_t *vi;
    CHECK(dmpi_dtype_make(MPI_COMBINER_VECTOR, 3, v, 1, &tint, true, &vi) == MPI_SUCCESS, "vector failed");
    CHECK(dmpi_datarep_file_type("test", x, vi, &ft) == MPI_SUCCESS && ft == vi && vi->refcount == 2,
          "external32 layout of ints is not the type itself");
    dmpi_dtype_release(ft);
    dmpi_dtype_release(vi);
    dmpi_dtype_release(vl);
    dmpi_dtype_release(t);
}

/* ---- a user representation ------------------------------------------------ */

static void test_user_swap(void)
{
    const dmpi_datarep_t *s = dmpi_datarep_find("unit-swap");
    const MPI_Count six = 6;
    dmpi_dtype_t *c6;
    CHECK(dmpi_dtype_make(MPI_COMBINER_CONTIGUOUS, 1, &six, 1, &tint, true, &c6) == MPI_SUCCESS, "contig failed");
    int in[12], out[12];
    for (int i = 0; i < 12; i++)
        in[i] = 0x10203040 + i;
    unsigned char f[48];
    swap_calls = 0;
    CHECK(dmpi_datarep_to_file("test", s, c6, in, 2, f, 0) == MPI_SUCCESS, "user to_file failed");
    CHECK(swap_calls == 1 && swap_positions[0] == 0 && swap_counts[0] == 12, "one call of 12 items at 0: %d calls",
          swap_calls);
    int bad = 0;
    for (int i = 0; i < 12; i++)
        if (f[4 * i] != 0x10 || f[4 * i + 1] != 0x20 || f[4 * i + 2] != 0x30 || f[4 * i + 3] != 0x40 + i)
            NOTE(bad, "int %d not swapped", i);
    CHECK(!bad, "user conversion bytes");
    /* pieces: the same ubuf, positions 0 and 6 */
    unsigned char g[48];
    swap_calls = 0;
    CHECK(dmpi_datarep_to_file("test", s, c6, in, 1, g, 0) == MPI_SUCCESS &&
              dmpi_datarep_to_file("test", s, c6, in, 1, g + 24, 6) == MPI_SUCCESS && !memcmp(f, g, 48) &&
              swap_positions[1] == 6 && swap_counts[1] == 6, "user conversion in pieces");
    memset(out, 0, sizeof out);
    CHECK(dmpi_datarep_from_file("test", s, c6, out, 2, f, 0) == MPI_SUCCESS && !memcmp(in, out, sizeof in),
          "user read conversion");
    MPI_Count bytes;
    CHECK(dmpi_datarep_size("test", s, c6, 2, &bytes) == MPI_SUCCESS && bytes == 48, "user size %lld",
          (long long)bytes);
    swap_fail = 1;
    int err = dmpi_datarep_to_file("MPI_File_write", s, c6, in, 2, f, 0);
    CHECK(dmpi_err_class_of(err) == MPI_ERR_CONVERSION, "a failing write conversion gave class %d",
          dmpi_err_class_of(err));
    err = dmpi_datarep_from_file("MPI_File_read", s, c6, out, 2, f, 0);
    CHECK(dmpi_err_class_of(err) == MPI_ERR_CONVERSION, "a failing read conversion gave class %d",
          dmpi_err_class_of(err));
    swap_fail = 0;
    /* extents native: the layout is the type itself */
    dmpi_dtype_t *ft;
    CHECK(dmpi_datarep_file_type("test", s, c6, &ft) == MPI_SUCCESS && ft == c6, "native extents kept the type");
    dmpi_dtype_release(ft);
    dmpi_dtype_release(c6);
}

/* ---- file layouts with doubled extents ------------------------------------ */

static void check_layout(const char *what, const dmpi_datarep_t *r, dmpi_dtype_t *t, MPI_Aint ext, size_t size,
                         MPI_Aint lb)
{
    dmpi_dtype_t *ft = NULL;
    MPI_Aint e = -1;
    int err = dmpi_datarep_file_type("test", r, t, &ft);
    CHECK(err == MPI_SUCCESS && ft && ft->extent == ext && ft->size == size && ft->lb == lb && ft->committed,
          "%s: file extent %ld size %zu lb %ld, want %ld %zu %ld", what, ft ? (long)ft->extent : -1L,
          ft ? ft->size : 0, ft ? (long)ft->lb : -1L, (long)ext, size, (long)lb);
    CHECK(dmpi_datarep_extent("test", r, t, &e) == MPI_SUCCESS && e == ext, "%s: extent() %ld", what, (long)e);
    if (ft)
        dmpi_dtype_release(ft);
}

static void test_layouts(void)
{
    const dmpi_datarep_t *d = dmpi_datarep_find("unit-double");
    dmpi_dtype_t *t, *ft;
    extent_calls = 0;
    /* vector(3, 2, 4) of int: native extent 40, file 80; data 6 ints of 8 bytes */
    const MPI_Count v[3] = {3, 2, 4};
    dmpi_dtype_make(MPI_COMBINER_VECTOR, 3, v, 1, &tint, true, &t);
    check_layout("vector", d, t, 80, 24, 0);      /* FN_NULL: native bytes, 4 of each 8-byte slot */
    CHECK(dmpi_datarep_file_type("test", d, t, &ft) == MPI_SUCCESS && ft != t, "vector layout");
    int bad = 0;
    {   /* the data pieces: ints at 0, 8, 32, 40, 64, 72 */
        static const MPI_Aint at[6] = {0, 8, 32, 40, 64, 72};
        int k = 0;
        for (int i = 0; i < ft->nruns; i++)
            for (size_t c = 0; c < ft->runs[i].count; c++, k++)
                if (k >= 6 || ft->runs[i].off + (MPI_Aint)c * ft->runs[i].stride != at[k] || ft->runs[i].len != 4)
                    NOTE(bad, "piece %d", k);
        if (k != 6)
            NOTE(bad, "%d pieces", k);
    }
    CHECK(!bad, "vector pieces in the file");
    dmpi_dtype_release(ft);
    MPI_Count bytes;
    CHECK(dmpi_datarep_size("test", d, t, 3, &bytes) == MPI_SUCCESS && bytes == 72, "FN_NULL size is native: %lld",
          (long long)bytes);
    dmpi_dtype_release(t);
    /* hvector(3, 2, 100 bytes) of int: 200 + 2 * 8 */
    const MPI_Count hv[3] = {3, 2, 100};
    dmpi_dtype_make(MPI_COMBINER_HVECTOR, 3, hv, 1, &tint, true, &t);
    check_layout("hvector", d, t, 216, 24, 0);
    dmpi_dtype_release(t);
    /* indexed {1 at 3, 2 at 0} of double: native lb 0 ub 32, file ub 64 */
    const MPI_Count ix[5] = {2, 1, 2, 3, 0};
    dmpi_dtype_make(MPI_COMBINER_INDEXED, 5, ix, 1, &tdouble, true, &t);
    check_layout("indexed", d, t, 64, 24, 0);
    dmpi_dtype_release(t);
    /* struct {int at 0, double at 8}: bytes as given, no padding: 8 + 16 = 24 */
    MPI_Datatype st[2] = {MPI_INT, MPI_DOUBLE};
    const MPI_Count sp[5] = {2, 1, 1, 0, 8};
    dmpi_dtype_make(MPI_COMBINER_STRUCT, 5, sp, 2, st, true, &t);
    CHECK(t->extent == 16, "native struct extent");
    check_layout("struct", d, t, 24, 12, 0);
    /* a contiguous of 2 of that struct: its extent is the file one */
    const MPI_Count two = 2;
    MPI_Datatype sh = t->handle;
    dmpi_dtype_t *c2;
    dmpi_dtype_make(MPI_COMBINER_CONTIGUOUS, 1, &two, 1, &sh, true, &c2);
    check_layout("contiguous of struct", d, c2, 48, 24, 0);
    dmpi_dtype_release(c2);
    dmpi_dtype_release(t);
    /* resized int (lb -4, extent 12): bytes kept as given */
    const MPI_Count rs[2] = {-4, 12};
    dmpi_dtype_make(MPI_COMBINER_RESIZED, 2, rs, 1, &tint, true, &t);
    check_layout("resized", d, t, 12, 4, -4);
    dmpi_dtype_release(t);
    /* subarray 4 x 5 ints, 2 x 3 from (1, 1), C order: the whole array's extent doubles */
    const MPI_Count sizes[2] = {4, 5}, subs[2] = {2, 3}, starts[2] = {1, 1};
    CHECK(dmpi_dtype_subarray(2, sizes, subs, starts, MPI_ORDER_C, false, dmpi_dtype_get(MPI_INT), &t) ==
              MPI_SUCCESS, "subarray failed");
    check_layout("subarray", d, t, 160, 24, 0);
    CHECK(dmpi_datarep_file_type("test", d, t, &ft) == MPI_SUCCESS && ft->true_lb == 48, "subarray first int at %ld",
          (long)ft->true_lb);
    dmpi_dtype_release(ft);
    dmpi_dtype_release(t);
    /* darray: 4 x 5 doubles block-distributed over 2 x 1 processes, rank 1: rows 2 and 3 */
    const MPI_Count gs[2] = {4, 5};
    const int dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK}, dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG,
                                                                                   MPI_DISTRIBUTE_DFLT_DARG};
    const int ps[2] = {2, 1};
    CHECK(dmpi_dtype_darray(2, 1, 2, gs, dist, dargs, ps, MPI_ORDER_C, false, dmpi_dtype_get(MPI_DOUBLE), &t) ==
              MPI_SUCCESS && t->extent == 160 && t->true_lb == 80, "darray failed");
    check_layout("darray", d, t, 320, 80, 0);
    CHECK(dmpi_datarep_file_type("test", d, t, &ft) == MPI_SUCCESS && ft->true_lb == 160, "darray rows at %ld",
          (long)ft->true_lb);
    dmpi_dtype_release(ft);
    dmpi_dtype_release(t);
    CHECK(extent_calls == 2, "the extent function was asked %d times (int and double once each)", extent_calls);
    /* native: the type itself */
    dmpi_dtype_make(MPI_COMBINER_VECTOR, 3, v, 1, &tint, true, &t);
    CHECK(dmpi_datarep_file_type("test", dmpi_datarep_find("native"), t, &ft) == MPI_SUCCESS && ft == t,
          "native layout is the type itself");
    dmpi_dtype_release(ft);
    dmpi_dtype_release(t);
}

/* A converting representation with doubled extents: items fill their slots. */
static int pad_write(void *ubuf, MPI_Datatype t, MPI_Count count, void *fbuf, MPI_Offset position, void *extra)
{
    (void)t;
    (void)extra;
    const int *src = (const int *)ubuf + position;
    unsigned char *dst = fbuf;
    for (MPI_Count i = 0; i < count; i++) {
        memset(dst + 8 * i, 0xaa, 4);
        memcpy(dst + 8 * i + 4, &src[i], 4);
    }
    return MPI_SUCCESS;
}

static void test_converting_layout(void)
{
    CHECK(dmpi_datarep_register("unit-pad", NULL, NULL, NULL, pad_write, doubling_extent, NULL) == MPI_SUCCESS,
          "registering unit-pad failed");
    const dmpi_datarep_t *p = dmpi_datarep_find("unit-pad");
    CHECK(p && dmpi_datarep_converts(p) && p->write_c == pad_write, "unit-pad");
    const MPI_Count v[3] = {2, 1, 3};
    dmpi_dtype_t *t;
    dmpi_dtype_make(MPI_COMBINER_VECTOR, 3, v, 1, &tint, true, &t);
    check_layout("converted vector", p, t, 32, 16, 0);   /* converted items fill their 8-byte slots */
    MPI_Count bytes;
    CHECK(dmpi_datarep_size("test", p, t, 2, &bytes) == MPI_SUCCESS && bytes == 32, "converted size %lld",
          (long long)bytes);
    int in[2] = {1, 2};
    unsigned char f[16];
    CHECK(dmpi_datarep_to_file("test", p, dmpi_dtype_get(MPI_INT), in, 2, f, 0) == MPI_SUCCESS && f[0] == 0xaa &&
              !memcmp(f + 4, &in[0], 4) && !memcmp(f + 12, &in[1], 4), "the _c conversion function");
    dmpi_dtype_release(t);
}

int main(void)
{
    unit_watchdog(60);
    dmpi_dtype_init();
    RUN(test_registry);
    RUN(test_external32);
    RUN(test_user_swap);
    RUN(test_layouts);
    RUN(test_converting_layout);
    dmpi_datarep_finalize();
    CHECK(!dmpi_datarep_find("unit-swap") && dmpi_datarep_find("native"), "finalize forgot the user ones only");
    return unit_summary("test_datarep");
}
