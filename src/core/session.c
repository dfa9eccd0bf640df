#include "core/session.h"
#include "core/errhandler.h"
#include "core/objtable.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static dmpi_objtable_t sessions = {.base = 0xb8000000u};

dmpi_session_t *dmpi_session_new(MPI_Errhandler e, int thread_level)
{
    dmpi_session_t *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    uint32_t h = dmpi_obj_add(&sessions, s);
    if (!h) {
        free(s);
        return NULL;
    }
    *s = (dmpi_session_t){.handle = (MPI_Session)h, .errhandler = e, .thread_level = thread_level,
                           .refcount = 1};
    dmpi_errhandler_retain(e);
    return s;
}

dmpi_session_t *dmpi_session_get(MPI_Session h)
{
    return dmpi_obj_get(&sessions, (uint32_t)h);
}

void dmpi_session_free(dmpi_session_t *s)
{
    dmpi_obj_remove(&sessions, (uint32_t)s->handle);
    s->handle = MPI_SESSION_NULL;
    dmpi_errhandler_release(s->errhandler);
    s->errhandler = MPI_ERRHANDLER_NULL;
    if (sessions.used == 0)
        dmpi_obj_clear(&sessions);
    dmpi_session_release(s);
}

void dmpi_session_retain(dmpi_session_t *s)
{
    if (s)
        s->refcount++;
}

void dmpi_session_release(dmpi_session_t *s)
{
    if (s && --s->refcount == 0)
        free(s);
}

int dmpi_session_count(void) { return sessions.used; }

static const char *const pset_names[] = {"mpi://WORLD", "mpi://SELF", "dmpi://node"};
enum { PSET_WORLD, PSET_SELF, PSET_NODE, NPSETS };

int dmpi_pset_count(void) { return NPSETS; }

const char *dmpi_pset_name(int i) { return i >= 0 && i < NPSETS ? pset_names[i] : NULL; }

int dmpi_pset_find(const char *name)
{
    for (int i = 0; i < NPSETS; i++)
        if (strcmp(name, pset_names[i]) == 0)
            return i;
    return -1;
}

int *dmpi_pset_members(int i, int *n)
{
    int *w = malloc((size_t)dmpi_world.size * sizeof *w);
    if (!w)
        return NULL;
    *n = 0;
    for (int r = 0; r < dmpi_world.size; r++)
        if (i == PSET_WORLD || (i == PSET_SELF && r == dmpi_world.rank) ||
            (i == PSET_NODE && dmpi_world.node_of_world[r] == dmpi_world.node_id))
            w[(*n)++] = r;
    return w;
}

static const char *const level_names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                          "MPI_THREAD_MULTIPLE"};

const char *dmpi_thread_level_name(int level)
{
    return level >= MPI_THREAD_SINGLE && level <= MPI_THREAD_MULTIPLE ? level_names[level - MPI_THREAD_SINGLE]
                                                                      : "unknown";
}

int dmpi_thread_level_parse(const char *s)
{
    for (int l = MPI_THREAD_SINGLE; l <= MPI_THREAD_MULTIPLE; l++)
        if (strcasecmp(s, level_names[l - MPI_THREAD_SINGLE]) == 0)
            return l;
    return -1;
}
