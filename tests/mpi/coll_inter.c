/*
 * coll_inter: collectives on intercommunicators (the two-group forms of
 * MPI-4.1 chapter 6). MPI_COMM_WORLD is cut in two groups of unequal sizes
 * where possible (rank % 3 == 0 against the others; the lower half against
 * the upper half) and on each intercommunicator, blocking and nonblocking:
 *   - Barrier;
 *   - Bcast, Gather(v), Scatter(v), Reduce with every rank of each group as
 *     the root (MPI_ROOT, MPI_PROC_NULL at the root's group, the root's
 *     rank at the other): data only between the groups, and the buffers of
 *     the MPI_PROC_NULL ranks and of non-root receive sides untouched;
 *   - Allgather(v), Alltoall(v)(w): the remote group's blocks, v forms
 *     with uneven and empty blocks, reversed with holes between them;
 *   - Allreduce, Reduce_scatter_block, Reduce_scatter: the reduction of
 *     the OTHER group's data, in rank order (a non-commutative user op);
 *   - counts 0, 1, 1000 and 17000 (above 64 KiB), MPI_INT and a vector
 *     with gaps (gaps untouched), every byte of every receive buffer checked
 *     against an image computed from rank numbers;
 *   - error classes: Scan/Exscan (MPI_ERR_COMM), MPI_IN_PLACE
 *     (MPI_ERR_BUFFER), a root out of range (MPI_ERR_ROOT).
 */
#include "mtest.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON ((int)0x5a5a5a5a)
static const int counts[] = {0, 1, 1000, 17000};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

static int wrank, wsize;
static MPI_Datatype vec;           /* 2 ints 2 apart: extent 3 ints, a gap in the middle */
static MPI_Op affine;              /* non-commutative */

/* This process on one intercommunicator. */
typedef struct side {
    const char *cut;
    MPI_Comm inter;
    int side, me, lsize, rsize;    /* own group, own rank in it, sizes */
} side_t;

/* Datatype modes: elements of MPI_INT or of vec. */
enum { T_INT, T_VEC, NTYPES };
static MPI_Datatype type_of(int t) { return t == T_INT ? MPI_INT : vec; }
static size_t per(int t) { return t == T_INT ? 1 : 2; }     /* data ints per element */
static size_t ext(int t) { return t == T_INT ? 1 : 3; }     /* ints per extent */
static size_t dpos(int t, size_t d) { return t == T_INT ? d : d / 2 * 3 + d % 2 * 2; }

/* Data of the block `blk` sent by rank r of group g, int d. */
static int val(int g, int r, int blk, size_t d)
{
    return (int)(((uint32_t)(g * 100 + r) * 7919u + (uint32_t)blk * 104729u) * 31u + (uint32_t)d);
}

/* Reductions: element d of rank r of group g is an affine map x -> a x + b
 * mod 2^16 (a odd), encoded as a << 16 | b; the op composes them. */
static int xval(int g, int r, size_t d)
{
    uint32_t a = (2u * (uint32_t)(g * 16 + r + (int)(d % 5)) + 1u) & 0xffffu;
    uint32_t b = ((uint32_t)(g * 100 + r * 7) + (uint32_t)d) & 0xffffu;
    return (int)(a << 16 | b);
}
static int compose(int u, int v)    /* u applied after v */
{
    uint32_t ua = (uint32_t)u >> 16, ub = (uint32_t)u & 0xffff, va = (uint32_t)v >> 16, vb = (uint32_t)v & 0xffff;
    return (int)(((ua * va) & 0xffffu) << 16 | ((ua * vb + ub) & 0xffffu));
}
static void affine_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *a = in, *b = inout;
    size_t n = (size_t)*len * (*dt == vec ? 2 : 1);
    for (size_t d = 0; d < n; d++) {
        size_t i = *dt == vec ? dpos(T_VEC, d) : d;
        b[i] = compose(a[i], b[i]);        /* in holds the lower ranks */
    }
}
/* The reduction of group g's n ranks, element d. */
static int fold(int g, int n, size_t d)
{
    int acc = xval(g, 0, d);
    for (int r = 1; r < n; r++)
        acc = compose(acc, xval(g, r, d));
    return acc;
}

