/*
 * intercomm: intercommunicators.  MPI_COMM_WORLD is cut in two in several
 * ways (by parity; rank < 1; rank < size - 1; the lower half with reversed
 * keys, the last local rank as leader and a reversed peer communicator), and
 * on each intercommunicator: Comm_test_inter, sizes, the local and remote
 * groups, Comm_compare; point-to-point to remote ranks in every send mode
 * (blocking, nonblocking, persistent, Sendrecv) and sizes up to the
 * rendezvous path, statuses naming the sender's rank in its own group,
 * MPI_ANY_SOURCE, Probe; Intercomm_merge with every choice of high on the
 * two sides (ranks in the merged communicator); Comm_dup, Comm_split,
 * Comm_create and Comm_split_type of an intercommunicator and traffic on the
 * results; traffic on several intercommunicators at once that must not
 * cross; names and attributes; and create/merge/free cycles (context ids
 * come back).
 *
 *   usage: intercomm [cycles]     (create/free cycles, default 200)
 */
#include "mtest.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* One cut of MPI_COMM_WORLD into sides 0 and 1. */
typedef struct cut {
    const char *name;
    int side;                    /* this process's side */
    int n[2];                    /* sizes of the sides */
    int world[2][64];            /* world ranks of each side, in local rank order */
    MPI_Comm local, inter;
} cut_t;

enum { CUT_PARITY, CUT_FIRST, CUT_LAST, CUT_REVERSED, NCUTS };

static int side_of(int kind, int r)
{
    switch (kind) {
    case CUT_PARITY: return r % 2;
    case CUT_FIRST: return r >= 1;
    case CUT_LAST: return r >= size - 1;
    default: return r >= size / 2;
    }
}

/* Builds the cut and its intercommunicator (MPI_ERRORS_RETURN on both). */
static void make_cut(int kind, cut_t *c)
{
    static const char *names[NCUTS] = {"parity", "rank < 1", "rank < size-1", "reversed halves"};
    bool reversed = kind == CUT_REVERSED;
    c->name = names[kind];
    c->side = side_of(kind, rank);
    c->n[0] = c->n[1] = 0;
    for (int i = 0; i < size; i++) {      /* local order: by world rank, or reversed */
        int r = reversed ? size - 1 - i : i, s = side_of(kind, r);
        c->world[s][c->n[s]++] = r;
    }
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, c->side, reversed ? size - rank : rank, &c->local));
    /* The reversed cut names its leaders as the last local rank and through a
     * reversed copy of MPI_COMM_WORLD. */
    int leader = reversed ? c->n[c->side] - 1 : 0;
    int remote_world = c->world[1 - c->side][reversed ? c->n[1 - c->side] - 1 : 0];
    MPI_Comm peer = MPI_COMM_WORLD;
    if (reversed)
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &peer));
    int remote_leader = reversed ? size - 1 - remote_world : remote_world;
    MTEST_RC(MPI_Intercomm_create(c->local, leader, peer, remote_leader, 40 + kind, &c->inter));
    if (reversed)
        MPI_Comm_free(&peer);
    MPI_Comm_set_errhandler(c->inter, MPI_ERRORS_RETURN);
}

static void free_cut(cut_t *c)
{
    MTEST_RC(MPI_Comm_free(&c->inter));
    MTEST_RC(MPI_Comm_free(&c->local));
}

/* The world ranks of group g, in order, equal want[0..n). */
static void check_group(MPI_Group g, const int *want, int n, const char *what)
{
    MPI_Group wg;
    int gn, *ranks = mtest_malloc(sizeof(int) * 64), *out = mtest_malloc(sizeof(int) * 64);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_size(g, &gn);
    if (MTEST_CHECK(gn == n, "%s: group size %d, want %d", what, gn, n)) {
        for (int i = 0; i < n; i++)
            ranks[i] = i;
        MTEST_RC(MPI_Group_translate_ranks(g, n, ranks, wg, out));
        for (int i = 0; i < n; i++)
            MTEST_CHECK(out[i] == want[i], "%s: rank %d is world rank %d, want %d", what, i, out[i], want[i]);
    }
    MPI_Group_free(&wg);
    free(ranks);
    free(out);
}

