/* MPI_Neighbor_alltoall, MPI_Neighbor_alltoallv and MPI_Neighbor_alltoallw:
 * blocking, nonblocking, persistent and large-count forms, one body per
 * call (the int forms pass their arrays as they are, coll/neighbor.h). Block j of the
 * send side goes to out-neighbour j, block j of the receive side comes
 * from in-neighbour j. */
#include "api/coll_neighbor.h"

DMPI_ALIAS(Neighbor_alltoall)
DMPI_ALIAS(Neighbor_alltoall_c)
DMPI_ALIAS(Ineighbor_alltoall)
DMPI_ALIAS(Ineighbor_alltoall_c)
DMPI_ALIAS(Neighbor_alltoallv)
DMPI_ALIAS(Neighbor_alltoallv_c)
DMPI_ALIAS(Ineighbor_alltoallv)
DMPI_ALIAS(Ineighbor_alltoallv_c)
DMPI_ALIAS(Neighbor_alltoallw)
DMPI_ALIAS(Neighbor_alltoallw_c)
DMPI_ALIAS(Ineighbor_alltoallw)
DMPI_ALIAS(Ineighbor_alltoallw_c)
DMPI_ALIAS(Neighbor_alltoall_init)
DMPI_ALIAS(Neighbor_alltoall_init_c)
DMPI_ALIAS(Neighbor_alltoallv_init)
DMPI_ALIAS(Neighbor_alltoallv_init_c)
DMPI_ALIAS(Neighbor_alltoallw_init)
DMPI_ALIAS(Neighbor_alltoallw_init_c)

static int alltoall(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request,
                    int mode)
{
    dmpi_comm_t *c = NULL;
    dmpi_nbr_side_t send = {.buf = sendbuf, .count = (size_t)sendcount};
    dmpi_nbr_side_t recv = {.buf = recvbuf, .count = (size_t)recvcount};
    int indeg, outdeg, err;
    if ((err = dmpi_nbr_check_comm(fn, comm, &c, &indeg, &outdeg)) ||
        (err = dmpi_nbr_check_block(fn, "send", sendbuf, sendcount, sendtype, &send.dt)) ||
        (err = dmpi_nbr_check_block(fn, "recv", recvbuf, recvcount, recvtype, &recv.dt)))
        return dmpi_api_error(c, fn, err);
    return dmpi_nbr_finish(c, fn, mode, info, request, &send, outdeg, &recv, indeg);
}

static int alltoallv(const char *fn, const void *sendbuf, dmpi_nbr_ints_t sendcounts, dmpi_nbr_ints_t sdispls,
                     MPI_Datatype sendtype, void *recvbuf, dmpi_nbr_ints_t recvcounts, dmpi_nbr_ints_t rdispls,
                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request, int mode)
{
    dmpi_comm_t *c = NULL;
    dmpi_nbr_side_t send = {.buf = sendbuf, .v = true, .counts = sendcounts, .displs = sdispls};
    dmpi_nbr_side_t recv = {.buf = recvbuf, .v = true, .counts = recvcounts, .displs = rdispls};
    int indeg, outdeg, err;
    if ((err = dmpi_nbr_check_comm(fn, comm, &c, &indeg, &outdeg)) ||
        (err = dmpi_nbr_check_vblocks(fn, "send", sendbuf, outdeg, sendcounts, "sendcounts", sdispls, "sdispls",
                                      sendtype, &send.dt)) ||
        (err = dmpi_nbr_check_vblocks(fn, "recv", recvbuf, indeg, recvcounts, "recvcounts", rdispls, "rdispls",
                                      recvtype, &recv.dt)))
        return dmpi_api_error(c, fn, err);
    return dmpi_nbr_finish(c, fn, mode, info, request, &send, outdeg, &recv, indeg);
}

static int alltoallw(const char *fn, const void *sendbuf, dmpi_nbr_ints_t sendcounts, const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, dmpi_nbr_ints_t recvcounts,
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                     MPI_Request *request, int mode)
{
    dmpi_comm_t *c = NULL;
    dmpi_nbr_side_t send = {.buf = sendbuf, .v = true, .counts = sendcounts, .displs = DMPI_NBR_LONGS(sdispls),
                            .types = sendtypes};
    dmpi_nbr_side_t recv = {.buf = recvbuf, .v = true, .counts = recvcounts, .displs = DMPI_NBR_LONGS(rdispls),
                            .types = recvtypes};
    int indeg, outdeg, err;
    if ((err = dmpi_nbr_check_comm(fn, comm, &c, &indeg, &outdeg)) ||
        (err = dmpi_nbr_check_wblocks(fn, "send", sendbuf, outdeg, sendcounts, send.displs, sendtypes)) ||
        (err = dmpi_nbr_check_wblocks(fn, "recv", recvbuf, indeg, recvcounts, recv.displs, recvtypes)))
        return dmpi_api_error(c, fn, err);
    return dmpi_nbr_finish(c, fn, mode, info, request, &send, outdeg, &recv, indeg);
}

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoall("MPI_Neighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                    MPI_INFO_NULL, NULL, DMPI_NBR_BLOCKING);
}

