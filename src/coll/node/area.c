/* A communicator's shared area (layout in node_coll.h): made on the first
 * collective that can use it, by the communicator's rank 0 in a file of its
 * own in /dev/shm that every member maps and that is unlinked as soon as
 * they all have (so nothing stays behind, even after a crash; the launcher
 * removes /dev/shm/dmpi-<job>* as well). The node's collectives together
 * hold at most DMPI_COLL_NODE_BUDGET bytes, counted in the node segment:
 * past it, a communicator keeps the point-to-point algorithms, and says so
 * under DMPI_VERBOSE. Many communicators therefore never exhaust /dev/shm. */
#include "coll/node/node_coll.h"
#include "core/op.h"
#include "core/params.h"
#include "node/node.h"
#include "node/segment.h"
#include "node/topo.h"
#include "pmi/pmi.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static nc_state_t *live;         /* every state, for MPI_Finalize */
static uint32_t serial;          /* areas this process created */

static size_t area_bytes(int n, size_t slot, size_t nbslot)
{
    size_t b = sizeof(nc_area_t) + (size_t)n * (2 * sizeof(nc_rank_t) + slot + nbslot);
    return (b + 4095) & ~(size_t)4095;
}

static void area_name(char *out, size_t len, int leader_world, uint32_t id)
{
    snprintf(out, len, "/dmpi-%s-coll%d-%u", dmpi_pmi_kvsname(), leader_world, id);
}

static bool budget_take(size_t bytes)
{
    _Atomic uint64_t *used = &dmpi_node_seg->coll_bytes;
    uint64_t now = atomic_fetch_add(used, bytes);
    if (now + bytes <= dmpi_params.coll_node_budget)
        return true;
    atomic_fetch_sub(used, bytes);
    return false;
}

static void budget_give(size_t bytes)
{
    if (dmpi_node_seg)
        atomic_fetch_sub(&dmpi_node_seg->coll_bytes, bytes);
}

/* Rank 0: the file, sized and backed (so a full /dev/shm shows now, not as
 * a SIGBUS later), mapped, its header written. NULL after saying why. */
static nc_area_t *create_area(const char *name, int n, size_t slot, size_t nbslot, size_t bytes)
{
    if (!budget_take(bytes)) {
        dmpi_verbose(1, "node collectives: the budget (DMPI_COLL_NODE_BUDGET=%zu) is spent; a communicator of %d "
                        "ranks uses point-to-point collectives", dmpi_params.coll_node_budget, n);
        return NULL;
    }
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    int err = fd < 0 ? errno : fchmod(fd, 0600) != 0 ? errno : 0;
    if (!err)
        err = ftruncate(fd, (off_t)bytes) != 0 ? errno : posix_fallocate(fd, 0, (off_t)bytes);
    void *p = err ? MAP_FAILED : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED && !err)
        err = errno;
    if (fd >= 0)
        close(fd);
    if (err) {
        dmpi_verbose(1, "node collectives: no shared area of %zu bytes for a communicator of %d ranks (%s); it "
                        "uses point-to-point collectives", bytes, n, strerror(err));
        if (fd >= 0)
            shm_unlink(name);
        budget_give(bytes);
        return NULL;
    }
    nc_area_t *a = p;
    a->bytes = bytes;
    a->slot = slot;
    a->nbslot = nbslot;
    a->n = (uint32_t)n;
    atomic_store(&a->refs, (uint32_t)n);
    a->magic = NC_MAGIC;
    return a;
}

static nc_area_t *attach_area(const char *name, size_t bytes)
{
    int fd = shm_open(name, O_RDWR, 0600);
    if (fd < 0)
        return NULL;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return NULL;
    nc_area_t *a = p;
    if (a->magic != NC_MAGIC || a->bytes != bytes) {
        munmap(p, bytes);
        return NULL;
    }
    return a;
}

/* Groups for the two-level barrier: the forced count, or the ranks' memory
 * domains; groups larger than max(8, sqrt n) are cut into pieces, so that
 * no leader waits on more than that many flags. */
