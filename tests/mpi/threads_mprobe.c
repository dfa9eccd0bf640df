/*
 * threads_mprobe: matched probes in 4 threads at once
 * (MPI_THREAD_MULTIPLE).
 *
 * One phase per rank p: rank p is the prober, every other rank a sender.
 * The 4 threads of every sender rank each send nmsgs messages to rank p;
 * the 4 threads of rank p first MPI_Isend a few messages to p itself, then
 * all take messages off MPI_ANY_SOURCE + MPI_ANY_TAG at the same time, each
 * claiming the next of the messages still to be taken:
 *
 *   thread 0: MPI_Mprobe + MPI_Mrecv
 *   thread 1: MPI_Mprobe, then (every third message) a pause of 1 ms
 *             before MPI_Mrecv, so that the others probe meanwhile and
 *             must not see the matched message
 *   thread 2: MPI_Improbe loop + MPI_Mrecv
 *   thread 3: MPI_Improbe loop + MPI_Imrecv + MPI_Wait
 *
 * Every message has a tag of its own for its sender, (thread, seq), and
 * starts with (rank, thread, seq, phase); its size (16 B .. 1 MiB) follows
 * from those.  Checks: the message received is exactly the one the same
 * thread probed (header and the receive's status against the probe's
 * source, tag and count), the message handle is MPI_MESSAGE_NULL after the
 * receive, every byte of the payload, and every message was taken exactly
 * once.
 *
 *   usage: threads_mprobe [nmsgs]    (messages per sending thread, default 100)
 */
#include "mtest_threads.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR 16
#define MAXMSG ((1 << 20) + HDR)
#define NSELF 8

static int nmsgs = 100;

struct hdr {
    int32_t rank, thread, seq, phase;
};

static size_t size_of(int r, int t, int seq, int p)
{
    uint64_t st = ((uint64_t)p << 48) ^ ((uint64_t)r << 32) ^ ((uint64_t)t << 24) ^ (uint64_t)seq;
    uint64_t x = mtest_rand(&st);
    switch (x % 32) {
    case 0: return MAXMSG;
    case 1: case 2: return HDR + (size_t)(x >> 8) % (256 * 1024);
    case 3: case 4: case 5: case 6: return HDR + (size_t)(x >> 8) % 16384;
    default: return HDR + (size_t)(x >> 8) % 200;
    }
}

/* unique per (thread, seq) of one sender: seq < 4096 */
static int tag_of(int t, int seq)
{
    return t * 4096 + seq;
}

static int msg_idx(int p, int t, int seq)
{
    return (p * MT_NTHREADS + t) * 100000 + seq;
}

static size_t make_msg(unsigned char *buf, int r, int t, int seq, int p)
{
    size_t n = size_of(r, t, seq, p);
    struct hdr h = {r, t, seq, p};
    memcpy(buf, &h, HDR);
    mtest_fill(buf + HDR, n - HDR, r, msg_idx(p, t, seq));
    return n;
}

