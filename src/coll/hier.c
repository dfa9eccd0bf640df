/* Two-level collectives on communicators that span nodes (coll/hier.h).
 * Between nodes a message costs microseconds and within one a fraction of
 * that, so the levels keep the slow hops to one rank per node: a flat
 * allreduce of 2 x 2 ranks sends from every rank across, this one from two.
 *
 * A level runs the flat algorithm of select.c on a view whose rank and
 * size are the level's (a node's ranks, or the nodes' heads) while the
 * schedule's map turns the level's indices into the communicator's ranks.
 * The levels cannot mix up messages under the schedule's one tag: a rank
 * hears from ranks of its own node in the node levels and from other
 * nodes' heads in the middle one, and each pair's messages keep their
 * order. */
#include "coll/hier.h"
#include "coll/coll.h"
#include "coll/select.h"
#include "core/op.h"
#include "core/params.h"
#include <stdlib.h>
#include <string.h>

/* ---- the layout ---------------------------------------------------------- */

static dmpi_coll_layout_t *layout_make(const dmpi_comm_t *c)
{
    int n = c->size;
    dmpi_coll_layout_t *L = malloc(sizeof *L + 4 * (size_t)n * sizeof(int));
    int *of_world = calloc((size_t)dmpi_world.nnodes, sizeof *of_world);   /* job node -> ours + 1 */
    if (!L || !of_world) {
        free(L);
        free(of_world);
        return NULL;
    }
    int *local = (int *)(L + 1), *lowest = local + n, *node_of = lowest + n, *index_of = node_of + n;
    int *count = local;             /* ranks per node so far: local[] is filled last */
    int nn = 0;
    /* Processes of other jobs (dynamic processes) see the nodes otherwise
     * than we do, and every process must choose the same algorithm: such a
     * communicator is one level, as if all were on one node. */
    for (int r = 0; r < n; r++)
        if (dmpi_comm_world_rank(c, r) >= dmpi_world.size) {
            free(of_world);
            *L = (dmpi_coll_layout_t){.nnodes = 1};
            return L;
        }
    for (int r = 0; r < n; r++) {
        int w = dmpi_world.node_of_world[dmpi_comm_world_rank(c, r)];
        if (!of_world[w]) {
            of_world[w] = ++nn;
            lowest[nn - 1] = r;
            count[nn - 1] = 0;
        }
        node_of[r] = of_world[w] - 1;
        index_of[r] = count[node_of[r]]++;
    }
    free(of_world);
    *L = (dmpi_coll_layout_t){.nnodes = nn, .my_node = node_of[c->rank], .local = local, .lowest = lowest,
                              .node_of = node_of, .index_of = index_of};
    for (int k = 0; k < nn; k++)
        L->max_local = count[k] > L->max_local ? count[k] : L->max_local;
    L->nlocal = count[L->my_node];
    for (int r = 0, i = 0; r < n; r++)  /* count[] is spent: local[] overwrites it */
        if (node_of[r] == L->my_node)
            local[i++] = r;
    return L;
}

int dmpi_coll_hier_layout(dmpi_comm_t *c, const char *forced, const dmpi_op_t *op, const dmpi_coll_layout_t **L)
{
    *L = NULL;
    if (!dmpi_params.coll_hier || dmpi_world.nnodes < 2 || c->size < 3 || dmpi_comm_is_inter(c) ||
        c->obj != c || c->coll_tag != DMPI_TAG_NONE || strcmp(forced, "auto") != 0 ||
        (op && !dmpi_op_commutative(op)))
        return MPI_SUCCESS;
    if (!c->layout && !(c->layout = layout_make(c)))
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for the node layout of a communicator of %d ranks",
                        c->size);
    if (c->layout->nnodes > 1 && c->layout->max_local >= DMPI_HIER_MIN_LOCAL)
        *L = c->layout;
    return MPI_SUCCESS;
}

/* ---- levels --------------------------------------------------------------- */

/* A view of c as a level of `size` ranks in which this one is `rank`,
 * whose indices map names in the communicator (set on s from now on). */
static dmpi_comm_t level(dmpi_sched_t *s, const dmpi_comm_t *c, int rank, int size, const int *map)
{
    dmpi_comm_t v = *c;
    v.rank = rank;
    v.size = size;
    dmpi_sched_map(s, map);
    return v;
}

/* The level of this rank's node. */
static dmpi_comm_t node_level(dmpi_sched_t *s, const dmpi_comm_t *c, const dmpi_coll_layout_t *L)
{
    return level(s, c, L->index_of[c->rank], L->nlocal, L->local);
}

/* The level of the nodes' heads (this rank being its node's). */
static dmpi_comm_t heads_level(dmpi_sched_t *s, const dmpi_comm_t *c, const dmpi_coll_layout_t *L,
                               const int *heads)
{
    return level(s, c, L->my_node, L->nnodes, heads);
}

/* Each node's head for a call rooted at root: its lowest rank, or the
 * root on the root's node. In the schedule's scratch memory. */
static int *heads_for(dmpi_sched_t *s, const dmpi_coll_layout_t *L, int root)
{
    int *h = dmpi_sched_tmp(s, (size_t)L->nnodes * sizeof *h);
    if (!h)
        return NULL;
    memcpy(h, L->lowest, (size_t)L->nnodes * sizeof *h);
    h[L->node_of[root]] = root;
    return h;
}

/* This node's head among its ranks (an index into L->local). */
static int head_index(const dmpi_coll_layout_t *L, const int *heads)
{
    return L->index_of[heads[L->my_node]];
}

static int no_memory(void)
{
    return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a two-level collective");
}

/* ---- barrier -------------------------------------------------------------- */

