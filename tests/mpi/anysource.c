/*
 * anysource: wildcard receives.  Every rank (rank 0 included, through
 * Isend to itself) sends many messages with different tags and sizes to
 * rank 0, which receives them with MPI_ANY_SOURCE, MPI_ANY_TAG or both and
 * checks the status fields, the data and that the messages of each source
 * arrive in the order that source sent them.  Then specific and wildcard
 * receives are outstanding at the same time, posted before the messages
 * are sent and after, and must match as MPI's matching rules say.
 *
 *   usage: anysource [nmsgs]     (messages per source, default 200)
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTAGS 7
#define MAXMSG (160 * 1024)

static int nmsgs = 200;

/* Message i of every source: tag and size known to both sides. */
static int tag_of(int i)
{
    return i % NTAGS;
}

static size_t size_of(int src, int i)
{
    uint64_t st = (uint64_t)src * 1000003u + (uint64_t)i;
    uint64_t r = mtest_rand(&st);
    switch (r % 8) {
    case 0: return 0;
    case 1: case 2: case 3: return (size_t)(r >> 8) % 100;
    case 4: case 5: return (size_t)(r >> 8) % 8192;
    case 6: return (size_t)(r >> 8) % 65536;
    default: return 65536 + (size_t)(r >> 8) % (MAXMSG - 65536);
    }
}

static int msg_idx(int phase, int i)
{
    return phase * 100000 + i;
}

/* ---- part A: nmsgs messages from every rank to rank 0 ----------------- */

static unsigned char *sendbuf, *rbuf;
static MPI_Request *sreq;

static void start_sends(int phase)
{
    size_t off = 0;
    for (int i = 0; i < nmsgs; i++) {
        size_t n = size_of(mtest_rank, i);
        mtest_fill(sendbuf + off, n, mtest_rank, msg_idx(phase, i));
        MPI_Isend(sendbuf + off, (int)n, MPI_BYTE, 0, tag_of(i), MPI_COMM_WORLD, &sreq[i]);
        off += n;
    }
}

/* The Barrier keeps the next phase's messages out of this phase's
 * wildcard receives. */
