/* Communicator queries: rank and size. */
#include "api/api.h"

DMPI_ALIAS(Comm_rank)
DMPI_ALIAS(Comm_size)

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_rank";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_ptr(fn, rank, "rank")))
        return dmpi_api_error(c, fn, err);
    *rank = c->rank;
    return MPI_SUCCESS;
}

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_size";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_ptr(fn, size, "size")))
        return dmpi_api_error(c, fn, err);
    *size = c->size;
    return MPI_SUCCESS;
}
