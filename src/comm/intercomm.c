/* Intercommunicators: a local and a disjoint remote group; point-to-point
 * ranks name the remote group (the peer_* fields of the communicator).
 *
 * Creation, merge and the intercommunicator forms of dup, split and create
 * all make one exchange (agree() below): each group ANDs its masks of free
 * context pairs over its own intracommunicator, the two leaders swap their
 * group's mask and whatever else the call needs, and each leader broadcasts
 * the result in its group. The intercommunicator takes the lowest pair free
 * on both groups; its private local intracommunicator (merge, and later the
 * intercommunicator collectives) takes the next pair free on the local group. */
#include "comm/comm.h"
#include "core/ctxid.h"
#include "core/group.h"
#include "coll/coll.h"
#include "coll/table.h"
#include "p2p/p2p.h"
#include "tport/tport.h"
#include <stdlib.h>
#include <string.h>

/* How the two leaders reach each other: rank peer of comm, on comm's
 * collective context (never matching a user receive) with tag; or, between
 * jobs (comm/dynamic.c), a socket fd. */
typedef struct bridge {
    dmpi_comm_t *comm;
    int peer, tag;
    int fd;                          /* >= 0: the socket */
} bridge_t;

/* What every process of both groups knows after agree(). */
typedef struct agreement {
    uint32_t mine[DMPI_CTX_WORDS];   /* pairs free on every process of the local group */
    uint32_t both[DMPI_CTX_WORDS];   /* pairs free on every process of both groups */
    uint32_t *remote;                /* the remote group's extra words (malloc'd) */
    int nremote;
} agreement_t;

/* The leaders swap word arrays of any length (a length, then the words). */
/* Over a socket: both leaders write, then read (a length, then the words). */
static int swap_fd(const bridge_t *b, const uint32_t *out, int nout, uint32_t **in, int *nin)
{
    const char *what = "the other leader's group";
    int err = dmpi_fd_write(b->fd, &nout, sizeof nout, what);
    if (err == MPI_SUCCESS)
        err = dmpi_fd_write(b->fd, out, (size_t)nout * sizeof *out, what);
    if (err == MPI_SUCCESS)
        err = dmpi_fd_read(b->fd, nin, sizeof *nin, what);
    *in = NULL;
    if (err == MPI_SUCCESS &&
        (*nin < 0 || *nin > (1 << 26) || !(*in = malloc((size_t)(*nin ? *nin : 1) * sizeof **in))))
        err = dmpi_err(MPI_ERR_INTERN, "connecting jobs: %d words from the other leader", *nin);
    if (err == MPI_SUCCESS)
        err = dmpi_fd_read(b->fd, *in, (size_t)*nin * sizeof **in, what);
    if (err != MPI_SUCCESS) {
        free(*in);
        *in = NULL;
    }
    return err;
}

static int swap(const bridge_t *b, const uint32_t *out, int nout, uint32_t **in, int *nin)
{
    if (b->fd >= 0)
        return swap_fd(b, out, nout, in, nin);
    dmpi_comm_t v = dmpi_coll_view(b->comm);
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    dmpi_request_t *sent[2] = {NULL, NULL};
    int words = (int)sizeof *out;
    *in = NULL;
    int err = dmpi_isend(&nout, (int)sizeof nout, byte, b->peer, b->tag, &v, DMPI_MODE_STANDARD, &sent[0]);
    if (err == MPI_SUCCESS)
        err = dmpi_isend(out, nout * words, byte, b->peer, b->tag, &v, DMPI_MODE_STANDARD, &sent[1]);
    if (err == MPI_SUCCESS)
        err = dmpi_recv(nin, (int)sizeof *nin, byte, b->peer, b->tag, &v, MPI_STATUS_IGNORE);
    if (err == MPI_SUCCESS && (*nin < 0 || !(*in = malloc((size_t)(*nin ? *nin : 1) * sizeof **in))))
        err = dmpi_err(MPI_ERR_NO_MEM, "out of memory creating an intercommunicator (%d words)", *nin);
    if (err == MPI_SUCCESS)
        err = dmpi_recv(*in, *nin * words, byte, b->peer, b->tag, &v, MPI_STATUS_IGNORE);
    for (int i = 0; i < 2; i++)     /* the sends use v: they end here */
        if (sent[i]) {
            int e = dmpi_wait(sent[i], NULL, MPI_STATUS_IGNORE);
            err = err == MPI_SUCCESS ? e : err;
        }
    if (err != MPI_SUCCESS) {
        free(*in);
        *in = NULL;
    }
    return err;
}

