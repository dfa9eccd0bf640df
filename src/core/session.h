/* Sessions (MPI-4 chapter 11.3): objects behind MPICH-style direct handles
 * 0xb8000000 | index (object type 1110, as MPI_SESSION_NULL 0x38000000 says),
 * and the process sets they name. Starting and stopping the library for
 * them is comm/runtime.c's job. */
#ifndef DMPI_SESSION_H
#define DMPI_SESSION_H

#include "core/dmpi.h"

typedef struct dmpi_session {
    MPI_Session handle;
    MPI_Errhandler errhandler;   /* a held reference */
    int thread_level;            /* what MPI_Session_init provided */
    /* The handle and every group and communicator derived from the session:
     * those may outlive MPI_Session_finalize, which only drops the handle. */
    int refcount;
    struct dmpi_bbuf *bsend_buf; /* MPI_Session_attach_buffer's (p2p/bsend.c), or NULL */
} dmpi_session_t;

/* A new session object with errhandler e (retained); NULL if out of memory. */
dmpi_session_t *dmpi_session_new(MPI_Errhandler e, int thread_level);
dmpi_session_t *dmpi_session_get(MPI_Session h);    /* NULL if not a live session */
/* MPI_Session_finalize: the handle goes now (its buffer must be detached),
 * the object when nothing derived from it is left. */
void dmpi_session_free(dmpi_session_t *s);
void dmpi_session_retain(dmpi_session_t *s);        /* both take NULL: no session */
void dmpi_session_release(dmpi_session_t *s);
int dmpi_session_count(void);                        /* live sessions */

/* Process sets: "mpi://WORLD", "mpi://SELF" and "dmpi://node" (the ranks
 * of this process's node), in that order. */
int dmpi_pset_count(void);
const char *dmpi_pset_name(int i);
int dmpi_pset_find(const char *name);               /* its index, or -1 */
/* The members' world ranks in increasing order (malloc'd) and their number;
 * NULL if out of memory. */
int *dmpi_pset_members(int i, int *n);

/* The thread level's name ("MPI_THREAD_SINGLE" ...), and the level a name
 * or number says (MPI_Session_init's "thread_level" hint); -1 if none. */
const char *dmpi_thread_level_name(int level);
int dmpi_thread_level_parse(const char *s);

#endif
