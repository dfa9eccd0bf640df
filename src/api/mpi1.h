/* The MPI-2 entry points behind the MPI-1 names that the MPICH ABI still
 * exports (api/mpi1_names.c): each is the PMPI_ function's body, with fn
 * naming the call the program made in error messages. */
#ifndef DMPI_API_MPI1_H
#define DMPI_API_MPI1_H

#include "api/api.h"

int dmpi_api_get_address(const char *fn, const void *location, MPI_Aint *address);
int dmpi_api_type_get_extent(const char *fn, MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent);
int dmpi_api_type_create_hvector(const char *fn, int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype);
int dmpi_api_type_create_hindexed(const char *fn, int count, const int array_of_blocklengths[],
                                  const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
int dmpi_api_type_create_struct(const char *fn, int count, const int array_of_blocklengths[],
                                const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                                MPI_Datatype *newtype);
int dmpi_api_comm_create_keyval(const char *fn, MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                                void *extra_state);
int dmpi_api_comm_free_keyval(const char *fn, int *comm_keyval);
int dmpi_api_comm_set_attr(const char *fn, MPI_Comm comm, int comm_keyval, void *attribute_val);
int dmpi_api_comm_get_attr(const char *fn, MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag);
int dmpi_api_comm_delete_attr(const char *fn, MPI_Comm comm, int comm_keyval);
int dmpi_api_comm_set_errhandler(const char *fn, MPI_Comm comm, MPI_Errhandler errhandler);
int dmpi_api_comm_get_errhandler(const char *fn, MPI_Comm comm, MPI_Errhandler *errhandler);
int dmpi_api_comm_create_errhandler(const char *fn, MPI_Comm_errhandler_function *function,
                                    MPI_Errhandler *errhandler);

#endif
