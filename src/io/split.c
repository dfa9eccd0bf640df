/* Split collectives (MPI_File_*_all_begin/_end, *_ordered_begin/_end): the
 * access runs at the begin call, as its collective form; the end call
 * hands over the status. A begin that fails returns its error and leaves
 * no split collective in progress: a program that sees the error does not
 * call the end, and its next begin must not be refused for it. */
#include "io/io_internal.h"
#include <string.h>

int dmpi_file_split_begin(const char *fn, dmpi_file_t *f, int how, MPI_Offset offset, void *buf, MPI_Count count,
                          dmpi_dtype_t *dt)
{
    if (f->split.begin)
        return dmpi_err(MPI_ERR_OTHER, "%s: a split collective is in progress (%s)", fn, f->split.begin);
    dmpi_status_empty(&f->split.status);
    int err = dmpi_file_access(fn, f, how | DMPI_IO_COLL, offset, buf, count, dt, &f->split.status);
    if (err != MPI_SUCCESS)
        return err;
    f->split.begin = fn;
    f->split.buf = buf;
    return MPI_SUCCESS;
}

int dmpi_file_split_end(const char *fn, const char *begin, dmpi_file_t *f, const void *buf, MPI_Status *status)
{
    if (!f->split.begin)
        return dmpi_err(MPI_ERR_OTHER, "%s: no split collective is in progress (%s was not called)", fn, begin);
    if (strcmp(f->split.begin, begin) != 0)
        return dmpi_err(MPI_ERR_OTHER, "%s: the split collective in progress is %s's, not %s's", fn,
                        f->split.begin, begin);
    (void)buf;                   /* the same buffer as begin's, as MPI requires: nothing to check it against */
    if (status && status != MPI_STATUS_IGNORE) {
        int keep = status->MPI_ERROR;
        *status = f->split.status;
        status->MPI_ERROR = keep;
    }
    f->split.begin = NULL;
    f->split.buf = NULL;
    return MPI_SUCCESS;
}
