/* Argument checks of the MPI-IO entry points (api/file_api.h), out of line
 * like api/checks.c, and the bodies that every data access call shares:
 * checks, one call into io/, the error raised on the file. */
#include "api/file_api.h"
#include "core/info.h"
#include <string.h>

int dmpi_check_file(const char *fn, MPI_File h, dmpi_file_t **out)
{
    *out = NULL;
    int err = dmpi_check_init(fn);
    if (err != MPI_SUCCESS)
        return err;
    if ((*out = dmpi_file_get(h)))
        return MPI_SUCCESS;
    if (h == MPI_FILE_NULL)
        return dmpi_err(MPI_ERR_FILE, "%s: the file is MPI_FILE_NULL", fn);
    return dmpi_err(MPI_ERR_FILE, "%s: invalid file handle %p (not an open file)", fn, (void *)h);
}

int dmpi_check_file_info(const char *fn, MPI_Info h, struct dmpi_info **out)
{
    *out = NULL;
    if (h == MPI_INFO_NULL || (*out = dmpi_info_get(h)))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_INFO, "%s: invalid info object 0x%x", fn, (unsigned)h);
}

int dmpi_check_file_data(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, dmpi_dtype_t **dt)
{
    int err;
    if ((err = dmpi_check_count(fn, count)) || (err = dmpi_check_type(fn, type, dt)) ||
        (err = dmpi_check_buf(fn, buf, count, *dt)))
        return err;
    return MPI_SUCCESS;
}

/* The checks every data access call makes before reaching the file. */
static int check_access(const char *fn, MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype type,
                        dmpi_file_t **f, dmpi_dtype_t **dt)
{
    int err;
    if ((err = dmpi_check_file(fn, fh, f)) || (err = dmpi_check_file_data(fn, buf, count, type, dt)))
        return err;
    return MPI_SUCCESS;
}

int dmpi_api_file_access(const char *fn, MPI_File fh, int how, MPI_Offset offset, const void *buf, MPI_Count count,
                         MPI_Datatype type, MPI_Status *status)
{
    dmpi_file_t *f = NULL;
    dmpi_dtype_t *dt;
    int err;
    if ((err = check_access(fn, fh, buf, count, type, &f, &dt)) || (err = dmpi_check_status(fn, status)))
        return dmpi_api_file_error(f, fn, err);
    err = dmpi_file_access(fn, f, how, offset, (void *)buf, count, dt, status == MPI_STATUS_IGNORE ? NULL : status);
    return err == MPI_SUCCESS ? err : dmpi_api_file_error(f, fn, err);
}

int dmpi_api_file_iaccess(const char *fn, MPI_File fh, int how, MPI_Offset offset, const void *buf, MPI_Count count,
                          MPI_Datatype type, MPI_Request *request)
{
    dmpi_file_t *f = NULL;
    dmpi_dtype_t *dt;
    dmpi_request_t *r = NULL;
    int err;
    if ((err = dmpi_check_ptr(fn, request, "request")))
        return dmpi_api_file_error(dmpi_file_get(fh), fn, err);
    *request = MPI_REQUEST_NULL;   /* what the program holds when the call fails */
    if ((err = check_access(fn, fh, buf, count, type, &f, &dt)) ||
        (err = dmpi_file_iaccess(fn, f, how, offset, (void *)buf, count, dt, &r)))
        return dmpi_api_file_error(f, fn, err);
    *request = r->handle;
    return MPI_SUCCESS;
}

int dmpi_api_file_begin(const char *fn, MPI_File fh, int how, MPI_Offset offset, const void *buf, MPI_Count count,
                        MPI_Datatype type)
{
    dmpi_file_t *f = NULL;
    dmpi_dtype_t *dt;
    int err;
    if ((err = check_access(fn, fh, buf, count, type, &f, &dt)) ||
        (err = dmpi_file_split_begin(fn, f, how, offset, (void *)buf, count, dt)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

/* One end call closes both begin forms: when the one in progress is the _c
 * twin of begin, it is the begin this end closes. */
static const char *begin_closed(const dmpi_file_t *f, const char *begin)
{
    const char *open = f->split.begin;
    size_t n = strlen(begin);
    if (open && strncmp(open, begin, n) == 0 && strcmp(open + n, "_c") == 0)
        return open;
    return begin;
}

int dmpi_api_file_end(const char *fn, const char *begin, MPI_File fh, const void *buf, MPI_Status *status)
{
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_status(fn, status)) ||
        (err = dmpi_file_split_end(fn, begin_closed(f, begin), f, buf, status == MPI_STATUS_IGNORE ? NULL : status)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}
