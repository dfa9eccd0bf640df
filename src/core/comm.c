/* Communicators: the two predefined ones, and those users create. User
 * communicators have MPICH-style direct handles 0x84000000 | index. */
#include "core/dmpi.h"
#include "core/attr.h"
#include "core/ctxid.h"
#include "core/errhandler.h"
#include "core/group.h"
#include "core/info.h"
#include "core/objtable.h"
#include "core/topo.h"
#include "coll/coll.h"
#include <stdlib.h>
#include <string.h>

dmpi_comm_t dmpi_comm_world_obj;
#define comm_world dmpi_comm_world_obj
static dmpi_comm_t comm_self;
static dmpi_objtable_t comms = {.base = 0x84000000u};

dmpi_comm_t *dmpi_comm_get_slow(MPI_Comm h)
{
    if (h == MPI_COMM_WORLD)
        return comm_world.refcount ? &comm_world : NULL;
    if (h == MPI_COMM_SELF)
        return comm_self.refcount ? &comm_self : NULL;
    return dmpi_obj_get(&comms, (uint32_t)h);
}

static void init_builtin(dmpi_comm_t *c, MPI_Comm h, int pair, dmpi_group_t *g, const char *name)
{
    *c = (dmpi_comm_t){.handle = h, .ctx = 2u * (uint32_t)pair, .rank = g->rank, .size = g->size,
                       .world_of = g->world, .peer_size = g->size, .peer_world_of = g->world,
                       .errhandler = MPI_ERRORS_ARE_FATAL, .refcount = 1, .group = g};
    strcpy(c->name, name);
}

int dmpi_comm_init_builtins(void)
{
    int *all = malloc((size_t)dmpi_world.size * sizeof(int));
    if (!all)
        return -1;
    for (int i = 0; i < dmpi_world.size; i++)
        all[i] = i;
    dmpi_group_t *gw = dmpi_group_new(all, dmpi_world.size), *gs = dmpi_group_new(&dmpi_world.rank, 1);
    free(all);
    if (!gw || !gs)
        return -1;
    dmpi_ctx_init();
    init_builtin(&comm_world, MPI_COMM_WORLD, 0, gw, "MPI_COMM_WORLD");
    comm_world.world_of = comm_world.peer_world_of = NULL;   /* identity: the fast path needs no lookup */
    init_builtin(&comm_self, MPI_COMM_SELF, 1, gs, "MPI_COMM_SELF");
    return 0;
}

static void destroy(dmpi_comm_t *c)
{
    dmpi_info_drop(c->hints);
    c->hints = NULL;
    dmpi_topo_free(c->topo);
    c->topo = NULL;
    while (c->attrs) {              /* left over at MPI_Finalize: no callbacks then */
        dmpi_attr_t *a = c->attrs;
        c->attrs = a->next;
        free(a);
    }
    dmpi_errhandler_release(c->errhandler);
    dmpi_group_release(c->group);
    if (c->remote_group)
        dmpi_group_release(c->remote_group);
    if (c->local_comm) {            /* an intercommunicator's private side */
        dmpi_ctx_release((int)(c->local_comm->ctx / 2));
        destroy(c->local_comm);
        free(c->local_comm);
    }
    c->refcount = 0;
}

void dmpi_comm_finalize(void)
{
    for (int i = 0; i < comms.cap; i++)
        if (comms.slot[i]) {
            dmpi_comm_t *c = comms.slot[i];
            dmpi_ctx_release((int)(c->ctx / 2));
            destroy(c);
            free(c);
        }
    dmpi_obj_clear(&comms);
    destroy(&comm_world);
    destroy(&comm_self);
}

/* ---- creation ------------------------------------------------------------ */

/* The lowest context pair free on every one of `members` (ranks in c). */
static int agree_pair(dmpi_comm_t *c, const int *members, int n, int me, int tag, int *pair)
{
    uint32_t mask[DMPI_CTX_WORDS];
    dmpi_ctx_free_mask(mask);
    int err = dmpi_coll_band(c, members, n, me, tag, mask, DMPI_CTX_WORDS);
    if (err != MPI_SUCCESS)
        return err;
    if ((*pair = dmpi_ctx_lowest(mask)) < 0)
        return dmpi_err(MPI_ERR_OTHER, "all %d communicator context ids are in use; free some communicators",
                        DMPI_CTX_PAIRS);
    return MPI_SUCCESS;
}

int dmpi_comm_make(dmpi_comm_t *parent, dmpi_group_t *g, int pair, bool hidden, dmpi_comm_t **out)
{
    dmpi_comm_t *c = malloc(sizeof *c);
    if (!c)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a communicator");
    *c = (dmpi_comm_t){.ctx = 2u * (uint32_t)pair, .rank = g->rank, .size = g->size, .world_of = g->world,
                       .peer_size = g->size, .peer_world_of = g->world, .errhandler = parent->errhandler,
                       .refcount = 1, .group = g};
    uint32_t h = hidden ? (uint32_t)MPI_COMM_NULL : dmpi_obj_add(&comms, c);
    if (!h) {
        free(c);
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for communicator handles");
    }
    c->handle = (MPI_Comm)h;
    dmpi_errhandler_retain(c->errhandler);
    dmpi_ctx_take(pair);
    *out = c;
    return MPI_SUCCESS;
}

