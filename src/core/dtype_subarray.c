/* MPI_Type_create_subarray (MPI-4.0 section 5.1.3), built from the engine's
 * constructors: the fastest-varying dimension is a contiguous run of
 * subsizes elements, every slower dimension an hvector of the faster ones
 * with the stride of one row of the full array; the whole is placed at the
 * byte offset of the start corner (hindexed_block of one block) and resized
 * to lb 0 and the full array's extent, which is what the standard's
 * definition with MPI_LB/MPI_UB markers means. The result reports the
 * SUBARRAY contents the user passed. */
#include "core/dtype_dist.h"
#include <stdlib.h>

/* k-th dimension counted from the fastest-varying one. */
static int dim_from_fastest(int ndims, int order, int k) { return order == MPI_ORDER_C ? ndims - 1 - k : k; }

/* Replaces *t (one of ours, or the user's old type when !owned) by the type
 * err/made came from; releases the one replaced. */
static int step(int err, dmpi_dtype_t **t, bool owned, dmpi_dtype_t *made)
{
    if (owned)
        dmpi_dtype_release(*t);
    if (err == MPI_SUCCESS)
        *t = made;
    return err;
}

int dmpi_dtype_subarray(int ndims, const MPI_Count sizes[], const MPI_Count subsizes[], const MPI_Count starts[],
                        int order, bool large, dmpi_dtype_t *oldtype, dmpi_dtype_t **out)
{
    dmpi_dtype_t *t = oldtype, *made = NULL;
    MPI_Aint row = oldtype->extent;      /* bytes between neighbours in dimension k */
    MPI_Aint disp = 0;                   /* byte offset of the start corner */
    int err = MPI_SUCCESS;
    for (int k = 0; k < ndims && err == MPI_SUCCESS; k++) {
        int d = dim_from_fastest(ndims, order, k);
        MPI_Datatype h = t->handle;
        if (k == 0) {
            err = dmpi_dtype_make(MPI_COMBINER_CONTIGUOUS, 1, &subsizes[d], 1, &h, true, &made);
        } else {
            const MPI_Count a[3] = {subsizes[d], 1, row};
            err = dmpi_dtype_make(MPI_COMBINER_HVECTOR, 3, a, 1, &h, true, &made);
        }
        err = step(err, &t, k > 0, made);
        disp += (MPI_Aint)starts[d] * row;
        row *= sizes[d];
    }
    if (err != MPI_SUCCESS)
        return err;
    /* row is now the extent of the whole array */
    MPI_Datatype h = t->handle;
    const MPI_Count place[3] = {1, 1, disp};
    err = dmpi_dtype_make(MPI_COMBINER_HINDEXED_BLOCK, 3, place, 1, &h, true, &made);
    err = step(err, &t, true, made);
    if (err != MPI_SUCCESS)
        return err;
    h = t->handle;
    const MPI_Count bounds[2] = {0, row};
    err = dmpi_dtype_make(MPI_COMBINER_RESIZED, 2, bounds, 1, &h, true, &made);
    err = step(err, &t, true, made);
    if (err != MPI_SUCCESS)
        return err;

    /* contents: ndims, sizes[], subsizes[], starts[], order; types {oldtype}; the _c form
     * reports ndims and order as ints and the three arrays as large counts */
    int n = large ? 2 : 3 * ndims + 2;
    int *ints = malloc((size_t)n * sizeof *ints);
    MPI_Count *lc = large ? malloc((size_t)ndims * 3 * sizeof *lc) : NULL;
    if (!ints || (large && !lc)) {
        free(ints);
        free(lc);
        dmpi_dtype_release(t);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Type_create_subarray: out of memory");
    }
    ints[0] = ndims;
    for (int i = 0; i < ndims; i++)
        for (int j = 0; j < 3; j++) {
            MPI_Count v = (j == 0 ? sizes : j == 1 ? subsizes : starts)[i];
            if (large)
                lc[j * ndims + i] = v;
            else
                ints[1 + j * ndims + i] = (int)v;
        }
    ints[n - 1] = order;
    MPI_Datatype old = oldtype->handle;
    dmpi_dtype_args_t a = {.nints = n, .ntypes = 1, .nlarge = large ? 3 * ndims : 0, .ints = ints, .large = lc,
                           .types = &old};
    err = dmpi_dtype_create_as(t, MPI_COMBINER_SUBARRAY, &a, out);
    free(ints);
    free(lc);
    dmpi_dtype_release(t);      /* the new type holds its own reference */
    return err;
}