static int phase;
static int total;
static atomic_int claimed;
static atomic_int *seen;

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
        unsigned char *b = bufs[nreq];
        size_t n = make_msg(b, mtest_rank, t, seq, phase);
        if (seq % 4 == 0) {
            mt_where(t, "MPI_Send", seq);
            MPI_Send(b, (int)n, MPI_BYTE, phase, tag_of(t, seq), MPI_COMM_WORLD);
        } else {
            mt_where(t, "MPI_Isend", seq);
            MPI_Isend(b, (int)n, MPI_BYTE, phase, tag_of(t, seq), MPI_COMM_WORLD, &reqs[nreq++]);
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

static void prober(int t)
{
    unsigned char *buf = mtest_malloc(MAXMSG);
    unsigned char *sbuf = mtest_malloc((size_t)NSELF * MAXMSG);
    MPI_Request sreq[NSELF];
    MPI_Status sst[NSELF];

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
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status pst, st;
        mtest_status_garbage(&pst);
        mtest_status_garbage(&st);
        if (t < 2) {
            mt_where(t, "MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG)", k);
            MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &pst);
        } else {
            mt_where(t, "MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG) loop", k);
            int flag = 0;
            while (!flag)
                MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &pst);
        }
        if (!MTEST_CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC,
                         "phase %d, thread %d, probe %d: no message handle", phase, t, k))
            continue;
        int pcount = -1;
        MPI_Get_count(&pst, MPI_BYTE, &pcount);
        int psrc = pst.MPI_SOURCE, ptag = pst.MPI_TAG;
        char what[200];
        snprintf(what, sizeof what, "phase %d, thread %d, probe %d (source %d, tag %d, %d "
                 "bytes)", phase, t, k, psrc, ptag, pcount);
        if (!MTEST_CHECK(pcount >= HDR && pcount <= MAXMSG && psrc >= 0 && psrc < mtest_size &&
                         ptag >= 0 && ptag < MT_NTHREADS * 4096, "%s: bad probe status", what)) {
            MPI_Mrecv(buf, MAXMSG, MPI_BYTE, &msg, &st);
            continue;
        }
        if (t == 1 && k % 3 == 0)
            mtest_sleep_ms(1);
        mt_where(t, t == 3 ? "MPI_Imrecv + MPI_Wait" : "MPI_Mrecv", k);
        memset(buf, 0xee, HDR);
        if (t == 3) {
            MPI_Request r;
            MPI_Imrecv(buf, pcount, MPI_BYTE, &msg, &r);
            MTEST_CHECK(msg == MPI_MESSAGE_NULL, "%s: MPI_Imrecv left the message handle",
                        what);
            MPI_Wait(&r, &st);
        } else {
            MPI_Mrecv(buf, pcount, MPI_BYTE, &msg, &st);
            MTEST_CHECK(msg == MPI_MESSAGE_NULL, "%s: MPI_Mrecv left the message handle",
                        what);
        }
        mtest_check_status(&st, psrc, ptag, MPI_BYTE, pcount, what);
        struct hdr h;
        memcpy(&h, buf, HDR);
        if (!MTEST_CHECK(h.rank == psrc && h.thread == ptag / 4096 && h.seq == ptag % 4096 &&
                         h.phase == phase, "%s: received message (rank %d, thread %d, seq %d, "
                         "phase %d) is not the probed one", what, h.rank, h.thread, h.seq,
                         h.phase))
            continue;
        if (!MTEST_CHECK(h.seq < nseq(h.rank), "%s: seq %d out of range", what, h.seq))
            continue;
        size_t n = size_of(h.rank, h.thread, h.seq, phase);
        if (MTEST_CHECK(pcount == (int)n, "%s: probed count %d, message has %zu bytes", what,
                        pcount, n))
            mtest_check_data(buf + HDR, n - HDR, h.rank, msg_idx(phase, h.thread, h.seq), "%s",
                             what);
        int before = atomic_fetch_add(seen_at(h.rank, h.thread, h.seq), 1);
        MTEST_CHECK(before == 0, "%s: message received %d times", what, before + 1);
    }
    mt_where(t, "MPI_Waitall of the Isends to itself", 0);
    MPI_Waitall(NSELF, sreq, sst);
    free(buf);
    free(sbuf);
}

static void thread_main(int t, void *arg)
{
    (void)arg;
    if (mtest_rank == phase)
        prober(t);
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
    if (nmsgs > 4096)
        nmsgs = 4096;
    size_t nseen = (size_t)mtest_size * MT_NTHREADS * nmsgs;
    seen = mtest_malloc(nseen * sizeof *seen);

    for (phase = 0; phase < mtest_size; phase++) {
        total = (mtest_size - 1) * MT_NTHREADS * nmsgs + MT_NTHREADS * NSELF;
        atomic_store(&claimed, 0);
        for (size_t i = 0; i < nseen; i++)
            atomic_store(&seen[i], 0);
        char name[64];
        snprintf(name, sizeof name, "phase %d (rank %d probes)", phase, phase);
        mt_run(name, thread_main, NULL);

        if (mtest_rank == phase) {
            int missing = 0;
            for (int r = 0; r < mtest_size; r++)
                for (int t = 0; t < MT_NTHREADS; t++)
                    for (int seq = 0; seq < nseq(r); seq++)
                        if (atomic_load(seen_at(r, t, seq)) == 0 && missing++ < 10)
                            mtest_fail("phase %d: message %d of thread %d of rank %d never "
                                       "received", phase, seq, t, r);
            MTEST_CHECK(missing == 0, "phase %d: %d messages never received", phase, missing);
            /* nothing left over */
            int flag = -1;
            MPI_Message msg = MPI_MESSAGE_NULL;
            MPI_Status st;
            MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
            if (!MTEST_CHECK(flag == 0, "phase %d: a message left after all were received "
                             "(source %d, tag %d)", phase, st.MPI_SOURCE, st.MPI_TAG)) {
                unsigned char *b = mtest_malloc(MAXMSG);
                MPI_Mrecv(b, MAXMSG, MPI_BYTE, &msg, &st);
                free(b);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(seen);
    return mtest_finalize();
}
