/* Error classes, codes and strings added (and, since MPI-4.1, removed) by
 * the program. They are local to the process and may be used at any time,
 * as MPI_Error_class and MPI_Error_string may (see core/errors.c). */
#include "api/api.h"

DMPI_ALIAS(Add_error_class)
DMPI_ALIAS(Add_error_code)
DMPI_ALIAS(Add_error_string)
DMPI_ALIAS(Remove_error_class)
DMPI_ALIAS(Remove_error_code)
DMPI_ALIAS(Remove_error_string)

int PMPI_Add_error_class(int *errorclass)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Add_error_class";
    int err;
    if ((err = dmpi_check_ptr(fn, errorclass, "errorclass")) || (err = dmpi_err_add_class(errorclass)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Add_error_code";
    int err;
    if ((err = dmpi_check_ptr(fn, errorcode, "errorcode")) || (err = dmpi_err_add_code(fn, errorclass, errorcode)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Add_error_string(int errorcode, const char *string)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Add_error_string";
    int err;
    if ((err = dmpi_check_ptr(fn, string, "string")) || (err = dmpi_err_add_string(fn, errorcode, string)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Remove_error_class(int errorclass)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Remove_error_class";
    int err = dmpi_err_remove(fn, errorclass, DMPI_ERR_CLASS);
    return err == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
}

int PMPI_Remove_error_code(int errorcode)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Remove_error_code";
    int err = dmpi_err_remove(fn, errorcode, DMPI_ERR_CODE);
    return err == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
}

int PMPI_Remove_error_string(int errorcode)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Remove_error_string";
    int err = dmpi_err_remove(fn, errorcode, DMPI_ERR_STRING);
    return err == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
}
