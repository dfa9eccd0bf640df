/* MPI_Scatter, MPI_Scatterv and their nonblocking forms. The send
 * arguments count at the root only; the root may pass MPI_IN_PLACE as
 * recvbuf (its block stays where it is in sendbuf). On an intercommunicator
 * the root sends a block to each remote rank and receives nothing, and the
 * other ranks of its group (root MPI_PROC_NULL) pass nothing that counts. */
#include "api/coll_alias.h"
#include "api/coll_move.h"
#include "coll/coll.h"
#include "coll/table.h"

DMPI_ALIAS(Scatter)
DMPI_ALIAS(Iscatter)
DMPI_ALIAS(Scatterv)
DMPI_ALIAS(Iscatterv)

static int check_recv(const char *fn, const dmpi_comm_t *c, int root, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, dmpi_dtype_t **rdt)
{
    if (recvbuf != MPI_IN_PLACE)
        return dmpi_check_block(fn, "recv", recvbuf, recvcount, recvtype, rdt);
    if (c->rank == root)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: recvbuf is MPI_IN_PLACE on rank %d, which is not the root (%d)", fn,
                    c->rank, root);
}

static int scatter(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request, bool nb)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r = NULL;
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
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (at_root && intra &&
         (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount * (size_t)c->size, sdt),
                                 DMPI_SIDE((size_t)recvcount, rdt), &copy))))
        return dmpi_api_error(c, fn, err);
    err = c->coll->scatter(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, rdt ? (size_t)recvcount : 0, rdt,
                            root, nb ? &r : NULL);
    return dmpi_coll_return(c, fn, err, copy, r, nb ? request : NULL);
}

static int scatterv(const char *fn, const void *sendbuf, const int sendcounts[], const int displs[],
                    MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request, bool nb)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r = NULL;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_root(fn, root, c)))
        return dmpi_api_error(c, fn, err);
    int role = dmpi_root_role(c, root);
    bool intra = !dmpi_comm_is_inter(c), at_root = role == DMPI_AT_ROOT;
    /* sendcounts and displs: one per rank of the remote group (peer_size) */
    if ((role != DMPI_AT_IDLE && (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf))) ||
        (at_root &&
         ((err = dmpi_check_no_in_place(fn, "sendbuf", sendbuf)) ||
          (err = dmpi_check_vblocks(fn, "send", sendbuf, c->peer_size, sendcounts, "sendcounts", displs, "displs",
                                    sendtype, &sdt)))) ||
        ((intra || role == DMPI_AT_OTHER) && (err = check_recv(fn, c, root, recvbuf, recvcount, recvtype, &rdt))) ||
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (at_root && intra &&
         (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_VSIDE(c->size, sendcounts, displs, sdt),
                                                    DMPI_SIDE((size_t)recvcount, rdt), &copy))))
        return dmpi_api_error(c, fn, err);
    err = c->coll->scatterv(c, sendbuf, sendcounts, displs, sdt, recvbuf, rdt ? (size_t)recvcount : 0, rdt, root,
                             nb ? &r : NULL);
    return dmpi_coll_return(c, fn, err, copy, r, nb ? request : NULL);
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return scatter("MPI_Scatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, NULL,
                   false);
}

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return scatter("MPI_Iscatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request,
                   true);
}

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return scatterv("MPI_Scatterv", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                    NULL, false);
}

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    DMPI_API_ENTER;
    return scatterv("MPI_Iscatterv", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                    comm, request, true);
}
