/* Algorithm: ring allgatherv. As the ring allgather: in step i rank r
 * passes block r - i to r + 1 and receives block r - i - 1 from r - 1, each
 * straight into its place with the receive type. Every rank knows every
 * block's size, so empty blocks send no message and a step with nothing
 * either way is left out. Cost: up to p - 1 rounds; each block crosses
 * p - 1 links; no scratch memory. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_allgatherv_ring(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, r = c->rank, err = MPI_SUCCESS;
    void *rb;
    size_t n;
    dmpi_dtype_t *dt;
    if (m->sbuf != MPI_IN_PLACE && dmpi_move_rblock(m, r, &rb, &n, &dt) && m->scount * m->sdt->size > 0 &&
        ((err = dmpi_sched_copy(s, m->sbuf, m->scount, m->sdt, rb, n, dt)) || (err = dmpi_sched_round(s))))
        return err;
    int left = (r - 1 + p) % p, right = (r + 1) % p;
    for (int i = 0; i < p - 1 && err == MPI_SUCCESS; i++) {
        int out = (r - i + p) % p, in = (r - i - 1 + p) % p;
        bool any = false;
        if (dmpi_move_rblock(m, in, &rb, &n, &dt)) {
            err = dmpi_sched_recv(s, rb, n, dt, left);
            any = true;
        }
        if (err == MPI_SUCCESS && dmpi_move_rblock(m, out, &rb, &n, &dt)) {
            err = dmpi_sched_send(s, rb, n, dt, right);
            any = true;
        }
        if (err == MPI_SUCCESS && any)
            err = dmpi_sched_round(s);
    }
    return err;
}
