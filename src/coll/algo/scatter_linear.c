/* Algorithm: linear scatter. The root sends every other rank its block at
 * once, straight from its send buffer, starting with root + 1, and copies
 * its own; every other rank receives. Cost: one round; the root sends
 * p - 1 messages, each block moves once. Best for large blocks. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_scatter_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, root = m->root, err = MPI_SUCCESS;
    if (c->rank != root)
        return m->rcount * m->rdt->size > 0 ? dmpi_sched_recv(s, m->rbuf, m->rcount, m->rdt, root) : MPI_SUCCESS;
    size_t sc = m->scount;
    if (sc * m->sdt->size == 0)
        return MPI_SUCCESS;
    for (int k = 1; k < p && err == MPI_SUCCESS; k++) {
        int j = (root + k) % p;
        err = dmpi_sched_send(s, dmpi_move_at(m->sbuf, (size_t)j * sc, m->sdt), sc, m->sdt, j);
    }
    if (err == MPI_SUCCESS && m->rbuf != MPI_IN_PLACE)
        err = dmpi_sched_copy(s, dmpi_move_at(m->sbuf, (size_t)root * sc, m->sdt), sc, m->sdt, m->rbuf, m->rcount,
                              m->rdt);
    return err;
}
