/* Shared by the files of MPI_T (core/mpit*.c): the lock, the state, the
 * string convention and the categories. */
#ifndef DMPI_MPIT_INTERNAL_H
#define DMPI_MPIT_INTERNAL_H

#include "core/mpit.h"
#include <pthread.h>

extern pthread_mutex_t dmpi_mpit_mutex;
extern int dmpi_mpit_refs;             /* MPI_T_init_thread calls not yet finalized */

/* Takes MPI_T's lock for the rest of the block. */
static inline void dmpi_mpit_unlock_(int *unused)
{
    (void)unused;
    pthread_mutex_unlock(&dmpi_mpit_mutex);
}
#define MPIT_LOCKED                                                                      \
    int mpit_locked_ __attribute__((cleanup(dmpi_mpit_unlock_), unused)) =               \
        pthread_mutex_lock(&dmpi_mpit_mutex)

/* MPI_T_ERR_NOT_INITIALIZED unless MPI_T is initialized. */
#define MPIT_READY()                                    \
    do {                                                \
        if (dmpi_mpit_refs <= 0)                        \
            return MPI_T_ERR_NOT_INITIALIZED;           \
    } while (0)

/* A string returned as chapter 15 says: with len NULL nothing; with buf
 * NULL or *len 0 only the length it needs (NUL included); else at most
 * *len - 1 characters and the NUL, and *len the length returned. */
void dmpi_mpit_put_string(const char *s, char *buf, int *len);

/* Categories: their number, and the index of a category by name (the
 * last, "general", for a name that is none of them). */
int dmpi_mpit_ncategories(void);
int dmpi_mpit_category_of(const char *name);

/* Performance variables in category c: their number, and the first len of
 * their indices (core/mpit_pvar.c). */
int dmpi_mpit_pvars_in(int c, int len, int indices[]);
/* At the last MPI_T_finalize: every control variable handle, and every
 * session with its handles, is freed (invalid from then on). */
void dmpi_mpit_cvar_release_all(void);
void dmpi_mpit_pvar_release_all(void);
/* Registers the counters of core/pvar.h, once. */
void dmpi_mpit_add_core_pvars(void);

#endif
