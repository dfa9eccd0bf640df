/* The reducing collectives: MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter,
 * MPI_Reduce_scatter_block, MPI_Scan, MPI_Exscan and their nonblocking
 * forms. Argument checks, then one call into coll/select.c; a blocking
 * call and its nonblocking form share everything but the request. */
#include "api/coll_alias.h"
#include "coll/coll.h"
#include "coll/table.h"
#include "core/op.h"
#include <limits.h>

DMPI_ALIAS(Reduce)
DMPI_ALIAS(Ireduce)
DMPI_ALIAS(Allreduce)
DMPI_ALIAS(Iallreduce)
DMPI_ALIAS(Reduce_scatter)
DMPI_ALIAS(Ireduce_scatter)
DMPI_ALIAS(Reduce_scatter_block)
DMPI_ALIAS(Ireduce_scatter_block)
DMPI_ALIAS(Scan)
DMPI_ALIAS(Iscan)
DMPI_ALIAS(Exscan)
DMPI_ALIAS(Iexscan)

/* Comm (an intracommunicator for a scan), type and op, valid together;
 * request too for a nonblocking call. root: a reduce's, else MPI_ROOT. */
static int check_common(const char *fn, MPI_Comm comm, MPI_Datatype datatype, MPI_Op op, int root,
                        MPI_Request *request, bool nonblocking, bool scan, dmpi_comm_t **c, dmpi_dtype_t **dt,
                        dmpi_op_t **o)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)) ||
        (scan && (err = dmpi_check_scan_comm(fn, *c))) || (err = dmpi_check_type(fn, datatype, dt)))
        return err;
    if (!(*o = dmpi_op_get(op)))
        return op == MPI_OP_NULL ? dmpi_err(MPI_ERR_OP, "%s: the op is MPI_OP_NULL", fn)
                                 : dmpi_err(MPI_ERR_OP, "%s: invalid op handle 0x%x", fn, (unsigned)op);
    /* the pair must make sense where data is reduced: not on the ranks of
     * an intercommunicator reduce's root group other than the root (root
     * MPI_PROC_NULL), whose arguments count for nothing (mpi4py passes
     * MPI_BYTE there) */
    bool idle = (*c && dmpi_comm_is_inter(*c) && root == MPI_PROC_NULL);
    if (!idle && (err = dmpi_op_check_reduce(fn, *o, *dt)))
        return err;
    return nonblocking ? dmpi_check_ptr(fn, request, "request") : MPI_SUCCESS;
}

/* A buffer of count elements: MPI_IN_PLACE only where allowed; NULL
 * (MPI_BOTTOM) only with derived types, which may hold absolute addresses. */
static int check_buf(const char *fn, const void *buf, const char *what, size_t count, const dmpi_dtype_t *dt,
                     bool in_place_ok)
{
    if (buf == MPI_IN_PLACE)
        return in_place_ok ? MPI_SUCCESS
                           : dmpi_err(MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is not allowed as %s here", fn, what);
    if (buf || count == 0 || dt->size == 0 || !dt->predefined)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: %s is NULL but count is %zu of %s", fn, what, count, dmpi_dtype_desc(dt));
}

static int reduce(const char *fn, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  int root, MPI_Comm comm, MPI_Request *request, bool nonblocking)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_op_t *o;
    dmpi_request_t *r = NULL;
    void *copy = NULL;
    int err;
    if ((err = check_common(fn, comm, datatype, op, root, request, nonblocking, false, &c, &dt, &o)) ||
        (err = dmpi_check_count(fn, count)) || (err = dmpi_check_root(fn, root, c)))
        return dmpi_api_error(c, fn, err);
    /* recvbuf matters at the root only, and only there may sendbuf be
     * MPI_IN_PLACE; on an intercommunicator the root's sendbuf does not
     * matter, and its group's other ranks pass nothing that does */
    int role = dmpi_root_role(c, root);
    bool inter = dmpi_comm_is_inter(c), at_root = role == DMPI_AT_ROOT;
    if ((role != DMPI_AT_IDLE && (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf))) ||
        ((!inter || role == DMPI_AT_OTHER) && (err = check_buf(fn, sendbuf, "sendbuf", (size_t)count, dt, at_root))) ||
        (at_root && ((err = check_buf(fn, recvbuf, "recvbuf", (size_t)count, dt, false)) ||
                     (!inter && (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)count, dt),
                                                        DMPI_SIDE((size_t)count, dt), &copy))))))
        return dmpi_api_error(c, fn, err);
    err = c->coll->reduce(c, sendbuf, recvbuf, (size_t)count, dt, o, root, nonblocking ? &r : NULL);
    return dmpi_coll_return(c, fn, err, copy, r, nonblocking ? request : NULL);
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
    DMPI_API_ENTER;
    return reduce("MPI_Reduce", sendbuf, recvbuf, count, datatype, op, root, comm, NULL, false);
}

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op, root, comm, request, true);
}

