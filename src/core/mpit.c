/* MPI_T: start and end, strings, categories and enumerations
 * (core/mpit.h). Control variables are in core/mpit_cvar.c, performance
 * variables in core/mpit_pvar.c, sources and events in core/mpit_event.c. */
#include "core/mpit_internal.h"
#include "core/params.h"
#include <string.h>

pthread_mutex_t dmpi_mpit_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
int dmpi_mpit_refs;
static bool ever_initialized;

int dmpi_mpit_init_thread(int required, int *provided, void (*more)(void))
{
    MPIT_LOCKED;
    if (!provided || required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return MPI_T_ERR_INVALID;
    /* the values the library will run with, before MPI_Init too (a malformed
     * DMPI_* variable is reported here and again by MPI_Init) */
    dmpi_params_load_once();
    if (!ever_initialized) {
        dmpi_mpit_add_core_pvars();
        if (more)
            more();
        ever_initialized = true;
    }
    dmpi_mpit_refs++;
    *provided = required;      /* every level: MPI_T has its own lock */
    return MPI_SUCCESS;
}

int dmpi_mpit_finalize(void)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (--dmpi_mpit_refs == 0) {
        dmpi_mpit_cvar_release_all();
        dmpi_mpit_pvar_release_all();
    }
    return MPI_SUCCESS;
}

void dmpi_mpit_put_string(const char *s, char *buf, int *len)
{
    if (!len)
        return;
    size_t need = strlen(s) + 1;
    if (!buf || *len <= 0) {
        *len = (int)need;
        return;
    }
    size_t n = need - 1 < (size_t)*len - 1 ? need - 1 : (size_t)*len - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
    *len = (int)n + 1;
}

/* ---- categories ------------------------------------------------------------ */

/* Names as core/params.c gives them to parameters, and as the registrations
 * of performance variables use them. No category contains another. */
static const struct {
    const char *name, *desc;
} categories[] = {
    {"p2p", "point-to-point messages: matching queues, the choice of transport"},
    {"self", "messages a process sends to itself"},
    {"shm", "shared memory between the ranks of a node: queues, single copy (cma), mappable memory"},
    {"tcp", "TCP between nodes"},
    {"progress", "waiting: spinning, yielding, napping, reports of long waits"},
    {"collectives", "collective operations: algorithm choice and node-level shared memory"},
    {"rma", "one-sided communication"},
    {"general", "everything else: messages the library prints"},
};
#define NCATS ((int)(sizeof categories / sizeof categories[0]))

int dmpi_mpit_ncategories(void)
{
    return NCATS;
}

int dmpi_mpit_category_of(const char *name)
{
    for (int c = 0; c < NCATS; c++)
        if (!strcmp(categories[c].name, name))
            return c;
    return NCATS - 1;
}

static int cvars_in(int c, int len, int indices[])
{
    int n = 0;
    dmpi_param_info_t p;
    for (int i = 0; dmpi_param_describe(i, &p); i++)
        if (dmpi_mpit_category_of(p.category) == c) {
            if (n < len)
                indices[n] = i;
            n++;
        }
    return n;
}

int dmpi_mpit_category_get_num(int *num)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!num)
        return MPI_T_ERR_INVALID;
    *num = NCATS;
    return MPI_SUCCESS;
}

int dmpi_mpit_category_get_info(int c, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                                int *num_pvars, int *num_categories)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (c < 0 || c >= NCATS)
        return MPI_T_ERR_INVALID_INDEX;
    dmpi_mpit_put_string(categories[c].name, name, name_len);
    dmpi_mpit_put_string(categories[c].desc, desc, desc_len);
    if (num_cvars)
        *num_cvars = cvars_in(c, 0, NULL);
    if (num_pvars)
        *num_pvars = dmpi_mpit_pvars_in(c, 0, NULL);
    if (num_categories)
        *num_categories = 0;
    return MPI_SUCCESS;
}

int dmpi_mpit_category_get_index(const char *name, int *c)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!name || !c)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < NCATS; i++)
        if (!strcmp(categories[i].name, name)) {
            *c = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

int dmpi_mpit_category_members(int c, int kind, int len, int indices[], int *num)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (c < 0 || c >= NCATS)
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices))
        return MPI_T_ERR_INVALID;
    int n = 0;
    switch (kind) {
    case DMPI_CAT_CVARS: n = cvars_in(c, len, indices); break;
    case DMPI_CAT_PVARS: n = dmpi_mpit_pvars_in(c, len, indices); break;
    default: n = 0; break;    /* no subcategories, no events */
    }
    if (num)
        *num = n;
    return MPI_SUCCESS;
}

int dmpi_mpit_category_changed(int *update_number)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!update_number)
        return MPI_T_ERR_INVALID;
    *update_number = 0;        /* the categories are what they were at the first MPI_T_init_thread */
    return MPI_SUCCESS;
}
