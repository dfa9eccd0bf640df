/*
 * threads_comm: communicators created and freed in 4 threads at once
 * (MPI_THREAD_MULTIPLE).
 *
 * The main thread MPI_Comm_dup's MPI_COMM_WORLD once per thread; thread t
 * then works only on its parent communicator parent[t] (so the collective
 * calls on each communicator are in the same order on every rank), and
 * every iteration:
 *
 *   - MPI_Comm_dup(parent[t]) -> d: MPI_Comm_compare gives MPI_CONGRUENT,
 *     same size and rank; a message on d and one with the same tag on
 *     parent[t] do not mix; a ring exchange (MPI_Sendrecv) on d;
 *   - MPI_Comm_split of parent[t] or of d (alternately) by a colour and a
 *     key that change with the iteration and the thread (one rank passes
 *     MPI_UNDEFINED every fifth iteration, the 3rd, 8th, ...) -> s:
 *     MPI_COMM_NULL exactly for that rank; otherwise size, rank and
 *     members (MPI_Group_translate_ranks) as computed locally, a ring
 *     exchange whose messages carry the sender's world rank, and an
 *     MPI_Allreduce of the world ranks;
 *   - every tenth iteration (the 2nd, 12th, ...) MPI_Comm_dup(d) -> d2;
 *     d is freed first, d2 used afterwards (a ring exchange), then freed;
 *   - MPI_Comm_free of s and d, which then are MPI_COMM_NULL.
 *
 * Every exchanged message is checked byte for byte with its status.  At
 * the end the parents are still congruent with MPI_COMM_WORLD and carry
 * traffic.
 *
 * MPICH 4.0.2 and Open MPI 4.1.4 are slow here, as they retry when several
 * threads ask for a context id at once: MPICH takes up to about a second
 * per communicator at 4 oversubscribed processes, Open MPI sometimes
 * stalls for seconds; hence only 3 iterations at 4 processes in the
 * testlist.
 *
 *   usage: threads_comm [iterations]    (default 100)
 */
#include "mtest_threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG 40

static int iters = 100;
static MPI_Comm parent[MT_NTHREADS];

static int idx_of(int t, int i, int what)
{
    return ((t * 1000 + i) * 8) + what;
}

/* Ring exchange on comm: every rank sends MSG bytes to rank+1 (header =
 * world rank of the sender) and receives from rank-1, whose world rank is
 * expected_left. */
static void ring(MPI_Comm comm, int t, int i, int what, int expected_left, const char *name)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char sb[MSG], rb[MSG + MTEST_GUARD];
    int32_t me = mtest_rank;
    memcpy(sb, &me, 4);
    mtest_fill(sb + 4, MSG - 4, mtest_rank, idx_of(t, i, what));
    mtest_poison(rb, MSG, expected_left, idx_of(t, i, what));
    mtest_guard_set(rb + MSG);
    MPI_Status st;
    mtest_status_garbage(&st);
    mt_where(t, name, i);
    MPI_Sendrecv(sb, MSG, MPI_BYTE, right, 7, rb, MSG, MPI_BYTE, left, 7, comm, &st);
    char w[160];
    snprintf(w, sizeof w, "thread %d, iteration %d, ring exchange on %s", t, i, name);
    mtest_check_status(&st, left, 7, MPI_BYTE, MSG, w);
    int32_t from;
    memcpy(&from, rb, 4);
    MTEST_CHECK(from == expected_left, "%s: message from world rank %d, expected %d", w,
                (int)from, expected_left);
    mtest_check_data(rb + 4, MSG - 4, expected_left, idx_of(t, i, what), "%s", w);
    mtest_guard_check(rb + MSG, w);
}

/* dup'ed communicator d of parent p: both congruent, messages do not mix */
static void check_dup(MPI_Comm p, MPI_Comm d, int t, int i)
{
    int res = -1, size = -1, rank = -1;
    MPI_Comm_compare(p, d, &res);
    MTEST_CHECK(res == MPI_CONGRUENT, "thread %d, iteration %d: MPI_Comm_compare(parent, dup) "
                "gives %d, expected MPI_CONGRUENT", t, i, res);
    MPI_Comm_size(d, &size);
    MPI_Comm_rank(d, &rank);
    MTEST_CHECK(size == mtest_size && rank == mtest_rank, "thread %d, iteration %d: dup has "
                "size %d rank %d", t, i, size, rank);

    /* same tag on both; receive on d first */
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    int sp = idx_of(t, i, 1), sd = idx_of(t, i, 2), rp = -1, rd = -1;
    MPI_Request r[2];
    MPI_Status st, sst[2];
    mt_where(t, "messages on the parent and its dup", i);
    MPI_Isend(&sp, 1, MPI_INT, right, 3, p, &r[0]);
    MPI_Isend(&sd, 1, MPI_INT, right, 3, d, &r[1]);
    MPI_Recv(&rd, 1, MPI_INT, left, MPI_ANY_TAG, d, &st);
    mtest_check_status(&st, left, 3, MPI_INT, 1, "receive on the dup");
    MPI_Recv(&rp, 1, MPI_INT, left, MPI_ANY_TAG, p, &st);
    mtest_check_status(&st, left, 3, MPI_INT, 1, "receive on the parent");
    MPI_Waitall(2, r, sst);
    MTEST_CHECK(rd == idx_of(t, i, 2) && rp == idx_of(t, i, 1), "thread %d, iteration %d: "
                "dup received %d (expected %d), parent %d (expected %d)", t, i, rd,
                idx_of(t, i, 2), rp, idx_of(t, i, 1));
}

/* colour/key of world rank r in iteration i of thread t (MPI_UNDEFINED for
 * one rank every fifth iteration) */
