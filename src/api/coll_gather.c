/* MPI_Gather, MPI_Gatherv and their nonblocking forms. The receive
 * arguments count at the root only; the root may pass MPI_IN_PLACE as
 * sendbuf (its block is already in recvbuf). On an intercommunicator the
 * root receives a block from each remote rank and sends nothing, and the
 * other ranks of its group (root MPI_PROC_NULL) pass nothing that counts. */
#include "api/coll_alias.h"
#include "api/coll_move.h"
#include "coll/coll.h"
#include "coll/table.h"

DMPI_ALIAS(Gather)
DMPI_ALIAS(Igather)
DMPI_ALIAS(Gatherv)
DMPI_ALIAS(Igatherv)

static int check_send(const char *fn, const dmpi_comm_t *c, int root, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, dmpi_dtype_t **sdt)
{
    if (sendbuf != MPI_IN_PLACE)
        return dmpi_check_block(fn, "send", sendbuf, sendcount, sendtype, sdt);
    if (c->rank == root)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: sendbuf is MPI_IN_PLACE on rank %d, which is not the root (%d)", fn,
                    c->rank, root);
}

static int gather(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
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
        ((intra || role == DMPI_AT_OTHER) && (err = check_send(fn, c, root, sendbuf, sendcount, sendtype, &sdt))) ||
        (at_root && ((err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
                     (err = dmpi_check_block(fn, "recv", recvbuf, recvcount, recvtype, &rdt)))) ||
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (at_root && intra && (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount, sdt),
                                                     DMPI_SIDE((size_t)recvcount, rdt), &copy))))
        return dmpi_api_error(c, fn, err);
    err = c->coll->gather(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, rdt ? (size_t)recvcount : 0, rdt,
                           root, nb ? &r : NULL);
    return dmpi_coll_return(c, fn, err, copy, r, nb ? request : NULL);
}

static int gatherv(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request, bool nb)
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
    /* recvcounts and displs: one per rank of the remote group (peer_size) */
    if ((role != DMPI_AT_IDLE && (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf))) ||
        ((intra || role == DMPI_AT_OTHER) && (err = check_send(fn, c, root, sendbuf, sendcount, sendtype, &sdt))) ||
        (at_root &&
         ((err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
          (err = dmpi_check_vblocks(fn, "recv", recvbuf, c->peer_size, recvcounts, "recvcounts", displs, "displs",
                                    recvtype, &rdt)))) ||
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (at_root && intra && (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount, sdt),
                                                     DMPI_VSIDE(c->size, recvcounts, displs, rdt), &copy))))
        return dmpi_api_error(c, fn, err);
    err = c->coll->gatherv(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, recvcounts, displs, rdt, root,
                            nb ? &r : NULL);
    return dmpi_coll_return(c, fn, err, copy, r, nb ? request : NULL);
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return gather("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, NULL,
                  false);
}

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return gather("MPI_Igather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request,
                  true);
}

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return gatherv("MPI_Gatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                   NULL, false);
}

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return gatherv("MPI_Igatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                   request, true);
}
