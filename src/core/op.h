/* Reduction operations: the predefined ops (MPI_MAX ... MPI_NO_OP) and
 * user ops (MPI_Op_create), and the one function every collective uses to
 * combine two buffers, dmpi_op_apply. Objects and handles live in
 * core/op.c, the typed loops of the predefined ops in core/op_kernels.c. */
#ifndef DMPI_OP_H
#define DMPI_OP_H

#include "core/dmpi.h"

/* Kinds of op: a predefined op's kind is the low byte of its handle
 * (MPI_MAX = 0x58000001 ... MPI_NO_OP = 0x5800000e). */
enum {
    DMPI_OP_MAX = 1,
    DMPI_OP_MIN,
    DMPI_OP_SUM,
    DMPI_OP_PROD,
    DMPI_OP_LAND,
    DMPI_OP_BAND,
    DMPI_OP_LOR,
    DMPI_OP_BOR,
    DMPI_OP_LXOR,
    DMPI_OP_BXOR,
    DMPI_OP_MINLOC,
    DMPI_OP_MAXLOC,
    DMPI_OP_REPLACE,
    DMPI_OP_NO_OP,
    DMPI_OP_USER,                /* made by MPI_Op_create(_c) */
    DMPI_OP_NKINDS
};

typedef struct dmpi_op {
    MPI_Op handle;
    int kind;                    /* DMPI_OP_MAX ... DMPI_OP_USER */
    bool commutative;
    bool large_count;            /* user function of MPI_Op_create_c (MPI_Count *len) */
    union {
        MPI_User_function *fn;
        MPI_User_function_c *fn_c;
    } user;
    const char *name;            /* "MPI_SUM", or "a user op" */
    int refcount;                /* user ops: the handle and each collective using it */
} dmpi_op_t;

/* NULL if h is not a valid op (MPI_OP_NULL, freed, garbage). */
dmpi_op_t *dmpi_op_get(MPI_Op h);
bool dmpi_op_commutative(const dmpi_op_t *op);

/* Whether dmpi_op_apply can apply op to data of type dt: user ops,
 * MPI_REPLACE and MPI_NO_OP to any type; the other predefined ops to the
 * predefined types the MPI standard lists for them (MPI-4 section 6.9.2) and
 * to derived types made of one such type only. */
bool dmpi_op_valid_for(const dmpi_op_t *op, const dmpi_dtype_t *dt);
/* The check of a reduction (MPI_Reduce_local and the reducing collectives)
 * before it moves data: MPI_ERR_OP with a message naming fn, the op and the
 * datatype when op is not valid for dt, and for MPI_REPLACE and MPI_NO_OP,
 * which the standard allows only in the accumulate functions of one-sided
 * communication (MPI-4 section 12.3.4); MPI_SUCCESS otherwise. */
int dmpi_op_check_reduce(const char *fn, const dmpi_op_t *op, const dmpi_dtype_t *dt);

/* inout[i] = in[i] op inout[i] for count elements of dt, in MPI's order:
 * `in` holds the partial result of the LOWER ranks, inout that of the
 * higher ones, so for a non-commutative op the result is (in) op (inout).
 * A user function is called as fn(in, inout, &len, &dt->handle), exactly as
 * the standard says. in and inout are the buffers as the user passes them
 * to MPI (displacements of dt apply to both); they must not overlap unless
 * they are the same buffer. Returns MPI_SUCCESS, or MPI_ERR_OP (naming op
 * and type) when the op is not defined on dt, or MPI_ERR_NO_MEM. */
int dmpi_op_apply(dmpi_op_t *op, const void *in, void *inout, size_t count, dmpi_dtype_t *dt);

/* User ops (MPI_Op_create / MPI_Op_create_c / MPI_Op_free). */
int dmpi_op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, bool commute, MPI_Op *out);
void dmpi_op_free(dmpi_op_t *op);   /* MPI_Op_free: the handle goes, the op when unused */
void dmpi_op_retain(dmpi_op_t *op);
void dmpi_op_release(dmpi_op_t *op);
void dmpi_op_finalize(void);        /* frees every user op (MPI_Finalize) */

/* The loop of a predefined op on n contiguous elements of the predefined
 * type basic (core/op_kernels.c): inout[i] = in[i] op inout[i]. NULL when
 * the standard does not define op on that type; never for MPI_REPLACE,
 * MPI_NO_OP and user ops, which op.c handles itself. For the MINLOC/MAXLOC
 * pair types an element is the C struct, padding included. */
typedef void dmpi_op_kernel_fn(const void *restrict in, void *restrict inout, size_t n);
dmpi_op_kernel_fn *dmpi_op_kernel(int kind, MPI_Datatype basic);

#endif
