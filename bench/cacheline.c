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

#define MAX_REPS 101

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
        if (cacheline_pingpong(two ? PP_OWN_LINES : PP_ONE_COUNTER, cpu0, cpu1, iters, reps, v, NULL) != 0)
            return 1;
        double med = median(v, reps); /* sorts v */
        printf("%s %.4f %.4f\n", two ? "two_lines" : "one_line", med, v[0]);
        fflush(stdout);
    }
    return 0;
}
