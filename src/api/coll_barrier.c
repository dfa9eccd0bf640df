/* MPI_Barrier and MPI_Ibarrier. */
#include "api/coll_move.h"
#include "coll/coll.h"
#include "coll/table.h"

DMPI_ALIAS(Barrier)
DMPI_ALIAS(Ibarrier)

int PMPI_Barrier(MPI_Comm comm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Barrier";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = c->coll->barrier(c, NULL)))
        return dmpi_api_error(c, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Ibarrier";
    dmpi_comm_t *c = NULL;
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_ptr(fn, request, "the request pointer")) ||
        (err = c->coll->barrier(c, &r)))
        return dmpi_api_error(c, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}
