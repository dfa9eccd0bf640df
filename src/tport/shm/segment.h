/* The node's shared-memory segment: created by local rank 0, mapped by all,
 * unlinked as soon as everyone has it mapped (nothing stays in /dev/shm). */
#ifndef DMPI_SHM_SEGMENT_H
#define DMPI_SHM_SEGMENT_H

#include "tport/shm/shm_wire.h"
#include <stddef.h>

/* Collective over the node's ranks (one PMI barrier): local rank 0 creates,
 * the others map. Returns the mapping or NULL after printing why. Once every
 * rank has mapped it (the caller's next barrier), local rank 0 unlinks it. */
shm_seg_hdr_t *dmpi_shm_segment_open(int local_rank, int local_size, uint64_t ring_size, size_t *bytes);
void dmpi_shm_segment_unlink(void);
void dmpi_shm_segment_close(shm_seg_hdr_t *seg, size_t bytes);

#endif
