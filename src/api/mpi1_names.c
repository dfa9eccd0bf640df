/* MPI-1 names that MPI-3 removed but the MPICH ABI still exports, so that
 * old programs (and libraries built on them) keep running. Each is its
 * MPI-2 replacement with the call's own name in error messages:
 *   MPI_Address        MPI_Get_address
 *   MPI_Type_extent    MPI_Type_get_extent (the extent)
 *   MPI_Type_lb, _ub   MPI_Type_get_extent (lb, lb + extent)
 *   MPI_Type_hvector   MPI_Type_create_hvector
 *   MPI_Type_hindexed  MPI_Type_create_hindexed
 *   MPI_Type_struct    MPI_Type_create_struct
 *   MPI_Keyval_create  MPI_Comm_create_keyval     MPI_Keyval_free  MPI_Comm_free_keyval
 *   MPI_Attr_put       MPI_Comm_set_attr          MPI_Attr_get     MPI_Comm_get_attr
 *   MPI_Attr_delete    MPI_Comm_delete_attr
 *   MPI_Errhandler_create  MPI_Comm_create_errhandler
 *   MPI_Errhandler_set     MPI_Comm_set_errhandler
 *   MPI_Errhandler_get     MPI_Comm_get_errhandler
 * MPI_Type_struct, like MPI_Type_create_struct, does not know MPI_LB and
 * MPI_UB (gone since MPI-3): MPI_Type_create_resized replaces them. */
#include "api/mpi1.h"

DMPI_ALIAS(Address)
DMPI_ALIAS(Type_extent)
DMPI_ALIAS(Type_lb)
DMPI_ALIAS(Type_ub)
DMPI_ALIAS(Type_hvector)
DMPI_ALIAS(Type_hindexed)
DMPI_ALIAS(Type_struct)
DMPI_ALIAS(Keyval_create)
DMPI_ALIAS(Keyval_free)
DMPI_ALIAS(Attr_put)
DMPI_ALIAS(Attr_get)
DMPI_ALIAS(Attr_delete)
DMPI_ALIAS(Errhandler_create)
DMPI_ALIAS(Errhandler_set)
DMPI_ALIAS(Errhandler_get)

int PMPI_Address(void *location, MPI_Aint *address)
{
    DMPI_API_ENTER;
    return dmpi_api_get_address("MPI_Address", location, address);
}

/* lb and extent into *lb and *extent, or the error of the call fn. */
static int bounds(const char *fn, MPI_Datatype datatype, const void *out, const char *what, MPI_Aint *lb,
                  MPI_Aint *extent)
{
    if (!out)
        return dmpi_api_error(NULL, fn, dmpi_check_ptr(fn, out, what));
    return dmpi_api_type_get_extent(fn, datatype, lb, extent);
}

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    DMPI_API_ENTER;
    MPI_Aint lb;
    return bounds("MPI_Type_extent", datatype, extent, "extent", &lb, extent);
}

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    DMPI_API_ENTER;
    MPI_Aint extent;
    return bounds("MPI_Type_lb", datatype, displacement, "displacement", displacement, &extent);
}

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    DMPI_API_ENTER;
    MPI_Aint lb, extent;
    int err = bounds("MPI_Type_ub", datatype, displacement, "displacement", &lb, &extent);
    if (err == MPI_SUCCESS)
        *displacement = lb + extent;
    return err;
}

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return dmpi_api_type_create_hvector("MPI_Type_hvector", count, blocklength, stride, oldtype, newtype);
}

int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return dmpi_api_type_create_hindexed("MPI_Type_hindexed", count, array_of_blocklengths, array_of_displacements,
                                         oldtype, newtype);
}

int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return dmpi_api_type_create_struct("MPI_Type_struct", count, array_of_blocklengths, array_of_displacements,
                                       array_of_types, newtype);
}

/* MPI_Copy_function and MPI_Delete_function are the communicator callback
 * types under their MPI-1 names. */
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_create_keyval("MPI_Keyval_create", copy_fn, delete_fn, keyval, extra_state);
}

int PMPI_Keyval_free(int *keyval)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_free_keyval("MPI_Keyval_free", keyval);
}

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_set_attr("MPI_Attr_put", comm, keyval, attribute_val);
}

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_get_attr("MPI_Attr_get", comm, keyval, attribute_val, flag);
}

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_delete_attr("MPI_Attr_delete", comm, keyval);
}

int PMPI_Errhandler_create(MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_create_errhandler("MPI_Errhandler_create", comm_errhandler_fn, errhandler);
}

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_set_errhandler("MPI_Errhandler_set", comm, errhandler);
}

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_get_errhandler("MPI_Errhandler_get", comm, errhandler);
}
