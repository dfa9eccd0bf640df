/*
 * mtest_threads.h - helpers for the threads_* tests (MPI_THREAD_MULTIPLE).
 *
 * mt_init(&argc, &argv): MPI_Init_thread(MPI_THREAD_MULTIPLE) and
 *     mtest_start().  Returns 1 if the library provides
 *     MPI_THREAD_MULTIPLE.  Otherwise rank 0 reports a failure naming the
 *     level it got (every rank counts one error) and returns 0: the test
 *     then goes straight to `return mtest_finalize();`, which uses only the
 *     main thread, so a library without MPI_THREAD_MULTIPLE fails the test
 *     at once instead of running threads it does not support.
 *
 * mt_run(fn, arg): runs fn(t, arg) in MT_NTHREADS new threads, t = 0..3,
 *     and waits for all of them.  A watchdog runs meanwhile: if the
 *     threads have not all returned after MTEST_THREADS_TIMEOUT seconds
 *     (environment, default 60), it prints what every unfinished thread
 *     last announced with mt_where() and ends the process with _exit(1)
 *     (MPI_Abort could wait for a lock that a hanging thread holds); the
 *     launcher then ends the job.  So a library that lets one blocked
 *     thread stall the others fails with a message saying where.
 *
 * mt_where(t, what, i): thread t announces that it is about to do `what`
 *     (a string literal) for item i.
 *
 * The failure functions of mtest.h (mtest_fail, MTEST_CHECK,
 * mtest_check_data, mtest_check_status ...) may be called from any thread.
 */
#ifndef MTEST_THREADS_H
#define MTEST_THREADS_H

#include "mtest.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MT_NTHREADS 4

static inline const char *mt_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "an unknown level";
    }
}

static inline int mt_init(int *argc, char ***argv)
{
    int provided = -1;
    int rc = MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    mtest_start();
    if (rc == MPI_SUCCESS && provided == MPI_THREAD_MULTIPLE)
        return 1;
    if (mtest_rank == 0)
        mtest_fail("MPI_Init_thread(MPI_THREAD_MULTIPLE) returned %d and provided %s (%d): "
                   "this test needs MPI_THREAD_MULTIPLE; no thread was started", rc,
                   mt_level_name(provided), provided);
    else
        mtest_add_errors(1);
    return 0;
}

/* ---- what each thread is doing, for the watchdog ---------------------- */

static const char *mt_what[MT_NTHREADS];
static int mt_item[MT_NTHREADS];
static int mt_done[MT_NTHREADS];

static inline void mt_where(int t, const char *what, int item)
{
    __atomic_store_n(&mt_item[t], item, __ATOMIC_RELAXED);
    __atomic_store_n(&mt_what[t], what, __ATOMIC_RELEASE);
}

/* ---- running the threads ------------------------------------------------ */

typedef void (*mt_fn)(int t, void *arg);

struct mt_start {
    mt_fn fn;
    void *arg;
    int t;
};

static inline void *mt_thread_main(void *p)
{
    struct mt_start *s = p;
    s->fn(s->t, s->arg);
    mt_where(s->t, "nothing (returned)", 0);
    __atomic_store_n(&mt_done[s->t], 1, __ATOMIC_RELEASE);
    return NULL;
}

static pthread_mutex_t mt_wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t mt_wd_cond = PTHREAD_COND_INITIALIZER;
static int mt_wd_stop;
static const char *mt_wd_phase;

static inline void *mt_watchdog(void *p)
{
    (void)p;
    int secs = 60;
    const char *e = getenv("MTEST_THREADS_TIMEOUT");
    if (e && atoi(e) > 0)
        secs = atoi(e);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += secs;
    pthread_mutex_lock(&mt_wd_lock);
    int rc = 0;
    while (!mt_wd_stop && rc == 0)
        rc = pthread_cond_timedwait(&mt_wd_cond, &mt_wd_lock, &until);
    int stop = mt_wd_stop;
    pthread_mutex_unlock(&mt_wd_lock);
    if (stop)
        return NULL;
    printf("[rank %d] watchdog: the threads of '%s' have not finished after %d s "
           "(a thread blocked in MPI may be stopping the others):\n", mtest_rank,
           mt_wd_phase, secs);
    for (int t = 0; t < MT_NTHREADS; t++) {
        if (__atomic_load_n(&mt_done[t], __ATOMIC_ACQUIRE))
            continue;
        const char *w = __atomic_load_n(&mt_what[t], __ATOMIC_ACQUIRE);
        printf("[rank %d]   thread %d: in or after %s (item %d)\n", mtest_rank, t,
               w ? w : "(nothing announced)", __atomic_load_n(&mt_item[t], __ATOMIC_RELAXED));
    }
    fflush(stdout);
    _exit(1);
}

/* Runs fn(t, arg) for t = 0..MT_NTHREADS-1 in new threads; `phase` names
 * the part of the test for the watchdog's message. */
static inline void mt_run(const char *phase, mt_fn fn, void *arg)
{
    pthread_t th[MT_NTHREADS], wd;
    struct mt_start st[MT_NTHREADS];
    mt_wd_stop = 0;
    mt_wd_phase = phase;
    for (int t = 0; t < MT_NTHREADS; t++) {
        mt_what[t] = NULL;
        mt_item[t] = 0;
        mt_done[t] = 0;
    }
    if (pthread_create(&wd, NULL, mt_watchdog, NULL) != 0) {
        mtest_fail("pthread_create (watchdog) failed");
        return;
    }
    for (int t = 0; t < MT_NTHREADS; t++) {
        st[t].fn = fn;
        st[t].arg = arg;
        st[t].t = t;
        if (pthread_create(&th[t], NULL, mt_thread_main, &st[t]) != 0) {
            printf("[rank %d] pthread_create failed\n", mtest_rank);
            fflush(stdout);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    for (int t = 0; t < MT_NTHREADS; t++)
        pthread_join(th[t], NULL);
    pthread_mutex_lock(&mt_wd_lock);
    mt_wd_stop = 1;
    pthread_cond_signal(&mt_wd_cond);
    pthread_mutex_unlock(&mt_wd_lock);
    pthread_join(wd, NULL);
}

/* ---- a small checksum ---------------------------------------------------- */

/* 64-bit FNV-1a over the bytes of buf, started from h. */
static inline uint64_t mt_fnv(uint64_t h, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
#define MT_FNV_INIT 0xcbf29ce484222325ull

#endif
