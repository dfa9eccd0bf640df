/* The "external32" data representation (core/dtype_external32.c), used by
 * MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size. fn
 * names the calling function in error messages. */
#ifndef DMPI_DTYPE_EXTERNAL32_H
#define DMPI_DTYPE_EXTERNAL32_H

#include "core/dmpi.h"

/* Bytes of count elements of dt in external32. */
int dmpi_ext32_size(const char *fn, const dmpi_dtype_t *dt, size_t count, MPI_Aint *size);
/* Appends count elements at in to out at *position (outsize bytes in all),
 * advancing *position; MPI_ERR_TRUNCATE if they do not fit. */
int dmpi_ext32_pack(const char *fn, const dmpi_dtype_t *dt, size_t count, const void *in, void *out,
                    MPI_Aint outsize, MPI_Aint *position);
/* Reads count elements from in at *position (insize bytes in all) into
 * out, advancing *position; MPI_ERR_TRUNCATE if in ends before them. */
int dmpi_ext32_unpack(const char *fn, const dmpi_dtype_t *dt, size_t count, const void *in, MPI_Aint insize,
                      MPI_Aint *position, void *out);

#endif
