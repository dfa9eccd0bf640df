/* Reduction op objects and dmpi_op_apply, the one place where collectives
 * combine data. Predefined ops are a static table found from the handle's
 * low byte; user ops live behind MPICH-style direct handles 0x98000000 | i
 * (core/objtable.c). The typed loops are in core/op_kernels.c. */
#include "core/op.h"
#include "core/objtable.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OP_BUILTIN 0x58000000u
#define OP_USER_BASE 0x98000000u

/* MPI_REPLACE and MPI_NO_OP are not commutative: a op b is b (resp. a). */
#define B(h, k, c) [k] = {.handle = h, .kind = k, .commutative = c, .name = #h}
static dmpi_op_t builtin_ops[DMPI_OP_USER] = {
    B(MPI_MAX, DMPI_OP_MAX, true),          B(MPI_MIN, DMPI_OP_MIN, true),
    B(MPI_SUM, DMPI_OP_SUM, true),          B(MPI_PROD, DMPI_OP_PROD, true),
    B(MPI_LAND, DMPI_OP_LAND, true),        B(MPI_BAND, DMPI_OP_BAND, true),
    B(MPI_LOR, DMPI_OP_LOR, true),          B(MPI_BOR, DMPI_OP_BOR, true),
    B(MPI_LXOR, DMPI_OP_LXOR, true),        B(MPI_BXOR, DMPI_OP_BXOR, true),
    B(MPI_MINLOC, DMPI_OP_MINLOC, true),    B(MPI_MAXLOC, DMPI_OP_MAXLOC, true),
    B(MPI_REPLACE, DMPI_OP_REPLACE, false), B(MPI_NO_OP, DMPI_OP_NO_OP, false),
};
#undef B

static dmpi_objtable_t user_ops = {.base = OP_USER_BASE};

dmpi_op_t *dmpi_op_get(MPI_Op h)
{
    unsigned u = (unsigned)h;
    if ((u & 0xffffff00u) == OP_BUILTIN) {
        unsigned i = u & 0xff;
        return i >= DMPI_OP_MAX && i <= DMPI_OP_NO_OP ? &builtin_ops[i] : NULL;
    }
    return dmpi_obj_get(&user_ops, u);
}

bool dmpi_op_commutative(const dmpi_op_t *op)
{
    return op->commutative;
}

/* ---- which ops apply to which types ----------------------------------- */

bool dmpi_op_valid_for(const dmpi_op_t *op, const dmpi_dtype_t *dt)
{
    if (op->kind == DMPI_OP_USER || op->kind == DMPI_OP_REPLACE || op->kind == DMPI_OP_NO_OP)
        return true;
    if (dt->basic == MPI_DATATYPE_NULL)
        return dt->size == 0 && !dt->predefined;   /* a derived type without data */
    return dmpi_op_kernel(op->kind, dt->basic) != NULL;
}

/* The MPI_ERR_OP of an op that is not valid for dt, naming both. */
static int type_error(const char *fn, const dmpi_op_t *op, const dmpi_dtype_t *dt)
{
    if (dt->predefined)
        return dmpi_err(MPI_ERR_OP, "%s: %s is not defined for datatype %s", fn, op->name, dmpi_dtype_desc(dt));
    if (dt->basic == MPI_DATATYPE_NULL)
        return dmpi_err(MPI_ERR_OP,
                        "%s: %s is not defined for datatype %s, which mixes predefined types (reduce it with a "
                        "user op)", fn, op->name, dmpi_dtype_desc(dt));
    const dmpi_dtype_t *b = dmpi_dtype_get(dt->basic);
    return dmpi_err(MPI_ERR_OP, "%s: %s is not defined for datatype %s (made of %s)", fn, op->name,
                    dmpi_dtype_desc(dt), b ? dmpi_dtype_desc(b) : "?");
}

int dmpi_op_check_reduce(const char *fn, const dmpi_op_t *op, const dmpi_dtype_t *dt)
{
    if (op->kind == DMPI_OP_REPLACE || op->kind == DMPI_OP_NO_OP)
        return dmpi_err(MPI_ERR_OP, "%s: %s is only for the accumulate functions of one-sided communication, "
                        "not for reductions", fn, op->name);
    if (dmpi_op_valid_for(op, dt))
        return MPI_SUCCESS;
    return type_error(fn, op, dt);
}

/* ---- applying an op ---------------------------------------------------- */

/* Noncontiguous data is combined in steps of this many predefined
 * elements, packed into a small buffer: at most 16 KiB per operand. */
#define STEP_ELEMS 512

static int no_mem(size_t bytes)
{
    return dmpi_err(MPI_ERR_NO_MEM, "reduction: no memory for a %zu-byte buffer", bytes);
}

/* MPI_REPLACE on any type: inout's data becomes in's. */
static int replace(const void *in, void *inout, size_t count, const dmpi_dtype_t *dt)
{
    size_t bytes = count * dt->size;
    if (bytes == 0 || in == inout)
        return MPI_SUCCESS;
    if (dt->contig) {
        memmove((char *)inout + dt->true_lb, (const char *)in + dt->true_lb, bytes);
        return MPI_SUCCESS;
    }
    size_t step = STEP_ELEMS * 32;
    char *tmp = malloc(step);
    if (!tmp)
        return no_mem(step);
    for (size_t first = 0; first < bytes; first += step) {
        size_t len = bytes - first < step ? bytes - first : step;
        dmpi_dtype_pack_range(dt, in, first, len, tmp);
        dmpi_dtype_unpack_range(dt, inout, first, len, tmp);
    }
    free(tmp);
    return MPI_SUCCESS;
}

