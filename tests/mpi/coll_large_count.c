/*
 * coll_large_count - the large-count (_c) forms of every collective:
 * blocking, nonblocking and persistent (MPI_Bcast_c, MPI_Ibcast_c,
 * MPI_Bcast_init_c, ... MPI_Alltoallw_init_c), with MPI_Count counts and
 * MPI_Aint displacements, on MPI_COMM_WORLD and (two or more processes) on
 * an intercommunicator of the two halves, at ordinary sizes; every element
 * checked against values computed here, receive buffers poisoned first.
 * The persistent requests are started several times with new data. Bad
 * arguments (negative counts, NULL arrays, an invalid info) give the right
 * error classes.
 *
 * argv[1] = "large": instead, counts beyond INT_MAX: MPI_Bcast_c,
 * MPI_Ibcast_c and MPI_Bcast_init_c (started twice) of 2^31 + 19 bytes
 * from rank 0, checked byte for byte at every rank (about 2 GiB of memory
 * per process: run it with 2 processes, rarely).
 */
#include "mtest.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 5                         /* elements per block */
#define MAXB 64                     /* blocks at most (processes) */
#define POISON (-7)
#define FORMS 3                     /* blocking, nonblocking, persistent */

enum { INIT, FILL, RUN, CHECK };

/* One persistent collective on one communicator and its buffers. */
typedef struct tc {
    const char *name;
    MPI_Comm comm;
    bool inter;
    int me, lsize, nb;              /* rank, local size, blocks (remote size on an intercommunicator) */
    int group;                      /* 0 or 1: which half (intercommunicator), 0 otherwise */
    int *s, *r;                     /* send and receive buffers */
    MPI_Count cnt[MAXB], rcnt[MAXB], scnt[MAXB];
    MPI_Aint dsp[MAXB], rdsp[MAXB], sdsp[MAXB];
    int form;                       /* 0 blocking, 1 nonblocking, 2 persistent */
    MPI_Datatype st[MAXB], rt[MAXB];
    MPI_Request req;
    void (*fn)(struct tc *, int phase, int it);
} tc_t;

/* Who sent a value: a process of group g, rank j there. */
static int id_of(int g, int j) { return g * MAXB + j; }

static const char *const form_name[FORMS] = {"blocking", "nonblocking", "persistent"};

/* Runs the collective in the form of t: X_c, IX_c and a wait, or (created
 * at the first run) X_init_c, then start and wait. */
