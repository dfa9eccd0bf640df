/* Algorithm: linear scatterv. The root sends every other rank whose block
 * is not empty its block at once, straight from its place in the send
 * buffer, and copies its own; every other rank expecting data receives it.
 * Empty blocks send no message (both ends know the size). Cost: one round;
 * the root sends up to p - 1 messages. The only scatterv algorithm: a tree
 * would forward blocks whose sizes only the root knows. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_scatterv_linear(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, root = m->root, err = MPI_SUCCESS;
    if (c->rank != root)
        return m->rcount * m->rdt->size > 0 ? dmpi_sched_recv(s, m->rbuf, m->rcount, m->rdt, root) : MPI_SUCCESS;
    for (int k = 1; k < p && err == MPI_SUCCESS; k++) {
        int j = (root + k) % p;
        const void *sb;
        size_t n;
        dmpi_dtype_t *dt;
        if (dmpi_move_sblock(m, j, &sb, &n, &dt))
            err = dmpi_sched_send(s, sb, n, dt, j);
    }
    if (err == MPI_SUCCESS && m->rbuf != MPI_IN_PLACE) {
        const void *sb;
        size_t n;
        dmpi_dtype_t *dt;
        if (dmpi_move_sblock(m, root, &sb, &n, &dt) && m->rcount * m->rdt->size > 0)
            err = dmpi_sched_copy(s, sb, n, dt, m->rbuf, m->rcount, m->rdt);
    }
    return err;
}
