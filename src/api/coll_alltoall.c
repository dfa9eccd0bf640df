/* MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw in their five forms each
 * (blocking, nonblocking, persistent; int and MPI_Count counts).
 * sendbuf may be MPI_IN_PLACE: the data for rank j is then taken from
 * recvbuf's block j and replaced by what rank j sends (the send counts,
 * displacements and types are ignored). On an intercommunicator the blocks
 * are the remote ranks' (peer_size of them) and MPI_IN_PLACE is not allowed. */
#include "api/coll_move.h"
#include "coll/coll.h"

DMPI_ALIAS(Alltoall)
DMPI_ALIAS(Ialltoall)
DMPI_ALIAS(Alltoall_init)
DMPI_ALIAS(Alltoall_c)
DMPI_ALIAS(Ialltoall_c)
DMPI_ALIAS(Alltoall_init_c)
DMPI_ALIAS(Alltoallv)
DMPI_ALIAS(Ialltoallv)
DMPI_ALIAS(Alltoallv_init)
DMPI_ALIAS(Alltoallv_c)
DMPI_ALIAS(Ialltoallv_c)
DMPI_ALIAS(Alltoallv_init_c)
DMPI_ALIAS(Alltoallw)
DMPI_ALIAS(Ialltoallw)
DMPI_ALIAS(Alltoallw_init)
DMPI_ALIAS(Alltoallw_c)
DMPI_ALIAS(Ialltoallw_c)
DMPI_ALIAS(Alltoallw_init_c)

static int alltoall(const dmpi_coll_call_t *k, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *fn = k->fn;
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_coll(fn, comm, &c)) || (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (sendbuf != MPI_IN_PLACE && (err = dmpi_check_block(fn, "send", sendbuf, sendcount, sendtype, &sdt))) ||
        (err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
        (err = dmpi_check_block(fn, "recv", recvbuf, recvcount, recvtype, &rdt)) ||
        (err = dmpi_check_call(k)) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)sendcount * (size_t)c->peer_size, sdt),
                                DMPI_SIDE((size_t)recvcount, rdt), &copy)))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->alltoall(c, sendbuf, sdt ? (size_t)sendcount : 0, sdt, recvbuf, (size_t)recvcount, rdt, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

static int alltoallv_checked(const dmpi_coll_call_t *k, dmpi_comm_t *c, const void *sendbuf,
                             const MPI_Count *sendcounts, const MPI_Aint *sdispls, MPI_Datatype sendtype,
                             void *recvbuf, const MPI_Count *recvcounts, const MPI_Aint *rdispls, MPI_Datatype recvtype)
{
    const char *fn = k->fn;
    dmpi_dtype_t *sdt = NULL, *rdt = NULL;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (sendbuf != MPI_IN_PLACE &&
         (err = dmpi_check_vblocks(fn, "send", sendbuf, c->peer_size, sendcounts, "sendcounts", sdispls, "sdispls",
                                   sendtype, &sdt))) ||
        (err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
        (err = dmpi_check_vblocks(fn, "recv", recvbuf, c->peer_size, recvcounts, "recvcounts", rdispls, "rdispls",
                                  recvtype, &rdt)) ||
        (err = dmpi_check_call(k)) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_VSIDE(c->peer_size, sendcounts, sdispls, sdt),
                                DMPI_VSIDE(c->peer_size, recvcounts, rdispls, rdt), &copy)))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->alltoallv(c, sendbuf, sendcounts, sdispls, sdt, recvbuf, recvcounts, rdispls, rdt, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

static int alltoallw_checked(const dmpi_coll_call_t *k, dmpi_comm_t *c, const void *sendbuf,
                             const MPI_Count *sendcounts, const MPI_Aint *sdispls, const MPI_Datatype sendtypes[],
                             void *recvbuf, const MPI_Count *recvcounts, const MPI_Aint *rdispls,
                             const MPI_Datatype recvtypes[])
{
    const char *fn = k->fn;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    if ((err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (sendbuf != MPI_IN_PLACE &&
         (err = dmpi_check_wblocks(fn, "send", sendbuf, c->peer_size, sendcounts, sdispls, sendtypes))) ||
        (err = dmpi_check_no_in_place(fn, "recvbuf", recvbuf)) ||
        (err = dmpi_check_wblocks(fn, "recv", recvbuf, c->peer_size, recvcounts, rdispls, recvtypes)) ||
        (err = dmpi_check_call(k)) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_WSIDE(c->peer_size, sendcounts, sdispls, sendtypes),
                                DMPI_WSIDE(c->peer_size, recvcounts, rdispls, recvtypes), &copy)))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->alltoallw(c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

/* The arrays of both forms, widened where significant: the send side's
 * are not with MPI_IN_PLACE. */
static int widen(const dmpi_coll_call_t *k, MPI_Comm comm, const void *sendbuf, dmpi_varrays_in_t in, dmpi_comm_t **c,
                 dmpi_varrays_t *v)
{
    int err = dmpi_check_coll(k->fn, comm, c);
    if (err != MPI_SUCCESS)
        return err;
    if (sendbuf == MPI_IN_PLACE)
        in.counts[0] = in.displs[0] = NULL;
    return dmpi_varrays_widen(k->fn, (*c)->peer_size, &in, v);
}

static int alltoallv(const dmpi_coll_call_t *k, const void *sendbuf, dmpi_varrays_in_t in, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Datatype recvtype, MPI_Comm comm)
{
    dmpi_comm_t *c = NULL;
    dmpi_varrays_t v;
    int err = widen(k, comm, sendbuf, in, &c, &v);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(c, k->fn, err);
    err = alltoallv_checked(k, c, sendbuf, v.counts[0], v.displs[0], sendtype, recvbuf, v.counts[1], v.displs[1],
                            recvtype);
    return dmpi_varrays_done(&v, err);
}

static int alltoallw(const dmpi_coll_call_t *k, const void *sendbuf, dmpi_varrays_in_t in,
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    dmpi_comm_t *c = NULL;
    dmpi_varrays_t v;
    int err = widen(k, comm, sendbuf, in, &c, &v);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(c, k->fn, err);
    err = alltoallw_checked(k, c, sendbuf, v.counts[0], v.displs[0], sendtypes, recvbuf, v.counts[1], v.displs[1],
                            recvtypes);
    return dmpi_varrays_done(&v, err);
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoall(DMPI_CALL_BLOCKING("MPI_Alltoall"), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm);
}

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoall(DMPI_CALL_NONBLOCKING("MPI_Ialltoall", request), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, comm);
}

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoall(DMPI_CALL_PERSISTENT("MPI_Alltoall_init", info, request), sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, comm);
}

