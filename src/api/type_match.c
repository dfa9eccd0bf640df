/* MPI_Type_match_size: the predefined C type of a class and size. */
#include "api/type_api.h"
#include "core/dtype_ops.h"

DMPI_ALIAS(Type_match_size)

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_match_size";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, datatype, "datatype")))
        return dmpi_api_error(NULL, fn, err);
    if (typeclass != MPI_TYPECLASS_REAL && typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_COMPLEX)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: typeclass %d is none of MPI_TYPECLASS_REAL, "
                                                 "MPI_TYPECLASS_INTEGER, MPI_TYPECLASS_COMPLEX", fn, typeclass));
    MPI_Datatype t = dmpi_dtype_match_size(typeclass, size);
    if (t == MPI_DATATYPE_NULL)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: no predefined %s type has %d bytes", fn,
                                                 typeclass == MPI_TYPECLASS_REAL      ? "real"
                                                 : typeclass == MPI_TYPECLASS_INTEGER ? "integer"
                                                                                      : "complex",
                                                 size));
    *datatype = t;
    return MPI_SUCCESS;
}
