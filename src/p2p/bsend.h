/* Buffered sends: the user's attached buffers, carved into one region per
 * message in flight. A communicator's own buffer (MPI_Comm_attach_buffer)
 * serves its buffered sends; else the buffer of the session it derives from
 * (MPI_Session_attach_buffer); else the process's (MPI_Buffer_attach).
 * Either may be MPI_BUFFER_AUTOMATIC: each message then gets memory of its
 * own, as large as it needs. */
#ifndef DMPI_BSEND_H
#define DMPI_BSEND_H

#include "p2p/request.h"

struct dmpi_session;

/* The process's buffer (c NULL) or c's. Attaching where one is attached
 * is MPI_ERR_BUFFER. Detach waits for the messages in flight and returns
 * what was attached (MPI_BUFFER_AUTOMATIC and the size given with it, or
 * NULL and 0 when nothing was). */
int dmpi_buffer_attach_to(const char *fn, dmpi_comm_t *c, void *buf, size_t size);
int dmpi_buffer_detach_from(dmpi_comm_t *c, void *addr_out, size_t *size_out);
/* Waits until the messages in the buffer have left it (MPI_Buffer_flush,
 * MPI_Comm_flush_buffer); the i-form hands out a request that completes then. */
int dmpi_buffer_flush(dmpi_comm_t *c);
int dmpi_buffer_iflush(dmpi_comm_t *c, dmpi_request_t **out);

/* The same for a session's buffer. Drop: what MPI_Session_finalize does
 * with a buffer still attached, detach it (waiting for its messages). */
int dmpi_session_buffer_attach(const char *fn, struct dmpi_session *s, void *buf, size_t size);
int dmpi_session_buffer_detach(struct dmpi_session *s, void *addr_out, size_t *size_out);
int dmpi_session_buffer_flush(struct dmpi_session *s);
int dmpi_session_buffer_iflush(struct dmpi_session *s, dmpi_request_t **out);
void dmpi_session_buffer_drop(struct dmpi_session *s);

/* The process's buffer, as MPI_Buffer_attach/detach take it. */
int dmpi_buffer_attach(void *buf, size_t size);
int dmpi_buffer_detach(void *addr_out, size_t *size_out);   /* waits for messages in flight */
size_t dmpi_buffer_attached_size(void);                     /* 0 when none is attached */
int dmpi_bsend(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c);
int dmpi_bsend_start(dmpi_request_t *persistent);         /* MPI_Start of a Bsend_init request */
void dmpi_bsend_release(void *region);
void dmpi_bsend_finalize(void);                           /* waits for messages in flight */

#endif
