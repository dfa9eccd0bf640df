/* Shared by the decision tables of select.c: forced algorithms and the
 * hand-over of a built schedule. */
#ifndef DMPI_COLL_SELECT_H
#define DMPI_COLL_SELECT_H

#include "coll/sched.h"

/* One collective's algorithms, for DMPI_COLL_<NAME>: names[] ends with NULL. */
typedef struct dmpi_coll_algos {
    const char *param;           /* "BCAST" */
    const char *value;           /* the parameter's value: "auto" or a name */
    const char *const *names;
} dmpi_coll_algos_t;

/* Index of the forced algorithm in names[], or -1 for the decision table. */
int dmpi_coll_forced(const char *value, const char *const *names);

/* Blocking (req NULL): run s and wait; nonblocking: start it as *req. If
 * err is set, s is freed and err returned. */
int dmpi_coll_finish(dmpi_sched_t *s, int err, dmpi_request_t **req);

/* At MPI_Init: every DMPI_COLL_<NAME> names a known algorithm (0), or an
 * error was printed (-1). */
int dmpi_coll_check_params(void);

#endif
