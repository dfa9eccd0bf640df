/*
 * coll_alias: the same buffer passed as sendbuf and recvbuf (instead of
 * MPI_IN_PLACE) in every collective that takes both, blocking and
 * nonblocking: Gather(v), Scatter(v), Allgather(v), Alltoall(v/w), Reduce,
 * Allreduce, Reduce_scatter(_block), Scan, Exscan.
 *   - every rank aliased, and each rank in turn the only one aliased (the
 *     root and the others among them);
 *   - MPI_ERR_BUFFER exactly where the aliased buffers are both significant
 *     (Gather's and Reduce's recvbuf and Scatter's sendbuf count at the root
 *     only), MPI_SUCCESS elsewhere; a nonblocking call's request is still
 *     set and its MPI_Wait succeeds;
 *   - the call returns everywhere (no rank waits for one that gave up) and
 *     the other ranks' data is exact, byte for byte, with guards; dmpi runs
 *     the collective from a copy of the aliased send data, so the aliased
 *     ranks' results are checked too, and the message names the call;
 *   - after each case an Allreduce, a Bcast and a Barrier whose results show
 *     the ranks are still in step;
 *   - blocks of 3 ints (the node-level small path) and of 20000 ints (over
 *     64 KiB: the large paths), on MPI_COMM_WORLD and a dup of it, both with
 *     MPI_ERRORS_RETURN.
 */
#include "mtest.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW,
    REDUCE, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN, NOPS
};
static const char *const names[NOPS] = {
    "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather", "Allgatherv", "Alltoall", "Alltoallv",
    "Alltoallw", "Reduce", "Allreduce", "Reduce_scatter", "Reduce_scatter_block", "Scan", "Exscan"};

/* One case at this rank: what it sends, what its receive region must hold
 * afterwards (want NULL: not significant or undefined), and the counts. */
typedef struct {
    int op, root, me, p;
    size_t b;                          /* ints per block */
    int *send, *want;
    size_t sn, rn;                     /* ints in the send and receive regions */
    int *scounts, *sdispls, *rcounts, *rdispls, *sbytes, *rbytes;
    MPI_Datatype *types;
} plan_t;

/* Element i of block j sent by rank q; small enough that sums never overflow. */
static int val(int q, int j, size_t i) { return (q + 1) + 16 * (int)(((size_t)j * 7919 + i) % 65536); }

/* v forms: blocks of b or b + 1 ints, so that the counts differ per rank. */
static int vcount(const plan_t *c, int j) { return (int)c->b + j % 2; }
/* Alltoallv/w: what q sends to j, the same as what j sends to q. */
static int pair_count(const plan_t *c, int q, int j) { return (int)c->b + (q + j) % 2; }

/* "MPI_Gather", or "MPI_Igather" for the nonblocking form. */
static const char *call_name(int op, bool nb, char *buf, size_t len)
{
    snprintf(buf, len, "MPI_%s%c%s", nb ? "I" : "", nb ? names[op][0] + 'a' - 'A' : names[op][0], names[op] + 1);
    return buf;
}

static bool root_only(int op)
{
    return op == GATHER || op == GATHERV || op == SCATTER || op == SCATTERV || op == REDUCE;
}

static void fill_block(int *dst, int q, int j, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = val(q, j, i);
}

/* Sum over ranks lo <= q < hi of element off + i of block 0, i < n. */
static void fill_sum(int *dst, int lo, int hi, size_t off, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int s = 0;
        for (int q = lo; q < hi; q++)
            s += val(q, 0, off + i);
        dst[i] = s;
    }
}

static int *prefix(const int *counts, int p, size_t *total)
{
    int *d = mtest_malloc(sizeof(int) * (size_t)p + 1);
    size_t t = 0;
    for (int j = 0; j < p; j++) {
        d[j] = (int)t;
        t += (size_t)counts[j];
    }
    *total = t;
    return d;
}

