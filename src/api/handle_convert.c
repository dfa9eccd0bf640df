/* Handle conversion between C and Fortran (MPI-4.0 19.3.4). In the MPICH ABI
 * every handle but a file's is an int that Fortran holds as is, so both
 * directions are casts, as MPICH's macros of the same names (include/mpi.h)
 * are; these functions serve programs that take their address or #undef the
 * macros. As in MPICH, f2c of a value that is no valid handle gives that
 * value back: using it later is the error (the standard leaves the result
 * undefined).
 *
 * Files are pointers: an open file's Fortran handle is its slot in the
 * table of open files (io/file_table.c), MPI_FILE_NULL's (and that of
 * anything not an open file) is 0, and 0 converts back to MPI_FILE_NULL.
 * The table is library state, so these two take the lock. */
#include "api/api.h"
#include "io/io.h"

#undef MPI_Comm_c2f
#undef MPI_Comm_f2c
#undef MPI_Type_c2f
#undef MPI_Type_f2c
#undef MPI_Group_c2f
#undef MPI_Group_f2c
#undef MPI_Request_c2f
#undef MPI_Request_f2c
#undef MPI_Win_c2f
#undef MPI_Win_f2c
#undef MPI_Op_c2f
#undef MPI_Op_f2c
#undef MPI_Info_c2f
#undef MPI_Info_f2c
#undef MPI_Errhandler_c2f
#undef MPI_Errhandler_f2c
#undef MPI_Message_c2f
#undef MPI_Message_f2c
#undef MPI_Session_c2f
#undef MPI_Session_f2c
#undef PMPI_Comm_c2f
#undef PMPI_Comm_f2c
#undef PMPI_Type_c2f
#undef PMPI_Type_f2c
#undef PMPI_Group_c2f
#undef PMPI_Group_f2c
#undef PMPI_Request_c2f
#undef PMPI_Request_f2c
#undef PMPI_Win_c2f
#undef PMPI_Win_f2c
#undef PMPI_Op_c2f
#undef PMPI_Op_f2c
#undef PMPI_Info_c2f
#undef PMPI_Info_f2c
#undef PMPI_Errhandler_c2f
#undef PMPI_Errhandler_f2c
#undef PMPI_Message_c2f
#undef PMPI_Message_f2c
#undef PMPI_Session_c2f
#undef PMPI_Session_f2c

/* The pair of one int handle kind T: PMPI_K_c2f, PMPI_K_f2c, and their
 * MPI_ aliases. */
#define INT_HANDLE(K, T)                                                     \
    DMPI_ALIAS(K##_c2f)                                                      \
    DMPI_ALIAS(K##_f2c)                                                      \
    MPI_Fint PMPI_##K##_c2f(T handle)                                        \
    {                                                                        \
        return (MPI_Fint)handle;                                             \
    }                                                                        \
    T PMPI_##K##_f2c(MPI_Fint handle)                                        \
    {                                                                        \
        return (T)handle;                                                    \
    }

_Static_assert(sizeof(MPI_Fint) == sizeof(MPI_Comm), "a Fortran INTEGER holds a handle");

INT_HANDLE(Comm, MPI_Comm)
INT_HANDLE(Type, MPI_Datatype)
INT_HANDLE(Group, MPI_Group)
INT_HANDLE(Request, MPI_Request)
INT_HANDLE(Win, MPI_Win)
INT_HANDLE(Op, MPI_Op)
INT_HANDLE(Info, MPI_Info)
INT_HANDLE(Errhandler, MPI_Errhandler)
INT_HANDLE(Message, MPI_Message)
INT_HANDLE(Session, MPI_Session)

DMPI_ALIAS(File_c2f)
DMPI_ALIAS(File_f2c)

MPI_Fint PMPI_File_c2f(MPI_File file)
{
    DMPI_API_ENTER;
    return dmpi_file_c2f(file);
}

MPI_File PMPI_File_f2c(MPI_Fint file)
{
    DMPI_API_ENTER;
    return dmpi_file_f2c(file);
}
