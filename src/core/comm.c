/* Communicators: the two predefined ones, and those users create. User
 * communicators have MPICH-style direct handles 0x84000000 | index. */
#include "core/dmpi.h"
#include "core/attr.h"
#include "core/ctxid.h"
#include "core/errhandler.h"
#include "core/group.h"
#include "core/info.h"
#include "core/objtable.h"
#include "core/session.h"
#include "core/topo.h"
#include <stdlib.h>
#include <string.h>

dmpi_comm_t dmpi_comm_world_obj;
#define comm_world dmpi_comm_world_obj
static dmpi_comm_t comm_self;
static dmpi_objtable_t comms = {.base = 0x84000000u};
/* Communicators freed by the user while requests or schedules still use
 * them: destroyed when the last reference goes, or at MPI_Finalize. */
static dmpi_objtable_t zombies = {.base = 0x84000000u};

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
                       .errhandler = MPI_ERRORS_ARE_FATAL, .refcount = 1, .group = g, .coll_tag = DMPI_TAG_NONE};
    c->obj = c;
    strcpy(c->name, name);
}

int dmpi_comm_set_peers(dmpi_comm_t *c, int peer_size, const int *peer_world_of)
{
    uint32_t *seq = calloc(2 * (size_t)(peer_size ? peer_size : 1), sizeof *seq);
    if (!seq)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a communicator of %d ranks", peer_size);
    free(c->seq_out);
    c->seq_out = seq;
    c->peer_size = peer_size;
    c->peer_world_of = peer_world_of;
    return MPI_SUCCESS;
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
    comm_world.world_of = NULL;     /* identity: the fast path needs no lookup */
    init_builtin(&comm_self, MPI_COMM_SELF, 1, gs, "MPI_COMM_SELF");
    if (dmpi_comm_set_peers(&comm_world, gw->size, NULL) != MPI_SUCCESS ||
        dmpi_comm_set_peers(&comm_self, 1, gs->world) != MPI_SUCCESS)
        return -1;
    return 0;
}

void (*dmpi_comm_coll_free_hook)(dmpi_comm_t *c);

static void destroy(dmpi_comm_t *c)
{
    if (c->coll_state && dmpi_comm_coll_free_hook)
        dmpi_comm_coll_free_hook(c);
    c->coll_state = NULL;
    free(c->bsend_buf);
    c->bsend_buf = NULL;
    dmpi_session_release(c->session);
    c->session = NULL;
    free(c->layout);
    c->layout = NULL;
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
    free(c->seq_out);
    c->seq_out = NULL;
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

static void destroy_all(dmpi_objtable_t *t)
{
    for (int i = 0; i < t->cap; i++)
        if (t->slot[i]) {
            dmpi_comm_t *c = t->slot[i];
            if (c->ctx != DMPI_CTX_PENDING)
                dmpi_ctx_release((int)(c->ctx / 2));
            destroy(c);
            free(c);
        }
    dmpi_obj_clear(t);
}

void dmpi_comm_finalize(void)
{
    destroy_all(&comms);
    destroy_all(&zombies);
    destroy(&comm_world);
    destroy(&comm_self);
}

int dmpi_comm_make(dmpi_comm_t *parent, dmpi_group_t *g, int pair, bool hidden, dmpi_comm_t **out)
{
    dmpi_comm_t *c = malloc(sizeof *c);
    if (!c)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a communicator");
    *c = (dmpi_comm_t){.ctx = pair >= 0 ? 2u * (uint32_t)pair : DMPI_CTX_PENDING, .rank = g->rank,
                       .size = g->size, .world_of = g->world, .peer_size = g->size, .peer_world_of = g->world,
                       .errhandler = parent->errhandler, .refcount = 1, .group = g, .coll_tag = DMPI_TAG_NONE};
    c->obj = c;
    int err = dmpi_comm_set_peers(c, g->size, g->world);
    if (err != MPI_SUCCESS) {
        free(c);
        return err;
    }
    uint32_t h = hidden ? (uint32_t)MPI_COMM_NULL : dmpi_obj_add(&comms, c);
    if (!h && !hidden) {
        free(c->seq_out);
        free(c);
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for communicator handles");
    }
    c->handle = (MPI_Comm)h;
    dmpi_errhandler_retain(c->errhandler);
    dmpi_comm_set_session(c, parent->obj->session);
    if (pair >= 0)
        dmpi_ctx_take(pair);
    *out = c;
    return MPI_SUCCESS;
}

void dmpi_comm_set_session(dmpi_comm_t *c, struct dmpi_session *s)
{
    dmpi_session_retain(s);
    dmpi_session_release(c->session);
    c->session = s;
}

int dmpi_comm_free(dmpi_comm_t *c)
{
    int err = dmpi_attr_delete_all(c);     /* delete callbacks run first */
    if (err != MPI_SUCCESS)
        return err;
    if (c->handle != MPI_COMM_NULL)
        dmpi_obj_remove(&comms, (uint32_t)c->handle);
    c->handle = MPI_COMM_NULL;
    if (c->refcount > 1) {          /* operations still in flight on it */
        uint32_t z = dmpi_obj_add(&zombies, c);
        if (!z)
            return dmpi_err(MPI_ERR_NO_MEM, "MPI_Comm_free: out of memory");
        c->handle = (MPI_Comm)z;
    }
    dmpi_comm_release(c);
    return MPI_SUCCESS;
}

/* The last reference: its context ids are free again once it is gone. */
void dmpi_comm_destroy_last(dmpi_comm_t *c)
{
    if (c->handle != MPI_COMM_NULL)
        dmpi_obj_remove(&zombies, (uint32_t)c->handle);
    if (c->ctx != DMPI_CTX_PENDING)
        dmpi_ctx_release((int)(c->ctx / 2));
    destroy(c);
    free(c);
}

void dmpi_comm_set_pair(dmpi_comm_t *c, int pair)
{
    dmpi_ctx_take(pair);
    c->ctx = 2u * (uint32_t)pair;
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
