/* Error handlers: the three predefined ones and user ones made by
 * MPI_Comm_create_errhandler. */
#ifndef DMPI_ERRHANDLER_H
#define DMPI_ERRHANDLER_H

#include "core/dmpi.h"

int dmpi_errhandler_create(MPI_Comm_errhandler_function *fn, MPI_Errhandler *out);
int dmpi_errhandler_free(MPI_Errhandler *e);
void dmpi_errhandler_retain(MPI_Errhandler e);
void dmpi_errhandler_release(MPI_Errhandler e);

#endif
