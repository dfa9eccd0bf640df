/* Inside rma/: the engine's state of a window and the pieces its files share.
 *
 * An operation to another rank travels as an active message on the
 * window's private communicator (rma/am.c): a command (am_cmd_t, with the
 * target's data layout and small payloads inline), optionally followed by
 * one data message; results come back on a tag the origin chose. The
 * target runs the commands of each origin in the order they were sent, so
 * an UNLOCK, FLUSH or COMPLETE command finds all earlier operations of its
 * origin done: their acknowledgement is the remote completion. Operations
 * on this rank's own memory run at once, in the caller. */
#ifndef DMPI_RMA_INTERNAL_H
#define DMPI_RMA_INTERNAL_H

#include "rma/rma.h"
#include "core/op.h"
#include <assert.h>
#include <stdatomic.h>

/* Tags on the window's communicator. Replies use tags from RMA_TAG_REPLY up. */
enum { RMA_TAG_CMD = 1, RMA_TAG_DATA = 2, RMA_TAG_REPLY = 16 };

enum am_kind {
    AM_PUT = 1, AM_GET, AM_ACC, AM_GACC, AM_CAS,
    AM_LOCK, AM_UNLOCK, AM_FLUSH, AM_POST, AM_COMPLETE,
};

/* The target's data of an operation: count elements of a layout (a
 * predefined type's handle, or the runs of a derived one, shipped along). */
typedef struct am_cmd {
    uint8_t kind;                /* enum am_kind */
    uint8_t lock_type;           /* AM_LOCK: MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE (both below 256) */
    uint8_t runs_inline;         /* the runs ride in this message (else they open the data message) */
    uint8_t pad;
    int32_t reply_tag;           /* where the origin waits for the reply (0: none) */
    MPI_Op op;                   /* accumulates */
    MPI_Datatype basic;          /* accumulates: the element type */
    uint64_t addr;               /* byte offset in the window (dynamic: an address) */
    uint64_t count;              /* elements of the target layout */
    uint64_t bytes;              /* packed bytes of the target data */
    uint64_t inline_bytes;       /* of layout + payload, how much rides in this message */
    uint64_t extra_bytes;        /* ... and how much follows as one data message */
    /* the target layout: a predefined type, or nruns runs (in the extra part) */
    MPI_Datatype tdt;            /* predefined, or MPI_DATATYPE_NULL: runs follow */
    int32_t nruns;
    int64_t extent, true_lb;
    uint64_t size;               /* bytes of data in one target element */
    int64_t lo;                  /* the bytes touched: [addr + lo, addr + lo + span) */
    uint64_t span;
} am_cmd_t;

/* Bytes of the runs a command ships (none for a predefined target type). */
static inline size_t am_runs_bytes(const am_cmd_t *c)
{
    return c->tdt == MPI_DATATYPE_NULL ? (size_t)c->nruns * sizeof(dmpi_run_t) : 0;
}

/* Commands up to this size (header, layout, payload) travel as one message. */
#define AM_INLINE_MAX 8192

/* A target's reply to UNLOCK, FLUSH and LOCK: the error it met, if any. */
typedef struct am_ack {
    int32_t err;
    int32_t pad;
} am_ack_t;

/* Origin side: an operation (or a synchronisation message) in flight. */
typedef struct rma_pend {
    struct rma_pend *next;
    int target;
    int nparts;
    dmpi_request_t *parts[3];
    dmpi_request_t *user;        /* R forms: completes with the parts */
    void *tmp;                   /* freed with it (packed data, command buffer) */
    void *tmp2;
} rma_pend_t;

/* Target side: a command waiting for its data or its turn. */
typedef struct rma_in {
    struct rma_in *next;
    int origin;
    dmpi_request_t *data_req;    /* the extra part arriving, or NULL */
    bool direct;                 /* ... straight into the window (a contiguous put) */
    char *msg;                   /* command, then layout and payload (inline + extra) */
} rma_in_t;

/* The lock of this rank's memory. */
typedef struct rma_lock {
    int excl;                    /* holder of the exclusive lock, or -1 */
    int shared;                  /* holders of the shared lock */
} rma_lock_t;

/* A region of a dynamic window (Win_attach). */
typedef struct rma_region {
    uintptr_t base;
    size_t size;
} rma_region_t;

/* A rank's synchronisation words in a window shared by a node (rma/direct.c). */
typedef struct rma_ctl {
    _Atomic uint64_t lock;       /* exclusive bit (63) | shared holders */
    _Atomic uint32_t acc;        /* accumulate lock */
    uint32_t pad0;
    char pad[48];
} rma_ctl_t;
static_assert(sizeof(rma_ctl_t) == 64, "one cache line per rank");

