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

int dmpi_dtype_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                        dmpi_dtype_t *oldtype, dmpi_dtype_t **out)
{
    dmpi_dtype_t *t = oldtype, *made = NULL;
    MPI_Aint row = oldtype->extent;      /* bytes between neighbours in dimension k */
    MPI_Aint disp = 0;                   /* byte offset of the start corner */
    int err = MPI_SUCCESS;
    for (int k = 0; k < ndims && err == MPI_SUCCESS; k++) {
        int d = dim_from_fastest(ndims, order, k);
        MPI_Datatype h = t->handle;
        if (k == 0) {
            err = dmpi_dtype_create(MPI_COMBINER_CONTIGUOUS, 1, &subsizes[d], 0, NULL, 1, &h, &made);
        } else {
            int ints[2] = {subsizes[d], 1};
            err = dmpi_dtype_create(MPI_COMBINER_HVECTOR, 2, ints, 1, &row, 1, &h, &made);
        }
        err = step(err, &t, k > 0, made);
        disp += (MPI_Aint)starts[d] * row;
        row *= sizes[d];
    }
    if (err != MPI_SUCCESS)
        return err;
    /* row is now the extent of the whole array */
    MPI_Datatype h = t->handle;
    int place[2] = {1, 1};
    err = dmpi_dtype_create(MPI_COMBINER_HINDEXED_BLOCK, 2, place, 1, &disp, 1, &h, &made);
    err = step(err, &t, true, made);
    if (err != MPI_SUCCESS)
        return err;
    h = t->handle;
    MPI_Aint bounds[2] = {0, row};
    err = dmpi_dtype_create(MPI_COMBINER_RESIZED, 0, NULL, 2, bounds, 1, &h, &made);
    err = step(err, &t, true, made);
    if (err != MPI_SUCCESS)
        return err;

    /* contents: ndims, sizes[], subsizes[], starts[], order; types {oldtype} */
    int n = 3 * ndims + 2;
    int *ints = malloc((size_t)n * sizeof *ints);
    if (!ints) {
        dmpi_dtype_release(t);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Type_create_subarray: out of memory");
    }
    ints[0] = ndims;
    for (int i = 0; i < ndims; i++) {
        ints[1 + i] = sizes[i];
        ints[1 + ndims + i] = subsizes[i];
        ints[1 + 2 * ndims + i] = starts[i];
    }
    ints[n - 1] = order;
    MPI_Datatype old = oldtype->handle;
    err = dmpi_dtype_create_as(t, MPI_COMBINER_SUBARRAY, n, ints, 0, NULL, 1, &old, out);
    free(ints);
    dmpi_dtype_release(t);      /* the new type holds its own reference */
    return err;
}
