/* Datatype queries: size, extent and true extent, in int/MPI_Aint and in
 * MPI_Count forms. Uncommitted types may be asked too. */
#include "api/type_api.h"
#include "api/mpi1.h"

DMPI_ALIAS(Type_size)
DMPI_ALIAS(Type_size_x)
DMPI_ALIAS(Type_get_extent)
DMPI_ALIAS(Type_get_extent_x)
DMPI_ALIAS(Type_get_true_extent)
DMPI_ALIAS(Type_get_true_extent_x)

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_size";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_check_ptr(fn, size, "size")))
        return dmpi_api_error(NULL, fn, err);
    *size = dt->size > 0x7fffffff ? MPI_UNDEFINED : (int)dt->size;   /* MPI's answer when int is too small */
    return MPI_SUCCESS;
}

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_size_x";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_check_ptr(fn, size, "size")))
        return dmpi_api_error(NULL, fn, err);
    *size = (MPI_Count)dt->size;
    return MPI_SUCCESS;
}

/* The checks of the four extent queries. */
static int check_extent_args(const char *fn, MPI_Datatype datatype, const void *lb, const void *extent,
                             dmpi_dtype_t **dt)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", dt)) ||
        (err = dmpi_check_ptr(fn, lb, "lb")) || (err = dmpi_check_ptr(fn, extent, "extent")))
        return err;
    return MPI_SUCCESS;
}

int dmpi_api_type_get_extent(const char *fn, MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    dmpi_dtype_t *dt;
    int err = check_extent_args(fn, datatype, lb, extent, &dt);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    DMPI_API_ENTER;
    return dmpi_api_type_get_extent("MPI_Type_get_extent", datatype, lb, extent);
}

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_get_extent_x";
    dmpi_dtype_t *dt;
    int err = check_extent_args(fn, datatype, lb, extent, &dt);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_get_true_extent";
    dmpi_dtype_t *dt;
    int err = check_extent_args(fn, datatype, true_lb, true_extent, &dt);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *true_lb = dt->true_lb;
    *true_extent = dt->true_extent;
    return MPI_SUCCESS;
}

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_get_true_extent_x";
    dmpi_dtype_t *dt;
    int err = check_extent_args(fn, datatype, true_lb, true_extent, &dt);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *true_lb = dt->true_lb;
    *true_extent = dt->true_extent;
    return MPI_SUCCESS;
}
