/* Windows whose ranks all share this node synchronise through words in a
 * shared mapping (rma/win_shm.c), with no message and no help from the
 * target: each rank's part has a lock word (an exclusive bit and a count
 * of shared holders) and an accumulate lock, a spin lock held only for the
 * few instructions of one read-modify-write, never while waiting for
 * anything else. Every accumulate on a rank's memory runs under its
 * accumulate lock, whoever carries it out, which makes them atomic with
 * each other. */
#include "rma/rma_internal.h"
#include "p2p/p2p.h"
#include <sched.h>
#include <stdio.h>

#define LOCK_EXCL (1ull << 63)

bool rma_ctl_lock_try(rma_ctl_t *c, int type)
{
    uint64_t v = atomic_load_explicit(&c->lock, memory_order_relaxed);
    if (type == MPI_LOCK_EXCLUSIVE)
        return v == 0 && atomic_compare_exchange_strong_explicit(&c->lock, &v, LOCK_EXCL, memory_order_acquire,
                                                                 memory_order_relaxed);
    while (!(v & LOCK_EXCL))
        if (atomic_compare_exchange_weak_explicit(&c->lock, &v, v + 1, memory_order_acquire, memory_order_relaxed))
            return true;
    return false;
}

void rma_ctl_unlock(rma_ctl_t *c, int type)
{
    if (type == MPI_LOCK_EXCLUSIVE)
        atomic_store_explicit(&c->lock, 0, memory_order_release);
    else
        atomic_fetch_sub_explicit(&c->lock, 1, memory_order_release);
}

typedef struct ctl_wait {
    rma_ctl_t *c;
    int type, rank;
} ctl_wait_t;

static bool got_it(void *arg)
{
    ctl_wait_t *a = arg;
    return rma_ctl_lock_try(a->c, a->type);
}

static void describe(void *arg, char *buf, size_t len)
{
    ctl_wait_t *a = arg;
    snprintf(buf, len, "a %s lock on rank %d of a window, held by another rank",
             a->type == MPI_LOCK_EXCLUSIVE ? "exclusive" : "shared", a->rank);
}

void rma_ctl_lock(struct rma_state *st, int rank, int type)
{
    ctl_wait_t a = {&st->ctl[rank], type, rank};
    if (!got_it(&a))
        dmpi_progress_until_described(got_it, &a, describe);
}

void rma_acc_lock(struct rma_state *st, int rank)
{
    if (!st->ctl)
        return;
    _Atomic uint32_t *l = &st->ctl[rank].acc;
    for (;;) {
        uint32_t free_ = 0;
        if (atomic_compare_exchange_weak_explicit(l, &free_, 1, memory_order_acquire, memory_order_relaxed))
            return;
        /* The holder may have lost its core (more ranks than cores): yield soon. */
        for (int spins = 0; atomic_load_explicit(l, memory_order_relaxed); spins++) {
            if (spins > 200)
                sched_yield();
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
    }
}

void rma_acc_unlock(struct rma_state *st, int rank)
{
    if (st->ctl)
        atomic_store_explicit(&st->ctl[rank].acc, 0, memory_order_release);
}
