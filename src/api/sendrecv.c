/* Sendrecv and Sendrecv_replace, blocking and nonblocking, in int and _c
 * forms (one function taking MPI_Count behind both). */
#include "api/api.h"
#include "p2p/p2p.h"

DMPI_ALIAS(Sendrecv)
DMPI_ALIAS(Sendrecv_replace)
DMPI_ALIAS(Isendrecv)
DMPI_ALIAS(Isendrecv_replace)
DMPI_ALIAS(Sendrecv_c)
DMPI_ALIAS(Sendrecv_replace_c)
DMPI_ALIAS(Isendrecv_c)
DMPI_ALIAS(Isendrecv_replace_c)

static int check_both(const char *fn, const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest, int stag,
                      const void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
                      dmpi_comm_t **c, dmpi_dtype_t **sdt, dmpi_dtype_t **rdt)
{
    int err = dmpi_check_send_args(fn, sbuf, scount, stype, dest, stag, comm, c, sdt);
    if (err == MPI_SUCCESS)
        err = dmpi_check_recv_args(fn, rbuf, rcount, rtype, src, rtag, comm, c, rdt);
    return err;
}

/* status: the blocking call's, checked with the other arguments before
 * anything is sent; MPI_STATUS_IGNORE for the nonblocking ones. */
static int isendrecv(const char *fn, const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest, int stag,
                     void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
                     const MPI_Status *status, bool replace, dmpi_request_t **r, dmpi_comm_t **c)
{
    dmpi_dtype_t *sdt, *rdt;
    int err = check_both(fn, sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, c, &sdt, &rdt);
    if (err == MPI_SUCCESS)
        err = dmpi_check_status(fn, status);
    if (err == MPI_SUCCESS)
        err = dmpi_isendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, *c, replace, r);
    return err;
}

static int sendrecv(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                    MPI_Comm comm, MPI_Status *status)
{
    dmpi_comm_t *c = NULL;
    dmpi_request_t *r;
    int err = isendrecv(fn, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                        recvtag, comm, status, false, &r, &c);
    if (err == MPI_SUCCESS)
        err = dmpi_wait(r, NULL, status);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status)
{
    DMPI_API_ENTER;
    return sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                    source, recvtag, comm, status);
}

int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                    MPI_Comm comm, MPI_Status *status)
{
    DMPI_API_ENTER;
    return sendrecv("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                    source, recvtag, comm, status);
}

static int sendrecv_replace(const char *fn, void *buf, MPI_Count count, MPI_Datatype type, int dest, int sendtag,
                            int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    dmpi_comm_t *c = NULL;
    dmpi_request_t *r;
    int err = isendrecv(fn, buf, count, type, dest, sendtag, buf, count, type, source, recvtag, comm, status, true,
                        &r, &c);
    if (err == MPI_SUCCESS)
        err = dmpi_wait(r, NULL, status);
    return err == MPI_SUCCESS ? err : dmpi_api_error(c, fn, err);
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                          MPI_Comm comm, MPI_Status *status)
{
    DMPI_API_ENTER;
    return sendrecv_replace("MPI_Sendrecv_replace", buf, count, type, dest, sendtag, source, recvtag, comm, status);
}

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype type, int dest, int sendtag, int source,
                            int recvtag, MPI_Comm comm, MPI_Status *status)
{
    DMPI_API_ENTER;
    return sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, type, dest, sendtag, source, recvtag, comm,
                            status);
}

static int isendrecv_req(const char *fn, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                         int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                         int recvtag, MPI_Comm comm, MPI_Request *request)
{
    dmpi_comm_t *c = NULL;
    dmpi_request_t *r;
    int err = dmpi_check_ptr(fn, request, "the request pointer");
    if (err == MPI_SUCCESS)
        err = isendrecv(fn, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                        recvtag, comm, MPI_STATUS_IGNORE, false, &r, &c);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return isendrecv_req("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, request);
}

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                     MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return isendrecv_req("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, request);
}

static int isendrecv_replace(const char *fn, void *buf, MPI_Count count, MPI_Datatype type, int dest, int sendtag,
                             int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    dmpi_comm_t *c = NULL;
    dmpi_request_t *r;
    int err = dmpi_check_ptr(fn, request, "the request pointer");
    if (err == MPI_SUCCESS)
        err = isendrecv(fn, buf, count, type, dest, sendtag, buf, count, type, source, recvtag, comm,
                        MPI_STATUS_IGNORE, true, &r, &c);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
                           int recvtag, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return isendrecv_replace("MPI_Isendrecv_replace", buf, count, type, dest, sendtag, source, recvtag, comm,
                             request);
}

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype type, int dest, int sendtag, int source,
                             int recvtag, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return isendrecv_replace("MPI_Isendrecv_replace_c", buf, count, type, dest, sendtag, source, recvtag, comm,
                             request);
}
