/* The collectives' entry points. Each describes its call as a case (what
 * every rank knows alike: the communicator size, the bytes its decision
 * table measures, a few conditions), picks the algorithm from its decision
 * table (coll/decide.c: thresholds, rules and constraints as data; a
 * DMPI_COLL_<NAME> parameter forces one) and builds a schedule
 * (coll/sched.h) with it; blocking calls run the schedule at once,
 * nonblocking ones return it as a request. */
#include "coll/coll.h"
#include "coll/decide.h"
#include "coll/hier.h"
#include "coll/select.h"
#include "core/op.h"
#include "core/params.h"
#include <stdio.h>
#include <string.h>

int dmpi_coll_finish(dmpi_sched_t *s, int err, dmpi_request_t **req)
{
    if (err != MPI_SUCCESS) {
        dmpi_sched_free(s);
        return err;
    }
    return req ? dmpi_sched_start(s, req) : dmpi_sched_run(s);
}

/* ---- barrier ---------------------------------------------------------- */

/* One algorithm, nothing to choose (its one-rule table is for dmpi_info),
 * but on a communicator that spans nodes two levels of it (coll/hier.h). */
int dmpi_coll_ibarrier(dmpi_comm_t *c, dmpi_request_t **req)
{
    const dmpi_coll_layout_t *L;
    DMPI_TRY(dmpi_coll_hier_layout(c, dmpi_params.coll_barrier, NULL, &L));
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Ibarrier" : "MPI_Barrier");
    return dmpi_coll_finish(s, L ? dmpi_barrier_hier(s, c, L) : dmpi_barrier_dissemination(s, c), req);
}

int dmpi_coll_barrier(dmpi_comm_t *c)
{
    return dmpi_coll_ibarrier(c, NULL);
}

/* ---- gather, gatherv, scatter, scatterv --------------------------------- */

/* Gather and scatter decide by the block size, which every rank sees alike
 * (the root its receive signature, the others their send signature).
 * gatherv and scatterv have one algorithm (linear): only the root knows all
 * sizes. */

int dmpi_coll_gather(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                     size_t rcount, dmpi_dtype_t *rdt, int root, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt,
                     .root = root};
    dmpi_coll_case_t k = dmpi_coll_case(c->size, c->rank == root ? rcount * rdt->size : scount * sdt->size, 0, 0);
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Igather" : "MPI_Gather");
    switch (dmpi_coll_choose(&dmpi_decide_gather, &k)) {
    case DMPI_ROOTED_BINOMIAL: err = dmpi_gather_binomial(s, c, &m); break;
    default: err = dmpi_gather_linear(s, c, &m); break;
    }
    return dmpi_coll_finish(s, err, req);
}

int dmpi_coll_gatherv(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                      const MPI_Count *rcounts, const MPI_Aint *displs, dmpi_dtype_t *rdt, int root,
                      dmpi_request_t **req)
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
    dmpi_coll_case_t k = dmpi_coll_case(c->size, c->rank == root ? scount * sdt->size : rcount * rdt->size, 0, 0);
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Iscatter" : "MPI_Scatter");
    switch (dmpi_coll_choose(&dmpi_decide_scatter, &k)) {
    case DMPI_ROOTED_BINOMIAL: err = dmpi_scatter_binomial(s, c, &m); break;
    default: err = dmpi_scatter_linear(s, c, &m); break;
    }
    return dmpi_coll_finish(s, err, req);
}

int dmpi_coll_scatterv(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
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

/* By the total gathered (the same on every rank). allgatherv has recursive
 * doubling and the ring: "bruck" means the ring there. */

int dmpi_coll_allgather(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                        size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    dmpi_coll_case_t k = dmpi_coll_case(c->size, (size_t)c->size * rcount * rdt->size, 0, 0);
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Iallgather" : "MPI_Allgather");
    switch (dmpi_coll_choose(&dmpi_decide_allgather, &k)) {
    case DMPI_ALLGATHER_RECURSIVE_DOUBLING: err = dmpi_allgather_recursive_doubling(s, c, &m); break;
    case DMPI_ALLGATHER_BRUCK: err = dmpi_allgather_bruck(s, c, &m); break;
    default: err = dmpi_allgather_ring(s, c, &m); break;
    }
    return dmpi_coll_finish(s, err, req);
}

int dmpi_coll_allgatherv(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                         const MPI_Count *rcounts, const MPI_Aint *displs, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcounts = rcounts,
                     .rdispls = displs, .rdt = rdt};
    size_t total = 0;
    for (int j = 0; j < c->size; j++)
        total += (size_t)rcounts[j] * rdt->size;
    dmpi_coll_case_t k = dmpi_coll_case(c->size, total, 0, 0);
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Iallgatherv" : "MPI_Allgatherv");
    switch (dmpi_coll_choose(&dmpi_decide_allgather, &k)) {
    case DMPI_ALLGATHER_RECURSIVE_DOUBLING: err = dmpi_allgatherv_recursive_doubling(s, c, &m); break;
    default: err = dmpi_allgatherv_ring(s, c, &m); break;
    }
    return dmpi_coll_finish(s, err, req);
}

