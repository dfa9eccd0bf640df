/* MPI_Allgather and MPI_Allgatherv in their five forms each (blocking,
 * nonblocking, persistent; int and MPI_Count counts). sendbuf may be
 * MPI_IN_PLACE (every rank's block is already in its place in recvbuf). On
 * an intercommunicator each rank receives the remote group's blocks (recvcounts
 * and displs one per remote rank), and MPI_IN_PLACE is not allowed. */
#include "api/coll_move.h"
#include "coll/coll.h"

DMPI_ALIAS(Allgather)
DMPI_ALIAS(Iallgather)
DMPI_ALIAS(Allgather_init)
DMPI_ALIAS(Allgather_c)
DMPI_ALIAS(Iallgather_c)
DMPI_ALIAS(Allgather_init_c)
DMPI_ALIAS(Allgatherv)
DMPI_ALIAS(Iallgatherv)
DMPI_ALIAS(Allgatherv_init)
DMPI_ALIAS(Allgatherv_c)
DMPI_ALIAS(Iallgatherv_c)
DMPI_ALIAS(Allgatherv_init_c)

static int check_send(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      dmpi_dtype_t **sdt)
{
    return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS : dmpi_check_block(fn, "send", sendbuf, sendcount, sendtype, sdt);
}

static int allgather(const dmpi_coll_call_t *k, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *fn = k->fn;
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (err = check_send(fn, sendbuf, sendcount, sendtype, &sdt)) ||
        (err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
        (err = dmpi_check_block(fn, "recv", recvbuf, recvcount, recvtype, &rdt)) ||
        (err = dmpi_check_call(k)) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount, sdt),
                                DMPI_SIDE((size_t)recvcount, rdt), &copy)))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->allgather(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, (size_t)recvcount, rdt, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

static int allgatherv_checked(const dmpi_coll_call_t *k, dmpi_comm_t *c, const void *sendbuf,
                              MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count *recvcounts,
                              const MPI_Aint *displs, MPI_Datatype recvtype)
{
    const char *fn = k->fn;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (err = check_send(fn, sendbuf, sendcount, sendtype, &sdt)) ||
        (err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
        (err = dmpi_check_vblocks(fn, "recv", recvbuf, c->peer_size, recvcounts, "recvcounts", displs, "displs",
                                  recvtype, &rdt)) ||
        (err = dmpi_check_call(k)) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount, sdt),
                                DMPI_VSIDE(c->peer_size, recvcounts, displs, rdt), &copy)))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->allgatherv(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, recvcounts, displs, rdt, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

static int allgatherv(const dmpi_coll_call_t *k, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, dmpi_varrays_in_t in, MPI_Datatype recvtype, MPI_Comm comm)
{
    dmpi_comm_t *c = NULL;
    dmpi_varrays_t v;
    int err;
    if ((err = dmpi_check_coll(k->fn, comm, &c)) || (err = dmpi_varrays_widen(k->fn, c->peer_size, &in, &v)))
        return dmpi_api_error(c, k->fn, err);
    err = allgatherv_checked(k, c, sendbuf, sendcount, sendtype, recvbuf, v.counts[0], v.displs[0], recvtype);
    return dmpi_varrays_done(&v, err);
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgather(DMPI_CALL_BLOCKING("MPI_Allgather"), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     comm);
}

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather(DMPI_CALL_NONBLOCKING("MPI_Iallgather", request), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, comm);
}

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather(DMPI_CALL_PERSISTENT("MPI_Allgather_init", info, request), sendbuf, sendcount, sendtype, recvbuf,
                     recvcount, recvtype, comm);
}

int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgather(DMPI_CALL_BLOCKING("MPI_Allgather_c"), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     comm);
}

int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather(DMPI_CALL_NONBLOCKING("MPI_Iallgather_c", request), sendbuf, sendcount, sendtype, recvbuf,
                     recvcount, recvtype, comm);
}

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgather(DMPI_CALL_PERSISTENT("MPI_Allgather_init_c", info, request), sendbuf, sendcount, sendtype, recvbuf,
                     recvcount, recvtype, comm);
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgatherv(DMPI_CALL_BLOCKING("MPI_Allgatherv"), sendbuf, sendcount, sendtype, recvbuf,
                      DMPI_VARRAYS(false, recvcounts, displs, NULL, NULL), recvtype, comm);
}

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv(DMPI_CALL_NONBLOCKING("MPI_Iallgatherv", request), sendbuf, sendcount, sendtype, recvbuf,
                      DMPI_VARRAYS(false, recvcounts, displs, NULL, NULL), recvtype, comm);
}

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv(DMPI_CALL_PERSISTENT("MPI_Allgatherv_init", info, request), sendbuf, sendcount, sendtype, recvbuf,
                      DMPI_VARRAYS(false, recvcounts, displs, NULL, NULL), recvtype, comm);
}

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return allgatherv(DMPI_CALL_BLOCKING("MPI_Allgatherv_c"), sendbuf, sendcount, sendtype, recvbuf,
                      DMPI_VARRAYS(true, recvcounts, displs, NULL, NULL), recvtype, comm);
}

int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv(DMPI_CALL_NONBLOCKING("MPI_Iallgatherv_c", request), sendbuf, sendcount, sendtype, recvbuf,
                      DMPI_VARRAYS(true, recvcounts, displs, NULL, NULL), recvtype, comm);
}

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return allgatherv(DMPI_CALL_PERSISTENT("MPI_Allgatherv_init_c", info, request), sendbuf, sendcount, sendtype,
                      recvbuf, DMPI_VARRAYS(true, recvcounts, displs, NULL, NULL), recvtype, comm);
}
