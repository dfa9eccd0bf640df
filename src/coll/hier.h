/* Collectives on communicators that span nodes, in two levels: each
 * node's ranks combine at one of them (its head), only the heads talk
 * across nodes, and each head hands the result to its node. The algorithm
 * of each level is the one the decision tables pick for that level's
 * ranks (select.c), run on a subset view with the schedule's rank map
 * (dmpi_sched_map). Barrier, bcast, reduce and allreduce; reductions only
 * with commutative ops (the levels reorder the ranks). */
#ifndef DMPI_COLL_HIER_H
#define DMPI_COLL_HIER_H

#include "coll/sched.h"

struct dmpi_op;

/* Measured across 2 namespace hosts on 2 cores (bench/coll.c, flat
 * against two levels, interleaved): with 2 ranks a node the flat
 * algorithms win (recursive doubling pairs a node's ranks first anyway;
 * the levels add a hop: allreduce 4 B 63 against 49 us), with 4 the levels
 * do (bcast 0.45-0.73 of flat, barrier 0.80, reduce 0.65-0.97, allreduce
 * 0.70-1.02 up to 256 KiB), except a 1 MiB allreduce (1.24: the node
 * levels move the whole vector twice, where the ring splits it). */
#define DMPI_HIER_MIN_LOCAL 3                /* ranks on some node */
#define DMPI_HIER_ALLREDUCE_MAX (256u << 10)  /* bytes */

/* A communicator's ranks by node, made on its first collective that could
 * use it, kept in c->layout and freed with the communicator (one block).
 * Nodes are numbered in the order of their lowest rank. */
typedef struct dmpi_coll_layout {
    int nnodes;                  /* nodes the communicator spans */
    int max_local;               /* most ranks on one node */
    int my_node;                 /* this rank's node */
    int nlocal;                  /* ranks on this node ... */
    const int *local;            /* ... their ranks, ascending (local[0] is the node's lowest) */
    const int *lowest;           /* each node's lowest rank, by node */
    const int *node_of;          /* each rank's node */
    const int *index_of;         /* each rank's index among its node's ranks */
} dmpi_coll_layout_t;

/* *L: c's layout if the two-level algorithms serve this call, else NULL
 * (a communicator on one node, or fewer than DMPI_HIER_MIN_LOCAL ranks on
 * every node; an intercommunicator
 * or a temporary view; DMPI_COLL_HIER=0; an algorithm forced by `forced`,
 * the collective's DMPI_COLL_<NAME>; a non-commutative op, when op is
 * given). Every rank decides alike. An error only if memory ran out. */
int dmpi_coll_hier_layout(dmpi_comm_t *c, const char *forced, const struct dmpi_op *op,
                          const dmpi_coll_layout_t **L);

int dmpi_barrier_hier(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_coll_layout_t *L);
int dmpi_bcast_hier(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_coll_layout_t *L, void *buf, size_t count,
                    dmpi_dtype_t *dt, int root);
int dmpi_reduce_hier(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_coll_layout_t *L, const void *sbuf, void *rbuf,
                     size_t count, dmpi_dtype_t *dt, struct dmpi_op *op, int root);
int dmpi_allreduce_hier(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_coll_layout_t *L, const void *sbuf,
                        void *rbuf, size_t count, dmpi_dtype_t *dt, struct dmpi_op *op);

#endif
