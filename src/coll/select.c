/* Choice of algorithm per collective: one decision table each (by
 * communicator size and bytes), overridden by DMPI_COLL_<NAME>. Every
 * collective builds a schedule (coll/sched.h) with the algorithm chosen;
 * blocking calls run it at once, nonblocking ones return it as a request. */
#include "coll/coll.h"
#include "coll/select.h"
#include "core/params.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>

int dmpi_coll_forced(const char *value, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(value, names[i]))
            return i;
    return -1;
}

int dmpi_coll_finish(dmpi_sched_t *s, int err, dmpi_request_t **req)
{
    if (err != MPI_SUCCESS) {
        dmpi_sched_free(s);
        return err;
    }
    return req ? dmpi_sched_start(s, req) : dmpi_sched_run(s);
}

/* ---- barrier ---------------------------------------------------------- */

static const char *const barrier_algos[] = {"dissemination", NULL};

/* One algorithm, nothing to choose. */
int dmpi_coll_ibarrier(dmpi_comm_t *c, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Ibarrier" : "MPI_Barrier");
    return dmpi_coll_finish(s, dmpi_barrier_dissemination(s, c), req);
}

int dmpi_coll_barrier(dmpi_comm_t *c)
{
    return dmpi_coll_ibarrier(c, NULL);
}

/* ---- gather, gatherv, scatter, scatterv --------------------------------- */

/* The tree saves the root p - 1 message latencies but forwards a block up
 * to log2 p times: it wins for small blocks once there are a few ranks.
 * Every rank sees the same block size (the root its receive signature,
 * the others their send signature), so all choose alike. gatherv and
 * scatterv have one algorithm (linear): only the root knows all sizes. */
static const char *const gather_algos[] = {"binomial", "linear", NULL};
static const char *const scatter_algos[] = {"binomial", "linear", NULL};
#define ROOTED_TREE_MAX 16384    /* bytes per block */

/* Point-to-point counts are ints: algorithms that send several blocks in
 * one message (packed, or a run of elements) need p blocks to fit one. */
static bool blocks_fit(int p, size_t nb)
{
    return (size_t)p * nb <= INT_MAX;
}

static bool use_tree(const char *forced, const char *const *names, int p, size_t nb)
{
    int algo = dmpi_coll_forced(forced, names);
    if (!blocks_fit(p, nb))
        return false;
    return algo >= 0 ? algo == 0 : p > 2 && nb <= ROOTED_TREE_MAX;
}

int dmpi_coll_gather(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                     size_t rcount, dmpi_dtype_t *rdt, int root, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt,
                     .root = root};
    size_t nb = c->rank == root ? rcount * rdt->size : scount * sdt->size;
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Igather" : "MPI_Gather");
    err = use_tree(dmpi_params.coll_gather, gather_algos, c->size, nb) ? dmpi_gather_binomial(s, c, &m)
                                                                       : dmpi_gather_linear(s, c, &m);
    return dmpi_coll_finish(s, err, req);
}

int dmpi_coll_gatherv(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                      const int *rcounts, const int *displs, dmpi_dtype_t *rdt, int root, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcounts = rcounts,
                     .rdispls = displs, .rdt = rdt, .root = root};
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Igatherv" : "MPI_Gatherv");
    return dmpi_coll_finish(s, dmpi_gatherv_linear(s, c, &m), req);
}

int dmpi_coll_scatter(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                      size_t rcount, dmpi_dtype_t *rdt, int root, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt,
                     .root = root};
    size_t nb = c->rank == root ? scount * sdt->size : rcount * rdt->size;
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Iscatter" : "MPI_Scatter");
    err = use_tree(dmpi_params.coll_scatter, scatter_algos, c->size, nb) ? dmpi_scatter_binomial(s, c, &m)
                                                                         : dmpi_scatter_linear(s, c, &m);
    return dmpi_coll_finish(s, err, req);
}

