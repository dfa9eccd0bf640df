/* MPI_Type_get_envelope and MPI_Type_get_contents, and their _c forms: how
 * a type was made, exactly as its constructor was called (core/dmpi.h keeps
 * the arrays). A type made by a _c constructor reports large counts, which
 * the int forms cannot: they refuse it with MPI_ERR_TYPE. */
#include "api/type_api.h"
#include "core/dtype_ops.h"

DMPI_ALIAS(Type_get_envelope)
DMPI_ALIAS(Type_get_contents)
DMPI_ALIAS(Type_get_envelope_c)
DMPI_ALIAS(Type_get_contents_c)

/* The type to describe; with large false, one the int forms can describe. */
static int check_described(const char *fn, MPI_Datatype datatype, bool large, dmpi_dtype_t **dt)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", dt)))
        return err;
    if (!large && (*dt)->contents && (*dt)->contents->nlarge > 0)
        return dmpi_err(MPI_ERR_TYPE, "%s: datatype %s was made by a large-count (_c) constructor; describe it "
                        "with %s_c", fn, dmpi_dtype_desc(*dt), fn);
    return MPI_SUCCESS;
}

static int get_envelope(const char *fn, MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                        MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner)
{
    dmpi_dtype_t *dt;
    int err;
    if ((err = check_described(fn, datatype, num_large_counts != NULL, &dt)))
        return dmpi_api_error(NULL, fn, err);
    const dmpi_dtype_contents_t *c = dt->contents;
    *num_integers = c ? c->nints : 0;
    *num_addresses = c ? c->naints : 0;
    if (num_large_counts)
        *num_large_counts = c ? c->nlarge : 0;
    *num_datatypes = c ? c->ntypes : 0;
    *combiner = c ? c->combiner : MPI_COMBINER_NAMED;
    return MPI_SUCCESS;
}

static int check_envelope_ptrs(const char *fn, const void *ni, const void *na, const void *nd, const void *comb)
{
    int err;
    if ((err = dmpi_check_ptr(fn, ni, "num_integers")) || (err = dmpi_check_ptr(fn, na, "num_addresses")) ||
        (err = dmpi_check_ptr(fn, nd, "num_datatypes")) || (err = dmpi_check_ptr(fn, comb, "combiner")))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes,
                           int *combiner)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_get_envelope";
    MPI_Count ni, na, nd;
    int err;
    if ((err = check_envelope_ptrs(fn, num_integers, num_addresses, num_datatypes, combiner)) ||
        (err = get_envelope(fn, datatype, &ni, &na, NULL, &nd, combiner)))
        return err;
    *num_integers = (int)ni;
    *num_addresses = (int)na;
    *num_datatypes = (int)nd;
    return MPI_SUCCESS;
}

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                             MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_get_envelope_c";
    int err;
    if ((err = check_envelope_ptrs(fn, num_integers, num_addresses, num_datatypes, combiner)))
        return err;
    if (!num_large_counts)
        return dmpi_api_error(NULL, fn, dmpi_check_ptr(fn, num_large_counts, "num_large_counts"));
    return get_envelope(fn, datatype, num_integers, num_addresses, num_large_counts, num_datatypes, combiner);
}

/* MPI_ERR_ARG unless the array has room for the n entries of the type. */
static int check_room(const char *fn, MPI_Count max, MPI_Count n, const void *array, const char *max_name,
                      const char *array_name, const char *what)
{
    if (max < n)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is %lld but the type has %lld %s", fn, max_name, (long long)max,
                        (long long)n, what);
    if (n > 0 && !array)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, array_name);
    return MPI_SUCCESS;
}

/* large NULL: the int form (max_large unused). */
static int get_contents(const char *fn, MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                        MPI_Count max_large, MPI_Count max_datatypes, int ints[], MPI_Aint aints[],
                        MPI_Count large[], MPI_Datatype types[], bool large_form)
{
    dmpi_dtype_t *dt;
    int err;
    if ((err = check_described(fn, datatype, large_form, &dt)))
        return dmpi_api_error(NULL, fn, err);
    const dmpi_dtype_contents_t *c = dt->contents;
    if (!c)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: %s is a predefined type (MPI_COMBINER_NAMED) and "
                                                 "has no contents", fn, dmpi_dtype_desc(dt)));
    if ((err = check_room(fn, max_integers, c->nints, ints, "max_integers", "array_of_integers", "integers")) ||
        (err = check_room(fn, max_addresses, c->naints, aints, "max_addresses", "array_of_addresses",
                          "addresses")) ||
        (large_form && (err = check_room(fn, max_large, c->nlarge, large, "max_large_counts",
                                         "array_of_large_counts", "large counts"))) ||
        (err = check_room(fn, max_datatypes, c->ntypes, types, "max_datatypes", "array_of_datatypes",
                          "datatypes")))
        return dmpi_api_error(NULL, fn, err);
    dmpi_dtype_get_contents(dt, ints, aints, large, types);
    return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                           int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    DMPI_API_ENTER;
    return get_contents("MPI_Type_get_contents", datatype, max_integers, max_addresses, 0, max_datatypes,
                        array_of_integers, array_of_addresses, NULL, array_of_datatypes, false);
}

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    DMPI_API_ENTER;
    return get_contents("MPI_Type_get_contents_c", datatype, max_integers, max_addresses, max_large_counts,
                        max_datatypes, array_of_integers, array_of_addresses, array_of_large_counts,
                        array_of_datatypes, true);
}
