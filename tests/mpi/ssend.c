/*
 * ssend: synchronous sends complete only once the matching receive has
 * been posted (matched), whatever the message size.
 *
 *  - MPI_Issend: the receiver sleeps DELAY ms, then tells the sender (a
 *    separate message) that it is about to post, then posts.  The sender
 *    polls the Issend with MPI_Test; it must not complete before the word
 *    from the receiver has arrived, nor before DELAY ms have passed since
 *    the sender entered the preceding Barrier.
 *  - MPI_Ssend: blocking, same set-up; it must take at least DELAY ms.
 *  - an Issend to oneself is not complete until the receive is posted.
 *  - a synchronous send whose receive was posted first completes normally.
 *
 * Ranks are paired (0,1), (2,3), ...; an odd rank out runs the self test.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DELAY_MS 200
#define TAG_DATA 1
#define TAG_POSTING 2

static const size_t sizes[] = {0, 8, 1000, 65536, 1 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void issend_pair(int peer, int sender, size_t n, int idx)
{
    unsigned char *b = mtest_malloc(n);
    MPI_Request r;
    MPI_Status st;

    if (sender) {
        mtest_fill(b, n, mtest_rank, idx);
        double t0 = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        int posting = 0, sigflag = 0, done = 0;
        MPI_Request sig;
        MPI_Irecv(&posting, 1, MPI_INT, peer, TAG_POSTING, MPI_COMM_WORLD, &sig);
        MPI_Issend(b, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r);
        long polls = 0;
        while (!sigflag) {
            MPI_Test(&r, &done, &st);
            polls++;
            if (done) {
                double t = MPI_Wtime() - t0;
                /* the receiver's word may have arrived in the same progress
                 * step as the acknowledgement: look once more */
                MPI_Test(&sig, &sigflag, MPI_STATUS_IGNORE);
                MTEST_CHECK(sigflag, "Issend of %zu bytes completed before the receiver said "
                            "it posts (after %.3f s, %ld polls)", n, t, polls);
                MTEST_CHECK(t >= DELAY_MS / 1000.0, "Issend of %zu bytes completed after "
                            "%.3f s, the receiver posts after at least %.3f s", n, t,
                            DELAY_MS / 1000.0);
                if (!sigflag)
                    MPI_Wait(&sig, MPI_STATUS_IGNORE);
                break;
            }
            MPI_Test(&sig, &sigflag, MPI_STATUS_IGNORE);
        }
        MTEST_CHECK(posting == 4711, "posting word is %d", posting);
        if (!done)
            MPI_Wait(&r, &st);
        MTEST_CHECK(r == MPI_REQUEST_NULL, "completed Issend request not freed");
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        mtest_sleep_ms(DELAY_MS);
        int posting = 4711;
        MPI_Send(&posting, 1, MPI_INT, peer, TAG_POSTING, MPI_COMM_WORLD);
        mtest_poison(b, n, peer, idx);
        MPI_Recv(b, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &st);
        mtest_check_status(&st, peer, TAG_DATA, MPI_BYTE, (int)n, "Issend receive");
        mtest_check_data(b, n, peer, idx, "Issend of %zu bytes", n);
    }
    free(b);
}

