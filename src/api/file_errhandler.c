/* Error handlers of files (MPI-4.1 section 9.3.4). A handler made here may
 * be set only on files, one made for another kind of object never on a
 * file; the predefined ones go on any (core/errhandler.c). MPI_FILE_NULL
 * has a handler too: the one MPI_File_open gives new files and the one the
 * errors of calls without an open file go to (io/file_table.c). */
#include "api/file_api.h"

DMPI_ALIAS(File_create_errhandler)
DMPI_ALIAS(File_set_errhandler)
DMPI_ALIAS(File_get_errhandler)
DMPI_ALIAS(File_call_errhandler)

int PMPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn, MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_create_errhandler";
    int err;
    if ((err = dmpi_check_init(fn)) ||
        (err = dmpi_check_ptr(fn, (const void *)file_errhandler_fn, "file_errhandler_fn")) ||
        (err = dmpi_check_ptr(fn, errhandler, "errhandler")) ||
        (err = dmpi_errhandler_create_file(file_errhandler_fn, errhandler)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

/* file is an open file or MPI_FILE_NULL (*f NULL then). */
static int check_file_or_null(const char *fn, MPI_File file, dmpi_file_t **f)
{
    *f = NULL;
    if (file != MPI_FILE_NULL)
        return dmpi_check_file(fn, file, f);
    return dmpi_check_init(fn);
}

int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_set_errhandler";
    dmpi_file_t *f;
    int err;
    if ((err = check_file_or_null(fn, file, &f)) || (err = dmpi_errhandler_check(fn, errhandler, DMPI_EH_FILE)))
        return dmpi_api_file_error(f, fn, err);
    dmpi_errhandler_retain(errhandler);
    if (!f) {
        dmpi_file_set_default_errhandler(errhandler);   /* takes over the reference */
        return MPI_SUCCESS;
    }
    dmpi_errhandler_release(f->errhandler);
    f->errhandler = errhandler;
    return MPI_SUCCESS;
}

int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_errhandler";
    dmpi_file_t *f;
    int err;
    if ((err = check_file_or_null(fn, file, &f)) || (err = dmpi_check_ptr(fn, errhandler, "errhandler")))
        return dmpi_api_file_error(f, fn, err);
    MPI_Errhandler e = f ? f->errhandler : dmpi_file_default_errhandler();
    dmpi_errhandler_retain(e);   /* the caller frees its copy */
    *errhandler = e;
    return MPI_SUCCESS;
}

int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_call_errhandler";
    dmpi_file_t *f;
    int err;
    if ((err = check_file_or_null(fn, fh, &f)))
        return dmpi_api_file_error(f, fn, err);
    dmpi_api_file_error(f, fn, errorcode);
    return MPI_SUCCESS;
}
