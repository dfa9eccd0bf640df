/* MPI_Pack, MPI_Unpack, MPI_Pack_size. The packed form is the type's data
 * in typemap order with no header (all ranks share one representation), so
 * each call is one run of the pack engine at the position; several calls
 * append to (or read on from) the same buffer. */
#include "api/type_api.h"
#include <limits.h>

DMPI_ALIAS(Pack)
DMPI_ALIAS(Unpack)
DMPI_ALIAS(Pack_size)

/* Packed bytes of count elements of dt; false if that overflows. */
static bool packed_bytes(int count, const dmpi_dtype_t *dt, size_t *bytes)
{
    return !__builtin_mul_overflow((size_t)count, dt->size, bytes);
}

/* The checks Pack and Unpack share: the packed buffer is size bytes with
 * *position in it, and bytes of it from there are needed. */
static int check_pack_args(const char *fn, MPI_Comm comm, int count, MPI_Datatype datatype, const void *typed_buf,
                           const void *packed_buf, const char *size_name, int size, const int *position,
                           dmpi_comm_t **c, dmpi_dtype_t **dt, size_t *bytes)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)) || (err = dmpi_check_count(fn, count)) ||
        (err = dmpi_type_check_committed(fn, datatype, "datatype", dt)) ||
        (err = dmpi_check_buf(fn, typed_buf, count, *dt)) || (err = dmpi_check_ptr(fn, position, "position")))
        return err;
    if (size < 0)
        return dmpi_err(MPI_ERR_ARG, "%s: negative %s %d", fn, size_name, size);
    if (*position < 0 || *position > size)
        return dmpi_err(MPI_ERR_ARG, "%s: position %d is outside the %d bytes of %s", fn, *position, size, size_name);
    if (!packed_bytes(count, *dt, bytes) || *bytes > (size_t)(size - *position))
        return dmpi_err(MPI_ERR_TRUNCATE, "%s: %d elements of %s take %zu bytes, but only %d of %s %d are left at "
                        "position %d", fn, count, dmpi_dtype_desc(*dt),
                        (size_t)count * (*dt)->size, size - *position, size_name, size, *position);
    if (*bytes > 0 && !packed_buf)
        return dmpi_err(MPI_ERR_BUFFER, "%s: the packed buffer is NULL", fn);
    return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Pack";
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = check_pack_args(fn, comm, incount, datatype, inbuf, outbuf, "outsize", outsize, position, &c, &dt,
                              &bytes);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(dmpi_comm_or_null(comm), fn, err);
    dmpi_dtype_pack_range(dt, inbuf, 0, bytes, (char *)outbuf + *position);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
                MPI_Comm comm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Unpack";
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = check_pack_args(fn, comm, outcount, datatype, outbuf, inbuf, "insize", insize, position, &c, &dt,
                              &bytes);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(dmpi_comm_or_null(comm), fn, err);
    dmpi_dtype_unpack_range(dt, outbuf, 0, bytes, (const char *)inbuf + *position);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Pack_size";
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    size_t bytes = 0;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_count(fn, incount)) ||
        (err = dmpi_type_check_committed(fn, datatype, "datatype", &dt)) || (err = dmpi_check_ptr(fn, size, "size")))
        return dmpi_api_error(c, fn, err);
    if (!packed_bytes(incount, dt, &bytes) || bytes > INT_MAX)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_VALUE_TOO_LARGE, "%s: %d elements of the datatype take more "
                                              "than INT_MAX bytes", fn, incount));
    *size = (int)bytes;
    return MPI_SUCCESS;
}
