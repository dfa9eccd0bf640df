/* Process topologies (Cartesian, graph, distributed graph) attached to
 * communicators. Comm_dup copies them; freeing a communicator frees them. */
#ifndef DMPI_TOPO_H
#define DMPI_TOPO_H

#include "core/dmpi.h"

struct dmpi_topo;
struct dmpi_topo *dmpi_topo_copy(const struct dmpi_topo *t);   /* NULL if out of memory */
void dmpi_topo_free(struct dmpi_topo *t);                       /* t may be NULL */

#endif
