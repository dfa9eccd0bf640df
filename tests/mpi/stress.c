/*
 * stress: a seeded random mix of point-to-point traffic among all ranks.
 *
 *   usage: stress [rounds [seed [maxsize]]]   (default 100, 12345, 1M)
 *
 * Every rank derives the same plan from the seed: in each round, for every
 * ordered pair of ranks (a rank and itself included) 0 to 3 messages of
 * random size (mostly small, some up to maxsize) and random tag.  Each rank
 * posts its receives and its sends (MPI_Isend, sometimes MPI_Issend) in a
 * random interleaving that keeps the order of the receives from each
 * source and of the sends to each destination, then completes everything
 * with MPI_Waitsome (some rounds MPI_Testsome or MPI_Waitany) and checks
 * every message's status and data.
 *
 * Even rounds also carry small messages with tag WILDTAG, received with
 * MPI_ANY_SOURCE; the k-th of those matched from a source must be that
 * source's k-th one.  Odd rounds receive some messages with MPI_ANY_TAG
 * (from a specific source).  A Barrier after every even round keeps one
 * round's wildcard receives from matching a later round's messages; odd
 * rounds overlap freely with their neighbours.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WILDTAG 99
#define MAXPER 3            /* messages per ordered pair and round */
#define WILDMAX 4096        /* largest wildcard message */

static int rounds = 100;
static uint64_t seed = 12345;
static size_t maxsize = 1 << 20;

struct msg {
    size_t size;
    int tag;
    int anytag;     /* received with MPI_ANY_TAG */
    int sync;       /* sent with MPI_Issend */
};

/* plan[(src * size + dst) * MAXPER + k], count[src * size + dst] */
static struct msg *plan;
static int *count;

static void make_plan(int round)
{
    const int size = mtest_size;
    uint64_t st = seed * 1000003u + (uint64_t)round;
    for (int s = 0; s < size; s++) {
        for (int d = 0; d < size; d++) {
            int n = (int)(mtest_rand(&st) % (MAXPER + 1));
            count[s * size + d] = n;
            for (int k = 0; k < n; k++) {
                struct msg *m = &plan[(s * size + d) * MAXPER + k];
                uint64_t r = mtest_rand(&st);
                int cat = (int)(r % 100);
                if (cat < 60)
                    m->size = mtest_rand_range(&st, 0, 256);
                else if (cat < 85)
                    m->size = mtest_rand_range(&st, 257, 16384);
                else if (cat < 95)
                    m->size = mtest_rand_range(&st, 16385, 131072);
                else
                    m->size = mtest_rand_range(&st, 131073, maxsize > 131073 ? maxsize : 131073);
                if (m->size > maxsize)
                    m->size = maxsize;
                m->tag = (int)(mtest_rand(&st) % 6);
                m->anytag = 0;
                if (round % 2 == 0 && mtest_rand(&st) % 10 == 0) {
                    m->tag = WILDTAG;
                    if (m->size > WILDMAX)
                        m->size = m->size % (WILDMAX + 1);
                } else if (round % 2 == 1) {
                    m->anytag = mtest_rand(&st) % 3 == 0;
                }
                m->sync = mtest_rand(&st) % 5 == 0;
            }
        }
    }
}

static int msg_idx(int round, int dst, int k)
{
    return round * 100000 + dst * 10 + k;
}

enum opkind { OP_SEND, OP_RECV, OP_WILD };

struct op {
    enum opkind kind;
    int peer;       /* destination or source; -1 for wildcard receives */
    int k;          /* message number within the pair */
    unsigned char *buf;
    size_t cap;
};