#define FORMS_RUN(t, X, x, ...)                                                                  \
    do {                                                                                         \
        if ((t)->form == 0) {                                                                    \
            MTEST_RC(MPI_##X##_c(__VA_ARGS__));                                                  \
        } else if ((t)->form == 1) {                                                             \
            MTEST_RC(MPI_I##x##_c(__VA_ARGS__, &(t)->req));                                      \
            MTEST_RC(MPI_Wait(&(t)->req, MPI_STATUS_IGNORE));                                    \
        } else {                                                                                 \
            if ((t)->req == MPI_REQUEST_NULL)                                                    \
                MTEST_RC(MPI_##X##_init_c(__VA_ARGS__, MPI_INFO_NULL, &(t)->req));               \
            MTEST_RC(MPI_Start(&(t)->req));                                                      \
            MTEST_RC(MPI_Wait(&(t)->req, MPI_STATUS_IGNORE));                                    \
        }                                                                                        \
    } while (0)

/* Element i of the data sender `id` contributes at start `it`. */
static int val(int id, int it, int i) { return id * 100003 + it * 7919 + i * 31 + 1; }

/* The other side's process j. */
static int peer_id(const tc_t *t, int j) { return id_of(t->inter ? 1 - t->group : 0, j); }
static int my_id(const tc_t *t) { return id_of(t->group, t->me); }

/* Irregular block sizes (some zero) and backwards layout with gaps. */
static int vcount(int j, int k) { return (j * 3 + k) % 4; }
static int layout(const MPI_Count *cnt, MPI_Aint *dsp, int n)
{
    int at = 1;
    for (int j = n - 1; j >= 0; j--) {
        dsp[j] = at;
        at += (int)cnt[j] + 2;
    }
    return at;
}

static int *alloc_ints(size_t n)
{
    int *p = malloc((n ? n : 1) * sizeof *p);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = POISON;
    return p;
}

static void poison(int *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = POISON;
}

/* n elements at buf: element i is val(id, it, off + i). */
static int expect(const tc_t *t, const int *buf, MPI_Count n, int id, int it, MPI_Aint off, const char *what)
{
    for (int i = 0; i < n; i++)
        if (buf[i] != val(id, it, (int)off + i))
            return MTEST_CHECK(0, "%s (%s) on %s, start %d: %s element %d is %d, expected %d (from %d)", t->name,
                               form_name[t->form], t->inter ? "an intercommunicator" : "MPI_COMM_WORLD", it, what, i,
                               buf[i], val(id, it, (int)off + i), id);
    return 1;
}

static int expect_int(const tc_t *t, int got, int want, int it, const char *what)
{
    return MTEST_CHECK(got == want, "%s on %s, start %d: %s is %d, expected %d", t->name,
                       t->inter ? "an intercommunicator" : "MPI_COMM_WORLD", it, what, got, want);
}

/* Rooted calls: the root is the last rank (intra), or rank 0 of group 0. */
static int root_rank(const tc_t *t) { return t->inter ? 0 : t->lsize - 1; }
static int root_arg(const tc_t *t)
{
    if (!t->inter)
        return root_rank(t);
    if (t->group == 1)
        return 0;
    return t->me == 0 ? MPI_ROOT : MPI_PROC_NULL;
}
static bool at_root(const tc_t *t) { return t->inter ? t->group == 0 && t->me == 0 : t->me == root_rank(t); }
/* Sends in a rooted gather (receives in a scatter, ...): not the root's group on an intercommunicator. */
static bool contributes(const tc_t *t) { return t->inter ? t->group == 1 : true; }
static int root_id(const tc_t *t) { return id_of(0, root_rank(t)); }
/* The blocks of a rooted v call at the root: one per process of the other group (intra: of all). */
static int root_blocks(const tc_t *t) { return t->inter && t->group == 0 ? t->nb : t->lsize; }

/* ---- the collectives ------------------------------------------------------ */

static void c_bcast(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints(N);
    } else if (phase == RUN) {
        FORMS_RUN(t, Bcast, bcast, t->s, N, MPI_INT, root_arg(t), t->comm);
    } else if (phase == FILL) {
        for (int i = 0; i < N; i++)
            t->s[i] = at_root(t) ? val(root_id(t), it, i) : POISON;
    } else if (contributes(t) || !t->inter) {
        expect(t, t->s, N, root_id(t), it, 0, "the buffer");
    }
}

static void c_gather(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints(N);
        t->r = alloc_ints((size_t)N * t->nb);
    } else if (phase == RUN) {
        FORMS_RUN(t, Gather, gather, t->s, N, MPI_INT, t->r, N, MPI_INT, root_arg(t), t->comm);
    } else if (phase == FILL) {
        for (int i = 0; i < N; i++)
            t->s[i] = val(my_id(t), it, i);
        poison(t->r, (size_t)N * t->nb);
    } else if (at_root(t)) {
        for (int j = 0; j < t->nb; j++)
            expect(t, t->r + j * N, N, peer_id(t, j), it, 0, "a received block");
    }
}

static void c_gatherv(tc_t *t, int phase, int it)
{
    int mine = vcount(t->me, 0), total = 0;
    if (phase == INIT) {
        for (int j = 0; j < t->nb; j++)
            t->cnt[j] = vcount(j, 0);
        total = layout(t->cnt, t->dsp, t->nb);
        t->s = alloc_ints((size_t)mine + 1);
        t->r = alloc_ints((size_t)total);
        t->rcnt[0] = total;
    } else if (phase == RUN) {
        FORMS_RUN(t, Gatherv, gatherv, t->s, contributes(t) ? mine : 0, MPI_INT, t->r, t->cnt, t->dsp, MPI_INT,
                  root_arg(t), t->comm);
    } else if (phase == FILL) {
        for (int i = 0; i < mine; i++)
            t->s[i] = val(my_id(t), it, i);
        poison(t->r, (size_t)t->rcnt[0]);
    } else if (at_root(t)) {
        for (int j = 0; j < t->nb; j++) {
            expect(t, t->r + t->dsp[j], t->cnt[j], peer_id(t, j), it, 0, "a received block");
            expect_int(t, t->r[t->dsp[j] - 1], POISON, it, "the gap before a block");
        }
    }
}

static void c_scatter(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints((size_t)N * t->nb);
        t->r = alloc_ints(N);
    } else if (phase == RUN) {
        FORMS_RUN(t, Scatter, scatter, t->s, N, MPI_INT, t->r, N, MPI_INT, root_arg(t), t->comm);
    } else if (phase == FILL) {
        for (int i = 0; i < N * t->nb; i++)
            t->s[i] = at_root(t) ? val(root_id(t), it, i) : POISON;
        poison(t->r, N);
    } else if (contributes(t)) {
        expect(t, t->r, N, root_id(t), it, t->me * N, "the received block");
    }
}

