/*
 * coll_node_v: the data-movement collectives on communicators whose ranks
 * share a node (node-level shared-memory component and its point-to-point
 * fallback; data model and helpers in coll_node.h): Gather(v), Scatter(v),
 * Allgather(v), Alltoall(v), blocking and nonblocking.
 *   - per-rank blocks of 0, 1, the inline size (48 B), the copy-in/copy-out
 *     limit in force (DMPI_COLL_NODE_COPY_MAX) and the default one, each
 *     -1/+0/+1 byte (MPI_BYTE) or 6 ints (typed), the chunk
 *     (DMPI_COLL_NODE_CHUNK) -1/+0/+1 byte, and a large block (1 MiB
 *     per rank for the rooted ones and allgather, less for all-to-all;
 *     smaller at many ranks); every root;
 *   - each rank sends and receives with its own datatype of the one
 *     signature (MPI_INT, a vector with a gap, a struct with padding, a
 *     resized type with lb 4), rotated over ranks and calls, so the root
 *     uses another type than the others;
 *   - v-variants with counts that differ per pair (some 0), displacements
 *     out of order with holes in between (the holes must stay untouched);
 *   - MPI_IN_PLACE wherever MPI allows it (root of Gather(v)/Scatter(v),
 *     Allgather(v), Alltoall(v) with symmetric counts);
 *   - every byte of every receive buffer checked (complement pre-filled,
 *     guards, gaps), the buffers of non-roots that MPI does not read or
 *     write untouched, send buffers unchanged;
 *   - nonblocking ones of every kind outstanding together on one and on
 *     overlapping communicators, blocking ones in between, completed in
 *     reverse order, with Waitall and with a Test loop;
 *   - on the world, parity and halves, a dup, a reversed order and
 *     MPI_COMM_SELF; communicators made and freed with collectives on each.
 * Sizes and repetitions shrink with the number of ranks. COLL_NODE_TIMES=1
 * prints the time of each phase and of every call slower than 50 ms.
 */
#include "coll_node.h"

enum { V_GATHER, V_GATHERV, V_SCATTER, V_SCATTERV, V_ALLGATHER, V_ALLGATHERV, V_ALLTOALL, V_ALLTOALLV, NV };
static const char *const v_name[NV] = {"Gather",    "Gatherv",    "Scatter",  "Scatterv",
                                       "Allgather", "Allgatherv", "Alltoall", "Alltoallv"};
static int iter;

static int is_v(int coll)
{
    return coll % 2 == 1;
}

static int rooted(int coll)
{
    return coll <= V_SCATTERV;
}

static int nranks_scale(void)
{
    return cn_size <= 4 ? 1 : cn_size <= 8 ? 2 : 4;
}

/* Units that rank s sends to rank d: m for the regular collectives; for
 * the v-variants varied, some 0, and symmetric in (s, d) so that in-place
 * Alltoallv works. q: the granule (1 byte, or 6 ints). */
static size_t units(int coll, int s, int d, size_t m, size_t q)
{
    if (!is_v(coll))
        return m;
    if (coll == V_ALLGATHERV)
        d = 0;                     /* one count per sender */
    if ((s + d) % 4 == 3)
        return 0;
    return m + (size_t)((s * d + s + d) % 3) * q;
}

typedef struct {
    int coll, fam, root, inplace, nb, it, r, p;
    size_t m;                      /* units per block */
    MPI_Comm comm;
    const char *cname;
    int ks, kr;                    /* kinds of the send and receive side here */
    int *scnt, *sdsp, *rcnt, *rdsp;  /* elements of ks / kr */
    size_t *su, *ru;               /* units */
    cn_img sb, sb0, rb, want;
    MPI_Request req;
    char what[240];
} vjob_t;

