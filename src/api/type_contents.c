/* MPI_Type_get_envelope and MPI_Type_get_contents: how a type was made,
 * exactly as its constructor was called (core/dmpi.h keeps the arrays). */
#include "api/type_api.h"
#include "core/dtype_ops.h"

DMPI_ALIAS(Type_get_envelope)
DMPI_ALIAS(Type_get_contents)

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes,
                           int *combiner)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_get_envelope";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_check_ptr(fn, num_integers, "num_integers")) ||
        (err = dmpi_check_ptr(fn, num_addresses, "num_addresses")) ||
        (err = dmpi_check_ptr(fn, num_datatypes, "num_datatypes")) || (err = dmpi_check_ptr(fn, combiner, "combiner")))
        return dmpi_api_error(NULL, fn, err);
    const dmpi_dtype_contents_t *c = dt->contents;
    *num_integers = c ? c->nints : 0;
    *num_addresses = c ? c->naints : 0;
    *num_datatypes = c ? c->ntypes : 0;
    *combiner = c ? c->combiner : MPI_COMBINER_NAMED;
    return MPI_SUCCESS;
}

/* MPI_ERR_ARG unless the array has room for the n entries of the type. */
static int check_room(const char *fn, int max, int n, const void *array, const char *max_name,
                      const char *array_name, const char *what)
{
    if (max < n)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is %d but the type has %d %s", fn, max_name, max, n, what);
    return dmpi_type_check_array(fn, array, n, array_name);
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                           int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_get_contents";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)))
        return dmpi_api_error(NULL, fn, err);
    const dmpi_dtype_contents_t *c = dt->contents;
    if (!c)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: %s is a predefined type (MPI_COMBINER_NAMED) and "
                                                 "has no contents", fn, dmpi_dtype_desc(dt)));
    if ((err = check_room(fn, max_integers, c->nints, array_of_integers, "max_integers", "array_of_integers",
                          "integers")) ||
        (err = check_room(fn, max_addresses, c->naints, array_of_addresses, "max_addresses", "array_of_addresses",
                          "addresses")) ||
        (err = check_room(fn, max_datatypes, c->ntypes, array_of_datatypes, "max_datatypes", "array_of_datatypes",
                          "datatypes")))
        return dmpi_api_error(NULL, fn, err);
    dmpi_dtype_get_contents(dt, array_of_integers, array_of_addresses, array_of_datatypes);
    return MPI_SUCCESS;
}
