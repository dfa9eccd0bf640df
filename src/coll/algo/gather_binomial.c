/* Algorithm: binomial-tree gather. Ranks are numbered relative to the root
 * (v = rank - root mod p). Rank v > 0, whose lowest set bit is 2^k, heads
 * the subtree v .. v + 2^k - 1 (cut at p): it receives its children's
 * subtrees (from v + 1, v + 2, ..., v + 2^(k-1)) as packed bytes next to
 * its own block, then sends them all to its parent v - 2^k in one message;
 * a leaf sends straight from its send buffer. The root receives each
 * child's subtree straight into its receive buffer with its receive type,
 * except the one subtree whose ranks wrap past p - 1, which lands in
 * scratch memory and is unpacked in two pieces.
 * Cost: ceil(log2 p) levels; every rank sends one message, the root
 * receives ceil(log2 p); a block is forwarded at most ceil(log2 p) times.
 * Scratch: an inner rank holds its subtree's blocks. Best for small blocks. */
#include "coll/coll.h"
#include "coll/sched.h"

static int min_int(int a, int b) { return a < b ? a : b; }

static int oom(size_t n)
{
    return dmpi_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes of a gather", n);
}

static int at_root(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m, size_t nb)
{
    int p = c->size, root = c->rank, err = MPI_SUCCESS;
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE), *rdt = m->rdt;
    size_t rc = m->rcount;
    for (int mask = 1; mask < p && err == MPI_SUCCESS; mask <<= 1) {
        int n = min_int(mask, p - mask);        /* blocks in the child's subtree */
        int first = (mask + root) % p;          /* the child, its first rank */
        if (first + n <= p) {
            err = dmpi_sched_recv(s, dmpi_move_at(m->rbuf, (size_t)first * rc, rdt), (size_t)n * rc, rdt, first);
            continue;
        }
        int head = p - first;                   /* blocks up to rank p - 1; the rest from rank 0 */
        char *tmp = dmpi_sched_tmp(s, (size_t)n * nb);
        if (!tmp)
            return oom((size_t)n * nb);
        if ((err = dmpi_sched_recv(s, tmp, (size_t)n * nb, byte, first)) ||
            (err = dmpi_sched_copy(s, tmp, (size_t)head * nb, byte, dmpi_move_at(m->rbuf, (size_t)first * rc, rdt),
                                   (size_t)head * rc, rdt)))
            break;
        err = dmpi_sched_copy(s, tmp + (size_t)head * nb, (size_t)(n - head) * nb, byte, m->rbuf,
                              (size_t)(n - head) * rc, rdt);
    }
    if (err == MPI_SUCCESS && m->sbuf != MPI_IN_PLACE)
        err = dmpi_sched_copy(s, m->sbuf, m->scount, m->sdt, dmpi_move_at(m->rbuf, (size_t)root * rc, rdt), rc, rdt);
    return err;
}

int dmpi_gather_binomial(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, root = m->root;
    /* The block size every rank agrees on (signatures match). */
    size_t nb = c->rank == root ? m->rcount * m->rdt->size : m->scount * m->sdt->size;
    if (nb == 0)
        return MPI_SUCCESS;
    if (c->rank == root)
        return at_root(s, c, m, nb);
    int v = (c->rank - root + p) % p, low = v & -v;
    int n = min_int(low, p - v), parent = (v - low + root) % p;
    if (n == 1)
        return dmpi_sched_send(s, m->sbuf, m->scount, m->sdt, parent);
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    char *tmp = dmpi_sched_tmp(s, (size_t)n * nb);
    if (!tmp)
        return oom((size_t)n * nb);
    int err = MPI_SUCCESS;
    for (int mask = 1; mask < low && v + mask < p && err == MPI_SUCCESS; mask <<= 1) {
        int cn = min_int(mask, p - v - mask);
        err = dmpi_sched_recv(s, tmp + (size_t)mask * nb, (size_t)cn * nb, byte, (v + mask + root) % p);
    }
    if (err == MPI_SUCCESS)
        err = dmpi_sched_copy(s, m->sbuf, m->scount, m->sdt, tmp, nb, byte);
    if (err == MPI_SUCCESS)
        err = dmpi_sched_round(s);
    if (err == MPI_SUCCESS)
        err = dmpi_sched_send(s, tmp, (size_t)n * nb, byte, parent);
    return err;
}
