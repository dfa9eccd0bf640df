/* The choice of a communicator's collective table (coll/table.h). */
#include "coll/table.h"
#include "coll/coll.h"

/* Components, lowest first: each may claim a communicator on top of what
 * the ones before it chose. */
static dmpi_coll_claim_fn *const components[] = {dmpi_coll_node_claim, NULL};

const dmpi_coll_table_t dmpi_coll_p2p_table = {
    .name = "p2p",
    .prev = NULL,
    .barrier = dmpi_coll_ibarrier,
    .bcast = dmpi_coll_bcast,
    .reduce = dmpi_coll_reduce,
    .allreduce = dmpi_coll_allreduce,
    .reduce_scatter = dmpi_coll_reduce_scatter,
    .reduce_scatter_block = dmpi_coll_reduce_scatter_block,
    .scan = dmpi_coll_scan,
    .exscan = dmpi_coll_exscan,
    .gather = dmpi_coll_gather,
    .gatherv = dmpi_coll_gatherv,
    .scatter = dmpi_coll_scatter,
    .scatterv = dmpi_coll_scatterv,
    .allgather = dmpi_coll_allgather,
    .allgatherv = dmpi_coll_allgatherv,
    .alltoall = dmpi_coll_alltoall,
    .alltoallv = dmpi_coll_alltoallv,
    .alltoallw = dmpi_coll_alltoallw,
};

void dmpi_coll_comm_init(dmpi_comm_t *c)
{
    const dmpi_coll_table_t *t = &dmpi_coll_p2p_table;
    if (dmpi_comm_is_inter(c)) {    /* no component serves two groups */
        c->coll = &dmpi_coll_inter_table;
        return;
    }
    for (int i = 0; components[i]; i++) {
        const dmpi_coll_table_t *mine = components[i](c, t);
        if (mine)
            t = mine;
    }
    c->coll = t;
}