int dmpi_coll_scatterv(dmpi_comm_t *c, const void *sbuf, const int *scounts, const int *displs,
                       dmpi_dtype_t *sdt, void *rbuf, size_t rcount, dmpi_dtype_t *rdt, int root,
                       dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scounts = scounts, .sdispls = displs, .sdt = sdt, .rbuf = rbuf,
                     .rcount = rcount, .rdt = rdt, .root = root};
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Iscatterv" : "MPI_Scatterv");
    return dmpi_coll_finish(s, dmpi_scatterv_linear(s, c, &m), req);
}

/* ---- allgather, allgatherv ---------------------------------------------- */

/* By the total gathered (the same on every rank): recursive doubling
 * (log2 p rounds, no copies) for power-of-two sizes up to a medium total,
 * Bruck (ceil(log2 p) rounds, one extra copy) for small totals otherwise,
 * the ring (p - 1 rounds, each link busy) for large ones. allgatherv has
 * recursive doubling and the ring: "bruck" means the ring there. */
static const char *const allgather_algos[] = {"recursive_doubling", "bruck", "ring", NULL};
enum { AG_RECURSIVE_DOUBLING, AG_BRUCK, AG_RING };
#define ALLGATHER_RD_MAX (512 * 1024)
#define ALLGATHER_BRUCK_MAX (80 * 1024)

static int allgather_choice(int p, size_t total)
{
    bool pof2 = (p & (p - 1)) == 0;
    int algo = dmpi_coll_forced(dmpi_params.coll_allgather, allgather_algos);
    if (total > INT_MAX)
        return AG_RING;               /* one block per message */
    if (algo < 0)
        algo = pof2 && total <= ALLGATHER_RD_MAX ? AG_RECURSIVE_DOUBLING
               : total <= ALLGATHER_BRUCK_MAX   ? AG_BRUCK
                                                : AG_RING;
    return algo == AG_RECURSIVE_DOUBLING && !pof2 ? AG_BRUCK : algo;
}

int dmpi_coll_allgather(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                        size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Iallgather" : "MPI_Allgather");
    switch (allgather_choice(c->size, (size_t)c->size * rcount * rdt->size)) {
    case AG_RECURSIVE_DOUBLING: err = dmpi_allgather_recursive_doubling(s, c, &m); break;
    case AG_BRUCK: err = dmpi_allgather_bruck(s, c, &m); break;
    default: err = dmpi_allgather_ring(s, c, &m); break;
    }
    return dmpi_coll_finish(s, err, req);
}

int dmpi_coll_allgatherv(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                         const int *rcounts, const int *displs, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcounts = rcounts,
                     .rdispls = displs, .rdt = rdt};
    size_t total = 0;
    for (int j = 0; j < c->size; j++)
        total += (size_t)rcounts[j] * rdt->size;
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Iallgatherv" : "MPI_Allgatherv");
    err = allgather_choice(c->size, total) == AG_RECURSIVE_DOUBLING ? dmpi_allgatherv_recursive_doubling(s, c, &m)
                                                                     : dmpi_allgatherv_ring(s, c, &m);
    return dmpi_coll_finish(s, err, req);
}

/* ---- alltoall, alltoallv, alltoallw ------------------------------------- */

/* alltoall, by block size (the same on every rank, which matters: Bruck
 * does not interoperate with the others): Bruck for small blocks on 8 or
 * more ranks (log p latencies instead of p), all at once (linear) for
 * medium ones, pairwise for large ones (one partner at a time). pairwise
 * and linear are the alltoallv algorithms on uniform blocks. */
static const char *const alltoall_algos[] = {"bruck", "pairwise", "linear", NULL};
enum { A2A_BRUCK, A2A_PAIRWISE, A2A_LINEAR };
#define ALLTOALL_BRUCK_MAX 256
#define ALLTOALL_LINEAR_MAX 32768