static void vjob_start(vjob_t *j)
{
    MPI_Comm_rank(j->comm, &j->r);
    MPI_Comm_size(j->comm, &j->p);
    int r = j->r, p = j->p, coll = j->coll, root = j->root, it = j->it = iter++;
    size_t m = j->m, q = j->fam ? 6 : 1;
    j->ks = j->fam ? K_INT + (r + it) % 4 : K_BYTE;
    j->kr = j->fam ? K_INT + (r + it + 1) % 4 : K_BYTE;
    int ks = j->ks, kr = j->kr;
    int inplace = j->inplace && (!rooted(coll) || r == root);
    snprintf(j->what, sizeof j->what, "%s: %s%s of %zu %s%s per block (send %s, receive %s), root %d, call %d%s",
             j->cname, j->nb ? "I" : "", v_name[coll], m, j->fam ? "ints" : "bytes", is_v(coll) ? " (varied)" : "",
             k_name[ks], k_name[kr], rooted(coll) ? root : -1, it, inplace ? ", in place" : "");
    size_t sz = (size_t)p;
    j->scnt = calloc(sz, sizeof(int));
    j->sdsp = calloc(sz, sizeof(int));
    j->rcnt = calloc(sz, sizeof(int));
    j->rdsp = calloc(sz, sizeof(int));
    j->su = calloc(sz, sizeof(size_t));
    j->ru = calloc(sz, sizeof(size_t));
    int gath = coll == V_GATHER || coll == V_GATHERV, scat = coll == V_SCATTER || coll == V_SCATTERV;
    int allg = coll == V_ALLGATHER || coll == V_ALLGATHERV;
    /* send side: units per destination and displacements (elements of ks) */
    size_t sspan = 0, rspan = 0, cur = 0;
    int have_send = gath || allg || coll >= V_ALLTOALL || (scat && r == root);
    int have_recv = allg || coll >= V_ALLTOALL || (gath && r == root) || scat;
    for (int d = 0; d < p && have_send; d++) {
        if ((gath && d != root) || (allg && d != 0))
            continue;      /* one block, at the start of sendbuf */
        size_t u = units(coll, r, d, m, q);
        if ((gath || allg) && is_v(coll))
            u = units(coll, r, coll == V_GATHERV ? root : 0, m, q);
        j->su[d] = u;
        j->scnt[d] = (int)(u / (size_t)k_per[ks]);
        if (gath || allg) {
            j->sdsp[d] = 0;        /* one block at the start */
        } else if (is_v(coll)) {
            j->sdsp[d] = (int)cur; /* in order, 2 elements apart */
            cur += (size_t)j->scnt[d] + 2;
        } else {
            j->sdsp[d] = d * j->scnt[d];
        }
        size_t e = k_span(ks, (size_t)j->sdsp[d], u);
        if (e > sspan)
            sspan = e;
    }
    /* receive side: from each source, displacements in elements of kr;
     * the v-variants place blocks in reverse order, a hole between */
    cur = 0;
    for (int i = 0; i < p && have_recv; i++) {
        int s = is_v(coll) ? p - 1 - i : i;
        if (scat && s != root)
            continue;
        size_t u = units(coll, s, r, m, q);
        if (gath && is_v(coll))
            u = units(coll, s, root, m, q);
        if (allg && is_v(coll))
            u = units(coll, s, 0, m, q);
        j->ru[s] = u;
        j->rcnt[s] = (int)(u / (size_t)k_per[kr]);
        if (scat) {
            j->rdsp[s] = 0;
        } else if (is_v(coll)) {
            j->rdsp[s] = (int)cur;
            cur += (size_t)j->rcnt[s] + 1;
        } else {
            j->rdsp[s] = s * j->rcnt[s];
        }
        size_t e = k_span(kr, (size_t)j->rdsp[s], u);
        if (e > rspan)
            rspan = e;
    }
    /* the images */
    j->sb = cn_img_new(sspan, (uint64_t)it * 137 + (uint64_t)r + 1);
    j->rb = cn_img_new(rspan, (uint64_t)it * 131 + (uint64_t)r);
    j->want = cn_img_copy(&j->rb);
    /* the block of (src, blk) that unit values come from */
    for (int d = 0; d < p; d++)
        if (j->su[d] && !(inplace && (gath || allg || coll >= V_ALLTOALL)))
            k_write(ks, &j->sb, NULL, (size_t)j->sdsp[d], j->su[d], r, gath || allg ? 0 : d, it);
    for (int s = 0; s < p; s++) {
        if (!j->ru[s] || (scat && inplace))
            continue;
        int blk = gath || allg ? 0 : r;
        if (inplace && s == r && (gath || allg)) {
            /* own block already in place */
            k_write(kr, &j->rb, &j->want, (size_t)j->rdsp[s], j->ru[s], r, 0, it);
            continue;
        }
        k_expect(kr, &j->rb, &j->want, (size_t)j->rdsp[s], j->ru[s], s, blk, it);
    }
    if (inplace && coll >= V_ALLTOALL) {
        /* recvbuf holds what goes to each rank d: (r, d) */
        for (int d = 0; d < p; d++)
            if (j->ru[d])
                k_write(kr, &j->rb, NULL, (size_t)j->rdsp[d], j->ru[d], r, d, it);
    }
    j->sb0 = cn_img_copy(&j->sb);

    void *sbuf = cn_ptr(&j->sb), *rbuf = cn_ptr(&j->rb);
    const void *sarg = inplace && !scat ? MPI_IN_PLACE : sbuf;
    void *rarg = inplace && scat ? MPI_IN_PLACE : rbuf;
    MPI_Datatype st = k_type[ks], rt = k_type[kr];
    MPI_Request *rq = &j->req;
    int nb = j->nb, rcode = MPI_SUCCESS;
    MPI_Comm c = j->comm;
    /* counts of the regular ones: every block has m units */
    int sc1 = (int)(m / (size_t)k_per[ks]), rc1 = (int)(m / (size_t)k_per[kr]);
    switch (coll) {
    case V_GATHER:
        rcode = nb ? MPI_Igather(sarg, sc1, st, rbuf, rc1, rt, root, c, rq)
                : MPI_Gather(sarg, sc1, st, rbuf, rc1, rt, root, c);
        break;
    case V_GATHERV:
        rcode = nb ? MPI_Igatherv(sarg, j->scnt[root], st, rbuf, j->rcnt, j->rdsp, rt, root, c, rq)
                : MPI_Gatherv(sarg, j->scnt[root], st, rbuf, j->rcnt, j->rdsp, rt, root, c);
        break;
    case V_SCATTER:
        rcode = nb ? MPI_Iscatter(sbuf, sc1, st, rarg, rc1, rt, root, c, rq)
                : MPI_Scatter(sbuf, sc1, st, rarg, rc1, rt, root, c);
        break;
    case V_SCATTERV:
        rcode = nb ? MPI_Iscatterv(sbuf, j->scnt, j->sdsp, st, rarg, j->rcnt[root], rt, root, c, rq)
                : MPI_Scatterv(sbuf, j->scnt, j->sdsp, st, rarg, j->rcnt[root], rt, root, c);
        break;
    case V_ALLGATHER:
        rcode = nb ? MPI_Iallgather(sarg, sc1, st, rbuf, rc1, rt, c, rq)
                   : MPI_Allgather(sarg, sc1, st, rbuf, rc1, rt, c);
        break;
    case V_ALLGATHERV:
        rcode = nb ? MPI_Iallgatherv(sarg, j->scnt[0], st, rbuf, j->rcnt, j->rdsp, rt, c, rq)
                : MPI_Allgatherv(sarg, j->scnt[0], st, rbuf, j->rcnt, j->rdsp, rt, c);
        break;
    case V_ALLTOALL:
        rcode = nb ? MPI_Ialltoall(sarg, sc1, st, rbuf, rc1, rt, c, rq)
                   : MPI_Alltoall(sarg, sc1, st, rbuf, rc1, rt, c);
        break;
    default:
        rcode = nb ? MPI_Ialltoallv(sarg, j->scnt, j->sdsp, st, rbuf, j->rcnt, j->rdsp, rt, c, rq)
                : MPI_Alltoallv(sarg, j->scnt, j->sdsp, st, rbuf, j->rcnt, j->rdsp, rt, c);
        break;
    }
    if (rcode != MPI_SUCCESS)
        mtest_fail("%s: returned %d", j->what, rcode);
}

