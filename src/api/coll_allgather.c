/* MPI_Allgather, MPI_Allgatherv and their nonblocking forms. sendbuf may be
 * MPI_IN_PLACE (every rank's block is already in its place in recvbuf). On
 * an intercommunicator each rank receives the remote group's blocks (recvcounts
 * and displs one per remote rank), and MPI_IN_PLACE is not allowed. */
#include "api/coll_alias.h"
#include "api/coll_move.h"
#include "coll/coll.h"
#include "coll/table.h"

DMPI_ALIAS(Allgather)
DMPI_ALIAS(Iallgather)
DMPI_ALIAS(Allgatherv)
DMPI_ALIAS(Iallgatherv)

static int check_send(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      dmpi_dtype_t **sdt)
{
    return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS : dmpi_check_block(fn, "send", sendbuf, sendcount, sendtype, sdt);
}

static int allgather(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request, bool nb)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r = NULL;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (err = check_send(fn, sendbuf, sendcount, sendtype, &sdt)) ||
        (err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
        (err = dmpi_check_block(fn, "recv", recvbuf, recvcount, recvtype, &rdt)) ||
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount, sdt),
                                DMPI_SIDE((size_t)recvcount, rdt), &copy)))
        return dmpi_api_error(c, fn, err);
    err = c->coll->allgather(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, (size_t)recvcount, rdt,
                              nb ? &r : NULL);
    return dmpi_coll_return(c, fn, err, copy, r, nb ? request : NULL);
}

static int allgatherv(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request, bool nb)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r = NULL;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (err = check_send(fn, sendbuf, sendcount, sendtype, &sdt)) ||
        (err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
        (err = dmpi_check_vblocks(fn, "recv", recvbuf, c->peer_size, recvcounts, "recvcounts", displs, "displs",
                                  recvtype, &rdt)) ||
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount, sdt),
                                DMPI_VSIDE(c->peer_size, recvcounts, displs, rdt), &copy)))
        return dmpi_api_error(c, fn, err);
    err = c->coll->allgatherv(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, recvcounts, displs, rdt,
                               nb ? &r : NULL);
    return dmpi_coll_return(c, fn, err, copy, r, nb ? request : NULL);
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgather("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                     false);
}

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather("MPI_Iallgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                     true);
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                      NULL, false);
}

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Iallgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                      request, true);
}
