/* Argument checks of the neighbourhood collectives (api/coll_neighbor_*.c,
 * bodies in coll_neighbor_checks.c). Each returns MPI_SUCCESS or an error
 * whose message names the call and the argument; `side` is "send" or
 * "recv", as in the standard's names sendbuf, recvcounts, ...; a buffer is
 * never MPI_IN_PLACE here (MPI_ERR_BUFFER). */
#ifndef DMPI_API_COLL_NEIGHBOR_H
#define DMPI_API_COLL_NEIGHBOR_H

#include "api/api.h"
#include "coll/neighbor.h"
#include "p2p/request.h"

#define DMPI_NBR_INTS(a) ((dmpi_nbr_ints_t){.i = (a)})
#define DMPI_NBR_LONGS(a) ((dmpi_nbr_ints_t){.l = (a)})

/* MPI is initialised and comm is a communicator with a topology
 * (MPI_ERR_TOPOLOGY otherwise); its degrees at this rank. */
int dmpi_nbr_check_comm(const char *fn, MPI_Comm comm, dmpi_comm_t **c, int *indegree, int *outdegree);
/* One block: count >= 0 elements of a committed type, a usable buffer. */
int dmpi_nbr_check_block(const char *fn, const char *side, const void *buf, MPI_Count count, MPI_Datatype type,
                         dmpi_dtype_t **dt);
/* The v forms: n counts (named cname) and displacements (dname). */
int dmpi_nbr_check_vblocks(const char *fn, const char *side, const void *buf, int n, dmpi_nbr_ints_t counts,
                           const char *cname, dmpi_nbr_ints_t displs, const char *dname, MPI_Datatype type,
                           dmpi_dtype_t **dt);
/* The w form: a committed type per block too. */
int dmpi_nbr_check_wblocks(const char *fn, const char *side, const void *buf, int n, dmpi_nbr_ints_t counts,
                           dmpi_nbr_ints_t displs, const MPI_Datatype *types);
/* How the call runs. */
enum { DMPI_NBR_BLOCKING, DMPI_NBR_NONBLOCKING, DMPI_NBR_PERSISTENT };
/* The rest of a call whose sides are checked: the request pointer (and the
 * info of a persistent call) checked, then the collective run, started or
 * made a persistent request (*request set), errors through c's handler.
 * sendbuf == recvbuf with data moving both ways: a blocking or nonblocking
 * call still takes part (its neighbours would wait for it otherwise) from a
 * copy of the send data, then reports MPI_ERR_BUFFER, handing out its
 * request all the same; a persistent call only reports it (a copy made now
 * would be stale at the next start). */
int dmpi_nbr_finish(dmpi_comm_t *c, const char *fn, int mode, MPI_Info info, MPI_Request *request,
                    dmpi_nbr_side_t *send, int outdegree, const dmpi_nbr_side_t *recv, int indegree);

#endif
