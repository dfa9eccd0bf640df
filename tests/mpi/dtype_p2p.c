/*
 * dtype_p2p: derived datatypes through point-to-point.
 *
 * Every constructor (contiguous, vector, hvector, indexed, hindexed,
 * indexed_block, hindexed_block, struct, resized, dup), nested up to five
 * deep, with negative displacements and strides, unaligned displacements,
 * resized extents smaller and larger than the true extent, is sent between
 * ranks with the sender and the receiver using DIFFERENT types of the same
 * type signature (vector sent, contiguous received; struct sent, indexed
 * received; ...), at message sizes from 0 B through a few bytes, around
 * 8 KiB, 64 KiB, 300 KB and a maximum (default 4 MiB, argv[1] overrides,
 * e.g. "1M"), and back (receive type sent, send type received) up to a
 * quarter of the maximum.
 *
 * The test keeps its own model of every type it builds: the type map (one
 * entry per basic element: displacement and basic type), lb/ub and the true
 * bounds, computed from the constructor's definition in the standard
 * (nothing is asked of MPI but the type sizes and extents, which are checked
 * against the model).  The receiver rebuilds the sender's buffer, walks the
 * send type map to get the message's bytes and the receive type map to put
 * them in place, and compares its whole receive buffer (plus 64 bytes on
 * either side) byte for byte: bytes of the receive map must hold the
 * message, all others (gaps, elements past the message's end, the margins)
 * must keep their poison.  Statuses: source, tag, MPI_Get_count with the
 * receive type (MPI_UNDEFINED when the message ends inside a derived
 * element) and MPI_Get_elements(_x) (basic elements received).  Each size
 * is received once with the smallest count that holds it and (except the
 * largest) once more with a larger count and a shorter message.
 *
 * Ranks form a ring: every rank sends to rank+1 and receives from rank-1
 * (one rank: messages to itself).  The transfers rotate through
 *   Isend + Recv, Irecv + Send, Sendrecv, Irecv + Ssend, persistent
 *   (Send_init/Recv_init, started twice with new data), Isend + Irecv from
 *   MPI_ANY_SOURCE/MPI_ANY_TAG,
 * and through buffers given as MPI_BOTTOM with a struct type holding the
 * absolute address (MPI_Get_address) on the sending side, the receiving
 * side or both.
 *
 * Also:
 *  - MPI_BOTTOM with a type of absolute addresses of separately allocated
 *    arrays on both sides;
 *  - fan-in to rank 0 with derived types and MPI_ANY_SOURCE receives, per
 *    source order kept;
 *  - an uncommitted type (and MPI_DATATYPE_NULL) in Send, Isend, Irecv,
 *    Send_init, Sendrecv -> MPI_ERR_TYPE;
 *  - a message longer than a derived receive buffer -> MPI_ERR_TRUNCATE
 *    from Recv and from Wait; bytes outside the receive map untouched; the
 *    next message intact;
 *  - inner types freed right after the outer type is built;
 *  - lb/ub markers of a resized type are sticky inside a struct (MPI-4.0
 *    5.1.7; under MPICH, which ignores that, the model follows MPICH).
 */
#include "mtest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLACK 64              /* poisoned margin on either side of a receive buffer */
#define FAN_TAG 30001
#define ERR_TAG 30002
#define TRUNC_TAG 30003
#define BOTTOM_TAG 30004

static MPI_Comm comm = MPI_COMM_WORLD;
static int me, np, next, prev;

/* ---- the model of a datatype -------------------------------------------- */

static const struct {
    MPI_Datatype type;
    int size;
    const char *name;
} basic[] = {
    {MPI_CHAR, 1, "char"},       {MPI_SHORT, 2, "short"},   {MPI_INT, 4, "int"},
    {MPI_FLOAT, 4, "float"},     {MPI_DOUBLE, 8, "double"}, {MPI_LONG_LONG, 8, "long long"},
};
enum { B_CHAR, B_SHORT, B_INT, B_FLOAT, B_DOUBLE, B_LLONG };

typedef struct {
    MPI_Aint disp;
    int bt;                   /* index in basic[] */
} entry_t;

/* One datatype: its MPI handle and its type map for one element. */
typedef struct td {
    MPI_Datatype type;
    int committed;
    char name[200];
    MPI_Aint lb, ub;          /* extent = ub - lb */
    MPI_Aint tlb, tub;        /* true bounds */
    /* Explicit bounds (MPI-4.0 5.1.7: resized types carry lb and ub
     * markers, and a type built from copies of such types takes its bounds
     * from the markers alone, when there are any) */
    int lbm, ubm;             /* has a marker */
    MPI_Aint lb_all, ub_all;  /* over all copies placed */
    MPI_Aint lb_m, ub_m;      /* over the copies' markers */
    int check_extent;         /* 0: the extent is the implementation's choice */
    MPI_Aint size;
    int n;                    /* basic elements in one element */
    int cap;
    entry_t *map;             /* in type map order */
    int nruns;                /* the map with neighbouring entries merged (for speed) */
    struct run { MPI_Aint disp, len; } *runs;
} td_t;

#define MAXTD 256
static td_t *all_td[MAXTD];
static int ntd;

static MPI_Aint extent_of(const td_t *t)
{
    return t->ub - t->lb;
}

/* Names nest, so they may be cut short. */
static void set_name(td_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_name(td_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->name, sizeof t->name, fmt, ap);
    va_end(ap);
}

/* Set before building a type whose extent is left to the implementation
 * (alignment padding of a struct that is resized right away). */
static int extent_unchecked;

