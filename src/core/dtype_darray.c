/* MPI_Type_create_darray (MPI-4.0 section 5.1.4) as the standard describes
 * it: the process's coordinates in the grid (row-major, whatever the
 * array's order), then one level per dimension from the fastest-varying
 * one, each the cyclic(darg, gsize, r, psize) distribution of the level
 * below: the blocks of darg elements that coordinate r owns (block j is
 * owned by j mod psize; the last block of the dimension may be short),
 * resized to lb 0 and gsize times the level below's extent. BLOCK is the
 * cyclic distribution whose darg (default ceil(gsize / psize)) gives every
 * process at most one block; NONE is BLOCK on one process. The result has
 * lb 0 and the whole global array's extent, and reports the DARRAY
 * contents the user passed. */
#include "core/dtype_dist.h"
#include <stdlib.h>

/* Releases a type we made (not the user's old type). */
static void drop(dmpi_dtype_t *t, const dmpi_dtype_t *user)
{
    if (t && t != user)
        dmpi_dtype_release(t);
}

/* The blocks of dimension (gsize, psize, darg) owned by coordinate r, as
 * copies of t (extent ext): full blocks of darg elements every darg*psize
 * elements from element r*darg, then possibly one short block. */
static int cyclic_level(dmpi_dtype_t *t, int64_t gsize, int64_t psize, int64_t darg, int64_t r, dmpi_dtype_t **out)
{
    MPI_Aint ext = t->extent;
    MPI_Datatype th = t->handle;
    int64_t nblocks = (gsize + darg - 1) / darg;
    int64_t mine = r < nblocks ? (nblocks - 1 - r) / psize + 1 : 0;
    int64_t last = r + (mine - 1) * psize;                    /* my last block */
    int64_t last_len = mine ? gsize - last * darg : 0;
    if (last_len > darg)
        last_len = darg;
    int64_t full = mine - (mine && last_len < darg);          /* blocks of darg elements */
    dmpi_dtype_t *blocks = NULL, *placed = NULL;
    int err = MPI_SUCCESS;
    if (full > 0) {
        /* with two or more full blocks darg*psize < gsize, so the stride cannot overflow */
        MPI_Aint stride = full > 1 ? (MPI_Aint)(darg * psize) * ext : 0;
        const MPI_Count a[3] = {full, darg, stride};
        err = dmpi_dtype_make(MPI_COMBINER_HVECTOR, 3, a, 1, &th, true, &blocks);
    }
    if (err == MPI_SUCCESS) {
        if (full > 0 && last_len < darg) {
            /* the full blocks, then the short one */
            const MPI_Count a[5] = {2, 1, last_len, (MPI_Aint)(r * darg) * ext, (MPI_Aint)(last * darg) * ext};
            MPI_Datatype types[2] = {blocks->handle, th};
            err = dmpi_dtype_make(MPI_COMBINER_STRUCT, 5, a, 2, types, true, &placed);
        } else if (full > 0) {
            const MPI_Count a[3] = {1, 1, (MPI_Aint)(r * darg) * ext};
            MPI_Datatype bh = blocks->handle;
            err = dmpi_dtype_make(MPI_COMBINER_HINDEXED_BLOCK, 3, a, 1, &bh, true, &placed);
        } else if (mine) {           /* only a short block */
            const MPI_Count a[3] = {1, last_len, (MPI_Aint)(last * darg) * ext};
            err = dmpi_dtype_make(MPI_COMBINER_HINDEXED_BLOCK, 3, a, 1, &th, true, &placed);
        } else {                     /* nothing of this dimension is mine */
            const MPI_Count zero = 0;
            err = dmpi_dtype_make(MPI_COMBINER_CONTIGUOUS, 1, &zero, 1, &th, true, &placed);
        }
    }
    drop(blocks, NULL);
    if (err != MPI_SUCCESS)
        return err;
    const MPI_Count bounds[2] = {0, (MPI_Aint)gsize * ext};
    MPI_Datatype ph = placed->handle;
    err = dmpi_dtype_make(MPI_COMBINER_RESIZED, 2, bounds, 1, &ph, true, out);
    drop(placed, NULL);
    return err;
}

int dmpi_dtype_darray(int size, int rank, int ndims, const MPI_Count gsizes[], const int distribs[],
                      const int dargs[], const int psizes[], int order, bool large, dmpi_dtype_t *oldtype,
                      dmpi_dtype_t **out)
{
    int n = 4 * ndims + 4;
    int *ints = malloc((size_t)n * sizeof *ints);
    int *coords = malloc((size_t)ndims * sizeof *coords);
    if (!ints || !coords) {
        free(ints);
        free(coords);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Type_create_darray: out of memory");
    }
    /* row-major coordinates of rank in the process grid */
    for (int i = 0, left = rank, procs = size; i < ndims; i++) {
        procs /= psizes[i];
        coords[i] = left / procs;
        left %= procs;
    }
    dmpi_dtype_t *t = oldtype;
    int err = MPI_SUCCESS;
    for (int k = 0; k < ndims && err == MPI_SUCCESS; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
        int64_t g = gsizes[d], p = psizes[d], r = coords[d], darg = dargs[d];
        if (distribs[d] == MPI_DISTRIBUTE_NONE)
            darg = g;                                /* one block, all of it */
        else if (darg == MPI_DISTRIBUTE_DFLT_DARG)
            darg = distribs[d] == MPI_DISTRIBUTE_BLOCK ? (g + p - 1) / p : 1;
        dmpi_dtype_t *next = NULL;
        err = cyclic_level(t, g, p, darg, r, &next);
        drop(t, oldtype);
        t = next;
    }
    free(coords);
    if (err != MPI_SUCCESS) {
        free(ints);
        return err;
    }
    /* contents: size, rank, ndims, gsizes[], distribs[], dargs[], psizes[], order; types {oldtype};
     * the _c form reports gsizes[] as its large counts and the rest as ints */
    int g = large ? 0 : ndims, k = 0;
    ints[k++] = size;
    ints[k++] = rank;
    ints[k++] = ndims;
    for (int i = 0; i < g; i++)
        ints[k++] = (int)gsizes[i];
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < ndims; i++)
            ints[k++] = (j == 0 ? distribs : j == 1 ? dargs : psizes)[i];
    ints[k++] = order;
    MPI_Datatype old = oldtype->handle;
    dmpi_dtype_args_t a = {.nints = k, .ntypes = 1, .nlarge = large ? ndims : 0, .ints = ints,
                           .large = large ? gsizes : NULL, .types = &old};
    err = dmpi_dtype_create_as(t, MPI_COMBINER_DARRAY, &a, out);
    free(ints);
    drop(t, oldtype);
    return err;
}