static void c_scatterv(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        for (int j = 0; j < root_blocks(t); j++)
            t->cnt[j] = vcount(j, 1);
        t->rcnt[0] = layout(t->cnt, t->dsp, root_blocks(t));
        t->s = alloc_ints((size_t)t->rcnt[0]);
        t->r = alloc_ints(8);
    } else if (phase == RUN) {
        FORMS_RUN(t, Scatterv, scatterv, t->s, t->cnt, t->dsp, MPI_INT, t->r, contributes(t) ? vcount(t->me, 1) : 0,
                  MPI_INT, root_arg(t), t->comm);
    } else if (phase == FILL) {
        for (int i = 0; i < t->rcnt[0]; i++)
            t->s[i] = at_root(t) ? val(root_id(t), it, i) : POISON;
        poison(t->r, 8);
    } else if (contributes(t)) {
        int n = vcount(t->me, 1);
        expect(t, t->r, n, root_id(t), it, t->dsp[t->me], "the received block");
        expect_int(t, t->r[n], POISON, it, "the element after the block");
    }
}

static void c_allgather(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints(N);
        t->r = alloc_ints((size_t)N * t->nb);
    } else if (phase == RUN) {
        FORMS_RUN(t, Allgather, allgather, t->s, N, MPI_INT, t->r, N, MPI_INT, t->comm);
    } else if (phase == FILL) {
        for (int i = 0; i < N; i++)
            t->s[i] = val(my_id(t), it, i);
        poison(t->r, (size_t)N * t->nb);
    } else {
        for (int j = 0; j < t->nb; j++)
            expect(t, t->r + j * N, N, peer_id(t, j), it, 0, "a received block");
    }
}

static void c_allgatherv(tc_t *t, int phase, int it)
{
    int mine = vcount(t->me, 2);
    if (phase == INIT) {
        for (int j = 0; j < t->nb; j++)
            t->cnt[j] = vcount(j, 2);
        t->rcnt[0] = layout(t->cnt, t->dsp, t->nb);
        t->s = alloc_ints((size_t)mine + 1);
        t->r = alloc_ints((size_t)t->rcnt[0]);
    } else if (phase == RUN) {
        FORMS_RUN(t, Allgatherv, allgatherv, t->s, mine, MPI_INT, t->r, t->cnt, t->dsp, MPI_INT, t->comm);
    } else if (phase == FILL) {
        for (int i = 0; i < mine; i++)
            t->s[i] = val(my_id(t), it, i);
        poison(t->r, (size_t)t->rcnt[0]);
    } else {
        for (int j = 0; j < t->nb; j++) {
            expect(t, t->r + t->dsp[j], t->cnt[j], peer_id(t, j), it, 0, "a received block");
            expect_int(t, t->r[t->dsp[j] - 1], POISON, it, "the gap before a block");
        }
    }
}

