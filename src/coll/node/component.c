/* The node-level component (coll/table.h): claims every intracommunicator
 * of two or more ranks that all share this node. Each blocking call takes
 * the shared-memory path when its sizes fit (node_coll.h), else the table
 * below. Nonblocking calls take it when their data fit the slots
 * (nonblocking.c) and the area exists already; alltoallw always goes
 * below, and so does every collective whose point-to-point algorithm the
 * user forced (DMPI_COLL_<NAME>). The area is made on the first blocking
 * collective, whichever it is, so every rank makes it in the same call. */
#include "coll/node/node_coll.h"
#include "core/op.h"
#include "core/params.h"
#include "node/segment.h"
#include <stdlib.h>
#include <string.h>

static dmpi_coll_table_t node_table;
#define BELOW node_table.prev

/* The collectives, numbered for the posts' signatures. */
enum { K_BARRIER = 1, K_BCAST, K_REDUCE, K_ALLREDUCE, K_REDSCAT, K_REDSCAT_BLOCK, K_SCAN, K_EXSCAN, K_GATHER,
       K_SCATTER, K_ALLGATHER, K_ALLGATHERV, K_ALLTOALL, K_GATHERV, K_SCATTERV, K_ALLTOALLV };

/* The collectives whose point-to-point algorithm DMPI_COLL_<NAME> forces
 * (bit per K_*): the user asked for that algorithm, so this path steps
 * aside. The same on every rank (the environment is the job's). */
static uint32_t forced_kinds;