static td_t *td_new(void)
{
    td_t *t = calloc(1, sizeof *t);
    if (!t || ntd == MAXTD) {
        printf("dtype_p2p: too many types\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    t->n = -1;                /* no copy placed yet */
    t->check_extent = !extent_unchecked;
    extent_unchecked = 0;
    all_td[ntd++] = t;
    return t;
}

/* MPICH 4.0 ignores the markers' stickiness: a struct of a resized type and
 * a basic type below the resized type's lb gets its lb from the basic type. */
static const int sticky_markers = !MTEST_MPICH_DEVIATION;

/* Places one copy of c at byte displacement s (the standard's definition of
 * every constructor is a sequence of such copies). */
static void place(td_t *t, const td_t *c, MPI_Aint s)
{
    if (t->n < 0) {
        t->n = 0;
        t->lb_all = c->lb + s;
        t->ub_all = c->ub + s;
    } else {
        if (c->lb + s < t->lb_all)
            t->lb_all = c->lb + s;
        if (c->ub + s > t->ub_all)
            t->ub_all = c->ub + s;
    }
    if (c->lbm && (!t->lbm || c->lb + s < t->lb_m))
        t->lb_m = c->lb + s;
    if (c->ubm && (!t->ubm || c->ub + s > t->ub_m))
        t->ub_m = c->ub + s;
    t->lbm |= c->lbm;
    t->ubm |= c->ubm;
    if (t->n + c->n > t->cap) {
        t->cap = 2 * (t->n + c->n) + 16;
        t->map = realloc(t->map, (size_t)t->cap * sizeof *t->map);
        if (!t->map)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < c->n; i++) {
        t->map[t->n + i].disp = c->map[i].disp + s;
        t->map[t->n + i].bt = c->map[i].bt;
    }
    t->n += c->n;
}

/* Bounds, size and true bounds from the copies placed; then the MPI type's
 * size and extents must agree with the model. (No alignment padding: every
 * type here without markers has an extent that is a multiple of its
 * alignment, or says check_extent = 0.) */
static void finish(td_t *t)
{
    if (t->n < 0) {
        t->n = 0;
        t->lb_all = t->ub_all = 0;
    }
    t->lb = t->lbm && sticky_markers ? t->lb_m : t->lb_all;
    t->ub = t->ubm && sticky_markers ? t->ub_m : t->ub_all;
    t->size = 0;
    for (int i = 0; i < t->n; i++) {
        MPI_Aint d = t->map[i].disp, e = d + basic[t->map[i].bt].size;
        if (i == 0 || d < t->tlb)
            t->tlb = d;
        if (i == 0 || e > t->tub)
            t->tub = e;
        t->size += basic[t->map[i].bt].size;
    }
    t->runs = malloc((size_t)(t->n + 1) * sizeof *t->runs);
    t->nruns = 0;
    for (int i = 0; i < t->n; i++) {
        MPI_Aint d = t->map[i].disp, sz = basic[t->map[i].bt].size;
        struct run *last = t->nruns ? &t->runs[t->nruns - 1] : NULL;
        if (last && last->disp + last->len == d)
            last->len += sz;
        else
            t->runs[t->nruns++] = (struct run){d, sz};
    }
    int size = -1;
    MPI_Aint lb = -1, ext = -1, tlb = -1, text = -1;
    MTEST_RC(MPI_Type_size(t->type, &size));
    MTEST_RC(MPI_Type_get_extent(t->type, &lb, &ext));
    MTEST_RC(MPI_Type_get_true_extent(t->type, &tlb, &text));
    MTEST_CHECK(size == t->size, "%s: MPI_Type_size %d, expected %ld", t->name, size,
                (long)t->size);
    if (t->check_extent)
        MTEST_CHECK(lb == t->lb && ext == extent_of(t),
                    "%s: MPI_Type_get_extent lb %ld extent %ld, expected %ld %ld", t->name,
                    (long)lb, (long)ext, (long)t->lb, (long)extent_of(t));
    if (t->n > 0)
        MTEST_CHECK(tlb == t->tlb && text == t->tub - t->tlb,
                    "%s: MPI_Type_get_true_extent lb %ld extent %ld, expected %ld %ld",
                    t->name, (long)tlb, (long)text, (long)t->tlb, (long)(t->tub - t->tlb));
}

static void commit(td_t *t)
{
    if (!t->committed) {
        MTEST_RC(MPI_Type_commit(&t->type));
        t->committed = 1;
    }
}

/* Drops the user's handle of an inner type: types built from it must keep
 * working. */
static void drop_handle(td_t *t)
{
    MTEST_RC(MPI_Type_free(&t->type));
    MTEST_CHECK(t->type == MPI_DATATYPE_NULL, "%s: MPI_Type_free left the handle", t->name);
}

static td_t *T_basic(int bt)
{
    td_t *t = td_new();
    t->type = basic[bt].type;
    t->committed = 1;
    set_name(t, "%s", basic[bt].name);
    t->n = 1;
    t->cap = 1;
    t->map = malloc(sizeof *t->map);
    t->map[0].disp = 0;
    t->map[0].bt = bt;
    t->ub_all = basic[bt].size;
    finish(t);
    return t;
}

static td_t *T_contig(int count, td_t *o)
{
    td_t *t = td_new();
    set_name(t, "contig(%d,%s)", count, o->name);
    for (int i = 0; i < count; i++)
        place(t, o, i * extent_of(o));
    MTEST_RC(MPI_Type_contiguous(count, o->type, &t->type));
    finish(t);
    return t;
}

static td_t *T_vector(int count, int bl, int stride, td_t *o)
{
    td_t *t = td_new();
    set_name(t, "vector(%d,%d,%d,%s)", count, bl, stride, o->name);
    for (int i = 0; i < count; i++)
        for (int j = 0; j < bl; j++)
            place(t, o, ((MPI_Aint)i * stride + j) * extent_of(o));
    MTEST_RC(MPI_Type_vector(count, bl, stride, o->type, &t->type));
    finish(t);
    return t;
}

static td_t *T_hvector(int count, int bl, MPI_Aint stride, td_t *o)
{
    td_t *t = td_new();
    set_name(t, "hvector(%d,%d,%ldB,%s)", count, bl, (long)stride,
             o->name);
    for (int i = 0; i < count; i++)
        for (int j = 0; j < bl; j++)
            place(t, o, i * stride + j * extent_of(o));
    MTEST_RC(MPI_Type_create_hvector(count, bl, stride, o->type, &t->type));
    finish(t);
    return t;
}

static int list_str(char *s, size_t n, int count, const int *a, const MPI_Aint *b)
{
    size_t k = 0;
    for (int i = 0; i < count && k + 1 < n; i++)
        k += snprintf(s + k, n - k, "%s%ld", i ? " " : "", a ? (long)a[i] : (long)b[i]);
    return (int)k;
}

static td_t *T_indexed(int count, const int *bl, const int *displ, td_t *o)
{
    td_t *t = td_new();
    char b[64], d[64];
    list_str(b, sizeof b, count, bl, NULL);
    list_str(d, sizeof d, count, displ, NULL);
    set_name(t, "indexed({%s},{%s},%s)", b, d, o->name);
    for (int i = 0; i < count; i++)
        for (int j = 0; j < bl[i]; j++)
            place(t, o, ((MPI_Aint)displ[i] + j) * extent_of(o));
    MTEST_RC(MPI_Type_indexed(count, bl, displ, o->type, &t->type));
    finish(t);
    return t;
}

static td_t *T_hindexed(int count, const int *bl, const MPI_Aint *displ, td_t *o)
{
    td_t *t = td_new();
    char b[64], d[64];
    list_str(b, sizeof b, count, bl, NULL);
    list_str(d, sizeof d, count, NULL, displ);
    set_name(t, "hindexed({%s},{%sB},%s)", b, d, o->name);
    for (int i = 0; i < count; i++)
        for (int j = 0; j < bl[i]; j++)
            place(t, o, displ[i] + j * extent_of(o));
    MTEST_RC(MPI_Type_create_hindexed(count, bl, displ, o->type, &t->type));
    finish(t);
    return t;
}

static td_t *T_indexed_block(int count, int bl, const int *displ, td_t *o)
{
    td_t *t = td_new();
    char d[64];
    list_str(d, sizeof d, count, displ, NULL);
    set_name(t, "indexed_block(%d,{%s},%s)", bl, d, o->name);
    for (int i = 0; i < count; i++)
        for (int j = 0; j < bl; j++)
            place(t, o, ((MPI_Aint)displ[i] + j) * extent_of(o));
    MTEST_RC(MPI_Type_create_indexed_block(count, bl, displ, o->type, &t->type));
    finish(t);
    return t;
}

static td_t *T_hindexed_block(int count, int bl, const MPI_Aint *displ, td_t *o)
{
    td_t *t = td_new();
    char d[64];
    list_str(d, sizeof d, count, NULL, displ);
    set_name(t, "hindexed_block(%d,{%sB},%s)", bl, d, o->name);
    for (int i = 0; i < count; i++)
        for (int j = 0; j < bl; j++)
            place(t, o, displ[i] + j * extent_of(o));
    MTEST_RC(MPI_Type_create_hindexed_block(count, bl, displ, o->type, &t->type));
    finish(t);
    return t;
}

static td_t *T_struct(int count, const int *bl, const MPI_Aint *displ, td_t **o)
{
    td_t *t = td_new();
    MPI_Datatype types[16];
    char name[1200];
    size_t k = snprintf(name, sizeof name, "struct(");
    for (int i = 0; i < count; i++) {
        types[i] = o[i]->type;
        if (k < sizeof name)
            k += snprintf(name + k, sizeof name - k, "%s%d*%s@%ld", i ? "," : "", bl[i],
                          o[i]->name, (long)displ[i]);
        for (int j = 0; j < bl[i]; j++)
            place(t, o[i], displ[i] + j * extent_of(o[i]));
    }
    set_name(t, "%s)", name);
    MTEST_RC(MPI_Type_create_struct(count, bl, displ, types, &t->type));
    finish(t);
    return t;
}

static td_t *T_resized(td_t *o, MPI_Aint lb, MPI_Aint extent)
{
    td_t *t = td_new();
    set_name(t, "resized(%s,%ld,%ld)", o->name, (long)lb, (long)extent);
    place(t, o, 0);
    t->lbm = t->ubm = 1;
    t->lb_m = t->lb_all = lb;
    t->ub_m = t->ub_all = lb + extent;
    MTEST_RC(MPI_Type_create_resized(o->type, lb, extent, &t->type));
    finish(t);
    return t;
}

static td_t *T_dup(td_t *o)
{
    td_t *t = td_new();
    set_name(t, "dup(%s)", o->name);
    place(t, o, 0);
    MTEST_RC(MPI_Type_dup(o->type, &t->type));
    finish(t);
    return t;
}

/* ---- walking type maps --------------------------------------------------- */

/* Lowest and highest byte touched by count elements of t, relative to the
 * buffer address. */
static void span_of(const td_t *t, int count, MPI_Aint *lo, MPI_Aint *hi)
{
    if (count == 0 || t->n == 0) {
        *lo = *hi = 0;
        return;
    }
    MPI_Aint last = (MPI_Aint)(count - 1) * extent_of(t);
    *lo = t->tlb + (last < 0 ? last : 0);
    *hi = t->tub + (last > 0 ? last : 0);
}

/* The bytes a send of count elements of t from buf produces, in order. */
static void gather(const td_t *t, int count, const unsigned char *buf, unsigned char *out)
{
    MPI_Aint ext = extent_of(t);
    for (int i = 0; i < count; i++)
        for (int k = 0; k < t->nruns; k++) {
            memcpy(out, buf + i * ext + t->runs[k].disp, (size_t)t->runs[k].len);
            out += t->runs[k].len;
        }
}

/* Basic elements in the first nbytes of a message of elements of t (which
 * ends on a basic element's boundary). */
static long elements_in(const td_t *t, size_t nbytes)
{
    if (t->size == 0)
        return 0;
    long nel = (long)(nbytes / (size_t)t->size) * t->n;
    size_t rem = nbytes % (size_t)t->size;
    for (int e = 0; rem > 0; e++) {
        rem -= (size_t)basic[t->map[e].bt].size;
        nel++;
    }
    return nel;
}

/* Puts nbytes of a message into count elements of t at buf; returns the
 * number of basic elements filled. */
static long scatter(const td_t *t, int count, unsigned char *buf, const unsigned char *in,
                    size_t nbytes)
{
    MPI_Aint ext = extent_of(t);
    size_t pos = 0;
    for (int i = 0; i < count && pos < nbytes; i++)
        for (int k = 0; k < t->nruns && pos < nbytes; k++) {
            size_t len = (size_t)t->runs[k].len;
            if (len > nbytes - pos)
                len = nbytes - pos;
            memcpy(buf + i * ext + t->runs[k].disp, in + pos, len);
            pos += len;
        }
    return elements_in(t, pos);
}

/* Where byte `d` (relative to the buffer address) lies in count elements of
 * t, for failure messages. */
static void locate(const td_t *t, int count, MPI_Aint d, char *s, size_t n)
{
    MPI_Aint ext = extent_of(t);
    size_t pos = 0;
    for (int i = 0; i < count; i++)
        for (int e = 0; e < t->n; e++) {
            int sz = basic[t->map[e].bt].size;
            MPI_Aint a = i * ext + t->map[e].disp;
            if (d >= a && d < a + sz) {
                snprintf(s, n, "element %d, basic element %d (%s at %ld), byte %ld of the "
                         "message", i, e, basic[t->map[e].bt].name, (long)a,
                         (long)(pos + (size_t)(d - a)));
                return;
            }
            pos += sz;
        }
    snprintf(s, n, "not in the receive type map");
}

/* The signature of count_s elements of s must be a prefix of that of
 * count_r elements of r (a check of the test's own tables). */
static int sig_prefix(const td_t *s, int cs, const td_t *r, int cr)
{
    long ns = (long)cs * s->n, nr = (long)cr * r->n;
    if (ns > nr)
        return 0;
    for (long k = 0, i = 0, j = 0; k < ns; k++) {
        if (s->map[i].bt != r->map[j].bt)
            return 0;
        if (++i == s->n)
            i = 0;
        if (++j == r->n)
            j = 0;
    }
    return 1;
}

/* ---- one message: buffers, reference, checks ------------------------------ */

/* A send buffer: the sender's whole span filled with the pattern of
 * (sender, idx). */
typedef struct {
    unsigned char *alloc;
    size_t len;
    unsigned char *buf;       /* the address passed to MPI */
} sbuf_t;

static void sbuf_make(sbuf_t *b, const td_t *t, int count, int sender, int idx)
{
    MPI_Aint lo, hi;
    span_of(t, count, &lo, &hi);
    b->len = (size_t)(hi - lo);
    b->alloc = mtest_malloc(b->len);
    b->buf = b->alloc - lo;
    mtest_fill(b->alloc, b->len, sender, idx);
}

/* A receive buffer: count elements of t, the span plus SLACK bytes on either
 * side; `exp` is what it must hold after the receive (see rbuf_expect). */
typedef struct {
    const td_t *t;
    int count;
    unsigned char *alloc, *exp;
    size_t len;
    unsigned char *buf;
    size_t nbytes;            /* message length */
    long nel;                 /* basic elements it fills */
} rbuf_t;

static void rbuf_make(rbuf_t *b, const td_t *t, int count)
{
    MPI_Aint lo, hi;
    span_of(t, count, &lo, &hi);
    b->t = t;
    b->count = count;
    b->len = (size_t)(hi - lo) + 2 * SLACK;
    b->alloc = mtest_malloc(b->len);
    b->exp = mtest_malloc(b->len);
    b->buf = b->alloc + SLACK - lo;
}

/* Sets b->exp to what the buffer must hold after receiving nbytes of a
 * message of count_s elements of s sent by `sender` from a buffer made by
 * sbuf_make(.., sender, idx): the poison of (psender, pidx) with the
 * message's bytes in place.  With preset, also poisons the buffer itself,
 * its map bytes with the complement of their expected value, so that every
 * byte that should be written changes. */
static void rbuf_expect(rbuf_t *b, const td_t *s, int count_s, int sender, int idx,
                        size_t nbytes, int psender, int pidx, int preset)
{
    sbuf_t ref;
    sbuf_make(&ref, s, count_s, sender, idx);
    size_t full = (size_t)count_s * (size_t)s->size;
    unsigned char *msg = mtest_malloc(full);
    gather(s, count_s, ref.buf, msg);
    if (nbytes > full)
        nbytes = full;
    mtest_poison(b->exp, b->len, psender, pidx);
    unsigned char *ebuf = b->exp + (b->buf - b->alloc);
    b->nbytes = nbytes;
    b->nel = scatter(b->t, b->count, ebuf, msg, nbytes);
    if (preset) {
        memcpy(b->alloc, b->exp, b->len);
        for (size_t i = 0; i < nbytes; i++)
            msg[i] = (unsigned char)~msg[i];
        scatter(b->t, b->count, b->buf, msg, nbytes);
    }
    free(msg);
    free(ref.alloc);
}

/* The usual case: poison named after the message. */
static void rbuf_prepare(rbuf_t *b, const td_t *s, int count_s, int sender, int idx,
                         size_t nbytes)
{
    rbuf_expect(b, s, count_s, sender, idx, nbytes, sender, idx, 1);
}

static void rbuf_free(rbuf_t *b)
{
    free(b->alloc);
    free(b->exp);
}

/* Compares the whole receive buffer with the expected bytes; reports the
 * first few runs of wrong bytes with where they are in the type map. */
static int rbuf_check(const rbuf_t *b, const char *what)
{
    if (memcmp(b->alloc, b->exp, b->len) == 0)
        return 1;
    size_t bad = 0, runs = 0;
    char msg[1200];
    size_t k = 0;
    for (size_t i = 0; i < b->len; i++) {
        if (b->alloc[i] == b->exp[i])
            continue;
        bad++;
        if (i > 0 && bad > 1 && b->alloc[i - 1] != b->exp[i - 1])
            continue;         /* inside a run */
        if (runs++ < 4 && k < sizeof msg - 200) {
            size_t j = i;
            while (j < b->len && b->alloc[j] != b->exp[j])
                j++;
            MPI_Aint d = (MPI_Aint)i - (b->buf - b->alloc);
            char where[160];
            if (i < SLACK || i >= b->len - SLACK)
                snprintf(where, sizeof where, "in the margin outside the buffer's span");
            else
                locate(b->t, b->count, d, where, sizeof where);
            k += snprintf(msg + k, sizeof msg - k,
                          "\n    %zu wrong bytes from disp %ld (%s): got 0x%02x expected "
                          "0x%02x", j - i, (long)d, where, b->alloc[i], b->exp[i]);
        }
    }
    mtest_fail("%s: %zu of %zu bytes wrong in %zu runs (message %zu bytes, receive span "
               "%zu bytes):%s", what, bad, b->len, runs, b->nbytes, b->len - 2 * SLACK, msg);
    return 0;
}

/* Status of a receive into b: source, tag, Get_count with rtype (whose
 * size is rsize), Get_elements. */
static void check_status(const MPI_Status *st, const rbuf_t *b, MPI_Datatype rtype,
                         MPI_Aint rsize, int src, int tag, const char *what)
{
    int count = -7, nel = -7;
    MTEST_CHECK(st->MPI_SOURCE == src, "%s: status.MPI_SOURCE %d, expected %d", what,
                st->MPI_SOURCE, src);
    MTEST_CHECK(st->MPI_TAG == tag, "%s: status.MPI_TAG %d, expected %d", what, st->MPI_TAG,
                tag);
    int want = rsize == 0 ? 0 : b->nbytes % (size_t)rsize ? MPI_UNDEFINED
                                                           : (int)(b->nbytes / (size_t)rsize);
    MTEST_RC(MPI_Get_count(st, rtype, &count));
    MTEST_CHECK(count == want, "%s: MPI_Get_count %d, expected %d (%zu bytes, type size %ld)",
                what, count, want, b->nbytes, (long)rsize);
    MTEST_RC(MPI_Get_elements(st, rtype, &nel));
    MTEST_CHECK(nel == b->nel, "%s: MPI_Get_elements %d, expected %ld", what, nel, b->nel);
    MPI_Count nelx = -7;
    MTEST_RC(MPI_Get_elements_x(st, rtype, &nelx));
    MTEST_CHECK(nelx == b->nel, "%s: MPI_Get_elements_x %lld, expected %ld", what,
                (long long)nelx, b->nel);
}

/* ---- the ring transfers ---------------------------------------------------- */

enum mode { M_ISEND_RECV, M_IRECV_SEND, M_SENDRECV, M_IRECV_SSEND, M_PERSISTENT, M_ANYSRC,
            NMODES };
static const char *mode_name[] = {"Isend+Recv", "Irecv+Send", "Sendrecv", "Irecv+Ssend",
                                  "persistent", "Isend+Irecv(ANY_SOURCE)"};

static int step;              /* transfers so far: tags and patterns */

/* The stats the test must have covered (checked at the end). */
static int n_undefined, n_zero, n_eager_edge, n_large, n_bottom;

/* A type of count elements of t at address buf for use with MPI_BOTTOM. */
static MPI_Datatype bottom_type(const td_t *t, int count, const void *buf)
{
    MPI_Aint addr;
    MPI_Datatype w;
    MTEST_RC(MPI_Get_address(buf, &addr));
    MTEST_RC(MPI_Type_create_struct(1, &count, &addr, (MPI_Datatype *)&t->type, &w));
    MTEST_RC(MPI_Type_commit(&w));
    return w;
}

/* Every rank sends cs elements of s to `next` and receives cr elements of r
 * from `prev`. bottom: bit 0 send from MPI_BOTTOM, bit 1 receive there. */
static void transfer(const char *label, td_t *s, int cs, td_t *r, int cr, enum mode mode,
                     int bottom)
{
    char what[1000];
    int tag = step % 30000, idx = 2 * step;
    step++;
    commit(s);
    commit(r);
    size_t nbytes = (size_t)cs * (size_t)s->size;
    snprintf(what, sizeof what, "%s: %s, %d x %s -> %d x %s, %zu bytes%s%s", label,
             mode_name[mode], cs, s->name, cr, r->name, nbytes,
             bottom & 1 ? ", send from MPI_BOTTOM" : "",
             bottom & 2 ? ", receive at MPI_BOTTOM" : "");
    if (!sig_prefix(s, cs, r, cr)) {
        mtest_fail("%s: test error: signatures do not match", what);
        return;
    }
    if (nbytes == 0)
        n_zero++;
    if (nbytes >= 8000 && nbytes <= 8400)
        n_eager_edge++;
    if (nbytes >= 1 << 20)
        n_large++;
    if (bottom)
        n_bottom++;

    sbuf_t sb;
    rbuf_t rb;
    sbuf_make(&sb, s, cs, me, idx);
    rbuf_make(&rb, r, cr);
    rbuf_prepare(&rb, s, cs, prev, idx, nbytes);
    if (r->size && nbytes % (size_t)r->size)
        n_undefined++;

    /* what is passed to MPI */
    void *sp = sb.buf, *rp = rb.buf;
    int scnt = cs, rcnt = cr;
    MPI_Datatype st_ = s->type, rt = r->type;
    MPI_Aint rsize = r->size;
    if (bottom & 1) {
        st_ = bottom_type(s, cs, sb.buf);
        sp = MPI_BOTTOM;
        scnt = 1;
    }
    if (bottom & 2) {
        rt = bottom_type(r, cr, rb.buf);
        rp = MPI_BOTTOM;
        rcnt = 1;
        rsize = (MPI_Aint)cr * r->size;
    }

    MPI_Status st;
    MPI_Request rq[2];
    mtest_status_garbage(&st);
    switch (mode) {
    case M_ISEND_RECV:
        MTEST_RC(MPI_Isend(sp, scnt, st_, next, tag, comm, &rq[0]));
        MTEST_RC(MPI_Recv(rp, rcnt, rt, prev, tag, comm, &st));
        MTEST_RC(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
        break;
    case M_IRECV_SEND:
        MTEST_RC(MPI_Irecv(rp, rcnt, rt, prev, tag, comm, &rq[0]));
        MTEST_RC(MPI_Send(sp, scnt, st_, next, tag, comm));
        MTEST_RC(MPI_Wait(&rq[0], &st));
        break;
    case M_SENDRECV:
        MTEST_RC(MPI_Sendrecv(sp, scnt, st_, next, tag, rp, rcnt, rt, prev, tag, comm, &st));
        break;
    case M_IRECV_SSEND:
        MTEST_RC(MPI_Irecv(rp, rcnt, rt, prev, tag, comm, &rq[0]));
        MTEST_RC(MPI_Ssend(sp, scnt, st_, next, tag, comm));
        MTEST_RC(MPI_Wait(&rq[0], &st));
        break;
    case M_ANYSRC:
        MTEST_RC(MPI_Isend(sp, scnt, st_, next, tag, comm, &rq[0]));
        MTEST_RC(MPI_Irecv(rp, rcnt, rt, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &rq[1]));
        MTEST_RC(MPI_Wait(&rq[1], &st));
        MTEST_RC(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
        break;
    case M_PERSISTENT: {
        MPI_Status sts[2];
        MTEST_RC(MPI_Recv_init(rp, rcnt, rt, prev, tag, comm, &rq[0]));
        MTEST_RC(MPI_Send_init(sp, scnt, st_, next, tag, comm, &rq[1]));
        for (int round = 0; round < 2; round++) {
            if (round == 1) {
                /* new data in the same buffers */
                check_status(&st, &rb, rt, rsize, prev, tag, what);
                rbuf_check(&rb, what);
                mtest_fill(sb.alloc, sb.len, me, idx + 1);
                rbuf_prepare(&rb, s, cs, prev, idx + 1, nbytes);
            }
            MTEST_RC(MPI_Start(&rq[0]));
            MTEST_RC(MPI_Start(&rq[1]));
            MTEST_RC(MPI_Waitall(2, rq, sts));
            st = sts[0];
        }
        MTEST_RC(MPI_Request_free(&rq[0]));
        MTEST_RC(MPI_Request_free(&rq[1]));
        idx++;
        break;
    }
    default:
        break;
    }
    check_status(&st, &rb, rt, rsize, prev, tag, what);
    rbuf_check(&rb, what);
    /* the send buffer is left as it was */
    mtest_check_data(sb.alloc, sb.len, me, idx, "%s: send buffer changed", what);

    if (bottom & 1)
        MTEST_RC(MPI_Type_free(&st_));
    if (bottom & 2)
        MTEST_RC(MPI_Type_free(&rt));
    free(sb.alloc);
    rbuf_free(&rb);
}

/* ---- the pairs of types ------------------------------------------------- */

typedef struct {
    const char *label;
    td_t *a, *b;              /* a's signature, repeated, is a prefix of b's repeated */
    int back;                 /* b may be sent to a (0: a overlaps itself) */
} pair_t;

#define MAXPAIRS 32
static pair_t pairs[MAXPAIRS];
static int npairs;

/* pairs the extra tests use */
static pair_t *p_vector, *p_negstride, *p_block, *p_nested, *p_deep;

static pair_t *add_pair(const char *label, td_t *a, td_t *b, int back)
{
    pairs[npairs] = (pair_t){label, a, b, back};
    return &pairs[npairs++];
}

static void build_pairs(void)
{
    td_t *c = T_basic(B_CHAR), *sh = T_basic(B_SHORT), *in = T_basic(B_INT);
    td_t *fl = T_basic(B_FLOAT), *db = T_basic(B_DOUBLE), *ll = T_basic(B_LLONG);

    p_vector = add_pair("vector -> contiguous", T_vector(3, 2, 5, in), T_contig(4, in), 1);
    p_negstride = add_pair("negative-stride vector -> indexed with negative displacement and "
                           "an empty block", T_vector(4, 1, -3, in),
                           T_indexed(3, (int[]){2, 0, 3}, (int[]){7, 2, -3}, in), 1);
    add_pair("hvector (negative stride) of contiguous -> hindexed (unaligned)",
             T_hvector(3, 2, -40, T_contig(3, sh)),
             T_hindexed(3, (int[]){4, 1, 7}, (MPI_Aint[]){-101, 6, 31}, sh), 1);
    p_block = add_pair("indexed_block -> hindexed_block",
                       T_indexed_block(4, 2, (int[]){6, 0, -4, 10}, db),
                       T_hindexed_block(3, 3, (MPI_Aint[]){48, -72, 0}, db), 1);
    add_pair("struct -> indexed",
             T_struct(3, (int[]){1, 2, 1}, (MPI_Aint[]){0, 16, -8}, (td_t *[]){in, in, in}),
             T_indexed(2, (int[]){3, 2}, (int[]){4, -2}, in), 1);
    /* extent 4 < true extent 12: consecutive elements overlap, so this type
     * is only ever sent */
    add_pair("resized smaller than true extent (overlapping, sent only) -> contiguous",
             T_resized(T_vector(2, 1, 2, in), 0, 4), T_contig(3, in), 0);
    /* ints at 0, 8, 4, 12: a type map out of address order */
    td_t *pair4 = T_resized(T_vector(2, 1, 2, in), 0, 4);
    add_pair("contiguous -> resized(contiguous(resized smaller)) out of address order",
             T_contig(4, in), T_resized(T_contig(2, pair4), 0, 16), 1);
    add_pair("resized larger with negative lb -> hvector with negative stride",
             T_resized(T_indexed_block(2, 1, (int[]){1, 3}, ll), -16, 64),
             T_hvector(3, 1, -24, ll), 1);
    add_pair("dup of hindexed -> struct",
             T_dup(T_hindexed(3, (int[]){1, 2, 1}, (MPI_Aint[]){12, 0, -20}, fl)),
             T_struct(2, (int[]){2, 2}, (MPI_Aint[]){-8, 8}, (td_t *[]){fl, fl}), 1);

    /* struct of a resized vector of an indexed type (4 deep), inner handles
     * freed at once */
    {
        td_t *ix = T_indexed(2, (int[]){1, 2}, (int[]){3, 0}, in);
        td_t *v = T_vector(3, 1, 2, ix);
        td_t *rv = T_resized(v, -16, 128);
        td_t *st = T_struct(2, (int[]){2, 3}, (MPI_Aint[]){-200, -104}, (td_t *[]){rv, db});
        td_t *ci = T_contig(18, in);
        td_t *hv = T_hvector(3, 1, -8, db);
        td_t *re = T_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 96}, (td_t *[]){ci, hv});
        drop_handle(ix);
        drop_handle(v);
        drop_handle(rv);
        drop_handle(ci);
        drop_handle(hv);
        p_nested = add_pair("struct of resized vector of indexed -> struct of contiguous and "
                            "hvector", st, re, 1);
    }
    /* dup(resized(struct(hindexed(indexed_block)))): 5 deep, chars and
     * shorts, received with unaligned shorts */
    {
        td_t *ib = T_indexed_block(3, 2, (int[]){0, 5, 3}, c);
        td_t *hi = T_hindexed(2, (int[]){2, 1}, (MPI_Aint[]){-30, 11}, ib);
        td_t *ss = T_struct(2, (int[]){1, 3}, (MPI_Aint[]){0, 40}, (td_t *[]){hi, sh});
        td_t *d = T_dup(T_resized(ss, -32, 100));
        td_t *re = T_struct(2, (int[]){1, 1}, (MPI_Aint[]){-51, 3},
                            (td_t *[]){T_contig(18, c), T_vector(3, 1, 2, sh)});
        p_deep = add_pair("dup of resized struct of hindexed of indexed_block -> struct "
                          "(unaligned)", d, re, 1);
    }
    /* mixed basic types: an element is half a receive element; the
     * first struct's extent needs no alignment padding (24) */
    {
        td_t *h = T_resized(T_struct(5, (int[]){1, 1, 1, 1, 8},
                                     (MPI_Aint[]){0, 2, 4, 8, 16},
                                     (td_t *[]){c, sh, in, db, c}),
                            0, 32);
        /* Open MPI 4.1 pads this struct (unaligned fields) to 64 bytes */
        extent_unchecked = 1;
        td_t *hr = T_resized(T_struct(5, (int[]){1, 1, 1, 1, 8},
                                      (MPI_Aint[]){47, 37, 30, 9, 0},
                                      (td_t *[]){c, sh, in, db, c}),
                             0, 56);
        add_pair("C-like struct -> contiguous of struct with descending unaligned fields", h,
                 T_contig(2, hr), 1);
    }
    add_pair("contiguous of 1000 doubles -> vector of doubles", T_contig(1000, db),
             T_vector(250, 3, 4, db), 1);
    add_pair("indexed with long blocks -> hindexed_block of contiguous",
             T_indexed(3, (int[]){100, 1, 50}, (int[]){200, 0, -60}, in),
             T_hindexed_block(2, 1, (MPI_Aint[]){0, -1000}, T_contig(80, in)), 1);
    add_pair("vector of char -> hvector of char (negative stride)", T_vector(5, 1, 3, c),
             T_hvector(2, 2, -7, c), 1);
    add_pair("char -> indexed of char", c, T_indexed(2, (int[]){1, 2}, (int[]){2, 0}, c), 1);
    add_pair("double -> dup of contiguous of resized double (padding)", db,
             T_dup(T_contig(3, T_resized(db, -4, 20))), 1);
}

/* Byte sizes aimed at; the count is the largest that stays at or below
 * (at least one element). */
static size_t targets[] = {0, 1, 2, 7, 24, 8000, 8192, 8193, 8400, 65536, 300000, 0};
#define NTARGETS ((int)(sizeof targets / sizeof targets[0]))

static int count_for(size_t target, const td_t *t)
{
    if (target == 0)
        return 0;
    size_t n = target / (size_t)t->size;
    return n < 1 ? 1 : (int)n;
}

/* Smallest count of r holding cs elements of s. */
static int fit_count(const td_t *s, int cs, const td_t *r)
{
    long ne = (long)cs * s->n;
    return (int)((ne + r->n - 1) / r->n);
}

static int tcount;            /* transfers so far, for the rotation of modes */

static void run_direction(const char *label, td_t *s, td_t *r, size_t max)
{
    int last = -1;
    for (int k = 0; k < NTARGETS; k++) {
        size_t tgt = k == NTARGETS - 1 ? max : targets[k];
        if (tgt > max)
            continue;
        /* "1, 2, 7 bytes" in elements for types larger than that */
        if (tgt > 0 && tgt < 64 && (size_t)s->size > tgt)
            tgt = tgt * (size_t)s->size;
        int cs = count_for(tgt, s);
        if (cs == last)
            continue;
        last = cs;
        /* the smallest receive count that holds the message */
        int cr = fit_count(s, cs, r);
        transfer(label, s, cs, r, cr, (enum mode)(tcount % NMODES),
                 tcount % 7 == 3 ? 1 : tcount % 7 == 5 ? 2 : tcount % 7 == 6 ? 3 : 0);
        tcount++;
        /* a shorter message into a larger receive count (not at the largest
         * size, to save time) */
        if (cs >= 1 && tgt < max) {
            int cs2 = cs - 1, cr2 = cr + 2;
            transfer(label, s, cs2, r, cr2, (enum mode)(tcount % NMODES),
                     tcount % 5 == 1 ? 2 : 0);
            tcount++;
        }
    }
}

/* ---- separate arrays at absolute addresses ------------------------------ */

/* Sender: 100 ints, 50 doubles in reverse order (negative stride), 33
 * chars, each in its own allocation, one struct of absolute addresses, sent
 * from MPI_BOTTOM. Receiver: the same scheme into three other allocations
 * (doubles in forward order), then the same message into one contiguous
 * struct buffer. */
static void test_bottom_arrays(void)
{
    int *a = mtest_malloc(100 * sizeof(int));
    double *b = mtest_malloc(50 * sizeof(double));
    char *c = mtest_malloc(33);
    MPI_Aint addr[3];
    MPI_Datatype rev, stype, rtype, ctype;
    int bl[3] = {100, 1, 33};
    const int tag = BOTTOM_TAG;

    for (int i = 0; i < 100; i++)
        a[i] = 1000 * me + i;
    for (int i = 0; i < 50; i++)
        b[i] = me + i / 64.0;
    for (int i = 0; i < 33; i++)
        c[i] = (char)(me * 7 + i);
    MTEST_RC(MPI_Type_create_hvector(50, 1, -(MPI_Aint)sizeof(double), MPI_DOUBLE, &rev));
    MTEST_RC(MPI_Get_address(a, &addr[0]));
    MTEST_RC(MPI_Get_address(&b[49], &addr[1]));
    MTEST_RC(MPI_Get_address(c, &addr[2]));
    MTEST_RC(MPI_Type_create_struct(3, bl, addr, (MPI_Datatype[]){MPI_INT, rev, MPI_CHAR},
                                    &stype));
    MTEST_RC(MPI_Type_commit(&stype));
    MTEST_RC(MPI_Type_free(&rev));

    int *a2 = mtest_malloc(100 * sizeof(int) + MTEST_GUARD);
    double *b2 = mtest_malloc(50 * sizeof(double) + MTEST_GUARD);
    char *c2 = mtest_malloc(33 + MTEST_GUARD);
    memset(a2, 0xee, 100 * sizeof(int));
    memset(b2, 0xee, 50 * sizeof(double));
    memset(c2, 0xee, 33);
    mtest_guard_set(a2 + 100);
    mtest_guard_set(b2 + 50);
    mtest_guard_set(c2 + 33);
    int bl2[3] = {100, 50, 33};
    MTEST_RC(MPI_Get_address(a2, &addr[0]));
    MTEST_RC(MPI_Get_address(b2, &addr[1]));
    MTEST_RC(MPI_Get_address(c2, &addr[2]));
    MTEST_RC(MPI_Type_create_struct(3, bl2, addr,
                                    (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR}, &rtype));
    MTEST_RC(MPI_Type_commit(&rtype));

    /* one buffer: 33 chars at 0, 100 ints at 40, 50 doubles at 440 */
    struct one {
        char c[40];
        int a[100];
        double b[50];
        char guard[MTEST_GUARD];
    } one;
    MPI_Aint d3[3] = {offsetof(struct one, a), offsetof(struct one, b), offsetof(struct one, c)};
    MTEST_RC(MPI_Type_create_struct(3, bl2, d3, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR},
                                    &ctype));
    MTEST_RC(MPI_Type_commit(&ctype));
    memset(&one, 0xee, sizeof one);
    mtest_guard_set(one.guard);

    MPI_Request rq[2];
    MPI_Status st;
    MTEST_RC(MPI_Isend(MPI_BOTTOM, 1, stype, next, tag, comm, &rq[0]));
    MTEST_RC(MPI_Isend(MPI_BOTTOM, 1, stype, next, tag, comm, &rq[1]));
    MTEST_RC(MPI_Recv(MPI_BOTTOM, 1, rtype, prev, tag, comm, &st));
    mtest_check_status(&st, prev, tag, rtype, 1, "MPI_BOTTOM arrays");
    MTEST_RC(MPI_Recv(&one, 1, ctype, prev, tag, comm, &st));
    mtest_check_status(&st, prev, tag, ctype, 1, "MPI_BOTTOM arrays into one buffer");
    MTEST_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));

    int bad = 0;
    for (int i = 0; i < 100; i++)
        bad += a2[i] != 1000 * prev + i || one.a[i] != 1000 * prev + i;
    for (int i = 0; i < 50; i++)
        bad += b2[i] != prev + (49 - i) / 64.0 || one.b[i] != prev + (49 - i) / 64.0;
    for (int i = 0; i < 33; i++)
        bad += c2[i] != (char)(prev * 7 + i) || one.c[i] != (char)(prev * 7 + i);
    for (int i = 33; i < 40; i++)
        bad += (unsigned char)one.c[i] != 0xee;
    MTEST_CHECK(bad == 0, "MPI_BOTTOM arrays: %d wrong values", bad);
    mtest_guard_check(a2 + 100, "MPI_BOTTOM ints");
    mtest_guard_check(b2 + 50, "MPI_BOTTOM doubles");
    mtest_guard_check(c2 + 33, "MPI_BOTTOM chars");
    mtest_guard_check(one.guard, "MPI_BOTTOM into one buffer");
    MTEST_RC(MPI_Type_free(&stype));
    MTEST_RC(MPI_Type_free(&rtype));
    MTEST_RC(MPI_Type_free(&ctype));
    free(a);
    free(b);
    free(c);
    free(a2);
    free(b2);
    free(c2);
}

