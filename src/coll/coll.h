/* Collective operations. Each communicator will carry a table of collective
 * functions chosen by select.c; algorithms live one per file in algo/. */
#ifndef DMPI_COLL_H
#define DMPI_COLL_H

#include "core/dmpi.h"

/* Tags of the library's own collective traffic, on a communicator's
 * collective context. Negative, so that they never meet the user's tag of
 * MPI_Comm_create_group, which travels there too. (-1 is MPI_ANY_TAG.)
 * Fixed tags take -2 .. -15; schedules (coll/sched.c) take one each from
 * DMPI_TAG_SCHED_FIRST down, so the two never meet. Partitioned point-to-point
 * takes -0x0f000000 and everything below -0x10000000 (p2p/part.h). */
enum {
    DMPI_TAG_CTXID = -3,         /* the two leaders of an intercommunicator construction */
    DMPI_TAG_SCHED_FIRST = -16,
    /* schedules take two spans of DMPI_TAG_SPAN below it (blocking, nonblocking);
     * the rounds of MPI_Comm_idup's agreements the span after them */
    DMPI_TAG_SPAN = 0x100000,
    DMPI_TAG_IDUP_FIRST = DMPI_TAG_SCHED_FIRST - 2 * DMPI_TAG_SPAN,
    /* an intercommunicator collective's steps on its local group: the
     * schedule's tag moved past the idup span, into two spans of their own */
    DMPI_TAG_INTER_SHIFT = 3 * DMPI_TAG_SPAN,
};

/* The same communicator, addressed on its collective context; its
 * references count on the communicator it views. */
static inline dmpi_comm_t dmpi_coll_view(const dmpi_comm_t *c)
{
    dmpi_comm_t v = *c;
    v.ctx = c->ctx + 1;
    v.seq_out = c->seq_out ? c->seq_out + c->peer_size : NULL;
    return v;
}

/* MPI_Finalize's barrier: MPI_Barrier on c. */
int dmpi_coll_barrier(dmpi_comm_t *c);

/* Broadcast and reductions */
#include "coll/sched.h"
struct dmpi_op;

/* Entry points (select.c): the schedule of the algorithm chosen, run at
 * once (req NULL) or started as *req. sbuf may be MPI_IN_PLACE where the
 * standard allows it; counts[] of reduce_scatter has one entry per rank. */
int dmpi_coll_bcast(dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root, dmpi_request_t **req);
int dmpi_coll_reduce(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                     struct dmpi_op *op, int root, dmpi_request_t **req);
int dmpi_coll_allreduce(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                        struct dmpi_op *op, dmpi_request_t **req);
int dmpi_coll_reduce_scatter(dmpi_comm_t *c, const void *sbuf, void *rbuf, const MPI_Count *counts, dmpi_dtype_t *dt,
                             struct dmpi_op *op, dmpi_request_t **req);
int dmpi_coll_reduce_scatter_block(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                                   struct dmpi_op *op, dmpi_request_t **req);
int dmpi_coll_scan(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                   struct dmpi_op *op, dmpi_request_t **req);
int dmpi_coll_exscan(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                     struct dmpi_op *op, dmpi_request_t **req);

/* Algorithms: each adds its rounds to s (ending its last one); they work
 * for every size, count 0, any root, MPI_IN_PLACE and any datatype. */
int dmpi_bcast_binomial(dmpi_sched_t *s, dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root);
int dmpi_bcast_scatter_allgather(dmpi_sched_t *s, dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt,
                                 int root);
int dmpi_reduce_binomial(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                         dmpi_dtype_t *dt, struct dmpi_op *op, int root);
int dmpi_reduce_scatter_gather(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                               dmpi_dtype_t *dt, struct dmpi_op *op, int root);     /* commutative op */
int dmpi_allreduce_recursive_doubling(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf,
                                      size_t count, dmpi_dtype_t *dt, struct dmpi_op *op);
int dmpi_allreduce_reduce_scatter_allgather(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf,
                                            size_t count, dmpi_dtype_t *dt, struct dmpi_op *op);  /* commutative */
int dmpi_allreduce_ring(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                        dmpi_dtype_t *dt, struct dmpi_op *op);                      /* commutative op */
int dmpi_reduce_scatter_recursive_halving(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf,
                                          const MPI_Count *counts, dmpi_dtype_t *dt, struct dmpi_op *op);  /* comm. */
int dmpi_reduce_scatter_pairwise(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf,
                                 const MPI_Count *counts, dmpi_dtype_t *dt, struct dmpi_op *op);  /* commutative */
int dmpi_reduce_scatter_reduce_scatterv(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf,
                                        const MPI_Count *counts, dmpi_dtype_t *dt, struct dmpi_op *op);
int dmpi_scan_recursive_doubling(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                                 dmpi_dtype_t *dt, struct dmpi_op *op);
int dmpi_exscan_recursive_doubling(dmpi_sched_t *s, dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                                   dmpi_dtype_t *dt, struct dmpi_op *op);

/* Pieces the reduction algorithms share (algo/reduce_common.c). */
#define DMPI_TRY(call)                 \
    do {                               \
        int dmpi_try_err_ = (call);    \
        if (dmpi_try_err_)             \
            return dmpi_try_err_;      \
    } while (0)
/* Scratch space for count elements of dt, laid out as a user buffer (the
 * pointer is displaced by the type's lower bounds); NULL: out of memory. */
void *dmpi_coll_tmpbuf(dmpi_sched_t *s, size_t count, const dmpi_dtype_t *dt);
static inline void *dmpi_coll_at(const void *buf, size_t i, const dmpi_dtype_t *dt)
{
    return (char *)buf + (MPI_Aint)i * dt->extent;
}
/* Non-power-of-two sizes, as MPICH folds them: of the first 2*rem ranks
 * (rem = size - pof2) the even ones hand their data to rank + 1 and sit
 * out (newrank -1); the others are newranks 0 .. pof2-1 in rank order. */
