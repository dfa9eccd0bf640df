/* MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size (and _c): packing
 * in a portable representation (MPI-4.0 section 5.2.5). "external32" is
 * the only data representation; core/dtype_external32.c converts. */
#include "api/type_api.h"
#include "core/dtype_external32.h"
#include <string.h>

DMPI_ALIAS(Pack_external)
DMPI_ALIAS(Unpack_external)
DMPI_ALIAS(Pack_external_size)
DMPI_ALIAS(Pack_external_c)
DMPI_ALIAS(Unpack_external_c)
DMPI_ALIAS(Pack_external_size_c)

static int check_datarep(const char *fn, const char *datarep)
{
    if (!datarep)
        return dmpi_err(MPI_ERR_ARG, "%s: datarep is NULL", fn);
    if (strcmp(datarep, "external32") == 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: data representation \"%.64s\" is not supported; the only one is "
                    "\"external32\"", fn, datarep);
}

/* A position inside a buffer of bufsize bytes. */
static int check_position(const char *fn, const MPI_Aint *position, MPI_Aint bufsize, const char *size_name)
{
    int err;
    if ((err = dmpi_check_ptr(fn, position, "position")))
        return err;
    if (bufsize < 0)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is negative (%ld)", fn, size_name, (long)bufsize);
    if (*position < 0 || *position > bufsize)
        return dmpi_err(MPI_ERR_ARG, "%s: *position is %ld, outside the buffer of %s = %ld bytes", fn,
                        (long)*position, size_name, (long)bufsize);
    return MPI_SUCCESS;
}

/* A buffer that bytes will be read from or written to. */
static int check_stream(const char *fn, const void *buf, MPI_Aint bufsize, const char *what)
{
    if (buf || bufsize == 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: %s is NULL but has %ld bytes", fn, what, (long)bufsize);
}

/* MPI_Aint and MPI_Count are both 64-bit here: the _c forms' positions and
 * sizes go through the MPI_Aint of the int forms unchanged. */
_Static_assert(sizeof(MPI_Aint) == sizeof(MPI_Count), "MPI_Aint and MPI_Count differ in size");

static int pack_external(const char *fn, const char *datarep, const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_datarep(fn, datarep)) || (err = dmpi_check_count(fn, incount)) ||
        (err = dmpi_type_check_committed(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_check_buf(fn, inbuf, incount, dt)) || (err = check_position(fn, position, outsize, "outsize")) ||
        (err = check_stream(fn, outbuf, outsize, "outbuf")))
        return dmpi_api_error(NULL, fn, err);
    if ((err = dmpi_ext32_pack(fn, dt, (size_t)incount, inbuf, outbuf, outsize, position)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Pack_external(const char *datarep, const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                       MPI_Aint outsize, MPI_Aint *position)
{
    DMPI_API_ENTER;
    return pack_external("MPI_Pack_external", datarep, inbuf, incount, datatype, outbuf, outsize, position);
}

int PMPI_Pack_external_c(const char *datarep, const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                         void *outbuf, MPI_Count outsize, MPI_Count *position)
{
    DMPI_API_ENTER;
    MPI_Aint pos = position ? (MPI_Aint)*position : 0;
    int err = pack_external("MPI_Pack_external_c", datarep, inbuf, incount, datatype, outbuf, (MPI_Aint)outsize,
                            position ? &pos : NULL);
    if (err == MPI_SUCCESS)
        *position = pos;
    return err;
}

static int unpack_external(const char *fn, const char *datarep, const void *inbuf, MPI_Aint insize,
                           MPI_Aint *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_datarep(fn, datarep)) ||
        (err = check_stream(fn, inbuf, insize, "inbuf")) || (err = check_position(fn, position, insize, "insize")) ||
        (err = dmpi_check_count(fn, outcount)) ||
        (err = dmpi_type_check_committed(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_check_buf(fn, outbuf, outcount, dt)))
        return dmpi_api_error(NULL, fn, err);
    if ((err = dmpi_ext32_unpack(fn, dt, (size_t)outcount, inbuf, insize, position, outbuf)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf,
                         int outcount, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    return unpack_external("MPI_Unpack_external", datarep, inbuf, insize, position, outbuf, outcount, datatype);
}

int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
                           void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    DMPI_API_ENTER;
    MPI_Aint pos = position ? (MPI_Aint)*position : 0;
    int err = unpack_external("MPI_Unpack_external_c", datarep, inbuf, (MPI_Aint)insize, position ? &pos : NULL,
                              outbuf, outcount, datatype);
    if (err == MPI_SUCCESS)
        *position = pos;
    return err;
}

static int pack_external_size(const char *fn, const char *datarep, MPI_Count incount, MPI_Datatype datatype,
                              MPI_Aint *size)
{
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_datarep(fn, datarep)) || (err = dmpi_check_count(fn, incount)) ||
        (err = dmpi_type_check_committed(fn, datatype, "datatype", &dt)) || (err = dmpi_check_ptr(fn, size, "size")))
        return dmpi_api_error(NULL, fn, err);
    if ((err = dmpi_ext32_size(fn, dt, (size_t)incount, size)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Pack_external_size(const char *datarep, int incount, MPI_Datatype datatype, MPI_Aint *size)
{
    DMPI_API_ENTER;
    return pack_external_size("MPI_Pack_external_size", datarep, incount, datatype, size);
}

int PMPI_Pack_external_size_c(const char *datarep, MPI_Count incount, MPI_Datatype datatype, MPI_Count *size)
{
    DMPI_API_ENTER;
    MPI_Aint n = 0;
    int err = pack_external_size("MPI_Pack_external_size_c", datarep, incount, datatype, size ? &n : NULL);
    if (err == MPI_SUCCESS)
        *size = n;
    return err;
}
