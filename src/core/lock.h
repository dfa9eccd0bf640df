/* MPI_THREAD_MULTIPLE: one lock around the library. Every MPI_* entry
 * point takes it (DMPI_API_ENTER, released on every return by the cleanup
 * attribute); a thread that waits in the progress engine lets go of it
 * between polls, so other threads call MPI meanwhile and any thread's
 * progress completes any thread's requests. At MPI_THREAD_SINGLE, FUNNELED
 * and SERIALIZED the lock is never touched: the entry costs one predictable
 * branch on dmpi_lock_on. The lock is recursive, because user callbacks run
 * inside the library (reduction ops, error handlers, attribute copy and
 * delete functions) may call MPI again. */
#ifndef DMPI_LOCK_H
#define DMPI_LOCK_H

#include <stdbool.h>

#define DMPI_LIKELY_(x) __builtin_expect(!!(x), 1)
#define DMPI_UNLIKELY_(x) __builtin_expect(!!(x), 0)

extern bool dmpi_lock_on;       /* set by MPI_Init_thread(MPI_THREAD_MULTIPLE) */

void dmpi_lock_acquire(void);
void dmpi_lock_release(void);
/* Lets other threads in for a moment, whatever this thread's depth. */
void dmpi_lock_yield(void);

/* The entry guard: 1 if it took the lock. */
static inline int dmpi_api_lock(void)
{
    if (DMPI_LIKELY_(!dmpi_lock_on))
        return 0;
    dmpi_lock_acquire();
    return 1;
}

static inline void dmpi_api_unlock(int *held)
{
    if (DMPI_UNLIKELY_(*held))
        dmpi_lock_release();
}

/* For the hottest entry points: at MPI_THREAD_MULTIPLE, return call made
 * under the lock; otherwise go on, with nothing to release at the end (a
 * single branch, where DMPI_API_ENTER costs a little at every return). */
#define DMPI_API_FAST(call)                 \
    do {                                    \
        if (DMPI_UNLIKELY_(dmpi_lock_on)) { \
            dmpi_lock_acquire();            \
            int dmpi_api_rc_ = (call);      \
            dmpi_lock_release();            \
            return dmpi_api_rc_;            \
        }                                   \
    } while (0)

#define DMPI_API_ENTER \
    int dmpi_api_held_ __attribute__((cleanup(dmpi_api_unlock), unused)) = dmpi_api_lock()

#endif
