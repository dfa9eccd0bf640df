/* A block of any number of elements as one message. Messages carry int
 * counts, but a large-count (_c) collective may move more than INT_MAX
 * elements to one peer; the sender and the receiver may describe the same
 * data with different types (MPI_INT x 4n against a 4-int type x n), so the
 * block cannot be cut into pieces of elements that would match. Instead
 * the block becomes one element of a type made for it, and stays one
 * message of the same bytes. */
#ifndef DMPI_COLL_BIG_BLOCK_H
#define DMPI_COLL_BIG_BLOCK_H

#include "core/dmpi.h"

/* count elements of dt as (*n, *as): dt itself when count <= limit (a
 * parameter so that the unit test can try small limits), else 1 of a new
 * committed type that the caller releases (dmpi_dtype_release) once a
 * schedule holds it. */
int dmpi_big_block(size_t count, dmpi_dtype_t *dt, size_t limit, size_t *n, dmpi_dtype_t **as);

#endif