/* ---- fan-in with MPI_ANY_SOURCE ------------------------------------------ */

#define FAN_MSGS 6

/* Every rank sends FAN_MSGS messages of pair p's `a` type to rank 0 (sizes
 * alternate small and large); rank 0 receives them all with MPI_ANY_SOURCE
 * into the `b` type, alternately Recv and Irecv+Wait, and checks each
 * against the sender named by the status, in per-sender order. */
static void test_fanin(const pair_t *p, size_t max)
{
    td_t *s = p->a, *r = p->b;
    int counts[FAN_MSGS];
    size_t big = max < (256 << 10) ? max : (256 << 10);
    for (int k = 0; k < FAN_MSGS; k++)
        counts[k] = count_for(k % 2 ? big : (size_t)(3 + k) * (size_t)s->size, s);
    int crmax = 0;
    for (int k = 0; k < FAN_MSGS; k++)
        if (fit_count(s, counts[k], r) > crmax)
            crmax = fit_count(s, counts[k], r);
    commit(s);
    commit(r);

    MPI_Request rq[FAN_MSGS];
    sbuf_t sb[FAN_MSGS];
    for (int k = 0; k < FAN_MSGS; k++) {
        sbuf_make(&sb[k], s, counts[k], me, 500000 + k);
        MTEST_RC(MPI_Isend(sb[k].buf, counts[k], s->type, 0, FAN_TAG, comm, &rq[k]));
    }
    if (me == 0) {
        int *nextk = calloc((size_t)np, sizeof(int));
        for (int m = 0; m < np * FAN_MSGS; m++) {
            rbuf_t rb;
            MPI_Status st;
            MPI_Request q;
            char what[1000];
            rbuf_make(&rb, r, crmax);
            mtest_poison(rb.alloc, rb.len, -1, m);
            if (m % 2 == 0) {
                MTEST_RC(MPI_Recv(rb.buf, crmax, r->type, MPI_ANY_SOURCE, FAN_TAG, comm, &st));
            } else {
                MTEST_RC(MPI_Irecv(rb.buf, crmax, r->type, MPI_ANY_SOURCE, FAN_TAG, comm, &q));
                MTEST_RC(MPI_Wait(&q, &st));
            }
            int src = st.MPI_SOURCE;
            if (!MTEST_CHECK(src >= 0 && src < np && nextk[src] < FAN_MSGS,
                             "fan-in: status.MPI_SOURCE %d", src)) {
                rbuf_free(&rb);
                continue;
            }
            int k = nextk[src]++;
            snprintf(what, sizeof what, "fan-in %s: message %d of rank %d, %d x %s -> %s",
                     p->label, k, src, counts[k], s->name, r->name);
            /* the poison was set before the sender was known */
            rbuf_expect(&rb, s, counts[k], src, 500000 + k, (size_t)counts[k] * (size_t)s->size,
                        -1, m, 0);
            check_status(&st, &rb, r->type, r->size, src, FAN_TAG, what);
            rbuf_check(&rb, what);
            rbuf_free(&rb);
        }
        free(nextk);
    }
    MTEST_RC(MPI_Waitall(FAN_MSGS, rq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < FAN_MSGS; k++)
        free(sb[k].alloc);
}

/* ---- sticky bounds ---------------------------------------------------------- */

/* MPI-4.0 5.1.7: a type built from copies of a resized type takes its bounds
 * from the resized type's markers alone: struct {resized(int, -4, 16) at 0,
 * int at -32} has lb -4 and extent 16, so its elements overlap (MPICH 4.0
 * gives lb -32, extent 44; the model follows it there). Three elements sent,
 * six ints received. */
static void test_sticky(void)
{
    td_t *in = T_basic(B_INT);
    td_t *s = T_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, -32},
                       (td_t *[]){T_resized(in, -4, 16), in});
    transfer("lb/ub markers are sticky", s, 3, T_contig(6, in), 1, M_ISEND_RECV, 0);
}