static void c_alltoall(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints((size_t)N * t->nb);
        t->r = alloc_ints((size_t)N * t->nb);
    } else if (phase == RUN) {
        FORMS_RUN(t, Alltoall, alltoall, t->s, N, MPI_INT, t->r, N, MPI_INT, t->comm);
    } else if (phase == FILL) {
        for (int i = 0; i < N * t->nb; i++)
            t->s[i] = val(my_id(t), it, i);
        poison(t->r, (size_t)N * t->nb);
    } else {
        for (int j = 0; j < t->nb; j++)
            expect(t, t->r + j * N, N, peer_id(t, j), it, t->me * N, "a received block");
    }
}

/* alltoallv and alltoallw: peer j sends me vcount(j + me) elements from
 * its own layout; I send vcount(me + j) to j. The w form in bytes. */
static void a2av_layout(tc_t *t, bool bytes)
{
    int stot, rtot;
    for (int j = 0; j < t->nb; j++) {
        t->scnt[j] = vcount(t->me + j, 3);
        t->rcnt[j] = vcount(j + t->me, 3);
        t->st[j] = t->rt[j] = MPI_INT;
    }
    stot = layout(t->scnt, t->sdsp, t->nb);
    rtot = layout(t->rcnt, t->rdsp, t->nb);
    t->s = alloc_ints((size_t)stot);
    t->r = alloc_ints((size_t)rtot);
    t->cnt[0] = stot;
    t->cnt[1] = rtot;
    /* the peer's send displacement of my block, to know which values arrive */
    for (int j = 0; j < t->nb; j++) {
        int at = 1;
        for (int k = t->lsize - 1; k > t->me; k--)
            at += vcount(j + k, 3) + 2;
        t->dsp[j] = at;
    }
    if (bytes)
        for (int j = 0; j < t->nb; j++) {
            t->sdsp[j] *= (int)sizeof(int);
            t->rdsp[j] *= (int)sizeof(int);
        }
}

static void a2av_check(tc_t *t, int it, bool bytes)
{
    int unit = bytes ? (int)sizeof(int) : 1;
    for (int j = 0; j < t->nb; j++) {
        const int *blk = t->r + t->rdsp[j] / unit;
        expect(t, blk, t->rcnt[j], peer_id(t, j), it, t->dsp[j], "a received block");
        expect_int(t, blk[-1], POISON, it, "the gap before a block");
    }
}

static void c_alltoallv(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        a2av_layout(t, false);
    } else if (phase == RUN) {
        FORMS_RUN(t, Alltoallv, alltoallv, t->s, t->scnt, t->sdsp, MPI_INT, t->r, t->rcnt, t->rdsp, MPI_INT, t->comm);
    } else if (phase == FILL) {
        for (int i = 0; i < t->cnt[0]; i++)
            t->s[i] = val(my_id(t), it, i);
        poison(t->r, (size_t)t->cnt[1]);
    } else {
        a2av_check(t, it, false);
    }
}

static void c_alltoallw(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        a2av_layout(t, true);
    } else if (phase == RUN) {
        FORMS_RUN(t, Alltoallw, alltoallw, t->s, t->scnt, t->sdsp, t->st, t->r, t->rcnt, t->rdsp, t->rt, t->comm);
    } else if (phase == FILL) {
        for (int i = 0; i < t->cnt[0]; i++)
            t->s[i] = val(my_id(t), it, i);
        poison(t->r, (size_t)t->cnt[1]);
    } else {
        a2av_check(t, it, true);
    }
}

