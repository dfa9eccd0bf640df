/* The atomic operations: Accumulate, Get_accumulate (and their R forms),
 * Fetch_and_op and Compare_and_swap. Every datatype of a call is built of
 * one predefined type, the same for all its buffers, and the op is a
 * predefined one that type takes (MPI-4.1 section 12.3.4). A side the call
 * ignores (the origin under MPI_NO_OP, the result of Accumulate) reaches
 * the engine as a NULL buffer, count 0 and the target's datatype. */
#include "api/rma_api.h"
#include "core/op.h"

DMPI_ALIAS(Accumulate)
DMPI_ALIAS(Raccumulate)
DMPI_ALIAS(Get_accumulate)
DMPI_ALIAS(Rget_accumulate)
DMPI_ALIAS(Fetch_and_op)
DMPI_ALIAS(Compare_and_swap)
DMPI_ALIAS(Accumulate_c)
DMPI_ALIAS(Raccumulate_c)
DMPI_ALIAS(Get_accumulate_c)
DMPI_ALIAS(Rget_accumulate_c)

/* A predefined op or MPI_REPLACE; MPI_NO_OP only where the target's data
 * is fetched, for it changes nothing. */
static int check_op(const char *fn, MPI_Op h, bool fetch, dmpi_op_t **op)
{
    if (!(*op = dmpi_op_get(h)))
        return dmpi_err(MPI_ERR_OP, "%s: invalid op 0x%x%s", fn, (unsigned)h, h == MPI_OP_NULL ? " (MPI_OP_NULL)" : "");
    if ((*op)->kind == DMPI_OP_USER)
        return dmpi_err(MPI_ERR_OP, "%s: a user-defined op cannot be used in one-sided communication; only the "
                        "predefined ops, MPI_REPLACE and MPI_NO_OP can", fn);
    if ((*op)->kind == DMPI_OP_NO_OP && !fetch)
        return dmpi_err(MPI_ERR_OP, "%s: MPI_NO_OP is only for MPI_Get_accumulate, MPI_Rget_accumulate and "
                        "MPI_Fetch_and_op", fn);
    return MPI_SUCCESS;
}

/* One buffer's datatype (what names the argument): built of one predefined
 * type, the one of the call's other buffers (*basic, set by the first
 * with data), and one op is defined on. A type without data, or no
 * element of it (count 0: nothing is combined, as MPICH and Open MPI
 * accept), goes with any. */
static int check_basic(const char *fn, const dmpi_op_t *op, const dmpi_dtype_t *dt, MPI_Count count, const char *what,
                       MPI_Datatype *basic)
{
    if (dt->size == 0 || count == 0)
        return MPI_SUCCESS;
    if (dt->basic == MPI_DATATYPE_NULL)
        return dmpi_err(MPI_ERR_TYPE, "%s: %s %s mixes predefined types; an accumulate takes types built of one",
                        fn, what, dmpi_dtype_desc(dt));
    if (*basic != MPI_DATATYPE_NULL && dt->basic != *basic)
        return dmpi_err(MPI_ERR_TYPE, "%s: %s %s is not built of the same predefined type as the call's other "
                        "datatypes", fn, what, dmpi_dtype_desc(dt));
    *basic = dt->basic;
    if (!dmpi_op_valid_for(op, dt))
        return dmpi_err(MPI_ERR_OP, "%s: %s is not defined for %s %s", fn, op->name, what, dmpi_dtype_desc(dt));
    return MPI_SUCCESS;
}

