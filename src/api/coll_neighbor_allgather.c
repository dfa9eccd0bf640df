/* MPI_Neighbor_allgather and MPI_Neighbor_allgatherv: blocking, nonblocking,
 * persistent and large-count forms, one body per call (the int forms pass their
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
DMPI_ALIAS(Neighbor_allgather_init)
DMPI_ALIAS(Neighbor_allgather_init_c)
DMPI_ALIAS(Neighbor_allgatherv_init)
DMPI_ALIAS(Neighbor_allgatherv_init_c)

static int allgather(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request,
                     int mode)
{
    dmpi_comm_t *c = NULL;
    dmpi_nbr_side_t send = {.buf = sendbuf, .count = (size_t)sendcount, .same = true};
    dmpi_nbr_side_t recv = {.buf = recvbuf, .count = (size_t)recvcount};
    int indeg, outdeg, err;
    if ((err = dmpi_nbr_check_comm(fn, comm, &c, &indeg, &outdeg)) ||
        (err = dmpi_nbr_check_block(fn, "send", sendbuf, sendcount, sendtype, &send.dt)) ||
        (err = dmpi_nbr_check_block(fn, "recv", recvbuf, recvcount, recvtype, &recv.dt)))
        return dmpi_api_error(c, fn, err);
    return dmpi_nbr_finish(c, fn, mode, info, request, &send, outdeg, &recv, indeg);
}

static int allgatherv(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      dmpi_nbr_ints_t recvcounts, dmpi_nbr_ints_t displs, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request, int mode)
{
    dmpi_comm_t *c = NULL;
    dmpi_nbr_side_t send = {.buf = sendbuf, .count = (size_t)sendcount, .same = true};
    dmpi_nbr_side_t recv = {.buf = recvbuf, .v = true, .counts = recvcounts, .displs = displs};
    int indeg, outdeg, err;
    if ((err = dmpi_nbr_check_comm(fn, comm, &c, &indeg, &outdeg)) ||
        (err = dmpi_nbr_check_block(fn, "send", sendbuf, sendcount, sendtype, &send.dt)) ||
        (err = dmpi_nbr_check_vblocks(fn, "recv", recvbuf, indeg, recvcounts, "recvcounts", displs, "displs",
                                      recvtype, &recv.dt)))
        return dmpi_api_error(c, fn, err);
    return dmpi_nbr_finish(c, fn, mode, info, request, &send, outdeg, &recv, indeg);
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgather("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                     MPI_INFO_NULL, NULL, DMPI_NBR_BLOCKING);
}

int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgather("MPI_Neighbor_allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                     MPI_INFO_NULL, NULL, DMPI_NBR_BLOCKING);
}

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                     MPI_INFO_NULL, request, DMPI_NBR_NONBLOCKING);
}

int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather("MPI_Ineighbor_allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                     MPI_INFO_NULL, request, DMPI_NBR_NONBLOCKING);
}

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, DMPI_NBR_INTS(recvcounts),
                      DMPI_NBR_INTS(displs), recvtype, comm, MPI_INFO_NULL, NULL, DMPI_NBR_BLOCKING);
}

int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Neighbor_allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, DMPI_NBR_LONGS(recvcounts),
                      DMPI_NBR_LONGS(displs), recvtype, comm, MPI_INFO_NULL, NULL, DMPI_NBR_BLOCKING);
}

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, DMPI_NBR_INTS(recvcounts),
                      DMPI_NBR_INTS(displs), recvtype, comm, MPI_INFO_NULL, request, DMPI_NBR_NONBLOCKING);
}

int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Ineighbor_allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, DMPI_NBR_LONGS(recvcounts),
                      DMPI_NBR_LONGS(displs), recvtype, comm, MPI_INFO_NULL, request, DMPI_NBR_NONBLOCKING);
}

int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather("MPI_Neighbor_allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                     info, request, DMPI_NBR_PERSISTENT);
}

int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather("MPI_Neighbor_allgather_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     comm, info, request, DMPI_NBR_PERSISTENT);
}

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Neighbor_allgatherv_init", sendbuf, sendcount, sendtype, recvbuf,
                      DMPI_NBR_INTS(recvcounts), DMPI_NBR_INTS(displs), recvtype, comm, info, request,
                      DMPI_NBR_PERSISTENT);
}

int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv("MPI_Neighbor_allgatherv_init_c", sendbuf, sendcount, sendtype, recvbuf,
                      DMPI_NBR_LONGS(recvcounts), DMPI_NBR_LONGS(displs), recvtype, comm, info, request,
                      DMPI_NBR_PERSISTENT);
}
