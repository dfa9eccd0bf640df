/*
 * rma_acc: accumulate operations and their atomicity.
 *   - MPI_Accumulate with every predefined op the type admits (SUM, PROD,
 *     MAX, MIN, LAND, LOR, LXOR, BAND, BOR, BXOR, REPLACE) on int,
 *     unsigned char, short, unsigned, long long and double, and
 *     MAXLOC/MINLOC on MPI_2INT and MPI_DOUBLE_INT (ties: the lower index),
 *     every rank into every rank, count 13 per call, under fence, lock_all
 *     and per-target shared locks; the results against the fold the test
 *     computes (values chosen so that any order gives the same bits;
 *     REPLACE: each element one of the origins' values);
 *   - a vector of int as target type (origin contiguous) and as origin type
 *     (target contiguous): the gaps stay untouched; Get_accumulate into a
 *     vector target;
 *   - MPI_PROC_NULL targets are no-ops;
 *   - Get_accumulate(SUM) with a distinct bit per origin: the values the
 *     origins fetched form a chain (each is exactly the bits of the origins
 *     before it), collected at the target by messages; Get_accumulate and
 *     Fetch_and_op with MPI_NO_OP read the final value;
 *   - Fetch_and_op SUM on int, long long and double (the fetched values are
 *     the initial value plus 0..n-1, once each) and REPLACE (every value
 *     fetched once, the one not fetched is in the window);
 *   - Compare_and_swap on int and long long: exactly one origin swaps;
 *   - atomicity: every rank adds 1 to one counter on rank 0 N times with
 *     Fetch_and_op (N = 10000 up to 4 ranks, 2000 above; argv[1]), singly
 *     and in batches before a flush: the final sum is n * N and the values
 *     fetched over all ranks are 0..nN-1 once each (increasing per rank);
 *     the same with Accumulate under lock_all, and with half the ranks
 *     using each on one counter;
 *   - a spin lock made of Compare_and_swap + Win_flush guarding a
 *     non-atomic Get / increment / Put of a counter (the owner checked with
 *     Fetch_and_op NO_OP inside): the counter ends at n * K;
 *   - ordering: from one origin to one target location, REPLACE then SUM
 *     then Get_accumulate(SUM) then Fetch_and_op(NO_OP), no flush in
 *     between, each sees the effect of the ones before;
 *   - Raccumulate / Rget_accumulate with Wait and Test (origin buffer
 *     reusable, the result there when the request completes).
 */
#include "rma_util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 13                      /* elements per accumulate call */

static MPI_Win win;
static unsigned char *base;      /* this rank's window */
static size_t wsize;
static int me, np;

/* ---- types and ops ---------------------------------------------------------- */

enum { O_SUM, O_PROD, O_MAX, O_MIN, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, O_REPLACE, NOPS };
static const char *const op_names[NOPS] = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR",
                                           "BAND", "BOR", "BXOR", "REPLACE"};
static MPI_Op op_handle(int op)
{
    switch (op) {
    case O_SUM: return MPI_SUM;
    case O_PROD: return MPI_PROD;
    case O_MAX: return MPI_MAX;
    case O_MIN: return MPI_MIN;
    case O_LAND: return MPI_LAND;
    case O_LOR: return MPI_LOR;
    case O_LXOR: return MPI_LXOR;
    case O_BAND: return MPI_BAND;
    case O_BOR: return MPI_BOR;
    case O_BXOR: return MPI_BXOR;
    default: return MPI_REPLACE;
    }
}

typedef struct {
    const char *name;
    size_t size;
    int is_float;
    MPI_Datatype (*type)(void);
    /* the value origin o sends to target t for element i (o = -1: the
     * target's initial value) */
    void (*make)(void *dst, int o, int t, int i, int op);
    /* acc = acc op in, as C computes it in the type */
    void (*apply)(void *acc, const void *in, int op);
    void (*show)(char *buf, size_t len, const void *v);
} tdesc_t;

static uint64_t h(int o, int t, int i, int op)
{
    return rma_mix(((uint64_t)(uint32_t)(o + 1) << 48) ^ ((uint64_t)(uint32_t)t << 32) ^
                   ((uint64_t)(uint32_t)i << 8) ^ (uint64_t)(uint32_t)op ^ 0xacc0ull);
}

/* Raw values per op, before conversion to the type: SUM small, PROD in
 * {1, 2, 3, -1, -2} (halves for doubles), logical ops mostly nonzero,
 * others anything. */
#define DEFINE_INT_TYPE(NAME, CT, MT, FMT, CAST)                                                 \
    static MPI_Datatype NAME##_type(void) { return MT; }                                        \
    static void NAME##_make(void *dst, int o, int t, int i, int op)                             \
    {                                                                                            \
        uint64_t x = h(o, t, i, op);                                                             \
        CT v;                                                                                    \
        static const int prod[5] = {1, 2, 3, -1, -2};                                            \
        switch (op) {                                                                            \
        case O_SUM: v = (CT)((int64_t)(x % 201) - 100); break;                                   \
        case O_PROD: v = (CT)prod[x % 5]; break;                                                 \
        case O_LAND: case O_LOR: case O_LXOR: v = (CT)(x % 8 == 0 ? 0 : (x >> 8) % 7 + 1); break; \
        default: v = (CT)x; break;                                                               \
        }                                                                                        \
        memcpy(dst, &v, sizeof v);                                                               \
    }                                                                                            \
    static void NAME##_apply(void *accp, const void *inp, int op)                               \
    {                                                                                            \
        CT a, b;                                                                                 \
        memcpy(&a, accp, sizeof a);                                                              \
        memcpy(&b, inp, sizeof b);                                                               \
        switch (op) {                                                                            \
        case O_SUM: a = (CT)((CAST)a + (CAST)b); break;                                          \
        case O_PROD: a = (CT)((CAST)a * (CAST)b); break;                                         \
        case O_MAX: a = a > b ? a : b; break;                                                    \
        case O_MIN: a = a < b ? a : b; break;                                                    \
        case O_LAND: a = (CT)(a && b); break;                                                    \
        case O_LOR: a = (CT)(a || b); break;                                                     \
        case O_LXOR: a = (CT)(!a != !b); break;                                                  \
        case O_BAND: a = (CT)(a & b); break;                                                     \
        case O_BOR: a = (CT)(a | b); break;                                                      \
        case O_BXOR: a = (CT)(a ^ b); break;                                                     \
        default: a = b; break;                                                                   \
        }                                                                                        \
        memcpy(accp, &a, sizeof a);                                                              \
    }                                                                                            \
    static void NAME##_show(char *buf, size_t len, const void *v)                               \
    {                                                                                            \
        CT a;                                                                                    \
        memcpy(&a, v, sizeof a);                                                                 \
        snprintf(buf, len, FMT, a);                                                              \
    }

