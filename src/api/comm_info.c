/* Communicators with info: split by type (the node), dup with info, and
 * the hints a communicator carries. */
#include "api/api.h"
#include "comm/comm.h"
#include "p2p/request.h"
#include "core/info.h"
#include <string.h>

DMPI_ALIAS(Comm_split_type)
DMPI_ALIAS(Comm_dup_with_info)
DMPI_ALIAS(Comm_idup)
DMPI_ALIAS(Comm_idup_with_info)
DMPI_ALIAS(Comm_set_info)
DMPI_ALIAS(Comm_get_info)

/* The colour of this process's node: the lowest world rank on it. */
static int node_color(void)
{
    for (int w = 0; w < dmpi_world.size; w++)
        if (dmpi_world.local_of_world[w] >= 0)
            return w;
    return 0;
}

static int check_info_arg(const char *fn, MPI_Info info, dmpi_info_t **i)
{
    *i = NULL;
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    if (!(*i = dmpi_info_get(info)))
        return dmpi_err(MPI_ERR_INFO, "%s: invalid info object 0x%x", fn, (unsigned)info);
    return MPI_SUCCESS;
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_split_type";
    dmpi_comm_t *c = NULL, *n = NULL;
    dmpi_info_t *i;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_intra(fn, c)) || (err = dmpi_check_ptr(fn, newcomm, "newcomm")) ||
        (err = check_info_arg(fn, info, &i)))
        return dmpi_api_error(c, fn, err);
    int color;
    const char *resource = i ? dmpi_info_lookup(i, "mpi_hw_resource_type") : NULL;
    switch (split_type) {
    case MPI_COMM_TYPE_SHARED:
        color = node_color();
        break;
    case MPI_COMM_TYPE_HW_GUIDED:
        /* the one hardware resource known here is the node's shared memory */
        color = resource && !strcmp(resource, "mpi_shared_memory") ? node_color() : MPI_UNDEFINED;
        break;
    case MPI_COMM_TYPE_HW_UNGUIDED:
        /* a strict subset is required; below the node nothing is known */
        color = MPI_UNDEFINED;
        for (int r = 0; r < c->size; r++)
            if (dmpi_world.local_of_world[dmpi_comm_world_rank(c, r)] < 0)
                color = node_color();
        break;
    case MPI_UNDEFINED:
        color = MPI_UNDEFINED;
        break;
    default:
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_ARG, "%s: unknown split_type %d", fn, split_type));
    }
    if ((err = dmpi_comm_split(c, color, key, &n)) != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    *newcomm = n ? n->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* Replaces c's hints by a copy of i (or none). */
static int set_hints(const char *fn, dmpi_comm_t *c, const dmpi_info_t *i)
{
    dmpi_info_t *copy = dmpi_info_copy(i);
    if (i && !copy)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the info hints", fn);
    dmpi_info_drop(c->hints);
    c->hints = copy;
    return MPI_SUCCESS;
}

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_dup_with_info";
    dmpi_comm_t *c = NULL, *n = NULL;
    dmpi_info_t *i;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, newcomm, "newcomm")) || (err = check_info_arg(fn, info, &i)) ||
        (err = dmpi_comm_dup(c, &n)))
        return dmpi_api_error(c, fn, err);
    if ((err = set_hints(fn, n, i)) != MPI_SUCCESS) {   /* the given hints, not comm's */
        dmpi_comm_free(n);
        return dmpi_api_error(c, fn, err);
    }
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

/* Idup: the handle is the caller's at once; the communicator is ready when
 * the request completes. info_given: Comm_idup_with_info's hints replace
 * the parent's. */
static int idup(const char *fn, MPI_Comm comm, bool info_given, MPI_Info info, MPI_Comm *newcomm,
                MPI_Request *request)
{
    dmpi_comm_t *c = NULL, *n = NULL;
    dmpi_info_t *i = NULL;
    dmpi_request_t *r;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, newcomm, "newcomm")) || (err = dmpi_check_ptr(fn, request, "request")) ||
        (info_given && (err = check_info_arg(fn, info, &i))) || (err = dmpi_comm_idup(c, &n, &r)))
        return dmpi_api_error(c, fn, err);
    if (info_given && (err = set_hints(fn, n, i)) != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);      /* the request still completes the communicator */
    *newcomm = n->handle;
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return idup("MPI_Comm_idup", comm, false, MPI_INFO_NULL, newcomm, request);
}

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return idup("MPI_Comm_idup_with_info", comm, true, info, newcomm, request);
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_set_info";
    dmpi_comm_t *c = NULL;
    dmpi_info_t *i;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = check_info_arg(fn, info, &i)))
        return dmpi_api_error(c, fn, err);
    if (!i)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_INFO, "%s: the info is MPI_INFO_NULL", fn));
    if ((err = set_hints(fn, c, i)))
        return dmpi_api_error(c, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_get_info";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, info_used, "info_used")))
        return dmpi_api_error(c, fn, err);
    /* A new object for the caller to free: the hints kept, or none. */
    if (c->hints)
        err = dmpi_info_dup(c->hints, info_used);
    else
        err = dmpi_info_create(info_used);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}
