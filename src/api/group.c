/* Groups. */
#include "api/api.h"
#include "core/group.h"
#include <stdlib.h>

DMPI_ALIAS(Group_size)
DMPI_ALIAS(Group_rank)
DMPI_ALIAS(Group_translate_ranks)
DMPI_ALIAS(Group_compare)
DMPI_ALIAS(Group_union)
DMPI_ALIAS(Group_intersection)
DMPI_ALIAS(Group_difference)
DMPI_ALIAS(Group_incl)
DMPI_ALIAS(Group_excl)
DMPI_ALIAS(Group_range_incl)
DMPI_ALIAS(Group_range_excl)
DMPI_ALIAS(Group_free)
DMPI_ALIAS(Comm_group)

static int check_group(const char *fn, MPI_Group h, dmpi_group_t **g)
{
    if ((*g = dmpi_group_get(h)))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_GROUP, "%s: invalid group 0x%x%s", fn, (unsigned)h,
                    h == MPI_GROUP_NULL ? " (MPI_GROUP_NULL)" : "");
}

/* Gives a new group its handle, or frees it. */
static int hand_out(const char *fn, int err, dmpi_group_t *g, MPI_Group *out)
{
    if (err == MPI_SUCCESS && (err = dmpi_group_handle(g, out)) != MPI_SUCCESS)
        dmpi_group_release(g);
    return err == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
}

int PMPI_Group_size(MPI_Group group, int *size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Group_size";
    dmpi_group_t *g;
    int err;
    if ((err = check_group(fn, group, &g)) || (err = dmpi_check_ptr(fn, size, "size")))
        return dmpi_api_error(NULL, fn, err);
    *size = g->size;
    return MPI_SUCCESS;
}

int PMPI_Group_rank(MPI_Group group, int *rank)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Group_rank";
    dmpi_group_t *g;
    int err;
    if ((err = check_group(fn, group, &g)) || (err = dmpi_check_ptr(fn, rank, "rank")))
        return dmpi_api_error(NULL, fn, err);
    *rank = g->rank;
    return MPI_SUCCESS;
}

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Group_translate_ranks";
    dmpi_group_t *a, *b;
    int err;
    if ((err = check_group(fn, group1, &a)) || (err = check_group(fn, group2, &b)) ||
        (err = dmpi_check_count(fn, n)) ||
        (n > 0 && ((err = dmpi_check_ptr(fn, ranks1, "ranks1")) || (err = dmpi_check_ptr(fn, ranks2, "ranks2")))))
        return dmpi_api_error(NULL, fn, err);
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size))
            return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_RANK, "%s: ranks1[%d] = %d is not a rank of a group "
                                                     "of %d", fn, i, ranks1[i], a->size));
    for (int i = 0; i < n; i++)
        ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : dmpi_group_rank_of_world(b, a->world[ranks1[i]]);
    return MPI_SUCCESS;
}

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Group_compare";
    dmpi_group_t *a, *b;
    int err;
    if ((err = check_group(fn, group1, &a)) || (err = check_group(fn, group2, &b)) ||
        (err = dmpi_check_ptr(fn, result, "result")))
        return dmpi_api_error(NULL, fn, err);
    *result = dmpi_group_compare(a, b);
    return MPI_SUCCESS;
}

static int set_op(const char *fn, MPI_Group group1, MPI_Group group2, MPI_Group *newgroup,
                  int (*op)(const dmpi_group_t *, const dmpi_group_t *, dmpi_group_t **))
{
    dmpi_group_t *a, *b, *g = NULL;
    int err;
    if ((err = check_group(fn, group1, &a)) || (err = check_group(fn, group2, &b)) ||
        (err = dmpi_check_ptr(fn, newgroup, "newgroup")))
        return dmpi_api_error(NULL, fn, err);
    err = op(a, b, &g);
    return hand_out(fn, err, g, newgroup);
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    DMPI_API_ENTER;
    return set_op("MPI_Group_union", group1, group2, newgroup, dmpi_group_union);
}

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    DMPI_API_ENTER;
    return set_op("MPI_Group_intersection", group1, group2, newgroup, dmpi_group_intersection);
}

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    DMPI_API_ENTER;
    return set_op("MPI_Group_difference", group1, group2, newgroup, dmpi_group_difference);
}

