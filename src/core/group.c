#include "core/group.h"
#include "core/objtable.h"
#include "core/session.h"
#include <stdlib.h>
#include <string.h>

static dmpi_objtable_t groups = {.base = 0x88000000u};
static dmpi_group_t empty_group = {.handle = MPI_GROUP_EMPTY, .size = 0, .rank = MPI_UNDEFINED, .refcount = 1};

dmpi_group_t *dmpi_group_empty(void) { return &empty_group; }

dmpi_group_t *dmpi_group_new(const int *world, int n)
{
    dmpi_group_t *g = malloc(sizeof *g + (size_t)n * sizeof(int));
    if (!g)
        return NULL;
    g->handle = MPI_GROUP_NULL;
    g->size = n;
    g->refcount = 1;
    g->rank = MPI_UNDEFINED;
    g->session = NULL;
    if (n)
        memcpy(g->world, world, (size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        if (world[i] == dmpi_world.rank)
            g->rank = i;
    return g;
}

dmpi_group_t *dmpi_group_get(MPI_Group h)
{
    if (h == MPI_GROUP_EMPTY)
        return &empty_group;
    return dmpi_obj_get(&groups, (uint32_t)h);
}

int dmpi_group_handle(dmpi_group_t *g, MPI_Group *out)
{
    if (g == &empty_group) {
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    uint32_t h = dmpi_obj_add(&groups, g);
    if (!h)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for group handles");
    g->handle = (MPI_Group)h;
    *out = g->handle;
    return MPI_SUCCESS;
}

void dmpi_group_retain(dmpi_group_t *g) { g->refcount++; }

void dmpi_group_set_session(dmpi_group_t *g, dmpi_session_t *s)
{
    if (g == &empty_group || g->session == s)
        return;
    dmpi_session_retain(s);
    dmpi_session_release(g->session);
    g->session = s;
}

void dmpi_group_free_handle(dmpi_group_t *g)
{
    if (g == &empty_group)
        return;
    dmpi_obj_remove(&groups, (uint32_t)g->handle);
    g->handle = MPI_GROUP_NULL;
    dmpi_group_release(g);
}

void dmpi_group_release(dmpi_group_t *g)
{
    if (g == &empty_group || --g->refcount > 0)
        return;
    if (g->handle != MPI_GROUP_NULL)
        dmpi_obj_remove(&groups, (uint32_t)g->handle);
    dmpi_session_release(g->session);
    free(g);
}

int dmpi_group_rank_of_world(const dmpi_group_t *g, int world)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == world)
            return i;
    return MPI_UNDEFINED;
}

void dmpi_group_finalize(void) { dmpi_obj_clear(&groups); }
