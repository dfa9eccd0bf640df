/* Partitioned point-to-point: Psend_init/Precv_init make persistent
 * requests that MPI_Start(all) runs; Pready* mark send partitions ready,
 * Parrived asks about a receive partition (p2p/partitioned.c). */
#include "api/api.h"
#include "core/info.h"
#include "p2p/p2p.h"
#include "p2p/part.h"

DMPI_ALIAS(Psend_init)
DMPI_ALIAS(Precv_init)
DMPI_ALIAS(Pready)
DMPI_ALIAS(Pready_range)
DMPI_ALIAS(Pready_list)
DMPI_ALIAS(Parrived)

/* Everything both inits take. Wildcards are not allowed on either side. */
static int check_init_args(const char *fn, const void *buf, int partitions, MPI_Count count, MPI_Datatype type,
                           int rank, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request, dmpi_comm_t **c,
                           dmpi_dtype_t **dt)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)) || (err = dmpi_check_type(fn, type, dt)))
        return err;
    if (partitions < 0)
        return dmpi_err(MPI_ERR_ARG, "%s: negative number of partitions %d", fn, partitions);
    if (count < 0)
        return dmpi_err(MPI_ERR_COUNT, "%s: negative count %lld", fn, (long long)count);
    if ((*dt)->size && (size_t)count > SIZE_MAX / (*dt)->size / (partitions ? (size_t)partitions : 1))
        return dmpi_err(MPI_ERR_COUNT, "%s: %d partitions of %lld elements of %s do not fit in memory", fn,
                        partitions, (long long)count, dmpi_dtype_desc(*dt));
    if (!buf && partitions && count && (*dt)->size && (*dt)->predefined)
        return dmpi_err(MPI_ERR_BUFFER, "%s: buffer is NULL but holds %d partitions of %lld elements of %s", fn,
                        partitions, (long long)count, dmpi_dtype_desc(*dt));
    if (rank == MPI_ANY_SOURCE)
        return dmpi_err(MPI_ERR_RANK, "%s: MPI_ANY_SOURCE is not allowed in partitioned communication", fn);
    if ((err = dmpi_check_dest(fn, rank, *c)))
        return err;
    if (tag == MPI_ANY_TAG)
        return dmpi_err(MPI_ERR_TAG, "%s: MPI_ANY_TAG is not allowed in partitioned communication", fn);
    if ((err = dmpi_check_send_tag(fn, tag)))
        return err;
    if (info != MPI_INFO_NULL && !dmpi_info_get(info))
        return dmpi_err(MPI_ERR_INFO, "%s: invalid info object 0x%x", fn, (unsigned)info);
    return dmpi_check_ptr(fn, request, "the request pointer");
}

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Psend_init";
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_request_t *r;
    int err;
    if ((err = check_init_args(fn, buf, partitions, count, datatype, dest, tag, comm, info, request, &c, &dt)) ||
        (err = dmpi_psend_init(buf, partitions, count, dt, dest, tag, c, &r)))
        return dmpi_api_error(c, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Precv_init";
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_request_t *r;
    int err;
    if ((err = check_init_args(fn, buf, partitions, count, datatype, source, tag, comm, info, request, &c, &dt)) ||
        (err = dmpi_precv_init(buf, partitions, count, dt, source, tag, c, &r)))
        return dmpi_api_error(c, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

/* An active partitioned request of the wanted side. */
static int check_part(const char *fn, MPI_Request h, bool send, dmpi_request_t **r)
{
    int err;
    *r = NULL;
    if ((err = dmpi_check_init(fn)))
        return err;
    dmpi_request_t *q = dmpi_req_get(h);
    if (q && q->kind == DMPI_REQ_PART)
        *r = q;                  /* errors go to its communicator's handler */
    if (!q || q->kind != DMPI_REQ_PART || dmpi_part_is_send(q) != send)
        return dmpi_err(MPI_ERR_REQUEST, "%s: request 0x%x is not a partitioned %s request", fn, (unsigned)h,
                        send ? "send" : "receive");
    *r = q;
    if (send && !q->active)
        return dmpi_err(MPI_ERR_ARG, "%s: the request is inactive (start it with MPI_Start first)", fn);
    return MPI_SUCCESS;
}

static int check_partition(const char *fn, const dmpi_request_t *r, int i, const char *what)
{
    int n = dmpi_part_count(r);
    if (i >= 0 && i < n)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: %s %d is out of range (the request has %d partitions)", fn, what, i, n);
}

int PMPI_Pready(int partition, MPI_Request request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Pready";
    dmpi_request_t *r;
    int err;
    if ((err = check_part(fn, request, true, &r)) || (err = check_partition(fn, r, partition, "partition")) ||
        (err = dmpi_pready(r, partition, fn)))
        return dmpi_api_error(r ? r->comm : NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Pready_range";
    dmpi_request_t *r;
    int err;
    if ((err = check_part(fn, request, true, &r)) || (err = check_partition(fn, r, partition_low, "partition_low")) ||
        (err = check_partition(fn, r, partition_high, "partition_high")))
        return dmpi_api_error(r ? r->comm : NULL, fn, err);
    if (partition_low > partition_high)
        return dmpi_api_error(r->comm, fn, dmpi_err(MPI_ERR_ARG, "%s: partition_low %d is above partition_high %d",
                                                    fn, partition_low, partition_high));
    for (int i = partition_low; i <= partition_high; i++)
        if ((err = dmpi_pready(r, i, fn)))
            return dmpi_api_error(r->comm, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Pready_list(int length, int array_of_partitions[], MPI_Request request)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Pready_list";
    dmpi_request_t *r;
    int err;
    if ((err = check_part(fn, request, true, &r)))
        return dmpi_api_error(r ? r->comm : NULL, fn, err);
    if (length < 0)
        return dmpi_api_error(r->comm, fn, dmpi_err(MPI_ERR_ARG, "%s: negative length %d", fn, length));
    if (length > 0 && (err = dmpi_check_ptr(fn, array_of_partitions, "array_of_partitions")))
        return dmpi_api_error(r->comm, fn, err);
    for (int i = 0; i < length; i++)
        if ((err = check_partition(fn, r, array_of_partitions[i], "partition")))
            return dmpi_api_error(r->comm, fn, err);
    for (int i = 0; i < length; i++)
        if ((err = dmpi_pready(r, array_of_partitions[i], fn)))
            return dmpi_api_error(r->comm, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Parrived";
    dmpi_request_t *r = NULL;
    int err;
    if (request == MPI_REQUEST_NULL) {      /* MPI-4.1: flag = true for a null or inactive request */
        if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, flag, "flag")))
            return dmpi_api_error(NULL, fn, err);
        *flag = 1;
        return MPI_SUCCESS;
    }
    if ((err = check_part(fn, request, false, &r)) || (err = check_partition(fn, r, partition, "partition")) ||
        (err = dmpi_check_ptr(fn, flag, "flag")))
        return dmpi_api_error(r ? r->comm : NULL, fn, err);
    *flag = dmpi_parrived(r, partition);
    return MPI_SUCCESS;
}
