/* A very small check harness for the in-process unit tests.
 *
 * CHECK(cond, fmt, ...) counts one passed or failed assertion and prints the
 * failure with its place; loops over many cases count their mismatches in a
 * local variable and make one CHECK at the end, so the totals stay readable.
 * unit_summary() prints "N passed, N failed" and gives the exit status. */
#ifndef DMPI_UNIT_H
#define DMPI_UNIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

static int unit_passed, unit_failed;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (cond) {                                                             \
            unit_passed++;                                                      \
        } else {                                                                \
            unit_failed++;                                                      \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

/* Prints a mismatch found inside a loop, at most a few times per counter. */
#define NOTE(count, ...)                                                        \
    do {                                                                        \
        if ((count)++ < 5) {                                                    \
            fprintf(stderr, "  mismatch %s:%d: ", __FILE__, __LINE__);          \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

static inline int unit_summary(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, unit_passed, unit_failed);
    fflush(stdout);
    return unit_failed ? 1 : 0;
}

/* The test function running now, named in the report of a crash or hang.
 * RUN(test_x) runs test_x() under that name. */
static const char *volatile unit_phase = "start-up";
#define RUN(fn) (unit_phase = #fn, fn())

static void unit_say(const char *a, const char *b, const char *c)
{
    /* async-signal-safe: write(2) only */
    if (write(2, a, strlen(a)) < 0 || write(2, b, strlen(b)) < 0 || write(2, c, strlen(c)) < 0) {
        /* nothing more to do */
    }
}

/* A test that hangs is a failed test: end it after `seconds`. */
static void unit_on_alarm(int sig)
{
    (void)sig;
    unit_say("FAIL: did not finish in time (hung?) in ", unit_phase, "\n");
    _exit(2);
}

static void unit_on_crash(int sig)
{
    unit_say("FAIL: crashed (", strsignal(sig), ") in ");
    unit_say(unit_phase, "\n", "");
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Installs the time limit and the crash report. */
static inline void unit_watchdog(unsigned seconds)
{
    signal(SIGALRM, unit_on_alarm);
    signal(SIGSEGV, unit_on_crash);
    signal(SIGBUS, unit_on_crash);
    signal(SIGFPE, unit_on_crash);
    signal(SIGILL, unit_on_crash);
    alarm(seconds);
}

/* xorshift64*: a small deterministic generator, one state per thread. */
static inline uint64_t unit_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dull;
}

#endif