int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoall("MPI_Neighbor_alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                    MPI_INFO_NULL, NULL, DMPI_NBR_BLOCKING);
}

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoall("MPI_Ineighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                    MPI_INFO_NULL, request, DMPI_NBR_NONBLOCKING);
}

int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoall("MPI_Ineighbor_alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                    MPI_INFO_NULL, request, DMPI_NBR_NONBLOCKING);
}

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoallv("MPI_Neighbor_alltoallv", sendbuf, DMPI_NBR_INTS(sendcounts), DMPI_NBR_INTS(sdispls), sendtype,
                     recvbuf, DMPI_NBR_INTS(recvcounts), DMPI_NBR_INTS(rdispls), recvtype, comm, MPI_INFO_NULL, NULL,
                     DMPI_NBR_BLOCKING);
}

int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoallv("MPI_Neighbor_alltoallv_c", sendbuf, DMPI_NBR_LONGS(sendcounts), DMPI_NBR_LONGS(sdispls),
                     sendtype, recvbuf, DMPI_NBR_LONGS(recvcounts), DMPI_NBR_LONGS(rdispls), recvtype, comm,
                     MPI_INFO_NULL, NULL, DMPI_NBR_BLOCKING);
}

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallv("MPI_Ineighbor_alltoallv", sendbuf, DMPI_NBR_INTS(sendcounts), DMPI_NBR_INTS(sdispls), sendtype,
                     recvbuf, DMPI_NBR_INTS(recvcounts), DMPI_NBR_INTS(rdispls), recvtype, comm, MPI_INFO_NULL,
                     request, DMPI_NBR_NONBLOCKING);
}

int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallv("MPI_Ineighbor_alltoallv_c", sendbuf, DMPI_NBR_LONGS(sendcounts), DMPI_NBR_LONGS(sdispls),
                     sendtype, recvbuf, DMPI_NBR_LONGS(recvcounts), DMPI_NBR_LONGS(rdispls), recvtype, comm,
                     MPI_INFO_NULL, request, DMPI_NBR_NONBLOCKING);
}

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoallw("MPI_Neighbor_alltoallw", sendbuf, DMPI_NBR_INTS(sendcounts), sdispls, sendtypes, recvbuf,
                     DMPI_NBR_INTS(recvcounts), rdispls, recvtypes, comm, MPI_INFO_NULL, NULL, DMPI_NBR_BLOCKING);
}

int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoallw("MPI_Neighbor_alltoallw_c", sendbuf, DMPI_NBR_LONGS(sendcounts), sdispls, sendtypes, recvbuf,
                     DMPI_NBR_LONGS(recvcounts), rdispls, recvtypes, comm, MPI_INFO_NULL, NULL, DMPI_NBR_BLOCKING);
}

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallw("MPI_Ineighbor_alltoallw", sendbuf, DMPI_NBR_INTS(sendcounts), sdispls, sendtypes, recvbuf,
                     DMPI_NBR_INTS(recvcounts), rdispls, recvtypes, comm, MPI_INFO_NULL, request,
                     DMPI_NBR_NONBLOCKING);
}

int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallw("MPI_Ineighbor_alltoallw_c", sendbuf, DMPI_NBR_LONGS(sendcounts), sdispls, sendtypes, recvbuf,
                     DMPI_NBR_LONGS(recvcounts), rdispls, recvtypes, comm, MPI_INFO_NULL, request,
                     DMPI_NBR_NONBLOCKING);
}

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoall("MPI_Neighbor_alltoall_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                    info, request, DMPI_NBR_PERSISTENT);
}

int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoall("MPI_Neighbor_alltoall_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                    info, request, DMPI_NBR_PERSISTENT);
}

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallv("MPI_Neighbor_alltoallv_init", sendbuf, DMPI_NBR_INTS(sendcounts), DMPI_NBR_INTS(sdispls),
                     sendtype, recvbuf, DMPI_NBR_INTS(recvcounts), DMPI_NBR_INTS(rdispls), recvtype, comm, info,
                     request, DMPI_NBR_PERSISTENT);
}

int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallv("MPI_Neighbor_alltoallv_init_c", sendbuf, DMPI_NBR_LONGS(sendcounts), DMPI_NBR_LONGS(sdispls),
                     sendtype, recvbuf, DMPI_NBR_LONGS(recvcounts), DMPI_NBR_LONGS(rdispls), recvtype, comm, info,
                     request, DMPI_NBR_PERSISTENT);
}

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallw("MPI_Neighbor_alltoallw_init", sendbuf, DMPI_NBR_INTS(sendcounts), sdispls, sendtypes, recvbuf,
                     DMPI_NBR_INTS(recvcounts), rdispls, recvtypes, comm, info, request, DMPI_NBR_PERSISTENT);
}

int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallw("MPI_Neighbor_alltoallw_init_c", sendbuf, DMPI_NBR_LONGS(sendcounts), sdispls, sendtypes,
                     recvbuf, DMPI_NBR_LONGS(recvcounts), rdispls, recvtypes, comm, info, request,
                     DMPI_NBR_PERSISTENT);
}
