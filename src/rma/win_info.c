/* The info keys of a window (MPI-4.1 section 12.2.7). Every key the
 * standard defines is kept with its value, and MPI_Win_get_info reports all
 * of them, with the defaults for those never set. The engine's behaviour
 * already meets every setting (its locks, ordering and atomicity are the
 * strictest a key can ask for), so the values are hints it records. */
#include "rma/rma_internal.h"
#include "core/info.h"
#include <string.h>

static const struct {
    const char *key, *dflt;
} keys[] = {
    {"no_locks", "false"},
    {"accumulate_ordering", "rar,raw,war,waw"},
    {"accumulate_ops", "same_op_no_op"},
    {"same_size", "false"},
    {"same_disp_unit", "false"},
    {"alloc_shared_noncontig", "false"},
    {"mpi_accumulate_granularity", "0"},
};
#define NKEYS (int)(sizeof keys / sizeof keys[0])

static int no_mem(void) { return dmpi_err(MPI_ERR_NO_MEM, "window info: out of memory"); }

int dmpi_win_set_info(dmpi_win_t *w, struct dmpi_info *info)
{
    if (!info)
        return MPI_SUCCESS;
    if (!w->hints && !(w->hints = dmpi_info_private()))
        return no_mem();
    for (int i = 0; i < NKEYS; i++) {
        const char *v = dmpi_info_lookup(info, keys[i].key);
        if (v && dmpi_info_set(w->hints, keys[i].key, v) != MPI_SUCCESS)
            return no_mem();
    }
    return MPI_SUCCESS;
}

int dmpi_win_get_info(dmpi_win_t *w, struct dmpi_info **out)
{
    MPI_Info h;
    int err = dmpi_info_create(&h);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_info_t *info = dmpi_info_get(h);
    for (int i = 0; i < NKEYS; i++) {
        const char *v = w->hints ? dmpi_info_lookup(w->hints, keys[i].key) : NULL;
        if (!v && w->st->shared_noncontig && strcmp(keys[i].key, "alloc_shared_noncontig") == 0)
            v = "true";
        if ((err = dmpi_info_set(info, keys[i].key, v ? v : keys[i].dflt)) != MPI_SUCCESS) {
            dmpi_info_free(info);
            return err;
        }
    }
    *out = info;
    return MPI_SUCCESS;
}