static void test_queries(cut_t *c)
{
    int flag = -1, n, me, rn, cmp, s = c->side;
    MTEST_RC(MPI_Comm_test_inter(c->inter, &flag));
    MTEST_CHECK(flag == 1, "%s: Comm_test_inter gave %d", c->name, flag);
    MTEST_RC(MPI_Comm_test_inter(c->local, &flag));
    MTEST_CHECK(flag == 0, "%s: Comm_test_inter of the local comm gave %d", c->name, flag);
    MPI_Comm_size(c->inter, &n);
    MPI_Comm_rank(c->inter, &me);
    MTEST_RC(MPI_Comm_remote_size(c->inter, &rn));
    int want_me = 0;
    while (c->world[s][want_me] != rank)
        want_me++;
    MTEST_CHECK(n == c->n[s] && rn == c->n[1 - s] && me == want_me, "%s: size %d remote %d rank %d, want %d %d %d",
                c->name, n, rn, me, c->n[s], c->n[1 - s], want_me);
    MPI_Group g;
    MTEST_RC(MPI_Comm_group(c->inter, &g));
    check_group(g, c->world[s], c->n[s], "local group");
    MPI_Group_free(&g);
    MTEST_RC(MPI_Comm_remote_group(c->inter, &g));
    check_group(g, c->world[1 - s], c->n[1 - s], "remote group");
    MPI_Group_free(&g);
    MTEST_RC(MPI_Comm_compare(c->inter, c->inter, &cmp));
    MTEST_CHECK(cmp == MPI_IDENT, "%s: compare(inter, inter) = %d", c->name, cmp);
    MTEST_RC(MPI_Comm_compare(c->inter, c->local, &cmp));
    MTEST_CHECK(cmp == MPI_UNEQUAL, "%s: compare(inter, local) = %d", c->name, cmp);
}

/* Local rank i of side 0 and local rank i of side 1 exchange messages in
 * every mode and a range of sizes; the receiver checks data and status. */
