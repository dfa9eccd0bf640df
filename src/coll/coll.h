/* Collective operations. Each communicator will carry a table of collective
 * functions chosen by select.c; algorithms live one per file in algo/. */
#ifndef DMPI_COLL_H
#define DMPI_COLL_H

#include "core/dmpi.h"

/* Tags of collective traffic (on the communicator's collective context). */
enum { DMPI_TAG_BARRIER = 1 };

int dmpi_coll_barrier(dmpi_comm_t *c);

/* Algorithms */
int dmpi_barrier_dissemination(dmpi_comm_t *c);

#endif
