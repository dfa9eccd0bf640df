/* Algorithm: ring allgather. In step i (0 .. p - 2) rank r passes the
 * block it received last (its own at first) to r + 1 and receives the next
 * one from r - 1, straight into the receive buffer with the receive type.
 * Cost: p - 1 rounds, p - 1 blocks each way, every link busy in every
 * step and no scratch memory: the choice for large blocks. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_allgather_ring(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, r = c->rank, err = MPI_SUCCESS;
    size_t rc = m->rcount;
    dmpi_dtype_t *rdt = m->rdt;
    if (rc * rdt->size == 0)
        return MPI_SUCCESS;
    if (m->sbuf != MPI_IN_PLACE &&
        ((err = dmpi_sched_copy(s, m->sbuf, m->scount, m->sdt, dmpi_move_at(m->rbuf, (size_t)r * rc, rdt), rc, rdt)) ||
         (err = dmpi_sched_round(s))))
        return err;
    int left = (r - 1 + p) % p, right = (r + 1) % p;
    for (int i = 0; i < p - 1 && err == MPI_SUCCESS; i++) {
        int out = (r - i + p) % p, in = (r - i - 1 + p) % p;
        if ((err = dmpi_sched_recv(s, dmpi_move_at(m->rbuf, (size_t)in * rc, rdt), rc, rdt, left)) ||
            (err = dmpi_sched_send(s, dmpi_move_at(m->rbuf, (size_t)out * rc, rdt), rc, rdt, right)))
            break;
        err = dmpi_sched_round(s);
    }
    return err;
}