static void test_pairs(cut_t *c)
{
    int me, s = c->side, pairs = c->n[0] < c->n[1] ? c->n[0] : c->n[1];
    MPI_Comm_rank(c->inter, &me);
    if (me >= pairs)
        return;
    static const size_t sizes[] = {0, 1, 100, 4000, 70000};
    enum { STD, SSEND, BSEND, RSEND, ISEND, ISSEND, PERSIST, SENDRECV, NMODES };
    static const char *modes[NMODES] = {"Send", "Ssend", "Bsend", "Rsend", "Isend", "Issend", "Send_init", "Sendrecv"};
    char *buf = mtest_malloc(70000), *bsbuf = mtest_malloc(70000 + MPI_BSEND_OVERHEAD);
    MTEST_RC(MPI_Buffer_attach(bsbuf, 70000 + MPI_BSEND_OVERHEAD));
    for (int m = 0; m < NMODES; m++)
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            int n = (int)sizes[k], idx = m * 10 + (int)k, tag = 100 + idx;
            MPI_Status st;
            MPI_Request rq;
            if (s == 0) {                /* sender: to remote rank me */
                mtest_fill(buf, (size_t)n, rank, idx);
                switch (m) {
                case STD: MTEST_RC(MPI_Send(buf, n, MPI_BYTE, me, tag, c->inter)); break;
                case SSEND: MTEST_RC(MPI_Ssend(buf, n, MPI_BYTE, me, tag, c->inter)); break;
                case BSEND:
                    MTEST_RC(MPI_Bsend(buf, n, MPI_BYTE, me, tag, c->inter));
                    break;
                case RSEND:              /* after the receiver says it has posted */
                    MTEST_RC(MPI_Recv(NULL, 0, MPI_BYTE, me, 1, c->inter, MPI_STATUS_IGNORE));
                    MTEST_RC(MPI_Rsend(buf, n, MPI_BYTE, me, tag, c->inter));
                    break;
                case ISEND:
                case ISSEND:
                    MTEST_RC((m == ISEND ? MPI_Isend : MPI_Issend)(buf, n, MPI_BYTE, me, tag, c->inter, &rq));
                    MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
                    break;
                case PERSIST:
                    MTEST_RC(MPI_Send_init(buf, n, MPI_BYTE, me, tag, c->inter, &rq));
                    MTEST_RC(MPI_Start(&rq));
                    MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
                    MTEST_RC(MPI_Start(&rq));        /* the same data twice */
                    MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
                    MPI_Request_free(&rq);
                    break;
                case SENDRECV:
                    MTEST_RC(MPI_Sendrecv(buf, n, MPI_BYTE, me, tag, NULL, 0, MPI_BYTE, me, tag, c->inter, &st));
                    mtest_check_status(&st, me, tag, MPI_BYTE, 0, "Sendrecv's reply");
                    break;
                }
                /* the reply: a 4-byte echo of the index */
                int echo = -1;
                MTEST_RC(MPI_Recv(&echo, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c->inter, &st));
                mtest_check_status(&st, me, 2, MPI_INT, 1, "reply");
                MTEST_CHECK(echo == idx, "%s: reply %d, want %d", c->name, echo, idx);
            } else {                     /* receiver: from remote rank me */
                int from = idx % 2 ? MPI_ANY_SOURCE : me;
                mtest_poison(buf, (size_t)n, c->world[0][me], idx);
                if (m == RSEND) {
                    MTEST_RC(MPI_Irecv(buf, n, MPI_BYTE, from, tag, c->inter, &rq));
                    MTEST_RC(MPI_Send(NULL, 0, MPI_BYTE, me, 1, c->inter));
                    MTEST_RC(MPI_Wait(&rq, &st));
                } else if (m == PERSIST) {
                    MTEST_RC(MPI_Recv_init(buf, n, MPI_BYTE, from, tag, c->inter, &rq));
                    for (int t = 0; t < 2; t++) {
                        MTEST_RC(MPI_Start(&rq));
                        MTEST_RC(MPI_Wait(&rq, &st));
                    }
                    MPI_Request_free(&rq);
                } else if (m == SENDRECV) {
                    MTEST_RC(MPI_Sendrecv(NULL, 0, MPI_BYTE, me, tag, buf, n, MPI_BYTE, from, tag, c->inter, &st));
                } else if (idx % 3 == 0) {  /* probe first */
                    MTEST_RC(MPI_Probe(MPI_ANY_SOURCE, tag, c->inter, &st));
                    mtest_check_status(&st, me, tag, MPI_BYTE, n, "Probe");
                    MTEST_RC(MPI_Recv(buf, n, MPI_BYTE, st.MPI_SOURCE, tag, c->inter, &st));
                } else {
                    MTEST_RC(MPI_Recv(buf, n, MPI_BYTE, from, MPI_ANY_TAG, c->inter, &st));
                }
                char what[80];
                snprintf(what, sizeof what, "%s: %s of %d bytes", c->name, modes[m], n);
                mtest_check_status(&st, me, tag, MPI_BYTE, n, what);
                mtest_check_data(buf, (size_t)n, c->world[0][me], idx, "%s", what);
                MTEST_RC(MPI_Send(&idx, 1, MPI_INT, me, 2, c->inter));
            }
        }
    void *det;
    int detn;
    MTEST_RC(MPI_Buffer_detach(&det, &detn));
    free(bsbuf);
    free(buf);
}

/* Every process sends its local rank to remote rank 0, which takes them
 * in any order and knows each sender by its status; then the other way. */