typedef struct rma_peer {
    uint64_t base;               /* its memory, in its own address space */
    MPI_Aint size;
    MPI_Aint disp_unit;
    void *shared;                /* shared windows: its memory mapped here */
} rma_peer_t;

struct rma_state {
    dmpi_win_t *win;
    struct rma_state *next_win;  /* every live window, for the progress hook */
    int rank, size;
    rma_peer_t *peers;
    /* memory this engine allocated (Win_allocate, shared mapping) */
    void *alloc;                 /* private memory of Win_allocate */
    bool use_map;                /* the ranks share a node: one mapping holds ctl (and memory) */
    bool map_memory;             /* ... and the window memory too (allocate, allocate_shared) */
    rma_ctl_t *ctl;              /* per rank, in the mapping; NULL: synchronise by messages */
    char *map;
    size_t map_bytes;
    bool shared_noncontig;       /* each rank's part starts on a page */
    /* target side */
    dmpi_request_t *cmd_req;     /* the posted receive of commands */
    char *cmd_buf;
    rma_in_t *in_head, *in_tail; /* commands waiting, in arrival order */
    unsigned char *blocked;      /* per origin, scratch of the hook's walk */
    rma_pend_t *replies;         /* replies being sent */
    rma_lock_t lock;
    int *err_for;                /* per origin: an error to report in its next ack */
    rma_region_t *regions;
    int nregions, cap_regions;
    int completes;               /* COMPLETE commands received (PSCW) */
    int *queued;                 /* per origin: its commands waiting in the list */
    /* origin side */
    rma_pend_t *pend;            /* operations in flight */
    int pend_err;                /* the first error one of them met, until a wait reports it */
    int next_tag;
    unsigned char *dirty;        /* per target: operations not yet acknowledged */
    unsigned char *locked;       /* per target: 0, or MPI_LOCK_SHARED/EXCLUSIVE held (Win_lock) */
    int nlocked;
    bool lock_all;
    bool fence_on;               /* a fence epoch is open (fence without NOSUCCEED) */
    bool fence_used;             /* operations were issued since the last fence */
    int *posts;                  /* per target: POST commands received not yet used by start */
    int *start_group;            /* the access group of Win_start (window ranks), or NULL */
    int start_n;
    unsigned char *start_wait;   /* per member: its POST still to be consumed */
    int *post_group;             /* the exposure group of Win_post, or NULL */
    int post_n;
    int in_progress;             /* the hook is running (no re-entry) */
    unsigned flush_polls;        /* flushes so far (each 64th serves commands on a node's window) */
};

/* ---- am.c ------------------------------------------------------------------ */
int rma_am_open(struct rma_state *st);          /* post the command receive, join the hook */
void rma_am_close(struct rma_state *st);        /* cancel it */
void rma_am_drain(struct rma_state *st);        /* waits until every reply is sent */
/* A command message: a copy of cmd (its fields final), then room for its
 * cmd->inline_bytes, which the caller writes; NULL if out of memory. */
char *rma_am_msg(const am_cmd_t *cmd);
/* Sends a message from rma_am_msg (p owns it from now on) and, if
 * xcount > 0, the data message (xcount elements of xdt at xbuf); the sends
 * join p (which the caller adds to st->pend). */
int rma_am_send(struct rma_state *st, int target, char *msg, const void *xbuf, int xcount, dmpi_dtype_t *xdt,
                rma_pend_t *p);
/* A fresh reply tag. */
int rma_am_tag(struct rma_state *st);
/* A synchronisation command with no data. With ack the target answers
 * once every earlier command of ours is done (or, for AM_LOCK, once the
 * lock is ours): start it, then wait for the answer and its error. */
int rma_am_sync_start(struct rma_state *st, int target, int kind, int lock_type, bool ack, rma_pend_t **out);
int rma_am_sync_finish(struct rma_state *st, rma_pend_t *p);

/* ---- pend.c: the origin's operations in flight ----------------------------- */
rma_pend_t *rma_pend_new(struct rma_state *st, int target);
void rma_pend_add(struct rma_state *st, rma_pend_t *p);
/* Whether all of p's requests are complete. */
bool rma_pend_done(const rma_pend_t *p);
/* Frees the complete ones of a list (their R requests complete); the first error met. */
int rma_pend_reap_list(rma_pend_t **list);
/* The same for st->pend; the first error met stays in st->pend_err, which it returns. */
int rma_pend_reap(struct rma_state *st);
/* Waits for every one to target (-1: all); returns and clears st->pend_err. */
int rma_pend_wait(struct rma_state *st, int target);
void rma_pend_free(rma_pend_t *p);

