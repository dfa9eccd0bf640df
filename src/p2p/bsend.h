/* Buffered sends: the user's attached buffer, carved into one region per
 * message in flight. */
#ifndef DMPI_BSEND_H
#define DMPI_BSEND_H

#include "p2p/request.h"

int dmpi_buffer_attach(void *buf, size_t size);
int dmpi_buffer_detach(void *addr_out, size_t *size_out);   /* waits for messages in flight */
size_t dmpi_buffer_attached_size(void);                     /* 0 when none is attached */
int dmpi_bsend(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c);
int dmpi_bsend_start(dmpi_request_t *persistent);         /* MPI_Start of a Bsend_init request */
void dmpi_bsend_release(void *region);
void dmpi_bsend_finalize(void);                           /* waits for messages in flight */

#endif