/* The exchange every construction makes (see the top of the file). Every
 * process of lc calls; the leader (lc rank `leader`) also passes the bridge
 * and its verdict on its own arguments, leader_err: an error there stops the
 * whole local group with that error's class (the remote group is not told,
 * as the bridge may be what is wrong). */
static int agree(const char *fn, dmpi_comm_t *lc, int leader, const bridge_t *b, int leader_err,
                 const uint32_t *extra, int nextra, agreement_t *a)
{
    a->remote = NULL;
    a->nremote = 0;
    dmpi_ctx_free_mask(a->mine);
    int err = dmpi_comm_and_words(lc, a->mine, DMPI_CTX_WORDS);
    if (err != MPI_SUCCESS)
        return err;

    uint32_t head[2] = {0, 0}, *out = NULL, *in = NULL;   /* head: error class, remote extra words */
    int nin = 0;
    if (lc->rank == leader) {
        err = leader_err;
        if (err == MPI_SUCCESS && !(out = malloc((size_t)(DMPI_CTX_WORDS + nextra) * sizeof *out)))
            err = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        if (err == MPI_SUCCESS) {
            memcpy(out, a->mine, sizeof a->mine);
            if (nextra)
                memcpy(out + DMPI_CTX_WORDS, extra, (size_t)nextra * sizeof *out);
            err = swap(b, out, DMPI_CTX_WORDS + nextra, &in, &nin);
        }
        if (err == MPI_SUCCESS && nin < DMPI_CTX_WORDS)
            err = dmpi_err(MPI_ERR_INTERN, "%s: the remote leader sent %d words, too few", fn, nin);
        free(out);
        int cls = err == MPI_SUCCESS ? 0 : dmpi_err_class_of(err);
        head[0] = (uint32_t)(cls > 0 ? cls : MPI_ERR_OTHER) * (err != MPI_SUCCESS);
        head[1] = err == MPI_SUCCESS ? (uint32_t)(nin - DMPI_CTX_WORDS) : 0;
    }
    int e = dmpi_comm_bcast_words(lc, leader, head, 2);
    if (e != MPI_SUCCESS || head[0]) {
        free(in);
        if (e != MPI_SUCCESS)
            return e;
        if (lc->rank == leader)
            return err;
        return dmpi_err((int)head[0], "%s: the local leader (rank %d) failed; its error message says why", fn,
                        leader);
    }

    a->nremote = (int)head[1];
    uint32_t *body = malloc((size_t)(DMPI_CTX_WORDS + a->nremote) * sizeof *body);
    if (!body) {                    /* the broadcast cannot go on without this process */
        free(in);
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    if (lc->rank == leader) {
        for (int i = 0; i < DMPI_CTX_WORDS; i++)
            body[i] = a->mine[i] & in[i];
        memcpy(body + DMPI_CTX_WORDS, in + DMPI_CTX_WORDS, (size_t)a->nremote * sizeof *body);
        free(in);
    }
    if ((err = dmpi_comm_bcast_words(lc, leader, body, DMPI_CTX_WORDS + a->nremote)) != MPI_SUCCESS) {
        free(body);
        return err;
    }
    memcpy(a->both, body, sizeof a->both);
    memmove(body, body + DMPI_CTX_WORDS, (size_t)a->nremote * sizeof *body);
    a->remote = body;
    return MPI_SUCCESS;
}

/* The lowest pair free on both groups, and (if local_pair) the next one
 * free on the local group. Every process of a group computes the same. */
static int choose_pairs(const char *fn, const agreement_t *a, int *pair, int *local_pair)
{
    uint32_t m[DMPI_CTX_WORDS];
    if ((*pair = dmpi_ctx_lowest(a->both)) >= 0 && local_pair) {
        memcpy(m, a->mine, sizeof m);
        m[*pair / 32] &= ~(1u << (*pair % 32));
        *local_pair = dmpi_ctx_lowest(m);
    }
    if (*pair < 0 || (local_pair && *local_pair < 0))
        return dmpi_err(MPI_ERR_OTHER, "%s: all %d communicator context ids are in use; free some communicators",
                        fn, DMPI_CTX_PAIRS);
    return MPI_SUCCESS;
}

/* An intercommunicator over lg (with this process) and rg, taking over the
 * caller's references to both, with its private local intracommunicator. */
static int make_inter(dmpi_comm_t *parent, dmpi_group_t *lg, dmpi_group_t *rg, int pair, int local_pair,
                      dmpi_comm_t **out)
{
    dmpi_comm_t *ic;
    int err = dmpi_comm_make(parent, lg, pair, false, &ic);
    if (err != MPI_SUCCESS) {
        dmpi_group_release(lg);
        dmpi_group_release(rg);
        return err;
    }
    ic->remote_group = rg;
    if ((err = dmpi_comm_set_peers(ic, rg->size, rg->world)) != MPI_SUCCESS) {
        dmpi_comm_free(ic);
        return err;
    }
    dmpi_group_retain(lg);
    if ((err = dmpi_comm_make(parent, lg, local_pair, true, &ic->local_comm)) != MPI_SUCCESS) {
        dmpi_group_release(lg);
        dmpi_comm_free(ic);
        return err;
    }
    strcpy(ic->local_comm->name, "the local group of an intercommunicator");
    dmpi_coll_comm_init(ic->local_comm);
    dmpi_coll_comm_init(ic);
    *out = ic;
    return MPI_SUCCESS;
}

/* The leaders of an existing intercommunicator: local rank 0 on each side,
 * talking over its collective context. */
static bridge_t inter_bridge(dmpi_comm_t *ic)
{
    return (bridge_t){.comm = ic, .peer = 0, .tag = DMPI_TAG_CTXID, .fd = -1};
}

/* Groups travel between leaders as process names (tport.h): process
 * numbers differ between jobs. */
static uint32_t *names_of(const dmpi_group_t *g)
{
    uint32_t *w = malloc((size_t)(g->size ? g->size : 1) * DMPI_PROC_NAME_WORDS * sizeof *w);
    for (int i = 0; w && i < g->size; i++)
        dmpi_tport_proc_name(g->world[i], w + (size_t)i * DMPI_PROC_NAME_WORDS);
    return w;
}

/* The remote names back to process numbers, in place: remote[i] for i < n. */
static int numbers_of(const char *fn, uint32_t *remote, int nwords, int *n)
{
    if (nwords % DMPI_PROC_NAME_WORDS)
        return dmpi_err(MPI_ERR_INTERN, "%s: the remote leader sent %d words of process names", fn, nwords);
    *n = nwords / DMPI_PROC_NAME_WORDS;
    for (int i = 0; i < *n; i++) {
        int p = dmpi_tport_proc_named(remote + (size_t)i * DMPI_PROC_NAME_WORDS);
        if (p < 0)
            return dmpi_err(MPI_ERR_COMM, "%s: remote process %d is of a job this process has not connected with",
                            fn, i);
        remote[i] = (uint32_t)p;
    }
    return MPI_SUCCESS;
}

/* ---- MPI_Intercomm_create --------------------------------------------- */

/* The remote group's world ranks must be valid and none in lg. */
static int check_disjoint(const char *fn, const dmpi_group_t *lg, const uint32_t *remote, int n)
{
    char *seen = calloc((size_t)dmpi_tport_nprocs, 1);
    int err = seen ? MPI_SUCCESS : dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    for (int i = 0; err == MPI_SUCCESS && i < lg->size; i++)
        seen[lg->world[i]] = 1;
    for (int i = 0; err == MPI_SUCCESS && i < n; i++) {
        if (remote[i] >= (uint32_t)dmpi_tport_nprocs)
            err = dmpi_err(MPI_ERR_INTERN, "%s: the remote leader sent process %u", fn, remote[i]);
        else if (seen[remote[i]])
            err = dmpi_err(MPI_ERR_COMM, "%s: the local and remote groups overlap (process %u is in both)",
                           fn, remote[i]);
    }
    free(seen);
    return err;
}

int dmpi_intercomm_create(dmpi_comm_t *local, int local_leader, dmpi_comm_t *peer, int remote_leader, int tag,
                          int leader_err, dmpi_comm_t **out)
{
    const char *fn = "MPI_Intercomm_create";
    *out = NULL;
    dmpi_group_t *lg = local->group;
    bridge_t b = {.comm = peer, .peer = remote_leader, .tag = tag, .fd = -1};
    /* A remote leader inside the local group would wait for itself. */
    if (local->rank == local_leader && leader_err == MPI_SUCCESS &&
        dmpi_group_rank_of_world(lg, dmpi_comm_peer_world(peer, remote_leader)) != MPI_UNDEFINED)
        leader_err = dmpi_err(MPI_ERR_COMM, "%s: remote_leader %d of %s is in the local group", fn,
                              remote_leader, peer->name[0] ? peer->name : "peer_comm");
    agreement_t a;
    uint32_t *names = names_of(lg);
    if (!names)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    int n = 0, pair, local_pair, err = agree(fn, local, local_leader, &b, leader_err, names,
                                             lg->size * DMPI_PROC_NAME_WORDS, &a);
    free(names);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_group_t *rg = NULL;
    if ((err = numbers_of(fn, a.remote, a.nremote, &n)) == MPI_SUCCESS &&
        (err = check_disjoint(fn, lg, a.remote, n)) == MPI_SUCCESS &&
        (err = choose_pairs(fn, &a, &pair, &local_pair)) == MPI_SUCCESS &&
        !(rg = dmpi_group_new((const int *)a.remote, n)))
        err = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the remote group", fn);
    free(a.remote);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_group_retain(lg);
    return make_inter(local, lg, rg, pair, local_pair, out);
}

/* ---- MPI_Intercomm_merge ---------------------------------------------- */

int dmpi_intercomm_merge(dmpi_comm_t *ic, bool high, dmpi_comm_t **out)
{
    const char *fn = "MPI_Intercomm_merge";
    *out = NULL;
    bridge_t b = inter_bridge(ic);
    uint32_t mine = high;
    agreement_t a;
    int pair, err = agree(fn, ic->local_comm, 0, &b, MPI_SUCCESS, &mine, 1, &a);
    if (err != MPI_SUCCESS)
        return err;
    bool remote_high = a.nremote == 1 && a.remote[0];
    free(a.remote);
    if ((err = choose_pairs(fn, &a, &pair, NULL)) != MPI_SUCCESS)
        return err;
    /* high = false goes first; on a tie, the group whose leader has the
     * lower world rank (both sides see the same). */
    const dmpi_group_t *lg = ic->group, *rg = ic->remote_group;
    bool local_first = high != remote_high ? !high : dmpi_tport_proc_before(lg->world[0], rg->world[0]);
    const dmpi_group_t *first = local_first ? lg : rg, *second = local_first ? rg : lg;
    int n = lg->size + rg->size, *w = malloc((size_t)n * sizeof(int));
    dmpi_group_t *g = NULL;
    if (w) {
        memcpy(w, first->world, (size_t)first->size * sizeof(int));
        memcpy(w + first->size, second->world, (size_t)second->size * sizeof(int));
        g = dmpi_group_new(w, n);
        free(w);
    }
    if (!g)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the merged group", fn);
    err = dmpi_comm_make(ic, g, pair, false, out);
    if (err == MPI_SUCCESS)
        dmpi_coll_comm_init(*out);
    return err;
}

/* ---- dup, split and create of an intercommunicator -------------------- */

int dmpi_intercomm_dup(dmpi_comm_t *ic, dmpi_comm_t **out)
{
    const char *fn = "MPI_Comm_dup";
    *out = NULL;
    bridge_t b = inter_bridge(ic);
    agreement_t a;
    int pair, local_pair, err = agree(fn, ic->local_comm, 0, &b, MPI_SUCCESS, NULL, 0, &a);
    if (err != MPI_SUCCESS)
        return err;
    free(a.remote);
    if ((err = choose_pairs(fn, &a, &pair, &local_pair)) != MPI_SUCCESS)
        return err;
    dmpi_group_retain(ic->group);
    dmpi_group_retain(ic->remote_group);
    return make_inter(ic, ic->group, ic->remote_group, pair, local_pair, out);
}

struct keyed { int key, rank, world; };

static int by_key_then_rank(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* The group of the processes of g whose (colour, key) in table has colour
 * color, ordered by key then rank; NULL (and *err set only on failure) if none. */
static dmpi_group_t *group_of_color(const char *fn, const dmpi_group_t *g, const int *table, int color, int *err)
{
    struct keyed *e = malloc((size_t)g->size * sizeof *e);
    int *w = malloc((size_t)g->size * sizeof *w), m = 0;
    dmpi_group_t *out = NULL;
    if (e && w) {
        for (int r = 0; r < g->size; r++)
            if (table[2 * r] == color)
                e[m++] = (struct keyed){table[2 * r + 1], r, g->world[r]};
        qsort(e, (size_t)m, sizeof *e, by_key_then_rank);
        for (int i = 0; i < m; i++)
            w[i] = e[i].world;
    }
    if (!e || !w || (m > 0 && !(out = dmpi_group_new(w, m))))
        *err = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    free(e);
    free(w);
    return out;
}

int dmpi_intercomm_split(dmpi_comm_t *ic, int color, int key, dmpi_comm_t **out)
{
    const char *fn = "MPI_Comm_split";
    *out = NULL;
    dmpi_comm_t *lc = ic->local_comm;
    int mine[2] = {color, key}, n = lc->size, pair, local_pair;
    int *table = malloc((size_t)n * 2 * sizeof(int));
    if (!table)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    /* every local (colour, key), then the remote group's table from its leader */
    int err = dmpi_comm_allgather_ints(lc, mine, 2, table);
    bridge_t b = inter_bridge(ic);
    agreement_t a = {.remote = NULL};
    if (err == MPI_SUCCESS)
        err = agree(fn, lc, 0, &b, MPI_SUCCESS, (const uint32_t *)table, 2 * n, &a);
    if (err == MPI_SUCCESS && a.nremote != 2 * ic->remote_group->size)
        err = dmpi_err(MPI_ERR_INTERN, "%s: the remote leader sent %d words for %d processes", fn, a.nremote,
                       ic->remote_group->size);
    dmpi_group_t *lg = NULL, *rg = NULL;
    if (err == MPI_SUCCESS && color != MPI_UNDEFINED) {
        lg = group_of_color(fn, ic->group, table, color, &err);
        if (err == MPI_SUCCESS)
            rg = group_of_color(fn, ic->remote_group, (const int *)a.remote, color, &err);
    }
    free(table);
    free(a.remote);
    /* Both sides need processes of the colour; otherwise MPI_COMM_NULL. */
    if (err == MPI_SUCCESS && lg && rg && (err = choose_pairs(fn, &a, &pair, &local_pair)) == MPI_SUCCESS)
        return make_inter(ic, lg, rg, pair, local_pair, out);
    if (lg)
        dmpi_group_release(lg);
    if (rg)
        dmpi_group_release(rg);
    return err;
}

/* MPI_Comm_create on an intercommunicator: g is a subgroup of the local
 * group; the remote side's subgroup comes from its leader. */
int dmpi_intercomm_create_sub(dmpi_comm_t *ic, dmpi_group_t *g, dmpi_comm_t **out)
{
    const char *fn = "MPI_Comm_create";
    *out = NULL;
    bridge_t b = inter_bridge(ic);
    agreement_t a;
    uint32_t *names = names_of(g);
    if (!names)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    int n = 0, pair, local_pair, err = agree(fn, ic->local_comm, 0, &b, MPI_SUCCESS, names,
                                             g->size * DMPI_PROC_NAME_WORDS, &a);
    free(names);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_group_t *rg = NULL;
    /* Empty on either side, or not in g: MPI_COMM_NULL. */
    if ((err = numbers_of(fn, a.remote, a.nremote, &n)) == MPI_SUCCESS && g->rank != MPI_UNDEFINED && n > 0 &&
        (err = choose_pairs(fn, &a, &pair, &local_pair)) == MPI_SUCCESS &&
        !(rg = dmpi_group_new((const int *)a.remote, n)))
        err = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the remote group", fn);
    free(a.remote);
    if (!rg)
        return err;
    dmpi_group_retain(g);
    return make_inter(ic, g, rg, pair, local_pair, out);
}

/* ---- an empty remote group (MPI_Intercomm_create_from_groups) ---------- */

/* No leaders to talk: the local group agrees on both pairs by itself. */
int dmpi_intercomm_alone(dmpi_comm_t *lc, dmpi_comm_t **out)
{
    agreement_t a = {.remote = NULL};
    int pair, local_pair;
    *out = NULL;
    dmpi_ctx_free_mask(a.mine);
    int err = dmpi_comm_and_words(lc, a.mine, DMPI_CTX_WORDS);
    if (err != MPI_SUCCESS)
        return err;
    memcpy(a.both, a.mine, sizeof a.both);
    if ((err = choose_pairs("MPI_Intercomm_create_from_groups", &a, &pair, &local_pair)) != MPI_SUCCESS)
        return err;
    dmpi_group_t *rg = dmpi_group_new(NULL, 0);
    if (!rg)
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Intercomm_create_from_groups: out of memory");
    dmpi_group_retain(lc->group);
    return make_inter(lc, lc->group, rg, pair, local_pair, out);
}

/* ---- between jobs (comm/dynamic.c) ------------------------------------- */

/* Every process of lc gives its id; the leaders swap their groups' ids over
 * fd, and each process finds (or adds) the remote processes' numbers. */
int dmpi_intercomm_over_fd(const char *fn, dmpi_comm_t *lc, int root, int fd, int leader_err, dmpi_comm_t **out)
{
    *out = NULL;
    dmpi_proc_id_t me;
    int n = lc->size, err = MPI_SUCCESS;
    if (dmpi_tport_my_id(&me) != 0)
        memset(&me, 0, sizeof me);         /* the others learn it below */
    dmpi_proc_id_t *ids = malloc((size_t)n * sizeof *ids);
    if (!ids)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if ((err = dmpi_comm_allgather_ints(lc, (const int *)&me, DMPI_PROC_ID_INTS, (int *)ids)) != MPI_SUCCESS) {
        free(ids);
        return err;
    }
    for (int i = 0; i < n && leader_err == MPI_SUCCESS; i++)
        if (!ids[i].port)
            leader_err = dmpi_err(MPI_ERR_OTHER, "%s: rank %d cannot listen for other jobs (see its stderr)", fn, i);
    bridge_t b = {.fd = root == lc->rank ? fd : -1};
    agreement_t a;
    err = agree(fn, lc, root, &b, leader_err, (const uint32_t *)ids, n * DMPI_PROC_ID_INTS, &a);
    free(ids);
    if (err != MPI_SUCCESS)
        return err;
    int m = a.nremote / DMPI_PROC_ID_INTS, pair, local_pair, *procs = malloc((size_t)(m ? m : 1) * sizeof(int));
    const dmpi_proc_id_t *rid = (const dmpi_proc_id_t *)a.remote;
    if (!procs || m < 1 || a.nremote % DMPI_PROC_ID_INTS)
        err = dmpi_err(procs ? MPI_ERR_INTERN : MPI_ERR_NO_MEM, "%s: %d words of remote processes", fn, a.nremote);
    for (int i = 0; err == MPI_SUCCESS && i < m; i++)
        if ((procs[i] = dmpi_tport_proc(&rid[i])) < 0)
            err = dmpi_err(MPI_ERR_OTHER, "%s: cannot reach remote process %d (see above)", fn, i);
    dmpi_group_t *rg = NULL;
    if (err == MPI_SUCCESS && (err = choose_pairs(fn, &a, &pair, &local_pair)) == MPI_SUCCESS &&
        !(rg = dmpi_group_new(procs, m)))
        err = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the remote group", fn);
    free(procs);
    free(a.remote);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_group_t *lg = dmpi_group_new(lc->group->world, lc->size);
    if (!lg) {
        dmpi_group_release(rg);
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the local group", fn);
    }
    return make_inter(lc, lg, rg, pair, local_pair, out);
}
