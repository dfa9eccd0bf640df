/* Addresses and displacements: MPI_Get_address, MPI_Aint_add,
 * MPI_Aint_diff. On this flat address space an address is the pointer's
 * value, and MPI_BOTTOM (NULL) is address 0. */
#include "api/type_api.h"
#include "api/mpi1.h"
#include <stdint.h>

DMPI_ALIAS(Get_address)
DMPI_ALIAS(Aint_add)
DMPI_ALIAS(Aint_diff)

int dmpi_api_get_address(const char *fn, const void *location, MPI_Aint *address)
{
    int err;
    if ((err = dmpi_check_ptr(fn, address, "address")))
        return dmpi_api_error(NULL, fn, err);
    *address = (MPI_Aint)(intptr_t)location;
    return MPI_SUCCESS;
}

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    DMPI_API_ENTER;
    return dmpi_api_get_address("MPI_Get_address", location, address);
}

/* Wrapping arithmetic: addresses are unsigned on the machine. */
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) { return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp); }

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) { return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2); }
