/* The info object of MPI_Get_hw_resource_info (MPI-4.1): what the process
 * may learn about the hardware it runs on. Its key "mpi_hw_resource_type"
 * names the hardware resource types this library knows, the values that
 * MPI_Comm_split_type(MPI_COMM_TYPE_HW_GUIDED) accepts under that same key
 * (api/comm_info.c): "mpi_shared_memory", the processes that share memory
 * with this one. A comma-separated list if more are ever added. */
#include "core/info.h"

int dmpi_info_create_hw(MPI_Info *out)
{
    MPI_Info h;
    int err = dmpi_info_create(&h);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_info_t *info = dmpi_info_get(h);
    if ((err = dmpi_info_set(info, "mpi_hw_resource_type", "mpi_shared_memory")) != MPI_SUCCESS) {
        dmpi_info_free(info);
        return err;
    }
    *out = h;
    return MPI_SUCCESS;
}
