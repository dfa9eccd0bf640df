/*
 * io_view: file views (MPI-4.1 14.3) built with every datatype
 * constructor, checked against the test's own model of each layout.
 *
 * Every case gives each rank an etype, a filetype and a displacement such
 * that the ranks' filetypes interleave in the file (contiguous, vector,
 * hvector, indexed, hindexed, indexed_block, hindexed_block, struct,
 * subarray in C and Fortran order, darray block, cyclic(2) and a 2-D
 * block x cyclic one, a resized type with a hole that nobody writes, a
 * derived etype, byte etypes at odd offsets). The model of a case lists
 * the byte offsets (relative to the displacement) of the etypes of one
 * filetype extent, computed by index loops, not by MPI. Each rank writes
 * two whole filetypes and one etype more over a file prefilled with 0xEE
 * (write_all, write_at, or two writes through the individual pointer),
 * then:
 *   - its own data comes back through the view (read_at_all), with
 *     MPI_Get_count/MPI_Get_elements;
 *   - rank 0 reads the whole file by POSIX and checks every byte against
 *     the image built from all ranks' models (holes still 0xEE, the size
 *     exact);
 *   - File_get_position (individual pointer after writes, 0 after a new
 *     set_view), File_get_byte_offset of every position, File_get_type_extent
 *     of etype and filetype, File_get_view (displacement, types of the same
 *     size and extent, "native"; the default view is 0, BYTE, BYTE).
 * Errors: a filetype whose size is no multiple of the etype's, a filetype of
 * another basic type, decreasing displacements, an uncommitted filetype,
 * MPI_DATATYPE_NULL -> MPI_ERR_TYPE; a negative displacement -> MPI_ERR_ARG;
 * an unknown data representation -> MPI_ERR_UNSUPPORTED_DATAREP.
 */
#include "io_util.h"

static int me, np;

#define MAXOFF 4096

struct layout {
    MPI_Offset disp;
    MPI_Aint period;           /* filetype extent */
    int esz;                   /* etype size */
    int n;                     /* etypes per filetype */
    MPI_Aint off[MAXOFF];      /* byte offset of each, relative to disp, increasing */
    MPI_Datatype etype, ftype, memtype;
};

static int cmp_aint(const void *a, const void *b)
{
    MPI_Aint x = *(const MPI_Aint *)a, y = *(const MPI_Aint *)b;
    return x < y ? -1 : x > y;
}

static void add(struct layout *L, MPI_Aint off)
{
    if (L->n < MAXOFF)
        L->off[L->n++] = off;
}

static MPI_Datatype resized(MPI_Datatype t, MPI_Aint extent)
{
    MPI_Datatype r;
    MPI_Type_create_resized(t, 0, extent, &r);
    MPI_Type_free(&t);
    return r;
}

/* darray ownership of element e of a 1-D block or cyclic(k) distribution */
static int block_owner(int e, int G, int P)
{
    int b = (G + P - 1) / P;
    return e / b;
}

static const char *case_name[] = {
    "contiguous",    "vector",        "hvector",  "indexed",       "hindexed",       "indexed_block",
    "hindexed_block", "struct",       "subarray C", "subarray Fortran", "darray block", "darray cyclic(2)",
    "darray 2-D block x cyclic", "resized with a hole", "derived etype", "byte etype",
};
#define NCASES ((int)(sizeof case_name / sizeof case_name[0]))

