/* Argument checks shared by the barrier and the data-movement collectives
 * (api/coll_barrier.c ... coll_alltoall.c, bodies in coll_move_checks.c).
 * Each returns MPI_SUCCESS or an error whose message names the call and
 * the argument. `side` is "send" or "recv": the arguments are then called
 * sendbuf, sendcount, sendtype (recvbuf, ...) as in the standard. */
#ifndef DMPI_API_COLL_MOVE_H
#define DMPI_API_COLL_MOVE_H

#include "api/api.h"

/* MPI is initialised and comm is a communicator (intra or inter). */
int dmpi_check_coll(const char *fn, MPI_Comm comm, dmpi_comm_t **c);
/* One block: count >= 0 elements of a committed type, a usable buffer. */
int dmpi_check_block(const char *fn, const char *side, const void *buf, int count, MPI_Datatype type,
                     dmpi_dtype_t **dt);
/* The v forms: n counts (named cname) and displacements (dname), every
 * count >= 0, one committed type. */
int dmpi_check_vblocks(const char *fn, const char *side, const void *buf, int n, const int *counts,
                       const char *cname, const int *displs, const char *dname, MPI_Datatype type,
                       dmpi_dtype_t **dt);
/* The w form: a committed type per rank too. */
int dmpi_check_wblocks(const char *fn, const char *side, const void *buf, int n, const int *counts,
                       const int *displs, const MPI_Datatype *types);
/* MPI_IN_PLACE given where the standard does not allow it (what: "recvbuf"). */
int dmpi_check_no_in_place(const char *fn, const char *what, const void *buf);

#endif
