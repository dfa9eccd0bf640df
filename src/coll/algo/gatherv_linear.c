/* Algorithm: linear gatherv. The root posts a receive from every other rank
 * whose block is not empty, at once, straight into its place in the
 * receive buffer, and copies its own block; every other rank with data
 * sends it. Empty blocks send no message (both ends know the size). Cost:
 * one round; the root receives up to p - 1 messages. The only gatherv
 * algorithm: a tree would have to forward blocks whose sizes only the
 * root knows. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_gatherv_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, root = m->root, err = MPI_SUCCESS;
    if (c->rank != root)
        return m->scount * m->sdt->size > 0 ? dmpi_sched_send(s, m->sbuf, m->scount, m->sdt, root) : MPI_SUCCESS;
    for (int k = 1; k < p && err == MPI_SUCCESS; k++) {
        int j = (root + k) % p;
        void *rb;
        size_t n;
        dmpi_dtype_t *dt;
        if (dmpi_move_rblock(m, j, &rb, &n, &dt))
            err = dmpi_sched_recv(s, rb, n, dt, j);
    }
    if (err == MPI_SUCCESS && m->sbuf != MPI_IN_PLACE) {
        void *rb;
        size_t n;
        dmpi_dtype_t *dt;
        if (dmpi_move_rblock(m, root, &rb, &n, &dt) && m->scount * m->sdt->size > 0)
            err = dmpi_sched_copy(s, m->sbuf, m->scount, m->sdt, rb, n, dt);
    }
    return err;
}
