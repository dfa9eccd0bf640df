/*
 * threads_p2p: point-to-point from 4 threads per rank at once
 * (MPI_THREAD_MULTIPLE).
 *
 * The ranks form a ring: rank r sends to rank r+1 and receives from rank
 * r-1 (one process talks to itself).  A stream is the messages one thread
 * sends: every size of mtest_size_list from 0 B to 1 MiB (eager and
 * large-message paths), thread t starting at a different place in the
 * list, so small and large messages of different threads are in flight
 * together.  Four phases per round, each run by the 4 threads at once:
 *
 *   1. MPI_COMM_WORLD, tag = 100 + sending thread: two threads send their
 *      streams with blocking MPI_Send while the other two receive them with
 *      blocking MPI_Recv (thread s^1 of rank r+1 receives the stream of
 *      thread s of rank r); the roles swap from phase to phase and round to
 *      round.  Blocked senders and receivers of one rank, on one
 *      communicator, must all progress.  (Every other size of the list
 *      only, the other half in phase 3: blocking calls in several threads
 *      are slow in MPICH and Open MPI.)
 *   2. MPI_COMM_WORLD, tag = thread: every thread sends its stream to the
 *      next rank and receives the stream of its namesake on the previous
 *      one, all MPI_Irecvs and MPI_Isends outstanding at once (receives
 *      posted first in even rounds, sends first in odd ones), one
 *      MPI_Waitall;
 *   3. like 1, each stream on a communicator of its sending thread, tag 0,
 *      received with MPI_ANY_TAG;
 *   4. like 2, each thread on another communicator of its own, tag 0,
 *      received with MPI_ANY_TAG: only the communicators keep the streams
 *      apart.
 * The threads of a rank do not wait for each other between phases, and
 * the ranks do not either, so every phase has tags or communicators of its
 * own; the 8 communicators are MPI_Comm_dup'ed by the main thread first.
 *
 * Checks: every byte (the pattern of sender rank and (round, phase, thread,
 * message)), the guard behind every receive buffer, status source, tag and
 * count, and the order: message k of a stream must land in receive k of
 * that stream (non-overtaking for one sending thread and one tag).  The
 * communicators return errors (MPI_ERRORS_RETURN), so a truncation caused
 * by an overtaking message is reported rather than fatal.
 *
 *   usage: threads_p2p [rounds [maxsize]]     (default 2 rounds, 1M)
 */
#include "mtest_threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rounds = 2;
static size_t maxsize = 1 << 20;
static size_t *sizes;
static int nsizes;
static size_t total;           /* sum of sizes */
static int left, right;
static MPI_Comm tcomm[MT_NTHREADS];    /* phase 4 */
static MPI_Comm scomm[MT_NTHREADS];    /* phase 3 */

/* per thread: buffers for a whole stream */
struct tbuf {
    unsigned char *sbuf;       /* all messages back to back */
    unsigned char *rbuf;       /* each message + MTEST_GUARD */
    unsigned char *one;        /* maxsize + MTEST_GUARD, blocking receives */
    MPI_Request *req;          /* 2 * nsizes */
    MPI_Status *st;
};
static struct tbuf tb[MT_NTHREADS];

/* Message k of thread t's stream: size and offsets. */
static size_t size_at(int t, int k)
{
    return sizes[(k + t * nsizes / MT_NTHREADS) % nsizes];
}

static int msg_idx(int round, int phase, int t, int k)
{
    return ((round * 4 + phase) * MT_NTHREADS + t) * 1024 + k;
}

static const char *phase_name[4] = {
    "Send/Recv on MPI_COMM_WORLD", "Isend/Irecv on MPI_COMM_WORLD",
    "Send/Recv on the threads' own communicators",
    "Isend/Irecv on the threads' own communicators"};

/* Receive k of the stream of thread t (of rank `left`). */
static void check_recv(int t, int round, int phase, int k, const MPI_Status *st,
                       const unsigned char *buf, int tag)
{
    size_t n = size_at(t, k);
    char what[200];
    snprintf(what, sizeof what, "round %d, %s, stream of thread %d, message %d (%zu bytes)", round,
             phase_name[phase], t, k, n);
    mtest_check_status(st, left, tag, MPI_BYTE, (int)n, what);
    mtest_check_data(buf, n, left, msg_idx(round, phase, t, k), "%s", what);
    mtest_guard_check(buf + n, what);
}

/* Phases 1 and 3: thread t is a sender or a receiver (they swap from one
 * phase and round to the next).  A sender sends its whole stream with
 * blocking MPI_Send; the receiver of the stream of thread s is thread s^1
 * on the next rank, with blocking MPI_Recv, on the same communicator.  So
 * threads blocked in MPI_Send and in MPI_Recv on the same communicator must
 * all progress; nothing is in lockstep. */
static void blocking_phase(int t, int round, int phase)
{
    struct tbuf *b = &tb[t];
    int sender = (t + phase / 2 + round) % 2 == 0;
    int s = sender ? t : t ^ 1;                 /* the stream's sending thread */
    MPI_Comm comm = phase == 0 ? MPI_COMM_WORLD : scomm[s];
    int tag = phase == 0 ? 100 + s : 0;         /* tag sent */
    int rtag = phase == 0 ? tag : MPI_ANY_TAG;  /* tag received */
    size_t off = 0;
    /* every other message of the list: the senders of phase 1 are the
     * even threads in even rounds and the odd ones in odd rounds, so that
     * phase 1 takes the even k and phase 3 the odd k */
    for (int k = (s + round) % 2; k < nsizes; k += 2) {
        size_t n = size_at(s, k);
        int idx = msg_idx(round, phase, s, k);
        if (sender) {
            unsigned char *sb = b->sbuf + off;
            off += n;
            mtest_fill(sb, n, mtest_rank, idx);
            mt_where(t, phase == 0 ? "MPI_Send on MPI_COMM_WORLD" :
                     "MPI_Send on the thread's communicator", k);
            MTEST_RC(MPI_Send(sb, (int)n, MPI_BYTE, right, tag, comm));
        } else {
            MPI_Status st;
            mtest_poison(b->one, n, left, idx);
            mtest_guard_set(b->one + n);
            mtest_status_garbage(&st);
            mt_where(t, phase == 0 ? "MPI_Recv on MPI_COMM_WORLD" :
                     "MPI_Recv on a thread's communicator", k);
            MTEST_RC(MPI_Recv(b->one, (int)maxsize, MPI_BYTE, left, rtag, comm, &st));
            check_recv(s, round, phase, k, &st, b->one, tag);
        }
    }
}