/* ranks must be valid ranks of g, each at most once. */
static int check_ranks(const char *fn, const dmpi_group_t *g, int n, const int *ranks)
{
    int err;
    if ((err = dmpi_check_count(fn, n)) || (n > 0 && (err = dmpi_check_ptr(fn, ranks, "ranks"))))
        return err;
    if (n > g->size)
        return dmpi_err(MPI_ERR_ARG, "%s: n = %d is larger than the group (%d)", fn, n, g->size);
    char *seen = calloc((size_t)(g->size ? g->size : 1), 1);
    if (!seen)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size)
            err = dmpi_err(MPI_ERR_RANK, "%s: ranks[%d] = %d is not a rank of a group of %d", fn, i, ranks[i], g->size);
        else if (seen[ranks[i]]++)
            err = dmpi_err(MPI_ERR_RANK, "%s: rank %d appears twice in ranks", fn, ranks[i]);
    }
    free(seen);
    return err;
}

static int incl_excl(const char *fn, MPI_Group group, int n, const int *ranks, MPI_Group *newgroup, bool incl)
{
    dmpi_group_t *g, *ng = NULL;
    int err;
    if ((err = check_group(fn, group, &g)) || (err = dmpi_check_ptr(fn, newgroup, "newgroup")) ||
        (err = check_ranks(fn, g, n, ranks)))
        return dmpi_api_error(NULL, fn, err);
    err = incl ? dmpi_group_incl(g, n, ranks, &ng) : dmpi_group_excl(g, n, ranks, &ng);
    return hand_out(fn, err, ng, newgroup);
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    DMPI_API_ENTER;
    return incl_excl("MPI_Group_incl", group, n, ranks, newgroup, true);
}

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    DMPI_API_ENTER;
    return incl_excl("MPI_Group_excl", group, n, ranks, newgroup, false);
}

/* The ranks named by (first, last, stride) triplets; each must be valid. */
static int expand_ranges(const char *fn, const dmpi_group_t *g, int n, int ranges[][3], int **out, int *count)
{
    int err;
    *out = NULL;
    if ((err = dmpi_check_count(fn, n)) || (n > 0 && (err = dmpi_check_ptr(fn, ranges, "ranges"))))
        return err;
    long total = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0)
            return dmpi_err(MPI_ERR_ARG, "%s: ranges[%d] has stride 0", fn, i);
        if (first < 0 || first >= g->size || last < 0 || last >= g->size)
            return dmpi_err(MPI_ERR_RANK, "%s: ranges[%d] = (%d, %d, %d) names ranks outside a group of %d", fn, i,
                            first, last, stride, g->size);
        if ((stride > 0 && first > last) || (stride < 0 && first < last))
            continue;               /* empty range */
        total += (last - first) / stride + 1;
        if (total > g->size)
            return dmpi_err(MPI_ERR_RANK, "%s: the ranges name more ranks than the group has", fn);
    }
    int *r = malloc((size_t)(total ? total : 1) * sizeof(int)), k = 0;
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        for (int x = first; stride > 0 ? x <= last : x >= last; x += stride)
            r[k++] = x;
    }
    *out = r;
    *count = k;
    return MPI_SUCCESS;
}

static int range_incl_excl(const char *fn, MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup, bool incl)
{
    dmpi_group_t *g, *ng = NULL;
    int *ranks = NULL, count = 0, err;
    if ((err = check_group(fn, group, &g)) || (err = dmpi_check_ptr(fn, newgroup, "newgroup")) ||
        (err = expand_ranges(fn, g, n, ranges, &ranks, &count)) || (err = check_ranks(fn, g, count, ranks))) {
        free(ranks);
        return dmpi_api_error(NULL, fn, err);
    }
    err = incl ? dmpi_group_incl(g, count, ranks, &ng) : dmpi_group_excl(g, count, ranks, &ng);
    free(ranks);
    return hand_out(fn, err, ng, newgroup);
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    DMPI_API_ENTER;
    return range_incl_excl("MPI_Group_range_incl", group, n, ranges, newgroup, true);
}

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    DMPI_API_ENTER;
    return range_incl_excl("MPI_Group_range_excl", group, n, ranges, newgroup, false);
}

int PMPI_Group_free(MPI_Group *group)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Group_free";
    dmpi_group_t *g;
    int err;
    if ((err = dmpi_check_ptr(fn, group, "group")) || (err = check_group(fn, *group, &g)))
        return dmpi_api_error(NULL, fn, err);
    dmpi_group_free_handle(g);       /* MPI_GROUP_EMPTY stays valid */
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_group";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) ||
        (err = dmpi_check_ptr(fn, group, "group")))
        return dmpi_api_error(c, fn, err);
    dmpi_group_t *g = dmpi_group_new(c->group->world, c->group->size);
    if (!g)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn));
    dmpi_group_set_session(g, c->obj->session);
    return hand_out(fn, MPI_SUCCESS, g, group);
}
