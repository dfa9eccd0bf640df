/* Shareable blocks (node/shareable.h): memfd blocks, kept in an array
 * sorted by address; a lookup tries the block found last before it
 * searches, since a program sends from the same buffers again and again.
 * Freed blocks are kept for reuse, a few and of a bounded total, since a
 * new block costs four system calls and a page fault per page touched,
 * which a program that allocates and frees in a loop would pay each time
 * (the heap keeps freed memory too). */
#include "node/shareable.h"
#include "core/dmpi.h"
#include "core/params.h"
#include <sys/mman.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct block {
    uintptr_t base;
    size_t size;                 /* whole pages */
    uint64_t serial;
    int fd;
} block_t;

static block_t *blocks;          /* sorted by base; blocks never overlap */
static size_t nblocks, cap;
static size_t last;              /* the block found last */
static uint64_t next_serial = 1;

uintptr_t dmpi_shareable_lo, dmpi_shareable_span;

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* Whole pages, at least one (size at most SIZE_MAX - a page). */
static size_t page_round(size_t size)
{
    size_t page = page_size();
    return size ? (size + page - 1) & ~(page - 1) : page;
}

static void update_range(void)
{
    last = 0;
    dmpi_shareable_lo = nblocks ? blocks[0].base : 0;
    dmpi_shareable_span = nblocks ? blocks[nblocks - 1].base + blocks[nblocks - 1].size - dmpi_shareable_lo : 0;
}

