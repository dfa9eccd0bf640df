/* Intracommunicator construction: dup, create, create_group, split. Each
 * new communicator takes the lowest context pair free on all its members
 * (comm/exchange.c); intercommunicators go to comm/intercomm.c. */
#include "comm/comm.h"
#include "coll/table.h"
#include "core/attr.h"
#include "core/errhandler.h"
#include "core/group.h"
#include "core/info.h"
#include "core/topo.h"
#include <stdlib.h>
#include <string.h>

/* A communicator over group g (this process is in it) on context pair. */
static int make_comm(dmpi_comm_t *parent, dmpi_group_t *g, int pair, dmpi_comm_t **out)
{
    int err = dmpi_comm_make(parent, g, pair, false, out);
    if (err == MPI_SUCCESS)
        dmpi_coll_comm_init(*out);
    return err;
}

/* The same over a group the caller keeps (its own reference is taken). */
static int make_comm_over(dmpi_comm_t *parent, dmpi_group_t *g, int pair, dmpi_comm_t **out)
{
    dmpi_group_retain(g);
    int err = make_comm(parent, g, pair, out);
    if (err != MPI_SUCCESS)
        dmpi_group_release(g);
    return err;
}

static int dup_intra(dmpi_comm_t *c, dmpi_comm_t **out)
{
    int pair, err = dmpi_comm_agree_pair(c, &pair);
    return err != MPI_SUCCESS ? err : make_comm_over(c, c->group, pair, out);
}

int dmpi_comm_dup(dmpi_comm_t *c, dmpi_comm_t **out)
{
    int err = dmpi_comm_is_inter(c) ? dmpi_intercomm_dup(c, out) : dup_intra(c, out);
    if (err != MPI_SUCCESS)
        return err;
    return dmpi_comm_dup_extras(c, out);
}

/* Hidden: no handle for the user to find, nor for MPI_Finalize to sweep;
 * the object that owns it frees it. Its errors are its owner's to raise,
 * so its own handler only returns them. */
int dmpi_comm_dup_plain(dmpi_comm_t *c, dmpi_comm_t **out)
{
    int pair, err = dmpi_comm_agree_pair(c, &pair);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_group_retain(c->group);
    if ((err = dmpi_comm_make(c, c->group, pair, true, out)) != MPI_SUCCESS) {
        dmpi_group_release(c->group);
        return err;
    }
    dmpi_errhandler_release((*out)->errhandler);
    (*out)->errhandler = MPI_ERRORS_RETURN;
    strcpy((*out)->name, "the private communicator of a window");
    dmpi_coll_comm_init(*out);
    return MPI_SUCCESS;
}

/* What MPI_Comm_dup copies besides the group: hints, topology, attributes
 * (copy callbacks). On failure *out is freed and set to NULL. */
int dmpi_comm_dup_extras(dmpi_comm_t *c, dmpi_comm_t **out)
{
    int err = MPI_SUCCESS;
    if (c->hints && !((*out)->hints = dmpi_info_copy(c->hints)))
        err = dmpi_err(MPI_ERR_NO_MEM, "MPI_Comm_dup: out of memory for the info hints");
    if (c->topo && !((*out)->topo = dmpi_topo_copy(c->topo)))
        err = dmpi_err(MPI_ERR_NO_MEM, "MPI_Comm_dup: out of memory for the topology");
    if (err != MPI_SUCCESS || (err = dmpi_attr_copy_all(c, *out)) != MPI_SUCCESS) {
        dmpi_attr_delete_all(*out);
        dmpi_comm_free(*out);
        *out = NULL;
    }
    return err;
}

/* Create: every rank of c calls, those in g get the communicator. */
int dmpi_comm_create(dmpi_comm_t *c, dmpi_group_t *g, dmpi_comm_t **out)
{
    if (dmpi_comm_is_inter(c))
        return dmpi_intercomm_create_sub(c, g, out);
    int pair, err = dmpi_comm_agree_pair(c, &pair);
    *out = NULL;
    if (err != MPI_SUCCESS || g->rank == MPI_UNDEFINED)
        return err;
    return make_comm_over(c, g, pair, out);
}

/* Create_group: only the ranks of g call; they agree among themselves, on
 * a temporary communicator over g that uses c's collective context with the
 * user's tag (so that create_group calls on overlapping groups with
 * different tags never meet). */
int dmpi_comm_create_group(dmpi_comm_t *c, dmpi_group_t *g, int tag, dmpi_comm_t **out)
{
    *out = NULL;
    for (int i = 0; i < g->size; i++)
        if (dmpi_group_rank_of_world(c->group, g->world[i]) == MPI_UNDEFINED)
            return dmpi_err(MPI_ERR_GROUP, "MPI_Comm_create_group: the group is not a subgroup of the communicator");
    dmpi_comm_t t = *c;
    t.rank = g->rank;
    t.size = t.peer_size = g->size;
    t.world_of = t.peer_world_of = g->world;
    t.group = g;
    t.coll_tag = tag;
    t.topo = NULL;
    t.seq_out = NULL;               /* its ranks number g, not c: see dmpi_comm_t */
    t.layout = NULL;                /* and so does its node layout */
    int pair, err = dmpi_comm_agree_pair(&t, &pair);
    return err != MPI_SUCCESS ? err : make_comm_over(c, g, pair, out);
}

struct split_entry { int key, rank, world; };

static int by_key_then_rank(const void *a, const void *b)
{
    const struct split_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

int dmpi_comm_split(dmpi_comm_t *c, int color, int key, dmpi_comm_t **out)
{
    if (dmpi_comm_is_inter(c))
        return dmpi_intercomm_split(c, color, key, out);
    *out = NULL;
    int mine[2] = {color, key}, n = c->size, pair;
    int *all = malloc((size_t)n * 2 * sizeof(int)), *members = malloc((size_t)n * sizeof(int));
    struct split_entry *e = malloc((size_t)n * sizeof *e);
    int err = all && e && members ? MPI_SUCCESS : dmpi_err(MPI_ERR_NO_MEM, "out of memory in MPI_Comm_split");
    if (err == MPI_SUCCESS)
        err = dmpi_comm_allgather_ints(c, mine, 2, all);
    /* Every rank agrees on one pair: the new communicators are disjoint. */
    if (err == MPI_SUCCESS)
        err = dmpi_comm_agree_pair(c, &pair);
    dmpi_group_t *g = NULL;
    if (err == MPI_SUCCESS && color != MPI_UNDEFINED) {
        int m = 0;
        for (int r = 0; r < n; r++)
            if (all[2 * r] == color)
                e[m++] = (struct split_entry){all[2 * r + 1], r, dmpi_comm_world_rank(c, r)};
        qsort(e, (size_t)m, sizeof *e, by_key_then_rank);
        for (int i = 0; i < m; i++)
            members[i] = e[i].world;
        if (!(g = dmpi_group_new(members, m)))
            err = dmpi_err(MPI_ERR_NO_MEM, "out of memory in MPI_Comm_split");
        else if ((err = make_comm(c, g, pair, out)) != MPI_SUCCESS)
            dmpi_group_release(g);
    }
    free(all);
    free(e);
    free(members);
    return err;
}