static void finish_sends(void)
{
    MPI_Waitall(nmsgs, sreq, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Receive-side bookkeeping: got[s * nmsgs + i] is set once message i of
 * source s has been received.  A receive from source s with tag t must get
 * the first message of s not yet received whose tag matches t (per-source
 * non-overtaking). */
static unsigned char *got;
static int received;

static void reset_counts(void)
{
    memset(got, 0, (size_t)mtest_size * nmsgs);
    received = 0;
}

static void recv_one(int phase, int src, int tag, const char *what)
{
    MPI_Status st;
    mtest_status_garbage(&st);
    MPI_Recv(rbuf, MAXMSG, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st);
    received++;
    int s = st.MPI_SOURCE;
    if (!MTEST_CHECK(s >= 0 && s < mtest_size, "%s: status.MPI_SOURCE %d out of range", what, s))
        return;
    if (src != MPI_ANY_SOURCE && !MTEST_CHECK(s == src, "%s: status.MPI_SOURCE %d, receive "
                                              "was for source %d", what, s, src))
        return;
    int i = 0;
    while (i < nmsgs && (got[s * nmsgs + i] || (tag != MPI_ANY_TAG && tag_of(i) != tag)))
        i++;
    if (!MTEST_CHECK(i < nmsgs, "%s: one message too many from %d", what, s))
        return;
    got[s * nmsgs + i] = 1;
    char w[160];
    snprintf(w, sizeof w, "%s: message %d of source %d", what, i, s);
    mtest_check_status(&st, s, tag_of(i), MPI_BYTE, (int)size_of(s, i), w);
    mtest_check_data(rbuf, size_of(s, i), s, msg_idx(phase, i), "%s", w);
}

static int tag_count(int t)
{
    int n = 0;
    for (int i = 0; i < nmsgs; i++)
        n += tag_of(i) == t;
    return n;
}

static void part_a(void)
{
    int phase;
    const int size = mtest_size;

    /* ANY_SOURCE + ANY_TAG */
    phase = 0;
    start_sends(phase);
    if (mtest_rank == 0) {
        reset_counts();
        for (int k = 0; k < nmsgs * size; k++)
            recv_one(phase, MPI_ANY_SOURCE, MPI_ANY_TAG, "ANY_SOURCE+ANY_TAG");
    }
    finish_sends();

    /* ANY_SOURCE + specific tag, highest tag first */
    phase = 1;
    start_sends(phase);
    if (mtest_rank == 0) {
        reset_counts();
        for (int t = NTAGS - 1; t >= 0; t--)
            for (int k = 0; k < tag_count(t) * size; k++)
                recv_one(phase, MPI_ANY_SOURCE, t, "ANY_SOURCE, specific tag");
    }
    finish_sends();

    /* specific source + ANY_TAG, highest source first */
    phase = 2;
    start_sends(phase);
    if (mtest_rank == 0) {
        reset_counts();
        for (int s = size - 1; s >= 0; s--)
            for (int k = 0; k < nmsgs; k++)
                recv_one(phase, s, MPI_ANY_TAG, "specific source, ANY_TAG");
    }
    finish_sends();

    /* mixed: a round of (ANY_SOURCE, tag 3), then 3 ANY_TAG receives per
     * source, then whatever is left with ANY/ANY */
    phase = 3;
    start_sends(phase);
    if (mtest_rank == 0) {
        reset_counts();
        for (int k = 0; k < size && k < tag_count(3); k++)
            recv_one(phase, MPI_ANY_SOURCE, 3, "mixed: ANY_SOURCE, tag 3");
        for (int s = 0; s < size; s++)
            for (int k = 0; k < 3; k++)
                recv_one(phase, s, MPI_ANY_TAG, "mixed: specific source, ANY_TAG");
        while (received < nmsgs * size)
            recv_one(phase, MPI_ANY_SOURCE, MPI_ANY_TAG, "mixed: ANY/ANY");
        for (int k = 0; k < size * nmsgs; k++)
            MTEST_CHECK(got[k], "mixed: message %d of source %d never received", k % nmsgs,
                        k / nmsgs);
    }
    finish_sends();
}

/* ---- part B: specific and wildcard receives outstanding at once ------- */

/* Each rank s sends a handful of small messages to rank 0; rank 0 posts
 * nonblocking receives, either before the messages are sent (posted_first:
 * Barrier after posting) or after (Barrier after sending). */
struct bmsg { int tag; int idx; };

static void part_b(int posted_first)
{
    const int size = mtest_size, me = mtest_rank;
    const int base = posted_first ? 10000 : 20000;
    /* per sender: tags 100+s, 200+s, 5, 6, 300+s, 300+s */
    enum { NB = 6 };
    struct bmsg plan[NB] = {{100, 0}, {200, 1}, {5, 2}, {6, 3}, {300, 4}, {300, 5}};
    int sval[NB];
    MPI_Request sr[NB];

    int nr = 7 * size;
    int *rval = mtest_malloc(nr * 2 * sizeof(int));
    MPI_Request *rr = mtest_malloc(nr * sizeof *rr);
    MPI_Status *rs = mtest_malloc(nr * sizeof *rs);
    /* receive slot -> description */
    enum kind { R1, R2, SPEC5, WILD, W300, S300 };
    int *rkind = mtest_malloc(nr * sizeof(int)), *rsrc = mtest_malloc(nr * sizeof(int));

    if (!posted_first) {
        for (int k = 0; k < NB; k++) {
            int tag = plan[k].tag >= 100 ? plan[k].tag + me : plan[k].tag;
            sval[k] = base + me * 100 + plan[k].idx;
            MPI_Isend(&sval[k], 1, MPI_INT, 0, tag, MPI_COMM_WORLD, &sr[k]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (me == 0) {
        int n = 0;
        /* B1: (ANY_SOURCE, 100+s) and (s, ANY_TAG): 100+s message goes to
         * the first, the 200+s message to the second */
        for (int s = 0; s < size; s++) {
            rkind[n] = R1; rsrc[n] = s;
            MPI_Irecv(&rval[2 * n], 2, MPI_INT, MPI_ANY_SOURCE, 100 + s, MPI_COMM_WORLD, &rr[n]);
            n++;
        }
        for (int s = 0; s < size; s++) {
            rkind[n] = R2; rsrc[n] = s;
            MPI_Irecv(&rval[2 * n], 2, MPI_INT, s, MPI_ANY_TAG, MPI_COMM_WORLD, &rr[n]);
            n++;
        }
        /* B2: (s, 5) for every s, then size x (ANY_SOURCE, tag 6) */
        for (int s = 0; s < size; s++) {
            rkind[n] = SPEC5; rsrc[n] = s;
            MPI_Irecv(&rval[2 * n], 2, MPI_INT, s, 5, MPI_COMM_WORLD, &rr[n]);
            n++;
        }
        for (int s = 0; s < size; s++) {
            rkind[n] = WILD; rsrc[n] = -1;
            MPI_Irecv(&rval[2 * n], 2, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &rr[n]);
            n++;
        }
        /* B3: (ANY_SOURCE, 300+s) posted before (s, 300+s): the first gets
         * the first 300+s message of s, the second the second */
        for (int s = 0; s < size; s++) {
            rkind[n] = W300; rsrc[n] = s;
            MPI_Irecv(&rval[2 * n], 2, MPI_INT, MPI_ANY_SOURCE, 300 + s, MPI_COMM_WORLD,
                      &rr[n]);
            n++;
            rkind[n] = S300; rsrc[n] = s;
            MPI_Irecv(&rval[2 * n], 2, MPI_INT, s, 300 + s, MPI_COMM_WORLD, &rr[n]);
            n++;
        }
        nr = n;
    }
    if (posted_first) {
        MPI_Barrier(MPI_COMM_WORLD);
        for (int k = 0; k < NB; k++) {
            int tag = plan[k].tag >= 100 ? plan[k].tag + me : plan[k].tag;
            sval[k] = base + me * 100 + plan[k].idx;
            MPI_Isend(&sval[k], 1, MPI_INT, 0, tag, MPI_COMM_WORLD, &sr[k]);
        }
    }
    if (me == 0) {
        const char *mode = posted_first ? "receives posted first" : "messages sent first";
        MPI_Waitall(nr, rr, rs);
        int *wild_seen = calloc(size, sizeof(int));
        for (int n = 0; n < nr; n++) {
            int s = rsrc[n], v = rval[2 * n];
            char w[120];
            snprintf(w, sizeof w, "%s: receive %d (kind %d, source %d)", mode, n, rkind[n], s);
            switch (rkind[n]) {
            case R1:
                mtest_check_status(&rs[n], s, 100 + s, MPI_INT, 1, w);
                MTEST_CHECK(v == base + s * 100 + 0, "%s: value %d", w, v);
                break;
            case R2:
                mtest_check_status(&rs[n], s, 200 + s, MPI_INT, 1, w);
                MTEST_CHECK(v == base + s * 100 + 1, "%s: value %d", w, v);
                break;
            case SPEC5:
                mtest_check_status(&rs[n], s, 5, MPI_INT, 1, w);
                MTEST_CHECK(v == base + s * 100 + 2, "%s: value %d", w, v);
                break;
            case WILD: {
                int src = rs[n].MPI_SOURCE;
                if (MTEST_CHECK(src >= 0 && src < size, "%s: source %d", w, src)) {
                    MTEST_CHECK(wild_seen[src]++ == 0, "%s: second tag-6 message from %d", w,
                                src);
                    mtest_check_status(&rs[n], src, 6, MPI_INT, 1, w);
                    MTEST_CHECK(v == base + src * 100 + 3, "%s: value %d", w, v);
                }
                break;
            }
            case W300:
                mtest_check_status(&rs[n], s, 300 + s, MPI_INT, 1, w);
                MTEST_CHECK(v == base + s * 100 + 4, "%s: value %d (expected the first "
                            "300+s message)", w, v);
                break;
            case S300:
                mtest_check_status(&rs[n], s, 300 + s, MPI_INT, 1, w);
                MTEST_CHECK(v == base + s * 100 + 5, "%s: value %d (expected the second "
                            "300+s message)", w, v);
                break;
            }
        }
        free(wild_seen);
    }
    MPI_Waitall(NB, sr, MPI_STATUSES_IGNORE);
    free(rval);
    free(rr);
    free(rs);
    free(rkind);
    free(rsrc);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    if (argc > 1)
        nmsgs = atoi(argv[1]);

    size_t total = 0;
    for (int i = 0; i < nmsgs; i++)
        total += size_of(mtest_rank, i);
    sendbuf = mtest_malloc(total);
    rbuf = mtest_malloc(MAXMSG);
    sreq = mtest_malloc(nmsgs * sizeof *sreq);
    got = mtest_malloc((size_t)mtest_size * nmsgs);

    part_a();
    MPI_Barrier(MPI_COMM_WORLD);
    part_b(1);
    MPI_Barrier(MPI_COMM_WORLD);
    part_b(0);

    free(sendbuf);
    free(rbuf);
    free(sreq);
    free(got);
    return mtest_finalize();
}