/* alltoallv/w: every rank knows only its own counts, so each decides for
 * itself; the three algorithms interoperate (one message per direction per
 * nonempty pair, the same tag, steps in the same order). A rank with at
 * most `window` partners posts them all (a sparse pattern never pays p
 * steps); large messages on average go pairwise; many partners with small
 * messages go throttled. "mixed" (a test aid) picks by rank % 3 to show
 * that ranks choosing differently still match. */
static const char *const alltoallv_algos[] = {"pairwise", "linear", "throttled", "mixed", NULL};
enum { A2AV_PAIRWISE, A2AV_LINEAR, A2AV_THROTTLED, A2AV_MIXED };
#define ALLTOALLV_PAIRWISE_MIN 32768   /* average bytes per nonempty step */

static int alltoallv_window(void)
{
    return dmpi_params.alltoallv_window > 0 ? dmpi_params.alltoallv_window : 1;
}

static int alltoallv_choice(dmpi_comm_t *c, const dmpi_move_t *m)
{
    int algo = dmpi_coll_forced(dmpi_params.coll_alltoallv, alltoallv_algos);
    if (algo == A2AV_MIXED)
        return c->rank % 3;
    if (algo >= 0)
        return algo;
    int p = c->size, steps = 0;
    size_t bytes = 0;
    for (int k = 1; k < p; k++) {
        const void *sb;
        void *rb;
        size_t n, step;
        dmpi_dtype_t *dt;
        step = dmpi_move_sblock(m, (c->rank + k) % p, &sb, &n, &dt) +
               dmpi_move_rblock(m, (c->rank - k + p) % p, &rb, &n, &dt);
        steps += step > 0;
        bytes += step;
    }
    if (steps <= alltoallv_window())
        return A2AV_LINEAR;
    return bytes / (size_t)steps >= ALLTOALLV_PAIRWISE_MIN ? A2AV_PAIRWISE : A2AV_THROTTLED;
}

static int alltoallv_build(dmpi_sched_t *s, dmpi_comm_t *c, dmpi_move_t *m, int algo)
{
    if (m->sbuf == MPI_IN_PLACE) {
        int err = dmpi_move_pack_inplace(s, c, m);
        if (err != MPI_SUCCESS)
            return err;
    }
    if (algo < 0)
        algo = alltoallv_choice(c, m);
    switch (algo) {
    case A2AV_PAIRWISE: return dmpi_alltoallv_pairwise(s, c, m);
    case A2AV_LINEAR: return dmpi_alltoallv_linear(s, c, m);
    default: return dmpi_alltoallv_throttled(s, c, m, alltoallv_window());
    }
}

int dmpi_coll_alltoall(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                       size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    size_t nb = rcount * rdt->size;
    int algo = dmpi_coll_forced(dmpi_params.coll_alltoall, alltoall_algos);
    if (algo == A2A_BRUCK && !blocks_fit(c->size, nb))
        algo = A2A_PAIRWISE;
    if (algo < 0)
        algo = nb <= ALLTOALL_BRUCK_MAX && c->size >= 8 ? A2A_BRUCK
               : nb <= ALLTOALL_LINEAR_MAX           ? A2A_LINEAR
                                                     : A2A_PAIRWISE;
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Ialltoall" : "MPI_Alltoall");
    if (algo == A2A_BRUCK)
        err = dmpi_alltoall_bruck(s, c, &m);
    else
        err = alltoallv_build(s, c, &m, algo == A2A_PAIRWISE ? A2AV_PAIRWISE : A2AV_LINEAR);
    return dmpi_coll_finish(s, err, req);
}

int dmpi_coll_alltoallv(dmpi_comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                        dmpi_dtype_t *sdt, void *rbuf, const int *rcounts, const int *rdispls, dmpi_dtype_t *rdt,
                        dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scounts = scounts, .sdispls = sdispls, .sdt = sdt,
                     .rbuf = rbuf, .rcounts = rcounts, .rdispls = rdispls, .rdt = rdt};
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Ialltoallv" : "MPI_Alltoallv");
    return dmpi_coll_finish(s, alltoallv_build(s, c, &m, -1), req);
}

