/* MPI-4.1's accessors of the public status fields (MPI_SOURCE, MPI_TAG,
 * MPI_ERROR), for languages and tools that do not see the C struct, and for
 * layered libraries that make statuses (generalized requests). Any value
 * may be stored; NULL and MPI_STATUS_IGNORE are no status (MPI_ERR_ARG).
 * They touch no library state, so they work before MPI_Init and after
 * MPI_Finalize as the C field accesses they replace do. */
#include "api/api.h"

DMPI_ALIAS(Status_get_source)
DMPI_ALIAS(Status_set_source)
DMPI_ALIAS(Status_get_tag)
DMPI_ALIAS(Status_set_tag)
DMPI_ALIAS(Status_get_error)
DMPI_ALIAS(Status_set_error)

enum field { SOURCE, TAG, ERROR };

static int *field_of(MPI_Status *st, enum field f)
{
    return f == SOURCE ? &st->MPI_SOURCE : f == TAG ? &st->MPI_TAG : &st->MPI_ERROR;
}

static int check(const char *fn, const MPI_Status *status)
{
    if (!status)
        return dmpi_err(MPI_ERR_ARG, "%s: status is NULL", fn);
    if (status == MPI_STATUS_IGNORE)
        return dmpi_err(MPI_ERR_ARG, "%s: status is MPI_STATUS_IGNORE", fn);
    return MPI_SUCCESS;
}

static int get(const char *fn, const MPI_Status *status, enum field f, int *out, const char *out_name)
{
    int err;
    if ((err = check(fn, status)) || (err = dmpi_check_ptr(fn, out, out_name)))
        return dmpi_api_error(NULL, fn, err);
    *out = *field_of((MPI_Status *)status, f);
    return MPI_SUCCESS;
}

static int set(const char *fn, MPI_Status *status, enum field f, int value)
{
    int err;
    if ((err = check(fn, status)))
        return dmpi_api_error(NULL, fn, err);
    *field_of(status, f) = value;
    return MPI_SUCCESS;
}

int PMPI_Status_get_source(const MPI_Status *status, int *source)
{
    DMPI_API_ENTER;
    return get("MPI_Status_get_source", status, SOURCE, source, "source");
}

int PMPI_Status_set_source(MPI_Status *status, int source)
{
    DMPI_API_ENTER;
    return set("MPI_Status_set_source", status, SOURCE, source);
}

int PMPI_Status_get_tag(const MPI_Status *status, int *tag)
{
    DMPI_API_ENTER;
    return get("MPI_Status_get_tag", status, TAG, tag, "tag");
}

int PMPI_Status_set_tag(MPI_Status *status, int tag)
{
    DMPI_API_ENTER;
    return set("MPI_Status_set_tag", status, TAG, tag);
}

int PMPI_Status_get_error(const MPI_Status *status, int *error)
{
    DMPI_API_ENTER;
    return get("MPI_Status_get_error", status, ERROR, error, "error");
}

int PMPI_Status_set_error(MPI_Status *status, int error)
{
    DMPI_API_ENTER;
    return set("MPI_Status_set_error", status, ERROR, error);
}
