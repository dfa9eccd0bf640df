/* Memory for MPI_Alloc_mem: from the provider when one is registered and
 * takes the request (blocks the node's peers can map), else plain memory
 * aligned to a cache line (or more). Each block, of either kind, is
 * remembered in a small hash set, so MPI_Free_mem can refuse a pointer it
 * did not hand out instead of corrupting the heap. */
#include "core/dmpi.h"
#include <stdlib.h>

static void **set;               /* open addressing, linear probing; NULL = empty */
static size_t cap, used;
static const dmpi_mem_provider_t *provider;

void dmpi_mem_set_provider(const dmpi_mem_provider_t *p) { provider = p; }

static size_t slot_of(const void *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (cap - 1);
}

static bool grow(void)
{
    size_t ncap = cap ? 2 * cap : 64;
    void **n = calloc(ncap, sizeof *n), **old = set;
    if (!n)
        return false;
    size_t ocap = cap;
    set = n;
    cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i]) {
            size_t j = slot_of(old[i]);
            while (set[j])
                j = (j + 1) & (cap - 1);
            set[j] = old[i];
        }
    free(old);
    return true;
}

int dmpi_mem_alloc(MPI_Aint size, size_t align, void **out)
{
    /* No address space is that large; asking would only alarm a sanitizer. */
    if ((uint64_t)size > ((uint64_t)1 << 60))
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Alloc_mem: cannot allocate %ld bytes", (long)size);
    if (2 * (used + 1) > cap && !grow())
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Alloc_mem: out of memory");
    void *p = provider ? provider->alloc((size_t)size, align) : NULL;
    if (!p && posix_memalign(&p, align > DMPI_CACHELINE ? align : DMPI_CACHELINE, size ? (size_t)size : 1) != 0)
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Alloc_mem: cannot allocate %ld bytes", (long)size);
    size_t j = slot_of(p);
    while (set[j])
        j = (j + 1) & (cap - 1);
    set[j] = p;
    used++;
    *out = p;
    return MPI_SUCCESS;
}

int dmpi_mem_free(void *p)
{
    if (!cap)
        return -1;
    size_t j = slot_of(p);
    while (set[j] && set[j] != p)
        j = (j + 1) & (cap - 1);
    if (!set[j])
        return -1;
    if (!provider || !provider->free(p))
        free(p);
    /* Remove, then move back the entries of the run after it that now
     * sit past a hole on their probe path. */
    set[j] = NULL;
    used--;
    for (size_t k = (j + 1) & (cap - 1); set[k]; k = (k + 1) & (cap - 1)) {
        size_t home = slot_of(set[k]);
        bool between = j <= k ? (j < home && home <= k) : (j < home || home <= k);
        if (!between) {
            set[j] = set[k];
            set[k] = NULL;
            j = k;
        }
    }
    return 0;
}