int dmpi_coll_alltoallw(dmpi_comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                        const MPI_Datatype *stypes, void *rbuf, const int *rcounts, const int *rdispls,
                        const MPI_Datatype *rtypes, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scounts = scounts, .sdispls = sdispls, .stypes = stypes,
                     .rbuf = rbuf, .rcounts = rcounts, .rdispls = rdispls, .rtypes = rtypes};
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Ialltoallw" : "MPI_Alltoallw");
    return dmpi_coll_finish(s, alltoallv_build(s, c, &m, -1), req);
}

/* ---- broadcast and reductions (thresholds: docs/collectives.md) -------- */

#include "core/op.h"

static const char *const bcast_algos[] = {"binomial", "scatter_allgather", NULL};

int dmpi_coll_bcast(dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Ibcast" : "MPI_Bcast");
    int a = dmpi_coll_forced(dmpi_params.coll_bcast, bcast_algos);
    if (a < 0)   /* count * size: the same at every rank, whatever the types */
        a = count * dt->size < 12288 || c->size < 8 ? 0 : 1;
    if (count * dt->size > INT_MAX)   /* scatter_allgather sends int-counted bytes */
        a = 0;
    int err = a == 0 ? dmpi_bcast_binomial(s, c, buf, count, dt, root)
                     : dmpi_bcast_scatter_allgather(s, c, buf, count, dt, root);
    return dmpi_coll_finish(s, err, req);
}

static int pof2_below(int p)
{
    int k = 1;
    while (k * 2 <= p)
        k *= 2;
    return k;
}

static const char *const reduce_algos[] = {"binomial", "reduce_scatter_gather", NULL};

int dmpi_coll_reduce(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                     int root, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Ireduce" : "MPI_Reduce");
    int a = dmpi_coll_forced(dmpi_params.coll_reduce, reduce_algos);
    if (a < 0)
        a = count * dt->size > 2048 && count >= (size_t)pof2_below(c->size) ? 1 : 0;
    if (!dmpi_op_commutative(op))     /* only the binomial tree keeps rank order */
        a = 0;
    int err = a == 0 ? dmpi_reduce_binomial(s, c, sbuf, rbuf, count, dt, op, root)
                     : dmpi_reduce_scatter_gather(s, c, sbuf, rbuf, count, dt, op, root);
    return dmpi_coll_finish(s, err, req);
}

static const char *const allreduce_algos[] = {"recursive_doubling", "reduce_scatter_allgather", "ring", NULL};

int dmpi_coll_allreduce(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                        dmpi_op_t *op, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Iallreduce" : "MPI_Allreduce");
    size_t bytes = count * dt->size;
    int p = c->size, pof2 = pof2_below(p);
    int a = dmpi_coll_forced(dmpi_params.coll_allreduce, allreduce_algos);
    if (a < 0)
        a = bytes <= 2048 || count < (size_t)pof2 ? 0 : pof2 != p && bytes >= (size_t)p * 16384 ? 2 : 1;
    if (!dmpi_op_commutative(op))     /* recursive doubling keeps rank order */
        a = 0;
    int err = a == 0   ? dmpi_allreduce_recursive_doubling(s, c, sbuf, rbuf, count, dt, op)
              : a == 1 ? dmpi_allreduce_reduce_scatter_allgather(s, c, sbuf, rbuf, count, dt, op)
                       : dmpi_allreduce_ring(s, c, sbuf, rbuf, count, dt, op);
    return dmpi_coll_finish(s, err, req);
}

static const char *const reduce_scatter_algos[] = {"recursive_halving", "pairwise", "reduce_scatterv", NULL};

