/*
 * limits.c - what the hardware allows, measured without MPI.
 *
 *   cacheline  Two processes (fork) share an anonymous mapping and bounce a
 *              flag: the parent (pinned to the first allowed CPU) stores an odd
 *              value, the child (pinned to the second) waits for it and answers
 *              with the next even value.  Half the round trip is the floor of
 *              any shared-memory small-message latency.  Two variants:
 *                one_line   both flags in one cache line, which bounces;
 *                two_lines  each side writes its own line and polls the other's
 *                           (the layout of a one-way ring).
 *   memcpy     Single-threaded memcpy bandwidth at the ping-pong sizes, copying
 *              the same source to the same destination (warm caches, as in a
 *              benchmark that reuses its buffers).  Median of repeats, GB/s with
 *              GB = 10^9 bytes copied (not counting the read and the write twice).
 *   cma        process_vm_readv from another process (the single-copy
 *              mechanism): microseconds per call and GB/s, median of repeats.
 *              Skipped with a note if the kernel refuses it.
 *
 * Output (parsed by bench/compare):
 *   # table cacheline
 *   # variant half_rtt_us best_half_rtt_us
 *   one_line 0.071 0.066
 *   ...
 *   # table memcpy
 *   # size GBps min_GBps max_GBps
 *   # table cma
 *   # size us_per_call GBps
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_machine.h"

#define MAX_SAMPLES 101

/* ------------------------------------------------------------------ memcpy */

static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;

static void *alloc_touched(size_t size)
{
    void *p = NULL;
    if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), size ? size : 1) != 0) {
        fprintf(stderr, "cannot allocate %zu bytes\n", size);
        exit(1);
    }
    memset(p, 0x5a, size);
    return p;
}

/* Repetitions so that one sample moves about `target` bytes. */
static long reps_for(size_t size, double target, long max_reps)
{
    long r = (long)(target / (double)size);
    if (r < 1)
        r = 1;
    if (r > max_reps)
        r = max_reps;
    return r;
}

static void memcpy_table(const size_t *sizes, int nsizes, int samples)
{
    size_t max = 0;
    for (int k = 0; k < nsizes; k++)
        if (sizes[k] > max)
            max = sizes[k];
    char *src = alloc_touched(max), *dst = alloc_touched(max);
    double gbps[MAX_SAMPLES];

    printf("# table memcpy\n# size GBps min_GBps max_GBps\n");
    for (int k = 0; k < nsizes; k++) {
        size_t size = sizes[k];
        if (size == 0)
            continue;
        long reps = reps_for(size, 64.0 * 1024 * 1024, 1000000);
        copy_fn(dst, src, size); /* warm */
        for (int s = 0; s < samples; s++) {
            double t0 = now();
            for (long r = 0; r < reps; r++) {
                copy_fn(dst, src, size);
                __asm__ __volatile__("" ::: "memory");
            }
            double dt = now() - t0;
            gbps[s] = (double)size * (double)reps / dt / 1e9;
        }
        double med = median(gbps, samples);
        printf("%zu %.3f %.3f %.3f\n", size, med, gbps[0], gbps[samples - 1]);
        fflush(stdout);
    }
    free(src);
    free(dst);
}

/* ------------------------------------------------------------------ cma */

static void cma_table(const size_t *sizes, int nsizes, int samples)
{
    size_t max = 0;
    for (int k = 0; k < nsizes; k++)
        if (sizes[k] > max)
            max = sizes[k];
    char *remote = alloc_touched(max), *dst = alloc_touched(max);
    int ready[2], done[2];
    if (pipe(ready) != 0 || pipe(done) != 0) {
        perror("pipe");
        return;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return;
    }
    if (child == 0) {
        char c = 'r';
        memset(remote, 0x33, max); /* own (not copy-on-write) pages */
        if (write(ready[1], &c, 1) != 1)
            _exit(1);
        if (read(done[0], &c, 1) < 0)
            _exit(1);
        _exit(0);
    }
    char c;
    if (read(ready[0], &c, 1) != 1) {
        fprintf(stderr, "cma: child did not start\n");
        return;
    }

    struct iovec local = {dst, 1}, far = {remote, 1};
    if (process_vm_readv(child, &local, 1, &far, 1, 0) != 1) {
        printf("# cma unavailable: process_vm_readv: %s\n", strerror(errno));
    } else if ((unsigned char)dst[0] != 0x33) {
        printf("# cma unavailable: process_vm_readv read wrong data\n");
    } else {
        double us[MAX_SAMPLES], gbps[MAX_SAMPLES];
        printf("# table cma\n# size us_per_call GBps\n");
        for (int k = 0; k < nsizes; k++) {
            size_t size = sizes[k];
            if (size == 0)
                continue;
            long reps = reps_for(size, 64.0 * 1024 * 1024, 20000);
            local.iov_len = far.iov_len = size;
            int failed = 0;
            for (int s = 0; s < samples && !failed; s++) {
                double t0 = now();
                for (long r = 0; r < reps; r++)
                    if (process_vm_readv(child, &local, 1, &far, 1, 0) != (ssize_t)size)
                        failed = 1;
                double dt = now() - t0;
                us[s] = dt * 1e6 / (double)reps;
                gbps[s] = (double)size * (double)reps / dt / 1e9;
            }
            if (failed) {
                printf("# cma failed at size %zu: %s\n", size, strerror(errno));
                break;
            }
            double m_us = median(us, samples), m_gbps = median(gbps, samples);
            printf("%zu %.3f %.3f\n", size, m_us, m_gbps);
            fflush(stdout);
        }
    }
    if (write(done[1], &c, 1) != 1)
        kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    free(remote);
    free(dst);
}

