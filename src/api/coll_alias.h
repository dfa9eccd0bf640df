/* Aliased send and receive buffers in the collectives (bodies in coll_alias.c).
 *
 * The standard forbids one buffer as both sendbuf and recvbuf (MPI_IN_PLACE
 * is the way to reuse one). A rank that passes one still takes part in the
 * collective: otherwise the other ranks would wait for it forever, and the
 * node-level collectives, which count phases on every rank alike, would fall
 * out of step for every later call. Its send data is copied aside, the
 * collective runs from the copy (so the data moved is even right), and the
 * call then returns MPI_ERR_BUFFER through the communicator's error handler.
 *
 * A nonblocking call returns MPI_ERR_BUFFER too, but its request is started
 * and its handle set: the program completes it with MPI_Wait (or Test), which
 * succeeds, and the copy lives on the request until then. */
#ifndef DMPI_API_COLL_ALIAS_H
#define DMPI_API_COLL_ALIAS_H

#include "api/api.h"
#include "p2p/request.h"

/* The data one side of a collective moves at this rank: count elements of dt
 * at the buffer (counts NULL); or n blocks of counts[j] elements of dt at
 * displs[j] extents of dt (the v forms); or of types[j] at displs[j] bytes
 * (the w form). */
typedef struct dmpi_coll_side {
    size_t count;
    const dmpi_dtype_t *dt;
    int n;
    const MPI_Count *counts;
    const MPI_Aint *displs;
    const MPI_Datatype *types;
} dmpi_coll_side_t;

#define DMPI_SIDE(cnt, type) (&(dmpi_coll_side_t){.count = (cnt), .dt = (type)})
#define DMPI_VSIDE(nb, cnts, dspls, type) \
    (&(dmpi_coll_side_t){.n = (nb), .counts = (cnts), .displs = (dspls), .dt = (type)})
#define DMPI_WSIDE(nb, cnts, dspls, typs) \
    (&(dmpi_coll_side_t){.n = (nb), .counts = (cnts), .displs = (dspls), .types = (typs)})

int dmpi_alias_copy(const char *fn, const void **sendbuf, const dmpi_coll_side_t *send, const dmpi_coll_side_t *recv,
                    void **copy);

/* Call only with the buffers significant at this rank. When *sendbuf is
 * recvbuf and both sides move data, points *sendbuf at a copy of its data
 * and sets *copy (left NULL otherwise); an error only if memory runs out. */
static inline int dmpi_alias_check(const char *fn, const void **sendbuf, const void *recvbuf,
                                   const dmpi_coll_side_t *send, const dmpi_coll_side_t *recv, void **copy)
{
    if (DMPI_LIKELY(*sendbuf != recvbuf) || !recvbuf || recvbuf == MPI_IN_PLACE)
        return MPI_SUCCESS;
    return dmpi_alias_copy(fn, sendbuf, send, recv, copy);
}

/* The return of a call that found aliased buffers, once the collective ran
 * (request NULL) or started as r (handle stored in *request): err if the
 * collective failed, else MPI_ERR_BUFFER. Frees the copy or hands it to r. */
int dmpi_alias_finish(dmpi_comm_t *c, const char *fn, int err, void *copy, dmpi_request_t *r, MPI_Request *request);

/* The return of a collective call after it ran (request NULL) or started as
 * r: err through the error handler, or MPI_SUCCESS with r's handle stored;
 * with a copy (aliased buffers), what dmpi_alias_finish returns. */
static inline int dmpi_coll_return(dmpi_comm_t *c, const char *fn, int err, void *copy, dmpi_request_t *r,
                                   MPI_Request *request)
{
    if (DMPI_UNLIKELY(copy))
        return dmpi_alias_finish(c, fn, err, copy, r, request);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    if (request)
        *request = r->handle;
    return MPI_SUCCESS;
}

#endif
