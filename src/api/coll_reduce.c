/* The reducing collectives: MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter,
 * MPI_Reduce_scatter_block, MPI_Scan, MPI_Exscan, in their five forms each
 * (blocking, nonblocking, persistent; int and MPI_Count counts). Argument
 * checks, then one call into the collective table; the forms share
 * everything but the request. */
#include "api/coll_move.h"
#include "coll/coll.h"
#include "core/op.h"

DMPI_ALIAS(Reduce)
DMPI_ALIAS(Ireduce)
DMPI_ALIAS(Reduce_init)
DMPI_ALIAS(Reduce_c)
DMPI_ALIAS(Ireduce_c)
DMPI_ALIAS(Reduce_init_c)
DMPI_ALIAS(Allreduce)
DMPI_ALIAS(Iallreduce)
DMPI_ALIAS(Allreduce_init)
DMPI_ALIAS(Allreduce_c)
DMPI_ALIAS(Iallreduce_c)
DMPI_ALIAS(Allreduce_init_c)
DMPI_ALIAS(Reduce_scatter)
DMPI_ALIAS(Ireduce_scatter)
DMPI_ALIAS(Reduce_scatter_init)
DMPI_ALIAS(Reduce_scatter_c)
DMPI_ALIAS(Ireduce_scatter_c)
DMPI_ALIAS(Reduce_scatter_init_c)
DMPI_ALIAS(Reduce_scatter_block)
DMPI_ALIAS(Ireduce_scatter_block)
DMPI_ALIAS(Reduce_scatter_block_init)
DMPI_ALIAS(Reduce_scatter_block_c)
DMPI_ALIAS(Ireduce_scatter_block_c)
DMPI_ALIAS(Reduce_scatter_block_init_c)
DMPI_ALIAS(Scan)
DMPI_ALIAS(Iscan)
DMPI_ALIAS(Scan_init)
DMPI_ALIAS(Scan_c)
DMPI_ALIAS(Iscan_c)
DMPI_ALIAS(Scan_init_c)
DMPI_ALIAS(Exscan)
DMPI_ALIAS(Iexscan)
DMPI_ALIAS(Exscan_init)
DMPI_ALIAS(Exscan_c)
DMPI_ALIAS(Iexscan_c)
DMPI_ALIAS(Exscan_init_c)

/* Comm (an intracommunicator for a scan), type and op, valid together;
 * request and info too for the calls that have them. root: a reduce's, else MPI_ROOT. */
