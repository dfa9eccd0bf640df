/* The library lock (core/lock.h): a mutex with an owner and a depth, so that
 * the owner may enter again and a waiting owner can let go of every level. */
#include "core/lock.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

bool dmpi_lock_on;

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static _Atomic unsigned long owner;     /* pthread_self() of the holder, 0 if none */
static int depth;                        /* written by the holder only */
static _Atomic int waiting;              /* threads blocked in dmpi_lock_acquire */

void dmpi_lock_acquire(void)
{
    unsigned long me = (unsigned long)pthread_self();
    if (atomic_load_explicit(&owner, memory_order_relaxed) == me) {
        depth++;
        return;
    }
    atomic_fetch_add_explicit(&waiting, 1, memory_order_relaxed);
    pthread_mutex_lock(&mutex);
    atomic_fetch_sub_explicit(&waiting, 1, memory_order_relaxed);
    atomic_store_explicit(&owner, me, memory_order_relaxed);
    depth = 1;
}

void dmpi_lock_release(void)
{
    if (--depth > 0)
        return;
    atomic_store_explicit(&owner, 0, memory_order_relaxed);
    pthread_mutex_unlock(&mutex);
}

void dmpi_lock_yield(void)
{
    unsigned long me = (unsigned long)pthread_self();
    if (atomic_load_explicit(&owner, memory_order_relaxed) != me)
        return;
    int d = depth;
    atomic_store_explicit(&owner, 0, memory_order_relaxed);
    pthread_mutex_unlock(&mutex);
    if (atomic_load_explicit(&waiting, memory_order_relaxed) > 0)
        sched_yield();              /* a mutex is not fair: give them the chance */
    pthread_mutex_lock(&mutex);
    atomic_store_explicit(&owner, me, memory_order_relaxed);
    depth = d;
}
