/* MPI_Register_datarep and MPI_Register_datarep_c (MPI-4.1 section
 * 14.5.3): a data representation of the program's, by name, with its
 * conversion functions (the int or the MPI_Count form) and its extent
 * function. A name already taken is io/'s MPI_ERR_DUP_DATAREP. There is no
 * file here: errors go to MPI_FILE_NULL's handler. */
#include "api/file_api.h"
#include <string.h>

DMPI_ALIAS(Register_datarep)
DMPI_ALIAS(Register_datarep_c)

static int check_name(const char *fn, const char *datarep)
{
    int err = dmpi_check_ptr(fn, datarep, "datarep");
    if (err != MPI_SUCCESS)
        return err;
    size_t n = strnlen(datarep, MPI_MAX_DATAREP_STRING);
    if (n == 0)
        return dmpi_err(MPI_ERR_ARG, "%s: datarep is an empty name", fn);
    if (n >= MPI_MAX_DATAREP_STRING)
        return dmpi_err(MPI_ERR_ARG, "%s: datarep \"%.32s...\" is longer than MPI_MAX_DATAREP_STRING - 1 (%d) "
                        "characters", fn, datarep, MPI_MAX_DATAREP_STRING - 1);
    return MPI_SUCCESS;
}

static int register_datarep(const char *fn, const char *datarep, MPI_Datarep_conversion_function *read,
                            MPI_Datarep_conversion_function *write, MPI_Datarep_conversion_function_c *read_c,
                            MPI_Datarep_conversion_function_c *write_c, MPI_Datarep_extent_function *extent,
                            void *extra_state)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_name(fn, datarep)) ||
        (err = dmpi_check_ptr(fn, (const void *)extent, "dtype_file_extent_fn")) ||
        (err = dmpi_datarep_register(datarep, read, write, read_c, write_c, extent, extra_state)))
        return dmpi_api_file_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    DMPI_API_ENTER;
    return register_datarep("MPI_Register_datarep", datarep, read_conversion_fn, write_conversion_fn, NULL, NULL,
                            dtype_file_extent_fn, extra_state);
}

int PMPI_Register_datarep_c(const char *datarep, MPI_Datarep_conversion_function_c *read_conversion_fn,
                            MPI_Datarep_conversion_function_c *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    DMPI_API_ENTER;
    return register_datarep("MPI_Register_datarep_c", datarep, NULL, NULL, read_conversion_fn, write_conversion_fn,
                            dtype_file_extent_fn, extra_state);
}
