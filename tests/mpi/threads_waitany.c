/*
 * threads_waitany: requests completed by another thread than the one that
 * made them, and threads blocked in MPI while others work
 * (MPI_THREAD_MULTIPLE).  The ranks form a ring (rank r sends to r+1 and
 * receives from r-1; one process talks to itself).
 *
 * Part A, hand-over: threads 0 and 1 are one pair, 2 and 3 another.  The
 * first thread of a pair (the maker) starts batches of MPI_Irecvs from the
 * previous rank and MPI_Isends to the next one (tag = pair) and passes each
 * batch to the second thread (the completer), which completes it with, in
 * turn, MPI_Waitany, MPI_Waitall, an MPI_Test loop, an MPI_Testall loop,
 * MPI_Waitsome and an MPI_Testany loop, while the maker goes on making
 * the next batches (at most 4 batches wait).  Checks: every receive
 * completes once, with the status (source, tag, count) and the data of the
 * message of the same position in the stream, and every index returned is
 * valid and not returned twice.
 *
 * Part B, blocked waiters (each round):
 *   threads 0 and 1: thread 0 blocks in MPI_Recv (odd rounds: MPI_Irecv +
 *     MPI_Wait) for a message from its own rank that thread 1 sends
 *     (MPI_Send, or MPI_Ssend in odd rounds) only after a pause;
 *   threads 2 and 3: thread 2 blocks in MPI_Wait on an MPI_Irecv from the
 *     previous rank, whose thread 3 sends it after a pause; so on every
 *     rank a thread is blocked in MPI while the thread that must send the
 *     message another one is waiting for calls MPI.
 * Sizes alternate between small and 1 MiB.
 *
 * Part C, many waiters, one sender (each round): threads 0..2 block in
 * MPI_Wait on MPI_Irecvs from the previous rank with tags 10, 11, 12;
 * thread 3 sends tags 12, 11, 10 to the next rank, in that order, after
 * a pause; every waiter must wake with its own message.
 *
 * A library in which one blocked thread stops the others hangs here; the
 * watchdog of mtest_threads.h then says which thread waits where.
 *
 *   usage: threads_waitany [batches [rounds]]   (default 60 batches, 20 rounds)
 */
#include "mtest_threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 8             /* receives (and as many sends) per batch */
#define MAXQ 4
#define BIG (1 << 20)

static int nbatches = 60;
static int rounds = 20;
static int left, right;

/* ---- part A ----------------------------------------------------------------- */

struct batch {
    int b;                               /* batch number */
    MPI_Request req[2 * BATCH];          /* receives, then sends */
    unsigned char *rbuf[BATCH], *sbuf[BATCH];
    size_t n[BATCH];
    struct batch *next;
};

struct pairq {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct batch *head, *tail;
    int queued;
};
static struct pairq q[2];

static size_t a_size(int pair, int b, int i)
{
    uint64_t st = (uint64_t)pair << 40 ^ (uint64_t)b << 8 ^ (uint64_t)i;
    uint64_t x = mtest_rand(&st);
    switch (x % 16) {
    case 0: return 128 * 1024 + (size_t)(x >> 8) % (BIG - 128 * 1024);
    case 1: case 2: case 3: return (size_t)(x >> 8) % 32768;
    default: return (size_t)(x >> 8) % 256;
    }
}

static int a_idx(int pair, int b, int i)
{
    return 1000000 + (pair * 10000 + b) * BATCH + i;
}

static void maker(int t, int pair)
{
    struct pairq *pq = &q[pair];
    for (int b = 0; b < nbatches; b++) {
        pthread_mutex_lock(&pq->lock);
        while (pq->queued >= MAXQ)
            pthread_cond_wait(&pq->cond, &pq->lock);
        pthread_mutex_unlock(&pq->lock);

        struct batch *bt = mtest_malloc(sizeof *bt);
        bt->b = b;
        bt->next = NULL;
        mt_where(t, "making a batch (MPI_Irecv, MPI_Isend)", b);
        for (int i = 0; i < BATCH; i++) {
            size_t n = a_size(pair, b, i);
            bt->n[i] = n;
            bt->rbuf[i] = mtest_malloc(n + MTEST_GUARD);
            bt->sbuf[i] = mtest_malloc(n + 1);
            mtest_poison(bt->rbuf[i], n, left, a_idx(pair, b, i));
            mtest_guard_set(bt->rbuf[i] + n);
            mtest_fill(bt->sbuf[i], n, mtest_rank, a_idx(pair, b, i));
            /* receives and sends interleaved, receive first in even batches */
            if (b % 2 == 0) {
                MPI_Irecv(bt->rbuf[i], (int)n, MPI_BYTE, left, pair, MPI_COMM_WORLD,
                          &bt->req[i]);
                MPI_Isend(bt->sbuf[i], (int)n, MPI_BYTE, right, pair, MPI_COMM_WORLD,
                          &bt->req[BATCH + i]);
            } else {
                MPI_Isend(bt->sbuf[i], (int)n, MPI_BYTE, right, pair, MPI_COMM_WORLD,
                          &bt->req[BATCH + i]);
                MPI_Irecv(bt->rbuf[i], (int)n, MPI_BYTE, left, pair, MPI_COMM_WORLD,
                          &bt->req[i]);
            }
        }
        pthread_mutex_lock(&pq->lock);
        if (pq->tail)
            pq->tail->next = bt;
        else
            pq->head = bt;
        pq->tail = bt;
        pq->queued++;
        pthread_cond_broadcast(&pq->cond);
        pthread_mutex_unlock(&pq->lock);
    }
}

