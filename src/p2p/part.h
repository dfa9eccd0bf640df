/* Partitioned point-to-point (MPI-4 chapter 4): persistent requests whose
 * buffer is cut into partitions that the sender marks ready one by one and
 * the receiver can watch arrive one by one (p2p/partitioned.c). */
#ifndef DMPI_PART_H
#define DMPI_PART_H

#include "p2p/request.h"

/* Tags of partitioned traffic on a communicator's collective context: far
 * below every tag the collectives use (coll/coll.h), so the two never meet.
 * A send announces itself with one SETUP message; partition i of a send
 * travels with tag (its tag base - i), its base drawn from [DATA_LAST, DATA_FIRST]. */
enum {
    DMPI_TAG_PART_SETUP = -0x0f000000,
    DMPI_TAG_PART_DATA_FIRST = -0x10000000,
    DMPI_TAG_PART_DATA_LAST = -0x7fffffff,
};

/* The api layer checked every argument: partitions >= 0, count >= 0, a
 * committed type, dest/source a rank of c or MPI_PROC_NULL, a tag >= 0. */
int dmpi_psend_init(const void *buf, int partitions, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag,
                    dmpi_comm_t *c, dmpi_request_t **out);
int dmpi_precv_init(void *buf, int partitions, MPI_Count count, dmpi_dtype_t *dt, int source, int tag,
                    dmpi_comm_t *c, dmpi_request_t **out);

/* MPI_Start on a partitioned request (inactive, checked by the caller). */
int dmpi_part_start(dmpi_request_t *r);

/* The number of partitions of r, and whether it is a send. */
int dmpi_part_count(const dmpi_request_t *r);
bool dmpi_part_is_send(const dmpi_request_t *r);
/* Marks partition i (in range, of an active send) ready; MPI_ERR_ARG, with
 * a message naming fn, if it was already marked in this round. */
int dmpi_pready(dmpi_request_t *r, int i, const char *fn);
/* Whether partition i (in range) of an active receive is in the buffer. */
bool dmpi_parrived(dmpi_request_t *r, int i);

/* MPI_Request_free: at once if inactive, else once the round completes. */
int dmpi_part_release(dmpi_request_t *r);

#endif