/* ------------------------------------------------------------------ main */

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (*end == 'k' || *end == 'K') v *= 1024.0;
    else if (*end == 'm' || *end == 'M') v *= 1024.0 * 1024.0;
    else if (*end == 'g' || *end == 'G') v *= 1024.0 * 1024.0 * 1024.0;
    return v < 0 ? 0 : (size_t)v;
}

int main(int argc, char **argv)
{
    size_t max_size = 4u << 20;
    size_t sizes[80];
    int nsizes = 0, samples = 11, trials = 7, c;
    long iters = 200000;
    const char *tests = "cacheline,memcpy,cma";

    while ((c = getopt(argc, argv, "m:s:r:n:T:t:h")) != -1) {
        switch (c) {
        case 'm': max_size = parse_size(optarg); break;
        case 's': {
            char *copy = strdup(optarg), *save = NULL;
            for (char *tok = strtok_r(copy, ",", &save); tok && nsizes < 80;
                 tok = strtok_r(NULL, ",", &save))
                sizes[nsizes++] = parse_size(tok);
            free(copy);
            break;
        }
        case 'r': samples = atoi(optarg); break;
        case 'n': iters = atol(optarg); break;
        case 'T': trials = atoi(optarg); break;
        case 't': tests = optarg; break;
        default:
            fprintf(stderr,
                    "usage: limits [-t cacheline,memcpy,cma] [-m MAX(4M)] [-s S1,S2,...]\n"
                    "              [-r SAMPLES(11)] [-n ROUND_TRIPS_PER_TRIAL(200000)]\n"
                    "              [-T TRIALS(7)]\n");
            return c == 'h' ? 0 : 2;
        }
    }
    if (samples < 1) samples = 1;
    if (samples > MAX_SAMPLES) samples = MAX_SAMPLES;
    if (trials < 1) trials = 1;
    if (trials > MAX_SAMPLES) trials = MAX_SAMPLES;
    if (iters < 1) iters = 1;
    if (nsizes == 0)
        for (size_t s = 1; s <= max_size && s > 0; s *= 2)
            sizes[nsizes++] = s;

    int cpu0, cpu1;
    two_cpus(&cpu0, &cpu1);
    printf("# limits: cpus %d and %d, %d samples per size\n", cpu0, cpu1, samples);

    if (strstr(tests, "cacheline") && cpu1 < 0) {
        printf("# cacheline skipped: only one CPU available\n");
    } else if (strstr(tests, "cacheline")) {
        printf("# table cacheline\n# variant half_rtt_us best_half_rtt_us\n");
        for (int two = 0; two < 2; two++) {
            double v[MAX_SAMPLES];
            int pinned = 0;
            if (cacheline_pingpong(two ? PP_OWN_LINES : PP_SAME_LINE, cpu0, cpu1, iters, trials, v, &pinned) != 0)
                continue;
            for (int t = 0; t < trials; t++)
                v[t] /= 2;                /* half round trips */
            double m = median(v, trials); /* sorts v */
            printf("%s %.4f %.4f\n", two ? "two_lines" : "one_line", m, v[0]);
            if (!pinned)
                printf("# warning: could not pin to two CPUs\n");
            fflush(stdout);
        }
    }
    if (strstr(tests, "memcpy")) {
        pin_to(cpu0);
        memcpy_table(sizes, nsizes, samples);
    }
    if (strstr(tests, "cma")) {
        pin_to(cpu0);
        cma_table(sizes, nsizes, samples);
    }
    return 0;
}