static void test_fan_in(cut_t *c)
{
    int me, rn, s = c->side;
    MPI_Comm_rank(c->inter, &me);
    MPI_Comm_remote_size(c->inter, &rn);
    /* on a copy: processes without a partner in test_pairs get here early */
    MPI_Comm dup;
    MTEST_RC(MPI_Comm_dup(c->inter, &dup));
    for (int dir = 0; dir < 2; dir++) {
        if (s != dir) {                  /* senders */
            MTEST_RC(MPI_Send(&me, 1, MPI_INT, 0, 200 + me, dup));
        } else if (me == 0) {
            char seen[64] = {0};
            for (int i = 0; i < rn; i++) {
                int v = -1, flag = 0;
                MPI_Status st;
                while (!flag)
                    MTEST_RC(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &flag, &st));
                MTEST_RC(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st));
                if (MTEST_CHECK(v >= 0 && v < rn && !seen[v], "%s: fan-in got %d", c->name, v))
                    seen[v] = 1;
                mtest_check_status(&st, v, 200 + v, MPI_INT, 1, "fan-in");
            }
        }
    }
    /* ranks beyond the remote size are errors; MPI_PROC_NULL is not */
    MTEST_RC(MPI_Comm_free(&dup));
    MPI_Status st;
    mtest_check_class(MPI_Send(&me, 1, MPI_INT, rn, 0, c->inter), MPI_ERR_RANK, "%s: Send to rank %d", c->name, rn);
    mtest_check_class(MPI_Recv(&me, 1, MPI_INT, rn, 0, c->inter, &st), MPI_ERR_RANK, "%s: Recv from %d", c->name, rn);
    MTEST_RC(MPI_Send(&me, 1, MPI_INT, MPI_PROC_NULL, 0, c->inter));
    MTEST_RC(MPI_Recv(&me, 1, MPI_INT, MPI_PROC_NULL, 0, c->inter, &st));
    mtest_check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_INT, 0, "Recv from MPI_PROC_NULL");
}

/* All pairs of values of high; the side with high = 0 comes first, and on a
 * tie the order is the implementation's but must be one order for all. */
static void test_merge(cut_t *c)
{
    int s = c->side, me, lme;
    MPI_Comm_rank(c->inter, &lme);
    for (int h = 0; h < 4; h++) {
        int high[2] = {h & 1, h >> 1 & 1};
        MPI_Comm m;
        MTEST_RC(MPI_Intercomm_merge(c->inter, high[s], &m));
        int n, flag;
        MPI_Comm_size(m, &n);
        MPI_Comm_rank(m, &me);
        MPI_Comm_test_inter(m, &flag);
        MTEST_CHECK(n == size && !flag, "%s: merged size %d inter %d", c->name, n, flag);
        int first;                       /* the side that comes first */
        if (high[0] != high[1])
            first = high[0] ? 1 : 0;
        else                             /* a tie: find out from rank 0 of the merged comm */
            first = -1;
        int want = lme + (s == first ? 0 : c->n[1 - s]);
        if (first >= 0)
            MTEST_CHECK(me == want, "%s: high %d/%d: merged rank %d, want %d", c->name, high[0], high[1], me, want);
        else                             /* contiguous: my local rank after the whole other side, or before it */
            MTEST_CHECK(me == lme || me == lme + c->n[1 - s], "%s: tie: merged rank %d (local %d)", c->name, me, lme);
        /* Everyone learns the world rank at every merged rank: the sides
         * are contiguous blocks in local order. */
        int *at = mtest_malloc(sizeof(int) * size);
        MPI_Request *rq = mtest_malloc(sizeof(MPI_Request) * 2 * size);
        for (int r = 0; r < size; r++)
            MTEST_RC(MPI_Irecv(&at[r], 1, MPI_INT, r, 7, m, &rq[r]));
        for (int r = 0; r < size; r++)
            MTEST_RC(MPI_Isend(&rank, 1, MPI_INT, r, 7, m, &rq[size + r]));
        MTEST_RC(MPI_Waitall(2 * size, rq, MPI_STATUSES_IGNORE));
        int lead = at[0] == c->world[0][0] ? 0 : 1;
        if (first < 0) {
            first = lead;
            /* dmpi puts first the side whose leader has the lower world rank;
             * the standard leaves the order to the implementation. */
            if (!MTEST_MPICH_DEVIATION)
                MTEST_CHECK(first == (c->world[0][0] < c->world[1][0] ? 0 : 1), "%s: tie: side %d first", c->name,
                            first);
        }
        for (int r = 0; r < size; r++) {
            int want_w = r < c->n[first] ? c->world[first][r] : c->world[1 - first][r - c->n[first]];
            MTEST_CHECK(at[r] == want_w, "%s: high %d/%d: merged rank %d is world %d, want %d", c->name, high[0],
                        high[1], r, at[r], want_w);
        }
        free(at);
        free(rq);
        MTEST_RC(MPI_Comm_free(&m));
    }
}