static int *ints(size_t n)
{
    int *p = mtest_malloc((n ? n : 1) * sizeof(int));
    for (size_t i = 0; i < n; i++)
        p[i] = POISON;
    return p;
}

/* n elements of type t at buf: block data of (g, r, blk), from int d0 on. */
static void put(int *buf, int t, size_t n, int g, int r, int blk)
{
    for (size_t d = 0; d < n * per(t); d++)
        buf[dpos(t, d)] = val(g, r, blk, d);
}
static void put_fold(int *buf, int t, size_t n, int g, int nr, size_t d0)
{
    for (size_t d = 0; d < n * per(t); d++)
        buf[dpos(t, d)] = fold(g, nr, d0 + d);
}
static void put_x(int *buf, int t, size_t n, int g, int r)
{
    for (size_t d = 0; d < n * per(t); d++)
        buf[dpos(t, d)] = xval(g, r, d);
}

/* Every int of got against the image. */
static void compare(const int *got, const int *want, size_t n, const side_t *s, const char *call, int root,
                    int count, int t)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            mtest_fail("%s on %s, root %d, count %d of %s: group %d rank %d: int %zu is 0x%x, expected 0x%x", call,
                       s->cut, root, count, t == T_INT ? "MPI_INT" : "vector", s->side, s->me, i, (unsigned)got[i],
                       (unsigned)want[i]);
            return;
        }
}

/* "MPI_Bcast" or "MPI_Ibcast" from "bcast". */
static void call_name(char *buf, size_t len, int nb, const char *lower)
{
    snprintf(buf, len, "MPI_%s%c%s", nb ? "I" : "", nb ? lower[0] : lower[0] - 'a' + 'A', lower + 1);
}

/* Blocking or nonblocking form of one call. */
#define RUN(nb, bcall, icall)                                    \
    do {                                                         \
        if (nb) {                                                \
            MPI_Request q_;                                      \
            if (MTEST_RC(icall))                                 \
                MTEST_RC(MPI_Wait(&q_, MPI_STATUS_IGNORE));      \
        } else {                                                 \
            MTEST_RC(bcall);                                     \
        }                                                        \
    } while (0)

/* v-form layout of q blocks, block j holding cnt[j] elements: in reverse
 * order with a hole of one element (plus `shift`) before each. Returns the
 * extent in elements. */
static int vlayout(int q, const int *cnt, int *displs, int shift)
{
    int off = 0;
    for (int j = q - 1; j >= 0; j--) {
        off += 1 + shift;
        displs[j] = off;
        off += cnt[j];
    }
    return off + 1;
}
static int vcount(int from, int to, int n) { return (from + 2 * to) % 3 * n; }

/* ---- rooted ---- */