/* A user function sees the user's buffers and datatype handle. The MPI-3
 * form takes an int count: larger counts go in pieces of INT_MAX elements,
 * which an elementwise function cannot tell apart from one call. */
static int apply_user(const dmpi_op_t *op, const void *in, void *inout, size_t count, const dmpi_dtype_t *dt)
{
    MPI_Datatype h = dt->handle;
    if (count == 0)
        return MPI_SUCCESS;
    if (op->large_count) {
        MPI_Count len = (MPI_Count)count;
        op->user.fn_c((void *)in, inout, &len, &h);
        return MPI_SUCCESS;
    }
    const char *s = in;
    char *d = inout;
    while (count > 0) {
        int len = count > INT_MAX ? INT_MAX : (int)count;
        op->user.fn((void *)s, d, &len, &h);
        s += (MPI_Aint)len * dt->extent;
        d += (MPI_Aint)len * dt->extent;
        count -= (size_t)len;
    }
    return MPI_SUCCESS;
}

/* Noncontiguous data of one predefined type b: both operands packed a step
 * at a time, combined, and the result unpacked into inout. The packed
 * stream of a pair type with padding (DOUBLE_INT ...) has no padding, so it
 * is spread into C structs for the loop and gathered again. */
static int apply_packed(dmpi_op_kernel_fn *k, const dmpi_dtype_t *b, const void *in, void *inout, size_t bytes,
                        const dmpi_dtype_t *dt)
{
    size_t step = STEP_ELEMS * b->size;
    size_t spread = b->contig ? 0 : STEP_ELEMS * (size_t)b->extent;
    char *tmp = malloc(2 * step + 2 * spread);   /* step is a multiple of 512: parts stay aligned */
    if (!tmp)
        return no_mem(2 * step + 2 * spread);
    char *pin = tmp, *pio = pin + step, *sin = pio + step, *sio = sin + spread;
    for (size_t first = 0; first < bytes; first += step) {
        size_t len = bytes - first < step ? bytes - first : step, n = len / b->size;
        dmpi_dtype_pack_range(dt, in, first, len, pin);
        dmpi_dtype_pack_range(dt, inout, first, len, pio);
        if (b->contig) {
            k(pin, pio, n);
        } else {
            dmpi_dtype_unpack(b, n, pin, sin, len);
            dmpi_dtype_unpack(b, n, pio, sio, len);
            k(sin, sio, n);
            dmpi_dtype_pack(b, n, sio, pio);
        }
        dmpi_dtype_unpack_range(dt, inout, first, len, pio);
    }
    free(tmp);
    return MPI_SUCCESS;
}

int dmpi_op_apply(dmpi_op_t *op, const void *in, void *inout, size_t count, dmpi_dtype_t *dt)
{
    switch (op->kind) {
    case DMPI_OP_USER:
        return apply_user(op, in, inout, count, dt);
    case DMPI_OP_NO_OP:
        return MPI_SUCCESS;
    case DMPI_OP_REPLACE:
        return replace(in, inout, count, dt);
    default:
        break;
    }
    dmpi_op_kernel_fn *k = dt->basic != MPI_DATATYPE_NULL ? dmpi_op_kernel(op->kind, dt->basic) : NULL;
    if (DMPI_UNLIKELY(!k))   /* fine only for a derived type without data */
        return dmpi_op_valid_for(op, dt) ? MPI_SUCCESS : type_error("reduction", op, dt);
    if (count == 0 || dt->size == 0)
        return MPI_SUCCESS;
    if (dt->predefined) {                 /* pair types too: an array of C structs */
        k(in, inout, count);
        return MPI_SUCCESS;
    }
    const dmpi_dtype_t *b = dmpi_dtype_get(dt->basic);
    if (dt->contig && b->contig) {
        k((const char *)in + dt->true_lb, (char *)inout + dt->true_lb, count * (dt->size / b->size));
        return MPI_SUCCESS;
    }
    return apply_packed(k, b, in, inout, count * dt->size, dt);
}

/* ---- user ops ------------------------------------------------------------ */

int dmpi_op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, bool commute, MPI_Op *out)
{
    dmpi_op_t *op = malloc(sizeof *op);
    if (!op)
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Op_create: no memory for a new op");
    *op = (dmpi_op_t){.kind = DMPI_OP_USER, .refcount = 1, .commutative = commute, .large_count = fn_c != NULL,
                      .name = "a user-defined op"};
    if (fn_c)
        op->user.fn_c = fn_c;
    else
        op->user.fn = fn;
    uint32_t h = dmpi_obj_add(&user_ops, op);
    if (!h) {
        free(op);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Op_create: no memory for a new op handle");
    }
    op->handle = (MPI_Op)h;
    *out = op->handle;
    return MPI_SUCCESS;
}

void dmpi_op_retain(dmpi_op_t *op)
{
    if (op->kind == DMPI_OP_USER)
        op->refcount++;
}

void dmpi_op_release(dmpi_op_t *op)
{
    if (op->kind == DMPI_OP_USER && --op->refcount == 0)
        free(op);
}

/* A nonblocking collective may still use the op: it goes with the last use. */
void dmpi_op_free(dmpi_op_t *op)
{
    if (op->kind != DMPI_OP_USER)
        return;
    dmpi_obj_remove(&user_ops, (uint32_t)op->handle);
    dmpi_op_release(op);
}

void dmpi_op_finalize(void)
{
    for (int i = 0; i < user_ops.cap; i++)
        free(user_ops.slot[i]);
    dmpi_obj_clear(&user_ops);
}
