/* Neighbourhood collectives (coll/neighbor.h): the blocks of a side and the
 * schedule of a call. One algorithm serves every topology and form. */
#include "coll/neighbor.h"
#include "coll/coll.h"
#include "coll/persist.h"
#include "coll/select.h"
#include <stdint.h>

void dmpi_nbr_block(const dmpi_nbr_side_t *side, int j, void **buf, size_t *count, dmpi_dtype_t **dt)
{
    MPI_Aint off;
    if (side->types) {
        *dt = dmpi_dtype_get(side->types[j]);
        *count = (size_t)dmpi_nbr_at(side->counts, j);
        off = (MPI_Aint)dmpi_nbr_at(side->displs, j);
    } else if (side->v) {
        *dt = side->dt;
        *count = (size_t)dmpi_nbr_at(side->counts, j);
        off = (MPI_Aint)dmpi_nbr_at(side->displs, j) * side->dt->extent;
    } else {
        *dt = side->dt;
        *count = side->count;
        off = side->same ? 0 : (MPI_Aint)j * (MPI_Aint)side->count * side->dt->extent;
    }
    /* in integers: buf may be MPI_BOTTOM */
    *buf = (void *)((uintptr_t)side->buf + (uintptr_t)off);
}

int dmpi_coll_neighbor_sched(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_nbr_side_t *send,
                             const dmpi_nbr_side_t *recv)
{
    return dmpi_neighbor_linear(s, c, send, recv);
}

int dmpi_coll_neighbor(dmpi_comm_t *c, const char *name, const dmpi_nbr_side_t *send,
                       const dmpi_nbr_side_t *recv, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    dmpi_sched_set_name(s, name);
    return dmpi_coll_finish(s, dmpi_coll_neighbor_sched(s, c, send, recv), req);
}

int dmpi_coll_neighbor_init(dmpi_comm_t *c, const char *name, const dmpi_nbr_side_t *send,
                            const dmpi_nbr_side_t *recv, dmpi_request_t **req)
{
    dmpi_sched_t *s;
    DMPI_TRY(dmpi_sched_new(c, &s));
    int err = dmpi_coll_neighbor_sched(s, c, send, recv);
    if (err != MPI_SUCCESS) {
        dmpi_sched_free(s);
        return err;
    }
    return dmpi_coll_persist_sched(s, name, req);
}
