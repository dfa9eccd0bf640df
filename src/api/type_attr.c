/* Attributes on datatypes and their keyvals (core/attr.c serves every kind
 * of object; these keyvals are datatype keyvals). Predefined types carry
 * attributes too. */
#include "api/type_api.h"
#include "core/attr.h"

DMPI_ALIAS(Type_create_keyval)
DMPI_ALIAS(Type_free_keyval)
DMPI_ALIAS(Type_set_attr)
DMPI_ALIAS(Type_get_attr)
DMPI_ALIAS(Type_delete_attr)

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_create_keyval";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, type_keyval, "type_keyval")) ||
        (err = dmpi_keyval_create(DMPI_ATTR_TYPE, type_copy_attr_fn, type_delete_attr_fn, extra_state,
                                  type_keyval)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Type_free_keyval(int *type_keyval)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_free_keyval";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, type_keyval, "type_keyval")) ||
        (err = dmpi_keyval_check(fn, *type_keyval, DMPI_ATTR_TYPE, false)))
        return dmpi_api_error(NULL, fn, err);
    return dmpi_keyval_free(type_keyval);
}

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_set_attr";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_keyval_check(fn, type_keyval, DMPI_ATTR_TYPE, false)) ||
        (err = dmpi_attr_set(dt, type_keyval, attribute_val)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_get_attr";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_keyval_check_held(fn, type_keyval, DMPI_ATTR_TYPE, false)) ||
        (err = dmpi_check_ptr(fn, attribute_val, "attribute_val")) || (err = dmpi_check_ptr(fn, flag, "flag")) ||
        (err = dmpi_attr_get(dt, type_keyval, attribute_val, flag)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_delete_attr";
    dmpi_dtype_t *dt;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_type_check(fn, datatype, "datatype", &dt)) ||
        (err = dmpi_keyval_check_held(fn, type_keyval, DMPI_ATTR_TYPE, false)) ||
        (err = dmpi_attr_delete(dt, type_keyval)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}
