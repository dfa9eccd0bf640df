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

/* Predefined types found by what they hold (core/dtype_named.c). */
/* MPI_Type_create_f90_integer/real/complex (combiner MPI_COMBINER_F90_*; p
 * or r may be MPI_UNDEFINED, not both, for reals and complexes): the one
 * predefined type of that (combiner, p, r), made on first use, with the
 * layout of the smallest Fortran kind that selected_*_kind(p, r) gives on
 * x86_64. MPI_ERR_ARG when no kind has that precision and range. */
int dmpi_dtype_f90(const char *fn, int combiner, int p, int r, MPI_Datatype *out);
/* MPI_Type_get_value_index: the predefined MINLOC/MAXLOC pair type of
 * (value, index), or MPI_DATATYPE_NULL when there is none. */
MPI_Datatype dmpi_dtype_value_index(MPI_Datatype value, MPI_Datatype index);
void dmpi_dtype_named_finalize(void);

#endif
