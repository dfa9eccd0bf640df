/* Error handlers and error strings. */
#include "api/api.h"
#include "api/mpi1.h"
#include "core/errhandler.h"
#include <stdio.h>
#include <string.h>

DMPI_ALIAS(Comm_set_errhandler)
DMPI_ALIAS(Comm_get_errhandler)
DMPI_ALIAS(Comm_create_errhandler)
DMPI_ALIAS(Comm_call_errhandler)
DMPI_ALIAS(Errhandler_free)
DMPI_ALIAS(Error_string)
DMPI_ALIAS(Error_class)

int dmpi_api_comm_set_errhandler(const char *fn, MPI_Comm comm, MPI_Errhandler errhandler)
{
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)))
        return dmpi_api_error(c, fn, err);
    if ((err = dmpi_errhandler_check(fn, errhandler, DMPI_EH_COMM)))   /* not one made for windows */
        return dmpi_api_error(c, fn, err);
    dmpi_errhandler_retain(errhandler);
    dmpi_errhandler_release(c->errhandler);
    c->errhandler = errhandler;
    return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_set_errhandler("MPI_Comm_set_errhandler", comm, errhandler);
}

int dmpi_api_comm_get_errhandler(const char *fn, MPI_Comm comm, MPI_Errhandler *errhandler)
{
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, errhandler, "errhandler")))
        return dmpi_api_error(c, fn, err);
    dmpi_errhandler_retain(c->errhandler);   /* the caller frees its copy */
    *errhandler = c->errhandler;
    return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_get_errhandler("MPI_Comm_get_errhandler", comm, errhandler);
}

int dmpi_api_comm_create_errhandler(const char *fn, MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, (const void *)function, "function")) ||
        (err = dmpi_check_ptr(fn, errhandler, "errhandler")) || (err = dmpi_errhandler_create(function, errhandler)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_create_errhandler("MPI_Comm_create_errhandler", function, errhandler);
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_call_errhandler";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)))
        return dmpi_api_error(c, fn, err);
    dmpi_err_handle(c, fn, errorcode);
    return MPI_SUCCESS;
}

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Errhandler_free";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, errhandler, "errhandler")))
        return dmpi_api_error(NULL, fn, err);
    if (!dmpi_errhandler_valid(*errhandler))
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ERRHANDLER, "%s: invalid error handler 0x%x", fn,
                                                 (unsigned)*errhandler));
    return dmpi_errhandler_free(errhandler);
}

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Error_string";
    int err;
    if ((err = dmpi_check_ptr(fn, string, "string")) || (err = dmpi_check_ptr(fn, resultlen, "resultlen")))
        return dmpi_api_error(NULL, fn, err);
    const char *text = dmpi_err_string_of(errorcode);
    if (!text)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: %d is not a valid error code", fn, errorcode));
    snprintf(string, MPI_MAX_ERROR_STRING, "%s", text);
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}

int PMPI_Error_class(int errorcode, int *errorclass)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Error_class";
    int err;
    if ((err = dmpi_check_ptr(fn, errorclass, "errorclass")))
        return dmpi_api_error(NULL, fn, err);
    int cls = dmpi_err_class_of(errorcode);
    if (cls < 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: %d is not a valid error code", fn, errorcode));
    *errorclass = cls;
    return MPI_SUCCESS;
}
