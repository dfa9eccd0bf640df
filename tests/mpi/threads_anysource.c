/*
 * threads_anysource: wildcard receives in 4 threads at once
 * (MPI_THREAD_MULTIPLE).
 *
 * One phase per rank p: rank p is the receiver, every other rank a sender.
 * The 4 threads of every sender rank each send nmsgs messages to rank p
 * (mixing MPI_Send, MPI_Ssend and windows of MPI_Isend); the 4 threads of
 * rank p first MPI_Isend a few messages to p itself, then all post
 * MPI_ANY_SOURCE + MPI_ANY_TAG receives at the same time (MPI_Recv,
 * MPI_Irecv + MPI_Wait, MPI_Irecv + an MPI_Test loop), each claiming the
 * next of the receives still to be done, until exactly as many receives
 * as messages have been done.
 *
 * Each message starts with (rank, thread, seq, phase); its tag and size
 * (16 B .. 1 MiB, most of them small) follow from those, the rest is the
 * mtest pattern of (rank, message).  Checks for every receive: the header
 * is valid, status source, tag and count agree with it, every byte of the
 * payload; and over the phase: every message was received exactly once
 * (no loss, no duplicate), the number of receives, and a checksum of all
 * the bytes received against one computed from the messages that were
 * sent.
 *
 *   usage: threads_anysource [nmsgs]    (messages per sending thread, default 100)
 */
#include "mtest_threads.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR 16
#define MAXMSG ((1 << 20) + HDR)
#define NSELF 8             /* messages each receiving thread sends itself */

static int nmsgs = 100;

struct hdr {
    int32_t rank, thread, seq, phase;
};

/* Size and tag of message seq of thread t of rank r in phase p. */
static size_t size_of(int r, int t, int seq, int p)
{
    uint64_t st = ((uint64_t)p << 48) ^ ((uint64_t)r << 32) ^ ((uint64_t)t << 24) ^ (uint64_t)seq;
    uint64_t x = mtest_rand(&st);
    switch (x % 32) {
    case 0: return MAXMSG;                                 /* 1 MiB payload */
    case 1: case 2: return HDR + (size_t)(x >> 8) % (256 * 1024);
    case 3: case 4: case 5: case 6: return HDR + (size_t)(x >> 8) % 16384;
    default: return HDR + (size_t)(x >> 8) % 200;
    }
}

static int tag_of(int t, int seq)
{
    return (seq * 7 + t * 3) % 1000;
}

static int msg_idx(int p, int t, int seq)
{
    return (p * MT_NTHREADS + t) * 100000 + seq;
}

/* Builds message (r, t, seq, p) in buf; returns its size. */
static size_t make_msg(unsigned char *buf, int r, int t, int seq, int p)
{
    size_t n = size_of(r, t, seq, p);
    struct hdr h = {r, t, seq, p};
    memcpy(buf, &h, HDR);
    mtest_fill(buf + HDR, n - HDR, r, msg_idx(p, t, seq));
    return n;
}

/* ---- one phase ------------------------------------------------------------ */

static int phase;                     /* the receiving rank */
static int total;                     /* receives to do at `phase` */
static atomic_int claimed;            /* receives claimed so far */
static atomic_int *seen;              /* [rank][thread][seq] */
static atomic_int nrecv;
static uint64_t sums[MT_NTHREADS];    /* checksums of what each thread received */

static int nseq(int r)
{
    return r == phase ? NSELF : nmsgs;
}

static atomic_int *seen_at(int r, int t, int seq)
{
    return &seen[((size_t)r * MT_NTHREADS + t) * nmsgs + seq];
}

static void sender(int t)
{
    unsigned char *bufs[8];
    MPI_Request reqs[8];
    MPI_Status sts[8];
    int nreq = 0;
    for (int i = 0; i < 8; i++)
        bufs[i] = mtest_malloc(MAXMSG);
    for (int seq = 0; seq < nmsgs; seq++) {
        int mode = seq % 5;           /* 0 Send, 1 Ssend, else Isend */
        unsigned char *b = bufs[nreq];
        size_t n = make_msg(b, mtest_rank, t, seq, phase);
        int tag = tag_of(t, seq);
        mt_where(t, mode == 0 ? "MPI_Send" : mode == 1 ? "MPI_Ssend" : "MPI_Isend", seq);
        if (mode == 0) {
            MPI_Send(b, (int)n, MPI_BYTE, phase, tag, MPI_COMM_WORLD);
        } else if (mode == 1) {
            MPI_Ssend(b, (int)n, MPI_BYTE, phase, tag, MPI_COMM_WORLD);
        } else {
            MPI_Isend(b, (int)n, MPI_BYTE, phase, tag, MPI_COMM_WORLD, &reqs[nreq++]);
            if (nreq == 8) {
                mt_where(t, "MPI_Waitall of Isends", seq);
                MPI_Waitall(nreq, reqs, sts);
                nreq = 0;
            }
        }
    }
    mt_where(t, "MPI_Waitall of Isends", nmsgs);
    MPI_Waitall(nreq, reqs, sts);
    for (int i = 0; i < 8; i++)
        free(bufs[i]);
}

