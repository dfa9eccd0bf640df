/* The group constructors and queries of MPI (set operations keep MPI's
 * order: the first group's order, then the second's). */
#include "core/group.h"
#include <stdlib.h>

/* A group from a list that may be built bigger than needed; it derives
 * from the session its operands derive from (mixing sessions is erroneous). */
static int finish(int *world, int n, const dmpi_group_t *a, const dmpi_group_t *b, dmpi_group_t **out)
{
    *out = n ? dmpi_group_new(world, n) : dmpi_group_empty();
    free(world);
    if (!*out)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a group");
    dmpi_group_set_session(*out, a->session ? a->session : b->session);
    return MPI_SUCCESS;
}

static int *scratch(int n)
{
    return malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
}

int dmpi_group_union(const dmpi_group_t *a, const dmpi_group_t *b, dmpi_group_t **out)
{
    int *w = scratch(a->size + b->size), n = 0;
    if (!w)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a group");
    for (int i = 0; i < a->size; i++)
        w[n++] = a->world[i];
    for (int i = 0; i < b->size; i++)
        if (dmpi_group_rank_of_world(a, b->world[i]) == MPI_UNDEFINED)
            w[n++] = b->world[i];
    return finish(w, n, a, b, out);
}

/* intersection (keep those of a that are in b) or difference (those not in b) */
static int filter(const dmpi_group_t *a, const dmpi_group_t *b, bool keep_common, dmpi_group_t **out)
{
    int *w = scratch(a->size), n = 0;
    if (!w)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a group");
    for (int i = 0; i < a->size; i++)
        if ((dmpi_group_rank_of_world(b, a->world[i]) != MPI_UNDEFINED) == keep_common)
            w[n++] = a->world[i];
    return finish(w, n, a, b, out);
}

int dmpi_group_intersection(const dmpi_group_t *a, const dmpi_group_t *b, dmpi_group_t **out)
{
    return filter(a, b, true, out);
}

int dmpi_group_difference(const dmpi_group_t *a, const dmpi_group_t *b, dmpi_group_t **out)
{
    return filter(a, b, false, out);
}

/* ranks[] were checked by the caller: valid and distinct. */
int dmpi_group_incl(const dmpi_group_t *g, int n, const int *ranks, dmpi_group_t **out)
{
    int *w = scratch(n);
    if (!w)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a group");
    for (int i = 0; i < n; i++)
        w[i] = g->world[ranks[i]];
    return finish(w, n, g, g, out);
}

int dmpi_group_excl(const dmpi_group_t *g, int n, const int *ranks, dmpi_group_t **out)
{
    char *gone = calloc((size_t)(g->size ? g->size : 1), 1);
    int *w = scratch(g->size), m = 0;
    if (!gone || !w) {
        free(gone);
        free(w);
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a group");
    }
    for (int i = 0; i < n; i++)
        gone[ranks[i]] = 1;
    for (int i = 0; i < g->size; i++)
        if (!gone[i])
            w[m++] = g->world[i];
    free(gone);
    return finish(w, m, g, g, out);
}

int dmpi_group_compare(const dmpi_group_t *a, const dmpi_group_t *b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    bool same_order = true;
    for (int i = 0; i < a->size; i++) {
        if (a->world[i] != b->world[i])
            same_order = false;
        if (dmpi_group_rank_of_world(b, a->world[i]) == MPI_UNDEFINED)
            return MPI_UNEQUAL;
    }
    return same_order ? MPI_IDENT : MPI_SIMILAR;
}
