/* Argument checks shared by the barrier and the data-movement collectives
 * (api/coll_barrier.c ... coll_alltoall.c, bodies in coll_move_checks.c).
 * Each returns MPI_SUCCESS or an error whose message names the call and
 * the argument. `side` is "send" or "recv": the arguments are then called
 * sendbuf, sendcount, sendtype (recvbuf, ...) as in the standard. */
#ifndef DMPI_API_COLL_MOVE_H
#define DMPI_API_COLL_MOVE_H

#include "api/api.h"
#include "api/coll_alias.h"
#include "coll/persist.h"
#include "coll/table.h"

/* MPI_Count arguments: the _c forms pass theirs, the int forms theirs widened. */

/* MPI is initialised and comm is a communicator (intra or inter). */
int dmpi_check_coll(const char *fn, MPI_Comm comm, dmpi_comm_t **c);
/* count (named what) >= 0. */
int dmpi_check_coll_count(const char *fn, const char *what, MPI_Count count);
/* One block: count >= 0 elements of a committed type, a usable buffer. */
int dmpi_check_block(const char *fn, const char *side, const void *buf, MPI_Count count, MPI_Datatype type,
                     dmpi_dtype_t **dt);
/* The v forms: n counts (named cname) and displacements (dname), every
 * count >= 0, one committed type. */
int dmpi_check_vblocks(const char *fn, const char *side, const void *buf, int n, const MPI_Count *counts,
                       const char *cname, const MPI_Aint *displs, const char *dname, MPI_Datatype type,
                       dmpi_dtype_t **dt);
/* The w form: a committed type per rank too. */
int dmpi_check_wblocks(const char *fn, const char *side, const void *buf, int n, const MPI_Count *counts,
                       const MPI_Aint *displs, const MPI_Datatype *types);
/* MPI_IN_PLACE given where the standard does not allow it (what: "recvbuf"). */
int dmpi_check_no_in_place(const char *fn, const char *what, const void *buf);

/* The arrays of a v or w call as the program passed them: MPI_Count counts
 * and MPI_Aint displacements (wide, the _c forms), or int ones. Up to two
 * pairs (send and receive); NULL where a call has fewer. */
typedef struct dmpi_varrays_in {
    bool wide;
    const void *counts[2], *displs[2];
} dmpi_varrays_in_t;
#define DMPI_VARRAYS(w, c0, d0, c1, d1) ((dmpi_varrays_in_t){(w), {(c0), (c1)}, {(d0), (d1)}})
/* ... and as coll/ takes them. */
typedef struct dmpi_varrays {
    const MPI_Count *counts[2];
    const MPI_Aint *displs[2];
    void *mem;                   /* the widened int arrays, if any */
} dmpi_varrays_t;
/* n entries of each array: the wide ones as they are; int ones converted
 * into scratch memory kept for the next call (it grows to the largest
 * communicator), or on the heap if a call already uses it (an op or
 * callback that calls MPI). NULL stays NULL, for the checks to name. */
int dmpi_varrays_widen(const char *fn, int n, const dmpi_varrays_in_t *in, dmpi_varrays_t *out);
/* Releases what widen took; returns err. */
int dmpi_varrays_done(dmpi_varrays_t *v, int err);

/* Blocking, nonblocking (I-) and persistent (_init) forms of a collective. */
enum { DMPI_BLOCKING, DMPI_NONBLOCKING, DMPI_PERSISTENT };

/* What every form of a collective call shares: its name, its form, and the
 * info (persistent forms) and request pointer (all but the blocking ones). */
typedef struct dmpi_coll_call {
    const char *fn;
    int mode;
    MPI_Info info;
    MPI_Request *request;
} dmpi_coll_call_t;
#define DMPI_CALL(fn, mode, info, request) (&(dmpi_coll_call_t){(fn), (mode), (info), (request)})
#define DMPI_CALL_BLOCKING(fn) DMPI_CALL((fn), DMPI_BLOCKING, MPI_INFO_NULL, NULL)
#define DMPI_CALL_NONBLOCKING(fn, request) DMPI_CALL((fn), DMPI_NONBLOCKING, MPI_INFO_NULL, (request))
#define DMPI_CALL_PERSISTENT(fn, info, request) DMPI_CALL((fn), DMPI_PERSISTENT, (info), (request))

/* The request pointer and the info of the forms that have them. */
int dmpi_check_call(const dmpi_coll_call_t *k);

/* The table a call builds its collective with: the communicator's, or for
 * a persistent call the schedule builders, with the capture of the
 * schedule opened (coll/persist.h); then *r is where the table's call puts
 * its request. */
static inline const dmpi_coll_table_t *dmpi_coll_table_for(const dmpi_comm_t *c, const dmpi_coll_call_t *k,
                                                           dmpi_request_t **r, dmpi_request_t ***rp)
{
    *r = NULL;
    *rp = k->mode == DMPI_BLOCKING ? NULL : r;
    if (DMPI_LIKELY(k->mode != DMPI_PERSISTENT))
        return c->coll;
    dmpi_coll_persist_begin();
    return dmpi_coll_persist_table(c);
}

/* After the table's call returned err: a persistent call's request is made
 * from the captured schedule; then the return of the call (coll_alias.h),
 * the request's handle stored. */
static inline int dmpi_coll_end(dmpi_comm_t *c, const dmpi_coll_call_t *k, int err, void *copy, dmpi_request_t *r)
{
    if (DMPI_UNLIKELY(k->mode == DMPI_PERSISTENT))
        err = dmpi_coll_persist_end(err, k->fn, &r);
    return dmpi_coll_return(c, k->fn, err, copy, r, k->mode == DMPI_BLOCKING ? NULL : k->request);
}

/* Shared by the collectives' checks (coll_move_checks.c, coll_neighbor_checks.c). */
/* A committed datatype; the argument's name, "sendtype" or "recvtypes[2]",
 * is made only for a message: side and noun, with [j] if j >= 0. */
int dmpi_coll_check_type(const char *fn, const char *side, const char *noun, int j, MPI_Datatype h,
                         dmpi_dtype_t **out);
/* NULL is MPI_BOTTOM: fine for types with absolute addresses, not for
 * predefined types that hold data. A block of a v or w form may also lie at
 * MPI_BOTTOM + a nonzero displacement (absolute addresses): callers test that. */
static inline bool dmpi_coll_buf_ok(const void *buf, MPI_Count count, const dmpi_dtype_t *dt)
{
    return buf || count == 0 || dt->size == 0 || !dt->predefined;
}

#endif