static int make_groups(nc_state_t *s)
{
    int n = s->n, forced = dmpi_params.coll_node_groups;
    int *key = malloc((size_t)n * sizeof *key);
    s->group_of = malloc((size_t)n * sizeof *s->group_of);
    s->leader = malloc((size_t)n * sizeof *s->leader);
    s->members = malloc((size_t)n * sizeof *s->members);
    if (!key || !s->group_of || !s->leader || !s->members) {
        free(key);
        return -1;
    }
    bool unknown = false;
    for (int r = 0; r < n; r++) {
        key[r] = forced > 0 ? (int)((long long)r * (forced < n ? forced : n) / n) : nc_rank(s, r)->domain;
        unknown |= key[r] < 0;
    }
    int gmax = 8;
    while ((long long)gmax * gmax < n)
        gmax++;
    s->ngroups = 0;
    for (int r = 0; r < n; r++)
        s->group_of[r] = -1;
    for (int r = 0; r < n; r++) {
        if (s->group_of[r] >= 0)
            continue;
        int size = 0;
        for (int q = r; q < n; q++) {
            if (s->group_of[q] >= 0 || (!unknown && key[q] != key[r]))
                continue;
            if (size == gmax && forced == 0) {   /* the domain goes on in a new group */
                break;
            }
            s->group_of[q] = s->ngroups;
            size++;
        }
        s->leader[s->ngroups++] = r;
    }
    free(key);
    s->nmembers = 0;
    for (int q = 0; q < n; q++)
        if (q != s->me && s->leader[s->group_of[q]] == s->me)
            s->members[s->nmembers++] = q;
    s->group = malloc((size_t)n * sizeof *s->group);
    s->order = malloc((size_t)n * sizeof *s->order);
    if (!s->group || !s->order)
        return -1;
    s->ngroup = 0;
    s->groups_ordered = true;
    for (int q = 0; q < n; q++) {
        s->order[q] = q;
        if (s->group_of[q] == s->group_of[s->me])
            s->group[s->ngroup++] = q;
        if (q > 0 && s->group_of[q] != s->group_of[q - 1] && s->group_of[q] != s->group_of[q - 1] + 1)
            s->groups_ordered = false;
        if (q > 0 && s->group_of[q] < s->group_of[q - 1])
            s->groups_ordered = false;
    }
    return 0;
}

static int peers(nc_state_t *s)
{
    dmpi_comm_t *c = s->comm;
    s->pid = malloc((size_t)s->n * sizeof *s->pid);
    s->local = malloc((size_t)s->n * sizeof *s->local);
    s->cnt = malloc((size_t)s->n * sizeof *s->cnt);
    s->dsp = malloc((size_t)s->n * sizeof *s->dsp);
    if (!s->pid || !s->local || !s->cnt || !s->dsp)
        return -1;
    s->cma_all = true;
    for (int r = 0; r < s->n; r++) {
        int l = dmpi_world.local_of_world[dmpi_comm_world_rank(c, r)];
        s->local[r] = l;
        s->pid[r] = dmpi_node_peers[l].pid;
        if (r != s->me && !dmpi_node_peers[l].cma_ok)
            s->cma_all = false;
    }
    return 0;
}

/* Collective over the communicator, on its first eligible collective call:
 * rank 0 makes the area, a point-to-point broadcast says whether it did,
 * the others map it, and an allreduce agrees whether everybody has it and
 * whether every rank can read every other's memory. */
/* The copy limit of a communicator of n ranks, the same on every rank:
 * COLL_NODE_COPY_MAX, but on large communicators no more than 2 MiB / n
 * (and no less than 8 KiB), so that the area stays under 10 MiB at 256
 * ranks. */
static size_t copy_limit(int n)
{
    size_t cap = ((size_t)2 << 20) / (size_t)n, want = dmpi_params.coll_node_copy_max;
    cap = cap < 8192 ? 8192 : cap;
    return want < cap ? want : cap;
}

/* The ring of the blocking channel: twice the copy limit at least, for
 * two exposures in flight; up to 8 times it, as far as 2 MiB / n allows,
 * so that large reductions and the copy path (a quarter ring a piece)
 * move big pieces, four in flight. When ranks share cores each piece costs
 * a handover: at 4 ranks on 2 cores 64 KiB pieces took 0.7-0.8 of the time
 * of 16 KiB ones for 256 KiB to 1 MiB reduce, scan and exscan. */
static size_t ring_bytes(int n, size_t copy)
{
    size_t most = ((size_t)2 << 20) / (size_t)n, ring = 8 * copy;
    ring = ring < most ? ring : most;
    ring = ring > 2 * copy ? ring : 2 * copy;
    return (ring + 63) & ~(size_t)63;
}

