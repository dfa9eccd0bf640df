/*
 * mtest.h - helpers shared by the multi-process test programs in tests/mpi.
 *
 * Every program: mtest_init() (or its own MPI_Init* followed by
 * mtest_start()), checks that count failures through mtest_fail() /
 * MTEST_CHECK(), and at the end `return mtest_finalize();`, which adds up
 * the error counts of all ranks with point-to-point messages (no
 * collectives), lets rank 0 print "No Errors" when the total is zero
 * (" Found N errors" otherwise), calls MPI_Finalize and returns the exit
 * status for main().
 *
 * Data patterns: the byte at offset `off` of message `idx` sent by rank
 * `sender` is a hash of (sender, idx, off / 8) (see mtest.c), so a byte that
 * lands at the wrong offset, in the wrong message or from the wrong sender is
 * detected.  mtest_poison() fills a buffer with the bitwise complement of the
 * expected pattern, so even a 1-byte receive that writes nothing is caught.
 *
 * Only point-to-point functions, MPI_Barrier and the environment functions
 * listed in the test suite's brief may be used here.
 *
 * The failure functions (mtest_fail, MTEST_CHECK, MTEST_RC, mtest_check_*,
 * mtest_add_errors, mtest_error_count) may be called from any thread; the
 * rest, mtest_init/start/finalize included, from the main thread.  The
 * threads_* tests add mtest_threads.h.
 */
#ifndef MTEST_H
#define MTEST_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* The reference implementations the tests are validated with deviate from
 * the MPI standard in a few places; such checks are written as
 *     if (!MTEST_MPICH_DEVIATION) ...check...
 * with a comment saying what MPICH does.  dmpi's header does not define
 * MPICH's identification macros, so under dmpi every check runs. */
#if defined(MPICH_VERSION) && !defined(DMPI_VERSION)
#define MTEST_MPICH_DEVIATION 1
#else
#define MTEST_MPICH_DEVIATION 0
#endif
#if defined(OPEN_MPI) && !defined(DMPI_VERSION)
#define MTEST_OMPI_DEVIATION 1
#else
#define MTEST_OMPI_DEVIATION 0
#endif

/* Tag used by mtest_finalize() to collect error counts (<= 32767, the
 * smallest MPI_TAG_UB the standard allows). Tests must not use it. */
#define MTEST_REPORT_TAG 32123

/* Bytes of guard area that tests put behind receive buffers. */
#define MTEST_GUARD 64

/* "Do not check this field" value for mtest_check_status(). */
#define MTEST_DONTCARE (-999999)

extern int mtest_rank;   /* rank in MPI_COMM_WORLD */
extern int mtest_size;   /* size of MPI_COMM_WORLD */

/* Start-up and report. */
void mtest_init(int *argc, char ***argv);
void mtest_start(void);            /* after the test's own MPI_Init* */
int mtest_global_errors(void);     /* sum over ranks, valid at rank 0 only */
int mtest_finalize(void);          /* report, MPI_Finalize, exit status */

/* Failures. */
void mtest_fail_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define mtest_fail(...) mtest_fail_at(__FILE__, __LINE__, __VA_ARGS__)
/* Evaluates to 1 when cond holds; otherwise counts an error, prints the
 * message and evaluates to 0. */
#define MTEST_CHECK(cond, ...) \
    ((cond) ? 1 : (mtest_fail_at(__FILE__, __LINE__, __VA_ARGS__), 0))
int mtest_error_count(void);
void mtest_add_errors(int n);      /* count errors found by other means */

/* Checks an MPI return code for MPI_SUCCESS (usable when the communicator
 * has MPI_ERRORS_RETURN; with the default handler errors abort anyway). */
#define MTEST_RC(call) mtest_rc_at(__FILE__, __LINE__, (call), #call)
int mtest_rc_at(const char *file, int line, int rc, const char *what);

/* Patterns. */
void mtest_fill(void *buf, size_t nbytes, int sender, int idx);
void mtest_poison(void *buf, size_t nbytes, int sender, int idx);
unsigned char mtest_pattern_byte(int sender, int idx, size_t off);
/* Returns 1 if buf holds the pattern of (sender, idx); otherwise reports the
 * first wrong byte and the number of wrong bytes, counts one error and
 * returns 0. */
#define mtest_check_data(buf, n, sender, idx, ...) \
    mtest_check_data_at(__FILE__, __LINE__, (buf), (n), (sender), (idx), __VA_ARGS__)
int mtest_check_data_at(const char *file, int line, const void *buf, size_t nbytes,
                        int sender, int idx, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Same, for arrays of elements of which only the first `sig` bytes of every
 * `elem` bytes are meaningful (long double padding). */
int mtest_check_elems_at(const char *file, int line, const void *buf, size_t nelem,
                         size_t elem, size_t sig, int sender, int idx, const char *what);
#define mtest_check_elems(buf, n, elem, sig, sender, idx, what) \
    mtest_check_elems_at(__FILE__, __LINE__, (buf), (n), (elem), (sig), (sender), (idx), (what))

/* Guard area of MTEST_GUARD bytes at p (normally right behind a buffer). */
void mtest_guard_set(void *p);
#define mtest_guard_check(p, what) mtest_guard_check_at(__FILE__, __LINE__, (p), (what))
int mtest_guard_check_at(const char *file, int line, const void *p, const char *what);

/* Statuses.  source/tag/count may be MTEST_DONTCARE. count is checked with
 * MPI_Get_count(status, type). */
#define mtest_check_status(st, source, tag, type, count, what) \
    mtest_check_status_at(__FILE__, __LINE__, (st), (source), (tag), (type), (count), (what))
int mtest_check_status_at(const char *file, int line, const MPI_Status *st, int source,
                          int tag, MPI_Datatype type, int count, const char *what);
/* Empty status (MPI-4.0 3.7.3): source MPI_ANY_SOURCE, tag MPI_ANY_TAG,
 * count 0, not cancelled; the error field MPI_SUCCESS if check_error. */
#define mtest_check_empty_status(st, check_error, what) \
    mtest_check_empty_status_at(__FILE__, __LINE__, (st), (check_error), (what))
int mtest_check_empty_status_at(const char *file, int line, const MPI_Status *st,
                                int check_error, const char *what);
/* Fills a status with recognisable garbage before a call. */
void mtest_status_garbage(MPI_Status *st);

/* Error classes: checks that rc is an error of class `cls` and that
 * MPI_Error_string gives a non-empty message for it. */
#define mtest_check_class(rc, cls, ...) \
    mtest_check_class_at(__FILE__, __LINE__, (rc), (cls), __VA_ARGS__)
int mtest_check_class_at(const char *file, int line, int rc, int cls, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
const char *mtest_class_name(int cls);

/* Misc. */
void *mtest_malloc(size_t n);               /* aborts the job on failure */
void mtest_sleep_ms(int ms);
size_t mtest_parse_size(const char *s);     /* "64M", "4k", "123", "1G" */
/* Message sizes 0..max: 0-8, 2^k-1, 2^k, 2^k+1 and some odd sizes.
 * Returns a malloc'd sorted array and its length in *n. */
size_t *mtest_size_list(size_t max, int *n);
/* Deterministic pseudo-random numbers (splitmix64). */
uint64_t mtest_rand(uint64_t *state);
/* Uniform in [lo, hi]. */
size_t mtest_rand_range(uint64_t *state, size_t lo, size_t hi);

#endif