/* SUM and PROD through unsigned arithmetic: wrapping, never undefined */
DEFINE_INT_TYPE(int, int, MPI_INT, "%d", unsigned)
DEFINE_INT_TYPE(uchar, unsigned char, MPI_UNSIGNED_CHAR, "%u", unsigned)
DEFINE_INT_TYPE(short, short, MPI_SHORT, "%d", unsigned)
DEFINE_INT_TYPE(uint, unsigned, MPI_UNSIGNED, "%u", unsigned)
DEFINE_INT_TYPE(ll, long long, MPI_LONG_LONG, "%lld", unsigned long long)

static MPI_Datatype dbl_type(void) { return MPI_DOUBLE; }
static void dbl_make(void *dst, int o, int t, int i, int op)
{
    uint64_t x = h(o, t, i, op);
    static const double prod[5] = {1.0, 2.0, 1.5, -1.0, 0.5};
    double v;
    switch (op) {
    case O_SUM: v = ((double)(x % 201) - 100.0) * 0.25; break;
    case O_PROD: v = prod[x % 5]; break;
    default: v = (double)(int32_t)(uint32_t)x * 0.125; break;
    }
    memcpy(dst, &v, sizeof v);
}
static void dbl_apply(void *accp, const void *inp, int op)
{
    double a, b;
    memcpy(&a, accp, sizeof a);
    memcpy(&b, inp, sizeof b);
    switch (op) {
    case O_SUM: a = a + b; break;
    case O_PROD: a = a * b; break;
    case O_MAX: a = a > b ? a : b; break;
    case O_MIN: a = a < b ? a : b; break;
    default: a = b; break;
    }
    memcpy(accp, &a, sizeof a);
}
static void dbl_show(char *buf, size_t len, const void *v)
{
    double a;
    memcpy(&a, v, sizeof a);
    snprintf(buf, len, "%.17g", a);
}