/* ---- alltoall, alltoallv, alltoallw ------------------------------------- */

/* alltoall, by block size: the same on every rank, which matters: Bruck
 * does not interoperate with the others. pairwise and linear are the
 * alltoallv algorithms on uniform blocks.
 *
 * alltoallv/w: every rank knows only its own counts, so each decides for
 * itself; the three algorithms interoperate (one message per direction per
 * nonempty pair, the same tag, steps in the same order). "mixed" (a test
 * aid) picks by rank % 3 to show that ranks choosing differently still
 * match. */
static int alltoallv_window(void)
{
    return dmpi_params.alltoallv_window > 0 ? dmpi_params.alltoallv_window : 1;
}

/* This rank's alltoallv as its table sees it: bytes sent plus received per
 * nonempty step, and whether it has few enough nonempty steps to post them
 * all at once. */
static dmpi_coll_case_t alltoallv_case(dmpi_comm_t *c, const dmpi_move_t *m)
{
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
    return dmpi_coll_case(p, steps ? bytes / (size_t)steps : 0, 0,
                          steps <= alltoallv_window() ? DMPI_IF_FEW_PARTNERS : 0);
}

/* algo: a DMPI_ALLTOALLV_* algorithm, or -1 to choose one. */
static int alltoallv_build(dmpi_sched_t *s, dmpi_comm_t *c, dmpi_move_t *m, int algo)
{
    if (m->sbuf == MPI_IN_PLACE) {
        int err = dmpi_move_pack_inplace(s, c, m);
        if (err != MPI_SUCCESS)
            return err;
    }
    if (algo < 0) {
        dmpi_coll_case_t k = alltoallv_case(c, m);
        algo = dmpi_coll_choose(&dmpi_decide_alltoallv, &k);
        if (algo == DMPI_ALLTOALLV_MIXED)
            algo = c->rank % 3;
    }
    switch (algo) {
    case DMPI_ALLTOALLV_PAIRWISE: return dmpi_alltoallv_pairwise(s, c, m);
    case DMPI_ALLTOALLV_LINEAR: return dmpi_alltoallv_linear(s, c, m);
    default: return dmpi_alltoallv_throttled(s, c, m, alltoallv_window());
    }
}

int dmpi_coll_alltoall(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                       size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    dmpi_coll_case_t k = dmpi_coll_case(c->size, rcount * rdt->size, 0, 0);
    dmpi_sched_t *s;
    int err = dmpi_sched_new(c, &s);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_sched_set_name(s, req ? "MPI_Ialltoall" : "MPI_Alltoall");
    switch (dmpi_coll_choose(&dmpi_decide_alltoall, &k)) {
    case DMPI_ALLTOALL_BRUCK: err = dmpi_alltoall_bruck(s, c, &m); break;
    case DMPI_ALLTOALL_LINEAR: err = alltoallv_build(s, c, &m, DMPI_ALLTOALLV_LINEAR); break;
    default: err = alltoallv_build(s, c, &m, DMPI_ALLTOALLV_PAIRWISE); break;
    }
    return dmpi_coll_finish(s, err, req);
}

int dmpi_coll_alltoallv(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                        dmpi_dtype_t *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                        dmpi_dtype_t *rdt, dmpi_request_t **req)
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

