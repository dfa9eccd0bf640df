/* Communicators with info: split by type (the node), dup with info, and
 * the hints a communicator carries. */
#include "api/api.h"
#include "comm/comm.h"
#include "p2p/request.h"
#include "core/group.h"
#include "core/info.h"
#include <string.h>
#include <strings.h>

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

/* Whether some member of c (of either group of an intercommunicator) is on
 * another node. */
static bool spans_nodes(const dmpi_comm_t *c)
{
    for (int r = 0; r < c->group->size; r++)
        if (dmpi_world.local_of_world[c->group->world[r]] < 0)
            return true;
    for (int r = 0; c->remote_group && r < c->remote_group->size; r++)
        if (dmpi_world.local_of_world[c->remote_group->world[r]] < 0)
            return true;
    return false;
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
    /* on an intercommunicator too: the colour splits it as MPI_Comm_split
     * does, pairing this group's ranks with the remote group's of one node */
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, newcomm, "newcomm")) || (err = check_info_arg(fn, info, &i)))
        return dmpi_api_error(c, fn, err);
    int color;
    const char *resource = i ? dmpi_info_lookup(i, "mpi_hw_resource_type") : NULL;
    switch (split_type) {
    case MPI_COMM_TYPE_SHARED:
        color = node_color();
        break;
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
        /* the one hardware resource known here is the node's shared memory */
        color = resource && !strcmp(resource, "mpi_shared_memory") ? node_color() : MPI_UNDEFINED;
        break;
    case MPI_COMM_TYPE_HW_UNGUIDED:
        /* a strict subset is required; below the node nothing is known */
        color = spans_nodes(c) ? node_color() : MPI_UNDEFINED;
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

/* The communicator hints dmpi recognises, all booleans that default to
 * false (MPI-4.1 section 7.4.4). Only these are kept and returned by
 * MPI_Comm_get_info: hints an implementation ignores must not come back. */
static const char *const comm_hints[] = {"mpi_assert_no_any_tag", "mpi_assert_no_any_source",
                                         "mpi_assert_exact_length", "mpi_assert_allow_overtaking"};
#define NHINTS (sizeof comm_hints / sizeof comm_hints[0])

/* "true" or "false" (any case, as the info chapter compares booleans), or
 * NULL for a value that is neither: such a hint is ignored. */
static const char *boolean_value(const char *v)
{
    return !strcasecmp(v, "true") ? "true" : !strcasecmp(v, "false") ? "false" : NULL;
}

/* Sets the recognised hints of i on c (replace: the others go back to
 * their defaults first, as for Comm_dup_with_info); i may be NULL. */
static int set_hints(const char *fn, dmpi_comm_t *c, const dmpi_info_t *i, bool replace)
{
    dmpi_info_t *kept = replace ? NULL : dmpi_info_copy(c->hints);
    if (!replace && c->hints && !kept)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the info hints", fn);
    for (size_t k = 0; i && k < NHINTS; k++) {
        const char *v = dmpi_info_lookup(i, comm_hints[k]);
        if (!v || !(v = boolean_value(v)))
            continue;
        if ((!kept && !(kept = dmpi_info_private())) ||
            dmpi_info_set(kept, comm_hints[k], v) != MPI_SUCCESS) {
            dmpi_info_drop(kept);
            return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the info hints", fn);
        }
    }
    dmpi_info_drop(c->hints);
    c->hints = kept;
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
        (err = dmpi_comm_dup(c, &n)) || (err = set_hints(fn, n, i, true))) {   /* the given hints, not comm's */
        if (n)
            dmpi_comm_free(n);
        if (newcomm)
            *newcomm = MPI_COMM_NULL;     /* e.g. a copy callback failed: nothing was made */
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
    if (info_given && (err = set_hints(fn, n, i, true)) != MPI_SUCCESS)
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
    if ((err = set_hints(fn, c, i, false)))
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
    /* A new object for the caller to free: every recognised hint, with its
     * value on c or its default */
    if ((err = dmpi_info_create(info_used)) != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    dmpi_info_t *out = dmpi_info_get(*info_used);
    for (size_t k = 0; k < NHINTS && err == MPI_SUCCESS; k++) {
        const char *v = c->hints ? dmpi_info_lookup(c->hints, comm_hints[k]) : NULL;
        err = dmpi_info_set(out, comm_hints[k], v ? v : "false");
    }
    if (err != MPI_SUCCESS) {
        dmpi_info_free(out);
        *info_used = MPI_INFO_NULL;
        return dmpi_api_error(c, fn, err);
    }
    return MPI_SUCCESS;
}

int dmpi_api_comm_set_hints(const char *fn, dmpi_comm_t *c, const dmpi_info_t *i, bool replace)
{
    return set_hints(fn, c, i, replace);
}
