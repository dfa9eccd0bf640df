/* MPI_Gather and MPI_Gatherv in their five forms each (blocking,
 * nonblocking, persistent; int and MPI_Count counts). The receive arguments
 * count at the root only; the root may pass MPI_IN_PLACE as sendbuf (its
 * block is already in recvbuf). On an intercommunicator the root receives a
 * block from each remote rank and sends nothing, and the other ranks of its
 * group (root MPI_PROC_NULL) pass nothing that counts. */
#include "api/coll_move.h"
#include "coll/coll.h"

DMPI_ALIAS(Gather)
DMPI_ALIAS(Igather)
DMPI_ALIAS(Gather_init)
DMPI_ALIAS(Gather_c)
DMPI_ALIAS(Igather_c)
DMPI_ALIAS(Gather_init_c)
DMPI_ALIAS(Gatherv)
DMPI_ALIAS(Igatherv)
DMPI_ALIAS(Gatherv_init)
DMPI_ALIAS(Gatherv_c)
DMPI_ALIAS(Igatherv_c)
DMPI_ALIAS(Gatherv_init_c)

static int check_send(const char *fn, const dmpi_comm_t *c, int root, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, dmpi_dtype_t **sdt)
{
    if (sendbuf != MPI_IN_PLACE)
        return dmpi_check_block(fn, "send", sendbuf, sendcount, sendtype, sdt);
    if (c->rank == root)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: sendbuf is MPI_IN_PLACE on rank %d, which is not the root (%d)", fn,
                    c->rank, root);
}

static int gather(const dmpi_coll_call_t *k, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *fn = k->fn;
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_root(fn, root, c)))
        return dmpi_api_error(c, fn, err);
    int role = dmpi_root_role(c, root);
    bool intra = !dmpi_comm_is_inter(c), at_root = role == DMPI_AT_ROOT;
    if ((role != DMPI_AT_IDLE && (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf))) ||
        ((intra || role == DMPI_AT_OTHER) && (err = check_send(fn, c, root, sendbuf, sendcount, sendtype, &sdt))) ||
        (at_root && ((err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
                     (err = dmpi_check_block(fn, "recv", recvbuf, recvcount, recvtype, &rdt)))) ||
        (err = dmpi_check_call(k)) ||
        (at_root && intra && (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount, sdt),
                                                     DMPI_SIDE((size_t)recvcount, rdt), &copy))))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->gather(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, rdt ? (size_t)recvcount : 0, rdt, root, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

static int gatherv_checked(const dmpi_coll_call_t *k, dmpi_comm_t *c, const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf, const MPI_Count *recvcounts, const MPI_Aint *displs,
                           MPI_Datatype recvtype, int root)
{
    const char *fn = k->fn;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    int role = dmpi_root_role(c, root);
    bool intra = !dmpi_comm_is_inter(c), at_root = role == DMPI_AT_ROOT;
    /* recvcounts and displs: one per rank of the remote group (peer_size) */
    if ((role != DMPI_AT_IDLE && (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf))) ||
        ((intra || role == DMPI_AT_OTHER) && (err = check_send(fn, c, root, sendbuf, sendcount, sendtype, &sdt))) ||
        (at_root &&
         ((err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
          (err = dmpi_check_vblocks(fn, "recv", recvbuf, c->peer_size, recvcounts, "recvcounts", displs, "displs",
                                    recvtype, &rdt)))) ||
        (err = dmpi_check_call(k)) ||
        (at_root && intra && (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount, sdt),
                                                     DMPI_VSIDE(c->size, recvcounts, displs, rdt), &copy))))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->gatherv(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, recvcounts, displs, rdt, root, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

static int gatherv(const dmpi_coll_call_t *k, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, dmpi_varrays_in_t in, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    dmpi_comm_t *c = NULL;
    dmpi_varrays_t v;
    int err;
    if ((err = dmpi_check_coll(k->fn, comm, &c)) || (err = dmpi_check_root(k->fn, root, c)))
        return dmpi_api_error(c, k->fn, err);
    if (dmpi_root_role(c, root) != DMPI_AT_ROOT)     /* not significant: not read */
        in.counts[0] = in.displs[0] = NULL;
    if ((err = dmpi_varrays_widen(k->fn, c->peer_size, &in, &v)))
        return dmpi_api_error(c, k->fn, err);
    err = gatherv_checked(k, c, sendbuf, sendcount, sendtype, recvbuf, v.counts[0], v.displs[0], recvtype, root);
    return dmpi_varrays_done(&v, err);
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return gather(DMPI_CALL_BLOCKING("MPI_Gather"), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                  comm);
}

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return gather(DMPI_CALL_NONBLOCKING("MPI_Igather", request), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, root, comm);
}

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return gather(DMPI_CALL_PERSISTENT("MPI_Gather_init", info, request), sendbuf, sendcount, sendtype, recvbuf,
                  recvcount, recvtype, root, comm);
}

int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return gather(DMPI_CALL_BLOCKING("MPI_Gather_c"), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                  comm);
}

int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return gather(DMPI_CALL_NONBLOCKING("MPI_Igather_c", request), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, root, comm);
}

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    DMPI_API_ENTER;
    return gather(DMPI_CALL_PERSISTENT("MPI_Gather_init_c", info, request), sendbuf, sendcount, sendtype, recvbuf,
                  recvcount, recvtype, root, comm);
}

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return gatherv(DMPI_CALL_BLOCKING("MPI_Gatherv"), sendbuf, sendcount, sendtype, recvbuf,
                   DMPI_VARRAYS(false, recvcounts, displs, NULL, NULL), recvtype, root, comm);
}

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return gatherv(DMPI_CALL_NONBLOCKING("MPI_Igatherv", request), sendbuf, sendcount, sendtype, recvbuf,
                   DMPI_VARRAYS(false, recvcounts, displs, NULL, NULL), recvtype, root, comm);
}

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return gatherv(DMPI_CALL_PERSISTENT("MPI_Gatherv_init", info, request), sendbuf, sendcount, sendtype, recvbuf,
                   DMPI_VARRAYS(false, recvcounts, displs, NULL, NULL), recvtype, root, comm);
}

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm comm)
{
    DMPI_API_ENTER;
    return gatherv(DMPI_CALL_BLOCKING("MPI_Gatherv_c"), sendbuf, sendcount, sendtype, recvbuf,
                   DMPI_VARRAYS(true, recvcounts, displs, NULL, NULL), recvtype, root, comm);
}

int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return gatherv(DMPI_CALL_NONBLOCKING("MPI_Igatherv_c", request), sendbuf, sendcount, sendtype, recvbuf,
                   DMPI_VARRAYS(true, recvcounts, displs, NULL, NULL), recvtype, root, comm);
}

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return gatherv(DMPI_CALL_PERSISTENT("MPI_Gatherv_init_c", info, request), sendbuf, sendcount, sendtype, recvbuf,
                   DMPI_VARRAYS(true, recvcounts, displs, NULL, NULL), recvtype, root, comm);
}