static void vjob_finish(vjob_t *j, int wait)
{
    if (j->nb && wait)
        MTEST_RC(MPI_Wait(&j->req, MPI_STATUS_IGNORE));
    if (j->nb)
        MTEST_CHECK(j->req == MPI_REQUEST_NULL, "%s: request not freed at completion", j->what);
    cn_cmp(&j->rb, &j->want, 0, 0, j->what);
    char w[260];
    snprintf(w, sizeof w, "%s: send buffer", j->what);
    cn_cmp(&j->sb, &j->sb0, 0, 0, w);
    cn_img_free(&j->sb);
    cn_img_free(&j->sb0);
    cn_img_free(&j->rb);
    cn_img_free(&j->want);
    free(j->scnt);
    free(j->sdsp);
    free(j->rcnt);
    free(j->rdsp);
    free(j->su);
    free(j->ru);
}

static void run1(MPI_Comm comm, const char *cname, int coll, int fam, size_t m, int root, int inplace, int nb)
{
    vjob_t j = {.coll = coll, .fam = fam, .m = m, .root = root, .inplace = inplace, .nb = nb, .comm = comm,
                .cname = cname};
    double t0 = cn_now();
    vjob_start(&j);
    vjob_finish(&j, 1);
    double t1 = cn_now();
    if (t1 - t0 > 0.05 && getenv("COLL_NODE_TIMES"))
        printf("# [%d] %.3f s %s\n", cn_rank, t1 - t0, j.what);
}

