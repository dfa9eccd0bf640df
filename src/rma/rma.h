/* One-sided communication: windows, their operations and synchronisation.
 * The api/ layer checks handles, counts, ranks and types, then calls one
 * function here; what only the window's state can tell (an operation
 * outside an epoch, a target range beyond the window) is checked here and
 * returned as an MPI_ERR_RMA_* code whose message names the call.
 *
 * Every window has a private duplicate of the communicator it was made on:
 * operations to a target that this rank cannot reach directly travel as
 * active messages on it (rma/am.c), handled by the target's progress
 * engine, so one-sided communication works over every transport. */
#ifndef DMPI_RMA_H
#define DMPI_RMA_H

#include "core/dmpi.h"
#include "p2p/request.h"

struct dmpi_group;
struct dmpi_info;
struct dmpi_op;
struct dmpi_attr;
struct rma_state;

typedef struct dmpi_win {
    MPI_Win handle;
    int flavor;                  /* MPI_WIN_FLAVOR_* */
    int model;                   /* MPI_WIN_UNIFIED */
    void *base;                  /* this rank's memory (NULL for dynamic windows) */
    MPI_Aint size;
    MPI_Aint disp_unit;
    int disp_unit_attr;          /* the MPI_WIN_DISP_UNIT attribute (an int): disp_unit, at most INT_MAX */
    dmpi_comm_t *comm;           /* the private duplicate; its group is the window's */
    MPI_Errhandler errhandler;
    struct dmpi_attr *attrs;     /* cached attributes (core/attr.c, kind DMPI_ATTR_WIN) */
    struct dmpi_info *hints;     /* the info keys the window keeps (rma/win_info.c) */
    char name[MPI_MAX_OBJECT_NAME];
    struct rma_state *st;        /* the engine's own state */
} dmpi_win_t;

/* NULL if h is not a live window. */
dmpi_win_t *dmpi_win_get(MPI_Win h);

/* ---- creation and destruction (collective over comm) ----------------------
 * comm is a private duplicate the caller made of the user's communicator;
 * the window takes it over (and frees it on failure). */
int dmpi_win_create(void *base, MPI_Aint size, MPI_Aint disp_unit, struct dmpi_info *info, dmpi_comm_t *comm,
                    dmpi_win_t **out);
/* Win_allocate (shared false) and Win_allocate_shared: *(void **)baseptr
 * gets this rank's memory. */
int dmpi_win_allocate(MPI_Aint size, MPI_Aint disp_unit, struct dmpi_info *info, dmpi_comm_t *comm, bool shared,
                      void *baseptr, dmpi_win_t **out);
int dmpi_win_create_dynamic(struct dmpi_info *info, dmpi_comm_t *comm, dmpi_win_t **out);
/* MPI_Win_free: waits until no one needs this rank's memory, then frees. */
int dmpi_win_free(dmpi_win_t *w);

int dmpi_win_attach(dmpi_win_t *w, void *base, MPI_Aint size);
int dmpi_win_detach(dmpi_win_t *w, const void *base);
/* rank may be MPI_PROC_NULL: the lowest rank with a non-empty part. */
int dmpi_win_shared_query(dmpi_win_t *w, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr);

/* Info: set keeps the keys the window understands; get returns a new
 * info object with every key and its current value. */
int dmpi_win_set_info(dmpi_win_t *w, struct dmpi_info *info);
int dmpi_win_get_info(dmpi_win_t *w, struct dmpi_info **out);

/* ---- operations -----------------------------------------------------------
 * target is a rank of the window's group (never MPI_PROC_NULL: the api
 * layer answers those). req is NULL for the plain forms; for the R forms
 * it gets a request that completes when the operation is locally complete
 * (Rget, Rget_accumulate: the result is in place). Counts above INT_MAX
 * (the _c forms) move as one element of a derived type holding them all
 * (rma/widen.c). fn names the call in messages. */
int dmpi_rma_put(const char *fn, const void *obuf, MPI_Count ocount, dmpi_dtype_t *odt, int target, MPI_Aint tdisp,
                 MPI_Count tcount, dmpi_dtype_t *tdt, dmpi_win_t *w, dmpi_request_t **req);
int dmpi_rma_get(const char *fn, void *obuf, MPI_Count ocount, dmpi_dtype_t *odt, int target, MPI_Aint tdisp,
                 MPI_Count tcount, dmpi_dtype_t *tdt, dmpi_win_t *w, dmpi_request_t **req);
/* Accumulate and Get_accumulate (rbuf NULL: no result). op is predefined,
 * MPI_REPLACE or MPI_NO_OP; the api layer checked that both types are built
 * of one predefined type that op accepts. */
int dmpi_rma_acc(const char *fn, const void *obuf, MPI_Count ocount, dmpi_dtype_t *odt, void *rbuf, MPI_Count rcount,
                 dmpi_dtype_t *rdt, int target, MPI_Aint tdisp, MPI_Count tcount, dmpi_dtype_t *tdt,
                 struct dmpi_op *op, dmpi_win_t *w, dmpi_request_t **req);
int dmpi_rma_cas(const void *obuf, const void *cbuf, void *rbuf, dmpi_dtype_t *dt, int target, MPI_Aint tdisp,
                 dmpi_win_t *w);

/* ---- synchronisation ------------------------------------------------------ */
int dmpi_win_fence(int assert, dmpi_win_t *w);
int dmpi_win_post(struct dmpi_group *g, int assert, dmpi_win_t *w);
int dmpi_win_start(struct dmpi_group *g, int assert, dmpi_win_t *w);
int dmpi_win_complete(dmpi_win_t *w);
int dmpi_win_wait(dmpi_win_t *w);
int dmpi_win_test(dmpi_win_t *w, int *flag);
/* rank MPI_PROC_NULL is answered by the api layer. */
int dmpi_win_lock(int type, int rank, int assert, dmpi_win_t *w);
int dmpi_win_unlock(int rank, dmpi_win_t *w);
int dmpi_win_lock_all(int assert, dmpi_win_t *w);
int dmpi_win_unlock_all(dmpi_win_t *w);
/* rank -1: every target (flush_all, flush_local_all). */
int dmpi_win_flush(int rank, bool local_only, dmpi_win_t *w);
int dmpi_win_sync(dmpi_win_t *w);

/* MPI_Finalize: every window the program left (they are freed quietly). */
void dmpi_rma_finalize(void);

#endif
