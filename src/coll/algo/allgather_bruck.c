/* Algorithm: Bruck's allgather, any number of ranks. Scratch memory holds
 * the blocks in the order r, r + 1, ..., r + p - 1 (mod p), packed; it
 * starts with the own block. In step k (k = 1, 2, 4, ...) rank r sends its
 * first min(k, p - k) blocks to r - k and appends as many from r + k, so
 * after ceil(log2 p) steps it has all p; they are then unpacked into the
 * receive buffer, rotated by r (two copies).
 * Cost: ceil(log2 p) rounds, p - 1 blocks received, one extra copy of
 * everything; scratch p blocks. For small blocks on any number of ranks. */
#include "coll/coll.h"
#include "coll/sched.h"

int dmpi_allgather_bruck(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, r = c->rank, err;
    size_t rc = m->rcount, nb = rc * m->rdt->size;
    dmpi_dtype_t *rdt = m->rdt, *byte = dmpi_dtype_get(MPI_BYTE);
    if (nb == 0)
        return MPI_SUCCESS;
    char *tmp = dmpi_sched_tmp(s, (size_t)p * nb);
    if (!tmp)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes of an allgather", (size_t)p * nb);
    if (m->sbuf == MPI_IN_PLACE)
        err = dmpi_sched_copy(s, dmpi_move_at(m->rbuf, (size_t)r * rc, rdt), rc, rdt, tmp, nb, byte);
    else
        err = dmpi_sched_copy(s, m->sbuf, m->scount, m->sdt, tmp, nb, byte);
    if (err == MPI_SUCCESS)
        err = dmpi_sched_round(s);
    for (int k = 1; k < p && err == MPI_SUCCESS; k <<= 1) {
        size_t n = (size_t)(k < p - k ? k : p - k) * nb;
        if ((err = dmpi_sched_recv(s, tmp + (size_t)k * nb, n, byte, (r + k) % p)) ||
            (err = dmpi_sched_send(s, tmp, n, byte, (r - k + p) % p)))
            break;
        err = dmpi_sched_round(s);
    }
    /* tmp[i] is the block of rank (r + i) mod p */
    if (err == MPI_SUCCESS)
        err = dmpi_sched_copy(s, tmp, (size_t)(p - r) * nb, byte, dmpi_move_at(m->rbuf, (size_t)r * rc, rdt),
                              (size_t)(p - r) * rc, rdt);
    if (err == MPI_SUCCESS && r > 0)
        err = dmpi_sched_copy(s, tmp + (size_t)(p - r) * nb, (size_t)r * nb, byte, m->rbuf, (size_t)r * rc, rdt);
    return err;
}
