/* Intercommunicators: creation, merge and the queries of the remote side. */
#include "api/api.h"
#include "comm/comm.h"
#include "core/group.h"

DMPI_ALIAS(Comm_test_inter)
DMPI_ALIAS(Comm_remote_size)
DMPI_ALIAS(Comm_remote_group)
DMPI_ALIAS(Intercomm_create)
DMPI_ALIAS(Intercomm_merge)

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_test_inter";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_ptr(fn, flag, "flag")))
        return dmpi_api_error(c, fn, err);
    *flag = dmpi_comm_is_inter(c);
    return MPI_SUCCESS;
}

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_remote_size";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_inter(fn, c)) ||
        (err = dmpi_check_ptr(fn, size, "size")))
        return dmpi_api_error(c, fn, err);
    *size = c->remote_group->size;
    return MPI_SUCCESS;
}

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_remote_group";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_inter(fn, c)) ||
        (err = dmpi_check_ptr(fn, group, "group")))
        return dmpi_api_error(c, fn, err);
    /* A group of the user's own, as MPI_Comm_group gives. */
    dmpi_group_t *g = dmpi_group_new(c->remote_group->world, c->remote_group->size);
    if (!g)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn));
    dmpi_group_set_session(g, c->obj->session);
    if ((err = dmpi_group_handle(g, group)) != MPI_SUCCESS) {
        dmpi_group_release(g);
        return dmpi_api_error(c, fn, err);
    }
    return MPI_SUCCESS;
}

/* peer_comm, remote_leader and tag matter only at the local leader; what
 * is wrong with them there goes to the core, which tells the whole group. */
static int check_leader_args(const char *fn, MPI_Comm peer_comm, int remote_leader, int tag, dmpi_comm_t **peer)
{
    int err;
    if ((err = dmpi_check_comm(fn, peer_comm, peer)) || (err = dmpi_check_send_tag(fn, tag)))
        return err;
    if (remote_leader < 0 || remote_leader >= (*peer)->peer_size)
        return dmpi_err(MPI_ERR_RANK, "%s: invalid remote_leader %d (peer_comm has %d ranks)", fn, remote_leader,
                        (*peer)->peer_size);
    return MPI_SUCCESS;
}

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm *newintercomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Intercomm_create";
    dmpi_comm_t *c = NULL, *peer = NULL, *n = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, local_comm, &c)) ||
        (err = dmpi_check_intra(fn, c)) || (err = dmpi_check_ptr(fn, newintercomm, "newintercomm")))
        return dmpi_api_error(c, fn, err);
    if (local_leader < 0 || local_leader >= c->size)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_RANK, "%s: invalid local_leader %d (local_comm has %d ranks)",
                                              fn, local_leader, c->size));
    int leader_err = c->rank == local_leader ? check_leader_args(fn, peer_comm, remote_leader, tag, &peer)
                                             : MPI_SUCCESS;
    if ((err = dmpi_intercomm_create(c, local_leader, peer, remote_leader, tag, leader_err, &n)) != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    *newintercomm = n->handle;
    return MPI_SUCCESS;
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Intercomm_merge";
    dmpi_comm_t *c = NULL, *n = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, intercomm, &c)) || (err = dmpi_check_inter(fn, c)) ||
        (err = dmpi_check_ptr(fn, newintracomm, "newintracomm")) ||
        (err = dmpi_intercomm_merge(c, high != 0, &n)))
        return dmpi_api_error(c, fn, err);
    *newintracomm = n->handle;
    return MPI_SUCCESS;
}