/* Sum over the processes [0, n) of group g of element i. */
static int sum_of(int g, int n, int it, int i)
{
    int s = 0;
    for (int j = 0; j < n; j++)
        s += val(id_of(g, j), it, i);
    return s;
}

static void check_sums(const tc_t *t, const int *buf, int n, int g, int ranks, int it, int off, const char *what)
{
    for (int i = 0; i < n; i++)
        if (!expect_int(t, buf[i], sum_of(g, ranks, it, off + i), it, what))
            return;
}

static void fill_mine(tc_t *t, int n, int it)
{
    for (int i = 0; i < n; i++)
        t->s[i] = val(my_id(t), it, i);
}

static void c_reduce(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints(N);
        t->r = alloc_ints(N);
    } else if (phase == RUN) {
        FORMS_RUN(t, Reduce, reduce, t->s, t->r, N, MPI_INT, MPI_SUM, root_arg(t), t->comm);
    } else if (phase == FILL) {
        fill_mine(t, N, it);
        poison(t->r, N);
    } else if (at_root(t)) {
        check_sums(t, t->r, N, t->inter ? 1 : 0, t->nb, it, 0, "the sum");
    }
}

static void c_allreduce(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints(N);
        t->r = alloc_ints(N);
    } else if (phase == RUN) {
        FORMS_RUN(t, Allreduce, allreduce, t->s, t->r, N, MPI_INT, MPI_SUM, t->comm);
    } else if (phase == FILL) {
        fill_mine(t, N, it);
        poison(t->r, N);
    } else {
        check_sums(t, t->r, N, t->inter ? 1 - t->group : 0, t->nb, it, 0, "the sum");
    }
}

static void c_reduce_scatter(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        int total = 0;
        for (int j = 0; j < t->lsize; j++)
            total += t->cnt[j] = vcount(j, 0) + 1;
        t->dsp[0] = 0;
        for (int j = 1; j < t->lsize; j++)
            t->dsp[j] = t->dsp[j - 1] + t->cnt[j - 1];
        t->rcnt[0] = total;
        t->s = alloc_ints((size_t)total);
        t->r = alloc_ints(8);
    } else if (phase == RUN) {
        FORMS_RUN(t, Reduce_scatter, reduce_scatter, t->s, t->r, t->cnt, MPI_INT, MPI_SUM, t->comm);
    } else if (phase == FILL) {
        fill_mine(t, t->rcnt[0], it);
        poison(t->r, 8);
    } else {
        check_sums(t, t->r, t->cnt[t->me], 0, t->lsize, it, t->dsp[t->me], "the sum");
        expect_int(t, t->r[t->cnt[t->me]], POISON, it, "the element after the block");
    }
}

static void c_reduce_scatter_block(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints((size_t)N * t->lsize);
        t->r = alloc_ints(N);
    } else if (phase == RUN) {
        FORMS_RUN(t, Reduce_scatter_block, reduce_scatter_block, t->s, t->r, N, MPI_INT, MPI_SUM, t->comm);
    } else if (phase == FILL) {
        fill_mine(t, N * t->lsize, it);
        poison(t->r, N);
    } else {
        check_sums(t, t->r, N, 0, t->lsize, it, t->me * N, "the sum");
    }
}

static void c_scan(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints(N);
        t->r = alloc_ints(N);
    } else if (phase == RUN) {
        FORMS_RUN(t, Scan, scan, t->s, t->r, N, MPI_INT, MPI_SUM, t->comm);
    } else if (phase == FILL) {
        fill_mine(t, N, it);
        poison(t->r, N);
    } else {
        check_sums(t, t->r, N, 0, t->me + 1, it, 0, "the prefix sum");
    }
}

