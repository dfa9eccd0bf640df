/* Shareable blocks and their mappings by peers (node/shareable.c,
 * node/peer_maps.c), in one process that plays its own peer:
 *   - blocks are whole pages, with serial numbers never reused; the
 *     registry finds a range exactly when it lies inside one block (edges,
 *     ranges that run past a block's end, between and around blocks), from
 *     the last block found or by search; the quick range test is false
 *     outside all blocks and nothing is near when none is left;
 *   - free takes only a block's first byte, once; up to 16 freed blocks of
 *     64 MiB together are kept and handed out again for the same size (no
 *     new file descriptor), a larger one is closed at once;
 *   - a "peer" mapping through /proc/<pid>/fd shows the block's bytes and
 *     later writes to them, hits its cache, refuses a range past the block
 *     (and then the peer), a peer without single copy, and keeps at most
 *     DMPI_SHM_MAP_CACHE blocks mapped, the least recently used evicted;
 *   - a block freed while mapped and allocated again (same address and file
 *     descriptor, often) is seen with its new bytes, under its new serial;
 *   - MPI_Alloc_mem's provider (core/mem.c): small blocks, alignments above
 *     a page and what exceeds DMPI_ALLOC_MEM_SHARED_MAX come from the heap,
 *     Free_mem refuses what it did not hand out. */
#include "node/peer_maps.h"
#include "node/node.h"
#include "node/shareable.h"
#include "core/params.h"
#include "unit.h"
#include <unistd.h>

dmpi_node_peer_t *dmpi_node_peers;
static dmpi_node_peer_t self_peers[2];

static void test_registry(void)
{
    dmpi_shareable_ref_t ref;
    CHECK(!dmpi_shareable_near((void *)&ref) && !dmpi_shareable_find(&ref, 1, &ref), "no blocks: nothing found");
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    static const size_t sizes[] = {1, 4096, 100000, 0};
    char *b[4];
    uint64_t serial[4];
    for (int i = 0; i < 4; i++) {
        b[i] = dmpi_shareable_alloc(sizes[i]);
        CHECK(b[i] && (uintptr_t)b[i] % page == 0, "block %d of %zu bytes at %p", i, sizes[i], (void *)b[i]);
        if (!b[i])
            return;
        size_t len = sizes[i] ? (sizes[i] + page - 1) / page * page : page;
        memset(b[i], 0x40 + i, len);
        CHECK(dmpi_shareable_find(b[i], len, &ref) && ref.offset == 0 && ref.fd >= 0,
              "block %d found whole", i);
        serial[i] = ref.serial;
        CHECK(i == 0 || serial[i] > serial[i - 1], "serials grow: %llu after %llu", (unsigned long long)serial[i],
              (unsigned long long)serial[i ? i - 1 : 0]);
        CHECK(dmpi_shareable_find(b[i] + len - 1, 1, &ref) && ref.offset == len - 1 && ref.serial == serial[i],
              "block %d: its last byte", i);
        CHECK(!dmpi_shareable_find(b[i] + len - 1, 2, &ref), "block %d: a range running past its end", i);
        CHECK(!dmpi_shareable_find(b[i], len + 1, &ref), "block %d: one byte too many", i);
    }
    /* from the last block found and by search, in turn */
    int wrong = 0;
    for (int round = 0; round < 12; round++) {
        int i = (round * 7) % 4;
        if (!dmpi_shareable_find(b[i] + 10, 20, &ref) || ref.serial != serial[i] || ref.offset != 10)
            NOTE(wrong, "round %d: block %d not found at offset 10", round, i);
    }
    CHECK(wrong == 0, "%d lookups went wrong", wrong);
    int stack;
    CHECK(!dmpi_shareable_find(&stack, 1, &ref), "a stack address is in no block");
    CHECK(!dmpi_shareable_free(b[2] + 1) && !dmpi_shareable_free(&stack), "free takes only a block's start");
    CHECK(dmpi_shareable_free(b[2]) && !dmpi_shareable_free(b[2]), "free once");
    CHECK(!dmpi_shareable_find(b[2], 1, &ref), "a freed block is not found");
    CHECK(dmpi_shareable_find(b[3], 1, &ref) && ref.serial == serial[3], "the others still are");
    for (int i = 0; i < 4; i++)
        if (i != 2)
            dmpi_shareable_free(b[i]);
    CHECK(!dmpi_shareable_near(b[0]) && !dmpi_shareable_near(b[3]), "no blocks left: nothing near");
}