/* Each side sends `salt + local rank` to every remote rank with one tag;
 * each process checks what it gets from every remote rank. */
static void exchange_all(MPI_Comm inter, int salt, const char *what)
{
    int me, rn;
    MPI_Comm_rank(inter, &me);
    MPI_Comm_remote_size(inter, &rn);
    int *in = mtest_malloc(sizeof(int) * rn), out = salt + me;
    MPI_Request *rq = mtest_malloc(sizeof(MPI_Request) * 2 * rn);
    for (int i = 0; i < rn; i++)
        MTEST_RC(MPI_Irecv(&in[i], 1, MPI_INT, i, 5, inter, &rq[i]));
    for (int i = 0; i < rn; i++)
        MTEST_RC(MPI_Isend(&out, 1, MPI_INT, i, 5, inter, &rq[rn + i]));
    MTEST_RC(MPI_Waitall(2 * rn, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < rn; i++)
        MTEST_CHECK(in[i] == salt + i, "%s: from remote rank %d got %d, want %d", what, i, in[i], salt + i);
    free(in);
    free(rq);
}

/* here[w]: world rank w shares this process's node (from
 * Comm_split_type SHARED on MPI_COMM_WORLD). */
static void node_members(bool *here)
{
    MPI_Comm node;
    MPI_Group ng, wg;
    MTEST_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_Comm_group(node, &ng);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int n, in[64], out[64];
    MPI_Group_size(ng, &n);
    for (int i = 0; i < n && i < 64; i++)
        in[i] = i;
    MPI_Group_translate_ranks(ng, n < 64 ? n : 64, in, wg, out);
    for (int i = 0; i < n && i < 64; i++)
        here[out[i]] = true;
    MPI_Group_free(&ng);
    MPI_Group_free(&wg);
    MPI_Comm_free(&node);
}

static void test_dup_split_create(cut_t *c)
{
    int s = c->side, me, cmp, flag;
    MPI_Comm_rank(c->inter, &me);
    MPI_Comm dup;
    MTEST_RC(MPI_Comm_dup(c->inter, &dup));
    MTEST_RC(MPI_Comm_compare(c->inter, dup, &cmp));
    MTEST_CHECK(cmp == MPI_CONGRUENT, "%s: compare(inter, dup) = %d", c->name, cmp);
    MTEST_RC(MPI_Comm_test_inter(dup, &flag));
    MTEST_CHECK(flag, "%s: the dup is not an intercommunicator", c->name);
    /* traffic on both at once, same tags */
    exchange_all(dup, 1000, "dup");
    exchange_all(c->inter, 2000, "inter");

    /* split by local parity, keys reversing the order; side 1's odd colour
     * is undefined, so side 0's odd ranks find no partners */
    int color = me % 2 == 1 && s == 1 ? MPI_UNDEFINED : me % 2;
    MPI_Comm sp;
    MTEST_RC(MPI_Comm_split(c->inter, color, -me, &sp));
    int want_local = 0, want_remote = 0;
    for (int i = 0; i < c->n[s]; i++)
        want_local += i % 2 == color;
    for (int i = 0; i < c->n[1 - s]; i++)
        want_remote += i % 2 == color && !(i % 2 == 1 && 1 - s == 1);
    if (color == MPI_UNDEFINED || want_remote == 0) {
        MTEST_CHECK(sp == MPI_COMM_NULL, "%s: split colour %d: want MPI_COMM_NULL", c->name, color);
    } else if (MTEST_CHECK(sp != MPI_COMM_NULL, "%s: split colour %d gave MPI_COMM_NULL", c->name, color)) {
        int n, rn, sme;
        MPI_Comm_size(sp, &n);
        MPI_Comm_remote_size(sp, &rn);
        MPI_Comm_rank(sp, &sme);
        MTEST_CHECK(n == want_local && rn == want_remote && sme == want_local - 1 - me / 2,
                    "%s: split: size %d remote %d rank %d, want %d %d %d", c->name, n, rn, sme, want_local,
                    want_remote, want_local - 1 - me / 2);
        int rw[64], k = 0;                /* remote members by key: highest local rank first */
        for (int i = c->n[1 - s] - 1; i >= 0; i--)
            if (i % 2 == color)
                rw[k++] = c->world[1 - s][i];
        MPI_Group g;
        MPI_Comm_remote_group(sp, &g);
        check_group(g, rw, k, "split's remote group");
        MPI_Group_free(&g);
        exchange_all(sp, 3000, "split");
        MTEST_RC(MPI_Comm_free(&sp));
    }

    /* create: side 0 offers its first ceil(n/2) ranks, side 1 all but its
     * rank 0 (none if it has one process: then everyone gets COMM_NULL) */
    MPI_Group lg, sub;
    MPI_Comm_group(c->inter, &lg);
    int range[1][3] = {{s == 0 ? 0 : 1, s == 0 ? (c->n[0] + 1) / 2 - 1 : c->n[1] - 1, 1}};
    if (range[0][1] >= range[0][0])
        MTEST_RC(MPI_Group_range_incl(lg, 1, range, &sub));
    else
        sub = MPI_GROUP_EMPTY;
    MPI_Comm cr;
    MTEST_RC(MPI_Comm_create(c->inter, sub, &cr));
    int n0 = (c->n[0] + 1) / 2, n1 = c->n[1] - 1;
    bool mine = s == 0 ? me < n0 : me >= 1;
    if (n1 == 0 || !mine) {
        MTEST_CHECK(cr == MPI_COMM_NULL, "%s: create: want MPI_COMM_NULL", c->name);
    } else if (MTEST_CHECK(cr != MPI_COMM_NULL, "%s: create gave MPI_COMM_NULL", c->name)) {
        int n, rn, cme;
        MPI_Comm_size(cr, &n);
        MPI_Comm_remote_size(cr, &rn);
        MPI_Comm_rank(cr, &cme);
        MTEST_CHECK(n == (s == 0 ? n0 : n1) && rn == (s == 0 ? n1 : n0) && cme == (s == 0 ? me : me - 1),
                    "%s: create: size %d remote %d rank %d", c->name, n, rn, cme);
        exchange_all(cr, 4000, "create");
        MTEST_RC(MPI_Comm_free(&cr));
    }
    if (sub != MPI_GROUP_EMPTY)
        MPI_Group_free(&sub);
    MPI_Group_free(&lg);

    /* split_type SHARED: this group's ranks on this node, paired with the
     * remote group's there (MPI_COMM_NULL if it has none), ranks by key;
     * HW_UNGUIDED the same where the communicator spans nodes, else
     * MPI_COMM_NULL; MPI_UNDEFINED MPI_COMM_NULL */
    bool here[64] = {false}, spans = false;
    node_members(here);
    int nl = 0, nr = 0, before = 0;
    for (int i = 0; i < c->n[s]; i++) {
        nl += here[c->world[s][i]];
        before += here[c->world[s][i]] && i > me;      /* keys -i: higher local ranks first */
    }
    for (int i = 0; i < c->n[1 - s]; i++)
        nr += here[c->world[1 - s][i]];
    for (int w = 0; w < size; w++)
        spans |= !here[w];
    for (int type = 0; type < 2; type++) {
        int split = type ? MPI_COMM_TYPE_HW_UNGUIDED : MPI_COMM_TYPE_SHARED;
        const char *tn = type ? "HW_UNGUIDED" : "SHARED";
        MPI_Comm st;
        MTEST_RC(MPI_Comm_split_type(c->inter, split, -me, MPI_INFO_NULL, &st));
        if (nr == 0 || (type && !spans)) {
            MTEST_CHECK(st == MPI_COMM_NULL, "%s: split_type %s: want MPI_COMM_NULL", c->name, tn);
        } else if (MTEST_CHECK(st != MPI_COMM_NULL, "%s: split_type %s gave MPI_COMM_NULL", c->name, tn)) {
            int n, rn, sme;
            MPI_Comm_test_inter(st, &flag);
            MPI_Comm_size(st, &n);
            MPI_Comm_remote_size(st, &rn);
            MPI_Comm_rank(st, &sme);
            MTEST_CHECK(flag && n == nl && rn == nr && sme == before,
                        "%s: split_type %s: inter %d size %d remote %d rank %d, want 1 %d %d %d", c->name, tn, flag, n,
                        rn, sme, nl, nr, before);
            exchange_all(st, 5000 + type, "split_type");
            MTEST_RC(MPI_Comm_free(&st));
        }
    }
    MPI_Comm st;
    MTEST_RC(MPI_Comm_split_type(c->inter, MPI_UNDEFINED, 0, MPI_INFO_NULL, &st));
    MTEST_CHECK(st == MPI_COMM_NULL, "%s: split_type MPI_UNDEFINED: want MPI_COMM_NULL", c->name);
    MTEST_RC(MPI_Comm_free(&dup));
}

static int deletes;
static int count_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm, (void)keyval, (void)val, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static void test_names_attrs(cut_t *c)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len, kv, flag, *got, value = 77;
    MTEST_RC(MPI_Comm_set_name(c->inter, "my intercomm"));
    MTEST_RC(MPI_Comm_get_name(c->inter, name, &len));
    MTEST_CHECK(!strcmp(name, "my intercomm") && len == 12, "%s: name '%s'", c->name, name);
    MTEST_RC(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &kv, NULL));
    MTEST_RC(MPI_Comm_set_attr(c->inter, kv, &value));
    MPI_Comm dup;
    MTEST_RC(MPI_Comm_dup(c->inter, &dup));
    MTEST_RC(MPI_Comm_get_attr(dup, kv, &got, &flag));
    MTEST_CHECK(flag && got == &value, "%s: the dup lost the attribute", c->name);
    deletes = 0;
    MTEST_RC(MPI_Comm_free(&dup));
    MTEST_RC(MPI_Comm_delete_attr(c->inter, kv));
    MTEST_CHECK(deletes == 2, "%s: %d delete callbacks, want 2", c->name, deletes);
    MPI_Comm_free_keyval(&kv);
}

