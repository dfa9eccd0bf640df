/* Algorithm: linear gather. The root posts a receive from every other rank
 * at once, straight into its receive buffer, starting with root + 1 so
 * that the senders are served in a rotating order, and copies its own
 * block; every other rank sends its block. Cost: one round; the root
 * receives p - 1 messages, each block moves once. Best for large blocks. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_gather_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, root = m->root, err = MPI_SUCCESS;
    if (c->rank != root)
        return m->scount * m->sdt->size > 0 ? dmpi_sched_send(s, m->sbuf, m->scount, m->sdt, root) : MPI_SUCCESS;
    size_t rc = m->rcount;
    if (rc * m->rdt->size == 0)
        return MPI_SUCCESS;
    for (int k = 1; k < p && err == MPI_SUCCESS; k++) {
        int j = (root + k) % p;
        err = dmpi_sched_recv(s, dmpi_move_at(m->rbuf, (size_t)j * rc, m->rdt), rc, m->rdt, j);
    }
    if (err == MPI_SUCCESS && m->sbuf != MPI_IN_PLACE)
        err = dmpi_sched_copy(s, m->sbuf, m->scount, m->sdt, dmpi_move_at(m->rbuf, (size_t)root * rc, m->rdt), rc,
                              m->rdt);
    return err;
}
