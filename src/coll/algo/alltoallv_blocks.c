/* Blocks of the data-movement collectives (dmpi_move_t in coll.h): where
 * rank j's data lies in the send and receive buffers, whatever the form of
 * the call, so that one algorithm serves alltoall, alltoallv and alltoallw,
 * and the v forms of gather, scatter and allgather. Not an algorithm. */
#include "coll/coll.h"
#include "coll/sched.h"
#include <stdint.h>

/* buf + off by integer arithmetic: buf may be MPI_BOTTOM (NULL) with
 * absolute displacements. */
static void *offset(const void *buf, MPI_Aint off)
{
    return (void *)((uintptr_t)buf + (uintptr_t)off);
}

size_t dmpi_move_sblock(const dmpi_move_t *m, int j, const void **buf, size_t *count, dmpi_dtype_t **dt)
{
    if (m->soff) {
        *dt = dmpi_dtype_get(MPI_BYTE);
        *buf = offset(m->sbuf, (MPI_Aint)m->soff[j]);
        *count = m->soff[j + 1] - m->soff[j];
    } else if (m->stypes) {
        *dt = dmpi_dtype_get(m->stypes[j]);
        *buf = offset(m->sbuf, m->sdispls[j]);
        *count = (size_t)m->scounts[j];
    } else if (m->scounts) {
        *dt = m->sdt;
        *buf = offset(m->sbuf, (MPI_Aint)m->sdispls[j] * m->sdt->extent);
        *count = (size_t)m->scounts[j];
    } else {
        *dt = m->sdt;
        *buf = offset(m->sbuf, (MPI_Aint)((size_t)j * m->scount) * m->sdt->extent);
        *count = m->scount;
    }
    return *count * (*dt)->size;
}

size_t dmpi_move_rblock(const dmpi_move_t *m, int j, void **buf, size_t *count, dmpi_dtype_t **dt)
{
    if (m->rtypes) {
        *dt = dmpi_dtype_get(m->rtypes[j]);
        *buf = offset(m->rbuf, m->rdispls[j]);
        *count = (size_t)m->rcounts[j];
    } else if (m->rcounts) {
        *dt = m->rdt;
        *buf = offset(m->rbuf, (MPI_Aint)m->rdispls[j] * m->rdt->extent);
        *count = (size_t)m->rcounts[j];
    } else {
        *dt = m->rdt;
        *buf = offset(m->rbuf, (MPI_Aint)((size_t)j * m->rcount) * m->rdt->extent);
        *count = m->rcount;
    }
    return *count * (*dt)->size;
}

/* With MPI_IN_PLACE each receive block is also the data to send to that
 * rank, and it may be overwritten before it has left: so everything to
 * send is packed first, in a round of its own. */
int dmpi_move_pack_inplace(dmpi_sched_t *s, dmpi_comm_t *c, dmpi_move_t *m)
{
    int p = c->size;
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    size_t *off = dmpi_sched_tmp(s, (size_t)(p + 1) * sizeof *off), total = 0;
    if (!off)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for an in-place all-to-all");
    for (int j = 0; j < p; j++) {
        void *rb;
        size_t n;
        dmpi_dtype_t *dt;
        off[j] = total;
        if (j != c->rank)
            total += dmpi_move_rblock(m, j, &rb, &n, &dt);
    }
    off[p] = total;
    char *packed = dmpi_sched_tmp(s, total);
    if (!packed)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for %zu bytes of an in-place all-to-all", total);
    int err = MPI_SUCCESS;
    for (int j = 0; j < p && err == MPI_SUCCESS; j++) {
        void *rb;
        size_t n;
        dmpi_dtype_t *dt;
        if (j != c->rank && dmpi_move_rblock(m, j, &rb, &n, &dt))
            err = dmpi_sched_copy(s, rb, n, dt, packed + off[j], off[j + 1] - off[j], byte);
    }
    if (err == MPI_SUCCESS)
        err = dmpi_sched_round(s);
    m->sbuf = packed;
    m->soff = off;
    m->inplace = true;
    return err;
}

int dmpi_move_self_copy(dmpi_sched_t *s, dmpi_comm_t *c, const dmpi_move_t *m)
{
    if (m->inplace)
        return MPI_SUCCESS;
    const void *sb;
    void *rb;
    size_t sn, rn;
    dmpi_dtype_t *sdt, *rdt;
    size_t sbytes = dmpi_move_sblock(m, c->rank, &sb, &sn, &sdt);
    size_t rbytes = dmpi_move_rblock(m, c->rank, &rb, &rn, &rdt);
    if (!sbytes || !rbytes)
        return MPI_SUCCESS;
    return dmpi_sched_copy(s, sb, sn, sdt, rb, rn, rdt);
}