int nc_setup(nc_state_t *s)
{
    dmpi_comm_t *c = s->comm;
    int n = c->size;
    size_t copy = (copy_limit(n) + 63) & ~(size_t)63, nbcopy = (copy / 4 + 63) & ~(size_t)63;
    size_t slot = ring_bytes(n, copy), nbslot = 2 * nbcopy;
    size_t bytes = area_bytes(n, slot, nbslot);
    uint32_t msg[2] = {0, 0};
    char name[300];
    nc_area_t *a = NULL;
    if (c->rank == 0 && (a = create_area((area_name(name, sizeof name, dmpi_world.rank, serial), name), n, slot, nbslot, bytes))) {
        msg[0] = 1;
        msg[1] = serial++;
    }
    int err = s->below->bcast(c, msg, 2, dmpi_dtype_get(MPI_UINT32_T), 0, NULL);
    if (err != MPI_SUCCESS)
        return err;
    if (msg[0] && c->rank != 0) {
        area_name(name, sizeof name, dmpi_comm_world_rank(c, 0), msg[1]);
        a = attach_area(name, bytes);
    }
    s->area = a;
    if (a) {
        s->ranks = (nc_rank_t *)(a + 1);
        s->slots = (char *)(s->ranks + 2 * n);
        s->slot = slot;
        s->copy = copy;
        int forced = dmpi_params.coll_node_groups;
        nc_rank(s, s->me)->domain = forced ? 0 : dmpi_node_domain_of_self();
    }
    uint32_t ok = a && peers(s) == 0 ? 1u : 0u;
    uint32_t flags[2] = {ok, ok && s->cma_all ? 1u : 0u};
    err = s->below->allreduce(c, MPI_IN_PLACE, flags, 2, dmpi_dtype_get(MPI_UINT32_T), dmpi_op_get(MPI_BAND), NULL);
    if (c->rank == 0 && msg[0])
        shm_unlink(name);            /* every rank has mapped it, or given up */
    if (err == MPI_SUCCESS && flags[0] && make_groups(s) != 0)
        dmpi_fatal("node collectives: out of memory for the groups of a communicator of %d ranks", n);
    if (err != MPI_SUCCESS || !flags[0]) {
        if (msg[0] && flags[0] == 0)
            dmpi_verbose(1, "node collectives: a rank could not map the shared area; communicator of %d ranks "
                            "uses point-to-point collectives", n);
        s->status = NC_OFF;
        return err;
    }
    s->cma_all = flags[1];
    if (!(s->nbs = malloc(sizeof *s->nbs)))
        dmpi_fatal("node collectives: out of memory for a communicator of %d ranks", n);
    *s->nbs = *s;                    /* the nonblocking channel: its own lines, slots and phases */
    s->nbs->ranks = s->ranks + n;
    s->nbs->slots = s->slots + (size_t)n * slot;
    s->nbs->slot = nbslot;
    s->nbs->copy = nbcopy;
    s->nbs->t = s->nbs->min_done = s->nbs->finished = 0;
    s->nbs->open = NULL;
    s->nbs->open_lo = UINT64_MAX;
    s->nbs->tmp = s->nbs->xtmp = NULL;
    s->ring_phase = calloc(slot / 64, sizeof *s->ring_phase);
    s->nbs->ring_phase = calloc(nbslot / 64, sizeof *s->nbs->ring_phase);
    if (!s->ring_phase || !s->nbs->ring_phase)
        dmpi_fatal("node collectives: out of memory for a communicator of %d ranks", n);
    s->nbs->tmp_size = s->nbs->xtmp_size = 0;
    s->nbs->nbs = NULL;
    s->nbs->shared = true;
    s->nbs->next = NULL;
    s->status = NC_READY;
    if (c->rank == 0)
        dmpi_verbose(2, "node collectives: communicator of %d ranks, shared area of %zu bytes, %d group(s), %s", n,
                     bytes, s->ngroups, s->cma_all ? "single copy above the copy limit"
                                                   : "no single copy (large contributions go point-to-point)");
    return MPI_SUCCESS;
}

static void state_free(nc_state_t *s)
{
    if (s->nbs) {
        free(s->nbs->ring_phase);
        free(s->nbs->tmp);
        free(s->nbs->xtmp);
        free(s->nbs);
    }
    if (s->area) {
        size_t bytes = s->area->bytes;
        bool last = atomic_fetch_sub(&s->area->refs, 1) == 1;
        munmap(s->area, bytes);
        if (last)
            budget_give(bytes);
    }
    free(s->pid);
    free(s->local);
    free(s->cnt);
    free(s->dsp);
    free(s->group_of);
    free(s->leader);
    free(s->members);
    free(s->group);
    free(s->order);
    free(s->tmp);
    free(s->xtmp);
    free(s->ring_phase);
    for (nc_state_t **p = &live; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    free(s);
}

/* The state of c (made on first use), or NULL: the component does not act
 * on temporary copies of a communicator (views with a tag of their own). */
nc_state_t *nc_state_of(dmpi_comm_t *c, const dmpi_coll_table_t *below)
{
    nc_state_t *s = c->coll_state;
    if (DMPI_LIKELY(s && s->comm == c))
        return s;
    if (s || c->coll_tag != DMPI_TAG_NONE || c->obj != c)
        return NULL;
    if (!(s = calloc(1, sizeof *s)))
        return NULL;
    s->comm = c;
    s->below = below;
    s->open_lo = UINT64_MAX;
    s->n = c->size;
    s->me = c->rank;
    s->next = live;
    live = s;
    c->coll_state = s;
    return s;
}

void nc_free(dmpi_comm_t *c)
{
    nc_state_t *s = c->coll_state;
    c->coll_state = NULL;
    if (s && s->comm == c)
        state_free(s);
}

/* Before the node segment goes (MPI_Finalize): every area still mapped. */
void dmpi_coll_node_finalize(void)
{
    while (live) {
        live->comm->coll_state = NULL;
        state_free(live);
    }
}

static void *grow(void **buf, size_t *size, size_t bytes)
{
    if (bytes > *size) {
        void *p = realloc(*buf, bytes);
        if (!p)
            return NULL;
        *buf = p;
        *size = bytes;
    }
    return *buf;
}

void *nc_tmp(nc_state_t *s, size_t bytes) { return grow(&s->tmp, &s->tmp_size, bytes); }
void *nc_xtmp(nc_state_t *s, size_t bytes) { return grow(&s->xtmp, &s->xtmp_size, bytes); }
