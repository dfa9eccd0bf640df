/* Positioning the individual and the shared file pointer (MPI-4.1 sections
 * 14.4.3 and 14.4.4). Positions count etypes of the view; io/ checks the
 * result is not negative and what MPI_MODE_SEQUENTIAL allows. */
#include "api/file_api.h"

DMPI_ALIAS(File_seek)
DMPI_ALIAS(File_get_position)
DMPI_ALIAS(File_seek_shared)
DMPI_ALIAS(File_get_position_shared)

static int check_whence(const char *fn, int whence)
{
    if (whence == MPI_SEEK_SET || whence == MPI_SEEK_CUR || whence == MPI_SEEK_END)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: invalid whence %d (MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END)", fn, whence);
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_seek";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = check_whence(fn, whence)) ||
        (err = dmpi_file_seek(f, offset, whence)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_position";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_ptr(fn, offset, "offset")) ||
        (err = dmpi_file_get_position(f, offset)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_seek_shared";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = check_whence(fn, whence)) ||
        (err = dmpi_file_seek_shared(f, offset, whence)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_position_shared";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_ptr(fn, offset, "offset")) ||
        (err = dmpi_file_get_position_shared(f, offset)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}