static void plan(plan_t *c)
{
    int p = c->p, me = c->me, root = c->root, op = c->op;
    size_t b = c->b;
    c->scounts = mtest_malloc(sizeof(int) * (size_t)p);
    c->rcounts = mtest_malloc(sizeof(int) * (size_t)p);
    c->sbytes = mtest_malloc(sizeof(int) * (size_t)p);
    c->rbytes = mtest_malloc(sizeof(int) * (size_t)p);
    c->types = mtest_malloc(sizeof(MPI_Datatype) * (size_t)p);
    for (int j = 0; j < p; j++) {
        bool pair = op == ALLTOALLV || op == ALLTOALLW;
        c->scounts[j] = pair ? pair_count(c, me, j) : vcount(c, j);
        c->rcounts[j] = pair ? pair_count(c, j, me) : vcount(c, j);
        c->types[j] = MPI_INT;
    }
    size_t st, rt;
    c->sdispls = prefix(c->scounts, p, &st);
    c->rdispls = prefix(c->rcounts, p, &rt);
    for (int j = 0; j < p; j++) {
        c->sbytes[j] = c->sdispls[j] * (int)sizeof(int);
        c->rbytes[j] = c->rdispls[j] * (int)sizeof(int);
    }
    c->sn = c->rn = 0;
    switch (op) {
    case GATHER: case ALLGATHER:
        c->sn = b;
        c->rn = op == ALLGATHER || me == root ? b * (size_t)p : 0;
        break;
    case GATHERV: case ALLGATHERV:
        c->sn = (size_t)vcount(c, me);
        c->rn = op == ALLGATHERV || me == root ? rt : 0;
        break;
    case SCATTER:
        c->sn = me == root ? b * (size_t)p : 0;
        c->rn = b;
        break;
    case SCATTERV:
        c->sn = me == root ? st : 0;
        c->rn = (size_t)vcount(c, me);
        break;
    case ALLTOALL:
        c->sn = c->rn = b * (size_t)p;
        break;
    case ALLTOALLV: case ALLTOALLW:
        c->sn = st;
        c->rn = rt;
        break;
    case REDUCE: case ALLREDUCE: case SCAN: case EXSCAN:
        c->sn = b;
        c->rn = op != REDUCE || me == root ? b : 0;
        break;
    case REDUCE_SCATTER:
        c->sn = rt;
        c->rn = (size_t)vcount(c, me);
        break;
    case REDUCE_SCATTER_BLOCK:
        c->sn = b * (size_t)p;
        c->rn = b;
        break;
    }
    c->send = mtest_malloc(sizeof(int) * c->sn + 1);
    c->want = c->rn && !(op == EXSCAN && me == 0) ? mtest_malloc(sizeof(int) * c->rn) : NULL;
    /* the send data: block j for rank j (one block 0 where all get the same) */
    if (op == SCATTER || op == ALLTOALL)
        for (int j = 0; j < p && c->sn; j++)
            fill_block(c->send + (size_t)j * b, me, j, b);
    else if (op == SCATTERV || op == ALLTOALLV || op == ALLTOALLW)
        for (int j = 0; j < p && c->sn; j++)
            fill_block(c->send + c->sdispls[j], me, j, (size_t)c->scounts[j]);
    else
        fill_block(c->send, me, 0, c->sn);
    if (!c->want)
        return;
    switch (op) {
    case GATHER: case ALLGATHER:
        for (int q = 0; q < p; q++)
            fill_block(c->want + (size_t)q * b, q, 0, b);
        break;
    case GATHERV: case ALLGATHERV:
        for (int q = 0; q < p; q++)
            fill_block(c->want + c->rdispls[q], q, 0, (size_t)c->rcounts[q]);
        break;
    case SCATTER: case SCATTERV:
        fill_block(c->want, root, me, c->rn);
        break;
    case ALLTOALL:
        for (int q = 0; q < p; q++)
            fill_block(c->want + (size_t)q * b, q, me, b);
        break;
    case ALLTOALLV: case ALLTOALLW:
        for (int q = 0; q < p; q++)
            fill_block(c->want + c->rdispls[q], q, me, (size_t)c->rcounts[q]);
        break;
    case REDUCE: case ALLREDUCE:
        fill_sum(c->want, 0, p, 0, b);
        break;
    case SCAN:
        fill_sum(c->want, 0, me + 1, 0, b);
        break;
    case EXSCAN:
        fill_sum(c->want, 0, me, 0, b);
        break;
    case REDUCE_SCATTER:
        fill_sum(c->want, 0, p, (size_t)c->rdispls[me], c->rn);
        break;
    case REDUCE_SCATTER_BLOCK:
        fill_sum(c->want, 0, p, (size_t)me * b, b);
        break;
    }
}