static void c_exscan(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints(N);
        t->r = alloc_ints(N);
    } else if (phase == RUN) {
        FORMS_RUN(t, Exscan, exscan, t->s, t->r, N, MPI_INT, MPI_SUM, t->comm);
    } else if (phase == FILL) {
        fill_mine(t, N, it);
        poison(t->r, N);
    } else if (t->me > 0) {
        check_sums(t, t->r, N, 0, t->me, it, 0, "the prefix sum");
    }
}

/* ---- the driver ----------------------------------------------------------- */

typedef struct {
    const char *name;
    void (*fn)(tc_t *, int, int);
    bool inter;                     /* has an intercommunicator form tested here */
} coll_t;

static const coll_t colls[] = {
    {"MPI_Bcast_c", c_bcast, true},
    {"MPI_Gather_c", c_gather, true},
    {"MPI_Gatherv_c", c_gatherv, true},
    {"MPI_Scatter_c", c_scatter, true},
    {"MPI_Scatterv_c", c_scatterv, true},
    {"MPI_Allgather_c", c_allgather, true},
    {"MPI_Allgatherv_c", c_allgatherv, true},
    {"MPI_Alltoall_c", c_alltoall, true},
    {"MPI_Alltoallv_c", c_alltoallv, true},
    {"MPI_Alltoallw_c", c_alltoallw, true},
    {"MPI_Reduce_c", c_reduce, true},
    {"MPI_Allreduce_c", c_allreduce, true},
    {"MPI_Reduce_scatter_c", c_reduce_scatter, false},
    {"MPI_Reduce_scatter_block_c", c_reduce_scatter_block, false},
    {"MPI_Scan_c", c_scan, false},
    {"MPI_Exscan_c", c_exscan, false},
};
#define NCOLL ((int)(sizeof colls / sizeof colls[0]))

static void run_all(const coll_t *list, int n, MPI_Comm comm, bool inter, int group, int iters)
{
    for (int form = 0; form < FORMS; form++)
        for (int k = 0; k < n; k++) {
            if (inter && !list[k].inter)
                continue;
            tc_t t;
            memset(&t, 0, sizeof t);
            t.name = list[k].name;
            t.fn = list[k].fn;
            t.comm = comm;
            t.inter = inter;
            t.group = group;
            t.form = form;
            t.req = MPI_REQUEST_NULL;
            MPI_Comm_rank(comm, &t.me);
            MPI_Comm_size(comm, &t.lsize);
            t.nb = t.lsize;
            if (inter)
                MPI_Comm_remote_size(comm, &t.nb);
            t.fn(&t, INIT, 0);
            for (int it = 0; it < (form == 2 ? iters : 1); it++) {
                t.fn(&t, FILL, it);
                t.fn(&t, RUN, it);
                t.fn(&t, CHECK, it);
            }
            if (t.req != MPI_REQUEST_NULL)
                MTEST_RC(MPI_Request_free(&t.req));
            free(t.s);
            free(t.r);
        }
}

/* Counts beyond INT_MAX: a broadcast of 2^31 + 19 bytes in its three forms. */
static unsigned char big_byte(size_t i, int it)
{
    return (unsigned char)((i * 131u + (i >> 20) + (size_t)it * 7u) & 0xff);
}

