/* Array datatypes: subarrays (core/dtype_subarray.c) and distributed arrays
 * (core/dtype_darray.c). The arguments are MPI's, already checked by the api
 * layer (src/api/type_dist.c): the global array's extent fits in MPI_Aint,
 * every start and subsize lies inside its dimension, psizes multiply to
 * size, block distributions cover their dimension. The new type has
 * refcount 1, is not committed, has lb 0 and the whole array's extent, and
 * reports the caller's arguments through MPI_Type_get_contents. */
#ifndef DMPI_DTYPE_DIST_H
#define DMPI_DTYPE_DIST_H

#include "core/dmpi.h"

/* large: made by the _c form, whose contents report the MPI_Count arrays
 * as large counts (the int form's are reported as ints). */
int dmpi_dtype_subarray(int ndims, const MPI_Count sizes[], const MPI_Count subsizes[], const MPI_Count starts[],
                        int order, bool large, dmpi_dtype_t *oldtype, dmpi_dtype_t **out);
int dmpi_dtype_darray(int size, int rank, int ndims, const MPI_Count gsizes[], const int distribs[],
                      const int dargs[], const int psizes[], int order, bool large, dmpi_dtype_t *oldtype,
                      dmpi_dtype_t **out);

#endif
