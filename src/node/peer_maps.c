/* Mappings of peers' shareable blocks (node/peer_maps.h): a small array
 * searched from the entry used last, evicting the least recently used. A
 * miss costs open, fstat, mmap and close; a hit costs a few compares. */
#include "node/peer_maps.h"
#include "node/node.h"
#include "core/params.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct peer_map {
    const char *base;            /* NULL: a free entry */
    size_t size;
    uint64_t serial;
    uint64_t used;               /* when it was used last: the oldest is evicted */
    int local;
} peer_map_t;

static peer_map_t *maps;
static int nmaps, cap;
static peer_map_t *last;
static uint64_t ticks;

static void refuse(int local, uint64_t serial, const char *why, int err)
{
    dmpi_verbose(1, "cannot map block %llu of local rank %d (%s: %s); its messages take the usual path",
                 (unsigned long long)serial, local, why, strerror(err));
    dmpi_node_peers[local].map_failed = true;
}

static peer_map_t *find(int local, uint64_t serial)
{
    for (int i = 0; i < nmaps; i++)
        if (maps[i].serial == serial && maps[i].local == local && maps[i].base)
            return &maps[i];
    return NULL;
}

/* An entry to fill: a free one, else the least recently used, unmapped. */
static peer_map_t *free_entry(void)
{
    if (!maps) {
        cap = dmpi_params.shm_map_cache > 0 ? dmpi_params.shm_map_cache : 1;
        if (!(maps = calloc((size_t)cap, sizeof *maps)))
            return NULL;
    }
    if (nmaps < cap)
        return &maps[nmaps++];
    peer_map_t *old = &maps[0];
    for (int i = 1; i < nmaps; i++)
        if (maps[i].used < old->used)
            old = &maps[i];
    munmap((void *)old->base, old->size);
    old->base = NULL;
    if (last == old)
        last = NULL;
    return old;
}

static peer_map_t *map_block(int local, uint64_t serial, int fd)
{
    dmpi_node_peer_t *p = &dmpi_node_peers[local];
    if (!p->cma_ok)
        return NULL;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)p->pid, fd);
    int f = open(path, O_RDONLY | O_CLOEXEC);
    if (f < 0) {
        refuse(local, serial, "open", errno);
        return NULL;
    }
    struct stat st;
    void *m = MAP_FAILED;
    int err = 0;
    if (fstat(f, &st) != 0)
        err = errno;
    else if (st.st_size <= 0)
        err = EINVAL;
    else if ((m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, f, 0)) == MAP_FAILED)
        err = errno;
    close(f);
    peer_map_t *e = err ? NULL : free_entry();
    if (!e) {
        if (m != MAP_FAILED)
            munmap(m, (size_t)st.st_size);
        refuse(local, serial, "map", err ? err : ENOMEM);
        return NULL;
    }
    *e = (peer_map_t){m, (size_t)st.st_size, serial, 0, local};
    return e;
}

const char *dmpi_peer_map(int local, uint64_t serial, int fd, size_t off, size_t n)
{
    if (dmpi_node_peers[local].map_failed)
        return NULL;
    peer_map_t *e = last;
    if (!e || e->serial != serial || e->local != local)
        e = find(local, serial);
    if (!e && !(e = map_block(local, serial, fd)))
        return NULL;
    if (off > e->size || n > e->size - off) {
        refuse(local, serial, "range beyond the block", EINVAL);
        return NULL;
    }
    e->used = ++ticks;
    last = e;
    return e->base + off;
}

int dmpi_peer_maps_held(void)
{
    int held = 0;
    for (int i = 0; i < nmaps; i++)
        held += maps[i].base != NULL;
    return held;
}

void dmpi_peer_maps_finalize(void)
{
    for (int i = 0; i < nmaps; i++)
        if (maps[i].base)
            munmap((void *)maps[i].base, maps[i].size);
    free(maps);
    maps = NULL;
    last = NULL;
    nmaps = cap = 0;
}