static void rooted(const side_t *s, int rg, int rr, int n, int t, int nb)
{
    MPI_Comm c = s->inter;
    MPI_Datatype dt = type_of(t);
    bool in_root_group = s->side == rg, am_root = in_root_group && s->me == rr;
    int root = in_root_group ? (am_root ? MPI_ROOT : MPI_PROC_NULL) : rr;
    int q = s->rsize;
    size_t e = ext(t);
    char name[32];

    /* Bcast */
    {
        int *buf = ints((size_t)n * e), *want = ints((size_t)n * e);
        if (am_root) {
            put(buf, t, (size_t)n, rg, rr, 0);
            put(want, t, (size_t)n, rg, rr, 0);
        } else if (!in_root_group) {
            put(want, t, (size_t)n, rg, rr, 0);
        }
        RUN(nb, MPI_Bcast(buf, n, dt, root, c), MPI_Ibcast(buf, n, dt, root, c, &q_));
        call_name(name, sizeof name, nb, "bcast");
        compare(buf, want, (size_t)n * e, s, name, rr, n, t);
        free(buf);
        free(want);
    }
    /* Gather: the root gets remote rank j's block j */
    {
        size_t rn = am_root ? (size_t)q * n * e : 1;
        int *sb = ints((size_t)n * e), *rb = ints(rn), *want = ints(rn);
        put(sb, t, (size_t)n, s->side, s->me, 0);
        for (int j = 0; am_root && j < q; j++)
            put(want + (size_t)j * n * e, t, (size_t)n, 1 - rg, j, 0);
        RUN(nb, MPI_Gather(sb, n, dt, rb, n, dt, root, c), MPI_Igather(sb, n, dt, rb, n, dt, root, c, &q_));
        call_name(name, sizeof name, nb, "gather");
        compare(rb, want, rn, s, name, rr, n, t);
        free(sb), free(rb), free(want);
    }
    /* Scatter: remote rank j gets the root's block j */
    {
        size_t sn = am_root ? (size_t)q * n * e : 1;
        int *sb = ints(sn), *rb = ints((size_t)n * e), *want = ints((size_t)n * e);
        for (int j = 0; am_root && j < q; j++)
            put(sb + (size_t)j * n * e, t, (size_t)n, rg, rr, j);
        if (!in_root_group)
            put(want, t, (size_t)n, rg, rr, s->me);
        RUN(nb, MPI_Scatter(sb, n, dt, rb, n, dt, root, c), MPI_Iscatter(sb, n, dt, rb, n, dt, root, c, &q_));
        call_name(name, sizeof name, nb, "scatter");
        compare(rb, want, (size_t)n * e, s, name, rr, n, t);
        free(sb), free(rb), free(want);
    }
    /* Gatherv / Scatterv: remote rank j's block has vcount(j, 0, n) elements */
    {
        int *cnt = mtest_malloc((size_t)q * sizeof(int)), *displs = mtest_malloc((size_t)q * sizeof(int));
        for (int j = 0; j < q; j++)
            cnt[j] = vcount(j, 0, n);
        size_t tot = (size_t)vlayout(q, cnt, displs, 0) * e, mine = (size_t)vcount(s->me, 0, n);
        size_t rn = am_root ? tot : 1;
        int *sb = ints(mine * e), *rb = ints(rn), *want = ints(rn);
        put(sb, t, mine, s->side, s->me, 0);
        for (int j = 0; am_root && j < q; j++)
            put(want + (size_t)displs[j] * e, t, (size_t)cnt[j], 1 - rg, j, 0);
        RUN(nb, MPI_Gatherv(sb, (int)mine, dt, rb, cnt, displs, dt, root, c),
            MPI_Igatherv(sb, (int)mine, dt, rb, cnt, displs, dt, root, c, &q_));
        call_name(name, sizeof name, nb, "gatherv");
        compare(rb, want, rn, s, name, rr, n, t);
        free(sb), free(rb), free(want);

        sb = ints(rn);
        rb = ints(mine * e);
        want = ints(mine * e);
        for (int j = 0; am_root && j < q; j++)
            put(sb + (size_t)displs[j] * e, t, (size_t)cnt[j], rg, rr, j);
        if (!in_root_group)
            put(want, t, mine, rg, rr, s->me);
        RUN(nb, MPI_Scatterv(sb, cnt, displs, dt, rb, (int)mine, dt, root, c),
            MPI_Iscatterv(sb, cnt, displs, dt, rb, (int)mine, dt, root, c, &q_));
        call_name(name, sizeof name, nb, "scatterv");
        compare(rb, want, mine * e, s, name, rr, n, t);
        free(sb), free(rb), free(want), free(cnt), free(displs);
    }
    /* Reduce: the root gets the reduction of the remote group */
    {
        int *sb = ints((size_t)n * e), *rb = ints((size_t)n * e), *want = ints((size_t)n * e);
        put_x(sb, t, (size_t)n, s->side, s->me);
        if (am_root)
            put_fold(want, t, (size_t)n, 1 - rg, q, 0);
        if (root == MPI_PROC_NULL && t % 2)   /* arguments that count for nothing (mpi4py's) */
            RUN(nb, MPI_Reduce(NULL, NULL, 0, MPI_BYTE, MPI_SUM, root, c),
                MPI_Ireduce(NULL, NULL, 0, MPI_BYTE, MPI_SUM, root, c, &q_));
        else
            RUN(nb, MPI_Reduce(sb, rb, n, dt, affine, root, c), MPI_Ireduce(sb, rb, n, dt, affine, root, c, &q_));
        call_name(name, sizeof name, nb, "reduce");
        compare(rb, want, (size_t)n * e, s, name, rr, n, t);
        free(sb), free(rb), free(want);
    }
}

