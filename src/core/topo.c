/* Process topologies attached to communicators. */
#include "core/topo.h"
#include <stdlib.h>
#include <string.h>

struct dmpi_topo {
    int kind;                    /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
};

struct dmpi_topo *dmpi_topo_copy(const struct dmpi_topo *t)
{
    struct dmpi_topo *c = malloc(sizeof *c);
    if (c)
        memcpy(c, t, sizeof *c);
    return c;
}

void dmpi_topo_free(struct dmpi_topo *t) { free(t); }