static void ssend_pair(int peer, int sender, size_t n, int idx)
{
    unsigned char *b = mtest_malloc(n);
    MPI_Status st;
    if (sender) {
        mtest_fill(b, n, mtest_rank, idx);
        double t0 = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Ssend(b, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0;
        MTEST_CHECK(t >= DELAY_MS / 1000.0, "Ssend of %zu bytes returned after %.3f s, the "
                    "receiver posts after at least %.3f s", n, t, DELAY_MS / 1000.0);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        mtest_sleep_ms(DELAY_MS);
        mtest_poison(b, n, peer, idx);
        MPI_Recv(b, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &st);
        mtest_check_status(&st, peer, TAG_DATA, MPI_BYTE, (int)n, "Ssend receive");
        mtest_check_data(b, n, peer, idx, "Ssend of %zu bytes", n);
    }
    free(b);
}

/* Receive posted first: the synchronous sends complete without delay. */
static void preposted_pair(int peer, size_t n, int idx)
{
    unsigned char *sb = mtest_malloc(n), *rb = mtest_malloc(n);
    MPI_Request r[2];
    MPI_Status st[2];
    mtest_fill(sb, n, mtest_rank, idx);
    mtest_poison(rb, n, peer, idx);
    MPI_Irecv(rb, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r[0]);
    /* both receives are posted before either synchronous send starts */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Ssend(sb, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
    MPI_Wait(&r[0], &st[0]);
    mtest_check_status(&st[0], peer, TAG_DATA, MPI_BYTE, (int)n, "pre-posted Ssend");
    mtest_check_data(rb, n, peer, idx, "pre-posted Ssend of %zu bytes", n);

    mtest_fill(sb, n, mtest_rank, idx + 1);
    mtest_poison(rb, n, peer, idx + 1);
    MPI_Irecv(rb, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r[0]);
    MPI_Issend(sb, (int)n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, st);
    mtest_check_status(&st[0], peer, TAG_DATA, MPI_BYTE, (int)n, "Issend exchange");
    mtest_check_data(rb, n, peer, idx + 1, "Issend exchange of %zu bytes", n);
    free(sb);
    free(rb);
}

static void self_test(size_t n, int idx)
{
    const int me = mtest_rank;
    unsigned char *sb = mtest_malloc(n), *rb = mtest_malloc(n);
    MPI_Request r[2];
    MPI_Status st[2];
    int flag = 0;

    mtest_fill(sb, n, me, idx);
    mtest_poison(rb, n, me, idx);
    MPI_Issend(sb, (int)n, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD, &r[1]);
    for (int k = 0; k < 5 && !flag; k++) {
        MPI_Test(&r[1], &flag, &st[1]);
        mtest_sleep_ms(5);
    }
    MTEST_CHECK(!flag, "Issend of %zu bytes to self completed with no receive posted", n);
    if (flag)
        r[1] = MPI_REQUEST_NULL;
    MPI_Irecv(rb, (int)n, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD, &r[0]);
    MPI_Waitall(2, r, st);
    mtest_check_status(&st[0], me, TAG_DATA, MPI_BYTE, (int)n, "Issend to self");
    mtest_check_data(rb, n, me, idx, "Issend to self of %zu bytes", n);

    /* Ssend to self with the receive posted first */
    mtest_fill(sb, n, me, idx + 1);
    mtest_poison(rb, n, me, idx + 1);
    MPI_Irecv(rb, (int)n, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD, &r[0]);
    MPI_Ssend(sb, (int)n, MPI_BYTE, me, TAG_DATA, MPI_COMM_WORLD);
    MPI_Wait(&r[0], &st[0]);
    mtest_check_data(rb, n, me, idx + 1, "Ssend to self of %zu bytes", n);
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    const int me = mtest_rank;
    int peer = me ^ 1;
    if (peer >= mtest_size)
        peer = me;

    /* Every rank enters the same Barriers: the ranks in pairs take part in
     * the timed exchanges, the odd one out only in the Barriers. */
    for (int s = 0; s < NSIZES; s++) {
        int sender = me < peer;
        /* both directions: the roles alternate with the size */
        if (s % 2)
            sender = !sender;
        if (peer == me)
            MPI_Barrier(MPI_COMM_WORLD);
        else
            issend_pair(peer, sender, sizes[s], 10 * s);
    }
    for (int s = 0; s < NSIZES; s += 2) {
        int sender = (me < peer) ^ (s / 2 % 2);
        if (peer == me)
            MPI_Barrier(MPI_COMM_WORLD);
        else
            ssend_pair(peer, sender, sizes[s], 10 * s + 1);
    }
    for (int s = 0; s < NSIZES; s++) {
        if (peer == me) {
            MPI_Barrier(MPI_COMM_WORLD);
            self_test(sizes[s], 10 * s + 2);
        } else {
            preposted_pair(peer, sizes[s], 10 * s + 2);
        }
    }
    return mtest_finalize();
}
