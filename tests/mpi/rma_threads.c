/*
 * rma_threads: one window used by 4 threads per rank at once
 * (MPI_THREAD_MULTIPLE) inside one lock_all epoch opened by the main
 * thread.  When the library provides less than MPI_THREAD_MULTIPLE, rank 0
 * says so and the program passes without testing anything.
 *   - every thread does Fetch_and_op(+1) on a counter of a different
 *     target in turn, each followed by Win_flush: every counter ends at the
 *     number of operations aimed at it, and the values fetched from it (all
 *     collected at rank 0 by messages) are 0..count-1 once each, increasing
 *     per thread;
 *   - every thread puts a block of its own (rank, thread, round) into its
 *     own slot at the target, flushes, reads it back with MPI_Get and
 *     flushes again (the other threads flushing the same target at the
 *     same time), and Accumulates into a per-target sum; the slots hold the
 *     last round's blocks and the sums are exact at the end.
 * argv[1]: rounds per thread (default 200).
 */
#include "mtest_threads.h"
#include "rma_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 64                   /* bytes put per operation */

static MPI_Win win;
static unsigned char *base;
static int me, np, rounds;
static long long **fetched;        /* [thread][round] */

/* window: [counter: long long][sum: long long][slots: np * MT_NTHREADS * BLOCK] */
#define OFF_COUNT 0
#define OFF_SUM 8
#define OFF_SLOTS 16

static int target_of(int rank, int t, int i)
{
    return (rank + t + i) % np;
}

static MPI_Aint slot_of(int rank, int t)
{
    return OFF_SLOTS + ((MPI_Aint)rank * MT_NTHREADS + t) * BLOCK;
}

static void worker(int t, void *arg)
{
    (void)arg;
    unsigned char out[BLOCK], back[BLOCK];
    long long one = 1, add;
    for (int i = 0; i < rounds; i++) {
        int tg = target_of(me, t, i);
        mt_where(t, "Fetch_and_op", i);
        MTEST_RC(MPI_Fetch_and_op(&one, &fetched[t][i], MPI_LONG_LONG, tg, OFF_COUNT, MPI_SUM, win));
        MTEST_RC(MPI_Win_flush(tg, win));
        if (i > 0 && target_of(me, t, i - 1) == tg)
            MTEST_CHECK(fetched[t][i] > fetched[t][i - 1], "thread %d: fetched %lld after %lld from "
                        "the same counter", t, fetched[t][i], fetched[t][i - 1]);

        mt_where(t, "Put", i);
        rma_fill(out, BLOCK, rma_seed(me * MT_NTHREADS + t, tg, i));
        MTEST_RC(MPI_Put(out, BLOCK, MPI_BYTE, tg, slot_of(me, t), BLOCK, MPI_BYTE, win));
        MTEST_RC(MPI_Win_flush(tg, win));
        memset(back, 0, BLOCK);
        mt_where(t, "Get", i);
        MTEST_RC(MPI_Get(back, BLOCK, MPI_BYTE, tg, slot_of(me, t), BLOCK, MPI_BYTE, win));
        MTEST_RC(MPI_Win_flush_local(tg, win));
        rma_compare(back, out, BLOCK, "thread %d round %d: reading back my Put to rank %d", t, i, tg);

        mt_where(t, "Accumulate", i);
        add = 1000 * (me + 1) + t;
        MTEST_RC(MPI_Accumulate(&add, 1, MPI_LONG_LONG, tg, OFF_SUM, 1, MPI_LONG_LONG, MPI_SUM, win));
        if (i % 16 == 15)
            MTEST_RC(MPI_Win_flush_all(win));
        else
            MTEST_RC(MPI_Win_flush_local(tg, win));   /* add is reused */
    }
}

