/*
 * ordering: the non-overtaking rule.  Many messages of mixed sizes (0 B to
 * 1 MiB, so that they take different protocol paths) between the two ranks
 * of a pair must be matched in the order they were sent, with one tag and
 * with mixed tags, whatever mix of Isend bursts, blocking sends, blocking
 * receives and pre-posted receives is used.
 *
 *   usage: ordering [nmsgs [maxsize]]     (default 2000 messages, 1M)
 *
 * Ranks are paired (0,1), (2,3), ...; an odd rank out runs the same phases
 * with itself.  Each phase runs in both directions.  Every receive posts
 * exactly the expected size, so a message matched out of order shows up as
 * a wrong count, a truncation or wrong bytes.  The communicator uses
 * MPI_ERRORS_RETURN so that such errors are reported, not fatal.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BURST 250
#define NTAGS 4
#define SAME_TAG 7

enum send_mode { SEND_ISEND_BURST, SEND_BLOCKING };
enum recv_mode { RECV_INORDER, RECV_ANYTAG, RECV_GROUPED, RECV_PREPOST_INORDER,
                 RECV_PREPOST_GROUPED, RECV_PREPOST_ANYTAG };

struct phase {
    const char *name;
    enum send_mode send;
    enum recv_mode recv;
    int mixed_tags;
};

static const struct phase phases[] = {
    {"Isend burst, one tag, blocking Recv", SEND_ISEND_BURST, RECV_INORDER, 0},
    {"Isend burst, mixed tags, Recv ANY_TAG", SEND_ISEND_BURST, RECV_ANYTAG, 1},
    {"Isend burst, mixed tags, Recv grouped by tag", SEND_ISEND_BURST, RECV_GROUPED, 1},
    {"blocking Send, one tag, pre-posted Irecv", SEND_BLOCKING, RECV_PREPOST_INORDER, 0},
    {"blocking Send, mixed tags, pre-posted Irecv grouped by tag", SEND_BLOCKING,
     RECV_PREPOST_GROUPED, 1},
    {"Isend burst, mixed tags, pre-posted Irecv ANY_TAG", SEND_ISEND_BURST,
     RECV_PREPOST_ANYTAG, 1},
};
#define NPHASES ((int)(sizeof phases / sizeof phases[0]))

static int nmsgs = 2000;
static size_t maxsize = 1 << 20;

/* Message plan: identical on both sides. */
static size_t *msize;
static int *mtag;

static void make_plan(int phase, int mixed)
{
    uint64_t st = 0x1234567ull + (uint64_t)phase * 7919;
    for (int i = 0; i < nmsgs; i++) {
        int cat = (int)(mtest_rand(&st) % 10);
        size_t lo, hi;
        if (cat < 4) { lo = 0; hi = 64; }
        else if (cat < 7) { lo = 65; hi = 4096; }
        else if (cat < 9) { lo = 4097; hi = 65536; }
        else { lo = 65537; hi = maxsize; }
        if (hi > maxsize) hi = maxsize;
        if (lo > hi) lo = hi;
        msize[i] = mtest_rand_range(&st, lo, hi);
        mtag[i] = mixed ? (int)(mtest_rand(&st) % NTAGS) : SAME_TAG;
    }
}

static int msg_idx(int phase, int i)
{
    return phase * 100000 + i;
}

/* Buffers of one burst [first, first + cnt). */
static unsigned char *sendbuf, *recvbuf;
static size_t soff[BURST], roff[BURST];
static MPI_Request sreq[BURST], rreq[BURST];
static MPI_Status rst[BURST];

static void layout(int first, int cnt)
{
    size_t s = 0, r = 0;
    for (int k = 0; k < cnt; k++) {
        soff[k] = s;
        roff[k] = r;
        s += msize[first + k];
        r += msize[first + k] + MTEST_GUARD;
    }
}