/* Every collective over the sizes (blocks of bytes, and of 6-int groups
 * with mixed types).  full: every root at a few sizes and the large block. */
static void test_sizes(MPI_Comm comm, const char *cname, int full)
{
    int p, sc = nranks_scale();
    MPI_Comm_size(comm, &p);
    size_t c[32];
    int ci = 0;
    for (int coll = 0; coll < NV; coll++)
        for (int fam = 0; fam < 2; fam++) {
            /* the chunk too, in bytes (at many ranks not for all-to-all) */
            int nc = cn_counts(fam ? 24 : 1, c, !fam && (coll < V_ALLTOALL || sc == 1));
            for (int i = 0; i < nc; i++, ci++) {
                /* not full: every other size (fewer at many ranks) */
                if (!full && (i + coll + fam) % (2 * sc))
                    continue;
                size_t m = c[i] * (fam ? 6 : 1);
                run1(comm, cname, coll, fam, m, ci % p, ci % 3 == 1, (ci / 2) % 2);
            }
            if (!full)
                continue;
            /* every root, in place and not */
            if (rooted(coll))
                for (int root = 0; root < p; root++) {
                    size_t m = root % 2 ? (fam ? 12 : CN_INLINE + 1) : (fam ? 6 * (cn_copy_max / 24 + 1) : 1);
                    run1(comm, cname, coll, fam, m, root, root % 3 != 1, root % 2);
                }
            /* a large block */
            size_t big = coll >= V_ALLGATHER ? (2u << 20) / (size_t)p : (1u << 20) / (size_t)sc;
            if (fam)               /* derived types: smaller (unpacking 4-byte pieces) */
                big /= 4;
            if (big < cn_chunk + 1)
                big = cn_chunk + 1;
            run1(comm, cname, coll, fam, fam ? big / 24 * 6 : big, p - 1, coll % 3 == 0, fam);
        }
}

/* Nonblocking ones of every kind outstanding at once, on comm and (every
 * third) on other, blocking ones in between. */
static void test_batch(MPI_Comm comm, const char *cname, MPI_Comm other, const char *oname, size_t m, int mode)
{
    int p;
    MPI_Comm_size(comm, &p);
    enum { NJ = 10 };
    vjob_t j[NJ];
    for (int i = 0; i < NJ; i++) {
        MPI_Comm c = other != MPI_COMM_NULL && i % 3 == 2 ? other : comm;
        int cp, fam = (i + mode) % 2;
        MPI_Comm_size(c, &cp);
        size_t mm = fam ? (m / 24 + 1) * 6 : m + (size_t)i;
        j[i] = (vjob_t){.coll = (i + mode) % NV, .fam = fam, .m = mm, .root = (i * 3 + mode) % cp,
                        .inplace = (i + mode) % 3 == 0, .nb = 1, .comm = c, .cname = c == comm ? cname : oname};
        vjob_start(&j[i]);
        if (i % 4 == 1) {
            run1(comm, cname, V_ALLTOALLV, 0, m / 2 + 1, 0, 0, 0);
            run1(comm, cname, V_GATHER, 1, 6, (i + 1) % p, 1, 0);
        }
    }
    if (mode == 0) {
        for (int i = NJ - 1; i >= 0; i--)
            vjob_finish(&j[i], 1);
    } else {
        MPI_Request rq[NJ];
        for (int i = 0; i < NJ; i++)
            rq[i] = j[i].req;
        if (mode == 1) {
            MTEST_RC(MPI_Waitall(NJ, rq, MPI_STATUSES_IGNORE));
        } else {
            int done = 0;
            while (!done)
                MTEST_RC(MPI_Testall(NJ, rq, &done, MPI_STATUSES_IGNORE));
        }
        for (int i = 0; i < NJ; i++) {
            j[i].req = rq[i];
            vjob_finish(&j[i], 0);
        }
    }
}

