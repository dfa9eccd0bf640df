/* Single copy between processes by cross-memory attach (process_vm_readv).
 * A node service: point-to-point, collectives and one-sided communication
 * all use it (node/node.h says which peers it works with). */
#ifndef DMPI_NODE_CMA_H
#define DMPI_NODE_CMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The address and expected value a peer reads to prove cma works. */
uint64_t dmpi_cma_probe_addr(void);
uint64_t dmpi_cma_probe_value(pid_t pid);
/* Really does one read from pid: true if it returned the expected value. */
bool dmpi_cma_verify(pid_t pid, uint64_t probe_addr);
/* Reads n bytes at remote address addr of pid into dst. 0, or an errno. */
int dmpi_cma_read(pid_t pid, void *dst, uint64_t addr, size_t n);
/* Writes n bytes from src to remote address addr of pid. 0, or an errno. */
int dmpi_cma_write(pid_t pid, uint64_t addr, const void *src, size_t n);
/* Reads bytes [first, first + n) of the packed stream of a typed buffer of
 * pid (rdt laid out from remote address rbase) into a local typed buffer
 * (ldt at lbase): iovec lists on both sides, one copy. 0, or an errno. */
struct dmpi_dtype;
int dmpi_cma_read_typed(pid_t pid, const struct dmpi_dtype *ldt, void *lbase, const struct dmpi_dtype *rdt,
                        uint64_t rbase, size_t first, size_t n);
/* The same the other way: the local typed data into the remote buffer. */
int dmpi_cma_write_typed(pid_t pid, const struct dmpi_dtype *ldt, const void *lbase, const struct dmpi_dtype *rdt,
                         uint64_t rbase, size_t first, size_t n);

#endif
