/* MPI_Bcast in its five forms (blocking, nonblocking, persistent; int and
 * MPI_Count counts): argument checks, then the communicator's collective
 * table. On an intercommunicator the buffer of the root's group's other
 * ranks (root MPI_PROC_NULL) is not looked at. */
#include "api/coll_move.h"
#include "coll/coll.h"

DMPI_ALIAS(Bcast)
DMPI_ALIAS(Ibcast)
DMPI_ALIAS(Bcast_init)
DMPI_ALIAS(Bcast_c)
DMPI_ALIAS(Ibcast_c)
DMPI_ALIAS(Bcast_init_c)

static int bcast(const dmpi_coll_call_t *k, void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                 MPI_Comm comm)
{
    const char *fn = k->fn;
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_request_t *r, **rp;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_coll_count(fn, "count", count)) ||
        (err = dmpi_check_type(fn, datatype, &dt)) || (err = dmpi_check_root(fn, root, c)))
        return dmpi_api_error(c, fn, err);
    bool idle = dmpi_root_role(c, root) == DMPI_AT_IDLE;
    if (buffer == MPI_IN_PLACE && !idle)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is not allowed as the buffer", fn));
    if ((!idle && !buffer && count && dt->size && dt->predefined &&
         (err = dmpi_err(MPI_ERR_BUFFER, "%s: the buffer is NULL but count is %lld of %s", fn, (long long)count,
                         dmpi_dtype_desc(dt)))) ||
        (err = dmpi_check_call(k)))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->bcast(c, buffer, (size_t)count, dt, root, rp);
    return dmpi_coll_end(c, k, err, NULL, r);
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return bcast(DMPI_CALL_BLOCKING("MPI_Bcast"), buffer, count, datatype, root, comm);
}

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return bcast(DMPI_CALL_NONBLOCKING("MPI_Ibcast", request), buffer, count, datatype, root, comm);
}

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request)
{
    DMPI_API_ENTER;
    return bcast(DMPI_CALL_PERSISTENT("MPI_Bcast_init", info, request), buffer, count, datatype, root, comm);
}

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return bcast(DMPI_CALL_BLOCKING("MPI_Bcast_c"), buffer, count, datatype, root, comm);
}

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    DMPI_API_ENTER;
    return bcast(DMPI_CALL_NONBLOCKING("MPI_Ibcast_c", request), buffer, count, datatype, root, comm);
}

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    DMPI_API_ENTER;
    return bcast(DMPI_CALL_PERSISTENT("MPI_Bcast_init_c", info, request), buffer, count, datatype, root, comm);
}