/* Reduce_scatter and Reduce_scatter_block share the table and the names. */
static int reduce_scatter(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, const int *counts,
                          dmpi_dtype_t *dt, dmpi_op_t *op)
{
    size_t total = 0;
    for (int i = 0; i < c->size; i++)
        total += (size_t)counts[i];
    int a = dmpi_coll_forced(dmpi_params.coll_reduce_scatter, reduce_scatter_algos);
    if (a < 0)
        a = total * dt->size < 524288 ? 0 : 1;
    if (!dmpi_op_commutative(op))     /* the binomial reduce keeps rank order */
        a = 2;
    return a == 0   ? dmpi_reduce_scatter_recursive_halving(s, c, sbuf, rbuf, counts, dt, op)
           : a == 1 ? dmpi_reduce_scatter_pairwise(s, c, sbuf, rbuf, counts, dt, op)
                    : dmpi_reduce_scatter_reduce_scatterv(s, c, sbuf, rbuf, counts, dt, op);
}

int dmpi_coll_reduce_scatter(dmpi_comm_t *c, const void *sbuf, void *rbuf, const int *counts, dmpi_dtype_t *dt,
                             dmpi_op_t *op, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Ireduce_scatter" : "MPI_Reduce_scatter");
    return dmpi_coll_finish(s, reduce_scatter(s, c, sbuf, rbuf, counts, dt, op), req);
}

int dmpi_coll_reduce_scatter_block(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                                   dmpi_op_t *op, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Ireduce_scatter_block" : "MPI_Reduce_scatter_block");
    int *counts = dmpi_sched_tmp(s, (size_t)c->size * sizeof *counts);
    int err = counts ? MPI_SUCCESS : dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduce-scatter");
    for (int i = 0; counts && i < c->size; i++)
        counts[i] = (int)count;
    if (err == MPI_SUCCESS)
        err = reduce_scatter(s, c, sbuf, rbuf, counts, dt, op);
    return dmpi_coll_finish(s, err, req);
}

/* Scans have one algorithm each (no DMPI_COLL_ parameter). */
int dmpi_coll_scan(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                   dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Iscan" : "MPI_Scan");
    return dmpi_coll_finish(s, dmpi_scan_recursive_doubling(s, c, sbuf, rbuf, count, dt, op), req);
}

int dmpi_coll_exscan(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                     dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Iexscan" : "MPI_Exscan");
    return dmpi_coll_finish(s, dmpi_exscan_recursive_doubling(s, c, sbuf, rbuf, count, dt, op), req);
}

/* ---- the table of forced-algorithm parameters --------------------------- */

static const dmpi_coll_algos_t all_algos[] = {
    {"BARRIER", dmpi_params.coll_barrier, barrier_algos},
    {"GATHER", dmpi_params.coll_gather, gather_algos},
    {"SCATTER", dmpi_params.coll_scatter, scatter_algos},
    {"ALLGATHER", dmpi_params.coll_allgather, allgather_algos},
    {"ALLTOALL", dmpi_params.coll_alltoall, alltoall_algos},
    {"ALLTOALLV", dmpi_params.coll_alltoallv, alltoallv_algos},
    {"BCAST", dmpi_params.coll_bcast, bcast_algos},
    {"REDUCE", dmpi_params.coll_reduce, reduce_algos},
    {"ALLREDUCE", dmpi_params.coll_allreduce, allreduce_algos},
    {"REDUCE_SCATTER", dmpi_params.coll_reduce_scatter, reduce_scatter_algos},
};

int dmpi_coll_check_params(void)
{
    for (size_t i = 0; i < sizeof all_algos / sizeof all_algos[0]; i++) {
        const dmpi_coll_algos_t *a = &all_algos[i];
        if (!strcmp(a->value, "auto") || dmpi_coll_forced(a->value, a->names) >= 0)
            continue;
        fprintf(stderr, "dmpi: DMPI_COLL_%s=%s is not an algorithm of this collective; choose auto", a->param,
                a->value);
        for (int k = 0; a->names[k]; k++)
            fprintf(stderr, ", %s", a->names[k]);
        fprintf(stderr, "\n");
        return -1;
    }
    return 0;
}