static void unplan(plan_t *c)
{
    free(c->send);
    free(c->want);
    free(c->scounts);
    free(c->sdispls);
    free(c->rcounts);
    free(c->rdispls);
    free(c->sbytes);
    free(c->rbytes);
    free(c->types);
}

#define CALL(X, x, ...) (nb ? MPI_I##x(__VA_ARGS__, rq) : MPI_##X(__VA_ARGS__))

static int call(const plan_t *c, bool nb, const void *sb, void *rb, MPI_Comm comm, MPI_Request *rq)
{
    int b = (int)c->b, root = c->root;
    switch (c->op) {
    case GATHER:
        return CALL(Gather, gather, sb, b, MPI_INT, rb, b, MPI_INT, root, comm);
    case GATHERV:
        return CALL(Gatherv, gatherv, sb, (int)c->sn, MPI_INT, rb, c->rcounts, c->rdispls, MPI_INT, root, comm);
    case SCATTER:
        return CALL(Scatter, scatter, sb, b, MPI_INT, rb, b, MPI_INT, root, comm);
    case SCATTERV:
        return CALL(Scatterv, scatterv, sb, c->scounts, c->sdispls, MPI_INT, rb, (int)c->rn, MPI_INT, root, comm);
    case ALLGATHER:
        return CALL(Allgather, allgather, sb, b, MPI_INT, rb, b, MPI_INT, comm);
    case ALLGATHERV:
        return CALL(Allgatherv, allgatherv, sb, (int)c->sn, MPI_INT, rb, c->rcounts, c->rdispls, MPI_INT, comm);
    case ALLTOALL:
        return CALL(Alltoall, alltoall, sb, b, MPI_INT, rb, b, MPI_INT, comm);
    case ALLTOALLV:
        return CALL(Alltoallv, alltoallv, sb, c->scounts, c->sdispls, MPI_INT, rb, c->rcounts, c->rdispls, MPI_INT,
                    comm);
    case ALLTOALLW:
        return CALL(Alltoallw, alltoallw, sb, c->scounts, c->sbytes, c->types, rb, c->rcounts, c->rbytes, c->types,
                    comm);
    case REDUCE:
        return CALL(Reduce, reduce, sb, rb, b, MPI_INT, MPI_SUM, root, comm);
    case ALLREDUCE:
        return CALL(Allreduce, allreduce, sb, rb, b, MPI_INT, MPI_SUM, comm);
    case REDUCE_SCATTER:
        return CALL(Reduce_scatter, reduce_scatter, sb, rb, c->rcounts, MPI_INT, MPI_SUM, comm);
    case REDUCE_SCATTER_BLOCK:
        return CALL(Reduce_scatter_block, reduce_scatter_block, sb, rb, b, MPI_INT, MPI_SUM, comm);
    case SCAN:
        return CALL(Scan, scan, sb, rb, b, MPI_INT, MPI_SUM, comm);
    default:
        return CALL(Exscan, exscan, sb, rb, b, MPI_INT, MPI_SUM, comm);
    }
}

/* Collectives after the case: their results show that no rank skipped one. */
static void in_step(MPI_Comm comm, int me, int p, int root, int no, const char *what)
{
    int x = no * 16 + me, sum = -1, y = me == root ? no : -1;
    MTEST_RC(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, comm));
    MTEST_CHECK(sum == no * 16 * p + p * (p - 1) / 2, "%s: the Allreduce after it gave %d, expected %d", what, sum,
                no * 16 * p + p * (p - 1) / 2);
    MTEST_RC(MPI_Bcast(&y, 1, MPI_INT, root, comm));
    MTEST_CHECK(y == no, "%s: the Bcast after it gave %d, expected %d", what, y, no);
    MTEST_RC(MPI_Barrier(comm));
}

