/* MPI_Type_create_f90_integer/real/complex: the predefined type of a
 * Fortran KIND chosen by precision and range (MPI-4.0 19.1.9); and
 * MPI-4.1's MPI_Type_get_value_index: the pair type of a value type and an
 * index type. The tables are in core/dtype_named.c. */
#include "api/type_api.h"
#include "core/dtype_ops.h"

DMPI_ALIAS(Type_create_f90_integer)
DMPI_ALIAS(Type_create_f90_real)
DMPI_ALIAS(Type_create_f90_complex)
DMPI_ALIAS(Type_get_value_index)

static int f90(const char *fn, int combiner, int p, int r, MPI_Datatype *newtype)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, newtype, "newtype")))
        return dmpi_api_error(NULL, fn, err);
    if (combiner != MPI_COMBINER_F90_INTEGER && p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: p and r are both MPI_UNDEFINED; at most one "
                                                 "of them may be", fn));
    if (combiner == MPI_COMBINER_F90_INTEGER && r == MPI_UNDEFINED)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: r is MPI_UNDEFINED", fn));
    err = dmpi_dtype_f90(fn, combiner, p, r, newtype);
    return err == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return f90("MPI_Type_create_f90_integer", MPI_COMBINER_F90_INTEGER, 0, r, newtype);
}

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return f90("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p, r, newtype);
}

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return f90("MPI_Type_create_f90_complex", MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}

int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_get_value_index";
    dmpi_dtype_t *v, *i;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, value_type, "value_type", &v)) ||
        (err = dmpi_type_check(fn, index_type, "index_type", &i)) ||
        (err = dmpi_check_ptr(fn, pair_type, "pair_type")))
        return dmpi_api_error(NULL, fn, err);
    *pair_type = dmpi_dtype_value_index(value_type, index_type);
    return MPI_SUCCESS;
}
