/* MPI_Neighbor_allgather and MPI_Neighbor_allgatherv: blocking, nonblocking
 * and large-count forms, one body per call (the int forms pass their
 * arrays as they are, coll/neighbor.h). Each rank sends its one send block
 * to every out-neighbour and receives block j from in-neighbour j. */
#include "api/coll_neighbor.h"

DMPI_ALIAS(Neighbor_allgather)
DMPI_ALIAS(Neighbor_allgather_c)
DMPI_ALIAS(Ineighbor_allgather)
DMPI_ALIAS(Ineighbor_allgather_c)
DMPI_ALIAS(Neighbor_allgatherv)
DMPI_ALIAS(Neighbor_allgatherv_c)
DMPI_ALIAS(Ineighbor_allgatherv)
DMPI_ALIAS(Ineighbor_allgatherv_c)

static int allgather(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request,
                     bool nb)
{
    dmpi_comm_t *c = NULL;
    dmpi_nbr_side_t send = {.buf = sendbuf, .count = (size_t)sendcount, .same = true};
    dmpi_nbr_side_t recv = {.buf = recvbuf, .count = (size_t)recvcount};
    dmpi_request_t *r = NULL;
    void *copy = NULL;
    int indeg, outdeg, err;
    if ((err = dmpi_nbr_check_comm(fn, comm, &c, &indeg, &outdeg)) ||
        (err = dmpi_nbr_check_block(fn, "send", sendbuf, sendcount, sendtype, &send.dt)) ||
        (err = dmpi_nbr_check_block(fn, "recv", recvbuf, recvcount, recvtype, &recv.dt)) ||
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (err = dmpi_nbr_alias(fn, &send, outdeg, &recv, indeg, &copy)))
        return dmpi_api_error(c, fn, err);
    err = dmpi_coll_neighbor(c, fn, &send, &recv, nb ? &r : NULL);
    return dmpi_nbr_return(c, fn, err, copy, r, nb ? request : NULL);
}

static int allgatherv(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, dmpi_nbr_ints_t recvcounts, dmpi_nbr_ints_t displs, MPI_Datatype recvtype,
                      MPI_Comm comm, MPI_Request *request, bool nb)
{
    dmpi_comm_t *c = NULL;
    dmpi_nbr_side_t send = {.buf = sendbuf, .count = (size_t)sendcount, .same = true};
    dmpi_nbr_side_t recv = {.buf = recvbuf, .v = true, .counts = recvcounts, .displs = displs};
    dmpi_request_t *r = NULL;
    void *copy = NULL;
    int indeg, outdeg, err;
    if ((err = dmpi_nbr_check_comm(fn, comm, &c, &indeg, &outdeg)) ||
        (err = dmpi_nbr_check_block(fn, "send", sendbuf, sendcount, sendtype, &send.dt)) ||
        (err = dmpi_nbr_check_vblocks(fn, "recv", recvbuf, indeg, recvcounts, "recvcounts", displs, "displs",
                                      recvtype, &recv.dt)) ||
        (nb && (err = dmpi_check_ptr(fn, request, "the request pointer"))) ||
        (err = dmpi_nbr_alias(fn, &send, outdeg, &recv, indeg, &copy)))
        return dmpi_api_error(c, fn, err);
    err = dmpi_coll_neighbor(c, fn, &send, &recv, nb ? &r : NULL);
    return dmpi_nbr_return(c, fn, err, copy, r, nb ? request : NULL);
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgather("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                     NULL, false);
}

int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgather("MPI_Neighbor_allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                     NULL, false);
}

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                     request, true);
}

int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather("MPI_Ineighbor_allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     comm, request, true);
}

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, DMPI_NBR_INTS(recvcounts),
                      DMPI_NBR_INTS(displs), recvtype, comm, NULL, false);
}

int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Neighbor_allgatherv_c", sendbuf, sendcount, sendtype, recvbuf,
                      DMPI_NBR_LONGS(recvcounts), DMPI_NBR_LONGS(displs), recvtype, comm, NULL, false);
}

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf,
                      DMPI_NBR_INTS(recvcounts), DMPI_NBR_INTS(displs), recvtype, comm, request, true);
}

int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Ineighbor_allgatherv_c", sendbuf, sendcount, sendtype, recvbuf,
                      DMPI_NBR_LONGS(recvcounts), DMPI_NBR_LONGS(displs), recvtype, comm, request, true);
}
