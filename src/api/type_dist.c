/* Array datatypes: MPI_Type_create_subarray and MPI_Type_create_darray.
 * Every argument is checked here against MPI-4.0 sections 5.1.3 and 5.1.4;
 * core/dtype_subarray.c and core/dtype_darray.c build the types. */
#include "api/type_api.h"
#include "core/dtype_dist.h"
#include <stdlib.h>

DMPI_ALIAS(Type_create_subarray)
DMPI_ALIAS(Type_create_darray)
DMPI_ALIAS(Type_create_subarray_c)
DMPI_ALIAS(Type_create_darray_c)

static int check_ndims(const char *fn, int ndims)
{
    if (ndims > 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_DIMS, "%s: ndims is %d; it must be at least 1", fn, ndims);
}

static int check_order(const char *fn, int order)
{
    if (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: order is %d; it must be MPI_ORDER_C or MPI_ORDER_FORTRAN", fn, order);
}

/* The whole array, ext bytes per element, must have an extent MPI_Aint can hold. */
static int check_extent(const char *fn, int ndims, const MPI_Count dims[], const char *what, MPI_Aint ext)
{
    MPI_Aint total = ext < 0 ? -ext : ext;
    for (int i = 0; i < ndims; i++)
        if (__builtin_mul_overflow(total, (MPI_Aint)dims[i], &total))
            return dmpi_err(MPI_ERR_ARG, "%s: the array of %s has more bytes than MPI_Aint can count", fn, what);
    return MPI_SUCCESS;
}

static int check_subarray_dims(const char *fn, int ndims, const MPI_Count sizes[], const MPI_Count subsizes[],
                               const MPI_Count starts[])
{
    for (int i = 0; i < ndims; i++) {
        long long n = sizes[i], sub = subsizes[i], at = starts[i];
        if (n < 1)
            return dmpi_err(MPI_ERR_ARG, "%s: array_of_sizes[%d] is %lld; sizes must be positive", fn, i, n);
        if (sub < 1 || sub > n)
            return dmpi_err(MPI_ERR_ARG, "%s: array_of_subsizes[%d] is %lld; it must be from 1 to the size %lld", fn,
                            i, sub, n);
        if (at < 0 || at > n - sub)
            return dmpi_err(MPI_ERR_ARG, "%s: array_of_starts[%d] is %lld; with subsize %lld and size %lld it must "
                            "be from 0 to %lld", fn, i, at, sub, n, n - sub);
    }
    return MPI_SUCCESS;
}

/* The int form's array as MPI_Count (NULL stays NULL); *oom when out of memory. */
static MPI_Count *widen(int n, const int *v, bool *oom)
{
    if (!v)
        return NULL;
    MPI_Count *w = malloc((size_t)n * sizeof *w);
    if (!w) {
        *oom = true;
        return NULL;
    }
    for (int i = 0; i < n; i++)
        w[i] = v[i];
    return w;
}

static int subarray(const char *fn, int ndims, const MPI_Count array_of_sizes[],
                    const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[], int order,
                    MPI_Datatype oldtype, MPI_Datatype *newtype, bool large)
{
    dmpi_dtype_t *old, *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_ndims(fn, ndims)) ||
        (err = dmpi_check_ptr(fn, array_of_sizes, "array_of_sizes")) ||
        (err = dmpi_check_ptr(fn, array_of_subsizes, "array_of_subsizes")) ||
        (err = dmpi_check_ptr(fn, array_of_starts, "array_of_starts")) ||
        (err = check_subarray_dims(fn, ndims, array_of_sizes, array_of_subsizes, array_of_starts)) ||
        (err = check_order(fn, order)) || (err = dmpi_type_check(fn, oldtype, "oldtype", &old)) ||
        (err = dmpi_check_ptr(fn, newtype, "newtype")) ||
        (err = check_extent(fn, ndims, array_of_sizes, "array_of_sizes", old->extent)))
        return dmpi_api_error(NULL, fn, err);
    err = dmpi_dtype_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, large, old, &dt);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_create_subarray";
    int n = ndims > 0 ? ndims : 0, err;
    bool oom = false;
    MPI_Count *sizes = widen(n, array_of_sizes, &oom), *subsizes = widen(n, array_of_subsizes, &oom);
    MPI_Count *starts = widen(n, array_of_starts, &oom);
    if (oom)
        err = dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn));
    else
        err = subarray(fn, ndims, sizes, subsizes, starts, order, oldtype, newtype, false);
    free(sizes);
    free(subsizes);
    free(starts);
    return err;
}

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return subarray("MPI_Type_create_subarray_c", ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                    oldtype, newtype, true);
}

