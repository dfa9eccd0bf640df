/*
 * coll_persistent - the persistent collectives of MPI-4.0 section 6.13.
 *
 * Every one of the 17 persistent collectives is initialised once on
 * MPI_COMM_WORLD (and, with two or more processes, the eleven that have an
 * intercommunicator form on an intercommunicator of the two halves), then
 * started NITER times with new buffer contents each time:
 *   - one at a time, with a blocking and a nonblocking collective on the same
 *     communicator between MPI_Start and MPI_Wait;
 *   - all at once with MPI_Startall (they run concurrently), completed with
 *     MPI_Waitall, or one by one with MPI_Test in a loop.
 * Every result is checked element by element against values computed here
 * (every element of every send block is distinct: a function of the sender,
 * the start and the offset), and receive buffers are poisoned before each
 * start. Then the request semantics: an inactive persistent request is
 * complete with an empty status for Test, Wait and Request_get_status;
 * MPI_Start of an active one and MPI_Cancel of one are errors
 * (MPI_ERR_REQUEST); Request_free of an inactive one and of an active one
 * (it completes by itself); MPI_Comm_free with a persistent request alive.
 *
 * argv[1]: starts per request (default 4).
 */
#include "mtest.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 5                         /* elements per block */
#define MAXB 64                     /* blocks at most (processes) */
#define POISON (-7)

enum { INIT, FILL, CHECK };

/* One persistent collective on one communicator and its buffers. */
typedef struct tc {
    const char *name;
    MPI_Comm comm;
    bool inter;
    int me, lsize, nb;              /* rank, local size, blocks (remote size on an intercommunicator) */
    int group;                      /* 0 or 1: which half (intercommunicator), 0 otherwise */
    int *s, *r;                     /* send and receive buffers */
    int cnt[MAXB], dsp[MAXB], rcnt[MAXB], rdsp[MAXB], scnt[MAXB], sdsp[MAXB];
    MPI_Datatype st[MAXB], rt[MAXB];
    MPI_Request req;
    void (*fn)(struct tc *, int phase, int it);
} tc_t;

/* Who sent a value: a process of group g, rank j there. */
static int id_of(int g, int j) { return g * MAXB + j; }

/* Element i of the data sender `id` contributes at start `it`. */
static int val(int id, int it, int i) { return id * 100003 + it * 7919 + i * 31 + 1; }

/* The other side's process j. */
static int peer_id(const tc_t *t, int j) { return id_of(t->inter ? 1 - t->group : 0, j); }
static int my_id(const tc_t *t) { return id_of(t->group, t->me); }

