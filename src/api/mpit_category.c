/* MPI_T categories (core/mpit.c). */
#include "api/api.h"
#include "core/mpit.h"

DMPI_ALIAS(T_category_get_num)
DMPI_ALIAS(T_category_get_info)
DMPI_ALIAS(T_category_get_index)
DMPI_ALIAS(T_category_get_cvars)
DMPI_ALIAS(T_category_get_pvars)
DMPI_ALIAS(T_category_get_categories)
DMPI_ALIAS(T_category_get_num_events)
DMPI_ALIAS(T_category_get_events)
DMPI_ALIAS(T_category_changed)

int PMPI_T_category_get_num(int *num_cat)
{
    DMPI_API_ENTER;
    return dmpi_mpit_category_get_num(num_cat);
}

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories)
{
    DMPI_API_ENTER;
    return dmpi_mpit_category_get_info(cat_index, name, name_len, desc, desc_len, num_cvars, num_pvars,
                                       num_categories);
}

int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    DMPI_API_ENTER;
    return dmpi_mpit_category_get_index(name, cat_index);
}

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    DMPI_API_ENTER;
    return dmpi_mpit_category_members(cat_index, DMPI_CAT_CVARS, len, indices, NULL);
}

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    DMPI_API_ENTER;
    return dmpi_mpit_category_members(cat_index, DMPI_CAT_PVARS, len, indices, NULL);
}

int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    DMPI_API_ENTER;
    return dmpi_mpit_category_members(cat_index, DMPI_CAT_CATEGORIES, len, indices, NULL);
}

int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    DMPI_API_ENTER;
    if (!num_events)
        return dmpi_mpit_category_members(cat_index, DMPI_CAT_EVENTS, -1, NULL, NULL);
    return dmpi_mpit_category_members(cat_index, DMPI_CAT_EVENTS, 0, NULL, num_events);
}

int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    DMPI_API_ENTER;
    return dmpi_mpit_category_members(cat_index, DMPI_CAT_EVENTS, len, indices, NULL);
}

int PMPI_T_category_changed(int *update_number)
{
    DMPI_API_ENTER;
    return dmpi_mpit_category_changed(update_number);
}