/* Allreduce, Scan and Exscan take the same arguments. */
enum { ALLREDUCE, SCAN, EXSCAN };

static int all_to_all(const char *fn, int kind, const void *sendbuf, void *recvbuf, int count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request, bool nonblocking)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_op_t *o;
    dmpi_request_t *r = NULL, **rp = nonblocking ? &r : NULL;
    void *copy = NULL;
    int err;
    if ((err = check_common(fn, comm, datatype, op, MPI_ROOT, request, nonblocking, kind != ALLREDUCE, &c, &dt, &o)) ||
        (err = dmpi_check_count(fn, count)) || (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (err = check_buf(fn, sendbuf, "sendbuf", (size_t)count, dt, true)) ||
        (err = check_buf(fn, recvbuf, "recvbuf", (size_t)count, dt, false)) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)count, dt), DMPI_SIDE((size_t)count, dt),
                                &copy)))
        return dmpi_api_error(c, fn, err);
    if (kind == ALLREDUCE)
        err = c->coll->allreduce(c, sendbuf, recvbuf, (size_t)count, dt, o, rp);
    else if (kind == SCAN)
        err = c->coll->scan(c, sendbuf, recvbuf, (size_t)count, dt, o, rp);
    else
        err = c->coll->exscan(c, sendbuf, recvbuf, (size_t)count, dt, o, rp);
    return dmpi_coll_return(c, fn, err, copy, r, nonblocking ? request : NULL);
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return all_to_all("MPI_Allreduce", ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm, NULL, false);
}

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all("MPI_Iallreduce", ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm, request, true);
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return all_to_all("MPI_Scan", SCAN, sendbuf, recvbuf, count, datatype, op, comm, NULL, false);
}

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all("MPI_Iscan", SCAN, sendbuf, recvbuf, count, datatype, op, comm, request, true);
}

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return all_to_all("MPI_Exscan", EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, NULL, false);
}

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all("MPI_Iexscan", EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, request, true);
}

/* Reduce_scatter (recvcounts[], one per rank) and Reduce_scatter_block
 * (block: recvcount for every rank). The whole vector travels as one message in some
 * algorithms, so its length must fit the int counts of point-to-point. */
static int reduce_scatter(const char *fn, bool block, const void *sendbuf, void *recvbuf, const int *recvcounts,
                          int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request,
                          bool nonblocking)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_op_t *o;
    dmpi_request_t *r = NULL, **rp = nonblocking ? &r : NULL;
    void *copy = NULL;
    int err;
    if ((err = check_common(fn, comm, datatype, op, MPI_ROOT, request, nonblocking, false, &c, &dt, &o)) ||
        (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)))
        return dmpi_api_error(c, fn, err);
    /* on an intercommunicator too: recvcounts and the vector are the local group's */
    size_t total = 0, mine;
    if (block) {
        if ((err = dmpi_check_count(fn, recvcount)))
            return dmpi_api_error(c, fn, err);
        total = (size_t)recvcount * (size_t)c->size;
        mine = (size_t)recvcount;
    } else {
        if ((err = dmpi_check_ptr(fn, recvcounts, "recvcounts")))
            return dmpi_api_error(c, fn, err);
        for (int i = 0; i < c->size; i++) {
            if (recvcounts[i] < 0)
                return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_COUNT, "%s: negative recvcounts[%d] = %d", fn, i,
                                                      recvcounts[i]));
            total += (size_t)recvcounts[i];
        }
        mine = (size_t)recvcounts[c->rank];
    }
    if (total > INT_MAX)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_COUNT, "%s: the vector has %zu elements, more than %d", fn,
                                              total, INT_MAX));
    if ((err = check_buf(fn, sendbuf, "sendbuf", total, dt, true)) ||
        (err = check_buf(fn, recvbuf, "recvbuf", mine, dt, false)) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE(total, dt), DMPI_SIDE(mine, dt), &copy)))
        return dmpi_api_error(c, fn, err);
    if (!block)
        err = c->coll->reduce_scatter(c, sendbuf, recvbuf, recvcounts, dt, o, rp);
    else
        err = c->coll->reduce_scatter_block(c, sendbuf, recvbuf, (size_t)recvcount, dt, o, rp);
    return dmpi_coll_return(c, fn, err, copy, r, nonblocking ? request : NULL);
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return reduce_scatter("MPI_Reduce_scatter", false, sendbuf, recvbuf, recvcounts, 0, datatype, op, comm, NULL,
                          false);
}

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce_scatter("MPI_Ireduce_scatter", false, sendbuf, recvbuf, recvcounts, 0, datatype, op, comm,
                          request, true);
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    DMPI_API_ENTER;
    return reduce_scatter("MPI_Reduce_scatter_block", true, sendbuf, recvbuf, NULL, recvcount, datatype, op, comm,
                          NULL, false);
}

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce_scatter("MPI_Ireduce_scatter_block", true, sendbuf, recvbuf, NULL, recvcount, datatype, op, comm,
                          request, true);
}