static void test_comms(void)
{
    int sc = nranks_scale();
    MPI_Comm par, half, dup, rev;
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, cn_rank % 2, cn_rank, &par));
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, cn_rank < cn_size / 2, cn_rank, &half));
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, cn_size - cn_rank, &rev));
    MPI_Comm cs[5] = {par, half, dup, rev, MPI_COMM_SELF};
    const char *cn[5] = {"parity", "halves", "dup of world", "reversed world", "MPI_COMM_SELF"};
    int base = iter;
    for (int c = 0; c < 5; c++) {
        iter = base + 10000 * (c + 1);
        test_sizes(cs[c], cn[c], 0);
    }
    iter = base + 60000;
    /* one collective on each communicator in turn */
    size_t sizes[5] = {1, CN_INLINE, cn_copy_max + 1, 0, 1000};
    for (int round = 0; round < 16 / sc; round++)
        for (int c = 0; c < 5; c++) {
            int p;
            MPI_Comm_size(cs[c], &p);
            size_t m = round % 2 ? sizes[round % 5] / 24 * 6 + 6 : sizes[round % 5];
            run1(cs[c], cn[c], (round * 3 + c) % NV, round % 2, m, (round + c) % p, round % 3 == 0, (round / 2) % 2);
        }
    test_batch(MPI_COMM_WORLD, "world", par, cn[0], cn_copy_max + 1, 0);
    test_batch(half, cn[1], rev, cn[3], CN_INLINE - 1, 1);
    test_batch(dup, cn[2], MPI_COMM_SELF, cn[4], 2000, 2);
    MPI_Comm_free(&par);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&rev);
}

/* Communicators made and freed, a data-movement collective on each. */
static void test_create_free(int n)
{
    for (int i = 0; i < n; i++) {
        MPI_Comm c;
        if (i % 3 == 2)
            MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, cn_rank % 2, cn_rank, &c));
        else
            MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        int p;
        MPI_Comm_size(c, &p);
        size_t m = i % 2 ? cn_copy_max + 1 : i % 4 == 0 ? CN_INLINE : 3;
        run1(c, "new communicator", (i * 5) % NV, 0, m, i % p, i % 3 == 0, i % 4 == 1);
        MTEST_RC(MPI_Comm_free(&c));
    }
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    cn_setup();
    cn_kinds_init();
    double t0 = cn_now(), t[4];
    iter = 100000;
    test_sizes(MPI_COMM_WORLD, "world", 1);
    t[0] = cn_now();
    iter = 200000;
    for (int mode = 0; mode < 3; mode++) {
        size_t m = mode == 0 ? 1 : mode == 1 ? CN_INLINE + 1 : cn_copy_max - 1;
        test_batch(MPI_COMM_WORLD, "world", MPI_COMM_NULL, NULL, m, mode);
        test_batch(MPI_COMM_WORLD, "world", MPI_COMM_NULL, NULL, mode == 2 ? 0 : cn_copy_max + 1, mode);
    }
    t[1] = cn_now();
    iter = 300000;
    test_comms();
    t[2] = cn_now();
    iter = 400000;
    test_create_free(60 / nranks_scale());
    t[3] = cn_now();
    if (cn_rank == 0 && getenv("COLL_NODE_TIMES"))
        printf("# times: sizes %.2f batches %.2f comms %.2f create/free %.2f s\n", t[0] - t0, t[1] - t[0],
               t[2] - t[1], t[3] - t[2]);
    cn_kinds_free();
    return mtest_finalize();
}
