/* MPI_Scatter and MPI_Scatterv in their five forms each (blocking,
 * nonblocking, persistent; int and MPI_Count counts). The send
 * arguments count at the root only; the root may pass MPI_IN_PLACE as
 * recvbuf (its block stays where it is in sendbuf). On an intercommunicator
 * the root sends a block to each remote rank and receives nothing, and the
 * other ranks of its group (root MPI_PROC_NULL) pass nothing that counts. */
#include "api/coll_move.h"
#include "coll/coll.h"

DMPI_ALIAS(Scatter)
DMPI_ALIAS(Iscatter)
DMPI_ALIAS(Scatter_init)
DMPI_ALIAS(Scatter_c)
DMPI_ALIAS(Iscatter_c)
DMPI_ALIAS(Scatter_init_c)
DMPI_ALIAS(Scatterv)
DMPI_ALIAS(Iscatterv)
DMPI_ALIAS(Scatterv_init)
DMPI_ALIAS(Scatterv_c)
DMPI_ALIAS(Iscatterv_c)
DMPI_ALIAS(Scatterv_init_c)

static int check_recv(const char *fn, const dmpi_comm_t *c, int root, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, dmpi_dtype_t **rdt)
{
    if (recvbuf != MPI_IN_PLACE)
        return dmpi_check_block(fn, "recv", recvbuf, recvcount, recvtype, rdt);
    if (c->rank == root)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: recvbuf is MPI_IN_PLACE on rank %d, which is not the root (%d)", fn,
                    c->rank, root);
}

static int scatter(const dmpi_coll_call_t *k, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
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
        (at_root && ((err = dmpi_check_no_in_place(fn, "sendbuf", sendbuf)) ||
                     (err = dmpi_check_block(fn, "send", sendbuf, sendcount, sendtype, &sdt)))) ||
        ((intra || role == DMPI_AT_OTHER) && (err = check_recv(fn, c, root, recvbuf, recvcount, recvtype, &rdt))) ||
        (err = dmpi_check_call(k)) ||
        (at_root && intra &&
         (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount * (size_t)c->size, sdt),
                                 DMPI_SIDE((size_t)recvcount, rdt), &copy))))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->scatter(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, rdt ? (size_t)recvcount : 0, rdt,
                            root, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

static int scatterv_checked(const dmpi_coll_call_t *k, dmpi_comm_t *c, const void *sendbuf,
                            const MPI_Count *sendcounts, const MPI_Aint *displs, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, int root)
{
    const char *fn = k->fn;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    int role = dmpi_root_role(c, root);
    bool intra = !dmpi_comm_is_inter(c), at_root = role == DMPI_AT_ROOT;
    /* sendcounts and displs: one per rank of the remote group (peer_size) */
    if ((role != DMPI_AT_IDLE && (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf))) ||
        (at_root &&
         ((err = dmpi_check_no_in_place(fn, "sendbuf", sendbuf)) ||
          (err = dmpi_check_vblocks(fn, "send", sendbuf, c->peer_size, sendcounts, "sendcounts", displs, "displs",
                                    sendtype, &sdt)))) ||
        ((intra || role == DMPI_AT_OTHER) && (err = check_recv(fn, c, root, recvbuf, recvcount, recvtype, &rdt))) ||
        (err = dmpi_check_call(k)) ||
        (at_root && intra &&
         (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_VSIDE(c->size, sendcounts, displs, sdt),
                                 DMPI_SIDE((size_t)recvcount, rdt), &copy))))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->scatterv(c, sendbuf, sendcounts, displs, sdt, recvbuf, rdt ? (size_t)recvcount : 0, rdt, root, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

static int scatterv(const dmpi_coll_call_t *k, const void *sendbuf, dmpi_varrays_in_t in, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
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
    err = scatterv_checked(k, c, sendbuf, v.counts[0], v.displs[0], sendtype, recvbuf, recvcount, recvtype, root);
    return dmpi_varrays_done(&v, err);
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return scatter(DMPI_CALL_BLOCKING("MPI_Scatter"), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                   comm);
}

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return scatter(DMPI_CALL_NONBLOCKING("MPI_Iscatter", request), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, root, comm);
}

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return scatter(DMPI_CALL_PERSISTENT("MPI_Scatter_init", info, request), sendbuf, sendcount, sendtype, recvbuf,
                   recvcount, recvtype, root, comm);
}

int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return scatter(DMPI_CALL_BLOCKING("MPI_Scatter_c"), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm);
}

int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return scatter(DMPI_CALL_NONBLOCKING("MPI_Iscatter_c", request), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, root, comm);
}

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    DMPI_API_ENTER;
    return scatter(DMPI_CALL_PERSISTENT("MPI_Scatter_init_c", info, request), sendbuf, sendcount, sendtype, recvbuf,
                   recvcount, recvtype, root, comm);
}

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return scatterv(DMPI_CALL_BLOCKING("MPI_Scatterv"), sendbuf, DMPI_VARRAYS(false, sendcounts, displs, NULL, NULL),
                    sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return scatterv(DMPI_CALL_NONBLOCKING("MPI_Iscatterv", request), sendbuf,
                    DMPI_VARRAYS(false, sendcounts, displs, NULL, NULL), sendtype, recvbuf, recvcount, recvtype, root,
                    comm);
}

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    DMPI_API_ENTER;
    return scatterv(DMPI_CALL_PERSISTENT("MPI_Scatterv_init", info, request), sendbuf,
                    DMPI_VARRAYS(false, sendcounts, displs, NULL, NULL), sendtype, recvbuf, recvcount, recvtype, root,
                    comm);
}

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return scatterv(DMPI_CALL_BLOCKING("MPI_Scatterv_c"), sendbuf, DMPI_VARRAYS(true, sendcounts, displs, NULL, NULL),
                    sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request)
{
    DMPI_API_ENTER;
    return scatterv(DMPI_CALL_NONBLOCKING("MPI_Iscatterv_c", request), sendbuf,
                    DMPI_VARRAYS(true, sendcounts, displs, NULL, NULL), sendtype, recvbuf, recvcount, recvtype, root,
                    comm);
}

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return scatterv(DMPI_CALL_PERSISTENT("MPI_Scatterv_init_c", info, request), sendbuf,
                    DMPI_VARRAYS(true, sendcounts, displs, NULL, NULL), sendtype, recvbuf, recvcount, recvtype, root,
                    comm);
}