static void large(void)
{
    const MPI_Count n = ((MPI_Count)1 << 31) + 19;
    unsigned char *buf = malloc((size_t)n);
    if (!buf) {
        if (mtest_rank == 0)
            printf("no memory for %lld bytes: not run\n", (long long)n);
        return;
    }
    MPI_Request r = MPI_REQUEST_NULL;
    for (int it = 0; it < 4; it++) {
        for (size_t i = 0; i < (size_t)n; i++)
            buf[i] = mtest_rank == 0 ? big_byte(i, it) : (unsigned char)~big_byte(i, it);
        const char *what = it == 0 ? "MPI_Bcast_c" : it == 1 ? "MPI_Ibcast_c" : "MPI_Bcast_init_c";
        if (it == 0) {
            MTEST_RC(MPI_Bcast_c(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD));
        } else if (it == 1) {
            MTEST_RC(MPI_Ibcast_c(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD, &r));
            MTEST_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            if (r == MPI_REQUEST_NULL)
                MTEST_RC(MPI_Bcast_init_c(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
            MTEST_RC(MPI_Start(&r));
            MTEST_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
        }
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < (size_t)n; i++)
            if (buf[i] != big_byte(i, it) && !bad++)
                first = i;
        MTEST_CHECK(bad == 0, "%s of %lld bytes: %zu wrong bytes, the first at %zu", what, (long long)n, bad, first);
    }
    MTEST_RC(MPI_Request_free(&r));
    free(buf);
}

/* Bad arguments of the _c forms: found locally, so every rank gets the
 * error and nobody waits. */
static void errors(void)
{
    int x[4] = {0, 0, 0, 0};
    MPI_Count neg[MAXB], cnt[MAXB];
    MPI_Aint dsp[MAXB];
    MPI_Request r = MPI_REQUEST_NULL;
    for (int j = 0; j < mtest_size; j++) {
        neg[j] = j == mtest_size - 1 ? -1 : 0;
        cnt[j] = 0;
        dsp[j] = 0;
    }
    mtest_check_class(MPI_Bcast_c(x, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Bcast_c, count -1");
    mtest_check_class(MPI_Ibcast_c(x, (MPI_Count)-5, MPI_INT, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT,
                      "MPI_Ibcast_c, count -5");
    mtest_check_class(MPI_Allreduce_c(x, x + 2, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM,
                      "MPI_Allreduce_c on MPI_COMM_NULL");
    mtest_check_class(MPI_Gatherv_c(x, 0, MPI_INT, x, neg, dsp, MPI_INT, mtest_rank, MPI_COMM_WORLD),
                      MPI_ERR_COUNT,
                      "MPI_Gatherv_c, a negative recvcount at the root");
    mtest_check_class(MPI_Alltoallv_init_c(x, cnt, dsp, MPI_INT, x + 2, cnt, dsp, MPI_INT, MPI_COMM_WORLD,
                                           MPI_INFO_NULL, NULL),
                      MPI_ERR_ARG, "MPI_Alltoallv_init_c, NULL request pointer");
    mtest_check_class(MPI_Alltoallw_c(x, cnt, NULL, NULL, x + 2, cnt, dsp, NULL, MPI_COMM_WORLD), MPI_ERR_ARG,
                      "MPI_Alltoallw_c, NULL sdispls");
    mtest_check_class(MPI_Reduce_scatter_c(x, x + 2, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_ARG,
                      "MPI_Reduce_scatter_c, NULL recvcounts");
    mtest_check_class(MPI_Scan_init_c(x, x + 2, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, (MPI_Info)0x1234, &r),
                      MPI_ERR_INFO, "MPI_Scan_init_c, an invalid info");
    MTEST_CHECK(r == MPI_REQUEST_NULL, "a failed call set the request");
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (argc > 1 && !strcmp(argv[1], "large")) {
        large();
        return mtest_finalize();
    }
    if (mtest_size > MAXB) {
        if (mtest_rank == 0)
            printf("at most %d processes\n", MAXB);
        return mtest_finalize();
    }
    errors();
    run_all(colls, NCOLL, MPI_COMM_WORLD, false, 0, 3);
    if (mtest_size >= 2) {
        int half = mtest_size / 2, group = mtest_rank < half ? 0 : 1;
        MPI_Comm local, inter;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, group, mtest_rank, &local));
        MTEST_RC(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, group ? 0 : half, 7, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        run_all(colls, NCOLL, inter, true, group, 3);
        MTEST_RC(MPI_Comm_free(&inter));
        MTEST_RC(MPI_Comm_free(&local));
    }
    return mtest_finalize();
}
