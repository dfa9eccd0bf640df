/* Algorithm: recursive-doubling allgather, for a power-of-two number of
 * ranks (select.c falls back to bruck otherwise). In step k (k = 1, 2, 4,
 * ...) rank r exchanges with r xor k the k blocks it has gathered so far:
 * they lie side by side in the receive buffer, so each exchange is one
 * message each way, sent and received with the receive type in place.
 * Cost: log2 p rounds; p - 1 blocks received; no scratch memory. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_allgather_recursive_doubling(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
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
    for (int k = 1; k < p && err == MPI_SUCCESS; k <<= 1) {
        int partner = r ^ k, mine = r & ~(k - 1), theirs = partner & ~(k - 1);
        if ((err = dmpi_sched_recv(s, dmpi_move_at(m->rbuf, (size_t)theirs * rc, rdt), (size_t)k * rc, rdt, partner)) ||
            (err = dmpi_sched_send(s, dmpi_move_at(m->rbuf, (size_t)mine * rc, rdt), (size_t)k * rc, rdt, partner)))
            break;
        err = dmpi_sched_round(s);
    }
    return err;
}