/* Several intercommunicators of different cuts, all with messages in
 * flight at once on the same tag: each must arrive on its own. */
static void test_concurrent(cut_t *cuts)
{
    MPI_Request rq[2 * NCUTS];
    int in[NCUTS], out[NCUTS], nrq = 0;
    for (int k = 0; k < NCUTS; k++) {    /* side 0's rank 0 <-> side 1's rank 0 */
        int me;
        MPI_Comm_rank(cuts[k].inter, &me);
        if (me != 0)
            continue;
        out[k] = 500 + k + 10 * cuts[k].side;
        MTEST_RC(MPI_Irecv(&in[k], 1, MPI_INT, MPI_ANY_SOURCE, 9, cuts[k].inter, &rq[nrq++]));
    }
    for (int k = NCUTS - 1; k >= 0; k--) {
        int me;
        MPI_Comm_rank(cuts[k].inter, &me);
        if (me == 0)
            MTEST_RC(MPI_Isend(&out[k], 1, MPI_INT, 0, 9, cuts[k].inter, &rq[nrq++]));
    }
    MTEST_RC(MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < NCUTS; k++) {
        int me;
        MPI_Comm_rank(cuts[k].inter, &me);
        if (me == 0)
            MTEST_CHECK(in[k] == 500 + k + 10 * (1 - cuts[k].side), "%s: got %d", cuts[k].name, in[k]);
    }
}

