/* MPI-4.1's MPI_Get_hw_resource_info: a new info object describing the
 * hardware the calling process runs on (core/info.c builds it). */
#include "api/api.h"
#include "core/info.h"

DMPI_ALIAS(Get_hw_resource_info)

int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Get_hw_resource_info";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, hw_info, "hw_info")))
        return dmpi_api_error(NULL, fn, err);
    err = dmpi_info_create_hw(hw_info);
    return err == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
}
