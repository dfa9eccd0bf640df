/* Algorithm: recursive-doubling allgatherv, for a power-of-two number of
 * ranks (select.c uses the ring otherwise). In step k (k = 1, 2, 4, ...)
 * rank r exchanges with r xor k the k blocks it has gathered so far; their
 * places in the receive buffer need not be adjacent, so each nonempty
 * block is its own message (both ends know the sizes; messages between
 * two ranks arrive in order). Cost: log2 p rounds, p - 1 messages each
 * way; no scratch memory. For small totals. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_allgatherv_recursive_doubling(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, r = c->rank, err = MPI_SUCCESS;
    void *rb;
    size_t n;
    dmpi_dtype_t *dt;
    if (m->sbuf != MPI_IN_PLACE && dmpi_move_rblock(m, r, &rb, &n, &dt) && m->scount * m->sdt->size > 0 &&
        ((err = dmpi_sched_copy(s, m->sbuf, m->scount, m->sdt, rb, n, dt)) || (err = dmpi_sched_round(s))))
        return err;
    for (int k = 1; k < p && err == MPI_SUCCESS; k <<= 1) {
        int partner = r ^ k, mine = r & ~(k - 1), theirs = partner & ~(k - 1);
        for (int b = theirs; b < theirs + k && err == MPI_SUCCESS; b++)
            if (dmpi_move_rblock(m, b, &rb, &n, &dt))
                err = dmpi_sched_recv(s, rb, n, dt, partner);
        for (int b = mine; b < mine + k && err == MPI_SUCCESS; b++)
            if (dmpi_move_rblock(m, b, &rb, &n, &dt))
                err = dmpi_sched_send(s, rb, n, dt, partner);
        if (err == MPI_SUCCESS)
            err = dmpi_sched_round(s);
    }
    return err;
}