/* Phases 2 and 4. */
static void burst_phase(int t, int round, int phase, MPI_Comm comm, int stag, int rtag,
                        int want_tag)
{
    struct tbuf *b = &tb[t];
    MPI_Request *rreq = b->req, *sreq = b->req + nsizes;
    size_t off, roff;

    off = roff = 0;
    for (int k = 0; k < nsizes; k++) {
        size_t n = size_at(t, k);
        mtest_fill(b->sbuf + off, n, mtest_rank, msg_idx(round, phase, t, k));
        mtest_poison(b->rbuf + roff, n, left, msg_idx(round, phase, t, k));
        mtest_guard_set(b->rbuf + roff + n);
        off += n;
        roff += n + MTEST_GUARD;
    }
    for (int pass = 0; pass < 2; pass++) {
        int recvs = (pass == 0) == (round % 2 == 0);
        off = roff = 0;
        for (int k = 0; k < nsizes; k++) {
            size_t n = size_at(t, k);
            mt_where(t, recvs ? "MPI_Irecv" : "MPI_Isend", k);
            if (recvs)
                MTEST_RC(MPI_Irecv(b->rbuf + roff, (int)n, MPI_BYTE, left, rtag, comm,
                                   &rreq[k]));
            else
                MTEST_RC(MPI_Isend(b->sbuf + off, (int)n, MPI_BYTE, right, stag, comm,
                                   &sreq[k]));
            off += n;
            roff += n + MTEST_GUARD;
        }
    }
    mt_where(t, "MPI_Waitall of a burst", round);
    int rc = MPI_Waitall(2 * nsizes, b->req, b->st);
    if (rc == MPI_ERR_IN_STATUS) {
        for (int k = 0; k < 2 * nsizes; k++) {
            if (b->st[k].MPI_ERROR != MPI_SUCCESS && b->st[k].MPI_ERROR != MPI_ERR_PENDING) {
                char str[MPI_MAX_ERROR_STRING];
                int len = 0;
                MPI_Error_string(b->st[k].MPI_ERROR, str, &len);
                mtest_fail("round %d, %s, thread %d: %s %d failed (a message overtaken?): %s",
                           round, phase_name[phase], t, k < nsizes ? "receive" : "send",
                           k % nsizes, str);
            }
        }
        return;
    }
    MTEST_RC(rc);
    roff = 0;
    for (int k = 0; k < nsizes; k++) {
        check_recv(t, round, phase, k, &b->st[k], b->rbuf + roff, want_tag);
        roff += size_at(t, k) + MTEST_GUARD;
    }
}

static void thread_main(int t, void *arg)
{
    int round = *(int *)arg;
    /* shared communicator, tag = thread number */
    blocking_phase(t, round, 0);
    burst_phase(t, round, 1, MPI_COMM_WORLD, t, t, t);
    /* own communicator, tag 0, received with MPI_ANY_TAG */
    blocking_phase(t, round, 2);
    burst_phase(t, round, 3, tcomm[t], 0, MPI_ANY_TAG, 0);
}

int main(int argc, char **argv)
{
    if (!mt_init(&argc, &argv))
        return mtest_finalize();
    if (argc > 1)
        rounds = atoi(argv[1]);
    if (argc > 2)
        maxsize = mtest_parse_size(argv[2]);
    right = (mtest_rank + 1) % mtest_size;
    left = (mtest_rank + mtest_size - 1) % mtest_size;
    sizes = mtest_size_list(maxsize, &nsizes);
    total = 0;
    for (int k = 0; k < nsizes; k++)
        total += sizes[k];

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int t = 0; t < MT_NTHREADS; t++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &tcomm[t]);
        MPI_Comm_set_errhandler(tcomm[t], MPI_ERRORS_RETURN);
        MPI_Comm_dup(MPI_COMM_WORLD, &scomm[t]);
        MPI_Comm_set_errhandler(scomm[t], MPI_ERRORS_RETURN);
        tb[t].sbuf = mtest_malloc(total + 1);
        tb[t].rbuf = mtest_malloc(total + (size_t)nsizes * MTEST_GUARD);
        tb[t].one = mtest_malloc(maxsize + MTEST_GUARD);
        tb[t].req = mtest_malloc(2 * nsizes * sizeof(MPI_Request));
        tb[t].st = mtest_malloc(2 * nsizes * sizeof(MPI_Status));
    }

    for (int round = 0; round < rounds; round++) {
        char phase[64];
        snprintf(phase, sizeof phase, "round %d", round);
        mt_run(phase, thread_main, &round);
    }

    for (int t = 0; t < MT_NTHREADS; t++) {
        MPI_Comm_free(&tcomm[t]);
        MPI_Comm_free(&scomm[t]);
        free(tb[t].sbuf);
        free(tb[t].rbuf);
        free(tb[t].one);
        free(tb[t].req);
        free(tb[t].st);
    }
    free(sizes);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return mtest_finalize();
}