static int open_fds(void)
{
    int n = 0;
    char path[64];
    for (int fd = 0; fd < 4096; fd++) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        n += access(path, F_OK) == 0;
    }
    return n;
}

static void test_reuse(void)
{
    enum { N = 20 };
    char *b[N];
    int base = open_fds();
    for (int i = 0; i < N; i++)
        b[i] = dmpi_shareable_alloc(5000);
    CHECK(open_fds() == base + N, "%d blocks, %d more descriptors", N, open_fds() - base);
    for (int i = 0; i < N; i++)
        dmpi_shareable_free(b[i]);
    CHECK(open_fds() == base + 16, "16 freed blocks kept: %d descriptors more", open_fds() - base);
    dmpi_shareable_ref_t ref;
    uint64_t last = 0;
    int fresh = 0;
    for (int i = 0; i < 16; i++) {
        b[i] = dmpi_shareable_alloc(8192);
        fresh += !dmpi_shareable_find(b[i], 8192, &ref) || ref.serial <= last;
        last = ref.serial;
    }
    CHECK(fresh == 0 && open_fds() == base + 16, "kept blocks handed out again with new serials: %d more "
          "descriptors, %d not found or with an old serial", open_fds() - base, fresh);
    char *big = dmpi_shareable_alloc((size_t)65 << 20);
    CHECK(big != NULL, "a block of 65 MiB");
    dmpi_shareable_free(big);
    CHECK(open_fds() == base + 16, "a freed block beyond 64 MiB is not kept");
    for (int i = 0; i < 16; i++)
        dmpi_shareable_free(b[i]);
}

static void test_peer_maps(void)
{
    dmpi_shareable_ref_t ref;
    char *b = dmpi_shareable_alloc(3 * 4096);
    if (!b || !dmpi_shareable_find(b, 1, &ref)) {
        CHECK(0, "no block to map");
        return;
    }
    memset(b, 0x11, 3 * 4096);
    const char *m = dmpi_peer_map(1, ref.serial, ref.fd, 4096, 8192);
    CHECK(m && m[0] == 0x11 && m[8191] == 0x11, "the mapping shows the block's bytes");
    b[4096] = 0x22;
    CHECK(m && m[0] == 0x22, "and later writes to them: the same pages");
    CHECK(dmpi_peer_map(1, ref.serial, ref.fd, 4096, 1) == m, "a second look hits the cache");
    CHECK(dmpi_peer_maps_held() == 1, "one block mapped, %d held", dmpi_peer_maps_held());
    CHECK(!dmpi_peer_map(1, ref.serial, ref.fd, 8192, 4097) && self_peers[1].map_failed,
          "a range past the block is refused, and the peer with it");
    CHECK(!dmpi_peer_map(1, ref.serial, ref.fd, 0, 1), "a refused peer is not tried again");
    self_peers[1].map_failed = false;

    /* freed while mapped, allocated again: new bytes under a new serial */
    uint64_t old = ref.serial;
    dmpi_shareable_free(b);
    b = dmpi_shareable_alloc(3 * 4096);
    memset(b, 0x33, 3 * 4096);
    CHECK(b && dmpi_shareable_find(b, 1, &ref) && ref.serial != old, "a new block, a new serial");
    m = dmpi_peer_map(1, ref.serial, ref.fd, 0, 3 * 4096);
    CHECK(m && m[0] == 0x33 && m[3 * 4096 - 1] == 0x33, "the block allocated again shows its own bytes");

    self_peers[1].cma_ok = false;
    CHECK(!dmpi_peer_map(1, ref.serial + 1000, ref.fd, 0, 1), "no mapping without single copy");
    self_peers[1].cma_ok = true;
    self_peers[1].map_failed = false;
    dmpi_shareable_free(b);
}