static int check_common(const dmpi_coll_call_t *k, MPI_Comm comm, MPI_Datatype datatype, MPI_Op op, int root,
                        bool scan, dmpi_comm_t **c, dmpi_dtype_t **dt, dmpi_op_t **o)
{
    const char *fn = k->fn;
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
    return dmpi_check_call(k);
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

static int reduce(const dmpi_coll_call_t *k, const void *sendbuf, void *recvbuf, MPI_Count count,
                  MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    const char *fn = k->fn;
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_op_t *o;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    if ((err = check_common(k, comm, datatype, op, root, false, &c, &dt, &o)) ||
        (err = dmpi_check_coll_count(fn, "count", count)) || (err = dmpi_check_root(fn, root, c)))
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
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    err = t->reduce(c, sendbuf, recvbuf, (size_t)count, dt, o, root, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

/* Allreduce, Scan and Exscan take the same arguments. */
enum { ALLREDUCE, SCAN, EXSCAN };

static int all_to_all(const dmpi_coll_call_t *k, int kind, const void *sendbuf, void *recvbuf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    const char *fn = k->fn;
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_op_t *o;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    if ((err = check_common(k, comm, datatype, op, MPI_ROOT, kind != ALLREDUCE, &c, &dt, &o)) ||
        (err = dmpi_check_coll_count(fn, "count", count)) ||
        (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (err = check_buf(fn, sendbuf, "sendbuf", (size_t)count, dt, true)) ||
        (err = check_buf(fn, recvbuf, "recvbuf", (size_t)count, dt, false)) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE((size_t)count, dt), DMPI_SIDE((size_t)count, dt),
                                &copy)))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    if (kind == ALLREDUCE)
        err = t->allreduce(c, sendbuf, recvbuf, (size_t)count, dt, o, rp);
    else if (kind == SCAN)
        err = t->scan(c, sendbuf, recvbuf, (size_t)count, dt, o, rp);
    else
        err = t->exscan(c, sendbuf, recvbuf, (size_t)count, dt, o, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

/* Reduce_scatter (recvcounts[], one per rank of the local group) and
 * Reduce_scatter_block (recvcount for every rank). */
static int reduce_scatter_checked(const dmpi_coll_call_t *k, dmpi_comm_t *c, dmpi_dtype_t *dt, dmpi_op_t *o,
                                  const void *sendbuf, void *recvbuf, const MPI_Count *recvcounts, MPI_Count recvcount)
{
    const char *fn = k->fn;
    dmpi_request_t *r, **rp;
    void *copy = NULL;
    int err;
    /* on an intercommunicator too: recvcounts and the vector are the local group's */
    size_t total = 0, mine;
    if (!recvcounts) {
        if ((err = dmpi_check_coll_count(fn, "recvcount", recvcount)))
            return dmpi_api_error(c, fn, err);
        total = (size_t)recvcount * (size_t)c->size;
        mine = (size_t)recvcount;
    } else {
        for (int i = 0; i < c->size; i++) {
            if (recvcounts[i] < 0)
                return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_COUNT, "%s: negative recvcounts[%d] = %lld", fn, i,
                                                      (long long)recvcounts[i]));
            total += (size_t)recvcounts[i];
        }
        mine = (size_t)recvcounts[c->rank];
    }
    if ((err = check_buf(fn, sendbuf, "sendbuf", total, dt, true)) ||
        (err = check_buf(fn, recvbuf, "recvbuf", mine, dt, false)) ||
        (err = dmpi_alias_check(fn, &sendbuf, recvbuf, DMPI_SIDE(total, dt), DMPI_SIDE(mine, dt), &copy)))
        return dmpi_api_error(c, fn, err);
    const dmpi_coll_table_t *t = dmpi_coll_table_for(c, k, &r, &rp);
    if (recvcounts)
        err = t->reduce_scatter(c, sendbuf, recvbuf, recvcounts, dt, o, rp);
    else
        err = t->reduce_scatter_block(c, sendbuf, recvbuf, (size_t)recvcount, dt, o, rp);
    return dmpi_coll_end(c, k, err, copy, r);
}

/* in: the recvcounts of Reduce_scatter, int or wide; block: the block form (recvcount). */
static int reduce_scatter(const dmpi_coll_call_t *k, const void *sendbuf, void *recvbuf, bool block,
                          dmpi_varrays_in_t in, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    const char *fn = k->fn;
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    dmpi_op_t *o;
    dmpi_varrays_t v;
    int err;
    if ((err = check_common(k, comm, datatype, op, MPI_ROOT, false, &c, &dt, &o)) ||
        (err = dmpi_check_inter_in_place(fn, c, sendbuf, recvbuf)) ||
        (!block && (err = dmpi_check_ptr(fn, in.counts[0], "recvcounts"))))
        return dmpi_api_error(c, fn, err);
    if ((err = dmpi_varrays_widen(fn, c->size, &in, &v)))
        return dmpi_api_error(c, fn, err);
    err = reduce_scatter_checked(k, c, dt, o, sendbuf, recvbuf, block ? NULL : v.counts[0], recvcount);
    return dmpi_varrays_done(&v, err);
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
    DMPI_API_ENTER;
    return reduce(DMPI_CALL_BLOCKING("MPI_Reduce"), sendbuf, recvbuf, count, datatype, op, root, comm);
}

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce(DMPI_CALL_NONBLOCKING("MPI_Ireduce", request), sendbuf, recvbuf, count, datatype, op, root, comm);
}

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce(DMPI_CALL_PERSISTENT("MPI_Reduce_init", info, request), sendbuf, recvbuf, count, datatype, op, root,
                  comm);
}

int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                  MPI_Comm comm)
{
    DMPI_API_ENTER;
    return reduce(DMPI_CALL_BLOCKING("MPI_Reduce_c"), sendbuf, recvbuf, count, datatype, op, root, comm);
}

int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce(DMPI_CALL_NONBLOCKING("MPI_Ireduce_c", request), sendbuf, recvbuf, count, datatype, op, root, comm);
}

int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce(DMPI_CALL_PERSISTENT("MPI_Reduce_init_c", info, request), sendbuf, recvbuf, count, datatype, op, root,
                  comm);
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_BLOCKING("MPI_Allreduce"), ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm);
}

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_NONBLOCKING("MPI_Iallreduce", request), ALLREDUCE, sendbuf, recvbuf, count, datatype,
                      op, comm);
}

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_PERSISTENT("MPI_Allreduce_init", info, request), ALLREDUCE, sendbuf, recvbuf, count,
                      datatype, op, comm);
}

int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_BLOCKING("MPI_Allreduce_c"), ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm);
}

int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_NONBLOCKING("MPI_Iallreduce_c", request), ALLREDUCE, sendbuf, recvbuf, count, datatype,
                      op, comm);
}