/* Irregular block sizes (some zero) and backwards layout with gaps. */
static int vcount(int j, int k) { return (j * 3 + k) % 4; }
static int layout(const int *cnt, int *dsp, int n)
{
    int at = 1;
    for (int j = n - 1; j >= 0; j--) {
        dsp[j] = at;
        at += cnt[j] + 2;
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
static int expect(const tc_t *t, const int *buf, int n, int id, int it, int off, const char *what)
{
    for (int i = 0; i < n; i++)
        if (buf[i] != val(id, it, off + i))
            return MTEST_CHECK(0, "%s on %s, start %d: %s element %d is %d, expected %d (from %d)", t->name,
                               t->inter ? "an intercommunicator" : "MPI_COMM_WORLD", it, what, i, buf[i],
                               val(id, it, off + i), id);
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

static void c_barrier(tc_t *t, int phase, int it)
{
    (void)it;
    if (phase == INIT)
        MTEST_RC(MPI_Barrier_init(t->comm, MPI_INFO_NULL, &t->req));
}

static void c_bcast(tc_t *t, int phase, int it)
{
    if (phase == INIT) {
        t->s = alloc_ints(N);
        MTEST_RC(MPI_Bcast_init(t->s, N, MPI_INT, root_arg(t), t->comm, MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Gather_init(t->s, N, MPI_INT, t->r, N, MPI_INT, root_arg(t), t->comm, MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Gatherv_init(t->s, contributes(t) ? mine : 0, MPI_INT, t->r, t->cnt, t->dsp, MPI_INT,
                                  root_arg(t), t->comm, MPI_INFO_NULL, &t->req));
        t->rcnt[0] = total;
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
        MTEST_RC(MPI_Scatter_init(t->s, N, MPI_INT, t->r, N, MPI_INT, root_arg(t), t->comm, MPI_INFO_NULL,
                                  &t->req));
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
        MTEST_RC(MPI_Scatterv_init(t->s, t->cnt, t->dsp, MPI_INT, t->r, contributes(t) ? vcount(t->me, 1) : 0,
                                   MPI_INT, root_arg(t), t->comm, MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Allgather_init(t->s, N, MPI_INT, t->r, N, MPI_INT, t->comm, MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Allgatherv_init(t->s, mine, MPI_INT, t->r, t->cnt, t->dsp, MPI_INT, t->comm, MPI_INFO_NULL,
                                     &t->req));
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
        MTEST_RC(MPI_Alltoall_init(t->s, N, MPI_INT, t->r, N, MPI_INT, t->comm, MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Alltoallv_init(t->s, t->scnt, t->sdsp, MPI_INT, t->r, t->rcnt, t->rdsp, MPI_INT, t->comm,
                                    MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Alltoallw_init(t->s, t->scnt, t->sdsp, t->st, t->r, t->rcnt, t->rdsp, t->rt, t->comm,
                                    MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Reduce_init(t->s, t->r, N, MPI_INT, MPI_SUM, root_arg(t), t->comm, MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Allreduce_init(t->s, t->r, N, MPI_INT, MPI_SUM, t->comm, MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Reduce_scatter_init(t->s, t->r, t->cnt, MPI_INT, MPI_SUM, t->comm, MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Reduce_scatter_block_init(t->s, t->r, N, MPI_INT, MPI_SUM, t->comm, MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Scan_init(t->s, t->r, N, MPI_INT, MPI_SUM, t->comm, MPI_INFO_NULL, &t->req));
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
        MTEST_RC(MPI_Exscan_init(t->s, t->r, N, MPI_INT, MPI_SUM, t->comm, MPI_INFO_NULL, &t->req));
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
    {"MPI_Barrier_init", c_barrier, true},
    {"MPI_Bcast_init", c_bcast, true},
    {"MPI_Gather_init", c_gather, true},
    {"MPI_Gatherv_init", c_gatherv, true},
    {"MPI_Scatter_init", c_scatter, true},
    {"MPI_Scatterv_init", c_scatterv, true},
    {"MPI_Allgather_init", c_allgather, true},
    {"MPI_Allgatherv_init", c_allgatherv, true},
    {"MPI_Alltoall_init", c_alltoall, true},
    {"MPI_Alltoallv_init", c_alltoallv, false},
    {"MPI_Alltoallw_init", c_alltoallw, false},
    {"MPI_Reduce_init", c_reduce, true},
    {"MPI_Allreduce_init", c_allreduce, true},
    {"MPI_Reduce_scatter_init", c_reduce_scatter, false},
    {"MPI_Reduce_scatter_block_init", c_reduce_scatter_block, false},
    {"MPI_Scan_init", c_scan, false},
    {"MPI_Exscan_init", c_exscan, false},
};
#define NCOLL ((int)(sizeof colls / sizeof colls[0]))

/* A blocking allreduce and a nonblocking barrier while a persistent
 * collective runs: they must not take each other's messages. */
static void interleave(const tc_t *t, int it)
{
    int in = val(my_id(t), it, 0), out = 0;
    MPI_Request ib;
    MTEST_RC(MPI_Ibarrier(t->comm, &ib));
    MTEST_RC(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, t->comm));
    expect_int(t, out, sum_of(t->inter ? 1 - t->group : 0, t->nb, it, 0), it, "a blocking allreduce meanwhile");
    MTEST_RC(MPI_Wait(&ib, MPI_STATUS_IGNORE));
}

static void run_all(tc_t *t, int n, int iters)
{
    MPI_Request reqs[NCOLL];
    for (int k = 0; k < n; k++) {
        t[k].fn(&t[k], INIT, 0);
        reqs[k] = t[k].req;
    }
    for (int it = 0; it < iters; it++) {
        if (it % 3 == 0) {          /* one at a time, something else in between */
            for (int k = 0; k < n; k++) {
                t[k].fn(&t[k], FILL, it);
                MTEST_RC(MPI_Start(&t[k].req));
                interleave(&t[k], it);
                MPI_Status st;
                MTEST_RC(MPI_Wait(&t[k].req, &st));
                MTEST_CHECK(t[k].req == reqs[k], "%s: MPI_Wait changed the persistent request's handle", t[k].name);
                t[k].fn(&t[k], CHECK, it);
            }
        } else {                    /* all at once */
            for (int k = 0; k < n; k++)
                t[k].fn(&t[k], FILL, it);
            MTEST_RC(MPI_Startall(n, reqs));
            if (it % 3 == 1) {
                MTEST_RC(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
            } else {
                int flag = 0;
                while (!flag)
                    MTEST_RC(MPI_Testall(n, reqs, &flag, MPI_STATUSES_IGNORE));
            }
            for (int k = 0; k < n; k++)
                t[k].fn(&t[k], CHECK, it);
        }
    }
    for (int k = 0; k < n; k++) {
        MTEST_RC(MPI_Request_free(&t[k].req));
        MTEST_CHECK(t[k].req == MPI_REQUEST_NULL, "%s: MPI_Request_free left the handle", t[k].name);
        free(t[k].s);
        free(t[k].r);
    }
}

static void setup(tc_t *t, const coll_t *c, MPI_Comm comm, bool inter, int group)
{
    memset(t, 0, sizeof *t);
    t->name = c->name;
    t->fn = c->fn;
    t->comm = comm;
    t->inter = inter;
    t->group = group;
    MPI_Comm_rank(comm, &t->me);
    MPI_Comm_size(comm, &t->lsize);
    t->nb = t->lsize;
    if (inter)
        MPI_Comm_remote_size(comm, &t->nb);
}

/* The request's life beyond start and wait. */
static void semantics(void)
{
    MPI_Request r, copy;
    MPI_Status st;
    int flag = 0, x = mtest_rank, y = -1;
    MTEST_RC(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    copy = r;
    /* inactive: complete at once, empty status, handle kept */
    MTEST_RC(MPI_Test(&r, &flag, &st));
    MTEST_CHECK(flag && r == copy, "MPI_Test on an inactive persistent collective: flag %d", flag);
    mtest_check_empty_status(&st, 1, "MPI_Test on an inactive persistent collective");
    MTEST_RC(MPI_Wait(&r, &st));
    mtest_check_empty_status(&st, 1, "MPI_Wait on an inactive persistent collective");
    flag = 0;
    MTEST_RC(MPI_Request_get_status(r, &flag, &st));
    MTEST_CHECK(flag, "MPI_Request_get_status on an inactive persistent collective: flag 0");
    /* cancel is erroneous, active or not; a second start while active too */
    mtest_check_class(MPI_Cancel(&r), MPI_ERR_REQUEST, "MPI_Cancel of a persistent collective");
    MTEST_RC(MPI_Start(&r));
    mtest_check_class(MPI_Start(&r), MPI_ERR_REQUEST, "MPI_Start of an active persistent collective");
    mtest_check_class(MPI_Cancel(&r), MPI_ERR_REQUEST, "MPI_Cancel of an active persistent collective");
    do
        MTEST_RC(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
    while (!flag);
    MTEST_CHECK(r == copy, "MPI_Request_get_status changed the handle");
    MTEST_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    int want = mtest_size * (mtest_size - 1) / 2;
    MTEST_CHECK(y == want, "persistent allreduce: %d, expected %d", y, want);
    /* freed while active: it still completes (the others wait for it) */
    x = 2 * mtest_rank;
    MTEST_RC(MPI_Start(&r));
    MTEST_RC(MPI_Request_free(&r));
    MTEST_CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free of an active persistent collective left the handle");
    MTEST_RC(MPI_Barrier(MPI_COMM_WORLD));
    /* info: a valid info object is accepted, an invalid one refused */
    MPI_Info info;
    MTEST_RC(MPI_Info_create(&info));
    MTEST_RC(MPI_Info_set(info, "some_key", "some value"));
    MTEST_RC(MPI_Barrier_init(MPI_COMM_WORLD, info, &r));
    MTEST_RC(MPI_Info_free(&info));
    MTEST_RC(MPI_Start(&r));
    MTEST_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MTEST_RC(MPI_Request_free(&r));
    mtest_check_class(MPI_Barrier_init(MPI_COMM_WORLD, (MPI_Info)0x12345, &r), MPI_ERR_INFO,
                      "MPI_Barrier_init with an invalid info");
    mtest_check_class(MPI_Bcast_init(&x, -1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_COUNT,
                      "MPI_Bcast_init with a negative count");
    mtest_check_class(MPI_Bcast_init(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_ARG,
                      "MPI_Bcast_init with a NULL request pointer");
    /* the communicator freed while its persistent request lives */
    MPI_Comm dup;
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MTEST_RC(MPI_Bcast_init(&x, 1, MPI_INT, 0, dup, MPI_INFO_NULL, &r));
    MTEST_RC(MPI_Comm_free(&dup));
    x = mtest_rank == 0 ? 4242 : -1;
    MTEST_RC(MPI_Start(&r));
    MTEST_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MTEST_CHECK(x == 4242, "persistent bcast on a freed communicator: %d", x);
    MTEST_RC(MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    int iters = argc > 1 ? atoi(argv[1]) : 4;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (mtest_size > MAXB) {
        if (mtest_rank == 0)
            printf("at most %d processes\n", MAXB);
        return mtest_finalize();
    }
    tc_t t[NCOLL];
    for (int k = 0; k < NCOLL; k++)
        setup(&t[k], &colls[k], MPI_COMM_WORLD, false, 0);
    run_all(t, NCOLL, iters);
    if (mtest_size >= 2) {
        int half = mtest_size / 2, group = mtest_rank < half ? 0 : 1;
        MPI_Comm local, inter;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, group, mtest_rank, &local));
        MTEST_RC(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, group ? 0 : half, 7, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        int n = 0;
        for (int k = 0; k < NCOLL; k++)
            if (colls[k].inter)
                setup(&t[n++], &colls[k], inter, true, group);
        run_all(t, n, iters);
        MTEST_RC(MPI_Comm_free(&inter));
        MTEST_RC(MPI_Comm_free(&local));
    }
    semantics();
    return mtest_finalize();
}