/* DMPI_SHM_MAP_CACHE=3: five blocks mapped in turn, three held. */
static void test_eviction(void)
{
    char *b[5];
    dmpi_shareable_ref_t ref[5];
    int bad = 0;
    for (int i = 0; i < 5; i++) {
        b[i] = dmpi_shareable_alloc(4096);
        if (!b[i] || !dmpi_shareable_find(b[i], 4096, &ref[i])) {
            CHECK(0, "block %d", i);
            return;
        }
        memset(b[i], i + 1, 4096);
    }
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 5; i++) {
            const char *m = dmpi_peer_map(1, ref[i].serial, ref[i].fd, 100, 10);
            if (!m || m[0] != i + 1)
                NOTE(bad, "round %d: block %d maps to %p", round, i, (const void *)m);
        }
    CHECK(bad == 0, "%d blocks mapped wrongly while others were evicted", bad);
    CHECK(dmpi_peer_maps_held() == 3, "DMPI_SHM_MAP_CACHE=3: %d held", dmpi_peer_maps_held());
    dmpi_peer_maps_finalize();
    CHECK(dmpi_peer_maps_held() == 0, "finalize unmaps everything");
    for (int i = 0; i < 5; i++)
        dmpi_shareable_free(b[i]);
}

/* MPI_Alloc_mem's provider with DMPI_ALLOC_MEM_SHARED_MAX=64K. */
static void test_provider(void)
{
    dmpi_world.local_size = 2;
    CHECK(dmpi_shareable_enable(), "enabled with two ranks on the node");
    void *small, *aligned, *big[3];
    dmpi_shareable_ref_t ref;
    CHECK(dmpi_mem_alloc(100, 0, &small) == 0 && !dmpi_shareable_find(small, 1, &ref),
          "a block under DMPI_ALLOC_MEM_SHARED_MIN comes from the heap");
    CHECK(dmpi_mem_alloc(8192, 1 << 16, &aligned) == 0 && (uintptr_t)aligned % (1 << 16) == 0 &&
              !dmpi_shareable_find(aligned, 1, &ref),
          "an alignment above a page: the heap");
    int shared = 0;
    for (int i = 0; i < 3; i++) {
        CHECK(dmpi_mem_alloc(30000, 0, &big[i]) == 0, "block %d", i);
        shared += dmpi_shareable_find(big[i], 30000, &ref);
    }
    CHECK(shared == 2, "64K allow two blocks of 30000 bytes (whole pages), %d are shareable", shared);
    int stack;
    CHECK(dmpi_mem_free(&stack) == -1 && dmpi_mem_free((char *)big[0] + 1) == -1,
          "free refuses what it did not hand out");
    int ok = dmpi_mem_free(small) == 0 && dmpi_mem_free(aligned) == 0;
    for (int i = 0; i < 3; i++)
        ok &= dmpi_mem_free(big[i]) == 0;
    CHECK(ok && dmpi_mem_free(big[0]) == -1, "each block freed once");
    CHECK(!dmpi_shareable_near(big[0]), "no shareable block left");
    CHECK(dmpi_mem_alloc(60000, 0, &big[0]) == 0 && dmpi_shareable_find(big[0], 60000, &ref),
          "freed blocks give their room back");
    dmpi_mem_free(big[0]);
    dmpi_world.local_size = 1;
    dmpi_params.alloc_mem_shared = 1;
}

int main(void)
{
    unit_watchdog(60);
    setenv("DMPI_SHM_MAP_CACHE", "3", 1);
    setenv("DMPI_ALLOC_MEM_SHARED_MAX", "64K", 1);
    if (dmpi_params_load() != 0)
        return 2;
    self_peers[0] = self_peers[1] = (dmpi_node_peer_t){getpid(), true, false, 0};
    dmpi_node_peers = self_peers;
    RUN(test_reuse);                /* first: nothing kept yet */
    RUN(test_registry);
    RUN(test_peer_maps);
    RUN(test_eviction);
    RUN(test_provider);
    return unit_summary("test_shareable");
}
