/* Argument checks of the datatype entry points (see type_api.h). */
#include "api/type_api.h"

int dmpi_type_check(const char *fn, MPI_Datatype h, const char *what, dmpi_dtype_t **out)
{
    if ((*out = dmpi_dtype_get(h))) {
        if (h != MPI_LB && h != MPI_UB)
            return MPI_SUCCESS;
        *out = NULL;
        return dmpi_err(MPI_ERR_TYPE, "%s: %s is %s, which MPI-3 removed; set bounds with MPI_Type_create_resized",
                        fn, what, h == MPI_LB ? "MPI_LB" : "MPI_UB");
    }
    if (h == MPI_DATATYPE_NULL)
        return dmpi_err(MPI_ERR_TYPE, "%s: %s is MPI_DATATYPE_NULL", fn, what);
    return dmpi_err(MPI_ERR_TYPE, "%s: %s is not a valid datatype handle (0x%x)", fn, what, (unsigned)h);
}

int dmpi_type_check_committed(const char *fn, MPI_Datatype h, const char *what, dmpi_dtype_t **out)
{
    int err = dmpi_type_check(fn, h, what, out);
    if (err != MPI_SUCCESS || (*out)->committed)
        return err;
    err = dmpi_err(MPI_ERR_TYPE, "%s: %s %s is not committed; call MPI_Type_commit first", fn, what,
                   dmpi_dtype_desc(*out));
    *out = NULL;
    return err;
}

int dmpi_type_check_blocklen(const char *fn, MPI_Count bl, MPI_Count i)
{
    if (bl >= 0)
        return MPI_SUCCESS;
    if (i < 0)
        return dmpi_err(MPI_ERR_ARG, "%s: negative blocklength %lld", fn, (long long)bl);
    return dmpi_err(MPI_ERR_ARG, "%s: negative blocklength %lld at array_of_blocklengths[%lld]", fn, (long long)bl,
                    (long long)i);
}

int dmpi_type_check_array(const char *fn, const void *p, MPI_Count n, const char *what)
{
    if (p || n <= 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL but count is %lld", fn, what, (long long)n);
}