static void note_forced(void)
{
    static const struct { const char *value; uint32_t kinds; } f[] = {
        {dmpi_params.coll_barrier, 1u << K_BARRIER},
        {dmpi_params.coll_bcast, 1u << K_BCAST},
        {dmpi_params.coll_reduce, 1u << K_REDUCE},
        {dmpi_params.coll_allreduce, 1u << K_ALLREDUCE},
        {dmpi_params.coll_gather, 1u << K_GATHER},
        {dmpi_params.coll_scatter, 1u << K_SCATTER},
        {dmpi_params.coll_allgather, 1u << K_ALLGATHER | 1u << K_ALLGATHERV},
        {dmpi_params.coll_alltoall, 1u << K_ALLTOALL},
        {dmpi_params.coll_alltoallv, 1u << K_ALLTOALLV},
        {dmpi_params.coll_reduce_scatter, 1u << K_REDSCAT | 1u << K_REDSCAT_BLOCK},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (strcmp(f[i].value, "auto") != 0)
            forced_kinds |= f[i].kinds;
}

/* The state with its area ready (for a nonblocking call, its nonblocking
 * channel), or NULL (then the table below serves). Only a blocking call
 * (req NULL) makes the area. */
static nc_state_t *ready(dmpi_comm_t *c, const char *call, unsigned kind, dmpi_request_t **req)
{
    if (DMPI_UNLIKELY(forced_kinds & 1u << kind))
        return NULL;
    nc_state_t *s = nc_state_of(c, BELOW);
    if (DMPI_UNLIKELY(!s || s->status != NC_READY)) {
        if (req || !s || s->status == NC_OFF || nc_setup(s) != MPI_SUCCESS || s->status != NC_READY)
            return NULL;
    }
    if (req)
        s = s->nbs;                  /* nonblocking calls have a channel of their own */
    s->call = call;
    s->kind = kind;
    return s;
}

/* Where the point-to-point schedules beat single copy here: their
 * rendezvous has both ranks copy half of each message at once, while a
 * node-level gather or scatter has one rank copy every block. Measured at
 * 2 ranks, interleaved, with changing buffers (bench/coll.c), in both
 * speed states of this machine: gather from 64 KiB (7.4 against 8.4 us;
 * 1 MiB 66 against 100; in the slow state equal), scatter from 1 MiB a
 * block (64 against 81; slow state equal). Large reductions changed sides
 * with the machine's state (1 MiB reduce 118 against 129-183 us, then 535
 * against 439), so they stay here. Bytes: what pick_mode is asked about. */
static const struct { unsigned kind; size_t from; } p2p_wins[] = {
    {K_GATHER, 64 << 10},
    {K_SCATTER, 2 << 20},
};

/* How a call whose contribution is `bytes` moves (node_coll.h), NC_NONE for
 * the table below: by address only where the point-to-point schedules do
 * not win, and never for a nonblocking call (req not NULL). */
static int pick_mode(const nc_state_t *s, size_t bytes, dmpi_request_t **req)
{
    int mode = nc_mode(s, bytes);
    if (mode != NC_CMA)
        return mode;
    for (size_t i = 0; i < sizeof p2p_wins / sizeof p2p_wins[0]; i++)
        if (p2p_wins[i].kind == s->kind && bytes >= p2p_wins[i].from)
            return NC_NONE;
    return req ? NC_NONE : mode;
}

/* Blocking calls above the copy limit where single copy is denied go
 * through the slots in pieces (pieces.c); the point-to-point copy path
 * hands every cell from one rank to another, which costs a time slice
 * each when they share a core. Bytes: what pick_mode is asked about. */
static bool copy_pieces(const nc_state_t *s, size_t bytes, dmpi_request_t **req)
{
    return !req && nc_mode(s, bytes) == NC_NONE;
}

static int node_barrier(dmpi_comm_t *c, dmpi_request_t **req)
{
    nc_state_t *s;
    if (!(s = ready(c, "MPI_Barrier", K_BARRIER, req)))
        return BELOW->barrier(c, req);
    if (req)
        return nc_start(s, &(nc_nb_args_t){.kind = NB_BARRIER}, req);
    return nc_barrier(s);
}

static int node_bcast(dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root, dmpi_request_t **req)
{
    nc_state_t *s;
    int mode;
    if (!(s = ready(c, "MPI_Bcast", K_BCAST, req)))
        return BELOW->bcast(c, buf, count, dt, root, req);
    if (copy_pieces(s, count * dt->size, req))
        return nc_bcast_pieces(s, buf, count, dt, root);
    if ((mode = pick_mode(s, count * dt->size, req)) == NC_NONE)
        return BELOW->bcast(c, buf, count, dt, root, req);
    if (req)
        return nc_start(s, &(nc_nb_args_t){.kind = NB_BCAST, .mode = mode, .root = root, .rbuf = buf, .rcount = count,
                                           .bytes = count * dt->size, .rdt = dt}, req);
    return nc_bcast(s, buf, count, dt, root, mode);
}

/* Reductions run on the packed data with the user's type, so the type
 * must be contiguous (it is the same on every rank). */
static int red_mode(nc_state_t *s, size_t count, const dmpi_dtype_t *dt, dmpi_request_t **req)
{
    return dt->contig ? pick_mode(s, count * dt->size, req) : NC_NONE;
}

/* Reduce, scan and exscan above the copy limit: at two ranks one vector
 * crosses by single copy, half on each core (pair.c: 0.5-0.7 of the
 * chain's time from 64 KiB to 1 MiB); otherwise, or where single copy is
 * denied, chains of pieces through the slots (chain.c). */
static int chain_mode(nc_state_t *s, size_t count, const dmpi_dtype_t *dt, dmpi_request_t **req)
{
    if (!dt->contig || count * dt->size <= s->copy)
        return red_mode(s, count, dt, req);
    if (req)
        return NC_NONE;
    if (s->n == 2 && s->cma_all)
        return NC_PAIR;
    return NC_CHAIN;
}

/* A reduce, scan or exscan whose chain_mode is NC_PAIR or NC_CHAIN. */
static bool large(int mode) { return mode == NC_PAIR || mode == NC_CHAIN; }

static int large_reduction(nc_state_t *s, int mode, int what, const void *sbuf, void *rbuf, size_t count,
                           dmpi_dtype_t *dt, dmpi_op_t *op, int root)
{
    return mode == NC_PAIR ? nc_pair_reduce(s, what, sbuf, rbuf, count, dt, op, root)
                           : nc_reduce_pieces(s, what, sbuf, rbuf, count, dt, op, root);
}

static int node_reduce(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                       int root, dmpi_request_t **req)
{
    nc_state_t *s;
    int mode;
    if (!(s = ready(c, "MPI_Reduce", K_REDUCE, req)) || (mode = chain_mode(s, count, dt, req)) == NC_NONE)
        return BELOW->reduce(c, sbuf, rbuf, count, dt, op, root, req);
    if (req)
        return nc_start(s, &(nc_nb_args_t){.kind = NB_REDUCE, .mode = mode, .root = root, .sbuf = sbuf, .rbuf = rbuf,
                                           .rcount = count, .bytes = count * dt->size, .rdt = dt, .op = op}, req);
    if (large(mode))
        return large_reduction(s, mode, NC_RED_REDUCE, sbuf, rbuf, count, dt, op, root);
    return nc_reduce(s, sbuf, rbuf, count, dt, op, root, mode);
}

static int node_allreduce(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                          dmpi_op_t *op, dmpi_request_t **req)
{
    nc_state_t *s;
    int mode;
    if (!(s = ready(c, "MPI_Allreduce", K_ALLREDUCE, req)))
        return BELOW->allreduce(c, sbuf, rbuf, count, dt, op, req);
    if (dt->contig && copy_pieces(s, count * dt->size, req))
        return nc_allreduce_pieces(s, sbuf, rbuf, count, dt, op);
    if ((mode = red_mode(s, count, dt, req)) == NC_NONE)
        return BELOW->allreduce(c, sbuf, rbuf, count, dt, op, req);
    if (req)
        return nc_start(s, &(nc_nb_args_t){.kind = NB_REDUCE, .mode = mode, .root = -1, .sbuf = sbuf, .rbuf = rbuf,
                                           .rcount = count, .bytes = count * dt->size, .rdt = dt, .op = op}, req);
    return nc_allreduce(s, sbuf, rbuf, count, dt, op, mode);
}

static int node_reduce_scatter(dmpi_comm_t *c, const void *sbuf, void *rbuf, const MPI_Count *counts,
                               dmpi_dtype_t *dt, dmpi_op_t *op, dmpi_request_t **req)
{
    nc_state_t *s;
    int mode = NC_NONE;
    size_t total = 0;
    if (!req && (s = ready(c, "MPI_Reduce_scatter", K_REDSCAT, req))) {
        for (int r = 0; r < s->n; r++)
            total += (size_t)(s->cnt[r] = (size_t)counts[r]);
        mode = red_mode(s, total, dt, req);
    }
    if (mode == NC_NONE)
        return BELOW->reduce_scatter(c, sbuf, rbuf, counts, dt, op, req);
    return nc_reduce_scatter(s, sbuf, rbuf, s->cnt, total, dt, op, mode);
}

static int node_reduce_scatter_block(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                                     dmpi_op_t *op, dmpi_request_t **req)
{
    nc_state_t *s;
    int mode;
    if (req || !(s = ready(c, "MPI_Reduce_scatter_block", K_REDSCAT_BLOCK, req)) ||
        (mode = red_mode(s, count * (size_t)c->size, dt, req)) == NC_NONE)
        return BELOW->reduce_scatter_block(c, sbuf, rbuf, count, dt, op, req);
    for (int r = 0; r < s->n; r++)
        s->cnt[r] = count;
    return nc_reduce_scatter(s, sbuf, rbuf, s->cnt, count * (size_t)s->n, dt, op, mode);
}

static int node_scan(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                     dmpi_request_t **req)
{
    nc_state_t *s;
    int mode;
    if (req || !(s = ready(c, "MPI_Scan", K_SCAN, req)) || (mode = chain_mode(s, count, dt, req)) == NC_NONE)
        return BELOW->scan(c, sbuf, rbuf, count, dt, op, req);
    if (large(mode))
        return large_reduction(s, mode, NC_RED_SCAN, sbuf, rbuf, count, dt, op, -1);
    return nc_scan(s, sbuf, rbuf, count, dt, op, mode, false);
}

static int node_exscan(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                       dmpi_request_t **req)
{
    nc_state_t *s;
    int mode;
    if (req || !(s = ready(c, "MPI_Exscan", K_EXSCAN, req)) || (mode = chain_mode(s, count, dt, req)) == NC_NONE)
        return BELOW->exscan(c, sbuf, rbuf, count, dt, op, req);
    if (large(mode))
        return large_reduction(s, mode, NC_RED_EXSCAN, sbuf, rbuf, count, dt, op, -1);
    return nc_scan(s, sbuf, rbuf, count, dt, op, mode, true);
}

/* The block size every rank sees alike: the root's receive signature, the
 * others' send signature. */
static size_t rooted_block(const dmpi_comm_t *c, int root, size_t scount, const dmpi_dtype_t *sdt, size_t rcount,
                           const dmpi_dtype_t *rdt, bool gather)
{
    bool mine_is_recv = gather ? c->rank == root : c->rank != root;
    return mine_is_recv ? rcount * rdt->size : scount * sdt->size;
}

static int node_gather(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                       size_t rcount, dmpi_dtype_t *rdt, int root, dmpi_request_t **req)
{
    nc_state_t *s;
    size_t b = rooted_block(c, root, scount, sdt, rcount, rdt, true);
    int mode;
    if (!(s = ready(c, "MPI_Gather", K_GATHER, req)))
        return BELOW->gather(c, sbuf, scount, sdt, rbuf, rcount, rdt, root, req);
    if (copy_pieces(s, b, req))
        return nc_gather_pieces(s, sbuf, scount, sdt, rbuf, rcount, rdt, root, false);
    if ((mode = pick_mode(s, b, req)) == NC_NONE)
        return BELOW->gather(c, sbuf, scount, sdt, rbuf, rcount, rdt, root, req);
    if (req) {
        bool own = c->rank == root && sbuf != MPI_IN_PLACE;
        return nc_start(s, &(nc_nb_args_t){.kind = NB_GATHER, .mode = mode, .root = root, .sbuf = sbuf, .rbuf = rbuf,
                                           .scount = scount, .rcount = rcount, .sdt = sdt, .rdt = rdt,
                                           .bytes = b,
                                           .local_copy = own, .lsrc = sbuf, .lscount = scount, .lsdt = sdt,
                                           .ldst = own ? nc_block(rbuf, (size_t)root, rcount, rdt) : NULL, .ldcount = rcount,
                                           .lddt = rdt}, req);
    }
    return nc_gather(s, sbuf, scount, sdt, rbuf, rcount, rdt, root, mode);
}

static int node_scatter(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                        size_t rcount, dmpi_dtype_t *rdt, int root, dmpi_request_t **req)
{
    nc_state_t *s;
    size_t b = rooted_block(c, root, scount, sdt, rcount, rdt, false);
    int mode;
    if (!(s = ready(c, "MPI_Scatter", K_SCATTER, req)))
        return BELOW->scatter(c, sbuf, scount, sdt, rbuf, rcount, rdt, root, req);
    if (copy_pieces(s, (size_t)c->size * b, req))
        return nc_scatter_pieces(s, sbuf, scount, sdt, rbuf, rcount, rdt, root, false);
    if ((mode = pick_mode(s, (size_t)c->size * b, req)) == NC_NONE)
        return BELOW->scatter(c, sbuf, scount, sdt, rbuf, rcount, rdt, root, req);
    if (req) {
        bool own = c->rank == root && rbuf != MPI_IN_PLACE;
        return nc_start(s, &(nc_nb_args_t){.kind = NB_SCATTER, .mode = mode, .root = root, .sbuf = sbuf, .rbuf = rbuf,
                                           .scount = scount, .rcount = rcount, .sdt = sdt, .rdt = rdt,
                                           .bytes = b,
                                           .local_copy = own, .lsrc = own ? nc_block(sbuf, (size_t)root, scount, sdt) : NULL,
                                           .lscount = scount, .lsdt = sdt, .ldst = rbuf, .ldcount = rcount,
                                           .lddt = rdt}, req);
    }
    return nc_scatter(s, sbuf, scount, sdt, rbuf, rcount, rdt, root, mode);
}

static int node_gatherv(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                        const MPI_Count *rcounts, const MPI_Aint *displs, dmpi_dtype_t *rdt, int root,
                        dmpi_request_t **req)
{
    nc_state_t *s;
    int err = NC_BELOW;
    if (!req && (s = ready(c, "MPI_Gatherv", K_GATHERV, req)))
        err = nc_gatherv(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root);
    return err != NC_BELOW ? err : BELOW->gatherv(c, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, req);
}

static int node_scatterv(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                         dmpi_dtype_t *sdt, void *rbuf, size_t rcount, dmpi_dtype_t *rdt, int root,
                         dmpi_request_t **req)
{
    nc_state_t *s;
    int err = NC_BELOW;
    if (!req && (s = ready(c, "MPI_Scatterv", K_SCATTERV, req)))
        err = nc_scatterv(s, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root);
    return err != NC_BELOW ? err : BELOW->scatterv(c, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, req);
}

static int node_allgather(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                          size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    nc_state_t *s;
    int mode;
    if (!(s = ready(c, "MPI_Allgather", K_ALLGATHER, req)))
        return BELOW->allgather(c, sbuf, scount, sdt, rbuf, rcount, rdt, req);
    if (copy_pieces(s, rcount * rdt->size, req))
        return nc_gather_pieces(s, sbuf, scount, sdt, rbuf, rcount, rdt, -1, true);
    if ((mode = pick_mode(s, rcount * rdt->size, req)) == NC_NONE)
        return BELOW->allgather(c, sbuf, scount, sdt, rbuf, rcount, rdt, req);
    if (req)
        return nc_start(s, &(nc_nb_args_t){.kind = NB_ALLGATHER, .mode = mode, .sbuf = sbuf, .rbuf = rbuf,
                                           .scount = scount, .rcount = rcount, .sdt = sdt, .rdt = rdt,
                                           .bytes = rcount * rdt->size, .local_copy = sbuf != MPI_IN_PLACE,
                                           .lsrc = sbuf, .lscount = scount, .lsdt = sdt,
                                           .ldst = nc_block(rbuf, (size_t)c->rank, rcount, rdt), .ldcount = rcount,
                                           .lddt = rdt}, req);
    for (int r = 0; r < s->n; r++) {
        s->cnt[r] = rcount;
        s->dsp[r] = (size_t)r * rcount;
    }
    return nc_allgatherv(s, sbuf, scount, sdt, rbuf, s->cnt, s->dsp, rdt, mode);
}

static int node_allgatherv(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                           const MPI_Count *rcounts, const MPI_Aint *displs, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    nc_state_t *s;
    int mode = NC_NONE;
    if (!req && (s = ready(c, "MPI_Allgatherv", K_ALLGATHERV, req))) {
        size_t most = 0;
        bool ok = true;
        for (int r = 0; r < s->n; r++) {
            s->cnt[r] = (size_t)rcounts[r];
            s->dsp[r] = (size_t)displs[r];
            most = s->cnt[r] > most ? s->cnt[r] : most;
            ok &= displs[r] >= 0;     /* negative displacements: below */
        }
        mode = ok ? pick_mode(s, most * rdt->size, req) : NC_NONE;
    }
    if (mode == NC_NONE)
        return BELOW->allgatherv(c, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, req);
    return nc_allgatherv(s, sbuf, scount, sdt, rbuf, s->cnt, s->dsp, rdt, mode);
}

/* Only where every rank may read every other's memory: a rank cannot know
 * whether the others' exposures fit their slots. In place too. */
static int node_alltoallv(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                          dmpi_dtype_t *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                          dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    nc_state_t *s;
    if (req || !(s = ready(c, "MPI_Alltoallv", K_ALLTOALLV, req)) || !s->cma_all)
        return BELOW->alltoallv(c, sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, req);
    return nc_alltoallv(s, sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt);
}

static int node_alltoall(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                         size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    nc_state_t *s;
    int mode;
    if (!(s = ready(c, "MPI_Alltoall", K_ALLTOALL, req)))
        return BELOW->alltoall(c, sbuf, scount, sdt, rbuf, rcount, rdt, req);
    if (copy_pieces(s, (size_t)c->size * rcount * rdt->size, req))
        return nc_scatter_pieces(s, sbuf, scount, sdt, rbuf, rcount, rdt, -1, true);
    if ((mode = pick_mode(s, (size_t)c->size * rcount * rdt->size, req)) == NC_NONE)
        return BELOW->alltoall(c, sbuf, scount, sdt, rbuf, rcount, rdt, req);
    if (req)
        return nc_start(s, &(nc_nb_args_t){.kind = NB_ALLTOALL, .mode = mode, .sbuf = sbuf, .rbuf = rbuf,
                                           .scount = scount, .rcount = rcount, .sdt = sdt, .rdt = rdt,
                                           .bytes = rcount * rdt->size, .local_copy = sbuf != MPI_IN_PLACE,
                                           .lsrc = sbuf != MPI_IN_PLACE ? nc_block(sbuf, (size_t)c->rank, scount, sdt) : NULL,
                                           .lscount = scount, .lsdt = sdt,
                                           .ldst = nc_block(rbuf, (size_t)c->rank, rcount, rdt), .ldcount = rcount,
                                           .lddt = rdt}, req);
    return nc_alltoall(s, sbuf, scount, sdt, rbuf, rcount, rdt, mode);
}

static bool all_on_node(const dmpi_comm_t *c)
{
    for (int r = 0; r < c->size; r++)
        if (dmpi_world.local_of_world[dmpi_comm_world_rank(c, r)] < 0)
            return false;
    return true;
}

const dmpi_coll_table_t *dmpi_coll_node_claim(dmpi_comm_t *c, const dmpi_coll_table_t *below)
{
    if (!dmpi_params.coll_node || !dmpi_node_seg || dmpi_comm_is_inter(c) || c->size < 2 || !all_on_node(c))
        return NULL;
    if (!node_table.name) {
        note_forced();
        node_table = (dmpi_coll_table_t){
            .name = "node",
            .prev = below,
            .barrier = node_barrier,
            .bcast = node_bcast,
            .reduce = node_reduce,
            .allreduce = node_allreduce,
            .reduce_scatter = node_reduce_scatter,
            .reduce_scatter_block = node_reduce_scatter_block,
            .scan = node_scan,
            .exscan = node_exscan,
            .gather = node_gather,
            .gatherv = node_gatherv,
            .scatter = node_scatter,
            .scatterv = node_scatterv,
            .allgather = node_allgather,
            .allgatherv = node_allgatherv,
            .alltoall = node_alltoall,
            .alltoallv = node_alltoallv,
            .alltoallw = below->alltoallw,
        };
        dmpi_comm_coll_free_hook = nc_free;
    }
    return &node_table;
}
