/* Objects the MPICH ABI exports as symbols rather than constants. */
#include "api/api.h"

static int unweighted_marker, weights_empty_marker;
int *const MPI_UNWEIGHTED = &unweighted_marker;
int *const MPI_WEIGHTS_EMPTY = &weights_empty_marker;
