/* MPI_T sources and events (core/mpit_event.c): dmpi has neither, so the
 * counts are 0, every index is MPI_T_ERR_INVALID_INDEX, every name
 * MPI_T_ERR_INVALID_NAME and every registration or instance handle
 * MPI_T_ERR_INVALID_HANDLE (MPI_T_ERR_NOT_INITIALIZED before
 * MPI_T_init_thread, as everywhere in MPI_T). */
#include "api/api.h"
#include "core/mpit.h"

DMPI_ALIAS(T_source_get_num)
DMPI_ALIAS(T_source_get_info)
DMPI_ALIAS(T_source_get_timestamp)
DMPI_ALIAS(T_event_get_num)
DMPI_ALIAS(T_event_get_info)
DMPI_ALIAS(T_event_get_index)
DMPI_ALIAS(T_event_handle_alloc)
DMPI_ALIAS(T_event_handle_get_info)
DMPI_ALIAS(T_event_handle_set_info)
DMPI_ALIAS(T_event_handle_free)
DMPI_ALIAS(T_event_register_callback)
DMPI_ALIAS(T_event_callback_get_info)
DMPI_ALIAS(T_event_callback_set_info)
DMPI_ALIAS(T_event_set_dropped_handler)
DMPI_ALIAS(T_event_read)
DMPI_ALIAS(T_event_copy)
DMPI_ALIAS(T_event_get_timestamp)
DMPI_ALIAS(T_event_get_source)

int PMPI_T_source_get_num(int *num_sources)
{
    DMPI_API_ENTER;
    return dmpi_mpit_source_get_num(num_sources);
}

int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                           MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                           MPI_Info *info)
{
    DMPI_API_ENTER;
    (void)name, (void)name_len, (void)desc, (void)desc_len, (void)ordering, (void)ticks_per_second;
    (void)max_ticks, (void)info;
    return dmpi_mpit_no_such_index(source_index);
}

int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    DMPI_API_ENTER;
    (void)timestamp;
    return dmpi_mpit_no_such_index(source_index);
}

int PMPI_T_event_get_num(int *num_events)
{
    DMPI_API_ENTER;
    return dmpi_mpit_event_get_num(num_events);
}

int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int *num_elements,
                          MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len, int *bind)
{
    DMPI_API_ENTER;
    (void)name, (void)name_len, (void)verbosity, (void)array_of_datatypes, (void)array_of_displacements;
    (void)num_elements, (void)enumtype, (void)info, (void)desc, (void)desc_len, (void)bind;
    return dmpi_mpit_no_such_index(event_index);
}

int PMPI_T_event_get_index(const char *name, int *event_index)
{
    DMPI_API_ENTER;
    return dmpi_mpit_get_index_none(name, event_index);
}

int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    DMPI_API_ENTER;
    (void)obj_handle, (void)info, (void)event_registration;
    return dmpi_mpit_no_such_index(event_index);
}

int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    DMPI_API_ENTER;
    (void)info_used;
    return dmpi_mpit_no_such_handle(event_registration);
}

int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    DMPI_API_ENTER;
    (void)info;
    return dmpi_mpit_no_such_handle(event_registration);
}

int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function free_cb_function)
{
    DMPI_API_ENTER;
    (void)user_data, (void)free_cb_function;
    return dmpi_mpit_no_such_handle(event_registration);
}

int PMPI_T_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info, void *user_data, MPI_T_event_cb_function event_cb_function)
{
    DMPI_API_ENTER;
    (void)cb_safety, (void)info, (void)user_data, (void)event_cb_function;
    return dmpi_mpit_no_such_handle(event_registration);
}

int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info *info_used)
{
    DMPI_API_ENTER;
    (void)cb_safety, (void)info_used;
    return dmpi_mpit_no_such_handle(event_registration);
}

int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info)
{
    DMPI_API_ENTER;
    (void)cb_safety, (void)info;
    return dmpi_mpit_no_such_handle(event_registration);
}

int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function dropped_cb_function)
{
    DMPI_API_ENTER;
    (void)dropped_cb_function;
    return dmpi_mpit_no_such_handle(event_registration);
}

int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    DMPI_API_ENTER;
    (void)element_index, (void)buffer;
    return dmpi_mpit_no_such_handle(event_instance);
}

int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    DMPI_API_ENTER;
    (void)buffer;
    return dmpi_mpit_no_such_handle(event_instance);
}

int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    DMPI_API_ENTER;
    (void)event_timestamp;
    return dmpi_mpit_no_such_handle(event_instance);
}

int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    DMPI_API_ENTER;
    (void)source_index;
    return dmpi_mpit_no_such_handle(event_instance);
}
