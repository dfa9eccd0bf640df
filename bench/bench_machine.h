/* What the MPI-free benchmarks (limits.c, cacheline.c) share: a clock, a
 * median, and pinning to the first two CPUs the process may use. */
#ifndef BENCH_MACHINE_H
#define BENCH_MACHINE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdlib.h>
#include <time.h>

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

#endif