/* The one element of Fetch_and_op and Compare_and_swap: a predefined type. */
static int check_element_type(const char *fn, MPI_Datatype h, dmpi_dtype_t **dt)
{
    if (!(*dt = dmpi_dtype_get(h)))
        return dmpi_err(MPI_ERR_TYPE, "%s: invalid datatype 0x%x%s", fn, (unsigned)h,
                        h == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
    if (!(*dt)->predefined)
        return dmpi_err(MPI_ERR_TYPE, "%s: datatype %s is derived; this call takes a predefined one", fn,
                        dmpi_dtype_desc(*dt));
    return MPI_SUCCESS;
}

static int check_addr(const char *fn, const void *p, const char *what)
{
    return p ? MPI_SUCCESS : dmpi_err(MPI_ERR_BUFFER, "%s: %s is NULL", fn, what);
}

typedef struct acc_args {
    dmpi_win_t *w;
    dmpi_op_t *op;
    dmpi_dtype_t *odt, *rdt, *tdt;
} acc_args_t;

/* Every check of Accumulate (fetch false: no result buffer) and
 * Get_accumulate, and of their R forms. */
static int check_acc(const char *fn, const void *obuf, MPI_Count ocount, MPI_Datatype otype, const void *rbuf,
                     MPI_Count rcount, MPI_Datatype rtype, bool fetch, int target, MPI_Aint tdisp, MPI_Count tcount,
                     MPI_Datatype ttype,
                     MPI_Op op, MPI_Win win, bool rform, MPI_Request *request, acc_args_t *a)
{
    MPI_Datatype basic = MPI_DATATYPE_NULL;
    int err;
    if ((err = dmpi_check_win(fn, win, &a->w)) || (err = check_op(fn, op, fetch, &a->op)) ||
        (err = dmpi_check_win_rank(fn, a->w, target, "target_rank")) ||
        (err = dmpi_check_win_disp(fn, a->w, tdisp)) ||
        (err = dmpi_check_rma_type(fn, tcount, ttype, "target", &a->tdt)) ||
        (err = check_basic(fn, a->op, a->tdt, tcount, "target_datatype", &basic)))
        return err;
    a->odt = a->rdt = a->tdt;
    if (a->op->kind != DMPI_OP_NO_OP &&
        ((err = dmpi_check_rma_type(fn, ocount, otype, "origin", &a->odt)) ||
         (err = dmpi_check_rma_buf(fn, obuf, ocount, a->odt, "origin")) ||
         (err = check_basic(fn, a->op, a->odt, ocount, "origin_datatype", &basic))))
        return err;
    if (fetch && ((err = dmpi_check_rma_type(fn, rcount, rtype, "result", &a->rdt)) ||
                  (err = dmpi_check_rma_buf(fn, rbuf, rcount, a->rdt, "result")) ||
                  (err = check_basic(fn, a->op, a->rdt, rcount, "result_datatype", &basic))))
        return err;
    if (rform && (err = dmpi_check_ptr(fn, request, "request")))
        return err;
    return MPI_SUCCESS;
}

static int accumulate(const char *fn, const void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
                      MPI_Aint tdisp, MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win, bool rform,
                      MPI_Request *request)
{
    acc_args_t a = {0};
    dmpi_request_t *r = NULL;
    int err;
    if ((err = check_acc(fn, obuf, ocount, otype, NULL, 0, MPI_DATATYPE_NULL, false, target, tdisp, tcount, ttype,
                         op, win, rform, request, &a)))
        return dmpi_api_win_error(a.w, fn, err);
    if (target == MPI_PROC_NULL)
        return dmpi_rma_proc_null(fn, a.w, rform ? request : NULL);
    err = dmpi_rma_acc(fn, obuf, ocount, a.odt, NULL, 0, a.tdt, target, tdisp, tcount, a.tdt, a.op, a.w,
                       rform ? &r : NULL);
    return dmpi_rma_return(fn, a.w, err, r, request);
}

static int get_accumulate(const char *fn, const void *obuf, MPI_Count ocount, MPI_Datatype otype, void *rbuf,
                          MPI_Count rcount, MPI_Datatype rtype, int target, MPI_Aint tdisp, MPI_Count tcount,
                          MPI_Datatype ttype, MPI_Op op,
                          MPI_Win win, bool rform, MPI_Request *request)
{
    acc_args_t a = {0};
    dmpi_request_t *r = NULL;
    int err;
    if ((err = check_acc(fn, obuf, ocount, otype, rbuf, rcount, rtype, true, target, tdisp, tcount, ttype, op, win,
                         rform, request, &a)))
        return dmpi_api_win_error(a.w, fn, err);
    if (target == MPI_PROC_NULL)
        return dmpi_rma_proc_null(fn, a.w, rform ? request : NULL);
    bool no_op = a.op->kind == DMPI_OP_NO_OP;
    err = dmpi_rma_acc(fn, no_op ? NULL : obuf, no_op ? 0 : ocount, a.odt, rbuf, rcount, a.rdt, target, tdisp, tcount,
                       a.tdt, a.op, a.w, rform ? &r : NULL);
    return dmpi_rma_return(fn, a.w, err, r, request);
}

int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    DMPI_API_ENTER;
    return accumulate("MPI_Accumulate", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                      target_count, target_datatype, op, win, false, NULL);
}

