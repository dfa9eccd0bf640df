/* MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw and their nonblocking forms.
 * sendbuf may be MPI_IN_PLACE: the data for rank j is then taken from
 * recvbuf's block j and replaced by what rank j sends (the send counts,
 * displacements and types are ignored). On an intercommunicator the blocks
 * are the remote ranks' (peer_size of them) and MPI_IN_PLACE is not allowed. */
#include "api/coll_alias.h"
#include "api/coll_move.h"
#include "coll/coll.h"
#include "coll/table.h"

DMPI_ALIAS(Alltoall)
DMPI_ALIAS(Ialltoall)
DMPI_ALIAS(Alltoallv)
DMPI_ALIAS(Ialltoallv)
DMPI_ALIAS(Alltoallw)
DMPI_ALIAS(Ialltoallw)

static int alltoall(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request, bool nb)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r = NULL;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (sendbuf != MPI_IN_PLACE && (err = dmpi_check_block(fn, "send", sendbuf, sendcount, sendtype, &sdt))) ||
        (err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
        (err = dmpi_check_block(fn, "recv", recvbuf, recvcount, recvtype, &rdt)) ||
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount * (size_t)c->peer_size, sdt),
                                DMPI_SIDE((size_t)recvcount, rdt), &copy)))
        return dmpi_api_error(c, fn, err);
    err = c->coll->alltoall(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, (size_t)recvcount, rdt,
                             nb ? &r : NULL);
    return dmpi_coll_return(c, fn, err, copy, r, nb ? request : NULL);
}

static int alltoallv(const char *fn, const void *sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request, bool nb)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r = NULL;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (sendbuf != MPI_IN_PLACE &&
         (err = dmpi_check_vblocks(fn, "send", sendbuf, c->peer_size, sendcounts, "sendcounts", sdispls, "sdispls",
                                   sendtype, &sdt))) ||
        (err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
        (err = dmpi_check_vblocks(fn, "recv", recvbuf, c->peer_size, recvcounts, "recvcounts", rdispls, "rdispls",
                                  recvtype, &rdt)) ||
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_VSIDE(c->peer_size, sendcounts, sdispls, sdt),
                                DMPI_VSIDE(c->peer_size, recvcounts, rdispls, rdt), &copy)))
        return dmpi_api_error(c, fn, err);
    err = c->coll->alltoallv(c, sendbuf, sendcounts, sdispls, sdt, recvbuf, recvcounts, rdispls, rdt,
                              nb ? &r : NULL);
    return dmpi_coll_return(c, fn, err, copy, r, nb ? request : NULL);
}

static int alltoallw(const char *fn, const void *sendbuf, const int sendcounts[], const int sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                     const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request, bool nb)
{
    dmpi_comm_t *c = NULL;
    dmpi_request_t *r = NULL;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (sendbuf != MPI_IN_PLACE &&
         (err = dmpi_check_wblocks(fn, "send", sendbuf, c->peer_size, sendcounts, sdispls, sendtypes))) ||
        (err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
        (err = dmpi_check_wblocks(fn, "recv", recvbuf, c->peer_size, recvcounts, rdispls, recvtypes)) ||
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_WSIDE(c->peer_size, sendcounts, sdispls, sendtypes),
                                DMPI_WSIDE(c->peer_size, recvcounts, rdispls, recvtypes), &copy)))
        return dmpi_api_error(c, fn, err);
    err = c->coll->alltoallw(c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                              nb ? &r : NULL);
    return dmpi_coll_return(c, fn, err, copy, r, nb ? request : NULL);
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoall("MPI_Alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL, false);
}

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoall("MPI_Ialltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                    true);
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoallv("MPI_Alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                     recvtype, comm, NULL, false);
}

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallv("MPI_Ialltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                     recvtype, comm, request, true);
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoallw("MPI_Alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                     recvtypes, comm, NULL, false);
}

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallw("MPI_Ialltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                     recvtypes, comm, request, true);
}