/* ---- errors ---------------------------------------------------------------- */

static void test_uncommitted(void)
{
    MPI_Datatype t;
    int buf[16] = {0}, rc;
    MPI_Request rq;
    MTEST_RC(MPI_Type_vector(2, 1, 2, MPI_INT, &t));

    rc = MPI_Send(buf, 1, t, me, ERR_TAG, comm);
    if (!mtest_check_class(rc, MPI_ERR_TYPE, "MPI_Send of an uncommitted vector") &&
        rc == MPI_SUCCESS)
        MPI_Recv(buf, 2, MPI_INT, me, ERR_TAG, comm, MPI_STATUS_IGNORE);
    rc = MPI_Isend(buf, 1, t, me, ERR_TAG, comm, &rq);
    if (!mtest_check_class(rc, MPI_ERR_TYPE, "MPI_Isend of an uncommitted vector") &&
        rc == MPI_SUCCESS) {
        MPI_Recv(buf, 2, MPI_INT, me, ERR_TAG, comm, MPI_STATUS_IGNORE);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
    rc = MPI_Irecv(buf, 1, t, me, ERR_TAG, comm, &rq);
    if (!mtest_check_class(rc, MPI_ERR_TYPE, "MPI_Irecv of an uncommitted vector") &&
        rc == MPI_SUCCESS) {
        MPI_Send(buf, 2, MPI_INT, me, ERR_TAG, comm);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
    rc = MPI_Send_init(buf, 1, t, me, ERR_TAG, comm, &rq);
    if (!mtest_check_class(rc, MPI_ERR_TYPE, "MPI_Send_init of an uncommitted vector") &&
        rc == MPI_SUCCESS)
        MPI_Request_free(&rq);
    rc = MPI_Sendrecv(buf, 2, MPI_INT, me, ERR_TAG, buf + 8, 1, t, me, ERR_TAG, comm,
                      MPI_STATUS_IGNORE);
    mtest_check_class(rc, MPI_ERR_TYPE, "MPI_Sendrecv receiving an uncommitted vector");
    if (rc != MPI_SUCCESS) {
        /* the send half may or may not have gone out: drain it if so */
        int flag = 0;
        MPI_Iprobe(me, ERR_TAG, comm, &flag, MPI_STATUS_IGNORE);
        if (flag)
            MPI_Recv(buf, 2, MPI_INT, me, ERR_TAG, comm, MPI_STATUS_IGNORE);
    }

    rc = MPI_Send(buf, 1, MPI_DATATYPE_NULL, me, ERR_TAG, comm);
    mtest_check_class(rc, MPI_ERR_TYPE, "MPI_Send with MPI_DATATYPE_NULL");
    rc = MPI_Irecv(buf, 1, MPI_DATATYPE_NULL, me, ERR_TAG, comm, &rq);
    mtest_check_class(rc, MPI_ERR_TYPE, "MPI_Irecv with MPI_DATATYPE_NULL");

    /* committed, the same type works */
    MTEST_RC(MPI_Type_commit(&t));
    MTEST_RC(MPI_Sendrecv(buf, 1, t, me, ERR_TAG, buf + 8, 2, MPI_INT, me, ERR_TAG, comm,
                          MPI_STATUS_IGNORE));
    MTEST_RC(MPI_Type_free(&t));
}

/* Ring: cs elements of s sent into cr < the fit of r; Recv or Irecv+Wait
 * must fail with MPI_ERR_TRUNCATE, write nothing outside the receive map
 * (and in it only the message's own bytes), and the next message (1
 * element) from the same sender must arrive intact. */
static void test_truncate(const pair_t *p, int cs, int use_wait)
{
    td_t *s = p->a, *r = p->b;
    int cr = fit_count(s, cs, r) - 1;
    int idx = 2 * step, tag = TRUNC_TAG;
    char what[1000];
    step++;
    commit(s);
    commit(r);
    snprintf(what, sizeof what, "truncation (%s): %d x %s into %d x %s, %zu bytes",
             use_wait ? "Irecv+Wait" : "Recv", cs, s->name, cr, r->name,
             (size_t)cs * (size_t)s->size);

    sbuf_t sb, sb2;
    rbuf_t rb;
    MPI_Request rq[2], q;
    MPI_Status st;
    sbuf_make(&sb, s, cs, me, idx);
    sbuf_make(&sb2, s, 1, me, idx + 1);
    MTEST_RC(MPI_Isend(sb.buf, cs, s->type, next, tag, comm, &rq[0]));
    MTEST_RC(MPI_Isend(sb2.buf, 1, s->type, next, tag, comm, &rq[1]));

    rbuf_make(&rb, r, cr);
    rbuf_prepare(&rb, s, cs, prev, idx, (size_t)cr * (size_t)r->size);
    /* which bytes are in the receive map */
    unsigned char *inmap = calloc(rb.len, 1), *ones = mtest_malloc(rb.nbytes);
    memset(ones, 1, rb.nbytes);
    scatter(r, cr, inmap + (rb.buf - rb.alloc), ones, rb.nbytes);
    free(ones);
    mtest_status_garbage(&st);
    int rc;
    if (use_wait) {
        MTEST_RC(MPI_Irecv(rb.buf, cr, r->type, prev, tag, comm, &q));
        rc = MPI_Wait(&q, &st);
    } else {
        rc = MPI_Recv(rb.buf, cr, r->type, prev, tag, comm, &st);
    }
    mtest_check_class(rc, MPI_ERR_TRUNCATE, "%s", what);
    MTEST_CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == tag, "%s: status source %d tag %d",
                what, st.MPI_SOURCE, st.MPI_TAG);
    /* map bytes may hold the message or their poison (~message), all others
     * only their poison */
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < rb.len; i++) {
        unsigned char g = rb.alloc[i], e = rb.exp[i];
        if (g == e || (inmap[i] && g == (unsigned char)~e))
            continue;
        if (bad++ == 0)
            first = i;
    }
    if (bad) {
        char where[160];
        MPI_Aint d = (MPI_Aint)first - (rb.buf - rb.alloc);
        locate(r, cr, d, where, sizeof where);
        mtest_fail("%s: %zu bytes hold neither the message nor the poison; first at disp %ld "
                   "(%s): 0x%02x", what, bad, (long)d, where, rb.alloc[first]);
    }
    free(inmap);
    rbuf_free(&rb);

    /* the next message */
    rbuf_make(&rb, r, fit_count(s, 1, r));
    rbuf_prepare(&rb, s, 1, prev, idx + 1, (size_t)s->size);
    MTEST_RC(MPI_Recv(rb.buf, rb.count, r->type, prev, tag, comm, &st));
    check_status(&st, &rb, r->type, r->size, prev, tag, what);
    rbuf_check(&rb, what);
    rbuf_free(&rb);

    /* the sender may or may not see an error: do not check */
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    free(sb.alloc);
    free(sb2.alloc);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    me = mtest_rank;
    np = mtest_size;
    next = (me + 1) % np;
    prev = (me + np - 1) % np;
    size_t max = 4 << 20;
    if (argc > 1)
        max = mtest_parse_size(argv[1]);

    build_pairs();
    /* the way back goes up to a quarter of the largest size (time) */
    size_t back_max = max / 4 > (64 << 10) ? max / 4 : max < (64 << 10) ? max : (64 << 10);
    for (int i = 0; i < npairs; i++) {
        pair_t *p = &pairs[i];
        run_direction(p->label, p->a, p->b, max);
        if (p->back)
            run_direction(p->label, p->b, p->a, back_max);
    }
    test_bottom_arrays();
    MPI_Barrier(comm);
    test_fanin(p_nested, max);
    MPI_Barrier(comm);
    test_fanin(p_negstride, max);
    MPI_Barrier(comm);
    test_uncommitted();
    MPI_Barrier(comm);
    test_sticky();
    for (int w = 0; w < 2; w++) {
        test_truncate(p_vector, 5, w);
        test_truncate(p_nested, 3, w);
        if (max >= (1 << 20)) {
            test_truncate(p_block, count_for(1 << 20, p_block->a), w);
            test_truncate(p_deep, count_for(1 << 20, p_deep->a), w);
        }
    }

    /* the test itself covered what it claims */
    MTEST_CHECK(n_undefined > 0 && n_zero > 0 && n_eager_edge > 0 && n_bottom > 0 &&
                (max < (1 << 20) || n_large > 0),
                "test error: coverage undefined %d zero %d eager-edge %d bottom %d large %d",
                n_undefined, n_zero, n_eager_edge, n_bottom, n_large);

    for (int i = 0; i < ntd; i++) {
        td_t *t = all_td[i];
        int predefined = t->n == 1 && t->type == basic[t->map[0].bt].type;
        if (!predefined && t->type != MPI_DATATYPE_NULL)
            MTEST_RC(MPI_Type_free(&t->type));
        free(t->map);
        free(t->runs);
        free(t);
    }
    return mtest_finalize();
}