static const char *method_name[6] = {"MPI_Waitany", "MPI_Waitall", "MPI_Test loop",
                                     "MPI_Testall loop", "MPI_Waitsome", "MPI_Testany loop"};

/* Completes the 2*BATCH requests of bt with method m; fills st[] (by
 * request index) and done[]. */
static void complete(int t, struct batch *bt, int m, MPI_Status *st)
{
    const int nr = 2 * BATCH;
    int done[2 * BATCH] = {0};
    int left_to_do = nr;
    char what[120];
    snprintf(what, sizeof what, "thread %d, batch %d, %s", t, bt->b, method_name[m]);
    mt_where(t, method_name[m], bt->b);
    switch (m) {
    case 0:
        while (left_to_do > 0) {
            int idx = -1;
            MPI_Status s;
            MPI_Waitany(nr, bt->req, &idx, &s);
            if (!MTEST_CHECK(idx >= 0 && idx < nr && !done[idx], "%s: index %d", what, idx))
                break;
            done[idx] = 1;
            st[idx] = s;
            left_to_do--;
        }
        break;
    case 1:
        MPI_Waitall(nr, bt->req, st);
        break;
    case 2:
        for (int i = 0; i < nr; i++) {
            int flag = 0;
            while (!flag)
                MPI_Test(&bt->req[i], &flag, &st[i]);
        }
        break;
    case 3: {
        int flag = 0;
        while (!flag)
            MPI_Testall(nr, bt->req, &flag, st);
        break;
    }
    case 4:
        while (left_to_do > 0) {
            int outcount = -1, idx[2 * BATCH];
            MPI_Status s[2 * BATCH];
            MPI_Waitsome(nr, bt->req, &outcount, idx, s);
            if (!MTEST_CHECK(outcount >= 1 && outcount <= left_to_do, "%s: outcount %d", what,
                             outcount))
                break;
            for (int k = 0; k < outcount; k++) {
                if (!MTEST_CHECK(idx[k] >= 0 && idx[k] < nr && !done[idx[k]], "%s: index %d",
                                 what, idx[k]))
                    continue;
                done[idx[k]] = 1;
                st[idx[k]] = s[k];
                left_to_do--;
            }
        }
        break;
    default:
        while (left_to_do > 0) {
            int idx = -1, flag = 0;
            MPI_Status s;
            MPI_Testany(nr, bt->req, &idx, &flag, &s);
            if (!flag)
                continue;
            if (!MTEST_CHECK(idx >= 0 && idx < nr && !done[idx], "%s: index %d", what, idx))
                break;
            done[idx] = 1;
            st[idx] = s;
            left_to_do--;
        }
        break;
    }
    for (int i = 0; i < nr; i++)
        MTEST_CHECK(bt->req[i] == MPI_REQUEST_NULL, "%s: request %d not MPI_REQUEST_NULL after "
                    "completion", what, i);
}

static void completer(int t, int pair)
{
    struct pairq *pq = &q[pair];
    for (int b = 0; b < nbatches; b++) {
        pthread_mutex_lock(&pq->lock);
        mt_where(t, "waiting for a batch from the maker thread", b);
        while (!pq->head)
            pthread_cond_wait(&pq->cond, &pq->lock);
        struct batch *bt = pq->head;
        pq->head = bt->next;
        if (!pq->head)
            pq->tail = NULL;
        pq->queued--;
        pthread_cond_broadcast(&pq->cond);
        pthread_mutex_unlock(&pq->lock);

        MTEST_CHECK(bt->b == b, "thread %d: got batch %d, expected %d", t, bt->b, b);
        MPI_Status st[2 * BATCH];
        for (int i = 0; i < 2 * BATCH; i++)
            mtest_status_garbage(&st[i]);
        int m = (b + pair) % 6;
        complete(t, bt, m, st);
        for (int i = 0; i < BATCH; i++) {
            char what[160];
            snprintf(what, sizeof what, "pair %d, batch %d (completed by another thread with "
                     "%s), receive %d (%zu bytes)", pair, b, method_name[m], i, bt->n[i]);
            mtest_check_status(&st[i], left, pair, MPI_BYTE, (int)bt->n[i], what);
            mtest_check_data(bt->rbuf[i], bt->n[i], left, a_idx(pair, b, i), "%s", what);
            mtest_guard_check(bt->rbuf[i] + bt->n[i], what);
            free(bt->rbuf[i]);
            free(bt->sbuf[i]);
        }
        free(bt);
    }
}