typedef struct dmpi_fold {
    int pof2, rem, newrank;
} dmpi_fold_t;
dmpi_fold_t dmpi_fold(int rank, int size);
int dmpi_fold_rank(const dmpi_fold_t *f, int newrank);
/* Recursive halving among the newranks of f: afterwards newrank j holds
 * elements [bdisp[j], bdisp[j+1]) of acc reduced over all ranks (tmp:
 * scratch as large as acc). Commutative ops only. */
int dmpi_halving_reduce_scatter(dmpi_sched_t *s, const dmpi_fold_t *f, void *acc, void *tmp, const size_t *bdisp,
                                dmpi_dtype_t *dt, struct dmpi_op *op);
/* The reverse, recursive doubling: every newrank ends with all of acc. */
int dmpi_doubling_allgather(dmpi_sched_t *s, const dmpi_fold_t *f, void *acc, const size_t *bdisp,
                            dmpi_dtype_t *dt);
/* count elements split into n nearly equal blocks: bdisp[0..n] (scratch of s). */
size_t *dmpi_coll_blocks(dmpi_sched_t *s, size_t count, int n);

/* Barrier and data movement */
#include "coll/sched.h"

/* Entry points (select.c), called by the api layer with checked arguments.
 * req NULL: the collective runs to completion; otherwise *req is its
 * request. sbuf (rbuf for scatter) is MPI_IN_PLACE where the standard allows it. */
int dmpi_coll_ibarrier(dmpi_comm_t *c, dmpi_request_t **req);
int dmpi_coll_gather(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                     size_t rcount, dmpi_dtype_t *rdt, int root, dmpi_request_t **req);
int dmpi_coll_gatherv(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                      const MPI_Count *rcounts, const MPI_Aint *displs, dmpi_dtype_t *rdt, int root,
                      dmpi_request_t **req);
int dmpi_coll_scatter(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                      size_t rcount, dmpi_dtype_t *rdt, int root, dmpi_request_t **req);
int dmpi_coll_scatterv(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                       dmpi_dtype_t *sdt, void *rbuf, size_t rcount, dmpi_dtype_t *rdt, int root,
                       dmpi_request_t **req);
int dmpi_coll_allgather(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                        size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req);
int dmpi_coll_allgatherv(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                         const MPI_Count *rcounts, const MPI_Aint *displs, dmpi_dtype_t *rdt, dmpi_request_t **req);
int dmpi_coll_alltoall(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                       size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req);
int dmpi_coll_alltoallv(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                        dmpi_dtype_t *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                        dmpi_dtype_t *rdt, dmpi_request_t **req);
int dmpi_coll_alltoallw(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                        const MPI_Datatype *stypes, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                        const MPI_Datatype *rtypes, dmpi_request_t **req);

/* The arguments of one data-movement collective, as its algorithms take
 * them. Rank j's block: uniform collectives, count elements at j * count *
 * extent; v forms, counts[j] elements at displs[j] * extent; the w form,
 * counts[j] elements of types[j] at displs[j] bytes; packed (in-place
 * alltoall*), bytes [off[j], off[j + 1]) of the buffer. */
typedef struct dmpi_move {
    const void *sbuf;
    size_t scount;
    dmpi_dtype_t *sdt;
    const MPI_Count *scounts;
    const MPI_Aint *sdispls;
    const MPI_Datatype *stypes;
    const size_t *soff;
    void *rbuf;
    size_t rcount;
    dmpi_dtype_t *rdt;
    const MPI_Count *rcounts;
    const MPI_Aint *rdispls;
    const MPI_Datatype *rtypes;
    int root;
    bool inplace;                /* own block already in place: no local copy */
} dmpi_move_t;

/* buf + elems * extent of dt (buf may be MPI_BOTTOM). */
static inline void *dmpi_move_at(const void *buf, size_t elems, const dmpi_dtype_t *dt)
{
    return (void *)((uintptr_t)buf + (uintptr_t)((MPI_Aint)elems * dt->extent));
}
/* Rank j's send (receive) block: address, count and type; returns its bytes. */
size_t dmpi_move_sblock(const dmpi_move_t *m, int j, const void **buf, size_t *count, dmpi_dtype_t **dt);
size_t dmpi_move_rblock(const dmpi_move_t *m, int j, void **buf, size_t *count, dmpi_dtype_t **dt);
/* In-place alltoall(v/w): a first round packs the receive blocks of the
 * other ranks into scratch memory, and m then sends from there. */
int dmpi_move_pack_inplace(dmpi_sched_t *s, dmpi_comm_t *c, dmpi_move_t *m);
/* Alltoall family: adds the copy of this rank's block to itself, unless in place. */
int dmpi_move_self_copy(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);

/* Algorithms: each adds its steps to s. */
int dmpi_barrier_dissemination(dmpi_sched_t *s, dmpi_comm_t *c);
int dmpi_gather_binomial(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_gather_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_gatherv_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_scatter_binomial(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_scatter_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_scatterv_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_allgather_recursive_doubling(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_allgather_bruck(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_allgather_ring(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_allgatherv_recursive_doubling(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_allgatherv_ring(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_alltoall_bruck(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
/* These three serve alltoall, alltoallv and alltoallw, and interoperate:
 * one message per direction per nonempty pair, whichever each rank runs. */
int dmpi_alltoallv_pairwise(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_alltoallv_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m);
int dmpi_alltoallv_throttled(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m, int window);

#endif
