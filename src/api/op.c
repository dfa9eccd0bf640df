/* Reduction operations: user ops and MPI_Reduce_local. */
#include "api/api.h"
#include "core/op.h"

DMPI_ALIAS(Op_create)
DMPI_ALIAS(Op_create_c)
DMPI_ALIAS(Op_free)
DMPI_ALIAS(Op_commutative)
DMPI_ALIAS(Reduce_local)
DMPI_ALIAS(Reduce_local_c)

static int check_op(const char *fn, MPI_Op h, dmpi_op_t **op)
{
    if ((*op = dmpi_op_get(h)))
        return MPI_SUCCESS;
    if (h == MPI_OP_NULL)
        return dmpi_err(MPI_ERR_OP, "%s: the op is MPI_OP_NULL", fn);
    return dmpi_err(MPI_ERR_OP, "%s: invalid op handle 0x%x", fn, (unsigned)h);
}

static int create(const char *fn, MPI_User_function *user_fn, MPI_User_function_c *user_fn_c, int commute,
                  MPI_Op *op)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, op, "op")))
        return dmpi_api_error(NULL, fn, err);
    if (!user_fn && !user_fn_c)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: user_fn is NULL", fn));
    if ((err = dmpi_op_create(user_fn, user_fn_c, commute != 0, op)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    DMPI_API_ENTER;
    return create("MPI_Op_create", user_fn, NULL, commute, op);
}

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    DMPI_API_ENTER;
    return create("MPI_Op_create_c", NULL, user_fn, commute, op);
}

int PMPI_Op_free(MPI_Op *op)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Op_free";
    dmpi_op_t *o;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, op, "op")) || (err = check_op(fn, *op, &o)))
        return dmpi_api_error(NULL, fn, err);
    if (o->kind != DMPI_OP_USER)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_OP, "%s: %s is predefined and cannot be freed", fn, o->name));
    dmpi_op_free(o);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Op_commutative";
    dmpi_op_t *o;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_op(fn, op, &o)) || (err = dmpi_check_ptr(fn, commute, "commute")))
        return dmpi_api_error(NULL, fn, err);
    *commute = dmpi_op_commutative(o);
    return MPI_SUCCESS;
}

/* MPI_IN_PLACE is no buffer here: MPI_Reduce_local has no "other" buffer
 * that it could stand for. */
static int check_local_buf(const char *fn, const void *buf, const char *what, MPI_Count count,
                           const dmpi_dtype_t *dt)
{
    if (buf == MPI_IN_PLACE)
        return dmpi_err(MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is not allowed as %s", fn, what);
    if (buf || count == 0 || dt->size == 0 || !dt->predefined)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: %s is NULL but count is %ld of %s", fn, what, (long)count,
                    dmpi_dtype_desc(dt));
}

static int reduce_local(const char *fn, const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op)
{
    dmpi_dtype_t *dt;
    dmpi_op_t *o;
    int err;
    if ((err = dmpi_check_init(fn)))
        return dmpi_api_error(NULL, fn, err);
    if (count < 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_COUNT, "%s: negative count %ld", fn, (long)count));
    if ((err = dmpi_check_type(fn, datatype, &dt)) || (err = check_op(fn, op, &o)) ||
        (err = dmpi_op_check_reduce(fn, o, dt)) || (err = check_local_buf(fn, inbuf, "inbuf", count, dt)) ||
        (err = check_local_buf(fn, inoutbuf, "inoutbuf", count, dt)) ||
        (err = dmpi_op_apply(o, inbuf, inoutbuf, (size_t)count, dt)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    DMPI_API_ENTER;
    return reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, datatype, op);
}

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    DMPI_API_ENTER;
    return reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}