static void check(void)
{
    /* what every counter and sum must hold */
    long long count = 0, sum = 0;
    for (int r = 0; r < np; r++)
        for (int t = 0; t < MT_NTHREADS; t++)
            for (int i = 0; i < rounds; i++)
                if (target_of(r, t, i) == me) {
                    count++;
                    sum += 1000 * (r + 1) + t;
                }
    MTEST_RC(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
    long long c, s;
    memcpy(&c, base + OFF_COUNT, 8);
    memcpy(&s, base + OFF_SUM, 8);
    MTEST_CHECK(c == count, "rank %d's counter: %lld, expected %lld", me, c, count);
    MTEST_CHECK(s == sum, "rank %d's sum: %lld, expected %lld", me, s, sum);
    for (int r = 0; r < np; r++)
        for (int t = 0; t < MT_NTHREADS; t++) {
            int last = -1;
            for (int i = 0; i < rounds; i++)
                if (target_of(r, t, i) == me)
                    last = i;
            if (last < 0)
                continue;
            unsigned char want[BLOCK];
            rma_fill(want, BLOCK, rma_seed(r * MT_NTHREADS + t, me, last));
            rma_compare(base + slot_of(r, t), want, BLOCK, "rank %d thread %d's slot at rank %d "
                        "(its round %d)", r, t, me, last);
        }
    MTEST_RC(MPI_Win_unlock(me, win));

    /* the fetched values: each target's counter values once each */
    int total = np * MT_NTHREADS * rounds;
    long long *mine = mtest_malloc(sizeof(long long) * (size_t)MT_NTHREADS * rounds);
    for (int t = 0; t < MT_NTHREADS; t++)
        memcpy(mine + (size_t)t * rounds, fetched[t], sizeof(long long) * (size_t)rounds);
    if (me == 0) {
        long long *all = mtest_malloc(sizeof(long long) * (size_t)total);
        memcpy(all, mine, sizeof(long long) * (size_t)MT_NTHREADS * rounds);
        for (int r = 1; r < np; r++)
            MTEST_RC(MPI_Recv(all + (size_t)r * MT_NTHREADS * rounds, MT_NTHREADS * rounds,
                              MPI_LONG_LONG, r, 401, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        char *seen = mtest_malloc((size_t)total * (size_t)np);
        memset(seen, 0, (size_t)total * (size_t)np);
        int bad = 0;
        for (int r = 0; r < np; r++)
            for (int t = 0; t < MT_NTHREADS; t++)
                for (int i = 0; i < rounds; i++) {
                    long long v = all[((size_t)r * MT_NTHREADS + t) * rounds + i];
                    int tg = target_of(r, t, i);
                    if (v < 0 || v >= total || seen[(size_t)tg * total + v]) {
                        if (bad++ < 3)
                            mtest_fail("rank %d thread %d round %d fetched %lld from rank %d's "
                                       "counter: out of range or fetched before", r, t, i, v, tg);
                        continue;
                    }
                    seen[(size_t)tg * total + v] = 1;
                }
        free(seen);
        free(all);
    } else {
        MTEST_RC(MPI_Send(mine, MT_NTHREADS * rounds, MPI_LONG_LONG, 0, 401, MPI_COMM_WORLD));
    }
    free(mine);
}

int main(int argc, char **argv)
{
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    mtest_start();
    me = mtest_rank;
    np = mtest_size;
    if (provided < MPI_THREAD_MULTIPLE) {
        if (me == 0)
            printf("MPI_Init_thread provided %s: nothing to test\n", mt_level_name(provided));
        return mtest_finalize();
    }
    rounds = argc > 1 ? atoi(argv[1]) : 200;
    size_t wsize = OFF_SLOTS + (size_t)np * MT_NTHREADS * BLOCK;
    MTEST_RC(MPI_Win_allocate((MPI_Aint)wsize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MTEST_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    memset(base, 0, wsize);
    MTEST_RC(MPI_Win_unlock(me, win));
    fetched = mtest_malloc(sizeof(long long *) * MT_NTHREADS);
    for (int t = 0; t < MT_NTHREADS; t++)
        fetched[t] = mtest_malloc(sizeof(long long) * (size_t)rounds);
    MPI_Barrier(MPI_COMM_WORLD);

    MTEST_RC(MPI_Win_lock_all(0, win));
    mt_run("RMA under lock_all", worker, NULL);
    MTEST_RC(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    check();
    MPI_Barrier(MPI_COMM_WORLD);

    for (int t = 0; t < MT_NTHREADS; t++)
        free(fetched[t]);
    free(fetched);
    MTEST_RC(MPI_Win_free(&win));
    return mtest_finalize();
}
