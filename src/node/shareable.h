/* Memory the node's other ranks can map: blocks made with memfd_create and
 * mapped shared, so that a peer opening /proc/<pid>/fd/<fd> maps the very
 * same pages (node/peer_maps.h). MPI_Alloc_mem hands them out once a
 * transport turns them on; the shared-memory transport finds a send
 * buffer's block by address and names it to the receiver, which copies
 * straight out of its own mapping: one copy, no system call.
 *
 * Each block has a serial number this process never reuses, so a peer's
 * mapping of a freed block is never named again. Nothing has a name in
 * /dev/shm: a crash leaves nothing behind. */
#ifndef DMPI_NODE_SHAREABLE_H
#define DMPI_NODE_SHAREABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a range lies: its block's serial number and file descriptor (in
 * this process), and the range's offset in the block. */
typedef struct dmpi_shareable_ref {
    uint64_t serial;
    int fd;
    size_t offset;
} dmpi_shareable_ref_t;

/* The lowest address of all blocks and the span up to the end of the
 * highest (0: no blocks), so that ordinary buffers cost one compare. */
extern uintptr_t dmpi_shareable_lo, dmpi_shareable_span;

/* False for certain if p lies in no block; true means "look it up". */
static inline bool dmpi_shareable_near(const void *p)
{
    return (uintptr_t)p - dmpi_shareable_lo < dmpi_shareable_span;
}

/* Whether [p, p + n) lies inside one block; if so *ref says where. */
bool dmpi_shareable_find(const void *p, size_t n, dmpi_shareable_ref_t *ref);

/* A block of size bytes rounded up to whole pages, page-aligned, with a new
 * serial number; NULL on any failure. Its bytes are undefined (a freed
 * block of the same size may be reused). */
void *dmpi_shareable_alloc(size_t size);
/* Frees the block starting at p; false if no block starts there. Up to 16
 * freed blocks of at most 64 MiB together are kept for reuse; the pages of
 * the others go back at once, even while peers still map them (no peer
 * touches a freed block again). */
bool dmpi_shareable_free(void *p);

/* From now on MPI_Alloc_mem gives shareable blocks (core/mem.c's provider)
 * within the limits of DMPI_ALLOC_MEM_SHARED_MIN and _MAX and of the file
 * descriptors the process may open; the heap gives the rest. False if
 * DMPI_ALLOC_MEM_SHARED=0 or the node has no other rank. */
bool dmpi_shareable_enable(void);

#endif
