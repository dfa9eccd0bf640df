/* What the MPI-free benchmarks (limits.c, cacheline.c) share: a clock, a
 * median, pinning to the first two CPUs the process may use, and the
 * cache-line ping-pong between two processes. */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The first and second CPUs this process may run on (-1 if absent). */
static inline void two_cpus(int *a, int *b)
{
    cpu_set_t set;
    *a = *b = -1;
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        if (*a < 0)
            *a = c;
        else if (*b < 0) {
            *b = c;
            break;
        }
    }
}

static inline int pin_to(int cpu)
{
    cpu_set_t set;
    if (cpu < 0)
        return -1;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set);
}

/* Where the child's counter lies: the parent's counter itself, another
 * word of its line, or a line of its own. */
enum { PP_ONE_COUNTER, PP_SAME_LINE, PP_OWN_LINES };

/* The lines sit 128 bytes apart so that the adjacent-line prefetcher (which
 * pairs 64-byte lines) does not couple them. */
struct pp_flags {
    _Alignas(128) _Atomic uint64_t ping; /* written by the parent (PP_ONE_COUNTER: by both) */
    _Atomic uint64_t pong_same;          /* written by the child, PP_SAME_LINE */
    _Alignas(128) _Atomic uint64_t pong; /* written by the child, PP_OWN_LINES */
};

static inline void pp_spin_until(_Atomic uint64_t *f, uint64_t value)
{
    while (atomic_load_explicit(f, memory_order_acquire) != value)
        ;
}

/* The parent (on cpu0) stores an odd value, a forked child (on cpu1) waits
 * for it and stores the next even one, the parent waits for that, and so
 * on. After one untimed warm-up repetition, rtt_us[r] gets the microseconds
 * per round trip of each of `reps` repetitions of `iters` round trips.
 * *pinned, if not NULL: whether the parent could be pinned. 0, or -1. */
static inline int cacheline_pingpong(int layout, int cpu0, int cpu1, long iters, int reps, double *rtt_us,
                                     int *pinned)
{
    struct pp_flags *f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (f == MAP_FAILED) {
        perror("mmap");
        return -1;
    }
    memset(f, 0, sizeof(*f));
    _Atomic uint64_t *pong = layout == PP_OWN_LINES ? &f->pong : layout == PP_SAME_LINE ? &f->pong_same : &f->ping;
    long total = iters * (reps + 1);

    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        munmap(f, sizeof(*f));
        return -1;
    }
    if (child == 0) {
        pin_to(cpu1);
        for (long i = 0; i < total; i++) {
            pp_spin_until(&f->ping, (uint64_t)(2 * i + 1));
            atomic_store_explicit(pong, (uint64_t)(2 * i + 2), memory_order_release);
        }
        _exit(0);
    }
    int ok = cpu1 >= 0 && pin_to(cpu0) == 0;
    if (pinned)
        *pinned = ok;
    long i = 0;
    for (int r = -1; r < reps; r++) {
        double t0 = now();
        for (long k = 0; k < iters; k++, i++) {
            atomic_store_explicit(&f->ping, (uint64_t)(2 * i + 1), memory_order_release);
            pp_spin_until(pong, (uint64_t)(2 * i + 2));
        }
        double dt = now() - t0;
        if (r >= 0)
            rtt_us[r] = dt * 1e6 / (double)iters;
    }
    waitpid(child, NULL, 0);
    munmap(f, sizeof(*f));
    return 0;
}

#endif