static void part_a(int t, void *arg)
{
    (void)arg;
    if (t % 2 == 0)
        maker(t, t / 2);
    else
        completer(t, t / 2);
}

/* ---- parts B and C ------------------------------------------------------------ */

static unsigned char *bbuf[MT_NTHREADS];     /* BIG + MTEST_GUARD each */

static size_t b_size(int round, int which)
{
    return (round + which) % 2 ? BIG : (size_t)(round * 37 + which * 11) % 1000;
}

static int b_idx(int round, int which)
{
    return 2000000 + round * 10 + which;
}

static void recv_check(int t, int src, int tag, int round, int which, int use_wait,
                       const char *what)
{
    size_t n = b_size(round, which);
    unsigned char *b = bbuf[t];
    MPI_Status st;
    mtest_poison(b, n, src, b_idx(round, which));
    mtest_guard_set(b + n);
    mtest_status_garbage(&st);
    if (use_wait) {
        MPI_Request r;
        MPI_Irecv(b, BIG, MPI_BYTE, src, tag, MPI_COMM_WORLD, &r);
        mt_where(t, what, round);
        MPI_Wait(&r, &st);
    } else {
        mt_where(t, what, round);
        MPI_Recv(b, BIG, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st);
    }
    char w[160];
    snprintf(w, sizeof w, "round %d, %s (%zu bytes)", round, what, n);
    mtest_check_status(&st, src, tag, MPI_BYTE, (int)n, w);
    mtest_check_data(b, n, src, b_idx(round, which), "%s", w);
    mtest_guard_check(b + n, w);
}

static void send_msg(int t, int dest, int tag, int round, int which, int sync,
                     const char *what)
{
    size_t n = b_size(round, which);
    unsigned char *b = bbuf[t];
    mtest_fill(b, n, mtest_rank, b_idx(round, which));
    mt_where(t, what, round);
    if (sync)
        MPI_Ssend(b, (int)n, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
    else
        MPI_Send(b, (int)n, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
}

static void part_b(int t, void *arg)
{
    int round = *(int *)arg;
    switch (t) {
    case 0:
        recv_check(t, mtest_rank, 20, round, 0, round % 2,
                   round % 2 ? "MPI_Wait for a message from its own rank" :
                   "MPI_Recv of a message from its own rank");
        break;
    case 1:
        mtest_sleep_ms(3);
        send_msg(t, mtest_rank, 20, round, 0, round % 2, "sending to its own rank while "
                 "another thread waits");
        break;
    case 2:
        recv_check(t, left, 21, round, 1, 1, "MPI_Wait for a message from the previous rank");
        break;
    default:
        mtest_sleep_ms(3);
        send_msg(t, right, 21, round, 1, round % 2, "sending to the next rank while another "
                 "thread waits");
        break;
    }
}

static void part_c(int t, void *arg)
{
    int round = *(int *)arg;
    if (t < 3) {
        recv_check(t, left, 10 + t, round, 2 + t, 1, "MPI_Wait, one of three waiters");
    } else {
        mtest_sleep_ms(3);
        for (int k = 2; k >= 0; k--)
            send_msg(t, right, 10 + k, round, 2 + k, 0, "sending to three waiters");
    }
}

int main(int argc, char **argv)
{
    if (!mt_init(&argc, &argv))
        return mtest_finalize();
    if (argc > 1)
        nbatches = atoi(argv[1]);
    if (argc > 2)
        rounds = atoi(argv[2]);
    right = (mtest_rank + 1) % mtest_size;
    left = (mtest_rank + mtest_size - 1) % mtest_size;

    for (int p = 0; p < 2; p++) {
        pthread_mutex_init(&q[p].lock, NULL);
        pthread_cond_init(&q[p].cond, NULL);
        q[p].head = q[p].tail = NULL;
        q[p].queued = 0;
    }
    mt_run("part A (requests completed by another thread)", part_a, NULL);
    MPI_Barrier(MPI_COMM_WORLD);

    for (int t = 0; t < MT_NTHREADS; t++)
        bbuf[t] = mtest_malloc(BIG + MTEST_GUARD);
    for (int round = 0; round < rounds; round++) {
        char name[80];
        snprintf(name, sizeof name, "part B (blocked waiters), round %d", round);
        mt_run(name, part_b, &round);
        snprintf(name, sizeof name, "part C (three waiters, one sender), round %d", round);
        mt_run(name, part_c, &round);
    }
    for (int t = 0; t < MT_NTHREADS; t++)
        free(bbuf[t]);
    for (int p = 0; p < 2; p++) {
        pthread_mutex_destroy(&q[p].lock);
        pthread_cond_destroy(&q[p].cond);
    }
    return mtest_finalize();
}
