/* Algorithm: reduce, scan and exscan of two ranks above the copy limit,
 * by single copy. One rank's vector X goes to the other (the receiver),
 * which then folds it with its own vector M locally:
 * - exscan: X = rank 0's vector, the receiver's answer;
 * - scan: X = rank 0's vector, rank 1 answers X op M;
 * - reduce: X = the other rank's vector, the root answers v_0 op v_1.
 * The transfer is split like the broadcast's: the receiver reads the
 * first half of X with process_vm_readv while the sender writes the second
 * half into the receiver's buffer with process_vm_writev, so both cores
 * copy at once. The fold runs where the receiver's data already is.
 * A chain of pieces through the slots (chain.c) copies every byte twice;
 * at two ranks this copies it once and moves half of it on each core. */
#include "coll/node/node_coll.h"
#include "core/op.h"
#include "node/cma.h"
#include <string.h>

static int cma_error(nc_state_t *s, const char *what, int err)
{
    return dmpi_err(MPI_ERR_OTHER, "%s: %s the other rank's buffer failed (%s)", s->call, what, strerror(err));
}

/* Phase t: the sender posts where X is, the receiver where X goes; each
 * copies its half, and neither returns before the other is through with
 * its buffer. */
static int transfer(nc_state_t *s, bool sender, const char *x, char *dst, size_t bytes)
{
    uint64_t t = nc_next(s);
    int peer = 1 - s->me, err = 0;
    nc_post_t *p = nc_post_begin(s, t);
    p->bytes = nc_sig(s, bytes);
    p->addr = (uint64_t)(uintptr_t)(sender ? x : dst);
    nc_publish(p, t);
    uint64_t there = nc_wait_post(s, peer, t, bytes)->addr;
    size_t half = bytes / 2;
    if (sender)
        err = dmpi_cma_write(s->pid[peer], there + half, x + half, bytes - half);
    else
        err = dmpi_cma_read(s->pid[peer], dst, there, half);
    nc_set_done(s, t);
    nc_wait_done(s, peer, t);
    return err ? cma_error(s, sender ? "writing into" : "reading", err) : MPI_SUCCESS;
}

/* The receiver's answer into out: left op right, where X is the left
 * operand if it comes from rank 0. mine: M (out itself in place). */
static int receive_and_fold(nc_state_t *s, dmpi_op_t *op, dmpi_dtype_t *dt, size_t count, const char *mine,
                            char *out, bool x_left)
{
    size_t bytes = count * dt->size;
    bool commute = dmpi_op_commutative(op);
    /* X straight into out when M stays readable elsewhere and the fold can
     * put M on the side it belongs: in = M, inout = X gives M op X. */
    if (mine != out && (!x_left || commute)) {
        int err = transfer(s, false, NULL, out, bytes);
        return err ? err : dmpi_op_apply(op, nc_typed(mine, dt), nc_typed(out, dt), count, dt);
    }
    char *x = nc_tmp(s, bytes);
    if (!x)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: no memory for %zu bytes", s->call, bytes);
    int err = transfer(s, false, NULL, x, bytes);
    if (err)
        return err;
    if (x_left || commute) {         /* in = X, inout = M: X op M */
        if (mine != out)
            memcpy(out, mine, bytes);
        return dmpi_op_apply(op, nc_typed(x, dt), nc_typed(out, dt), count, dt);
    }
    err = dmpi_op_apply(op, nc_typed(mine, dt), nc_typed(x, dt), count, dt);   /* M op X, in scratch */
    if (err == MPI_SUCCESS)
        memcpy(out, x, bytes);
    return err;
}

int nc_pair_reduce(nc_state_t *s, int what, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                   dmpi_op_t *op, int root)
{
    size_t bytes = count * dt->size;
    const char *mine = nc_packed(sbuf == MPI_IN_PLACE ? rbuf : sbuf, dt);
    int me = s->me;
    if (what == NC_RED_REDUCE) {
        if (me != root)
            return transfer(s, true, mine, NULL, bytes);
        return receive_and_fold(s, op, dt, count, mine, nc_packed(rbuf, dt), root == 1);
    }
    if (me == 0) {                   /* scan, exscan: rank 0 sends */
        int err = transfer(s, true, mine, NULL, bytes);
        if (what == NC_RED_SCAN && sbuf != MPI_IN_PLACE)
            memcpy(nc_packed(rbuf, dt), mine, bytes);
        return err;
    }
    if (what == NC_RED_EXSCAN)       /* rank 1's own vector is no one's input */
        return transfer(s, false, NULL, nc_packed(rbuf, dt), bytes);
    return receive_and_fold(s, op, dt, count, mine, nc_packed(rbuf, dt), true);
}