/* The layout of rank q of P in case c; with build, the types too (for q = me). */
static void layout(int c, int q, int P, struct layout *L, int build)
{
    memset(L, 0, sizeof *L);
    L->esz = 4;
    L->etype = MPI_INT;
    L->memtype = MPI_INT;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    switch (c) {
    case 0: /* contiguous(3): each rank its own region of 7 ints */
        L->disp = 28 * q;
        L->period = 12;
        for (int i = 0; i < 3; i++)
            add(L, 4 * i);
        if (build)
            MPI_Type_contiguous(3, MPI_INT, &t);
        break;
    case 1: /* vector(2, 2, 2P): ints 2q, 2q+1 of every 2P */
        L->disp = 8 * q;
        L->period = 16 * P;
        add(L, 0), add(L, 4), add(L, 8 * P), add(L, 8 * P + 4);
        if (build) {
            MPI_Type_vector(2, 2, 2 * P, MPI_INT, &t);
            t = resized(t, 16 * P);
        }
        break;
    case 2: /* hvector(3, 1, 4P bytes): int q of every P */
        L->disp = 4 * q;
        L->period = 12 * P;
        for (int i = 0; i < 3; i++)
            add(L, 4 * P * i);
        if (build) {
            MPI_Type_create_hvector(3, 1, 4 * P, MPI_INT, &t);
            t = resized(t, 12 * P);
        }
        break;
    case 3: { /* indexed: int q, ints P+2q..P+2q+1, int 3P+q of 4P */
        int bl[3] = {1, 2, 1}, d[3] = {q, P + 2 * q, 3 * P + q};
        L->period = 16 * P;
        for (int b = 0; b < 3; b++)
            for (int i = 0; i < bl[b]; i++)
                add(L, 4 * (d[b] + i));
        if (build) {
            MPI_Type_indexed(3, bl, d, MPI_INT, &t);
            t = resized(t, 16 * P);
        }
        break;
    }
    case 4: { /* hindexed: 2 ints at byte 8q, 1 int at 8P + 4q of 12P */
        int bl[2] = {2, 1};
        MPI_Aint d[2] = {8 * q, 8 * P + 4 * q};
        L->period = 12 * P;
        add(L, d[0]), add(L, d[0] + 4), add(L, d[1]);
        if (build) {
            MPI_Type_create_hindexed(2, bl, d, MPI_INT, &t);
            t = resized(t, 12 * P);
        }
        break;
    }
    case 5: { /* indexed_block(1): ints q and 2P-1-q of 2P */
        int d[2] = {q, 2 * P - 1 - q};
        L->period = 8 * P;
        add(L, 4 * d[0]), add(L, 4 * d[1]);
        if (build) {
            MPI_Type_create_indexed_block(2, 1, d, MPI_INT, &t);
            t = resized(t, 8 * P);
        }
        break;
    }
    case 6: { /* hindexed_block(2): 2 ints at bytes 8q and 8P + 8q of 16P */
        MPI_Aint d[2] = {8 * q, 8 * P + 8 * q};
        L->period = 16 * P;
        add(L, d[0]), add(L, d[0] + 4), add(L, d[1]), add(L, d[1] + 4);
        if (build) {
            MPI_Type_create_hindexed_block(2, 2, d, MPI_INT, &t);
            t = resized(t, 16 * P);
        }
        break;
    }
    case 7: { /* struct {int at 4q; int[2] at 4P+8q; int at 12P+4q} of 16P */
        MPI_Datatype pair;
        MPI_Aint d[3] = {4 * q, 4 * P + 8 * q, 12 * P + 4 * q};
        L->period = 16 * P;
        add(L, d[0]), add(L, d[1]), add(L, d[1] + 4), add(L, d[2]);
        if (build) {
            int bl[3] = {1, 1, 1};
            MPI_Type_contiguous(2, MPI_INT, &pair);
            MPI_Datatype ts[3] = {MPI_INT, pair, MPI_INT};
            MPI_Type_create_struct(3, bl, d, ts, &t);
            MPI_Type_free(&pair);
            t = resized(t, 16 * P);
        }
        break;
    }
    case 8: { /* subarray C: rows 0..2, columns 2q, 2q+1 of a 3 x 2P array */
        L->period = 4 * 3 * 2 * P;
        for (int i = 0; i < 3; i++)
            for (int j = 2 * q; j < 2 * q + 2; j++)
                add(L, 4 * (i * 2 * P + j));
        if (build) {
            int sz[2] = {3, 2 * P}, sub[2] = {3, 2}, st[2] = {0, 2 * q};
            MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t);
        }
        break;
    }
    case 9: { /* subarray Fortran: element (q, j), j = 1..3, of a P x 4 array */
        L->period = 4 * 4 * P;
        for (int j = 1; j < 4; j++)
            add(L, 4 * (q + j * P));
        if (build) {
            int sz[2] = {P, 4}, sub[2] = {1, 3}, st[2] = {q, 1};
            MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_FORTRAN, MPI_INT, &t);
        }
        break;
    }
    case 10: { /* darray block of 5P - 2 ints (every rank owns some) */
        int G = 5 * P - 2;
        L->period = 4 * G;
        for (int e = 0; e < G; e++)
            if (block_owner(e, G, P) == q)
                add(L, 4 * e);
        if (build) {
            int gs[1] = {G}, di[1] = {MPI_DISTRIBUTE_BLOCK}, da[1] = {MPI_DISTRIBUTE_DFLT_DARG}, ps[1] = {P};
            MPI_Type_create_darray(P, q, 1, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t);
        }
        break;
    }
    case 11: { /* darray cyclic(2) of 5P + 1 ints */
        int G = 5 * P + 1;
        L->period = 4 * G;
        for (int e = 0; e < G; e++)
            if ((e / 2) % P == q)
                add(L, 4 * e);
        if (build) {
            int gs[1] = {G}, di[1] = {MPI_DISTRIBUTE_CYCLIC}, da[1] = {2}, ps[1] = {P};
            MPI_Type_create_darray(P, q, 1, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t);
        }
        break;
    }
    case 12: { /* darray 3 x (2P+1): rows block over 1 process, columns cyclic over P */
        int R = 3, C = 2 * P + 1;
        L->period = 4 * R * C;
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++)
                if (j % P == q)
                    add(L, 4 * (i * C + j));
        if (build) {
            int gs[2] = {R, C}, di[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
            int da[2] = {MPI_DISTRIBUTE_DFLT_DARG, 1}, ps[2] = {1, P};
            MPI_Type_create_darray(P, q, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t);
        }
        break;
    }
    case 13: /* contiguous(2) resized to 2P+1 ints: the last int of each extent a hole */
        L->disp = 8 * q;
        L->period = 4 * (2 * P + 1);
        add(L, 0), add(L, 4);
        if (build) {
            MPI_Type_contiguous(2, MPI_INT, &t);
            t = resized(t, 4 * (2 * P + 1));
        }
        break;
    case 14: /* etype 3 shorts; vector(2, 1, P) of etypes: etypes q and P+q of 2P */
        L->esz = 6;
        L->disp = 6 * q;
        L->period = 12 * P;
        add(L, 0), add(L, 6 * P);
        if (build) {
            MPI_Type_contiguous(3, MPI_SHORT, &L->etype);
            MPI_Type_commit(&L->etype);
            L->memtype = L->etype;
            MPI_Type_vector(2, 1, P, L->etype, &t);
            t = resized(t, 12 * P);
        }
        break;
    case 15: /* bytes: hvector(2, 3, 3P) of bytes at 3q: odd offsets, unaligned */
        L->esz = 1;
        L->disp = 3 * q + 1;
        L->period = 6 * P;
        for (int i = 0; i < 3; i++)
            add(L, i), add(L, 3 * P + i);
        if (build) {
            L->etype = L->memtype = MPI_BYTE;
            MPI_Type_create_hvector(2, 3, 3 * P, MPI_BYTE, &t);
            t = resized(t, 6 * P);
        }
        break;
    }
    qsort(L->off, (size_t)L->n, sizeof L->off[0], cmp_aint);
    if (build) {
        MPI_Type_commit(&t);
        L->ftype = t;
    }
}

