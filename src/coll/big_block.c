/* A block of more elements than a message's count can hold, as one element
 * of a type made for it (coll/big_block.h): q runs of limit elements (an
 * hvector) and then the r left over, at the places the elements have in
 * the caller's buffer, so the bytes and their order are those of count
 * elements of dt. */
#include "coll/big_block.h"
#include "core/dtype_ops.h"
#include <limits.h>

int dmpi_big_block(size_t count, dmpi_dtype_t *dt, size_t limit, size_t *n, dmpi_dtype_t **as)
{
    *n = count;
    *as = dt;
    if (count <= limit)
        return MPI_SUCCESS;
    size_t q = count / limit, r = count % limit;
    if (limit > INT_MAX || q > INT_MAX)
        return dmpi_err(MPI_ERR_COUNT, "a block of %zu elements of %s is too large for one message", count,
                        dmpi_dtype_desc(dt));
    int ints[3] = {(int)q, (int)limit, 0};
    MPI_Aint stride = (MPI_Aint)limit * dt->extent;
    MPI_Datatype th = dt->handle;
    dmpi_dtype_t *runs, *all = NULL;
    int err = dmpi_dtype_create(MPI_COMBINER_HVECTOR, 2, ints, 1, &stride, 1, &th, &runs);
    if (err != MPI_SUCCESS)
        return err;
    if (r == 0) {
        all = runs;
    } else {
        ints[0] = 2;
        ints[1] = 1;
        ints[2] = (int)r;
        MPI_Aint displs[2] = {0, (MPI_Aint)q * stride};
        MPI_Datatype types[2] = {runs->handle, th};
        err = dmpi_dtype_create(MPI_COMBINER_STRUCT, 3, ints, 2, displs, 2, types, &all);
        dmpi_dtype_release(runs);
        if (err != MPI_SUCCESS)
            return err;
    }
    dmpi_dtype_commit(all);
    *n = 1;
    *as = all;
    return MPI_SUCCESS;
}