/* ---- everyone ---- */

static void all(const side_t *s, int n, int t, int nb)
{
    MPI_Comm c = s->inter;
    MPI_Datatype dt = type_of(t);
    int q = s->rsize, g = s->side, rg = 1 - g, me = s->me;
    size_t e = ext(t);
    char name[40];

    RUN(nb, MPI_Barrier(c), MPI_Ibarrier(c, &q_));
    /* Allgather */
    {
        int *sb = ints((size_t)n * e), *rb = ints((size_t)q * n * e), *want = ints((size_t)q * n * e);
        put(sb, t, (size_t)n, g, me, 0);
        for (int j = 0; j < q; j++)
            put(want + (size_t)j * n * e, t, (size_t)n, rg, j, 0);
        RUN(nb, MPI_Allgather(sb, n, dt, rb, n, dt, c), MPI_Iallgather(sb, n, dt, rb, n, dt, c, &q_));
        call_name(name, sizeof name, nb, "allgather");
        compare(rb, want, (size_t)q * n * e, s, name, -1, n, t);
        free(sb), free(rb), free(want);
    }
    /* Allgatherv: each rank with its own holes */
    {
        int *cnt = mtest_malloc((size_t)q * sizeof(int)), *displs = mtest_malloc((size_t)q * sizeof(int));
        for (int j = 0; j < q; j++)
            cnt[j] = vcount(j, 0, n);
        size_t tot = (size_t)vlayout(q, cnt, displs, me % 2) * e, mine = (size_t)vcount(me, 0, n);
        int *sb = ints(mine * e), *rb = ints(tot), *want = ints(tot);
        put(sb, t, mine, g, me, 0);
        for (int j = 0; j < q; j++)
            put(want + (size_t)displs[j] * e, t, (size_t)cnt[j], rg, j, 0);
        RUN(nb, MPI_Allgatherv(sb, (int)mine, dt, rb, cnt, displs, dt, c),
            MPI_Iallgatherv(sb, (int)mine, dt, rb, cnt, displs, dt, c, &q_));
        call_name(name, sizeof name, nb, "allgatherv");
        compare(rb, want, tot, s, name, -1, n, t);
        free(sb), free(rb), free(want), free(cnt), free(displs);
    }
    /* Alltoall: block j goes to remote rank j */
    {
        size_t tot = (size_t)q * n * e;
        int *sb = ints(tot), *rb = ints(tot), *want = ints(tot);
        for (int j = 0; j < q; j++) {
            put(sb + (size_t)j * n * e, t, (size_t)n, g, me, j);
            put(want + (size_t)j * n * e, t, (size_t)n, rg, j, me);
        }
        RUN(nb, MPI_Alltoall(sb, n, dt, rb, n, dt, c), MPI_Ialltoall(sb, n, dt, rb, n, dt, c, &q_));
        call_name(name, sizeof name, nb, "alltoall");
        compare(rb, want, tot, s, name, -1, n, t);
        free(sb), free(rb), free(want);
    }
    /* Alltoallv and Alltoallw: vcount(sender, receiver, n) elements */
    for (int w = 0; w < 2; w++) {
        int *sc = mtest_malloc((size_t)q * sizeof(int)), *sd = mtest_malloc((size_t)q * sizeof(int));
        int *rc = mtest_malloc((size_t)q * sizeof(int)), *rd = mtest_malloc((size_t)q * sizeof(int));
        MPI_Datatype *types = mtest_malloc((size_t)q * sizeof(MPI_Datatype));
        for (int j = 0; j < q; j++) {
            sc[j] = vcount(me, j, n);
            rc[j] = vcount(j, me, n);
            types[j] = dt;
        }
        size_t stot = (size_t)vlayout(q, sc, sd, 0) * e, rtot = (size_t)vlayout(q, rc, rd, 1) * e;
        int *sb = ints(stot), *rb = ints(rtot), *want = ints(rtot);
        for (int j = 0; j < q; j++) {
            put(sb + (size_t)sd[j] * e, t, (size_t)sc[j], g, me, j);
            put(want + (size_t)rd[j] * e, t, (size_t)rc[j], rg, j, me);
        }
        if (!w) {
            RUN(nb, MPI_Alltoallv(sb, sc, sd, dt, rb, rc, rd, dt, c),
                MPI_Ialltoallv(sb, sc, sd, dt, rb, rc, rd, dt, c, &q_));
        } else {
            for (int j = 0; j < q; j++) {          /* byte displacements */
                sd[j] *= (int)(e * sizeof(int));
                rd[j] *= (int)(e * sizeof(int));
            }
            RUN(nb, MPI_Alltoallw(sb, sc, sd, types, rb, rc, rd, types, c),
                MPI_Ialltoallw(sb, sc, sd, types, rb, rc, rd, types, c, &q_));
        }
        call_name(name, sizeof name, nb, w ? "alltoallw" : "alltoallv");
        compare(rb, want, rtot, s, name, -1, n, t);
        free(sb), free(rb), free(want), free(sc), free(sd), free(rc), free(rd), free(types);
    }
    /* Allreduce: the reduction of the other group */
    {
        int *sb = ints((size_t)n * e), *rb = ints((size_t)n * e), *want = ints((size_t)n * e);
        put_x(sb, t, (size_t)n, g, me);
        put_fold(want, t, (size_t)n, rg, q, 0);
        RUN(nb, MPI_Allreduce(sb, rb, n, dt, affine, c), MPI_Iallreduce(sb, rb, n, dt, affine, c, &q_));
        call_name(name, sizeof name, nb, "allreduce");
        compare(rb, want, (size_t)n * e, s, name, -1, n, t);
        free(sb), free(rb), free(want);
    }
    /* Reduce_scatter_block: vectors of k * lsize * rsize elements, this
     * group's blocks k * rsize each */
    {
        int k = n > 100 ? n / 100 : n;
        size_t tot = (size_t)k * s->lsize * q, blk = (size_t)k * q;
        int *sb = ints(tot * e), *rb = ints(blk * e), *want = ints(blk * e);
        put_x(sb, t, tot, g, me);
        put_fold(want, t, blk, rg, q, (size_t)me * blk * per(t));
        RUN(nb, MPI_Reduce_scatter_block(sb, rb, (int)blk, dt, affine, c),
            MPI_Ireduce_scatter_block(sb, rb, (int)blk, dt, affine, c, &q_));
        call_name(name, sizeof name, nb, "reduce_scatter_block");
        compare(rb, want, blk * e, s, name, -1, k, t);
        free(sb), free(rb), free(want);
    }
    /* Reduce_scatter: 16 n elements on both sides, this group's uneven
     * recvcounts (some empty) */
    {
        int *rc = mtest_malloc((size_t)s->lsize * sizeof(int)), sum = 0, before = 0;
        for (int j = 0; j < s->lsize - 1; j++)
            sum += rc[j] = j % 3 * n;
        rc[s->lsize - 1] = 16 * n - sum;
        for (int j = 0; j < me; j++)
            before += rc[j];
        size_t tot = (size_t)16 * n, mine = (size_t)rc[me];
        int *sb = ints(tot * e), *rb = ints(mine * e), *want = ints(mine * e);
        put_x(sb, t, tot, g, me);
        put_fold(want, t, mine, rg, q, (size_t)before * per(t));
        RUN(nb, MPI_Reduce_scatter(sb, rb, rc, dt, affine, c), MPI_Ireduce_scatter(sb, rb, rc, dt, affine, c, &q_));
        call_name(name, sizeof name, nb, "reduce_scatter");
        compare(rb, want, mine * e, s, name, -1, n, t);
        free(sb), free(rb), free(want), free(rc);
    }
}