/* The byte offset in the file of etype i of the layout's stream. */
static MPI_Offset where(const struct layout *L, MPI_Offset i)
{
    return L->disp + (i / L->n) * L->period + L->off[i % L->n];
}

static int etypes_written(const struct layout *L)
{
    return 2 * L->n + 1;
}

static void free_types(struct layout *L)
{
    if (L->etype != MPI_INT && L->etype != MPI_BYTE)
        MPI_Type_free(&L->etype);
    MPI_Type_free(&L->ftype);
}

static int is_named(MPI_Datatype t)
{
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    return comb == MPI_COMBINER_NAMED;
}

static void check_view(MPI_File fh, const struct layout *L, const char *cname)
{
    MPI_Offset disp = -1;
    MPI_Datatype et = MPI_DATATYPE_NULL, ft = MPI_DATATYPE_NULL;
    char rep[MPI_MAX_DATAREP_STRING + 1] = "";
    if (!IO_RC(MPI_File_get_view(fh, &disp, &et, &ft, rep)))
        return;
    MTEST_CHECK(disp == L->disp, "%s: get_view gives displacement %lld, expected %lld", cname, (long long)disp,
                (long long)L->disp);
    MTEST_CHECK(strcmp(rep, "native") == 0, "%s: get_view gives datarep \"%s\"", cname, rep);
    int s1, s2;
    MPI_Aint lb1, lb2, x1, x2;
    MPI_Type_size(et, &s1);
    MPI_Type_size(L->etype, &s2);
    MPI_Type_get_extent(et, &lb1, &x1);
    MPI_Type_get_extent(L->etype, &lb2, &x2);
    MTEST_CHECK(s1 == s2 && lb1 == lb2 && x1 == x2, "%s: get_view's etype has size %d, lb %ld, extent %ld", cname, s1,
                (long)lb1, (long)x1);
    if (is_named(L->etype))
        MTEST_CHECK(et == L->etype, "%s: get_view gives another predefined etype", cname);
    MPI_Type_size(ft, &s1);
    MPI_Type_size(L->ftype, &s2);
    MPI_Type_get_extent(ft, &lb1, &x1);
    MPI_Type_get_extent(L->ftype, &lb2, &x2);
    MTEST_CHECK(s1 == s2 && lb1 == lb2 && x1 == x2,
                "%s: get_view's filetype has size %d, lb %ld, extent %ld; expected %d, %ld, %ld", cname, s1,
                (long)lb1, (long)x1, s2, (long)lb2, (long)x2);
    if (!is_named(et))
        MPI_Type_free(&et);
    if (!is_named(ft))
        MPI_Type_free(&ft);
}

