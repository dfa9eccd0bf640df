/* Creating, comparing, naming and freeing communicators. */
#include "api/api.h"
#include "comm/comm.h"
#include "core/group.h"
#include <stdio.h>
#include <string.h>

DMPI_ALIAS(Comm_dup)
DMPI_ALIAS(Comm_split)
DMPI_ALIAS(Comm_create)
DMPI_ALIAS(Comm_create_group)
DMPI_ALIAS(Comm_free)
DMPI_ALIAS(Comm_compare)
DMPI_ALIAS(Comm_set_name)
DMPI_ALIAS(Comm_get_name)

static int check_comm_out(const char *fn, MPI_Comm comm, MPI_Comm *out, dmpi_comm_t **c)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)) ||
        (err = dmpi_check_ptr(fn, out, "the new communicator pointer")))
        return err;
    return MPI_SUCCESS;
}

static int result(const char *fn, dmpi_comm_t *parent, int err, dmpi_comm_t *made, MPI_Comm *out)
{
    if (err != MPI_SUCCESS) {
        if (out)
            *out = MPI_COMM_NULL;     /* e.g. a copy callback failed: nothing was made */
        return dmpi_api_error(parent, fn, err);
    }
    *out = made ? made->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_dup";
    dmpi_comm_t *c = NULL, *n = NULL;
    int err = check_comm_out(fn, comm, newcomm, &c);
    if (err == MPI_SUCCESS)
        err = dmpi_comm_dup(c, &n);
    return result(fn, c, err, n, newcomm);
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_split";
    dmpi_comm_t *c = NULL, *n = NULL;
    int err = check_comm_out(fn, comm, newcomm, &c);
    if (err == MPI_SUCCESS && color < 0 && color != MPI_UNDEFINED)
        err = dmpi_err(MPI_ERR_ARG, "%s: color %d is negative (and not MPI_UNDEFINED)", fn, color);
    if (err == MPI_SUCCESS)
        err = dmpi_comm_split(c, color, key, &n);
    return result(fn, c, err, n, newcomm);
}

/* g must be a subgroup of c's group. */
static int check_subgroup(const char *fn, dmpi_comm_t *c, MPI_Group group, dmpi_group_t **g)
{
    if (!(*g = dmpi_group_get(group)))
        return dmpi_err(MPI_ERR_GROUP, "%s: invalid group 0x%x", fn, (unsigned)group);
    for (int i = 0; i < (*g)->size; i++)
        if (dmpi_group_rank_of_world(c->group, (*g)->world[i]) == MPI_UNDEFINED)
            return dmpi_err(MPI_ERR_GROUP, "%s: the group is not a subgroup of the communicator's group", fn);
    return MPI_SUCCESS;
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_create";
    dmpi_comm_t *c = NULL, *n = NULL;
    dmpi_group_t *g;
    int err = check_comm_out(fn, comm, newcomm, &c);
    if (err == MPI_SUCCESS)
        err = check_subgroup(fn, c, group, &g);
    if (err == MPI_SUCCESS)
        err = dmpi_comm_create(c, g, &n);
    return result(fn, c, err, n, newcomm);
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_create_group";
    dmpi_comm_t *c = NULL, *n = NULL;
    dmpi_group_t *g;
    int err = check_comm_out(fn, comm, newcomm, &c);
    if (err == MPI_SUCCESS)
        err = dmpi_check_intra(fn, c);      /* MPI defines it for intracommunicators only */
    if (err == MPI_SUCCESS)
        err = dmpi_check_send_tag(fn, tag);
    if (err == MPI_SUCCESS)
        err = check_subgroup(fn, c, group, &g);
    if (err == MPI_SUCCESS && g->rank == MPI_UNDEFINED)
        err = dmpi_err(MPI_ERR_GROUP, "%s: the calling process is not in the group", fn);
    if (err == MPI_SUCCESS)
        err = dmpi_comm_create_group(c, g, tag, &n);
    return result(fn, c, err, n, newcomm);
}

int PMPI_Comm_free(MPI_Comm *comm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_free";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, comm, "comm")) ||
        (err = dmpi_check_comm(fn, *comm, &c)))
        return dmpi_api_error(c, fn, err);
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_COMM, "%s: %s cannot be freed", fn, c->name));
    if (c == dmpi_comm_parent)
        dmpi_comm_parent = NULL;
    dmpi_comm_free(c);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_compare";
    dmpi_comm_t *a = NULL, *b = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm1, &a)) ||
        (err = dmpi_check_comm(fn, comm2, &b)) || (err = dmpi_check_ptr(fn, result, "result")))
        return dmpi_api_error(a, fn, err);
    *result = dmpi_comm_compare(a, b);
    return MPI_SUCCESS;
}

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_set_name";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, comm_name, "comm_name")))
        return dmpi_api_error(c, fn, err);
    snprintf(c->name, sizeof c->name, "%s", comm_name);   /* longer names are cut, as MPI allows */
    return MPI_SUCCESS;
}

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_get_name";
    if (comm == MPI_COMM_NULL)
        return dmpi_null_handle_name(fn, "MPI_COMM_NULL", comm_name, resultlen);
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, comm_name, "comm_name")) || (err = dmpi_check_ptr(fn, resultlen, "resultlen")))
        return dmpi_api_error(c, fn, err);
    strcpy(comm_name, c->name);
    *resultlen = (int)strlen(c->name);
    return MPI_SUCCESS;
}
