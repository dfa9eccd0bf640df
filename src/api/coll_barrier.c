/* MPI_Barrier, MPI_Ibarrier and MPI_Barrier_init. */
#include "api/coll_move.h"
#include "coll/coll.h"

DMPI_ALIAS(Barrier)
DMPI_ALIAS(Ibarrier)
DMPI_ALIAS(Barrier_init)

static int barrier(const dmpi_coll_call_t *k, MPI_Comm comm)
{
    dmpi_comm_t *c = NULL;
    dmpi_request_t *r, **rp;
    int err;
    if ((err = dmpi_check_coll(k->fn, comm, &c)) || (err = dmpi_check_call(k)))
        return dmpi_api_error(c, k->fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->barrier(c, rp);
    return dmpi_coll_end(c, k, err, NULL, r);
}

int PMPI_Barrier(MPI_Comm comm)
{
    DMPI_API_ENTER;
    return barrier(DMPI_CALL_BLOCKING("MPI_Barrier"), comm);
}

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return barrier(DMPI_CALL_NONBLOCKING("MPI_Ibarrier", request), comm);
}

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return barrier(DMPI_CALL_PERSISTENT("MPI_Barrier_init", info, request), comm);
}