static void send_burst(const struct phase *ph, int p, int peer, int first, int cnt)
{
    for (int k = 0; k < cnt; k++) {
        int i = first + k;
        mtest_fill(sendbuf + soff[k], msize[i], mtest_rank, msg_idx(p, i));
        if (ph->send == SEND_ISEND_BURST)
            MTEST_RC(MPI_Isend(sendbuf + soff[k], (int)msize[i], MPI_BYTE, peer, mtag[i],
                               MPI_COMM_WORLD, &sreq[k]));
        else
            MTEST_RC(MPI_Send(sendbuf + soff[k], (int)msize[i], MPI_BYTE, peer, mtag[i],
                              MPI_COMM_WORLD));
    }
}

static void wait_sends(const struct phase *ph, int cnt)
{
    if (ph->send == SEND_ISEND_BURST)
        MTEST_RC(MPI_Waitall(cnt, sreq, MPI_STATUSES_IGNORE));
}

static void check_one(int p, int peer, int i, int k, const MPI_Status *st, const char *how)
{
    char w[200];
    snprintf(w, sizeof w, "phase %d (%s) message %d of %zu bytes tag %d", p, how, i, msize[i],
             mtag[i]);
    mtest_check_status(st, peer, mtag[i], MPI_BYTE, (int)msize[i], w);
    mtest_check_data(recvbuf + roff[k], msize[i], peer, msg_idx(p, i), "%s", w);
    mtest_guard_check(recvbuf + roff[k] + msize[i], w);
}

/* Order in which the receiver posts the receives of a burst. */
static int post_order[BURST];

static void make_post_order(const struct phase *ph, int first, int cnt)
{
    int n = 0;
    if (ph->recv == RECV_GROUPED || ph->recv == RECV_PREPOST_GROUPED) {
        for (int t = NTAGS - 1; t >= 0; t--)
            for (int k = 0; k < cnt; k++)
                if (mtag[first + k] == t)
                    post_order[n++] = k;
    } else {
        for (int k = 0; k < cnt; k++)
            post_order[n++] = k;
    }
}

static int recv_tag(const struct phase *ph, int i)
{
    return (ph->recv == RECV_ANYTAG || ph->recv == RECV_PREPOST_ANYTAG) ? MPI_ANY_TAG : mtag[i];
}

static int is_prepost(const struct phase *ph)
{
    return ph->recv >= RECV_PREPOST_INORDER;
}

static void prep_recvbuf(int p, int peer, int first, int cnt)
{
    for (int k = 0; k < cnt; k++) {
        mtest_poison(recvbuf + roff[k], msize[first + k], peer, msg_idx(p, first + k));
        mtest_guard_set(recvbuf + roff[k] + msize[first + k]);
    }
}

static void post_recvs(const struct phase *ph, int peer, int first, int cnt)
{
    for (int n = 0; n < cnt; n++) {
        int k = post_order[n], i = first + k;
        MTEST_RC(MPI_Irecv(recvbuf + roff[k], (int)msize[i], MPI_BYTE, peer, recv_tag(ph, i),
                           MPI_COMM_WORLD, &rreq[k]));
    }
}

static void complete_recvs(const struct phase *ph, int p, int peer, int first, int cnt)
{
    int rc = MPI_Waitall(cnt, rreq, rst);
    if (rc != MPI_SUCCESS) {
        mtest_fail("phase %d (%s): MPI_Waitall of receives returned %d", p, ph->name, rc);
        for (int k = 0; k < cnt; k++)
            if (rst[k].MPI_ERROR != MPI_SUCCESS)
                mtest_fail("phase %d: receive of message %d: error %d", p, first + k,
                           rst[k].MPI_ERROR);
    }
    for (int k = 0; k < cnt; k++)
        check_one(p, peer, first + k, k, &rst[k], ph->name);
}

