/* Datatype queries: size, extent and true extent, in int/MPI_Aint and in
 * MPI_Count forms (_x of MPI-3, _c of MPI-4: the same answers), each form
 * a wrapper of one query. Uncommitted types may be asked too. */
#include "api/type_api.h"
#include "api/mpi1.h"
#include <limits.h>

DMPI_ALIAS(Type_size)
DMPI_ALIAS(Type_size_x)
DMPI_ALIAS(Type_size_c)
DMPI_ALIAS(Type_get_extent)
DMPI_ALIAS(Type_get_extent_x)
DMPI_ALIAS(Type_get_extent_c)
DMPI_ALIAS(Type_get_true_extent)
DMPI_ALIAS(Type_get_true_extent_x)
DMPI_ALIAS(Type_get_true_extent_c)

/* The size, or MPI_UNDEFINED when it is more than max (MPI's answer when
 * the argument is too small to hold it). */
static int type_size(const char *fn, MPI_Datatype datatype, MPI_Count *size, MPI_Count max)
{
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_check_ptr(fn, size, "size")))
        return dmpi_api_error(NULL, fn, err);
    *size = dt->size > (size_t)max ? MPI_UNDEFINED : (MPI_Count)dt->size;
    return MPI_SUCCESS;
}

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    DMPI_API_ENTER;
    MPI_Count n = 0;
    int err = type_size("MPI_Type_size", datatype, size ? &n : NULL, INT_MAX);
    if (err == MPI_SUCCESS)
        *size = (int)n;
    return err;
}

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    DMPI_API_ENTER;
    return type_size("MPI_Type_size_x", datatype, size, INT64_MAX);
}

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    DMPI_API_ENTER;
    return type_size("MPI_Type_size_c", datatype, size, INT64_MAX);
}

/* Bounds (true_ext false) or true bounds; lb and extent are checked for NULL. */
static int type_extent(const char *fn, MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent, bool true_ext)
{
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_check_ptr(fn, lb, true_ext ? "true_lb" : "lb")) ||
        (err = dmpi_check_ptr(fn, extent, true_ext ? "true_extent" : "extent")))
        return dmpi_api_error(NULL, fn, err);
    *lb = true_ext ? dt->true_lb : dt->lb;
    *extent = true_ext ? dt->true_extent : dt->extent;
    return MPI_SUCCESS;
}

/* The MPI_Aint forms: MPI_Aint holds every extent a type can have. */
static int type_extent_aint(const char *fn, MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent, bool true_ext)
{
    MPI_Count l = 0, e = 0;
    int err = type_extent(fn, datatype, lb ? &l : NULL, extent ? &e : NULL, true_ext);
    if (err == MPI_SUCCESS) {
        *lb = (MPI_Aint)l;
        *extent = (MPI_Aint)e;
    }
    return err;
}

int dmpi_api_type_get_extent(const char *fn, MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    return type_extent_aint(fn, datatype, lb, extent, false);
}

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    DMPI_API_ENTER;
    return type_extent_aint("MPI_Type_get_extent", datatype, lb, extent, false);
}

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    DMPI_API_ENTER;
    return type_extent("MPI_Type_get_extent_x", datatype, lb, extent, false);
}

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    DMPI_API_ENTER;
    return type_extent("MPI_Type_get_extent_c", datatype, lb, extent, false);
}

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    DMPI_API_ENTER;
    return type_extent_aint("MPI_Type_get_true_extent", datatype, true_lb, true_extent, true);
}

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    DMPI_API_ENTER;
    return type_extent("MPI_Type_get_true_extent_x", datatype, true_lb, true_extent, true);
}

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    DMPI_API_ENTER;
    return type_extent("MPI_Type_get_true_extent_c", datatype, true_lb, true_extent, true);
}
