/* Counts of the _c forms (MPI_Count) for an engine that counts in int
 * (rma/ops.c). A count up to INT_MAX passes through; a larger one becomes
 * one element of a derived type that holds all count elements, built with
 * int counts: contiguous(q, contiguous(2^30, dt)) and, for the remainder r,
 * a struct that puts contiguous(r, dt) behind it. For a contiguous dt each
 * level is a single run, so the type costs a few bytes whatever the count. */
#include "rma/rma_internal.h"
#include "core/dtype_ops.h"
#include <limits.h>

#define CHUNK (1 << 30)

/* *wdt: dt itself (*icount = count), or a committed type of its own that
 * the caller releases after the operation (*icount = 1). */
static int widen(const char *fn, MPI_Count count, dmpi_dtype_t *dt, int *icount, dmpi_dtype_t **wdt)
{
    *wdt = dt;
    if (count <= INT_MAX) {
        *icount = (int)count;
        return MPI_SUCCESS;
    }
    MPI_Count q = count / CHUNK, r = count % CHUNK;
    if (q > INT_MAX)
        return dmpi_err(MPI_ERR_COUNT, "%s: a count of %lld elements is more than this library can describe", fn,
                        (long long)count);
    int chunk = CHUNK, iq = (int)q, ir = (int)r, err;
    MPI_Datatype h = dt->handle;
    dmpi_dtype_t *a = NULL, *b = NULL, *rest = NULL, *all = NULL;
    if ((err = dmpi_dtype_create(MPI_COMBINER_CONTIGUOUS, 1, &chunk, 0, NULL, 1, &h, &a)))
        return err;
    MPI_Datatype ah = a->handle;
    err = dmpi_dtype_create(MPI_COMBINER_CONTIGUOUS, 1, &iq, 0, NULL, 1, &ah, &b);
    if (err == MPI_SUCCESS && ir == 0) {
        all = b;
        b = NULL;
    } else if (err == MPI_SUCCESS && (err = dmpi_dtype_create(MPI_COMBINER_CONTIGUOUS, 1, &ir, 0, NULL, 1, &h,
                                                               &rest)) == MPI_SUCCESS) {
        int ints[3] = {2, 1, 1};
        MPI_Aint disps[2] = {0, (MPI_Aint)q * CHUNK * dt->extent};
        MPI_Datatype types[2] = {b->handle, rest->handle};
        err = dmpi_dtype_create(MPI_COMBINER_STRUCT, 3, ints, 2, disps, 2, types, &all);
    }
    /* the new type holds its parts; our own references go */
    dmpi_dtype_release(a);
    if (b)
        dmpi_dtype_release(b);
    if (rest)
        dmpi_dtype_release(rest);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_dtype_commit(all);
    *wdt = all;
    *icount = 1;
    return MPI_SUCCESS;
}

static void unwiden(dmpi_dtype_t *dt, dmpi_dtype_t *wdt)
{
    if (wdt && wdt != dt)
        dmpi_dtype_release(wdt);
}

int dmpi_rma_put(const char *fn, const void *obuf, MPI_Count ocount, dmpi_dtype_t *odt, int target, MPI_Aint tdisp,
                 MPI_Count tcount, dmpi_dtype_t *tdt, dmpi_win_t *w, dmpi_request_t **req)
{
    int oc, tc, err;
    dmpi_dtype_t *wo = NULL, *wt = NULL;
    if ((err = widen(fn, ocount, odt, &oc, &wo)) == MPI_SUCCESS &&
        (err = widen(fn, tcount, tdt, &tc, &wt)) == MPI_SUCCESS)
        err = rma_put(fn, obuf, oc, wo, target, tdisp, tc, wt, w, req);
    unwiden(odt, wo);
    unwiden(tdt, wt);
    return err;
}

int dmpi_rma_get(const char *fn, void *obuf, MPI_Count ocount, dmpi_dtype_t *odt, int target, MPI_Aint tdisp,
                 MPI_Count tcount, dmpi_dtype_t *tdt, dmpi_win_t *w, dmpi_request_t **req)
{
    int oc, tc, err;
    dmpi_dtype_t *wo = NULL, *wt = NULL;
    if ((err = widen(fn, ocount, odt, &oc, &wo)) == MPI_SUCCESS &&
        (err = widen(fn, tcount, tdt, &tc, &wt)) == MPI_SUCCESS)
        err = rma_get(fn, obuf, oc, wo, target, tdisp, tc, wt, w, req);
    unwiden(odt, wo);
    unwiden(tdt, wt);
    return err;
}

int dmpi_rma_acc(const char *fn, const void *obuf, MPI_Count ocount, dmpi_dtype_t *odt, void *rbuf, MPI_Count rcount,
                 dmpi_dtype_t *rdt, int target, MPI_Aint tdisp, MPI_Count tcount, dmpi_dtype_t *tdt,
                 struct dmpi_op *op, dmpi_win_t *w, dmpi_request_t **req)
{
    int oc, rc, tc, err;
    dmpi_dtype_t *wo = NULL, *wr = NULL, *wt = NULL;
    if ((err = widen(fn, ocount, odt, &oc, &wo)) == MPI_SUCCESS &&
        (err = widen(fn, rcount, rdt, &rc, &wr)) == MPI_SUCCESS &&
        (err = widen(fn, tcount, tdt, &tc, &wt)) == MPI_SUCCESS)
        err = rma_acc(fn, obuf, oc, wo, rbuf, rc, wr, target, tdisp, tc, wt, op, w, req);
    unwiden(odt, wo);
    unwiden(rdt, wr);
    unwiden(tdt, wt);
    return err;
}