#define TD(NAME, CT, F) {#NAME, sizeof(CT), F, NAME##_type, NAME##_make, NAME##_apply, NAME##_show}
static const tdesc_t types[] = {
    TD(int, int, 0), TD(uchar, unsigned char, 0), TD(short, short, 0), TD(uint, unsigned, 0),
    TD(ll, long long, 0), TD(dbl, double, 1),
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static int op_valid(const tdesc_t *t, int op)
{
    return !t->is_float || op == O_SUM || op == O_PROD || op == O_MAX || op == O_MIN ||
           op == O_REPLACE;
}

/* ---- window layout -------------------------------------------------------------- */

static size_t wtop;

static size_t take(size_t bytes)
{
    size_t off = wtop;
    wtop = rma_round_up(wtop + bytes, 16);
    return off;
}

struct {
    size_t matrix[16][NOPS];      /* [type][op], N elements */
    size_t loc[2][2];             /* [2int, double_int][maxloc, minloc], N pairs */
    size_t vec_acc, vec_src, vec_gacc;  /* 2N ints each */
    size_t chain;                 /* 4 long long */
    size_t fop_int, fop_ll, fop_dbl, fop_rep;
    size_t cas_int, cas_ll;
    size_t order;                 /* np slots of 4 long long */
    size_t racc;                  /* np slots of 4 int */
    size_t cnt_fop, cnt_acc, cnt_mix;    /* long long counters (rank 0) */
    size_t spin_lock, spin_count;        /* int (rank 0) */
} L;

static void layout(void)
{
    wtop = 0;
    for (int t = 0; t < NTYPES; t++)
        for (int op = 0; op < NOPS; op++)
            L.matrix[t][op] = take(N * types[t].size);
    for (int k = 0; k < 2; k++)
        for (int m = 0; m < 2; m++)
            L.loc[k][m] = take(N * 16);
    L.vec_acc = take(2 * N * sizeof(int));
    L.vec_src = take(2 * N * sizeof(int));
    L.vec_gacc = take(2 * N * sizeof(int));
    L.chain = take(4 * sizeof(long long));
    L.fop_int = take(sizeof(int));
    L.fop_ll = take(sizeof(long long));
    L.fop_dbl = take(sizeof(double));
    L.fop_rep = take(sizeof(int));
    L.cas_int = take(sizeof(int));
    L.cas_ll = take(sizeof(long long));
    L.order = take((size_t)np * 4 * sizeof(long long));
    L.racc = take((size_t)np * 4 * sizeof(int));
    L.cnt_fop = take(sizeof(long long));
    L.cnt_acc = take(sizeof(long long));
    L.cnt_mix = take(sizeof(long long));
    L.spin_lock = take(sizeof(int));
    L.spin_count = take(sizeof(int));
    wsize = wtop + 64;
}

/* Passive-target safe local access to my own window. */
static void self_lock(void)
{
    MTEST_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
}

static void self_unlock(void)
{
    MTEST_RC(MPI_Win_unlock(me, win));
}

/* ---- the op matrix ------------------------------------------------------------------ */

typedef struct {
    int v, i;
} int2_t;
typedef struct {
    double v;
    int i;
} dblint_t;

static void loc_value(int k, int o, int t, int e, int m, void *dst)
{
    /* few distinct values, so that ties happen; the index is the origin
     * (or 100 + t for the initial value) */
    uint64_t x = h(o, t, e, 100 + 2 * k + m);
    int v = (int)(x % 4), idx = o < 0 ? 100 + t : o;
    if (k == 0) {
        int2_t p = {v, idx};
        memcpy(dst, &p, sizeof p);
    } else {
        dblint_t p;
        memset(&p, 0, sizeof p);
        p.v = v * 0.5;
        p.i = idx;
        memcpy(dst, &p, sizeof p);
    }
}

static void loc_apply(int k, int m, void *acc, const void *in)
{
    double av, bv;
    int ai, bi;
    if (k == 0) {
        int2_t a, b;
        memcpy(&a, acc, sizeof a);
        memcpy(&b, in, sizeof b);
        av = a.v, bv = b.v, ai = a.i, bi = b.i;
    } else {
        dblint_t a, b;
        memcpy(&a, acc, sizeof a);
        memcpy(&b, in, sizeof b);
        av = a.v, bv = b.v, ai = a.i, bi = b.i;
    }
    int take_b = m == 0 ? (bv > av || (bv == av && bi < ai)) : (bv < av || (bv == av && bi < ai));
    if (take_b)
        memcpy(acc, in, k == 0 ? sizeof(int2_t) : sizeof(dblint_t));
}

static size_t loc_size(int k)
{
    return k == 0 ? sizeof(int2_t) : sizeof(dblint_t);
}

static MPI_Datatype loc_type(int k)
{
    return k == 0 ? MPI_2INT : MPI_DOUBLE_INT;
}

static void matrix_init(void)
{
    for (int ti = 0; ti < NTYPES; ti++)
        for (int op = 0; op < NOPS; op++)
            for (int i = 0; i < N; i++)
                types[ti].make(base + L.matrix[ti][op] + i * types[ti].size, -1, me, i, op);
    for (int k = 0; k < 2; k++)
        for (int m = 0; m < 2; m++)
            for (int i = 0; i < N; i++)
                loc_value(k, -1, me, i, m, base + L.loc[k][m] + i * loc_size(k));
    int *va = (int *)(base + L.vec_acc), *vs = (int *)(base + L.vec_src),
        *vg = (int *)(base + L.vec_gacc);
    for (int i = 0; i < 2 * N; i++) {
        va[i] = 1000 * me + i;
        vs[i] = -1000 * me - i;
        vg[i] = 7 * i;
    }
}

/* The origin buffers of one pass: per target, per (type, op). */
typedef struct {
    unsigned char *buf;      /* [target][type][op][N * 8] */
    unsigned char *loc;      /* [target][k][m][N * 16] */
    int *vec;                /* [target][2N] */
    int *gres;               /* [target][2N] Get_accumulate results */
} srcs_t;

static unsigned char *src_at(srcs_t *s, int t, int ti, int op)
{
    return s->buf + (((size_t)t * NTYPES + (size_t)ti) * NOPS + (size_t)op) * N * 8;
}

static void srcs_make(srcs_t *s)
{
    s->buf = mtest_malloc((size_t)np * NTYPES * NOPS * N * 8);
    s->loc = mtest_malloc((size_t)np * 4 * N * 16);
    s->vec = mtest_malloc((size_t)np * 2 * N * sizeof(int));
    s->gres = mtest_malloc((size_t)np * 2 * N * sizeof(int));
    for (int t = 0; t < np; t++) {
        for (int ti = 0; ti < NTYPES; ti++)
            for (int op = 0; op < NOPS; op++)
                for (int i = 0; i < N; i++)
                    types[ti].make(src_at(s, t, ti, op) + i * types[ti].size, me, t, i, op);
        for (int k = 0; k < 2; k++)
            for (int m = 0; m < 2; m++)
                for (int i = 0; i < N; i++)
                    loc_value(k, me, t, i, m,
                              s->loc + ((size_t)t * 4 + 2 * k + m) * N * 16 + i * loc_size(k));
        for (int i = 0; i < 2 * N; i++) {
            s->vec[t * 2 * N + i] = (me + 1) * 10 + i;
            s->gres[t * 2 * N + i] = -99;
        }
    }
}

static void srcs_free(srcs_t *s)
{
    free(s->buf);
    free(s->loc);
    free(s->vec);
    free(s->gres);
}

/* Every accumulate of the matrix from this rank to t. */
static void matrix_ops(srcs_t *s, int t, MPI_Datatype vec2)
{
    for (int ti = 0; ti < NTYPES; ti++)
        for (int op = 0; op < NOPS; op++) {
            if (!op_valid(&types[ti], op))
                continue;
            MTEST_RC(MPI_Accumulate(src_at(s, t, ti, op), N, types[ti].type(), t,
                                    (MPI_Aint)L.matrix[ti][op], N, types[ti].type(),
                                    op_handle(op), win));
        }
    for (int k = 0; k < 2; k++)
        for (int m = 0; m < 2; m++)
            MTEST_RC(MPI_Accumulate(s->loc + ((size_t)t * 4 + 2 * k + m) * N * 16, N, loc_type(k), t,
                                    (MPI_Aint)L.loc[k][m], N, loc_type(k),
                                    m == 0 ? MPI_MAXLOC : MPI_MINLOC, win));
    /* vector of int as the target type: every other int of 2N */
    MTEST_RC(MPI_Accumulate(s->vec + t * 2 * N, N, MPI_INT, t, (MPI_Aint)L.vec_acc, 1, vec2,
                            MPI_SUM, win));
    /* as the origin type, into a contiguous target */
    MTEST_RC(MPI_Accumulate(s->vec + t * 2 * N, 1, vec2, t, (MPI_Aint)L.vec_src + 4 * N, N,
                            MPI_INT, MPI_SUM, win));
    /* Get_accumulate into the vector target: a BXOR of distinct bits */
    MTEST_RC(MPI_Get_accumulate(s->vec + t * 2 * N, N, MPI_INT, s->gres + t * 2 * N, N, MPI_INT, t,
                                (MPI_Aint)L.vec_gacc, 1, vec2, MPI_BXOR, win));
    /* MPI_PROC_NULL: nothing happens */
    MTEST_RC(MPI_Accumulate(s->vec, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, MPI_SUM, win));
}

static void matrix_check(const char *pass)
{
    char a[64], b[64];
    unsigned char acc[16], in[16];
    for (int ti = 0; ti < NTYPES; ti++) {
        const tdesc_t *T = &types[ti];
        for (int op = 0; op < NOPS; op++) {
            if (!op_valid(T, op))
                continue;
            /* MPICH 4.0 compares unsigned types as signed in MAX and MIN */
            if (MTEST_MPICH_DEVIATION && (op == O_MAX || op == O_MIN) &&
                (T->type() == MPI_UNSIGNED_CHAR || T->type() == MPI_UNSIGNED))
                continue;
            int bad = 0;
            for (int i = 0; i < N && bad < 2; i++) {
                const unsigned char *got = base + L.matrix[ti][op] + i * T->size;
                if (op == O_REPLACE) {
                    int found = 0;
                    for (int o = 0; o < np && !found; o++) {
                        T->make(in, o, me, i, op);
                        found = memcmp(in, got, T->size) == 0;
                    }
                    if (!found) {
                        T->show(a, sizeof a, got);
                        mtest_fail("%s: Accumulate REPLACE %s element %d: %s is no origin's value",
                                   pass, T->name, i, a);
                        bad++;
                    }
                    continue;
                }
                T->make(acc, -1, me, i, op);
                for (int o = 0; o < np; o++) {
                    T->make(in, o, me, i, op);
                    T->apply(acc, in, op);
                }
                if (memcmp(acc, got, T->size) != 0) {
                    T->show(a, sizeof a, got);
                    T->show(b, sizeof b, acc);
                    mtest_fail("%s: Accumulate %s on %s, element %d at rank %d: %s, expected %s",
                               pass, op_names[op], T->name, i, me, a, b);
                    bad++;
                }
            }
        }
    }
    for (int k = 0; k < 2; k++)
        for (int m = 0; m < 2; m++)
            for (int i = 0; i < N; i++) {
                unsigned char e[16], x[16];
                memset(e, 0, sizeof e);
                loc_value(k, -1, me, i, m, e);
                for (int o = 0; o < np; o++) {
                    memset(x, 0, sizeof x);
                    loc_value(k, o, me, i, m, x);
                    loc_apply(k, m, e, x);
                }
                const unsigned char *got = base + L.loc[k][m] + i * loc_size(k);
                int gi, ei;
                double gv, ev;
                if (k == 0) {
                    int2_t g, w;
                    memcpy(&g, got, sizeof g);
                    memcpy(&w, e, sizeof w);
                    gv = g.v, gi = g.i, ev = w.v, ei = w.i;
                } else {
                    dblint_t g, w;
                    memcpy(&g, got, sizeof g);
                    memcpy(&w, e, sizeof w);
                    gv = g.v, gi = g.i, ev = w.v, ei = w.i;
                }
                MTEST_CHECK(gv == ev && gi == ei, "%s: %s on %s element %d: (%g, %d), expected "
                            "(%g, %d)", pass, m == 0 ? "MAXLOC" : "MINLOC",
                            k == 0 ? "MPI_2INT" : "MPI_DOUBLE_INT", i, gv, gi, ev, ei);
            }
    /* vector targets */
    const int *va = (const int *)(base + L.vec_acc), *vs = (const int *)(base + L.vec_src),
              *vg = (const int *)(base + L.vec_gacc);
    for (int i = 0; i < 2 * N; i++) {
        int want = 1000 * me + i;
        if (i % 2 == 0)
            for (int o = 0; o < np; o++)
                want += (o + 1) * 10 + i / 2;
        MTEST_CHECK(va[i] == want, "%s: Accumulate into a vector target, int %d: %d, expected %d%s",
                    pass, i, va[i], want, i % 2 ? " (a gap)" : "");
        want = -1000 * me - i;
        if (i >= N)
            for (int o = 0; o < np; o++)
                want += (o + 1) * 10 + 2 * (i - N);
        MTEST_CHECK(vs[i] == want, "%s: Accumulate from a vector origin, int %d: %d, expected %d",
                    pass, i, vs[i], want);
        want = 7 * i;
        if (i % 2 == 0)
            for (int o = 0; o < np; o++)
                want ^= (o + 1) * 10 + i / 2;
        MTEST_CHECK(vg[i] == want, "%s: Get_accumulate BXOR into a vector target, int %d: %d, "
                    "expected %d", pass, i, vg[i], want);
    }
}

/* The Get_accumulate results: each is the initial value XOR the values of
 * some origins; here only its form is checked (the vector gaps are not
 * fetched: the result buffer is contiguous). */
static void gres_check(srcs_t *s, const char *pass)
{
    for (int t = 0; t < np; t++)
        for (int i = 0; i < N; i++) {
            int v = s->gres[t * 2 * N + i];
            /* initial 7 * 2i XOR a subset of {(o+1)*10 + i}: try all subsets
             * only for small np */
            if (np > 10)
                continue;
            int ok = 0;
            for (int mask = 0; mask < (1 << np) && !ok; mask++) {
                if (mask & (1 << me))
                    continue;       /* my own value is not in what I fetched */
                int x = 7 * 2 * i;
                for (int o = 0; o < np; o++)
                    if (mask & (1 << o))
                        x ^= (o + 1) * 10 + i;
                ok = x == v;
            }
            MTEST_CHECK(ok, "%s: Get_accumulate from rank %d element %d fetched %d: not the initial "
                        "value combined with other origins' values", pass, t, i, v);
        }
}

static void test_matrix(void)
{
    MPI_Datatype vec2;
    MPI_Type_vector(N, 1, 2, MPI_INT, &vec2);
    MPI_Type_commit(&vec2);
    for (int pass = 0; pass < 3; pass++) {
        static const char *const names[3] = {"fence", "lock_all", "lock shared per target"};
        srcs_t s;
        srcs_make(&s);
        self_lock();
        matrix_init();
        self_unlock();
        MPI_Barrier(MPI_COMM_WORLD);
        if (pass == 0) {
            MTEST_RC(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
            for (int k = 0; k < np; k++)
                matrix_ops(&s, (me + k) % np, vec2);
            MTEST_RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
        } else if (pass == 1) {
            MTEST_RC(MPI_Win_lock_all(0, win));
            for (int k = 0; k < np; k++)
                matrix_ops(&s, (me + k) % np, vec2);
            MTEST_RC(MPI_Win_unlock_all(win));
        } else {
            for (int k = 0; k < np; k++) {
                int t = (me + k) % np;
                MTEST_RC(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
                matrix_ops(&s, t, vec2);
                MTEST_RC(MPI_Win_unlock(t, win));
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        self_lock();
        matrix_check(names[pass]);
        self_unlock();
        gres_check(&s, names[pass]);
        MPI_Barrier(MPI_COMM_WORLD);
        srcs_free(&s);
    }
    MPI_Type_free(&vec2);
}

/* ---- fetching operations -------------------------------------------------------------- */

#define TAG_FETCH 301

/* Sends this rank's fetched values to their targets and receives the ones
 * fetched from this rank: in[o * k + j] = value j that origin o fetched. */
static void exchange(const void *out, void *in, int k, MPI_Datatype type)
{
    int sz;
    MPI_Type_size(type, &sz);
    for (int d = 0; d < np; d++) {
        int to = (me + d) % np, from = (me - d + np) % np;
        MTEST_RC(MPI_Sendrecv((const char *)out + (size_t)to * k * sz, k, type, to, TAG_FETCH,
                              (char *)in + (size_t)from * k * sz, k, type, from, TAG_FETCH,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
}

static int popcount(long long x)
{
    return __builtin_popcountll((unsigned long long)x);
}

static void test_fetch(void)
{
    const long long chain_init = 1LL << 40;
    const int fint_init = 500, rep_init = -7;
    const double fdbl_init = 0.25;
    const int cint_init = 11;
    const long long cll_init = 1LL << 50;
    self_lock();
    long long *chain = (long long *)(base + L.chain);
    for (int i = 0; i < 4; i++)
        chain[i] = chain_init + i;
    *(int *)(base + L.fop_int) = fint_init;
    *(long long *)(base + L.fop_ll) = chain_init;
    *(double *)(base + L.fop_dbl) = fdbl_init;
    *(int *)(base + L.fop_rep) = rep_init;
    *(int *)(base + L.cas_int) = cint_init;
    *(long long *)(base + L.cas_ll) = cll_init;
    self_unlock();
    MPI_Barrier(MPI_COMM_WORLD);

    /* per target: 4 chain values, fop int, fop ll, fop double, fop replace,
     * cas int, cas ll */
    long long *gchain = mtest_malloc(sizeof(long long) * 4 * (size_t)np);
    int *gint = mtest_malloc(sizeof(int) * 4 * (size_t)np);      /* fop, rep, cas, - */
    long long *gll = mtest_malloc(sizeof(long long) * 2 * (size_t)np);   /* fop, cas */
    double *gdbl = mtest_malloc(sizeof(double) * (size_t)np);
    long long mybits[4];
    for (int i = 0; i < 4; i++)
        mybits[i] = 1LL << me;
    int one = 1, myrep = 1000 + me, cmp = cint_init, swp = 2000 + me;
    long long oneb = 1LL << me, cmpll = cll_init, swpll = (1LL << 51) + me;
    double dinc = 0.5 * (me + 1);
    MTEST_RC(MPI_Win_lock_all(0, win));
    for (int k = 0; k < np; k++) {
        int t = (me + k) % np;
        MTEST_RC(MPI_Get_accumulate(mybits, 4, MPI_LONG_LONG, gchain + 4 * t, 4, MPI_LONG_LONG, t,
                                    (MPI_Aint)L.chain, 4, MPI_LONG_LONG, MPI_SUM, win));
        MTEST_RC(MPI_Fetch_and_op(&one, gint + 4 * t, MPI_INT, t, (MPI_Aint)L.fop_int, MPI_SUM, win));
        MTEST_RC(MPI_Fetch_and_op(&oneb, gll + 2 * t, MPI_LONG_LONG, t, (MPI_Aint)L.fop_ll, MPI_SUM,
                                  win));
        MTEST_RC(MPI_Fetch_and_op(&dinc, gdbl + t, MPI_DOUBLE, t, (MPI_Aint)L.fop_dbl, MPI_SUM, win));
        MTEST_RC(MPI_Fetch_and_op(&myrep, gint + 4 * t + 1, MPI_INT, t, (MPI_Aint)L.fop_rep,
                                  MPI_REPLACE, win));
        MTEST_RC(MPI_Compare_and_swap(&swp, &cmp, gint + 4 * t + 2, MPI_INT, t, (MPI_Aint)L.cas_int,
                                      win));
        MTEST_RC(MPI_Compare_and_swap(&swpll, &cmpll, gll + 2 * t + 1, MPI_LONG_LONG, t,
                                      (MPI_Aint)L.cas_ll, win));
        gint[4 * t + 3] = 0;
    }
    /* MPI_PROC_NULL */
    long long dummy = -5;
    MTEST_RC(MPI_Fetch_and_op(&oneb, &dummy, MPI_LONG_LONG, MPI_PROC_NULL, 0, MPI_SUM, win));
    MTEST_RC(MPI_Compare_and_swap(&swpll, &cmpll, &dummy, MPI_LONG_LONG, MPI_PROC_NULL, 0, win));
    MTEST_RC(MPI_Win_unlock_all(win));
    MTEST_CHECK(dummy == -5, "Fetch_and_op / Compare_and_swap with MPI_PROC_NULL wrote %lld", dummy);
    MPI_Barrier(MPI_COMM_WORLD);

    /* the final values, read with NO_OP by every rank */
    long long fin_chain[4], fin_ll;
    int fin_int;
    MTEST_RC(MPI_Win_lock_all(0, win));
    int t0 = (me + 1) % np;
    MTEST_RC(MPI_Get_accumulate(NULL, 0, MPI_LONG_LONG, fin_chain, 4, MPI_LONG_LONG, t0,
                                (MPI_Aint)L.chain, 4, MPI_LONG_LONG, MPI_NO_OP, win));
    MTEST_RC(MPI_Fetch_and_op(NULL, &fin_ll, MPI_LONG_LONG, t0, (MPI_Aint)L.fop_ll, MPI_NO_OP, win));
    MTEST_RC(MPI_Fetch_and_op(NULL, &fin_int, MPI_INT, t0, (MPI_Aint)L.fop_int, MPI_NO_OP, win));
    MTEST_RC(MPI_Win_unlock_all(win));
    long long all = (np >= 63) ? -1 : (1LL << np) - 1;
    for (int i = 0; i < 4; i++)
        MTEST_CHECK(fin_chain[i] == chain_init + i + all, "Get_accumulate NO_OP of element %d at rank "
                    "%d: %lld, expected %lld", i, t0, fin_chain[i], chain_init + i + all);
    MTEST_CHECK(fin_ll == chain_init + all, "Fetch_and_op NO_OP (long long) at rank %d: %lld, "
                "expected %lld", t0, fin_ll, chain_init + all);
    MTEST_CHECK(fin_int == fint_init + np, "Fetch_and_op NO_OP (int) at rank %d: %d, expected %d",
                t0, fin_int, fint_init + np);

    /* what the origins fetched from me */
    long long *ichain = mtest_malloc(sizeof(long long) * 4 * (size_t)np);
    int *iint = mtest_malloc(sizeof(int) * 4 * (size_t)np);
    long long *ill = mtest_malloc(sizeof(long long) * 2 * (size_t)np);
    double *idbl = mtest_malloc(sizeof(double) * (size_t)np);
    exchange(gchain, ichain, 4, MPI_LONG_LONG);
    exchange(gint, iint, 4, MPI_INT);
    exchange(gll, ill, 2, MPI_LONG_LONG);
    exchange(gdbl, idbl, 1, MPI_DOUBLE);

    /* chains: the origin that fetched j bits fetched exactly the bits of
     * the origins that fetched fewer */
    for (int i = 0; i < 4; i++) {
        int *by_pop = mtest_malloc(sizeof(int) * (size_t)np);
        for (int j = 0; j < np; j++)
            by_pop[j] = -1;
        int ok = 1;
        for (int o = 0; o < np; o++) {
            long long bits = ichain[4 * o + i] - chain_init - i;
            int pc = popcount(bits);
            if (bits < 0 || bits > all || (bits & (1LL << o)) || pc >= np || by_pop[pc] != -1) {
                mtest_fail("Get_accumulate SUM at rank %d element %d: origin %d fetched bits 0x%llx",
                           me, i, o, bits);
                ok = 0;
                break;
            }
            by_pop[pc] = o;
        }
        long long before = 0;
        for (int j = 0; ok && j < np; j++) {
            int o = by_pop[j];
            long long bits = ichain[4 * o + i] - chain_init - i;
            if (!MTEST_CHECK(bits == before, "Get_accumulate SUM at rank %d element %d: origin %d "
                             "fetched 0x%llx, but the origins with fewer bits give 0x%llx", me, i,
                             o, bits, before))
                break;
            before |= 1LL << o;
        }
        long long v = ((long long *)(base + L.chain))[i];
        MTEST_CHECK(v == chain_init + i + all, "Get_accumulate SUM at rank %d element %d: final "
                    "%lld", me, i, v);
        free(by_pop);
    }
    /* Fetch_and_op SUM int: fint_init + 0..np-1 once each */
    char *seen = mtest_malloc((size_t)np + 1);
    memset(seen, 0, (size_t)np + 1);
    for (int o = 0; o < np; o++) {
        int v = iint[4 * o] - fint_init;
        if (MTEST_CHECK(v >= 0 && v < np && !seen[v], "Fetch_and_op SUM (int) at rank %d: origin %d "
                        "fetched %d", me, o, iint[4 * o]))
            seen[v] = 1;
    }
    /* long long: a chain of bits as above, weaker check: own bit absent,
     * popcounts distinct */
    memset(seen, 0, (size_t)np + 1);
    for (int o = 0; o < np; o++) {
        long long bits = ill[2 * o] - chain_init;
        int pc = popcount(bits);
        if (MTEST_CHECK(bits >= 0 && !(bits & (1LL << o)) && pc < np && !seen[pc],
                        "Fetch_and_op SUM (long long) at rank %d: origin %d fetched bits 0x%llx",
                        me, o, bits))
            seen[pc] = 1;
    }
    /* double: the fetched values are fdbl_init plus sums of 0.5 (o + 1) of
     * distinct subsets; their sum over origins and the final value */
    double fin = *(double *)(base + L.fop_dbl), want = fdbl_init;
    for (int o = 0; o < np; o++)
        want += 0.5 * (o + 1);
    MTEST_CHECK(fin == want, "Fetch_and_op SUM (double) at rank %d: final %g, expected %g", me, fin,
                want);
    for (int o = 0; o < np; o++)
        MTEST_CHECK(idbl[o] >= fdbl_init && idbl[o] <= want - 0.5 * (o + 1),
                    "Fetch_and_op SUM (double) at rank %d: origin %d fetched %g", me, o, idbl[o]);
    /* REPLACE: the fetched values and the final one are the initial value
     * and the origins' values, each once */
    {
        int fv = *(int *)(base + L.fop_rep);
        char *used = mtest_malloc((size_t)np + 1);
        memset(used, 0, (size_t)np + 1);
        for (int o = 0; o <= np; o++) {
            int v = o < np ? iint[4 * o + 1] : fv;
            int slot = v == rep_init ? np : v - 1000;
            if (MTEST_CHECK(slot >= 0 && slot <= np && !used[slot], "Fetch_and_op REPLACE at rank "
                            "%d: value %d %s", me, v, o < np ? "fetched" : "left in the window"))
                used[slot] = 1;
            if (o < np)
                MTEST_CHECK(v != 1000 + o, "Fetch_and_op REPLACE at rank %d: origin %d fetched its "
                            "own value", me, o);
        }
        free(used);
    }
    /* CAS: exactly one origin saw the initial value and swapped; the
     * others saw its value */
    {
        int winner = -1, fv = *(int *)(base + L.cas_int);
        for (int o = 0; o < np; o++)
            if (iint[4 * o + 2] == cint_init) {
                MTEST_CHECK(winner < 0, "Compare_and_swap (int) at rank %d: origins %d and %d both "
                            "swapped", me, winner, o);
                winner = o;
            }
        if (MTEST_CHECK(winner >= 0, "Compare_and_swap (int) at rank %d: nobody swapped", me)) {
            MTEST_CHECK(fv == 2000 + winner, "Compare_and_swap (int) at rank %d: final %d, winner "
                        "%d", me, fv, winner);
            for (int o = 0; o < np; o++)
                if (o != winner)
                    MTEST_CHECK(iint[4 * o + 2] == 2000 + winner, "Compare_and_swap (int) at rank "
                                "%d: origin %d fetched %d, expected %d", me, o, iint[4 * o + 2],
                                2000 + winner);
        }
        winner = -1;
        long long fl = *(long long *)(base + L.cas_ll);
        for (int o = 0; o < np; o++)
            if (ill[2 * o + 1] == cll_init) {
                MTEST_CHECK(winner < 0, "Compare_and_swap (long long) at rank %d: origins %d and %d "
                            "both swapped", me, winner, o);
                winner = o;
            }
        if (MTEST_CHECK(winner >= 0, "Compare_and_swap (long long) at rank %d: nobody swapped", me)) {
            MTEST_CHECK(fl == (1LL << 51) + winner, "Compare_and_swap (long long) at rank %d: final "
                        "%lld", me, fl);
            for (int o = 0; o < np; o++)
                if (o != winner)
                    MTEST_CHECK(ill[2 * o + 1] == (1LL << 51) + winner, "Compare_and_swap (long "
                                "long) at rank %d: origin %d fetched %lld", me, o, ill[2 * o + 1]);
        }
    }
    /* a failing compare leaves the value */
    MPI_Barrier(MPI_COMM_WORLD);
    {
        int t = (me + 1) % np, res = -1, c2 = -12345, s2 = 77;
        MTEST_RC(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        MTEST_RC(MPI_Compare_and_swap(&s2, &c2, &res, MPI_INT, t, (MPI_Aint)L.cas_int, win));
        MTEST_RC(MPI_Win_unlock(t, win));
        MTEST_CHECK(res >= 2000 && res < 2000 + np, "Compare_and_swap with a compare value that "
                    "does not match: fetched %d", res);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(seen);
    free(gchain);
    free(gint);
    free(gll);
    free(gdbl);
    free(ichain);
    free(iint);
    free(ill);
    free(idbl);
}

/* ---- atomicity ------------------------------------------------------------------------- */

#define TAG_ATOM 302

static void test_atomicity(int nops)
{
    long long *cnt = (long long *)(base + L.cnt_fop), *acc = (long long *)(base + L.cnt_acc),
              *mix = (long long *)(base + L.cnt_mix);
    if (me == 0) {
        self_lock();
        *cnt = *acc = *mix = 0;
        self_unlock();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    long long *got = mtest_malloc(sizeof(long long) * (size_t)nops);
    long long one = 1;
    MTEST_RC(MPI_Win_lock_all(0, win));
    /* the first half one at a time, the rest in batches of up to 8 */
    int i = 0;
    for (; i < nops / 2; i++) {
        MTEST_RC(MPI_Fetch_and_op(&one, &got[i], MPI_LONG_LONG, 0, (MPI_Aint)L.cnt_fop, MPI_SUM, win));
        MTEST_RC(MPI_Win_flush(0, win));
    }
    while (i < nops) {
        int b = 1 + (i % 8);
        for (int j = 0; j < b && i < nops; j++, i++)
            MTEST_RC(MPI_Fetch_and_op(&one, &got[i], MPI_LONG_LONG, 0, (MPI_Aint)L.cnt_fop, MPI_SUM,
                                      win));
        MTEST_RC(b % 2 ? MPI_Win_flush(0, win) : MPI_Win_flush_local(0, win));
    }
    for (i = 0; i < nops; i++) {
        MTEST_RC(MPI_Accumulate(&one, 1, MPI_LONG_LONG, 0, (MPI_Aint)L.cnt_acc, 1, MPI_LONG_LONG,
                                MPI_SUM, win));
        if (i % 512 == 511)
            MTEST_RC(MPI_Win_flush(0, win));
    }
    /* half the ranks with each, on one counter */
    long long dummy;
    for (i = 0; i < nops / 4; i++) {
        if (me % 2)
            MTEST_RC(MPI_Accumulate(&one, 1, MPI_LONG_LONG, 0, (MPI_Aint)L.cnt_mix, 1, MPI_LONG_LONG,
                                    MPI_SUM, win));
        else
            MTEST_RC(MPI_Fetch_and_op(&one, &dummy, MPI_LONG_LONG, 0, (MPI_Aint)L.cnt_mix, MPI_SUM,
                                      win));
        if (i % 64 == 63 || me % 2 == 0)
            MTEST_RC(MPI_Win_flush(0, win));
    }
    MTEST_RC(MPI_Win_unlock_all(win));
    for (i = 1; i < nops; i++)
        if (!MTEST_CHECK(got[i] > got[i - 1], "Fetch_and_op counter: my fetch %d got %lld after "
                         "%lld (one origin's operations on one location are ordered)", i, got[i],
                         got[i - 1]))
            break;
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        long long total = (long long)np * nops;
        self_lock();
        MTEST_CHECK(*cnt == total, "Fetch_and_op counter: %lld, expected %lld", *cnt, total);
        MTEST_CHECK(*acc == total, "Accumulate counter: %lld, expected %lld", *acc, total);
        MTEST_CHECK(*mix == (long long)np * (nops / 4), "Accumulate + Fetch_and_op counter: %lld, "
                    "expected %lld", *mix, (long long)np * (nops / 4));
        self_unlock();
        char *seen = mtest_malloc((size_t)total);
        memset(seen, 0, (size_t)total);
        long long *in = mtest_malloc(sizeof(long long) * (size_t)nops);
        int dup = 0;
        for (int o = 0; o < np; o++) {
            if (o == 0)
                memcpy(in, got, sizeof(long long) * (size_t)nops);
            else
                MTEST_RC(MPI_Recv(in, nops, MPI_LONG_LONG, o, TAG_ATOM, MPI_COMM_WORLD,
                                  MPI_STATUS_IGNORE));
            for (i = 0; i < nops; i++) {
                if (in[i] < 0 || in[i] >= total || seen[in[i]]) {
                    if (dup++ < 3)
                        mtest_fail("Fetch_and_op counter: rank %d fetched %lld (out of range or "
                                   "seen before)", o, in[i]);
                } else {
                    seen[in[i]] = 1;
                }
            }
        }
        MTEST_CHECK(dup == 0, "Fetch_and_op counter: %d values fetched twice or out of range", dup);
        free(seen);
        free(in);
    } else {
        MTEST_RC(MPI_Send(got, nops, MPI_LONG_LONG, 0, TAG_ATOM, MPI_COMM_WORLD));
    }
    free(got);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A spin lock: Compare_and_swap 0 -> me + 1 until it succeeds. */
static void test_spinlock(int rounds)
{
    int *lockw = (int *)(base + L.spin_lock), *count = (int *)(base + L.spin_count);
    if (me == 0) {
        self_lock();
        *lockw = 0;
        *count = 0;
        self_unlock();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int mine = me + 1, zero = 0, res, v, who;
    long spins = 0;
    MTEST_RC(MPI_Win_lock_all(0, win));
    for (int k = 0; k < rounds; k++) {
        do {
            MTEST_RC(MPI_Compare_and_swap(&mine, &zero, &res, MPI_INT, 0, (MPI_Aint)L.spin_lock, win));
            MTEST_RC(MPI_Win_flush(0, win));
            if (res != 0 && ++spins % 64 == 0)
                mtest_sleep_ms(0);
        } while (res != 0);
        MTEST_RC(MPI_Fetch_and_op(NULL, &who, MPI_INT, 0, (MPI_Aint)L.spin_lock, MPI_NO_OP, win));
        MTEST_RC(MPI_Get(&v, 1, MPI_INT, 0, (MPI_Aint)L.spin_count, 1, MPI_INT, win));
        MTEST_RC(MPI_Win_flush(0, win));
        MTEST_CHECK(who == mine, "spin lock round %d: the lock word says %d while I (%d) hold it", k,
                    who, mine);
        v++;
        MTEST_RC(MPI_Put(&v, 1, MPI_INT, 0, (MPI_Aint)L.spin_count, 1, MPI_INT, win));
        MTEST_RC(MPI_Win_flush(0, win));
        MTEST_RC(MPI_Compare_and_swap(&zero, &mine, &res, MPI_INT, 0, (MPI_Aint)L.spin_lock, win));
        MTEST_RC(MPI_Win_flush(0, win));
        MTEST_CHECK(res == mine, "spin lock round %d: releasing found %d, not my %d", k, res, mine);
    }
    MTEST_RC(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        self_lock();
        MTEST_CHECK(*count == np * rounds, "counter guarded by the spin lock: %d, expected %d",
                    *count, np * rounds);
        MTEST_CHECK(*lockw == 0, "spin lock word left at %d", *lockw);
        self_unlock();
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- ordering, request-based ------------------------------------------------------------ */

static void test_ordering(void)
{
    long long *slots = (long long *)(base + L.order);
    self_lock();
    for (int i = 0; i < np * 4; i++)
        slots[i] = -1;
    self_unlock();
    MPI_Barrier(MPI_COMM_WORLD);
    for (int lockall = 0; lockall < 2; lockall++) {
        if (lockall)
            MTEST_RC(MPI_Win_lock_all(0, win));
        for (int k = 0; k < np; k++) {
            int t = (me + k) % np;
            MPI_Aint d = (MPI_Aint)(L.order + (size_t)me * 4 * sizeof(long long));
            long long a[4], b[4], c[4], r1[4], r2 = -1;
            for (int i = 0; i < 4; i++) {
                a[i] = 1000000LL * (me + 1) + 1000 * t + i + 100 * lockall;
                b[i] = 7 * i + 3;
                c[i] = 11;
            }
            if (!lockall)
                MTEST_RC(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
            MTEST_RC(MPI_Accumulate(a, 4, MPI_LONG_LONG, t, d, 4, MPI_LONG_LONG, MPI_REPLACE, win));
            MTEST_RC(MPI_Accumulate(b, 4, MPI_LONG_LONG, t, d, 4, MPI_LONG_LONG, MPI_SUM, win));
            MTEST_RC(MPI_Get_accumulate(c, 4, MPI_LONG_LONG, r1, 4, MPI_LONG_LONG, t, d, 4,
                                        MPI_LONG_LONG, MPI_SUM, win));
            MTEST_RC(MPI_Fetch_and_op(NULL, &r2, MPI_LONG_LONG, t, d + 3 * (MPI_Aint)sizeof(long long),
                                      MPI_NO_OP, win));
            if (lockall)
                MTEST_RC(MPI_Win_flush(t, win));
            else
                MTEST_RC(MPI_Win_unlock(t, win));
            for (int i = 0; i < 4; i++)
                MTEST_CHECK(r1[i] == a[i] + b[i], "ordering (%s) at rank %d element %d: "
                            "Get_accumulate after REPLACE %lld and SUM %lld fetched %lld",
                            lockall ? "lock_all" : "lock", t, i, a[i], b[i], r1[i]);
            MTEST_CHECK(r2 == a[3] + b[3] + c[3], "ordering (%s) at rank %d: Fetch_and_op NO_OP "
                        "last fetched %lld, expected %lld", lockall ? "lock_all" : "lock", t, r2,
                        a[3] + b[3] + c[3]);
        }
        if (lockall)
            MTEST_RC(MPI_Win_unlock_all(win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    self_lock();
    for (int o = 0; o < np; o++)
        for (int i = 0; i < 4; i++) {
            long long want = 1000000LL * (o + 1) + 1000 * me + i + 100 + 7 * i + 3 + 11;
            MTEST_CHECK(slots[o * 4 + i] == want, "ordering: rank %d's slot %d at rank %d holds "
                        "%lld, expected %lld", o, i, me, slots[o * 4 + i], want);
        }
    self_unlock();
    MPI_Barrier(MPI_COMM_WORLD);
}

static void test_requests(void)
{
    int *slots = (int *)(base + L.racc);
    self_lock();
    for (int i = 0; i < np * 4; i++)
        slots[i] = 5 * i;
    self_unlock();
    MPI_Barrier(MPI_COMM_WORLD);
    int *src = mtest_malloc(sizeof(int) * 4 * (size_t)np), *res = mtest_malloc(sizeof(int) * 4 * (size_t)np);
    MPI_Request *rq = mtest_malloc(sizeof(MPI_Request) * 2 * (size_t)np);
    MTEST_RC(MPI_Win_lock_all(0, win));
    for (int k = 0; k < np; k++) {
        int t = (me + k) % np;
        for (int i = 0; i < 4; i++)
            src[4 * t + i] = 100 * (me + 1) + i;
        MTEST_RC(MPI_Raccumulate(src + 4 * t, 4, MPI_INT, t, (MPI_Aint)(L.racc + (size_t)me * 16), 4,
                                 MPI_INT, MPI_SUM, win, &rq[k]));
    }
    /* local completion: the origin buffers may be reused at once */
    if (me % 2)
        MTEST_RC(MPI_Waitall(np, rq, MPI_STATUSES_IGNORE));
    else
        for (int k = 0; k < np; k++) {
            int flag = 0;
            while (!flag)
                MTEST_RC(MPI_Test(&rq[k], &flag, MPI_STATUS_IGNORE));
        }
    memset(src, 0x7f, sizeof(int) * 4 * (size_t)np);
    for (int k = 0; k < np; k++) {
        int t = (me + k) % np;
        for (int i = 0; i < 4; i++)
            src[4 * t + i] = 1;
        MTEST_RC(MPI_Rget_accumulate(src + 4 * t, 4, MPI_INT, res + 4 * t, 4, MPI_INT, t,
                                     (MPI_Aint)(L.racc + (size_t)me * 16), 4, MPI_INT, MPI_SUM, win,
                                     &rq[np + k]));
    }
    MTEST_RC(MPI_Waitall(np, rq + np, MPI_STATUSES_IGNORE));
    for (int t = 0; t < np; t++)
        for (int i = 0; i < 4; i++) {
            int want = 5 * (me * 4 + i) + 100 * (me + 1) + i;
            MTEST_CHECK(res[4 * t + i] == want, "Rget_accumulate from rank %d element %d: %d when "
                        "its request completed, expected %d", t, i, res[4 * t + i], want);
        }
    MTEST_RC(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    self_lock();
    for (int o = 0; o < np; o++)
        for (int i = 0; i < 4; i++) {
            int want = 5 * (o * 4 + i) + 100 * (o + 1) + i + 1;
            MTEST_CHECK(slots[o * 4 + i] == want, "Raccumulate + Rget_accumulate: rank %d's slot %d "
                        "at rank %d holds %d, expected %d", o, i, me, slots[o * 4 + i], want);
        }
    self_unlock();
    MPI_Barrier(MPI_COMM_WORLD);
    free(src);
    free(res);
    free(rq);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    me = mtest_rank;
    np = mtest_size;
    int nops = np <= 4 ? 10000 : 2000;
    if (argc > 1)
        nops = atoi(argv[1]);
    layout();
    MTEST_RC(MPI_Win_allocate((MPI_Aint)wsize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    self_lock();
    memset(base, 0, wsize);
    self_unlock();
    MPI_Barrier(MPI_COMM_WORLD);
    test_matrix();
    test_fetch();
    test_ordering();
    test_requests();
    test_atomicity(nops);
    test_spinlock(np <= 4 ? 100 : 25);
    MTEST_RC(MPI_Win_free(&win));
    return mtest_finalize();
}