static void errors(const side_t *s)
{
    MPI_Comm c = s->inter;
    int a[4] = {1, 2, 3, 4}, b[4] = {0};
    MPI_Request q;
    mtest_check_class(MPI_Scan(a, b, 1, MPI_INT, MPI_SUM, c), MPI_ERR_COMM, "MPI_Scan on %s", s->cut);
    mtest_check_class(MPI_Exscan(a, b, 1, MPI_INT, MPI_SUM, c), MPI_ERR_COMM, "MPI_Exscan on %s", s->cut);
    mtest_check_class(MPI_Iscan(a, b, 1, MPI_INT, MPI_SUM, c, &q), MPI_ERR_COMM, "MPI_Iscan on %s", s->cut);
    mtest_check_class(MPI_Iexscan(a, b, 1, MPI_INT, MPI_SUM, c, &q), MPI_ERR_COMM, "MPI_Iexscan on %s", s->cut);
    mtest_check_class(MPI_Allreduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, c), MPI_ERR_BUFFER,
                      "MPI_Allreduce MPI_IN_PLACE on %s", s->cut);
    mtest_check_class(MPI_Reduce_scatter_block(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, c), MPI_ERR_BUFFER,
                      "MPI_Reduce_scatter_block MPI_IN_PLACE on %s", s->cut);
    mtest_check_class(MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_BUFFER,
                      "MPI_Allgather MPI_IN_PLACE on %s", s->cut);
    mtest_check_class(MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_BUFFER,
                      "MPI_Alltoall MPI_IN_PLACE on %s", s->cut);
    mtest_check_class(MPI_Bcast(a, 1, MPI_INT, s->rsize, c), MPI_ERR_ROOT, "MPI_Bcast root %d on %s", s->rsize,
                      s->cut);
    mtest_check_class(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, -7, c), MPI_ERR_ROOT, "MPI_Reduce root -7 on %s",
                      s->cut);
}

