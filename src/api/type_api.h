/* Argument checks shared by the datatype entry points (MPI_Type_*, MPI_Pack*,
 * MPI_Get_elements*). Each returns MPI_SUCCESS or an error code whose
 * message names fn and the argument (what). */
#ifndef DMPI_API_TYPE_H
#define DMPI_API_TYPE_H

#include "api/api.h"

/* A datatype that may be used to build or describe types: valid, committed
 * or not, and neither MPI_LB nor MPI_UB (gone since MPI-3). */
int dmpi_type_check(const char *fn, MPI_Datatype h, const char *what, dmpi_dtype_t **out);
/* The same, and committed: for calls that move data (pack, unpack, counts). */
int dmpi_type_check_committed(const char *fn, MPI_Datatype h, const char *what, dmpi_dtype_t **out);
/* MPI_ERR_ARG for a negative block length; i < 0 means a single one. */
int dmpi_type_check_blocklen(const char *fn, MPI_Count bl, MPI_Count i);
/* MPI_ERR_ARG when an array of n > 0 entries is NULL. */
int dmpi_type_check_array(const char *fn, const void *p, MPI_Count n, const char *what);

#endif