int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request *request)
{
    DMPI_API_ENTER;
    return accumulate("MPI_Raccumulate", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                      target_count, target_datatype, op, win, true, request);
}

int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    DMPI_API_ENTER;
    return get_accumulate("MPI_Get_accumulate", origin_addr, origin_count, origin_datatype, result_addr,
                          result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op,
                          win, false, NULL);
}

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                         int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                         int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                         MPI_Request *request)
{
    DMPI_API_ENTER;
    return get_accumulate("MPI_Rget_accumulate", origin_addr, origin_count, origin_datatype, result_addr,
                          result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op,
                          win, true, request);
}

int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                      MPI_Win win)
{
    DMPI_API_ENTER;
    return accumulate("MPI_Accumulate_c", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                      target_count, target_datatype, op, win, false, NULL);
}

int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                       int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                       MPI_Op op, MPI_Win win, MPI_Request *request)
{
    DMPI_API_ENTER;
    return accumulate("MPI_Raccumulate_c", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                      target_count, target_datatype, op, win, true, request);
}

int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win)
{
    DMPI_API_ENTER;
    return get_accumulate("MPI_Get_accumulate_c", origin_addr, origin_count, origin_datatype, result_addr,
                          result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op,
                          win, false, NULL);
}

int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                           void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request *request)
{
    DMPI_API_ENTER;
    return get_accumulate("MPI_Rget_accumulate_c", origin_addr, origin_count, origin_datatype, result_addr,
                          result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op,
                          win, true, request);
}

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Fetch_and_op";
    MPI_Datatype basic = MPI_DATATYPE_NULL;
    dmpi_win_t *w = NULL;
    dmpi_op_t *o;
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = check_op(fn, op, true, &o)) ||
        (err = check_element_type(fn, datatype, &dt)) || (err = check_basic(fn, o, dt, 1, "datatype", &basic)) ||
        (o->kind != DMPI_OP_NO_OP && (err = check_addr(fn, origin_addr, "origin_addr"))) ||
        (err = check_addr(fn, result_addr, "result_addr")) ||
        (err = dmpi_check_win_rank(fn, w, target_rank, "target_rank")) ||
        (err = dmpi_check_win_disp(fn, w, target_disp)))
        return dmpi_api_win_error(w, fn, err);
    if (target_rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    bool no_op = o->kind == DMPI_OP_NO_OP;
    err = dmpi_rma_acc(fn, no_op ? NULL : origin_addr, no_op ? 0 : 1, dt, result_addr, 1, dt, target_rank, target_disp,
                       1, dt, o, w, NULL);
    return dmpi_rma_return(fn, w, err, NULL, NULL);
}

/* Compare_and_swap's types (MPI-4.1 section 12.3.4): the C integer,
 * Fortran integer, logical, multi-language and byte types. They are the
 * predefined types a bitwise or logical op is defined on (core/op_kernels.c),
 * but MPI_CHAR, a character type that only dmpi's extension reduces. */
static int check_cas_type(const char *fn, const dmpi_dtype_t *dt)
{
    MPI_Datatype h = dt->handle;
    if (h != MPI_CHAR && (dmpi_op_kernel(DMPI_OP_BOR, h) || dmpi_op_kernel(DMPI_OP_LOR, h)))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_TYPE, "%s: datatype %s is not a C or Fortran integer, logical, MPI_AINT, MPI_OFFSET, "
                    "MPI_COUNT or MPI_BYTE type", fn, dmpi_dtype_desc(dt));
}

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Compare_and_swap";
    dmpi_win_t *w = NULL;
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_win(fn, win, &w)) || (err = check_element_type(fn, datatype, &dt)) ||
        (err = check_cas_type(fn, dt)) || (err = check_addr(fn, origin_addr, "origin_addr")) ||
        (err = check_addr(fn, compare_addr, "compare_addr")) || (err = check_addr(fn, result_addr, "result_addr")) ||
        (err = dmpi_check_win_rank(fn, w, target_rank, "target_rank")) ||
        (err = dmpi_check_win_disp(fn, w, target_disp)))
        return dmpi_api_win_error(w, fn, err);
    if (target_rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return dmpi_rma_return(fn, w, dmpi_rma_cas(origin_addr, compare_addr, result_addr, dt, target_rank, target_disp, w),
                           NULL, NULL);
}