/* The number of blocks whose base is at most a. */
static size_t rank_of(uintptr_t a)
{
    size_t lo = 0, hi = nblocks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (blocks[mid].base <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool dmpi_shareable_find(const void *p, size_t n, dmpi_shareable_ref_t *ref)
{
    uintptr_t a = (uintptr_t)p;
    if (!nblocks)
        return false;
    const block_t *b = &blocks[last];
    if (a - b->base >= b->size) {
        size_t i = rank_of(a);
        if (i == 0)
            return false;
        b = &blocks[i - 1];
        if (a - b->base >= b->size)
            return false;
        last = i - 1;
    }
    size_t off = a - b->base;
    if (n > b->size - off)
        return false;
    *ref = (dmpi_shareable_ref_t){b->serial, b->fd, off};
    return true;
}

/* ---- freed blocks kept for reuse, oldest first ---------------------- */

#define POOL_MAX 16
#define POOL_BYTES ((size_t)64 << 20)
static block_t pool[POOL_MAX];
static size_t npool, pool_bytes;

/* Peers' mappings keep the file alive: emptying it gives the pages back
 * now. No peer reads it again (its serial is never named again); an
 * erroneous program that frees a buffer it still sends from makes its
 * receiver fault instead of reading freed memory. */
static void release(const block_t *b)
{
    if (ftruncate(b->fd, 0) != 0)
        dmpi_verbose(2, "shareable block %llu: could not empty it", (unsigned long long)b->serial);
    munmap((void *)b->base, b->size);
    close(b->fd);
}

static void drop_oldest(void)
{
    release(&pool[0]);
    pool_bytes -= pool[0].size;
    memmove(pool, pool + 1, --npool * sizeof *pool);
}

static void to_pool(const block_t *b)
{
    if (b->size > POOL_BYTES) {
        release(b);
        return;
    }
    while (npool == POOL_MAX || pool_bytes + b->size > POOL_BYTES)
        drop_oldest();
    pool[npool++] = *b;
    pool_bytes += b->size;
}

/* A kept block of exactly len bytes, the newest (its pages are warmest). */
static bool from_pool(size_t len, block_t *out)
{
    for (size_t i = npool; i-- > 0;)
        if (pool[i].size == len) {
            *out = pool[i];
            pool_bytes -= len;
            memmove(&pool[i], &pool[i + 1], (--npool - i) * sizeof *pool);
            return true;
        }
    return false;
}

static bool make_block(size_t len, block_t *out)
{
    int fd = memfd_create("dmpi_alloc_mem", MFD_CLOEXEC);
    if (fd < 0)
        return false;
    void *p = MAP_FAILED;
    if (ftruncate(fd, (off_t)len) == 0)
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        close(fd);
        return false;
    }
    *out = (block_t){(uintptr_t)p, len, 0, fd};
    return true;
}

/* ---- blocks handed out ----------------------------------------------- */

void *dmpi_shareable_alloc(size_t size)
{
    if (size > SIZE_MAX - page_size())
        return NULL;
    size_t len = page_round(size);
    if (nblocks == cap) {
        size_t ncap = cap ? 2 * cap : 16;
        block_t *nb = realloc(blocks, ncap * sizeof *nb);
        if (!nb)
            return NULL;
        blocks = nb;
        cap = ncap;
    }
    block_t b;
    if (!from_pool(len, &b) && !make_block(len, &b))
        return NULL;
    b.serial = next_serial++;       /* a new one even for a kept block: peers map it afresh */
    size_t i = rank_of(b.base);
    memmove(&blocks[i + 1], &blocks[i], (nblocks - i) * sizeof *blocks);
    blocks[i] = b;
    nblocks++;
    update_range();
    return (void *)b.base;
}

bool dmpi_shareable_free(void *p)
{
    size_t i = rank_of((uintptr_t)p);
    if (i == 0 || blocks[i - 1].base != (uintptr_t)p)
        return false;
    block_t b = blocks[--i];
    memmove(&blocks[i], &blocks[i + 1], (nblocks - i - 1) * sizeof *blocks);
    nblocks--;
    update_range();
    to_pool(&b);
    return true;
}

/* ---- MPI_Alloc_mem's provider ------------------------------------------ */

static size_t budget, held;      /* bytes this rank may hold in blocks, and holds */
static size_t max_blocks;        /* a quarter of the file descriptors it may open (kept blocks: 16 more) */

/* Half the node's memory, shared among its ranks. */
static size_t default_budget(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    int ranks = dmpi_world.local_size > 0 ? dmpi_world.local_size : 1;
    return pages > 0 ? (size_t)pages * page_size() / 2 / (size_t)ranks : 0;
}

static size_t fd_share(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0)
        return 64;
    rlim_t n = r.rlim_cur == RLIM_INFINITY || r.rlim_cur > (1u << 20) ? (1u << 20) : r.rlim_cur;
    return (size_t)n / 4;
}

static void *provide(size_t size, size_t align)
{
    if (size < dmpi_params.alloc_mem_shared_min || align > page_size() || nblocks >= max_blocks ||
        size > budget || page_round(size) > budget - held)
        return NULL;                 /* the heap serves it */
    void *p = dmpi_shareable_alloc(size);
    if (p)
        held += page_round(size);
    return p;
}

static bool take_back(void *p)
{
    if (!dmpi_shareable_near(p))
        return false;
    size_t i = rank_of((uintptr_t)p);
    size_t size = i ? blocks[i - 1].size : 0;
    if (!dmpi_shareable_free(p))
        return false;
    held -= size;
    return true;
}

static const dmpi_mem_provider_t provider = {provide, take_back};

bool dmpi_shareable_enable(void)
{
    if (!dmpi_params.alloc_mem_shared || dmpi_world.local_size < 2)
        return false;
    budget = dmpi_params.alloc_mem_shared_max ? dmpi_params.alloc_mem_shared_max : default_budget();
    max_blocks = fd_share();
    dmpi_mem_set_provider(&provider);
    if (dmpi_world.local_rank == 0)
        dmpi_verbose(1, "MPI_Alloc_mem: blocks from %zu bytes are mappable by the node's ranks, up to %zu bytes "
                        "and %zu blocks per rank",
                     dmpi_params.alloc_mem_shared_min, budget, max_blocks);
    return true;
}