int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_PERSISTENT("MPI_Allreduce_init_c", info, request), ALLREDUCE, sendbuf, recvbuf, count,
                      datatype, op, comm);
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_BLOCKING("MPI_Scan"), SCAN, sendbuf, recvbuf, count, datatype, op, comm);
}

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_NONBLOCKING("MPI_Iscan", request), SCAN, sendbuf, recvbuf, count, datatype, op, comm);
}

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_PERSISTENT("MPI_Scan_init", info, request), SCAN, sendbuf, recvbuf, count, datatype, op,
                      comm);
}

int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_BLOCKING("MPI_Scan_c"), SCAN, sendbuf, recvbuf, count, datatype, op, comm);
}

int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_NONBLOCKING("MPI_Iscan_c", request), SCAN, sendbuf, recvbuf, count, datatype, op, comm);
}

int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_PERSISTENT("MPI_Scan_init_c", info, request), SCAN, sendbuf, recvbuf, count, datatype,
                      op, comm);
}

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_BLOCKING("MPI_Exscan"), EXSCAN, sendbuf, recvbuf, count, datatype, op, comm);
}

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_NONBLOCKING("MPI_Iexscan", request), EXSCAN, sendbuf, recvbuf, count, datatype, op,
                      comm);
}

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_PERSISTENT("MPI_Exscan_init", info, request), EXSCAN, sendbuf, recvbuf, count, datatype,
                      op, comm);
}

int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_BLOCKING("MPI_Exscan_c"), EXSCAN, sendbuf, recvbuf, count, datatype, op, comm);
}

int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_NONBLOCKING("MPI_Iexscan_c", request), EXSCAN, sendbuf, recvbuf, count, datatype, op,
                      comm);
}

int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return all_to_all(DMPI_CALL_PERSISTENT("MPI_Exscan_init_c", info, request), EXSCAN, sendbuf, recvbuf, count,
                      datatype, op, comm);
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_BLOCKING("MPI_Reduce_scatter"), sendbuf, recvbuf, false,
                          DMPI_VARRAYS(false, recvcounts, NULL, NULL, NULL), 0, datatype, op, comm);
}

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_NONBLOCKING("MPI_Ireduce_scatter", request), sendbuf, recvbuf, false,
                          DMPI_VARRAYS(false, recvcounts, NULL, NULL, NULL), 0, datatype, op, comm);
}

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_PERSISTENT("MPI_Reduce_scatter_init", info, request), sendbuf, recvbuf, false,
                          DMPI_VARRAYS(false, recvcounts, NULL, NULL, NULL), 0, datatype, op, comm);
}

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_BLOCKING("MPI_Reduce_scatter_c"), sendbuf, recvbuf, false,
                          DMPI_VARRAYS(true, recvcounts, NULL, NULL, NULL), 0, datatype, op, comm);
}

int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_NONBLOCKING("MPI_Ireduce_scatter_c", request), sendbuf, recvbuf, false,
                          DMPI_VARRAYS(true, recvcounts, NULL, NULL, NULL), 0, datatype, op, comm);
}

int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_PERSISTENT("MPI_Reduce_scatter_init_c", info, request), sendbuf, recvbuf, false,
                          DMPI_VARRAYS(true, recvcounts, NULL, NULL, NULL), 0, datatype, op, comm);
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_BLOCKING("MPI_Reduce_scatter_block"), sendbuf, recvbuf, true,
                          DMPI_VARRAYS(false, NULL, NULL, NULL, NULL), recvcount, datatype, op, comm);
}

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_NONBLOCKING("MPI_Ireduce_scatter_block", request), sendbuf, recvbuf, true,
                          DMPI_VARRAYS(false, NULL, NULL, NULL, NULL), recvcount, datatype, op, comm);
}

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_PERSISTENT("MPI_Reduce_scatter_block_init", info, request), sendbuf, recvbuf, true,
                          DMPI_VARRAYS(false, NULL, NULL, NULL, NULL), recvcount, datatype, op, comm);
}

int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_BLOCKING("MPI_Reduce_scatter_block_c"), sendbuf, recvbuf, true,
                          DMPI_VARRAYS(true, NULL, NULL, NULL, NULL), recvcount, datatype, op, comm);
}

int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_NONBLOCKING("MPI_Ireduce_scatter_block_c", request), sendbuf, recvbuf, true,
                          DMPI_VARRAYS(true, NULL, NULL, NULL, NULL), recvcount, datatype, op, comm);
}

int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    DMPI_API_ENTER;
    return reduce_scatter(DMPI_CALL_PERSISTENT("MPI_Reduce_scatter_block_init_c", info, request), sendbuf, recvbuf,
                          true, DMPI_VARRAYS(true, NULL, NULL, NULL, NULL), recvcount, datatype, op, comm);
}