/* ---- exec.c: carrying out a command on this rank's memory ------------------ */
/* The target memory of [addr, addr + span) in this window, or NULL with
 * *err set (MPI_ERR_RMA_RANGE). */
char *rma_target_mem(struct rma_state *st, uint64_t addr, int64_t lo, uint64_t span, int *err);
/* Builds the target layout type described by cmd and runs (stack storage in *tmp). */
void rma_layout(const am_cmd_t *cmd, const dmpi_run_t *runs, dmpi_dtype_t *tmp);
/* Element-wise op on the target's data: inout (laid out by tdt at base)
 * op= packed in. old, if not NULL, gets the previous packed data. */
void rma_apply(dmpi_op_t *op, MPI_Datatype basic, const dmpi_dtype_t *tdt, size_t count, char *base,
               const void *in, void *old);
/* malloc, or the end of the job: for work others started (a command being
 * served), where there is no caller to return an error to. */
void *rma_must_alloc(size_t n);
/* Compare-and-swap of n bytes at mem: old gets them; if they equal cmp, in replaces them. */
void rma_cas(char *mem, const void *in, const void *cmp, void *old, size_t n);
/* inout op= in on packed data of basic elements. */
void rma_apply_packed(dmpi_op_t *op, MPI_Datatype basic, const void *in, void *inout, size_t bytes);
/* Copies typed data (same signature) between two buffers of this process. */
void rma_copy_typed(const void *src, int scount, const dmpi_dtype_t *sdt, void *dst, int dcount,
                    const dmpi_dtype_t *ddt);
/* Locks: true if granted now to origin. */
bool rma_lock_try(struct rma_state *st, int origin, int type);
void rma_lock_release(struct rma_state *st, int origin);

/* ---- sync.c ------------------------------------------------------------------ */
/* MPI_SUCCESS if an access epoch to target is open (in a PSCW epoch, once
 * the target's post arrived: waits for it); else MPI_ERR_RMA_SYNC naming fn.
 * A request-based operation (request) needs a passive-target epoch. */
int rma_check_access(struct rma_state *st, int target, const char *fn, bool request);

/* ---- win_shm.c: window memory shared by the ranks of a node ------------------ */
/* Before the exchange: whether the memory will be shared (MPI_ERR_RMA_SHARED
 * for a shared window whose ranks are on several nodes). */
int rma_shm_plan(dmpi_win_t *w, struct dmpi_info *info);
/* After it (every rank's size known): maps it, sets w->base and peers' views. */
int rma_shm_share(dmpi_win_t *w);
void rma_shm_unmap(struct rma_state *st);

/* ---- direct.c: synchronisation words of a node's window -------------------- */
bool rma_ctl_lock_try(rma_ctl_t *c, int type);
void rma_ctl_lock(struct rma_state *st, int rank, int type);   /* waits (progressing) */
void rma_ctl_unlock(rma_ctl_t *c, int type);
/* Around every accumulate on rank's memory (no-ops without ctl). */
void rma_acc_lock(struct rma_state *st, int rank);
void rma_acc_unlock(struct rma_state *st, int rank);

/* ---- ops.c: the operations, counts of at most INT_MAX (widen.c calls them) --- */
int rma_put(const char *fn, const void *obuf, int ocount, dmpi_dtype_t *odt, int target, MPI_Aint tdisp, int tcount,
            dmpi_dtype_t *tdt, dmpi_win_t *w, dmpi_request_t **req);
int rma_get(const char *fn, void *obuf, int ocount, dmpi_dtype_t *odt, int target, MPI_Aint tdisp, int tcount,
            dmpi_dtype_t *tdt, dmpi_win_t *w, dmpi_request_t **req);
int rma_acc(const char *fn, const void *obuf, int ocount, dmpi_dtype_t *odt, void *rbuf, int rcount, dmpi_dtype_t *rdt,
            int target, MPI_Aint tdisp, int tcount, dmpi_dtype_t *tdt, struct dmpi_op *op, dmpi_win_t *w,
            dmpi_request_t **req);

/* ---- window list (win.c) ----------------------------------------------------- */
extern struct rma_state *rma_windows;
int rma_progress(void);          /* the progress hook: every window's commands */

#endif