static void run_case(int c, const char *path)
{
    char cname[80];
    snprintf(cname, sizeof cname, "case %d (%s) at %d ranks", c, case_name[c], np);
    struct layout *L = mtest_malloc(sizeof *L), *Q = mtest_malloc(sizeof *Q);
    layout(c, me, np, L, 1);
    int cnt = etypes_written(L);

    /* the file's length: the end of the last etype any rank writes */
    MPI_Offset len = 0;
    for (int q = 0; q < np; q++) {
        layout(c, q, np, Q, 0);
        MPI_Offset end = where(Q, etypes_written(Q) - 1) + Q->esz;
        if (end > len)
            len = end;
    }

    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh)))
        goto out;
    if (me == 0) {
        unsigned char *ee = mtest_malloc((size_t)len);
        memset(ee, 0xEE, (size_t)len);
        IO_RC(MPI_File_write_at(fh, 0, ee, (int)len, MPI_BYTE, MPI_STATUS_IGNORE));
        free(ee);
    }
    IO_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_sync(fh));

    if (!IO_RC(MPI_File_set_view(fh, L->disp, L->etype, L->ftype, "native", MPI_INFO_NULL))) {
        MPI_File_close(&fh);
        goto out;
    }
    check_view(fh, L, cname);
    MPI_Count ext = -1;
    IO_RC(MPI_File_get_type_extent(fh, L->ftype, &ext));
    MTEST_CHECK(ext == L->period, "%s: get_type_extent(filetype) %lld, expected %ld", cname, (long long)ext,
                (long)L->period);
    IO_RC(MPI_File_get_type_extent(fh, L->etype, &ext));
    MTEST_CHECK(ext == L->esz, "%s: get_type_extent(etype) %lld, expected %d", cname, (long long)ext, L->esz);
    for (int i = 0; i <= cnt; i++) {
        MPI_Offset b = -1;
        IO_RC(MPI_File_get_byte_offset(fh, i, &b));
        if (!MTEST_CHECK(b == where(L, i), "%s: get_byte_offset(%d) gives %lld, expected %lld", cname, i,
                         (long long)b, (long long)where(L, i)))
            break;
    }

    size_t bytes = (size_t)cnt * (size_t)L->esz;
    unsigned char *mine = mtest_malloc(bytes), *got = mtest_malloc(bytes + 16);
    uint64_t seed = io_seed(me, 100 + c);
    io_fill(mine, bytes, seed, 0);
    MPI_Status st;
    mtest_status_garbage(&st);
    switch (c % 3) {
    case 0:
        IO_RC(MPI_File_write_all(fh, mine, cnt, L->memtype, &st));
        io_check_status(&st, L->memtype, cnt, MTEST_DONTCARE, cname);
        break;
    case 1:
        IO_RC(MPI_File_write_at(fh, 0, mine, cnt, L->memtype, &st));
        io_check_status(&st, L->memtype, cnt, MTEST_DONTCARE, cname);
        break;
    default:
        IO_RC(MPI_File_write(fh, mine, L->n, L->memtype, &st));
        io_check_status(&st, L->memtype, L->n, MTEST_DONTCARE, cname);
        IO_RC(MPI_File_write(fh, mine + (size_t)L->n * (size_t)L->esz, cnt - L->n, L->memtype, &st));
        io_check_status(&st, L->memtype, cnt - L->n, MTEST_DONTCARE, cname);
        break;
    }
    MPI_Offset pos = -1;
    IO_RC(MPI_File_get_position(fh, &pos));
    MTEST_CHECK(pos == (c % 3 == 1 ? 0 : cnt), "%s: individual pointer at %lld after the writes", cname,
                (long long)pos);
    IO_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    IO_RC(MPI_File_sync(fh));

    /* own data back through the view */
    memset(got, 0, bytes + 16);
    mtest_status_garbage(&st);
    IO_RC(MPI_File_read_at_all(fh, 0, got, cnt, L->memtype, &st));
    io_check_status(&st, L->memtype, cnt, MTEST_DONTCARE, cname);
    io_check_stream(got, bytes, seed, 0, cname);
    /* from the middle of a filetype through the individual pointer */
    IO_RC(MPI_File_seek(fh, 1, MPI_SEEK_SET));
    memset(got, 0, bytes);
    IO_RC(MPI_File_read(fh, got, cnt - 1, L->memtype, &st));
    io_check_status(&st, L->memtype, cnt - 1, MTEST_DONTCARE, cname);
    io_check_stream(got, bytes - (size_t)L->esz, seed, (uint64_t)L->esz, cname);

    /* a new view resets the pointer */
    IO_RC(MPI_File_set_view(fh, L->disp, L->etype, L->ftype, "native", MPI_INFO_NULL));
    IO_RC(MPI_File_get_position(fh, &pos));
    MTEST_CHECK(pos == 0, "%s: individual pointer at %lld after set_view", cname, (long long)pos);
    IO_RC(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);

    /* the whole file, natively */
    if (me == 0) {
        unsigned char *img = mtest_malloc((size_t)len), *file = mtest_malloc((size_t)len + 1);
        memset(img, 0xEE, (size_t)len);
        for (int q = 0; q < np; q++) {
            layout(c, q, np, Q, 0);
            uint64_t s = io_seed(q, 100 + c);
            for (int i = 0; i < etypes_written(Q); i++)
                for (int b = 0; b < Q->esz; b++)
                    img[where(Q, i) + b] = io_byte(s, (uint64_t)i * (uint64_t)Q->esz + (uint64_t)b);
        }
        long long n = io_posix_read(path, 0, file, (size_t)len + 1);
        MTEST_CHECK(n == len, "%s: the file has %lld bytes, expected %lld", cname, n, (long long)len);
        io_compare(file, img, (size_t)len, cname);
        free(img);
        free(file);
        io_unlink(path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(mine);
    free(got);
out:
    free_types(L);
    free(L);
    free(Q);
}

static void test_default_view(const char *path)
{
    MPI_File fh;
    if (!IO_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh)))
        return;
    MPI_Offset disp = -1;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING + 1] = "";
    IO_RC(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    MTEST_CHECK(disp == 0 && et == MPI_BYTE && ft == MPI_BYTE && strcmp(rep, "native") == 0,
                "the default view is %lld, %s etype, %s filetype, \"%s\"", (long long)disp,
                et == MPI_BYTE ? "MPI_BYTE" : "another", ft == MPI_BYTE ? "MPI_BYTE" : "another", rep);
    MPI_Offset b = -1;
    IO_RC(MPI_File_get_byte_offset(fh, 12345, &b));
    MTEST_CHECK(b == 12345, "get_byte_offset(12345) in the default view gives %lld", (long long)b);

    /* errors */
    MPI_Datatype three, unc, dec;
    MPI_Type_contiguous(3, MPI_BYTE, &three);
    MPI_Type_commit(&three);
    /* MPICH 4.0.2 gives MPI_ERR_ARG for the type errors, and does not
     * compare signatures or look at the order of displacements */
    if (!MTEST_MPICH_DEVIATION) {
        io_check_class(MPI_File_set_view(fh, 0, MPI_INT, three, "native", MPI_INFO_NULL), MPI_ERR_TYPE,
                       "set_view: a filetype of 3 bytes with etype MPI_INT");
        io_check_class(MPI_File_set_view(fh, 0, MPI_INT, MPI_DOUBLE, "native", MPI_INFO_NULL), MPI_ERR_TYPE,
                       "set_view: filetype MPI_DOUBLE with etype MPI_INT");
    } else {
        MTEST_CHECK(MPI_File_set_view(fh, 0, MPI_INT, three, "native", MPI_INFO_NULL) != MPI_SUCCESS,
                    "set_view: a filetype of 3 bytes with etype MPI_INT succeeded");
    }
    int bl[2] = {1, 1}, d[2] = {2, 0};
    MPI_Type_indexed(2, bl, d, MPI_INT, &dec);
    MPI_Type_commit(&dec);
    if (!MTEST_MPICH_DEVIATION)
        io_check_class(MPI_File_set_view(fh, 0, MPI_INT, dec, "native", MPI_INFO_NULL), MPI_ERR_TYPE,
                       "set_view: a filetype with decreasing displacements");
    MPI_Type_contiguous(2, MPI_INT, &unc);
    io_check_class(MPI_File_set_view(fh, 0, MPI_INT, unc, "native", MPI_INFO_NULL), MPI_ERR_TYPE,
                   "set_view: an uncommitted filetype");
    if (!MTEST_MPICH_DEVIATION) {
        io_check_class(MPI_File_set_view(fh, 0, MPI_INT, MPI_DATATYPE_NULL, "native", MPI_INFO_NULL),
                       MPI_ERR_TYPE, "set_view: MPI_DATATYPE_NULL filetype");
        io_check_class(MPI_File_set_view(fh, 0, MPI_DATATYPE_NULL, MPI_INT, "native", MPI_INFO_NULL),
                       MPI_ERR_TYPE, "set_view: MPI_DATATYPE_NULL etype");
    }
    io_check_class(MPI_File_set_view(fh, -8, MPI_INT, MPI_INT, "native", MPI_INFO_NULL), MPI_ERR_ARG,
                   "set_view: displacement -8");
    io_check_class(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no_such_datarep", MPI_INFO_NULL),
                   MPI_ERR_UNSUPPORTED_DATAREP, "set_view: datarep \"no_such_datarep\"");
    MPI_Type_free(&three);
    MPI_Type_free(&unc);
    MPI_Type_free(&dec);
    IO_RC(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char path[256];
    for (int c = 0; c < NCASES; c++) {
        io_name(path, sizeof path, "view", MPI_COMM_WORLD);
        run_case(c, path);
    }
    io_name(path, sizeof path, "view", MPI_COMM_WORLD);
    test_default_view(path);
    return mtest_finalize();
}
