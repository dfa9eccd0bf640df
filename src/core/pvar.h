/* The counters behind MPI_T's performance variables: plain per-process
 * numbers (no atomics; under MPI_THREAD_MULTIPLE the library lock orders
 * their updates), each bumped where the work it counts is done already.
 * Readers (core/mpit_pvar.c) take differences, so nothing here is ever
 * reset. */
#ifndef DMPI_PVAR_H
#define DMPI_PVAR_H

#include <stddef.h>
#include <stdint.h>

enum { DMPI_PV_SELF, DMPI_PV_SHM, DMPI_PV_TCP, DMPI_PV_NTPORTS };

typedef struct dmpi_pv_tport {
    uint64_t msgs_sent, bytes_sent;   /* messages handed to the transport (inline, eager, rendezvous) */
    uint64_t msgs_recvd, bytes_recvd; /* messages arrived from it, counted at their first header */
} dmpi_pv_tport_t;

typedef struct dmpi_pv {
    dmpi_pv_tport_t tport[DMPI_PV_NTPORTS];
    uint64_t unexp_len, unexp_hwm;    /* messages in the unexpected queues; the most there were */
    uint64_t posted_len;              /* receives posted and not yet matched */
    uint64_t cma_fallbacks;           /* single copies that failed, the message then went through the queue */
    uint64_t rma_puts, rma_gets, rma_accs, rma_cas;   /* one-sided operations started by this process */
} dmpi_pv_t;

extern dmpi_pv_t dmpi_pv;

static inline void dmpi_pv_sent(int t, size_t bytes)
{
    dmpi_pv.tport[t].msgs_sent++;
    dmpi_pv.tport[t].bytes_sent += bytes;
}

static inline void dmpi_pv_recvd(int t, size_t bytes)
{
    dmpi_pv.tport[t].msgs_recvd++;
    dmpi_pv.tport[t].bytes_recvd += bytes;
}

static inline void dmpi_pv_unexp_add(void)
{
    if (++dmpi_pv.unexp_len > dmpi_pv.unexp_hwm)
        dmpi_pv.unexp_hwm = dmpi_pv.unexp_len;
}

#endif
