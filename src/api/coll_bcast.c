/* MPI_Bcast and MPI_Ibcast: argument checks, then the communicator's
 * collective table. On an intercommunicator the buffer of the root's group's
 * other ranks (root MPI_PROC_NULL) is not looked at. */
#include "api/api.h"
#include "coll/coll.h"
#include "coll/table.h"

DMPI_ALIAS(Bcast)
DMPI_ALIAS(Ibcast)

static int bcast(const char *fn, void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 MPI_Request *request, bool nonblocking)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_count(fn, count)) ||
        (err = dmpi_check_type(fn, datatype, &dt)) || (err = dmpi_check_root(fn, root, c)))
        return dmpi_api_error(c, fn, err);
    bool idle = dmpi_root_role(c, root) == DMPI_AT_IDLE;
    if (buffer == MPI_IN_PLACE && !idle)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is not allowed as the buffer", fn));
    if ((!idle && (err = dmpi_check_buf(fn, buffer, count, dt))) ||
        (nonblocking && (err = dmpi_check_ptr(fn, request, "request"))) ||
        (err = c->coll->bcast(c, buffer, (size_t)count, dt, root, nonblocking ? &r : NULL)))
        return dmpi_api_error(c, fn, err);
    if (nonblocking)
        *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return bcast("MPI_Bcast", buffer, count, datatype, root, comm, NULL, false);
}

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return bcast("MPI_Ibcast", buffer, count, datatype, root, comm, request, true);
}