int dmpi_coll_alltoallw(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                        const MPI_Datatype *stypes, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls,
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

/* ---- broadcast and reductions ------------------------------------------ */

/* By count * type size (the same at every rank, whatever the types) and
 * the op's commutativity. */
static unsigned op_holds(const dmpi_op_t *op)
{
    return dmpi_op_commutative(op) ? DMPI_IF_COMMUTATIVE : 0;
}

int dmpi_coll_bcast_build(dmpi_sched_t *s, dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root)
{
    dmpi_coll_case_t k = dmpi_coll_case(c->size, count * dt->size, 0, 0);
    switch (dmpi_coll_choose(&dmpi_decide_bcast, &k)) {
    case DMPI_BCAST_SCATTER_ALLGATHER: return dmpi_bcast_scatter_allgather(s, c, buf, count, dt, root);
    default: return dmpi_bcast_binomial(s, c, buf, count, dt, root);
    }
}

int dmpi_coll_bcast(dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root, dmpi_request_t **req)
{
    const dmpi_coll_layout_t *L;
    DMPI_TRY(dmpi_coll_hier_layout(c, dmpi_params.coll_bcast, NULL, &L));
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Ibcast" : "MPI_Bcast");
    int err = L ? dmpi_bcast_hier(s, c, L, buf, count, dt, root) : dmpi_coll_bcast_build(s, c, buf, count, dt, root);
    return dmpi_coll_finish(s, err, req);
}

int dmpi_coll_reduce_build(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                           dmpi_dtype_t *dt, dmpi_op_t *op, int root)
{
    dmpi_coll_case_t k = dmpi_coll_case(c->size, count * dt->size, count, op_holds(op));
    switch (dmpi_coll_choose(&dmpi_decide_reduce, &k)) {
    case DMPI_REDUCE_SCATTER_GATHER: return dmpi_reduce_scatter_gather(s, c, sbuf, rbuf, count, dt, op, root);
    default: return dmpi_reduce_binomial(s, c, sbuf, rbuf, count, dt, op, root);
    }
}

int dmpi_coll_reduce(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                     int root, dmpi_request_t **req)
{
    const dmpi_coll_layout_t *L;
    DMPI_TRY(dmpi_coll_hier_layout(c, dmpi_params.coll_reduce, op, &L));
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Ireduce" : "MPI_Reduce");
    int err = L ? dmpi_reduce_hier(s, c, L, sbuf, rbuf, count, dt, op, root)
                : dmpi_coll_reduce_build(s, c, sbuf, rbuf, count, dt, op, root);
    return dmpi_coll_finish(s, err, req);
}

int dmpi_coll_allreduce_build(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                              dmpi_dtype_t *dt, dmpi_op_t *op)
{
    dmpi_coll_case_t k = dmpi_coll_case(c->size, count * dt->size, count, op_holds(op));
    switch (dmpi_coll_choose(&dmpi_decide_allreduce, &k)) {
    case DMPI_ALLREDUCE_REDUCE_SCATTER_ALLGATHER:
        return dmpi_allreduce_reduce_scatter_allgather(s, c, sbuf, rbuf, count, dt, op);
    case DMPI_ALLREDUCE_RING: return dmpi_allreduce_ring(s, c, sbuf, rbuf, count, dt, op);
    default: return dmpi_allreduce_recursive_doubling(s, c, sbuf, rbuf, count, dt, op);
    }
}

int dmpi_coll_allreduce(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                        dmpi_op_t *op, dmpi_request_t **req)
{
    const dmpi_coll_layout_t *L;
    DMPI_TRY(dmpi_coll_hier_layout(c, dmpi_params.coll_allreduce, op, &L));
    if (count * dt->size > DMPI_HIER_ALLREDUCE_MAX)
        L = NULL;
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, req ? "MPI_Iallreduce" : "MPI_Allreduce");
    int err = L ? dmpi_allreduce_hier(s, c, L, sbuf, rbuf, count, dt, op)
                : dmpi_coll_allreduce_build(s, c, sbuf, rbuf, count, dt, op);
    return dmpi_coll_finish(s, err, req);
}

/* Reduce_scatter and Reduce_scatter_block share the table and the names;
 * they decide by the whole vector. */
static int reduce_scatter(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, const MPI_Count *counts,
                          dmpi_dtype_t *dt, dmpi_op_t *op)
{
    size_t total = 0;
    for (int i = 0; i < c->size; i++)
        total += (size_t)counts[i];
    dmpi_coll_case_t k = dmpi_coll_case(c->size, total * dt->size, 0, op_holds(op));
    switch (dmpi_coll_choose(&dmpi_decide_reduce_scatter, &k)) {
    case DMPI_REDSCAT_RECURSIVE_HALVING: return dmpi_reduce_scatter_recursive_halving(s, c, sbuf, rbuf, counts, dt, op);
    case DMPI_REDSCAT_PAIRWISE: return dmpi_reduce_scatter_pairwise(s, c, sbuf, rbuf, counts, dt, op);
    default: return dmpi_reduce_scatter_reduce_scatterv(s, c, sbuf, rbuf, counts, dt, op);
    }
}

int dmpi_coll_reduce_scatter(dmpi_comm_t *c, const void *sbuf, void *rbuf, const MPI_Count *counts, dmpi_dtype_t *dt,
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
    MPI_Count *counts = dmpi_sched_tmp(s, (size_t)c->size * sizeof *counts);
    int err = counts ? MPI_SUCCESS : dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduce-scatter");
    for (int i = 0; counts && i < c->size; i++)
        counts[i] = (MPI_Count)count;
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

/* ---- the forced-algorithm parameters ------------------------------------ */

int dmpi_coll_check_params(void)
{
    dmpi_sched_message_max = (size_t)dmpi_params.coll_message_max;
    for (int i = 0; dmpi_coll_decisions[i]; i++) {
        const dmpi_coll_decision_t *a = dmpi_coll_decisions[i];
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
