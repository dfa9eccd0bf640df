/* Requests: the state of one send or receive in flight.
 * Nonblocking calls take them from a pool and hand out a handle; blocking
 * receives use one on the caller's stack and never touch the pool. */
#ifndef DMPI_REQUEST_H
#define DMPI_REQUEST_H

#include "core/dmpi.h"
#include <string.h>

typedef enum {
    DMPI_REQ_SEND = 1,
    DMPI_REQ_RECV,
    DMPI_REQ_PROC_NULL,     /* completes at once with the PROC_NULL status */
    DMPI_REQ_COMPOSITE,     /* completes when its sub-requests do (isendrecv) */
    DMPI_REQ_MESSAGE,       /* an MPI_Message from Mprobe: holds the matched message */
    DMPI_REQ_COLL,          /* a collective's schedule (coll/sched.c) completes it */
    DMPI_REQ_GREQ,          /* generalized: the program completes it (p2p/grequest.c) */
    DMPI_REQ_RMA,           /* an R-form one-sided operation: rma/ completes it */
    DMPI_REQ_PART,          /* partitioned send or receive (p2p/partitioned.c) */
    DMPI_REQ_BFLUSH,        /* MPI_Buffer_iflush / MPI_Comm_iflush_buffer (p2p/bsend.c) */
} dmpi_req_kind_t;

/* Send modes */
enum { DMPI_MODE_STANDARD, DMPI_MODE_SYNC, DMPI_MODE_READY, DMPI_MODE_BUFFERED };

struct dmpi_msg;

/* The match header of a message, as senders fill it in (tport/tport.h). */
typedef struct dmpi_hdr {
    uint32_t ctx;
    int32_t src;                 /* rank in the communicator */
    int32_t tag;
    uint32_t seq;                /* per (ctx, src): see p2p/deliver.c */
} dmpi_hdr_t;

typedef struct dmpi_request {
    volatile int done;           /* set once, when the operation is complete */
    uint8_t kind;
    uint8_t persistent;          /* created by *_init; survives completion */
    uint8_t active;              /* persistent: started and not yet completed */
    uint8_t mode;                /* send mode */
    uint8_t sync_pending;        /* sync send: waiting for the match ack */
    uint8_t data_pending;        /* send: bytes still to be handed to the transport */
    uint8_t free_on_done;        /* MPI_Request_free'd while active */
    uint8_t cancelled;
    uint8_t nc;                  /* noncontiguous data: moved by the pack engine, buf unused */
    uint8_t dt_held;             /* holds a reference on a derived dt until freed */
    uint8_t comm_held;           /* holds a reference on comm until freed */
    MPI_Request handle;

    /* matching and addressing */
    uint32_t ctx;
    int rank;                    /* recv: source (may be ANY); send: destination, both comm ranks */
    int tag;
    int peer;                    /* world rank of the other side, once known */
    dmpi_comm_t *comm;

    /* data: buf/bytes is what moves (user buffer, or tmp when packed);
     * noncontiguous (nc) data moves straight between ubuf and the transport */
    char *buf;
    size_t bytes;
    size_t offset;               /* bytes moved so far */
    void *tmp;                   /* pack buffer for noncontiguous data */
    const void *ubuf;            /* the user's buffer, count and type */
    MPI_Count ucount;
    dmpi_dtype_t *dt;

    /* status */
    int st_source, st_tag, st_error;
    size_t st_bytes;

    /* protocol */
    struct dmpi_msg *msg;        /* recv matched to a message still arriving */
    struct dmpi_request *next, *prev;  /* posted queue, or a send queue */

    /* buffered sends: the region of the attached buffer this send holds */
    void *bsend_region;
    /* composite: sub-requests */
    struct dmpi_request *sub[2];
    void *replace_buf;           /* isendrecv_replace: where to unpack at the end */
    void *coll_copy;             /* DMPI_REQ_COLL only: the copy of an aliased sendbuf the collective
                                  * reads (api/coll_alias.c); freed at completion, or with the request */
    struct dmpi_greq *greq;      /* generalized request: the program's callbacks */
    struct dmpi_part *part;      /* partitioned request: its partitions (p2p/partitioned.c) */
    const struct dmpi_preq_ops *pops;  /* a persistent request of a layer above (persistent collectives) */
    void *pstate;                /* ... and that layer's state of it */

    /* Not cleared by dmpi_req_alloc: whoever reads them sets them first. */
    dmpi_hdr_t hdr;              /* send: the match header the message carries */
    size_t expect;               /* recv: bytes that will arrive (the rest of a longer message is dropped) */
    uint64_t tport_priv[4];      /* the transport's own state of this request (e.g. shm_req_t) */
} dmpi_request_t;
#define DMPI_REQ_CLEARED offsetof(dmpi_request_t, hdr)

