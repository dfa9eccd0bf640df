/* Communicators from groups, with no parent communicator (MPI-4 sections
 * 7.4.2 and 7.6.2): MPI_Comm_create_from_group and
 * MPI_Intercomm_create_from_groups. The work is comm/from_group.c's. */
#include "api/api.h"
#include "comm/comm.h"
#include "core/errhandler.h"
#include "core/group.h"
#include "core/info.h"
#include <string.h>

DMPI_ALIAS(Comm_create_from_group)
DMPI_ALIAS(Intercomm_create_from_groups)

/* There is no communicator yet: an error goes to the errhandler argument
 * (if it is one), called as MPI_COMM_SELF's; otherwise to MPI_COMM_WORLD's. */
static int raise(MPI_Errhandler e, const char *fn, int code)
{
    dmpi_comm_t *self = dmpi_comm_get(MPI_COMM_SELF);
    if (!self || dmpi_errhandler_check(fn, e, DMPI_EH_COMM) != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, code);
    dmpi_comm_t as_self = *self;
    as_self.errhandler = e;
    return dmpi_err_handle(&as_self, fn, code);
}

static int check_group(const char *fn, MPI_Group h, const char *what, dmpi_group_t **g)
{
    if ((*g = dmpi_group_get(h)))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_GROUP, "%s: invalid %s 0x%x%s", fn, what, (unsigned)h,
                    h == MPI_GROUP_NULL ? " (MPI_GROUP_NULL)" : "");
}

/* The arguments both calls share. */
static int check_common(const char *fn, const char *stringtag, MPI_Info info, MPI_Errhandler e, MPI_Comm *out)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, out, "the new communicator pointer")) ||
        (err = dmpi_check_ptr(fn, stringtag, "stringtag")) || (err = dmpi_errhandler_check(fn, e, DMPI_EH_COMM)))
        return err;
    if (strnlen(stringtag, MPI_MAX_STRINGTAG_LEN) == MPI_MAX_STRINGTAG_LEN)
        return dmpi_err(MPI_ERR_ARG, "%s: stringtag is longer than MPI_MAX_STRINGTAG_LEN - 1 = %d characters", fn,
                        MPI_MAX_STRINGTAG_LEN - 1);
    if (info != MPI_INFO_NULL && !dmpi_info_get(info))
        return dmpi_err(MPI_ERR_INFO, "%s: invalid info 0x%x", fn, (unsigned)info);
    return MPI_SUCCESS;
}

/* The new communicator takes the errhandler and the hints of the info
 * that communicators recognise. */
static int finish(const char *fn, dmpi_comm_t *c, MPI_Info info, MPI_Errhandler e, MPI_Comm *out)
{
    int err = dmpi_api_comm_set_hints(fn, c, info == MPI_INFO_NULL ? NULL : dmpi_info_get(info), true);
    if (err != MPI_SUCCESS) {
        dmpi_comm_free(c);
        *out = MPI_COMM_NULL;
        return raise(e, fn, err);
    }
    dmpi_errhandler_retain(e);
    dmpi_errhandler_release(c->errhandler);
    c->errhandler = e;
    *out = c->handle;
    return MPI_SUCCESS;
}

int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm *newcomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_create_from_group";
    dmpi_group_t *g;
    dmpi_comm_t *c;
    int err;
    if ((err = check_common(fn, stringtag, info, errhandler, newcomm)) ||
        (err = check_group(fn, group, "group", &g)))
        return raise(errhandler, fn, err);
    if (g->rank == MPI_UNDEFINED)
        return raise(errhandler, fn, dmpi_err(MPI_ERR_GROUP, "%s: the calling process is not in the group", fn));
    if ((err = dmpi_comm_from_group(g, stringtag, &c)) != MPI_SUCCESS) {
        *newcomm = MPI_COMM_NULL;
        return raise(errhandler, fn, err);
    }
    return finish(fn, c, info, errhandler, newcomm);
}

/* Every member of lg is outside rg. */
static int check_disjoint(const char *fn, const dmpi_group_t *lg, const dmpi_group_t *rg)
{
    for (int i = 0; i < rg->size; i++)
        if (dmpi_group_rank_of_world(lg, rg->world[i]) != MPI_UNDEFINED)
            return dmpi_err(MPI_ERR_GROUP, "%s: the local and remote groups overlap (rank %d of remote_group is "
                            "rank %d of local_group)", fn, i, dmpi_group_rank_of_world(lg, rg->world[i]));
    return MPI_SUCCESS;
}

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                      int remote_leader, const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Intercomm_create_from_groups";
    dmpi_group_t *lg, *rg;
    dmpi_comm_t *c;
    int err;
    if ((err = check_common(fn, stringtag, info, errhandler, newintercomm)) ||
        (err = check_group(fn, local_group, "local_group", &lg)) ||
        (err = check_group(fn, remote_group, "remote_group", &rg)))
        return raise(errhandler, fn, err);
    if (lg->rank == MPI_UNDEFINED)
        err = dmpi_err(MPI_ERR_GROUP, "%s: the calling process is not in local_group", fn);
    else if (local_leader < 0 || local_leader >= lg->size)
        err = dmpi_err(MPI_ERR_RANK, "%s: invalid local_leader %d (local_group has %d processes)", fn,
                       local_leader, lg->size);
    else if (rg->size > 0 && (remote_leader < 0 || remote_leader >= rg->size))
        err = dmpi_err(MPI_ERR_RANK, "%s: invalid remote_leader %d (remote_group has %d processes)", fn,
                       remote_leader, rg->size);
    else
        err = check_disjoint(fn, lg, rg);
    if (err != MPI_SUCCESS)
        return raise(errhandler, fn, err);
    if ((err = dmpi_intercomm_from_groups(lg, local_leader, rg, remote_leader, stringtag, &c)) != MPI_SUCCESS) {
        *newintercomm = MPI_COMM_NULL;
        return raise(errhandler, fn, err);
    }
    return finish(fn, c, info, errhandler, newintercomm);
}