/* One dimension of a darray: a known distribution, a positive darg (or the
 * default), psize 1 when not distributed, blocks that cover gsize. */
static int check_darray_dim(const char *fn, int i, MPI_Count gsize, int distrib, int darg, int psize)
{
    if (gsize < 1)
        return dmpi_err(MPI_ERR_ARG, "%s: array_of_gsizes[%d] is %lld; sizes must be positive", fn, i,
                        (long long)gsize);
    if (psize < 1)
        return dmpi_err(MPI_ERR_ARG, "%s: array_of_psizes[%d] is %d; grid sizes must be positive", fn, i, psize);
    if (distrib != MPI_DISTRIBUTE_BLOCK && distrib != MPI_DISTRIBUTE_CYCLIC && distrib != MPI_DISTRIBUTE_NONE)
        return dmpi_err(MPI_ERR_ARG, "%s: array_of_distribs[%d] is %d; it must be MPI_DISTRIBUTE_BLOCK, "
                        "MPI_DISTRIBUTE_CYCLIC or MPI_DISTRIBUTE_NONE", fn, i, distrib);
    if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg < 1)
        return dmpi_err(MPI_ERR_ARG, "%s: array_of_dargs[%d] is %d; it must be positive or "
                        "MPI_DISTRIBUTE_DFLT_DARG", fn, i, darg);
    if (distrib == MPI_DISTRIBUTE_NONE && psize != 1)
        return dmpi_err(MPI_ERR_ARG, "%s: dimension %d is MPI_DISTRIBUTE_NONE, so array_of_psizes[%d] must be 1, "
                        "not %d", fn, i, i, psize);
    if (distrib == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG && (int64_t)darg * psize < gsize)
        return dmpi_err(MPI_ERR_ARG, "%s: dimension %d: %d blocks of array_of_dargs[%d] = %d elements do not "
                        "cover the %lld elements of array_of_gsizes[%d]", fn, i, psize, i, darg, (long long)gsize, i);
    return MPI_SUCCESS;
}

static int check_darray(const char *fn, int size, int rank, int ndims, const MPI_Count gsizes[],
                        const int distribs[], const int dargs[], const int psizes[])
{
    int err;
    if (size < 1)
        return dmpi_err(MPI_ERR_ARG, "%s: size is %d; it must be positive", fn, size);
    if (rank < 0 || rank >= size)
        return dmpi_err(MPI_ERR_ARG, "%s: rank %d is not in the group of size %d", fn, rank, size);
    if ((err = check_ndims(fn, ndims)) || (err = dmpi_check_ptr(fn, gsizes, "array_of_gsizes")) ||
        (err = dmpi_check_ptr(fn, distribs, "array_of_distribs")) ||
        (err = dmpi_check_ptr(fn, dargs, "array_of_dargs")) || (err = dmpi_check_ptr(fn, psizes, "array_of_psizes")))
        return err;
    int64_t procs = 1;
    for (int i = 0; i < ndims; i++) {
        if ((err = check_darray_dim(fn, i, gsizes[i], distribs[i], dargs[i], psizes[i])))
            return err;
        if (procs <= size)          /* past size the product is wrong anyway; do not overflow */
            procs *= psizes[i];
    }
    if (procs != size)
        return dmpi_err(MPI_ERR_ARG, "%s: the product of array_of_psizes is %s%ld but size is %d", fn,
                        procs > size ? "at least " : "", (long)procs, size);
    return MPI_SUCCESS;
}

static int darray(const char *fn, int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                  const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order,
                  MPI_Datatype oldtype, MPI_Datatype *newtype, bool large)
{
    dmpi_dtype_t *old, *dt;
    int err;
    if ((err = dmpi_check_init(fn)) ||
        (err = check_darray(fn, size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                            array_of_psizes)) ||
        (err = check_order(fn, order)) || (err = dmpi_type_check(fn, oldtype, "oldtype", &old)) ||
        (err = dmpi_check_ptr(fn, newtype, "newtype")) ||
        (err = check_extent(fn, ndims, array_of_gsizes, "array_of_gsizes", old->extent)))
        return dmpi_api_error(NULL, fn, err);
    err = dmpi_dtype_darray(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes,
                            order, large, old, &dt);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[],
                            const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_create_darray";
    bool oom = false;
    MPI_Count *gsizes = widen(ndims > 0 ? ndims : 0, array_of_gsizes, &oom);
    int err = oom ? dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn))
                  : darray(fn, size, rank, ndims, gsizes, array_of_distribs, array_of_dargs, array_of_psizes, order,
                           oldtype, newtype, false);
    free(gsizes);
    return err;
}

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                              int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return darray("MPI_Type_create_darray_c", size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                  array_of_psizes, order, oldtype, newtype, true);
}
