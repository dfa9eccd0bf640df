/* Algorithm: Bruck's alltoall, for small blocks. Scratch memory holds the
 * p blocks to send, packed and rotated so that slot i holds the block for
 * rank r + i (mod p). In step k (k = 1, 2, 4, ...) every slot i with bit k
 * set moves k ranks on: the rank packs those slots into one message to
 * r + k, receives the same slots from r - k and unpacks them in place. A
 * block for r + i thus travels i ranks in ceil(log2 p) hops; at the end
 * slot i holds the block from rank r - i, copied into the receive buffer.
 * Cost: ceil(log2 p) rounds of about p/2 blocks each way (p/2 log2 p
 * blocks moved instead of p - 1) plus packing: few latencies, so it wins
 * for small blocks on many ranks. Scratch: p + 2 * ceil(p/2) blocks. */
#include "coll/coll.h"
#include "coll/sched.h"

/* Copies the slots with bit k set between the slots and the packed buffer. */
static int move_slots(dmpi_sched_t *s, char *slots, char *packed, int p, int k, size_t nb, bool pack)
{
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    size_t off = 0;
    int err = MPI_SUCCESS;
    for (int i = k; i < p && err == MPI_SUCCESS; i += 2 * k) {
        size_t n = (size_t)(p - i < k ? p - i : k) * nb;
        char *slot = slots + (size_t)i * nb;
        err = pack ? dmpi_sched_copy(s, slot, n, byte, packed + off, n, byte)
                   : dmpi_sched_copy(s, packed + off, n, byte, slot, n, byte);
        off += n;
    }
    return err;
}

static size_t slots_with_bit(int p, int k)
{
    size_t n = 0;
    for (int i = k; i < p; i += 2 * k)
        n += (size_t)(p - i < k ? p - i : k);
    return n;
}

int dmpi_alltoall_bruck(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    int p = c->size, r = c->rank, err;
    size_t rc = m->rcount, nb = rc * m->rdt->size;
    dmpi_dtype_t *rdt = m->rdt, *byte = dmpi_dtype_get(MPI_BYTE);
    if (nb == 0)
        return MPI_SUCCESS;
    size_t half = (size_t)(p + 1) / 2 * nb;
    char *slots = dmpi_sched_tmp(s, (size_t)p * nb), *out = dmpi_sched_tmp(s, half), *in = dmpi_sched_tmp(s, half);
    if (!slots || !out || !in)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes of an alltoall", (size_t)p * nb + 2 * half);
    /* slot i = the block for r + i: blocks r .. p - 1, then 0 .. r - 1 */
    const void *src = m->sbuf == MPI_IN_PLACE ? m->rbuf : m->sbuf;
    size_t sc = m->sbuf == MPI_IN_PLACE ? rc : m->scount;
    dmpi_dtype_t *sdt = m->sbuf == MPI_IN_PLACE ? rdt : m->sdt;
    err = dmpi_sched_copy(s, dmpi_move_at(src, (size_t)r * sc, sdt), (size_t)(p - r) * sc, sdt, slots,
                          (size_t)(p - r) * nb, byte);
    if (err == MPI_SUCCESS && r > 0)
        err = dmpi_sched_copy(s, src, (size_t)r * sc, sdt, slots + (size_t)(p - r) * nb, (size_t)r * nb, byte);
    if (err == MPI_SUCCESS && p > 1)
        err = move_slots(s, slots, out, p, 1, nb, true);
    if (err == MPI_SUCCESS)
        err = dmpi_sched_round(s);
    for (int k = 1; k < p && err == MPI_SUCCESS; k <<= 1) {
        size_t n = slots_with_bit(p, k) * nb;
        if ((err = dmpi_sched_recv(s, in, n, byte, (r - k + p) % p)) ||
            (err = dmpi_sched_send(s, out, n, byte, (r + k) % p)) ||
            (err = move_slots(s, slots, in, p, k, nb, false)))
            break;
        if (2 * k < p && (err = move_slots(s, slots, out, p, 2 * k, nb, true)))
            break;
        err = dmpi_sched_round(s);
    }
    /* slot i now holds the block from rank r - i */
    for (int i = 0; i < p && err == MPI_SUCCESS; i++)
        err = dmpi_sched_copy(s, slots + (size_t)i * nb, nb, byte,
                              dmpi_move_at(m->rbuf, (size_t)((r - i + p) % p) * rc, rdt), rc, rdt);
    return err;
}