static void blocking_recvs(const struct phase *ph, int p, int peer, int first, int cnt)
{
    for (int n = 0; n < cnt; n++) {
        int k = post_order[n], i = first + k;
        MPI_Status st;
        MTEST_RC(MPI_Recv(recvbuf + roff[k], (int)msize[i], MPI_BYTE, peer, recv_tag(ph, i),
                          MPI_COMM_WORLD, &st));
        check_one(p, peer, i, k, &st, ph->name);
    }
}

/* One phase in one direction; sender/receiver may be the same rank. */
static void run_phase(int p, int sender, int receiver)
{
    const struct phase *ph = &phases[p];
    int me = mtest_rank;
    for (int first = 0; first < nmsgs; first += BURST) {
        int cnt = nmsgs - first < BURST ? nmsgs - first : BURST;
        layout(first, cnt);
        make_post_order(ph, first, cnt);
        if (sender == receiver) {
            prep_recvbuf(p, me, first, cnt);
            if (ph->send == SEND_ISEND_BURST) {
                send_burst(ph, p, me, first, cnt);
                if (is_prepost(ph)) {
                    post_recvs(ph, me, first, cnt);
                    complete_recvs(ph, p, me, first, cnt);
                } else {
                    blocking_recvs(ph, p, me, first, cnt);
                }
            } else {
                post_recvs(ph, me, first, cnt);
                send_burst(ph, p, me, first, cnt);
                complete_recvs(ph, p, me, first, cnt);
            }
            wait_sends(ph, cnt);
        } else if (me == sender) {
            send_burst(ph, p, receiver, first, cnt);
            wait_sends(ph, cnt);
        } else {
            prep_recvbuf(p, sender, first, cnt);
            if (is_prepost(ph)) {
                post_recvs(ph, sender, first, cnt);
                complete_recvs(ph, p, sender, first, cnt);
            } else {
                blocking_recvs(ph, p, sender, first, cnt);
            }
        }
    }
}

/* Both directions at once: Isend burst and pre-posted Irecv (ANY_TAG). */
static void run_simultaneous(int p, int peer)
{
    static const struct phase ph = {"simultaneous both ways", SEND_ISEND_BURST,
                                    RECV_PREPOST_ANYTAG, 1};
    for (int first = 0; first < nmsgs; first += BURST) {
        int cnt = nmsgs - first < BURST ? nmsgs - first : BURST;
        layout(first, cnt);
        make_post_order(&ph, first, cnt);
        prep_recvbuf(p, peer, first, cnt);
        post_recvs(&ph, peer, first, cnt);
        send_burst(&ph, p, peer, first, cnt);
        complete_recvs(&ph, p, peer, first, cnt);
        wait_sends(&ph, cnt);
    }
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    if (argc > 1)
        nmsgs = atoi(argv[1]);
    if (argc > 2)
        maxsize = mtest_parse_size(argv[2]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int me = mtest_rank;
    int peer = me ^ 1;
    if (peer >= mtest_size)
        peer = me;
    int low = me < peer ? me : peer, high = me < peer ? peer : me;

    msize = mtest_malloc(nmsgs * sizeof *msize);
    mtag = mtest_malloc(nmsgs * sizeof *mtag);
    /* one burst can hold at most BURST messages of maxsize bytes */
    size_t cap = (size_t)BURST * (maxsize + MTEST_GUARD);
    sendbuf = mtest_malloc(cap);
    recvbuf = mtest_malloc(cap);

    double t0 = MPI_Wtime();
    for (int p = 0; p < NPHASES; p++) {
        make_plan(p, phases[p].mixed_tags);
        run_phase(p, low, high);
        run_phase(p, high, low);
    }
    make_plan(NPHASES, 1);
    run_simultaneous(NPHASES, peer);
    if (getenv("MTEST_VERBOSE"))
        printf("[rank %d] %.2fs\n", me, MPI_Wtime() - t0);

    free(msize);
    free(mtag);
    free(sendbuf);
    free(recvbuf);
    return mtest_finalize();
}