/* One collective: aliased at rank `only` (-1: at every rank). */
static void run_case(MPI_Comm comm, const char *cname, int op, bool nb, size_t b, int only, int no)
{
    plan_t c = {.op = op, .b = b};
    MPI_Comm_rank(comm, &c.me);
    MPI_Comm_size(comm, &c.p);
    c.root = c.p / 2;
    plan(&c);
    bool aliased = only < 0 || only == c.me;
    bool expect_err = aliased && (!root_only(op) || c.me == c.root);
    char fn[64], what[200], at[32] = "every rank";
    if (only >= 0)
        snprintf(at, sizeof at, "rank %d", only);
    snprintf(what, sizeof what, "%s: %s, %zu ints per block, aliased at %s (root %d), rank %d", cname,
             call_name(op, nb, fn, sizeof fn), b, at, c.root, c.me);
    size_t sbytes = sizeof(int) * c.sn, rbytes = sizeof(int) * c.rn;
    size_t big = (sbytes > rbytes ? sbytes : rbytes) + sizeof(int);
    char *sb, *rb;
    if (aliased) {
        sb = rb = mtest_malloc(big + MTEST_GUARD);
        memset(sb, 0xff, big);
        memcpy(sb, c.send, sbytes);
        mtest_guard_set(rb + big);
    } else {
        sb = mtest_malloc(sbytes + sizeof(int));
        rb = mtest_malloc(rbytes + MTEST_GUARD);
        memcpy(sb, c.send, sbytes);
        memset(rb, 0xff, rbytes);
        mtest_guard_set(rb + rbytes);
    }
    MPI_Request rq = MPI_REQUEST_NULL;
    int rc = call(&c, nb, sb, rb, comm, &rq);
    if (expect_err) {
        if (mtest_check_class(rc, MPI_ERR_BUFFER, "%s", what)) {
#ifdef DMPI_VERSION
            char msg[MPI_MAX_ERROR_STRING];
            int len;
            MPI_Error_string(rc, msg, &len);
            MTEST_CHECK(strstr(msg, fn) && strstr(msg, "same buffer") && strstr(msg, "MPI_IN_PLACE"),
                        "%s: the message \"%s\" does not name %s and say the buffers are the same", what, msg, fn);
#endif
        }
    } else {
        MTEST_CHECK(rc == MPI_SUCCESS, "%s: returned error class %d, expected MPI_SUCCESS", what,
                    (MPI_Error_class(rc, &rc), rc));
    }
    if (nb) {
        MTEST_CHECK(rq != MPI_REQUEST_NULL, "%s: no request", what);
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    /* dmpi runs the collective from a copy of the aliased send data, so the
     * aliased ranks get the right result too; the standard leaves it open */
    bool check = !expect_err;
#ifdef DMPI_VERSION
    check = true;
#endif
    if (check && c.want && memcmp(rb, c.want, rbytes) != 0) {
        size_t i = 0;
        while (((int *)rb)[i] == c.want[i])
            i++;
        mtest_fail("%s: received int %zu of %zu is %d, expected %d", what, i, c.rn, ((int *)rb)[i], c.want[i]);
    }
    if (!aliased)
        MTEST_CHECK(memcmp(sb, c.send, sbytes) == 0, "%s: sendbuf changed", what);
    mtest_guard_check(rb + (aliased ? big : rbytes), what);
    if (!aliased)
        free(sb);
    free(rb);
    in_step(comm, c.me, c.p, c.root, no, what);
    unplan(&c);
}

static int run_all(MPI_Comm comm, const char *cname, int no)
{
    int p;
    MPI_Comm_size(comm, &p);
    const size_t blocks[] = {3, 20000};
    for (int op = 0; op < NOPS; op++)
        for (int nb = 0; nb < 2; nb++)
            for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++)
                for (int only = -1; only < p; only++)
                    run_case(comm, cname, op, nb, blocks[k], only, ++no);
    return no;
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm dup;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int no = run_all(MPI_COMM_WORLD, "MPI_COMM_WORLD", 0);
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    run_all(dup, "a dup of MPI_COMM_WORLD", no);
    MPI_Comm_free(&dup);
    return mtest_finalize();
}
