/* What the MPI_Type_* calls do to a type beyond building it
 * (core/dtype_ops.c). Arguments are checked by the api layer. */
#ifndef DMPI_DTYPE_OPS_H
#define DMPI_DTYPE_OPS_H

#include "core/dmpi.h"

void dmpi_dtype_commit(dmpi_dtype_t *dt);
/* MPI_Type_dup: a DUP of dt that carries copies of its attributes. */
int dmpi_dtype_dup(dmpi_dtype_t *dt, dmpi_dtype_t **out);
/* MPI_Type_free: drops the user's reference to a derived type. */
int dmpi_dtype_free(dmpi_dtype_t *dt);
/* MPI_Type_get_contents of a derived type into arrays large enough; the
 * derived types among the returned ones get a reference each. */
void dmpi_dtype_get_contents(const dmpi_dtype_t *dt, int *ints, MPI_Aint *aints, MPI_Count *large,
                             MPI_Datatype *types);
/* MPI_Type_match_size: the C predefined type of that class and size, or
 * MPI_DATATYPE_NULL. */
MPI_Datatype dmpi_dtype_match_size(int typeclass, int size);

#endif
