/* Shared by the datatype files of core/ only. */
#ifndef DMPI_DTYPE_INTERNAL_H
#define DMPI_DTYPE_INTERNAL_H

#include "core/dmpi.h"

bool dmpi_dtype_register(dmpi_dtype_t *dt);       /* gives it a handle */
void dmpi_dtype_unregister(dmpi_dtype_t *dt);
void dmpi_dtype_destroy(dmpi_dtype_t *dt);        /* frees its memory, not its children */
MPI_Datatype dmpi_dtype_pair_value(const dmpi_dtype_t *pair);

#endif
