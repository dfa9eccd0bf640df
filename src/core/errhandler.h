/* Error handlers: the three predefined ones and user ones made by
 * MPI_Comm_create_errhandler, MPI_Win_create_errhandler,
 * MPI_Session_create_errhandler or MPI_File_create_errhandler. A user handler
 * remembers which kind of object it was made for and may be set only on
 * that kind; the predefined ones go on any. */
#ifndef DMPI_ERRHANDLER_H
#define DMPI_ERRHANDLER_H

#include "core/dmpi.h"

typedef enum { DMPI_EH_COMM, DMPI_EH_WIN, DMPI_EH_SESSION, DMPI_EH_FILE } dmpi_eh_kind_t;

/* MPI_Comm, MPI_Win and MPI_Session are all int: one function type serves
 * those kinds. MPI_File is a pointer: a file's handler is kept under the same
 * type and called through its own (dmpi_err_handle_file). */
int dmpi_errhandler_create(MPI_Comm_errhandler_function *fn, MPI_Errhandler *out);
int dmpi_errhandler_create_win(MPI_Win_errhandler_function *fn, MPI_Errhandler *out);
int dmpi_errhandler_create_session(MPI_Session_errhandler_function *fn, MPI_Errhandler *out);
int dmpi_errhandler_create_file(MPI_File_errhandler_function *fn, MPI_Errhandler *out);
int dmpi_errhandler_free(MPI_Errhandler *e);
void dmpi_errhandler_retain(MPI_Errhandler e);
void dmpi_errhandler_release(MPI_Errhandler e);
/* MPI_SUCCESS if e may be set on an object of kind; otherwise MPI_ERR_ARG
 * with a message naming fn (an invalid handle, or one made for the other kind). */
int dmpi_errhandler_check(const char *fn, MPI_Errhandler e, dmpi_eh_kind_t kind);

/* dmpi_err_handle for a window (core does not know windows): passes code
 * to e, the window's handler, with the window's handle h; name is the
 * window's (may be empty) for the message of a fatal error. Returns what
 * the call returns. */
int dmpi_err_handle_win(MPI_Errhandler e, MPI_Win h, const char *name, const char *call, int code);

/* The same for a session (h; MPI_SESSION_NULL for an error of
 * MPI_Session_init, raised on its errhandler argument). */
int dmpi_err_handle_session(MPI_Errhandler e, MPI_Session h, const char *call, int code);

/* The same for a file (h; MPI_FILE_NULL for the errors of MPI_File_open
 * and MPI_File_delete and of calls given no open file, raised on
 * MPI_FILE_NULL's handler); path names the file in a fatal error's message
 * (NULL: none). */
int dmpi_err_handle_file(MPI_Errhandler e, MPI_File h, const char *path, const char *call, int code);

#endif