static void run_round(int round)
{
    const int me = mtest_rank, size = mtest_size > 0 ? mtest_size : 1;
    make_plan(round);

    /* queues: sends per destination, receives per source, wildcards */
    int nops = 0, nwild = 0;
    for (int p = 0; p < size; p++) {
        nops += count[me * size + p];
        for (int k = 0; k < count[p * size + me]; k++) {
            if (plan[(p * size + me) * MAXPER + k].tag == WILDTAG)
                nwild++;
            else
                nops++;
        }
    }
    nops += nwild;
    struct op *ops = mtest_malloc((nops + 1) * sizeof *ops);
    MPI_Request *req = mtest_malloc((nops + 1) * sizeof *req);
    MPI_Status *sts = mtest_malloc((nops + 1) * sizeof *sts);
    int *idx = mtest_malloc((nops + 1) * sizeof *idx);

    /* cursors into the queues */
    int *snext = calloc(size, sizeof(int)), *rnext = calloc(size, sizeof(int));
    int wposted = 0;
    uint64_t rs = seed ^ ((uint64_t)round << 20) ^ ((uint64_t)me << 40) ^ 0xabcdefull;
    int n = 0;
    while (n < nops) {
        /* pick a random queue that still has something */
        int choice = (int)(mtest_rand(&rs) % (2 * size + 1));
        struct op *o = &ops[n];
        if (choice < size) {
            int d = choice;
            if (snext[d] >= count[me * size + d])
                continue;
            int k = snext[d]++;
            const struct msg *m = &plan[(me * size + d) * MAXPER + k];
            o->kind = OP_SEND;
            o->peer = d;
            o->k = k;
            o->cap = m->size;
            o->buf = mtest_malloc(m->size);
            mtest_fill(o->buf, m->size, me, msg_idx(round, d, k));
            if (m->sync)
                MPI_Issend(o->buf, (int)m->size, MPI_BYTE, d, m->tag, MPI_COMM_WORLD, &req[n]);
            else
                MPI_Isend(o->buf, (int)m->size, MPI_BYTE, d, m->tag, MPI_COMM_WORLD, &req[n]);
        } else if (choice < 2 * size) {
            int s = choice - size;
            /* skip the source's wildcard messages: they have their own
             * queue */
            while (rnext[s] < count[s * size + me] &&
                   plan[(s * size + me) * MAXPER + rnext[s]].tag == WILDTAG)
                rnext[s]++;
            if (rnext[s] >= count[s * size + me])
                continue;
            int k = rnext[s]++;
            const struct msg *m = &plan[(s * size + me) * MAXPER + k];
            o->kind = OP_RECV;
            o->peer = s;
            o->k = k;
            o->cap = m->size;
            o->buf = mtest_malloc(m->size + MTEST_GUARD);
            mtest_poison(o->buf, m->size, s, msg_idx(round, me, k));
            mtest_guard_set(o->buf + m->size);
            MPI_Irecv(o->buf, (int)m->size, MPI_BYTE, s, m->anytag ? MPI_ANY_TAG : m->tag,
                      MPI_COMM_WORLD, &req[n]);
        } else {
            if (wposted >= nwild)
                continue;
            wposted++;
            o->kind = OP_WILD;
            o->peer = -1;
            o->k = -1;
            o->cap = WILDMAX;
            o->buf = mtest_malloc(WILDMAX + MTEST_GUARD);
            mtest_guard_set(o->buf + WILDMAX);
            MPI_Irecv(o->buf, WILDMAX, MPI_BYTE, MPI_ANY_SOURCE, WILDTAG, MPI_COMM_WORLD, &req[n]);
        }
        n++;
    }

    /* complete everything */
    int left = nops, mode = round % 4;
    char what[160];
    while (left > 0) {
        int out = 0;
        if (mode == 1) {
            MPI_Testsome(nops, req, &out, idx, sts);
        } else if (mode == 3) {
            int i;
            MPI_Waitany(nops, req, &i, &sts[0]);
            idx[0] = i;
            out = i == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
        } else {
            MPI_Waitsome(nops, req, &out, idx, sts);
        }
        if (!MTEST_CHECK(out != MPI_UNDEFINED, "round %d: completion call says nothing is "
                         "active with %d left", round, left))
            break;
        for (int j = 0; j < out; j++) {
            struct op *o = &ops[idx[j]];
            left--;
            if (o->kind == OP_RECV) {
                const struct msg *m = &plan[(o->peer * size + me) * MAXPER + o->k];
                snprintf(what, sizeof what, "round %d: message %d from %d (%zu bytes, tag %d%s)",
                         round, o->k, o->peer, m->size, m->tag, m->anytag ? ", ANY_TAG" : "");
                mtest_check_status(&sts[j], o->peer, m->tag, MPI_BYTE, (int)m->size, what);
                mtest_check_data(o->buf, m->size, o->peer, msg_idx(round, me, o->k), "%s", what);
                mtest_guard_check(o->buf + m->size, what);
            } else if (o->kind == OP_WILD) {
                /* checked below, in matching order */
                o->peer = sts[j].MPI_SOURCE;
                o->k = 0;
                MPI_Get_count(&sts[j], MPI_BYTE, &o->k);
                MTEST_CHECK(sts[j].MPI_TAG == WILDTAG, "round %d: wildcard receive got tag "
                            "%d", round, sts[j].MPI_TAG);
            }
        }
    }

    /* wildcard receives, in posting (= matching) order: per source, the
     * messages must come in that source's order */
    for (int s = 0; s < size; s++)
        rnext[s] = 0;
    for (int i = 0; i < nops; i++) {
        struct op *o = &ops[i];
        if (o->kind != OP_WILD)
            continue;
        int s = o->peer, got = o->k;
        if (!MTEST_CHECK(s >= 0 && s < size, "round %d: wildcard receive from %d", round, s))
            continue;
        int k = rnext[s];
        while (k < count[s * size + me] && plan[(s * size + me) * MAXPER + k].tag != WILDTAG)
            k++;
        if (!MTEST_CHECK(k < count[s * size + me], "round %d: extra wildcard message from %d",
                         round, s))
            continue;
        rnext[s] = k + 1;
        const struct msg *m = &plan[(s * size + me) * MAXPER + k];
        snprintf(what, sizeof what, "round %d: wildcard message %d from %d (%zu bytes)", round,
                 k, s, m->size);
        MTEST_CHECK(got == (int)m->size, "%s: count %d", what, got);
        mtest_check_data(o->buf, m->size, s, msg_idx(round, me, k), "%s", what);
        mtest_guard_check(o->buf + WILDMAX, what);
    }

    for (int i = 0; i < nops; i++)
        free(ops[i].buf);
    free(ops);
    free(req);
    free(sts);
    free(idx);
    free(snext);
    free(rnext);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    if (argc > 1)
        rounds = atoi(argv[1]);
    if (argc > 2)
        seed = strtoull(argv[2], NULL, 0);
    if (argc > 3)
        maxsize = mtest_parse_size(argv[3]);
    plan = mtest_malloc((size_t)mtest_size * mtest_size * MAXPER * sizeof *plan);
    count = mtest_malloc((size_t)mtest_size * mtest_size * sizeof *count);

    double t0 = MPI_Wtime();
    for (int r = 0; r < rounds; r++) {
        run_round(r);
        /* a fast rank must not send the next wildcard round's messages
         * while a slow one still has this round's wildcard receives open */
        if (r % 2 == 0)
            MPI_Barrier(MPI_COMM_WORLD);
    }
    if (getenv("MTEST_VERBOSE"))
        printf("[rank %d] %.2f s\n", mtest_rank, MPI_Wtime() - t0);
    free(plan);
    free(count);
    return mtest_finalize();
}