int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoall(DMPI_CALL_BLOCKING("MPI_Alltoall_c"), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm);
}

int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoall(DMPI_CALL_NONBLOCKING("MPI_Ialltoall_c", request), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, comm);
}

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoall(DMPI_CALL_PERSISTENT("MPI_Alltoall_init_c", info, request), sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, comm);
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoallv(DMPI_CALL_BLOCKING("MPI_Alltoallv"), sendbuf,
                     DMPI_VARRAYS(false, sendcounts, sdispls, recvcounts, rdispls), sendtype, recvbuf, recvtype, comm);
}

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallv(DMPI_CALL_NONBLOCKING("MPI_Ialltoallv", request), sendbuf,
                     DMPI_VARRAYS(false, sendcounts, sdispls, recvcounts, rdispls), sendtype, recvbuf, recvtype, comm);
}

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallv(DMPI_CALL_PERSISTENT("MPI_Alltoallv_init", info, request), sendbuf,
                     DMPI_VARRAYS(false, sendcounts, sdispls, recvcounts, rdispls), sendtype, recvbuf, recvtype, comm);
}

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                     MPI_Datatype recvtype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoallv(DMPI_CALL_BLOCKING("MPI_Alltoallv_c"), sendbuf,
                     DMPI_VARRAYS(true, sendcounts, sdispls, recvcounts, rdispls), sendtype, recvbuf, recvtype, comm);
}

int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallv(DMPI_CALL_NONBLOCKING("MPI_Ialltoallv_c", request), sendbuf,
                     DMPI_VARRAYS(true, sendcounts, sdispls, recvcounts, rdispls), sendtype, recvbuf, recvtype, comm);
}

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallv(DMPI_CALL_PERSISTENT("MPI_Alltoallv_init_c", info, request), sendbuf,
                     DMPI_VARRAYS(true, sendcounts, sdispls, recvcounts, rdispls), sendtype, recvbuf, recvtype, comm);
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoallw(DMPI_CALL_BLOCKING("MPI_Alltoallw"), sendbuf,
                     DMPI_VARRAYS(false, sendcounts, sdispls, recvcounts, rdispls), sendtypes, recvbuf, recvtypes,
                     comm);
}

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                    void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                    MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallw(DMPI_CALL_NONBLOCKING("MPI_Ialltoallw", request), sendbuf,
                     DMPI_VARRAYS(false, sendcounts, sdispls, recvcounts, rdispls), sendtypes, recvbuf, recvtypes,
                     comm);
}

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallw(DMPI_CALL_PERSISTENT("MPI_Alltoallw_init", info, request), sendbuf,
                     DMPI_VARRAYS(false, sendcounts, sdispls, recvcounts, rdispls), sendtypes, recvbuf, recvtypes,
                     comm);
}

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    DMPI_API_ENTER;
    return alltoallw(DMPI_CALL_BLOCKING("MPI_Alltoallw_c"), sendbuf,
                     DMPI_VARRAYS(true, sendcounts, sdispls, recvcounts, rdispls), sendtypes, recvbuf, recvtypes, comm);
}

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallw(DMPI_CALL_NONBLOCKING("MPI_Ialltoallw_c", request), sendbuf,
                     DMPI_VARRAYS(true, sendcounts, sdispls, recvcounts, rdispls), sendtypes, recvbuf, recvtypes, comm);
}

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    DMPI_API_ENTER;
    return alltoallw(DMPI_CALL_PERSISTENT("MPI_Alltoallw_init_c", info, request), sendbuf,
                     DMPI_VARRAYS(true, sendcounts, sdispls, recvcounts, rdispls), sendtypes, recvbuf, recvtypes, comm);
}
