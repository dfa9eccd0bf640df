/* Shared by the datarep files of io/ only: what one predefined type takes
 * in the file under a representation (io/datarep.c), for the conversions
 * (io/datarep_convert.c) and the file layout of types (io/datarep_type.c). */
#ifndef DMPI_IO_DATAREP_INTERNAL_H
#define DMPI_IO_DATAREP_INTERNAL_H

#include "io/io.h"

/* One predefined type t (a pair type and a Fortran f90 type count as one)
 * in rep: *ext is its extent in the file, *size the bytes its data takes
 * there (= *ext when the representation converts, t's native size when its
 * bytes are native). MPI_ERR_CONVERSION if the extent function fails. */
int dmpi_datarep_item(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *t, MPI_Aint *ext,
                      MPI_Aint *size);

/* Whether rep lays every predefined type out as natively. */
bool dmpi_datarep_native_layout(const dmpi_datarep_t *rep);

#endif
