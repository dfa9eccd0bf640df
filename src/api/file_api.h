/* Shared by the MPI-IO entry points (api/file_*.c, api/datarep.c): the file
 * a call names, the checks of its data arguments, the hand-off of errors to
 * the file's error handler (MPI-4.1 section 14.7: errors of a call on a file
 * are raised on it; those of MPI_File_open, MPI_File_delete and of calls
 * given no open file, on MPI_FILE_NULL's handler, MPI_ERRORS_RETURN unless
 * the program sets another), and the one body behind each kind of data
 * access (io/io.h's dmpi_file_access and its nonblocking and split forms). */
#ifndef DMPI_API_FILE_H
#define DMPI_API_FILE_H

#include "api/api.h"
#include "core/errhandler.h"
#include "io/io.h"

/* Error return through f's handler; f NULL (no open file): through
 * MPI_FILE_NULL's. */
static inline int dmpi_api_file_error(dmpi_file_t *f, const char *fn, int code)
{
    if (!f)
        return dmpi_err_handle_file(dmpi_file_default_errhandler(), MPI_FILE_NULL, NULL, fn, code);
    return dmpi_err_handle_file(f->errhandler, (MPI_File)f, f->path, fn, code);
}

/* Each returns MPI_SUCCESS or an error code whose message names fn and the argument. */
/* Inside MPI_Init and h an open file (MPI_ERR_FILE); *out NULL otherwise. */
int dmpi_check_file(const char *fn, MPI_File h, dmpi_file_t **out);
/* An info argument: MPI_INFO_NULL (*out NULL) or a valid info object (MPI_ERR_INFO). */
struct dmpi_info;
int dmpi_check_file_info(const char *fn, MPI_Info h, struct dmpi_info **out);
/* count not negative (MPI_ERR_COUNT), datatype valid and committed
 * (MPI_ERR_TYPE), buf holding count elements of it (MPI_ERR_BUFFER: NULL only
 * for a derived type, whose addresses may be absolute, or for no data). */
int dmpi_check_file_data(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, dmpi_dtype_t **dt);

/* The bodies of the data access calls; how is io.h's DMPI_IO_* (the
 * positioning, DMPI_IO_WRITE, DMPI_IO_COLL), offset counts only for
 * DMPI_IO_AT. Blocking (status may be MPI_STATUS_IGNORE), nonblocking (the
 * request of dmpi_file_iaccess handed out), and the two halves of a split
 * collective (end closes the split collective that begin opened). */
int dmpi_api_file_access(const char *fn, MPI_File fh, int how, MPI_Offset offset, const void *buf, MPI_Count count,
                         MPI_Datatype type, MPI_Status *status);
int dmpi_api_file_iaccess(const char *fn, MPI_File fh, int how, MPI_Offset offset, const void *buf, MPI_Count count,
                          MPI_Datatype type, MPI_Request *request);
int dmpi_api_file_begin(const char *fn, MPI_File fh, int how, MPI_Offset offset, const void *buf, MPI_Count count,
                        MPI_Datatype type);
int dmpi_api_file_end(const char *fn, const char *begin, MPI_File fh, const void *buf, MPI_Status *status);

#endif
