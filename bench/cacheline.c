/*
 * cacheline.c - the round trip of a cache line between two CPUs, without MPI.
 *
 * Two processes (fork) share an anonymous MAP_SHARED mapping and ping-pong:
 * the parent stores an odd value, the child waits for it and stores the next
 * even value, the parent waits for that, and so on.  A round trip is one
 * handover each way, the least any shared-memory synchronisation between two
 * processes costs: a 2-process barrier built on flags needs at least a flag
 * from each side, so its latency is bounded below by about this round trip
 * (the goal for a node-level barrier is at most 2x it).
 *
 * Variants (rows):
 *   one_line   one 64-bit counter in one 64-byte line, written and polled by
 *              both: the line moves twice per round trip.
 *   two_lines  each process writes its own counter in its own line and polls
 *              the other's (the lines 128 bytes apart, so that the adjacent-
 *              line prefetcher does not pair them): the layout of flags
 *              that have one writer each.
 *
 * The parent runs on the first CPU it may use and the child on the second
 * (sched_setaffinity; -u leaves both unpinned, which on a busy machine can put
 * them on one CPU and measure the scheduler instead).  Each repetition times
 * -n round trips together (default 100000); after one untimed warm-up
 * repetition, -r repetitions (default 11) are run and the median and the best
 * are printed, in microseconds per round trip.  Spinning uses plain loads,
 * no pause instruction.  Takes well under a second.
 *
 * Output, parsed by bench/compare:
 *   # table cacheline
 *   # variant rtt_us best_rtt_us
 *   one_line 0.141 0.133
 *   two_lines 0.152 0.140
 */
#define _GNU_SOURCE
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

#include "bench_machine.h"

#define LINE 64
#define MAX_REPS 101

/* The two counters of two_lines sit 128 bytes apart; one_line uses `ping` alone. */
struct flags {
    _Alignas(2 * LINE) _Atomic uint64_t ping; /* parent's (one_line: both's) */
    _Alignas(2 * LINE) _Atomic uint64_t pong; /* child's, two_lines only */
};

static void spin_until(_Atomic uint64_t *f, uint64_t value)
{
    while (atomic_load_explicit(f, memory_order_acquire) != value)
        ;
}

/* `reps` timed repetitions of `iters` round trips after one warm-up; stores
 * the microseconds per round trip of each.  0 on success. */
static int pingpong(int two_lines, int cpu0, int cpu1, long iters, int reps, double *rtt_us)
{
    struct flags *f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                           -1, 0);
    if (f == MAP_FAILED) {
        perror("mmap");
        return -1;
    }
    memset(f, 0, sizeof(*f));
    _Atomic uint64_t *pong = two_lines ? &f->pong : &f->ping;
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
            spin_until(&f->ping, (uint64_t)(2 * i + 1));
            atomic_store_explicit(pong, (uint64_t)(2 * i + 2), memory_order_release);
        }
        _exit(0);
    }
    pin_to(cpu0);
    long i = 0;
    for (int r = -1; r < reps; r++) {
        double t0 = now();
        for (long k = 0; k < iters; k++, i++) {
            atomic_store_explicit(&f->ping, (uint64_t)(2 * i + 1), memory_order_release);
            spin_until(pong, (uint64_t)(2 * i + 2));
        }
        double dt = now() - t0;
        if (r >= 0)
            rtt_us[r] = dt * 1e6 / (double)iters;
    }
    waitpid(child, NULL, 0);
    munmap(f, sizeof(*f));
    return 0;
}

int main(int argc, char **argv)
{
    long iters = 100000;
    int reps = 11, pin = 1, c;

    while ((c = getopt(argc, argv, "n:r:uh")) != -1) {
        switch (c) {
        case 'n': iters = atol(optarg); break;
        case 'r': reps = atoi(optarg); break;
        case 'u': pin = 0; break;
        default:
            fprintf(stderr, "usage: cacheline [-n ROUND_TRIPS_PER_REPETITION(100000)] "
                            "[-r REPETITIONS(11)] [-u (unpinned)]\n");
            return c == 'h' ? 0 : 2;
        }
    }
    if (iters < 1) iters = 1;
    if (reps < 1) reps = 1;
    if (reps > MAX_REPS) reps = MAX_REPS;

    int cpu0, cpu1;
    two_cpus(&cpu0, &cpu1);
    if (cpu1 < 0 && pin) {
        printf("# cacheline skipped: only one CPU available\n");
        return 0;
    }
    if (!pin)
        cpu0 = cpu1 = -1;
    printf("# cacheline: round trip of a 64-bit counter between two processes, %s; "
           "%d repetitions of %ld round trips, median and best, us\n",
           pin ? "pinned" : "not pinned", reps, iters);
    if (pin)
        printf("# affinity parent=%d child=%d\n", cpu0, cpu1);
    printf("# table cacheline\n# variant rtt_us best_rtt_us\n");
    for (int two = 0; two < 2; two++) {
        double v[MAX_REPS];
        if (pingpong(two, cpu0, cpu1, iters, reps, v) != 0)
            return 1;
        qsort(v, (size_t)reps, sizeof(double), cmp_double);
        double med = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
        printf("%s %.4f %.4f\n", two ? "two_lines" : "one_line", med, v[0]);
        fflush(stdout);
    }
    return 0;
}