/* Ranks 2i and 2i+1 pair up, each with MPI_COMM_SELF as its local group:
 * disjoint intercommunicators made at the same time (they may share
 * context ids) must keep their traffic apart. */
static void test_self_pairs(void)
{
    if (rank == size - 1 && size % 2)
        return;
    MPI_Comm inter, merged;
    int other = rank ^ 1, v = -1, n, me;
    MTEST_RC(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, other, 8, &inter));
    MPI_Comm_size(inter, &n);
    MPI_Comm_remote_size(inter, &me);
    MTEST_CHECK(n == 1 && me == 1, "self pair: size %d remote size %d", n, me);
    MTEST_RC(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 0, &v, 1, MPI_INT, MPI_ANY_SOURCE, 0, inter, MPI_STATUS_IGNORE));
    MTEST_CHECK(v == other, "self pair: got %d, want %d", v, other);
    MTEST_RC(MPI_Intercomm_merge(inter, rank % 2, &merged));
    MPI_Comm_rank(merged, &me);
    MTEST_CHECK(me == rank % 2, "self pair: merged rank %d", me);
    exchange_all(inter, 7000 + rank / 2 * 10, "self pair");
    MTEST_RC(MPI_Comm_free(&merged));
    MTEST_RC(MPI_Comm_free(&inter));
}

