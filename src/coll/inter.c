/* The collective table of intercommunicators (coll/table.c gives it to
 * every one): each entry builds the schedule of its algorithm
 * (coll/inter.h; one each, nothing to decide between the groups) and runs
 * it, or starts it as *req. */
#include "coll/inter.h"
#include "coll/select.h"
#include "coll/table.h"
#include "core/op.h"

/* A schedule named for the call, blocking or not. */
static int begin(dmpi_comm_t *c, const char *blocking, const char *nonblocking, dmpi_request_t **req,
                 dmpi_sched_t **s)
{
    DMPI_TRY(dmpi_sched_new(c, s));
    dmpi_sched_set_name(*s, req ? nonblocking : blocking);
    return MPI_SUCCESS;
}

static int barrier(dmpi_comm_t *c, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Barrier", "MPI_Ibarrier", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_barrier(s, c), req);
}

static int bcast(dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Bcast", "MPI_Ibcast", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_bcast(s, c, buf, count, dt, root), req);
}

static int reduce(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                  int root, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Reduce", "MPI_Ireduce", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_reduce(s, c, sbuf, rbuf, count, dt, op, root), req);
}

static int allreduce(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                     dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Allreduce", "MPI_Iallreduce", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_allreduce(s, c, sbuf, rbuf, count, dt, op), req);
}

static int reduce_scatter(dmpi_comm_t *c, const void *sbuf, void *rbuf, const MPI_Count *counts, dmpi_dtype_t *dt,
                          dmpi_op_t *op, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Reduce_scatter", "MPI_Ireduce_scatter", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_reduce_scatter(s, c, sbuf, rbuf, counts, dt, op), req);
}

static int reduce_scatter_block(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                                dmpi_op_t *op, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Reduce_scatter_block", "MPI_Ireduce_scatter_block", req, &s));
    MPI_Count *counts = dmpi_sched_tmp(s, (size_t)c->size * sizeof *counts);
    int err = counts ? MPI_SUCCESS : dmpi_err(MPI_ERR_NO_MEM, "out of memory for a reduce-scatter");
    for (int i = 0; counts && i < c->size; i++)
        counts[i] = (MPI_Count)count;
    if (err == MPI_SUCCESS)
        err = dmpi_inter_reduce_scatter(s, c, sbuf, rbuf, counts, dt, op);
    return dmpi_coll_finish(s, err, req);
}

/* The api layer refuses scans on intercommunicators first; these only
 * keep the table complete. */
static int no_scan(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op,
                   dmpi_request_t **req)
{
    (void)c, (void)sbuf, (void)rbuf, (void)count, (void)dt, (void)op, (void)req;
    return dmpi_err(MPI_ERR_COMM, "scans are not defined on intercommunicators");
}

static int gather(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                  dmpi_dtype_t *rdt, int root, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt,
                     .root = root};
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Gather", "MPI_Igather", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_gather(s, c, &m), req);
}

static int gatherv(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                   const MPI_Count *rcounts, const MPI_Aint *displs, dmpi_dtype_t *rdt, int root, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcounts = rcounts,
                     .rdispls = displs, .rdt = rdt, .root = root};
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Gatherv", "MPI_Igatherv", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_gather(s, c, &m), req);
}

static int scatter(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                   dmpi_dtype_t *rdt, int root, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt,
                     .root = root};
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Scatter", "MPI_Iscatter", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_scatter(s, c, &m), req);
}

static int scatterv(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                    dmpi_dtype_t *sdt, void *rbuf, size_t rcount, dmpi_dtype_t *rdt, int root, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scounts = scounts, .sdispls = displs, .sdt = sdt, .rbuf = rbuf,
                     .rcount = rcount, .rdt = rdt, .root = root};
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Scatterv", "MPI_Iscatterv", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_scatter(s, c, &m), req);
}

static int allgather(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                     size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Allgather", "MPI_Iallgather", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_allgather(s, c, &m), req);
}

static int allgatherv(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                      const MPI_Count *rcounts, const MPI_Aint *displs, dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcounts = rcounts,
                     .rdispls = displs, .rdt = rdt};
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Allgatherv", "MPI_Iallgatherv", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_allgather(s, c, &m), req);
}

static int alltoall(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                    dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Alltoall", "MPI_Ialltoall", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_alltoall(s, c, &m), req);
}

static int alltoallv(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                     dmpi_dtype_t *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                     dmpi_dtype_t *rdt, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scounts = scounts, .sdispls = sdispls, .sdt = sdt,
                     .rbuf = rbuf, .rcounts = rcounts, .rdispls = rdispls, .rdt = rdt};
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Alltoallv", "MPI_Ialltoallv", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_alltoall(s, c, &m), req);
}

static int alltoallw(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                     const MPI_Datatype *stypes, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                     const MPI_Datatype *rtypes, dmpi_request_t **req)
{
    dmpi_move_t m = {.sbuf = sbuf, .scounts = scounts, .sdispls = sdispls, .stypes = stypes,
                     .rbuf = rbuf, .rcounts = rcounts, .rdispls = rdispls, .rtypes = rtypes};
    dmpi_sched_t *s;
    DMPI_TRY(begin(c, "MPI_Alltoallw", "MPI_Ialltoallw", req, &s));
    return dmpi_coll_finish(s, dmpi_inter_alltoall(s, c, &m), req);
}

const dmpi_coll_table_t dmpi_coll_inter_table = {
    .name = "inter",
    .prev = NULL,
    .barrier = barrier,
    .bcast = bcast,
    .reduce = reduce,
    .allreduce = allreduce,
    .reduce_scatter = reduce_scatter,
    .reduce_scatter_block = reduce_scatter_block,
    .scan = no_scan,
    .exscan = no_scan,
    .gather = gather,
    .gatherv = gatherv,
    .scatter = scatter,
    .scatterv = scatterv,
    .allgather = allgather,
    .allgatherv = allgatherv,
    .alltoall = alltoall,
    .alltoallv = alltoallv,
    .alltoallw = alltoallw,
};
