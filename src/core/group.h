/* Groups: ordered sets of processes, kept as their world ranks. */
#ifndef DMPI_GROUP_H
#define DMPI_GROUP_H

#include "core/dmpi.h"

typedef struct dmpi_group {
    MPI_Group handle;            /* MPI_GROUP_NULL while only communicators hold it */
    int size;
    int rank;                    /* this process's rank in the group, or MPI_UNDEFINED */
    int refcount;                /* the user's handle and every communicator using it */
    struct dmpi_session *session; /* held: the session it derives from (MPI_Group_from_session_pset), or NULL */
    int world[];                 /* group rank -> world rank */
} dmpi_group_t;

/* A new group of n processes given by world rank (refcount 1, no handle). */
dmpi_group_t *dmpi_group_new(const int *world, int n);
dmpi_group_t *dmpi_group_get(MPI_Group h);           /* NULL if not valid; MPI_GROUP_EMPTY is valid */
int dmpi_group_handle(dmpi_group_t *g, MPI_Group *out); /* gives g a handle for the user */
/* MPI_Group_free: the handle goes now, the group when nobody uses it. */
void dmpi_group_free_handle(dmpi_group_t *g);
void dmpi_group_retain(dmpi_group_t *g);
/* Records that g derives from session s (NULL: none); the empty group, shared, derives from none. */
void dmpi_group_set_session(dmpi_group_t *g, struct dmpi_session *s);
void dmpi_group_release(dmpi_group_t *g);
int dmpi_group_rank_of_world(const dmpi_group_t *g, int world);  /* MPI_UNDEFINED if absent */
dmpi_group_t *dmpi_group_empty(void);
void dmpi_group_finalize(void);

/* core/group_ops.c: new groups (refcount 1, no handle yet). */
int dmpi_group_union(const dmpi_group_t *a, const dmpi_group_t *b, dmpi_group_t **out);
int dmpi_group_intersection(const dmpi_group_t *a, const dmpi_group_t *b, dmpi_group_t **out);
int dmpi_group_difference(const dmpi_group_t *a, const dmpi_group_t *b, dmpi_group_t **out);
int dmpi_group_incl(const dmpi_group_t *g, int n, const int *ranks, dmpi_group_t **out);
int dmpi_group_excl(const dmpi_group_t *g, int n, const int *ranks, dmpi_group_t **out);
int dmpi_group_compare(const dmpi_group_t *a, const dmpi_group_t *b);   /* MPI_IDENT, MPI_SIMILAR, MPI_UNEQUAL */

#endif