/* One cut: groups by side_of, leaders their lowest world ranks. */
static void run_cut(const char *cut, int (*side_of)(int))
{
    int lead[2] = {-1, -1};
    for (int r = wsize - 1; r >= 0; r--)
        lead[side_of(r)] = r;
    if (lead[0] < 0 || lead[1] < 0)
        return;
    side_t s = {.cut = cut, .side = side_of(wrank)};
    MPI_Comm local;
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, s.side, wrank, &local));
    MTEST_RC(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, lead[1 - s.side], 5, &s.inter));
    MPI_Comm_set_errhandler(s.inter, MPI_ERRORS_RETURN);
    MPI_Comm_rank(s.inter, &s.me);
    MPI_Comm_size(s.inter, &s.lsize);
    MPI_Comm_remote_size(s.inter, &s.rsize);
    errors(&s);
    for (int nb = 0; nb < 2; nb++)
        for (int t = 0; t < NTYPES; t++)
            for (int k = 0; k < NCOUNTS; k++) {
                int n = counts[k];
                all(&s, n, t, nb);
                for (int rg = 0; rg < 2; rg++)
                    for (int rr = 0; rr < (rg == s.side ? s.lsize : s.rsize); rr++)
                        rooted(&s, rg, rr, n, t, nb);
            }
    MTEST_RC(MPI_Comm_free(&s.inter));
    MTEST_RC(MPI_Comm_free(&local));
}

static int by_three(int r) { return r % 3 != 0; }
static int by_half(int r) { return r >= wsize / 2; }

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Op_create(affine_fn, 0, &affine);
    run_cut("rank % 3 == 0 | the others", by_three);
    run_cut("lower half | upper half", by_half);
    MPI_Op_free(&affine);
    MPI_Type_free(&vec);
    return mtest_finalize();
}
