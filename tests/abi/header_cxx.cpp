// header_cxx: include/mpi.h seen from C++. Compiled (never linked or run)
// by check_header.sh as C++98 up to the newest standard the compiler knows,
// with -Wall -Wextra -Werror -pedantic. From C++11 on it also checks every
// entry of constants.def at compile time: value, type, sizes, layout.
#include <mpi.h>

#include <cstddef>

#if __cplusplus >= 201103L
#include <type_traits>

#define DMPI_ABI_INT(name, want)                                           \
    static_assert((name) == static_cast<int>(want), #name " value");       \
    static_assert(std::is_same<decltype(name), int>::value, #name " type");
#define DMPI_ABI_ENUM(name, etype, want)                                   \
    static_assert((name) == static_cast<int>(want), #name " value");       \
    static_assert(std::is_same<decltype(name), etype>::value, #name " type");
#define DMPI_ABI_PTR(name, ctype, want)                                    \
    static_assert(std::is_same<decltype(name), ctype>::value, #name " type");
#define DMPI_ABI_OBJECT(name, ctype)                                       \
    static_assert(std::is_same<std::remove_cv<decltype(name)>::type, ctype>::value, \
                  #name " type");
#define DMPI_ABI_SIZE(type, bytes) \
    static_assert(sizeof(type) == (bytes), "sizeof(" #type ")");
#define DMPI_ABI_FIELD(type, field, off) \
    static_assert(offsetof(type, field) == (off), "offsetof(" #type ", " #field ")");
#define DMPI_ABI_TYPE(type, ctype) \
    static_assert(std::is_same<type, ctype>::value, #type " is " #ctype);
#include "constants.def"
#endif

namespace {

void on_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

} // namespace

int main(int argc, char **argv)
{
    int rank = 0, size = 0, value = 42;
    MPI_Status status;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    if (rank == 0 && size > 1)
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(&value, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    MPI_Irecv(&value, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    PMPI_Barrier(MPI_COMM_WORLD);
    (void)MPI_Wtime();
    MPI_Finalize();
    return 0;
}
