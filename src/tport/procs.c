/* Processes of other jobs: the numbers they get here, after the world's
 * ranks, and the tables that grow with them (the peer table, and the
 * world's node tables, where each such process is a node of its own: it
 * shares no memory with anyone here). TCP reaches them (dyn_add). */
#include "tport/tport.h"
#include "pmi/pmi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dmpi_tport_nprocs;
static dmpi_proc_id_t *others;   /* process number world.size + i */
static dmpi_proc_id_t me;
static bool started;

static uint64_t job_hash(void)
{
    static uint64_t h;
    if (!h) {
        h = 14695981039346656037ull;   /* FNV-1a of the key-space name */
        for (const char *s = dmpi_pmi_kvsname(); *s; s++)
            h = (h ^ (unsigned char)*s) * 1099511628211ull;
        h = h ? h : 1;
    }
    return h;
}

static const dmpi_tport_t *dyn_tport(void)
{
    for (int i = 0; dmpi_tports[i]; i++)
        if (dmpi_tports[i]->dyn_start)
            return dmpi_tports[i];
    return NULL;
}

int dmpi_tport_my_id(dmpi_proc_id_t *id)
{
    if (!started) {
        const dmpi_tport_t *t = dyn_tport();
        memset(&me, 0, sizeof me);
        me.job = job_hash();
        me.rank = dmpi_world.rank;
        if (!t || t->dyn_start(&me) != 0)
            return -1;
        started = true;
    }
    *id = me;
    return 0;
}

static int grow(void **p, size_t elem, int n)
{
    void *q = realloc(*p, elem * (size_t)n);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

int dmpi_tport_proc(const dmpi_proc_id_t *id)
{
    if (id->job == job_hash())
        return id->rank >= 0 && id->rank < dmpi_world.size ? id->rank : -1;
    int size = dmpi_world.size, n = dmpi_tport_nprocs;
    for (int i = 0; i < n - size; i++)
        if (others[i].job == id->job && others[i].rank == id->rank)
            return size + i;
    dmpi_proc_id_t mine;
    if (dmpi_tport_my_id(&mine) != 0)
        return -1;
    if (grow((void **)&others, sizeof *others, n - size + 1) != 0 ||
        grow((void **)&dmpi_tport_peers, sizeof *dmpi_tport_peers, n + 1) != 0 ||
        grow((void **)&dmpi_world.local_of_world, sizeof(int), n + 1) != 0 ||
        grow((void **)&dmpi_world.node_of_world, sizeof(int), n + 1) != 0) {
        fprintf(stderr, "dmpi: out of memory adding a process of another job\n");
        return -1;
    }
    others[n - size] = *id;
    memset(&dmpi_tport_peers[n], 0, sizeof dmpi_tport_peers[n]);
    dmpi_world.local_of_world[n] = -1;
    dmpi_world.node_of_world[n] = dmpi_world.nnodes++;
    dmpi_tport_nprocs = n + 1;
    if (dyn_tport()->dyn_add(n, id) != 0)
        return -1;
    return n;
}

void dmpi_tport_procs_finalize(void)
{
    free(others);
    others = NULL;
    started = false;
    dmpi_tport_nprocs = 0;
}

/* Process numbers differ between jobs; (job, rank) does not. */
static void key_of(int proc, uint64_t *job, int *rank)
{
    if (proc < dmpi_world.size) {
        *job = job_hash();
        *rank = proc;
    } else {
        *job = others[proc - dmpi_world.size].job;
        *rank = others[proc - dmpi_world.size].rank;
    }
}

bool dmpi_tport_proc_before(int a, int b)
{
    uint64_t ja, jb;
    int ra, rb;
    key_of(a, &ja, &ra);
    key_of(b, &jb, &rb);
    return ja != jb ? ja < jb : ra < rb;
}

/* A process as other jobs name it: 3 words (job, low word first; rank). */
void dmpi_tport_proc_name(int proc, uint32_t *w)
{
    uint64_t job;
    int rank;
    key_of(proc, &job, &rank);
    w[0] = (uint32_t)job;
    w[1] = (uint32_t)(job >> 32);
    w[2] = (uint32_t)rank;
}

int dmpi_tport_proc_named(const uint32_t *w)
{
    uint64_t job = (uint64_t)w[0] | (uint64_t)w[1] << 32;
    int rank = (int)w[2];
    if (job == job_hash())
        return rank >= 0 && rank < dmpi_world.size ? rank : -1;
    for (int i = 0; i < dmpi_tport_nprocs - dmpi_world.size; i++)
        if (others[i].job == job && others[i].rank == rank)
            return dmpi_world.size + i;
    return -1;
}
