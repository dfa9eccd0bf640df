/* Opening, closing and deleting files (MPI-4.1 section 14.2.1-14.2.3). The
 * errors of MPI_File_open and MPI_File_delete are raised on MPI_FILE_NULL's
 * handler (there is no file yet); those of MPI_File_close on the file's. */
#include "api/file_api.h"
#include <stdio.h>

DMPI_ALIAS(File_open)
DMPI_ALIAS(File_close)
DMPI_ALIAS(File_delete)

/* amode is checked in io/, inside the open's agreement: a rank whose
 * amode breaks a rule of MPI-4.1 section 14.2.1 fails with the others
 * instead of leaving them waiting in the collective open. */

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_open";
    dmpi_comm_t *c;
    struct dmpi_info *i;
    dmpi_file_t *f;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, fh, "fh")))
        return dmpi_api_file_error(NULL, fn, err);
    *fh = MPI_FILE_NULL;   /* what the program holds when the call fails */
    if ((err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_intra(fn, c)) ||
        (err = dmpi_check_ptr(fn, filename, "filename")) ||
        (err = dmpi_check_file_info(fn, info, &i)) || (err = dmpi_file_open(c, filename, amode, i, &f)))
        return dmpi_api_file_error(NULL, fn, err);
    *fh = (MPI_File)f;
    return MPI_SUCCESS;
}

int PMPI_File_close(MPI_File *fh)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_close";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_ptr(fn, fh, "fh")) || (err = dmpi_check_file(fn, *fh, &f)))
        return dmpi_api_file_error(f, fn, err);
    /* close frees f even when it fails: what its error is raised with is kept here */
    MPI_File h = *fh;
    MPI_Errhandler e = f->errhandler;
    char path[256];
    snprintf(path, sizeof path, "%s", f->path ? f->path : "");
    dmpi_errhandler_retain(e);
    err = dmpi_file_close(f);
    *fh = MPI_FILE_NULL;
    if (err != MPI_SUCCESS)
        err = dmpi_err_handle_file(e, h, path, fn, err);
    dmpi_errhandler_release(e);
    return err;
}

int PMPI_File_delete(const char *filename, MPI_Info info)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_delete";
    struct dmpi_info *i;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, filename, "filename")) ||
        (err = dmpi_check_file_info(fn, info, &i)) || (err = dmpi_file_delete(filename, i)))
        return dmpi_api_file_error(NULL, fn, err);
    return MPI_SUCCESS;
}