/* The leaders may reach each other through an intercommunicator: remote
 * rank 0 of c->inter is the other side's leader. */
static void test_inter_as_peer(cut_t *c)
{
    MPI_Comm inter;
    int cmp;
    MTEST_RC(MPI_Intercomm_create(c->local, 0, c->inter, 0, 11, &inter));
    MTEST_RC(MPI_Comm_compare(inter, c->inter, &cmp));
    MTEST_CHECK(cmp == MPI_CONGRUENT, "%s: intercommunicator peer: compare %d", c->name, cmp);
    exchange_all(inter, 8000, "intercommunicator peer");
    MTEST_RC(MPI_Comm_free(&inter));
}

/* Create, use, merge and free many times: context ids come back, nothing
 * leaks (the ASan build checks). */
static void test_cycles(int cycles)
{
    MPI_Comm local;
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local));
    for (int i = 0; i < cycles; i++) {
        MPI_Comm inter, merged;
        MTEST_RC(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, i % 1000, &inter));
        if (i % 50 == 0) {
            exchange_all(inter, 6000 + i, "cycle");
            MTEST_RC(MPI_Intercomm_merge(inter, rank % 2, &merged));
            int me;
            MPI_Comm_rank(merged, &me);
            MTEST_CHECK(me == (rank % 2 ? (size + 1) / 2 + rank / 2 : rank / 2), "cycle %d: merged rank %d", i, me);
            MTEST_RC(MPI_Comm_free(&merged));
        }
        MTEST_RC(MPI_Comm_free(&inter));
    }
    MTEST_RC(MPI_Comm_free(&local));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int cycles = argc > 1 ? atoi(argv[1]) : 200;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int flag = -1;
    MTEST_RC(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    MTEST_CHECK(flag == 0, "Comm_test_inter(MPI_COMM_WORLD) = %d", flag);
    if (size < 2 || size > 64)           /* two non-empty sides are needed */
        return mtest_finalize();
    cut_t cuts[NCUTS];
    for (int k = 0; k < NCUTS; k++)
        make_cut(k, &cuts[k]);
    for (int k = 0; k < NCUTS; k++) {
        test_queries(&cuts[k]);
        test_pairs(&cuts[k]);
        test_fan_in(&cuts[k]);
        test_merge(&cuts[k]);
        test_dup_split_create(&cuts[k]);
        test_names_attrs(&cuts[k]);
        test_inter_as_peer(&cuts[k]);
    }
    test_self_pairs();
    test_concurrent(cuts);
    for (int k = 0; k < NCUTS; k++)
        free_cut(&cuts[k]);
    test_cycles(cycles);
    return mtest_finalize();
}
