/* Attributes on communicators and their keyvals. */
#include "api/api.h"
#include "api/mpi1.h"
#include "core/attr.h"

DMPI_ALIAS(Comm_create_keyval)
DMPI_ALIAS(Comm_free_keyval)
DMPI_ALIAS(Comm_set_attr)
DMPI_ALIAS(Comm_get_attr)
DMPI_ALIAS(Comm_delete_attr)

static int check_keyval(const char *fn, int keyval, bool predefined_ok)
{
    return dmpi_keyval_check(fn, keyval, DMPI_ATTR_COMM, predefined_ok);
}

static int check_held_keyval(const char *fn, int keyval, bool predefined_ok)
{
    return dmpi_keyval_check_held(fn, keyval, DMPI_ATTR_COMM, predefined_ok);
}

int dmpi_api_comm_create_keyval(const char *fn, MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                                void *extra_state)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, comm_keyval, "comm_keyval")) ||
        (err = dmpi_keyval_create(DMPI_ATTR_COMM, comm_copy_attr_fn, comm_delete_attr_fn, extra_state,
                                  comm_keyval)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_create_keyval("MPI_Comm_create_keyval", comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval,
                                       extra_state);
}

int dmpi_api_comm_free_keyval(const char *fn, int *comm_keyval)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, comm_keyval, "comm_keyval")) ||
        (err = check_keyval(fn, *comm_keyval, false)))
        return dmpi_api_error(NULL, fn, err);
    return dmpi_keyval_free(comm_keyval);
}

int PMPI_Comm_free_keyval(int *comm_keyval)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_free_keyval("MPI_Comm_free_keyval", comm_keyval);
}

int dmpi_api_comm_set_attr(const char *fn, MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = check_keyval(fn, comm_keyval, false)) || (err = dmpi_attr_set(c, comm_keyval, attribute_val)))
        return dmpi_api_error(c, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_set_attr("MPI_Comm_set_attr", comm, comm_keyval, attribute_val);
}

int dmpi_api_comm_get_attr(const char *fn, MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = check_held_keyval(fn, comm_keyval, true)) || (err = dmpi_check_ptr(fn, attribute_val, "attribute_val")) ||
        (err = dmpi_check_ptr(fn, flag, "flag")) || (err = dmpi_attr_get(c, comm_keyval, attribute_val, flag)))
        return dmpi_api_error(c, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_get_attr("MPI_Comm_get_attr", comm, comm_keyval, attribute_val, flag);
}

int dmpi_api_comm_delete_attr(const char *fn, MPI_Comm comm, int comm_keyval)
{
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = check_held_keyval(fn, comm_keyval, false)) || (err = dmpi_attr_delete(c, comm_keyval)))
        return dmpi_api_error(c, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    DMPI_API_ENTER;
    return dmpi_api_comm_delete_attr("MPI_Comm_delete_attr", comm, comm_keyval);
}