static void check_one(int t, const MPI_Status *st, const unsigned char *buf, int k)
{
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    if (!MTEST_CHECK(count >= HDR, "phase %d, thread %d, receive %d: %d bytes (source %d, "
                     "tag %d), less than a header", phase, t, k, count, st->MPI_SOURCE,
                     st->MPI_TAG))
        return;
    struct hdr h;
    memcpy(&h, buf, HDR);
    if (!MTEST_CHECK(h.rank >= 0 && h.rank < mtest_size && h.thread >= 0 &&
                     h.thread < MT_NTHREADS && h.seq >= 0 && h.seq < nseq(h.rank) &&
                     h.phase == phase, "phase %d, thread %d, receive %d: bad header (rank %d, "
                     "thread %d, seq %d, phase %d) from source %d tag %d", phase, t, k, h.rank,
                     h.thread, h.seq, h.phase, st->MPI_SOURCE, st->MPI_TAG))
        return;
    char what[160];
    snprintf(what, sizeof what, "phase %d, thread %d, receive %d: message %d of thread %d of "
             "rank %d", phase, t, k, h.seq, h.thread, h.rank);
    size_t n = size_of(h.rank, h.thread, h.seq, phase);
    mtest_check_status(st, h.rank, tag_of(h.thread, h.seq), MPI_BYTE, (int)n, what);
    if (count == (int)n)
        mtest_check_data(buf + HDR, n - HDR, h.rank, msg_idx(phase, h.thread, h.seq), "%s",
                         what);
    int before = atomic_fetch_add(seen_at(h.rank, h.thread, h.seq), 1);
    MTEST_CHECK(before == 0, "%s: received %d times", what, before + 1);
}

static void receiver(int t)
{
    unsigned char *buf = mtest_malloc(MAXMSG);
    unsigned char *sbuf = mtest_malloc((size_t)NSELF * MAXMSG);
    MPI_Request sreq[NSELF];
    MPI_Status sst[NSELF];
    uint64_t sum = 0;

    for (int seq = 0; seq < NSELF; seq++) {
        unsigned char *b = sbuf + (size_t)seq * MAXMSG;
        size_t n = make_msg(b, mtest_rank, t, seq, phase);
        mt_where(t, "MPI_Isend to itself", seq);
        MPI_Isend(b, (int)n, MPI_BYTE, mtest_rank, tag_of(t, seq), MPI_COMM_WORLD, &sreq[seq]);
    }
    for (;;) {
        int k = atomic_fetch_add(&claimed, 1);
        if (k >= total)
            break;
        MPI_Status st;
        MPI_Request r;
        mtest_status_garbage(&st);
        switch ((k + t) % 3) {
        case 0:
            mt_where(t, "MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG)", k);
            MPI_Recv(buf, MAXMSG, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            break;
        case 1:
            mt_where(t, "MPI_Wait on MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG)", k);
            MPI_Irecv(buf, MAXMSG, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, &st);
            break;
        default: {
            mt_where(t, "MPI_Test loop on MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG)", k);
            int flag = 0;
            MPI_Irecv(buf, MAXMSG, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
            while (!flag)
                MPI_Test(&r, &flag, &st);
            break;
        }
        }
        int count = 0;
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (count >= 0 && count <= MAXMSG)
            sum += mt_fnv(MT_FNV_INIT, buf, (size_t)count);
        atomic_fetch_add(&nrecv, 1);
        check_one(t, &st, buf, k);
    }
    mt_where(t, "MPI_Waitall of the Isends to itself", 0);
    MPI_Waitall(NSELF, sreq, sst);
    sums[t] = sum;
    free(buf);
    free(sbuf);
}

static void thread_main(int t, void *arg)
{
    (void)arg;
    if (mtest_rank == phase)
        receiver(t);
    else
        sender(t);
}

int main(int argc, char **argv)
{
    if (!mt_init(&argc, &argv))
        return mtest_finalize();
    if (argc > 1)
        nmsgs = atoi(argv[1]);
    if (nmsgs < NSELF)
        nmsgs = NSELF;
    size_t nseen = (size_t)mtest_size * MT_NTHREADS * nmsgs;
    seen = mtest_malloc(nseen * sizeof *seen);
    unsigned char *tmp = mtest_malloc(MAXMSG);

    for (phase = 0; phase < mtest_size; phase++) {
        total = (mtest_size - 1) * MT_NTHREADS * nmsgs + MT_NTHREADS * NSELF;
        atomic_store(&claimed, 0);
        atomic_store(&nrecv, 0);
        for (size_t i = 0; i < nseen; i++)
            atomic_store(&seen[i], 0);
        char name[64];
        snprintf(name, sizeof name, "phase %d (rank %d receives)", phase, phase);
        mt_run(name, thread_main, NULL);

        if (mtest_rank == phase) {
            /* every message exactly once, and the checksum of all of them */
            uint64_t sum = 0, expect = 0;
            int missing = 0;
            for (int t = 0; t < MT_NTHREADS; t++)
                sum += sums[t];
            for (int r = 0; r < mtest_size; r++)
                for (int t = 0; t < MT_NTHREADS; t++)
                    for (int seq = 0; seq < nseq(r); seq++) {
                        size_t n = make_msg(tmp, r, t, seq, phase);
                        expect += mt_fnv(MT_FNV_INIT, tmp, n);
                        if (atomic_load(seen_at(r, t, seq)) == 0 && missing++ < 10)
                            mtest_fail("phase %d: message %d of thread %d of rank %d never "
                                       "received", phase, seq, t, r);
                    }
            MTEST_CHECK(missing == 0, "phase %d: %d messages never received", phase, missing);
            MTEST_CHECK(atomic_load(&nrecv) == total, "phase %d: %d receives done, expected "
                        "%d", phase, atomic_load(&nrecv), total);
            MTEST_CHECK(sum == expect, "phase %d: checksum of all messages received "
                        "%016llx, of all sent %016llx", phase, (unsigned long long)sum,
                        (unsigned long long)expect);
        }
        /* keeps the next phase's messages out of this phase's receives */
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(seen);
    free(tmp);
    return mtest_finalize();
}