/* A communicator over group g (this process is in it) on context pair. */
static int make_comm(dmpi_comm_t *parent, dmpi_group_t *g, int pair, dmpi_comm_t **out)
{
    return dmpi_comm_make(parent, g, pair, false, out);
}

/* Every rank of c takes part in agreeing on the pair. */
static int all_members(dmpi_comm_t *c, int **members)
{
    if (!(*members = malloc((size_t)c->size * sizeof(int))))
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory creating a communicator");
    for (int i = 0; i < c->size; i++)
        (*members)[i] = i;
    return MPI_SUCCESS;
}

static int dup_intra(dmpi_comm_t *c, dmpi_comm_t **out)
{
    int *members, pair, err = all_members(c, &members);
    if (err == MPI_SUCCESS)
        err = agree_pair(c, members, c->size, c->rank, DMPI_TAG_CTXID, &pair);
    free(members);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_group_retain(c->group);
    if ((err = make_comm(c, c->group, pair, out)) != MPI_SUCCESS)
        dmpi_group_release(c->group);
    return err;
}

int dmpi_comm_dup(dmpi_comm_t *c, dmpi_comm_t **out)
{
    int err = dmpi_comm_is_inter(c) ? dmpi_intercomm_dup(c, out) : dup_intra(c, out);
    if (err != MPI_SUCCESS)
        return err;
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
    int *members, pair, err = all_members(c, &members);
    if (err == MPI_SUCCESS)
        err = agree_pair(c, members, c->size, c->rank, DMPI_TAG_CTXID, &pair);
    free(members);
    *out = NULL;
    if (err != MPI_SUCCESS || g->rank == MPI_UNDEFINED)
        return err;
    dmpi_group_retain(g);
    if ((err = make_comm(c, g, pair, out)) != MPI_SUCCESS)
        dmpi_group_release(g);
    return err;
}

/* Create_group: only the ranks of g call; they agree among themselves. */
int dmpi_comm_create_group(dmpi_comm_t *c, dmpi_group_t *g, int tag, dmpi_comm_t **out)
{
    *out = NULL;
    int *members = malloc((size_t)(g->size ? g->size : 1) * sizeof(int)), pair, err = MPI_SUCCESS;
    if (!members)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory creating a communicator");
    for (int i = 0; i < g->size && err == MPI_SUCCESS; i++) {
        /* c's group lists its ranks in comm order, so this is the rank in c */
        members[i] = dmpi_group_rank_of_world(c->group, g->world[i]);
        if (members[i] == MPI_UNDEFINED)
            err = dmpi_err(MPI_ERR_GROUP, "MPI_Comm_create_group: the group is not a subgroup of the communicator");
    }
    if (err == MPI_SUCCESS)
        err = agree_pair(c, members, g->size, g->rank, tag, &pair);
    free(members);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_group_retain(g);
    if ((err = make_comm(c, g, pair, out)) != MPI_SUCCESS)
        dmpi_group_release(g);
    return err;
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
    int *all = malloc((size_t)n * 2 * sizeof(int)), *members = NULL;
    struct split_entry *e = malloc((size_t)n * sizeof *e);
    int err = all && e ? MPI_SUCCESS : dmpi_err(MPI_ERR_NO_MEM, "out of memory in MPI_Comm_split");
    if (err == MPI_SUCCESS)
        err = dmpi_coll_allgather_ints(c, mine, 2, all);
    if (err == MPI_SUCCESS)
        err = all_members(c, &members);
    /* Every rank agrees on one pair: the new communicators are disjoint. */
    if (err == MPI_SUCCESS)
        err = agree_pair(c, members, n, c->rank, DMPI_TAG_CTXID, &pair);
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

int dmpi_comm_free(dmpi_comm_t *c)
{
    int err = dmpi_attr_delete_all(c);     /* delete callbacks run first */
    if (err != MPI_SUCCESS)
        return err;
    dmpi_obj_remove(&comms, (uint32_t)c->handle);
    dmpi_ctx_release((int)(c->ctx / 2));
    destroy(c);
    free(c);
    return MPI_SUCCESS;
}

int dmpi_comm_compare(const dmpi_comm_t *a, const dmpi_comm_t *b)
{
    if (a == b)
        return MPI_IDENT;
    if (dmpi_comm_is_inter(a) != dmpi_comm_is_inter(b))
        return MPI_UNEQUAL;
    /* Different communicators over the same group in the same order are
     * congruent; intercommunicators compare both their groups. */
    int g = dmpi_group_compare(a->group, b->group);
    if (dmpi_comm_is_inter(a)) {
        int r = dmpi_group_compare(a->remote_group, b->remote_group);
        g = g == MPI_UNEQUAL || r == MPI_UNEQUAL ? MPI_UNEQUAL : g == MPI_IDENT && r == MPI_IDENT ? MPI_IDENT
                                                                                                    : MPI_SIMILAR;
    }
    return g == MPI_IDENT ? MPI_CONGRUENT : g;
}
