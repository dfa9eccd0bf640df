/* The collective functions of one communicator. Chosen when the
 * communicator is made (dmpi_coll_comm_init): every component in turn may
 * claim it (a node-level shared-memory component will claim the
 * communicators whose ranks share a node), and a component's table keeps
 * the one it replaced as prev, for what it does not do itself (a datatype,
 * an op or a size it does not handle): as Open MPI's coll modules do.
 * The point-to-point schedules of select.c are the table every component
 * falls back to. The api layer calls c->coll->bcast(c, ...); req NULL runs
 * the collective to completion, otherwise *req is its request. */
#ifndef DMPI_COLL_TABLE_H
#define DMPI_COLL_TABLE_H

#include "core/dmpi.h"
#include "p2p/request.h"

struct dmpi_op;

typedef struct dmpi_coll_table {
    const char *name;
    const struct dmpi_coll_table *prev;
    int (*barrier)(dmpi_comm_t *c, dmpi_request_t **req);
    int (*bcast)(dmpi_comm_t *c, void *buf, size_t count, dmpi_dtype_t *dt, int root, dmpi_request_t **req);
    int (*reduce)(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                  struct dmpi_op *op, int root, dmpi_request_t **req);
    int (*allreduce)(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                     struct dmpi_op *op, dmpi_request_t **req);
    int (*reduce_scatter)(dmpi_comm_t *c, const void *sbuf, void *rbuf, const MPI_Count *counts, dmpi_dtype_t *dt,
                          struct dmpi_op *op, dmpi_request_t **req);
    int (*reduce_scatter_block)(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                                struct dmpi_op *op, dmpi_request_t **req);
    int (*scan)(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, struct dmpi_op *op,
                dmpi_request_t **req);
    int (*exscan)(dmpi_comm_t *c, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                  struct dmpi_op *op, dmpi_request_t **req);
    int (*gather)(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                  dmpi_dtype_t *rdt, int root, dmpi_request_t **req);
    int (*gatherv)(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                   const MPI_Count *rcounts, const MPI_Aint *displs, dmpi_dtype_t *rdt, int root, dmpi_request_t **req);
    int (*scatter)(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                   dmpi_dtype_t *rdt, int root, dmpi_request_t **req);
    int (*scatterv)(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
         dmpi_dtype_t *sdt, void *rbuf, size_t rcount, dmpi_dtype_t *rdt, int root, dmpi_request_t **req);
    int (*allgather)(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                     size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req);
    int (*allgatherv)(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                      const MPI_Count *rcounts, const MPI_Aint *displs, dmpi_dtype_t *rdt, dmpi_request_t **req);
    int (*alltoall)(dmpi_comm_t *c, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                    size_t rcount, dmpi_dtype_t *rdt, dmpi_request_t **req);
    int (*alltoallv)(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
         dmpi_dtype_t *sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls, dmpi_dtype_t *rdt,
         dmpi_request_t **req);
    int (*alltoallw)(dmpi_comm_t *c, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                     const MPI_Datatype *stypes, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                     const MPI_Datatype *rtypes, dmpi_request_t **req);
} dmpi_coll_table_t;

/* The point-to-point schedules (select.c): complete, the last fallback. */
extern const dmpi_coll_table_t dmpi_coll_p2p_table;
/* Every intercommunicator's (coll/inter.c): the two-group forms. */
extern const dmpi_coll_table_t dmpi_coll_inter_table;

/* A component: looks at a new communicator and returns its table if it
 * claims it (the table's prev is what it falls back to), or NULL. */
typedef const dmpi_coll_table_t *dmpi_coll_claim_fn(dmpi_comm_t *c, const dmpi_coll_table_t *below);

/* Called by the comm/ layer for every communicator it makes, before the
 * communicator is used. */
void dmpi_coll_comm_init(dmpi_comm_t *c);

/* The node-level shared-memory component (coll/node/). Its finalize frees
 * every communicator's shared area; it runs before the node segment goes. */
dmpi_coll_claim_fn dmpi_coll_node_claim;
void dmpi_coll_node_finalize(void);

#endif
