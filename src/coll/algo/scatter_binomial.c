/* Algorithm: binomial-tree scatter, the gather tree run backwards. Ranks
 * are numbered relative to the root (v = rank - root mod p). The root sends
 * each child v = 1, 2, 4, ... the blocks of its subtree v .. 2v - 1 (cut
 * at p) in one message, straight from its send buffer with its send type,
 * except the one subtree whose ranks wrap past p - 1, which it packs first.
 * An inner rank receives its subtree's blocks as packed bytes, passes each
 * child its share and unpacks its own block; a leaf receives its block
 * straight into its receive buffer.
 * Cost: ceil(log2 p) levels; every rank receives one message, the root
 * sends ceil(log2 p); a block is forwarded at most ceil(log2 p) times.
 * Scratch: an inner rank holds its subtree's blocks. Best for small blocks. */
#include "coll/coll.h"
#include "coll/sched.h"

static int min_int(int a, int b) { return a < b ? a : b; }

static int oom(size_t n)
{
    return dmpi_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes of a scatter", n);
}

static int at_root(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m, size_t nb)
{
    int p = c->size, root = c->rank, err = MPI_SUCCESS;
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE), *sdt = m->sdt;
    size_t sc = m->scount;
    char *packed = NULL;                        /* the wrapping subtree, packed */
    int wrapped = 0;
    for (int mask = 1; mask < p && err == MPI_SUCCESS; mask <<= 1) {
        int n = min_int(mask, p - mask), first = (mask + root) % p;
        if (first + n <= p)
            continue;
        int head = p - first;
        if (!(packed = dmpi_sched_tmp(s, (size_t)n * nb)))
            return oom((size_t)n * nb);
        wrapped = first;
        err = dmpi_sched_copy(s, dmpi_move_at(m->sbuf, (size_t)first * sc, sdt), (size_t)head * sc, sdt, packed,
                              (size_t)head * nb, byte);
        if (err == MPI_SUCCESS)
            err = dmpi_sched_copy(s, m->sbuf, (size_t)(n - head) * sc, sdt, packed + (size_t)head * nb,
                                  (size_t)(n - head) * nb, byte);
    }
    if (err == MPI_SUCCESS && packed)
        err = dmpi_sched_round(s);             /* packed before it is sent */
    for (int mask = 1; mask < p && err == MPI_SUCCESS; mask <<= 1) {
        int n = min_int(mask, p - mask), first = (mask + root) % p;
        if (packed && first == wrapped)
            err = dmpi_sched_send(s, packed, (size_t)n * nb, byte, first);
        else
            err = dmpi_sched_send(s, dmpi_move_at(m->sbuf, (size_t)first * sc, sdt), (size_t)n * sc, sdt, first);
    }
    if (err == MPI_SUCCESS && m->rbuf != MPI_IN_PLACE)
        err = dmpi_sched_copy(s, dmpi_move_at(m->sbuf, (size_t)root * sc, sdt), sc, sdt, m->rbuf, m->rcount, m->rdt);
    return err;
}

int dmpi_scatter_binomial(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, root = m->root;
    size_t nb = c->rank == root ? m->scount * m->sdt->size : m->rcount * m->rdt->size;
    if (nb == 0)
        return MPI_SUCCESS;
    if (c->rank == root)
        return at_root(s, c, m, nb);
    int v = (c->rank - root + p) % p, low = v & -v;
    int n = min_int(low, p - v), parent = (v - low + root) % p;
    if (n == 1)
        return dmpi_sched_recv(s, m->rbuf, m->rcount, m->rdt, parent);
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    char *tmp = dmpi_sched_tmp(s, (size_t)n * nb);
    if (!tmp)
        return oom((size_t)n * nb);
    int err = dmpi_sched_recv(s, tmp, (size_t)n * nb, byte, parent);
    if (err == MPI_SUCCESS)
        err = dmpi_sched_round(s);
    for (int mask = low >> 1; mask > 0 && err == MPI_SUCCESS; mask >>= 1) {
        if (v + mask >= p)
            continue;
        int cn = min_int(mask, p - v - mask);
        err = dmpi_sched_send(s, tmp + (size_t)mask * nb, (size_t)cn * nb, byte, (v + mask + root) % p);
    }
    if (err == MPI_SUCCESS)
        err = dmpi_sched_copy(s, tmp, nb, byte, m->rbuf, m->rcount, m->rdt);
    return err;
}
