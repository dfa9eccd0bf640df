/* MPI_Pack, MPI_Unpack, MPI_Pack_size and their _c forms. The packed form
 * is the type's data in typemap order with no header (all ranks share one
 * representation), so each call is one run of the pack engine at the
 * position; several calls append to (or read on from) the same buffer. */
#include "api/type_api.h"
#include <limits.h>

DMPI_ALIAS(Pack)
DMPI_ALIAS(Unpack)
DMPI_ALIAS(Pack_size)
DMPI_ALIAS(Pack_c)
DMPI_ALIAS(Unpack_c)
DMPI_ALIAS(Pack_size_c)

/* Packed bytes of count elements of dt; false if that overflows. */
static bool packed_bytes(MPI_Count count, const dmpi_dtype_t *dt, size_t *bytes)
{
    return !__builtin_mul_overflow((size_t)count, dt->size, bytes);
}

/* The checks Pack and Unpack share: the packed buffer is size bytes with
 * *position in it, and bytes of it from there are needed. */
static int check_pack_args(const char *fn, MPI_Comm comm, MPI_Count count, MPI_Datatype datatype,
                           const void *typed_buf, const void *packed_buf, const char *size_name, MPI_Count size,
                           const MPI_Count *position, dmpi_dtype_t **dt, size_t *bytes)
{
    dmpi_comm_t *c;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_count(fn, count)) ||
        (err = dmpi_type_check_committed(fn, datatype, "datatype", dt)) ||
        (err = dmpi_check_buf(fn, typed_buf, count, *dt)) || (err = dmpi_check_ptr(fn, position, "position")))
        return err;
    long long n = count, sz = size, pos = *position;
    if (size < 0)
        return dmpi_err(MPI_ERR_ARG, "%s: negative %s %lld", fn, size_name, sz);
    if (pos < 0 || pos > sz)
        return dmpi_err(MPI_ERR_ARG, "%s: position %lld is outside the %lld bytes of %s", fn, pos, sz, size_name);
    if (!packed_bytes(count, *dt, bytes) || *bytes > (size_t)(sz - pos))
        return dmpi_err(MPI_ERR_TRUNCATE, "%s: %lld elements of %s take %zu bytes, but only %lld of %s %lld are "
                        "left at position %lld", fn, n, dmpi_dtype_desc(*dt), (size_t)count * (*dt)->size, sz - pos,
                        size_name, sz, pos);
    if (*bytes > 0 && !packed_buf)
        return dmpi_err(MPI_ERR_BUFFER, "%s: the packed buffer is NULL", fn);
    return MPI_SUCCESS;
}

static int pack(const char *fn, const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    dmpi_dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = check_pack_args(fn, comm, incount, datatype, inbuf, outbuf, "outsize", outsize, position, &dt, &bytes);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(dmpi_comm_or_null(comm), fn, err);
    dmpi_dtype_pack_range(dt, inbuf, 0, bytes, (char *)outbuf + *position);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    DMPI_API_ENTER;
    MPI_Count pos = position ? *position : 0;   /* outsize is an int: so is the position after */
    int err = pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize, position ? &pos : NULL, comm);
    if (err == MPI_SUCCESS)
        *position = (int)pos;
    return err;
}

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                MPI_Count *position, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return pack("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize, position, comm);
}

static int unpack(const char *fn, const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    dmpi_dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = check_pack_args(fn, comm, outcount, datatype, outbuf, inbuf, "insize", insize, position, &dt, &bytes);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(dmpi_comm_or_null(comm), fn, err);
    dmpi_dtype_unpack_range(dt, outbuf, 0, bytes, (const char *)inbuf + *position);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
                MPI_Comm comm)
{
    DMPI_API_ENTER;
    MPI_Count pos = position ? *position : 0;
    int err = unpack("MPI_Unpack", inbuf, insize, position ? &pos : NULL, outbuf, outcount, datatype, comm);
    if (err == MPI_SUCCESS)
        *position = (int)pos;
    return err;
}

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                  MPI_Datatype datatype, MPI_Comm comm)
{
    DMPI_API_ENTER;
    return unpack("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount, datatype, comm);
}

/* The packed size; MPI_ERR_VALUE_TOO_LARGE when it is more than max. */
static int pack_size(const char *fn, MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size,
                     MPI_Count max)
{
    dmpi_comm_t *c = NULL;
    dmpi_dtype_t *dt;
    size_t bytes = 0;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_count(fn, incount)) ||
        (err = dmpi_type_check_committed(fn, datatype, "datatype", &dt)) || (err = dmpi_check_ptr(fn, size, "size")))
        return dmpi_api_error(c, fn, err);
    if (!packed_bytes(incount, dt, &bytes) || bytes > (size_t)max)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_VALUE_TOO_LARGE, "%s: %lld elements of the datatype take more "
                                              "than %lld bytes", fn, (long long)incount, (long long)max));
    *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    DMPI_API_ENTER;
    MPI_Count n = 0;
    int err = pack_size("MPI_Pack_size", incount, datatype, comm, size ? &n : NULL, INT_MAX);
    if (err == MPI_SUCCESS)
        *size = (int)n;
    return err;
}

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    DMPI_API_ENTER;
    return pack_size("MPI_Pack_size_c", incount, datatype, comm, size, INT64_MAX);
}
