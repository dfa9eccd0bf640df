/* MPI_Topo_test and the checks the topology entry points share. */
#include "api/topo.h"

DMPI_ALIAS(Topo_test)

static const char *kind_name(int kind)
{
    return kind == MPI_CART ? "a Cartesian" : kind == MPI_GRAPH ? "a graph" : "a distributed graph";
}

int dmpi_topo_check_kind(const char *fn, MPI_Comm comm, int kind, dmpi_comm_t **c, const dmpi_topo_t **t)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)))
        return err;
    if ((*t = dmpi_topo_of(*c, kind)))
        return MPI_SUCCESS;
    const char *name = (*c)->name[0] ? (*c)->name : "the communicator";
    if ((*c)->topo)
        return dmpi_err(MPI_ERR_TOPOLOGY, "%s: %s has %s topology, not %s one", fn, name,
                        kind_name((*c)->topo->kind), kind_name(kind));
    return dmpi_err(MPI_ERR_TOPOLOGY, "%s: %s has no topology (this call needs %s one)", fn, name, kind_name(kind));
}

int dmpi_topo_check_parent(const char *fn, MPI_Comm comm, MPI_Comm *out, dmpi_comm_t **c)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)) || (err = dmpi_check_intra(fn, *c)) ||
        (err = dmpi_check_ptr(fn, out, "the new communicator pointer")))
        return err;
    return MPI_SUCCESS;
}

int dmpi_topo_check_nonneg(const char *fn, int v, const char *what)
{
    if (v >= 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: %s is %d; it must not be negative", fn, what, v);
}

int dmpi_topo_check_array(const char *fn, const void *p, int n, const char *what)
{
    if (p || n <= 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL but has %d entries", fn, what, n);
}

int dmpi_topo_made(const char *fn, dmpi_comm_t *parent, int err, dmpi_comm_t *made, MPI_Comm *out)
{
    if (err != MPI_SUCCESS)
        return dmpi_api_error(parent, fn, err);
    *out = made ? made->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Topo_test";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, status, "status")))
        return dmpi_api_error(c, fn, err);
    *status = c->topo ? c->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
