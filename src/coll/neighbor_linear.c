/* Algorithm: linear neighbour exchange (every neighbourhood collective).
 * Every receive is posted, then every send, in one round: block j of the
 * send side to out-neighbour j, block j of the receive side from
 * in-neighbour j (core/topo.h gives the order). MPI_PROC_NULL neighbours
 * and empty blocks move nothing (the receive block stays untouched; the
 * two ends of an edge agree on its size, so both skip it). Cost: one
 * round, each block moves once; indegree + outdegree requests in flight.
 *
 * A neighbour met twice (a periodic dimension of size 1 or 2, an edge
 * repeated in a graph) gets several messages with the schedule's one tag,
 * which match in the order sent. The standard (MPI-4.0 8.6, and Annex B.1.1
 * on periodic dimensions of size 1 and 2) pairs them so: on a graph the
 * k-th edge to a process with the k-th edge from it, which posting the
 * receives in list order gives; on a Cartesian grid the block sent towards
 * -1 in dimension d arrives in the receiver's block 2d + 1 (it comes from
 * the receiver's +1 side) and the one sent towards +1 in block 2d, so the
 * receives of each dimension are posted +1 first: the -1 block is sent
 * first and must meet the +1 receive. Between different processes the
 * order changes nothing. */
#include "coll/coll.h"
#include "coll/neighbor.h"
#include "core/topo.h"
#include <stdlib.h>

/* One block: a message of the schedule (which sends one of more than
 * INT_MAX bytes in pieces). */
static int add(dmpi_sched_t *s, bool send, void *buf, size_t count, dmpi_dtype_t *dt, int peer)
{
    return send ? dmpi_sched_send(s, buf, count, dt, peer) : dmpi_sched_recv(s, buf, count, dt, peer);
}

/* The neighbours are needed only while the steps are added (each step
 * keeps its peer): on the stack for the usual degrees. */
#define NBRS_ON_STACK 64

static int add_steps(dmpi_sched_t *s, const dmpi_topo_t *t, const int *in, int indeg, const int *out, int outdeg,
                     const dmpi_nbr_side_t *send, const dmpi_nbr_side_t *recv)
{
    bool swap = t->kind == MPI_CART;
    for (int k = 0; k < indeg; k++) {
        int j = swap ? k ^ 1 : k;
        void *buf;
        size_t n;
        dmpi_dtype_t *dt;
        dmpi_nbr_block(recv, j, &buf, &n, &dt);
        if (in[j] != MPI_PROC_NULL && n && dt->size)
            DMPI_TRY(add(s, false, buf, n, dt, in[j]));
    }
    for (int j = 0; j < outdeg; j++) {
        void *buf;
        size_t n;
        dmpi_dtype_t *dt;
        dmpi_nbr_block(send, j, &buf, &n, &dt);
        if (out[j] != MPI_PROC_NULL && n && dt->size)
            DMPI_TRY(add(s, true, buf, n, dt, out[j]));
    }
    return dmpi_sched_round(s);
}

int dmpi_neighbor_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_nbr_side_t *send,
                         const dmpi_nbr_side_t *recv)
{
    const dmpi_topo_t *t = c->topo;
    int indeg, outdeg, stack[NBRS_ON_STACK], *in = stack;
    dmpi_topo_degrees(t, c->rank, &indeg, &outdeg);
    size_t n = (size_t)indeg + (size_t)outdeg;
    if (n > NBRS_ON_STACK && !(in = malloc(n * sizeof *in)))
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for the %zu neighbours of a neighborhood collective", n);
    dmpi_topo_nbrs(t, c->rank, in, in + indeg);
    int err = add_steps(s, t, in, indeg, in + indeg, outdeg, send, recv);
    if (in != stack)
        free(in);
    return err;
}