/* A persistent request that p2p does not run itself (coll/persist.c):
 * MPI_Start calls start (with active set), and release runs when the
 * request is freed. */
typedef struct dmpi_preq_ops {
    int (*start)(dmpi_request_t *r);
    void (*release)(dmpi_request_t *r);
} dmpi_preq_ops_t;

dmpi_request_t *dmpi_req_alloc(int kind);           /* zeroed, with a handle */
void dmpi_req_free(dmpi_request_t *r);
dmpi_request_t *dmpi_req_get(MPI_Request h);        /* NULL if not a live request */
void dmpi_req_pool_finalize(void);
int dmpi_req_live_count(void);

/* Marks the request complete; runs the completion duties (unpack, free a
 * request whose handle was already freed). */
void dmpi_req_complete(dmpi_request_t *r);

/* The same, with the common case (nothing to release) inline. */
static inline void dmpi_req_complete_inline(dmpi_request_t *r)
{
    if (DMPI_LIKELY(!r->tmp && !r->bsend_region && !r->free_on_done))
        r->done = 1;
    else
        dmpi_req_complete(r);
}

/* The empty status (any source, any tag, no data) with error err: what a
 * completed collective, idup or cancelled receive reports. */
static inline void dmpi_req_set_empty_status(dmpi_request_t *r, int err)
{
    r->st_source = MPI_ANY_SOURCE;
    r->st_tag = MPI_ANY_TAG;
    r->st_error = err;
    r->st_bytes = 0;
}

static inline void dmpi_req_set_proc_null_status(dmpi_request_t *r)
{
    r->st_source = MPI_PROC_NULL;
    r->st_tag = MPI_ANY_TAG;
    r->st_error = MPI_SUCCESS;
    r->st_bytes = 0;
}

/* Bytes [off, off + n) of a receive's data arrived at src. */
static inline void dmpi_req_put(dmpi_request_t *r, size_t off, const void *src, size_t n)
{
    if (DMPI_LIKELY(!r->nc))
        dmpi_copy(r->buf + off, src, n);
    else
        dmpi_dtype_unpack_range(r->dt, (void *)r->ubuf, off, n, src);
}

/* Copies bytes [off, off + n) of a send's data to dst. */
static inline void dmpi_req_take(const dmpi_request_t *s, size_t off, void *dst, size_t n)
{
    if (DMPI_LIKELY(!s->nc))
        dmpi_copy(dst, s->buf + off, n);
    else
        dmpi_dtype_pack_range(s->dt, s->ubuf, off, n, dst);
}

/* A pooled request keeps a derived type alive (MPI_Type_free may come first). */
static inline void dmpi_req_hold_type(dmpi_request_t *r)
{
    if (!r->dt->predefined && !r->dt_held) {
        dmpi_dtype_retain(r->dt);
        r->dt_held = 1;
    }
}

/* A pooled request keeps its communicator alive (MPI_Comm_free may come first). */
static inline void dmpi_req_hold_comm(dmpi_request_t *r)
{
    if (!r->comm_held) {
        dmpi_comm_retain(r->comm);
        r->comm_held = 1;
    }
}

/* Fills a user status from a completed request (status may be IGNORE). */
void dmpi_req_fill_status(const dmpi_request_t *r, MPI_Status *st);
void dmpi_status_set(MPI_Status *st, int source, int tag, int error, size_t bytes, bool cancelled);
void dmpi_status_empty(MPI_Status *st);
size_t dmpi_status_bytes(const MPI_Status *st);
/* The byte count alone, or the cancelled flag alone (MPI_Status_set_*). */
void dmpi_status_set_bytes(MPI_Status *st, size_t bytes);
void dmpi_status_set_cancelled(MPI_Status *st, bool cancelled);

#endif