static int colour_of(int r, int t, int i)
{
    if (i % 5 == 2 && r == (i + t) % mtest_size)
        return MPI_UNDEFINED;
    return mtest_size == 1 ? 0 : (r + i + t) % 2;
}

static int key_of(int r, int t, int i)
{
    switch ((i + t) % 3) {
    case 0: return r;
    case 1: return mtest_size - r;         /* reversed */
    default: return (r * 7 + i) % 3;       /* ties: parent order decides */
    }
}

static void check_split(MPI_Comm s, int t, int i)
{
    int c = colour_of(mtest_rank, t, i);
    if (c == MPI_UNDEFINED) {
        MTEST_CHECK(s == MPI_COMM_NULL, "thread %d, iteration %d: MPI_UNDEFINED colour gave a "
                    "communicator", t, i);
        return;
    }
    if (!MTEST_CHECK(s != MPI_COMM_NULL, "thread %d, iteration %d: MPI_Comm_split gave "
                     "MPI_COMM_NULL", t, i))
        return;
    /* expected members: same colour, by key then by rank */
    int members[64], n = 0;
    for (int r = 0; r < mtest_size && n < 64; r++)
        if (colour_of(r, t, i) == c)
            members[n++] = r;
    for (int a = 1; a < n; a++)           /* stable insertion sort by key */
        for (int b = a; b > 0 && key_of(members[b - 1], t, i) > key_of(members[b], t, i); b--) {
            int x = members[b];
            members[b] = members[b - 1];
            members[b - 1] = x;
        }
    int size = -1, rank = -1;
    MPI_Comm_size(s, &size);
    MPI_Comm_rank(s, &rank);
    if (!MTEST_CHECK(size == n, "thread %d, iteration %d: split size %d, expected %d", t, i,
                     size, n))
        return;
    int myidx = -1;
    for (int k = 0; k < n; k++)
        if (members[k] == mtest_rank)
            myidx = k;
    MTEST_CHECK(rank == myidx, "thread %d, iteration %d: split rank %d, expected %d", t, i, rank,
                myidx);
    MPI_Group g, wg;
    int ranks[64], wr[64];
    for (int k = 0; k < n; k++)
        ranks[k] = k;
    MPI_Comm_group(s, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(g, n, ranks, wg, wr);
    for (int k = 0; k < n; k++)
        MTEST_CHECK(wr[k] == members[k], "thread %d, iteration %d: split rank %d is world "
                    "rank %d, expected %d", t, i, k, wr[k], members[k]);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    ring(s, t, i, 3, members[(myidx + n - 1) % n], "the split communicator");
    int sum = -1, expect = 0;
    for (int k = 0; k < n; k++)
        expect += members[k];
    mt_where(t, "MPI_Allreduce on the split communicator", i);
    MPI_Allreduce(&mtest_rank, &sum, 1, MPI_INT, MPI_SUM, s);
    MTEST_CHECK(sum == expect, "thread %d, iteration %d: MPI_Allreduce on the split gives %d, "
                "expected %d", t, i, sum, expect);
}

static void thread_main(int t, void *arg)
{
    (void)arg;
    int left = (mtest_rank + mtest_size - 1) % mtest_size;
    for (int i = 0; i < iters; i++) {
        MPI_Comm d = MPI_COMM_NULL, s = MPI_COMM_NULL;
        mt_where(t, "MPI_Comm_dup", i);
        MPI_Comm_dup(parent[t], &d);
        check_dup(parent[t], d, t, i);
        ring(d, t, i, 0, left, "the dup");

        mt_where(t, "MPI_Comm_split", i);
        MPI_Comm_split(i % 2 ? d : parent[t], colour_of(mtest_rank, t, i),
                       key_of(mtest_rank, t, i), &s);
        check_split(s, t, i);

        if (i % 10 == 1) {
            MPI_Comm d2 = MPI_COMM_NULL;
            mt_where(t, "MPI_Comm_dup of the dup", i);
            MPI_Comm_dup(d, &d2);
            mt_where(t, "MPI_Comm_free of the dup before its dup", i);
            MPI_Comm_free(&d);
            MTEST_CHECK(d == MPI_COMM_NULL, "thread %d, iteration %d: MPI_Comm_free left the "
                        "handle", t, i);
            ring(d2, t, i, 4, left, "the dup of a freed dup");
            d = d2;
        }
        mt_where(t, "MPI_Comm_free", i);
        if (s != MPI_COMM_NULL) {
            MPI_Comm_free(&s);
            MTEST_CHECK(s == MPI_COMM_NULL, "thread %d, iteration %d: MPI_Comm_free of the "
                        "split left the handle", t, i);
        }
        MPI_Comm_free(&d);
        MTEST_CHECK(d == MPI_COMM_NULL, "thread %d, iteration %d: MPI_Comm_free of the dup "
                    "left the handle", t, i);
    }
    /* the parent is intact */
    int res = -1;
    MPI_Comm_compare(parent[t], MPI_COMM_WORLD, &res);
    MTEST_CHECK(res == MPI_CONGRUENT, "thread %d: parent compares %d with MPI_COMM_WORLD", t,
                res);
    ring(parent[t], t, iters, 5, left, "the parent");
}

int main(int argc, char **argv)
{
    if (!mt_init(&argc, &argv))
        return mtest_finalize();
    if (argc > 1)
        iters = atoi(argv[1]);
    if (mtest_size > 64) {
        mtest_fail("at most 64 processes");
        return mtest_finalize();
    }
    for (int t = 0; t < MT_NTHREADS; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &parent[t]);
    mt_run("communicator creation in 4 threads", thread_main, NULL);
    for (int t = 0; t < MT_NTHREADS; t++)
        MPI_Comm_free(&parent[t]);
    return mtest_finalize();
}