/* A binomial tree of empty messages over the node's ranks, rooted at
 * index 0: up, every rank has arrived at the root; down, the root lets
 * them go. */
static int node_tree(dmpi_sched_t *s, const dmpi_coll_layout_t *L, int me, bool up)
{
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    int n = L->nlocal, low = me ? me & -me : n;   /* children: me + 1, 2, 4, ... below low */
    if (!up && me) {
        DMPI_TRY(dmpi_sched_recv(s, NULL, 0, byte, me - low));
        DMPI_TRY(dmpi_sched_round(s));
    }
    for (int mask = 1; mask < low && me + mask < n; mask <<= 1)
        DMPI_TRY(up ? dmpi_sched_recv(s, NULL, 0, byte, me + mask) : dmpi_sched_send(s, NULL, 0, byte, me + mask));
    DMPI_TRY(dmpi_sched_round(s));
    if (up && me) {
        DMPI_TRY(dmpi_sched_send(s, NULL, 0, byte, me - low));
        DMPI_TRY(dmpi_sched_round(s));
    }
    return MPI_SUCCESS;
}

int dmpi_barrier_hier(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_coll_layout_t *L)
{
    int me = L->index_of[c->rank];
    dmpi_sched_map(s, L->local);
    DMPI_TRY(node_tree(s, L, me, true));
    if (me == 0) {
        dmpi_comm_t heads = heads_level(s, c, L, L->lowest);
        DMPI_TRY(dmpi_barrier_dissemination(s, &heads));
    }
    dmpi_sched_map(s, L->local);
    DMPI_TRY(node_tree(s, L, me, false));
    dmpi_sched_map(s, NULL);
    return MPI_SUCCESS;
}

/* ---- bcast ---------------------------------------------------------------- */

/* The root's data to every node's head, then from each head to its node. */
int dmpi_bcast_hier(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_coll_layout_t *L, void *buf, size_t count,
                    dmpi_dtype_t *dt, int root)
{
    int *heads = heads_for(s, L, root);
    if (!heads)
        return no_memory();
    if (c->rank == heads[L->my_node]) {
        dmpi_comm_t top = heads_level(s, c, L, heads);
        DMPI_TRY(dmpi_coll_bcast_build(s, &top, buf, count, dt, L->node_of[root]));
    }
    if (L->nlocal > 1) {
        dmpi_comm_t node = node_level(s, c, L);
        DMPI_TRY(dmpi_coll_bcast_build(s, &node, buf, count, dt, head_index(L, heads)));
    }
    dmpi_sched_map(s, NULL);
    return MPI_SUCCESS;
}

/* ---- reduce and allreduce -------------------------------------------------- */

/* Reduces the node's contributions at its head (index hi among them):
 * into *at, where the head's result lies afterwards (the head's rbuf, or
 * with one rank on the node its own sbuf). */
static int node_reduce(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_coll_layout_t *L, const void *sbuf, void *rbuf,
                       size_t count, dmpi_dtype_t *dt, dmpi_op_t *op, int hi, const void **at)
{
    *at = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (L->nlocal == 1)
        return MPI_SUCCESS;
    dmpi_comm_t node = node_level(s, c, L);
    if (node.rank != hi && sbuf == MPI_IN_PLACE)
        sbuf = rbuf;                /* an allreduce's in-place data: MPI_IN_PLACE is the root's alone */
    DMPI_TRY(dmpi_coll_reduce_build(s, &node, sbuf, rbuf, count, dt, op, hi));
    *at = rbuf;
    return MPI_SUCCESS;
}

/* The node's result at its head, then the heads' results at the root. A
 * head other than the root keeps its node's result in scratch memory (its
 * rbuf means nothing in MPI_Reduce). */
int dmpi_reduce_hier(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_coll_layout_t *L, const void *sbuf, void *rbuf,
                     size_t count, dmpi_dtype_t *dt, dmpi_op_t *op, int root)
{
    int *heads = heads_for(s, L, root);
    if (!heads)
        return no_memory();
    bool head = c->rank == heads[L->my_node];
    void *mine = rbuf;
    if (head && c->rank != root && !(mine = dmpi_coll_tmpbuf(s, count, dt)))
        return no_memory();
    const void *at;
    DMPI_TRY(node_reduce(s, c, L, sbuf, mine, count, dt, op, head_index(L, heads), &at));
    if (head) {
        dmpi_comm_t top = heads_level(s, c, L, heads);
        DMPI_TRY(dmpi_coll_reduce_build(s, &top, at == mine ? MPI_IN_PLACE : at, mine, count, dt, op,
                                        L->node_of[root]));
    }
    dmpi_sched_map(s, NULL);
    return MPI_SUCCESS;
}

/* The node's result at its lowest rank, an allreduce among those, and a
 * broadcast from each to its node. */
int dmpi_allreduce_hier(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_coll_layout_t *L, const void *sbuf,
                        void *rbuf, size_t count, dmpi_dtype_t *dt, dmpi_op_t *op)
{
    const void *at;
    DMPI_TRY(node_reduce(s, c, L, sbuf, rbuf, count, dt, op, 0, &at));
    if (L->index_of[c->rank] == 0) {
        dmpi_comm_t top = heads_level(s, c, L, L->lowest);
        DMPI_TRY(dmpi_coll_allreduce_build(s, &top, at == rbuf ? MPI_IN_PLACE : at, rbuf, count, dt, op));
    }
    if (L->nlocal > 1) {
        dmpi_comm_t node = node_level(s, c, L);
        DMPI_TRY(dmpi_coll_bcast_build(s, &node, rbuf, count, dt, 0));
    }
    dmpi_sched_map(s, NULL);
    return MPI_SUCCESS;
}
