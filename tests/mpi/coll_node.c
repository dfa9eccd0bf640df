/*
 * coll_node: barrier, broadcast and the reductions on communicators whose
 * ranks share a node (written for the node-level shared-memory collectives,
 * src/coll/node/, and for the point-to-point algorithms they fall back to;
 * helpers and the data model in coll_node.h).
 *   - MPI_Barrier/Ibarrier: a counter in a shared file, incremented by each
 *     rank before it enters (one rank late each round), must hold every
 *     rank's increment when any rank leaves; on the world and on
 *     sub-communicators (own counters);
 *   - Bcast, Reduce, Allreduce, Scan, Exscan, Reduce_scatter_block and
 *     Reduce_scatter, blocking and nonblocking: counts 0, 1, the inline size
 *     (48 B), the copy-in/copy-out limit in force (DMPI_COLL_NODE_COPY_MAX)
 *     and the default one, and the reduction chunk (DMPI_COLL_NODE_CHUNK),
 *     each -1/+0/+1 element (bytes for 1-byte types), 1013 elements, and
 *     4 MiB for bcast, reduce and allreduce; every root; MPI_IN_PLACE
 *     wherever MPI allows it;
 *   - ops: SUM on MPI_INT, MPI_DOUBLE, MPI_LONG_LONG, MAX on MPI_DOUBLE and
 *     MPI_SIGNED_CHAR, SUM on a vector of ints with a gap, MIN on a resized
 *     int (lb 4), and two non-commutative user ops (2x2 matrix product mod
 *     2^31-1; affine maps composed, on a struct with padding) whose results
 *     prove rank order; expected results folded by the test's own C code;
 *   - broadcast with a different datatype of the same signature on each rank
 *     (MPI_INT, a vector with a gap, a struct with padding, a resized type);
 *   - receive buffers pre-filled with the complement of the result, guards
 *     around every buffer, gaps of derived types: every byte checked; the
 *     receive buffer of non-roots of MPI_Reduce never written; send buffers
 *     never written;
 *   - nonblocking collectives of every kind outstanding together, mixed with
 *     blocking ones on the same and on overlapping communicators, completed
 *     in reverse order, with Waitall and with Test loops;
 *   - communicators: world, parity and halves (overlapping), a dup, a
 *     reversed order, MPI_COMM_SELF, collectives on them alternated; 200
 *     communicators made and freed (dup and split, several alive at once)
 *     with collectives on each, so per-communicator areas are freed and
 *     reused (100 at more than 8 ranks);
 *   - a large Allreduce is checked in slices (each rank computes 1/p of the
 *     expected result) plus a digest of every rank's result, compared by
 *     rank 0.
 * argv[1]: the large size (default 4M; the other kinds take a quarter of
 * it). Sizes and repetitions shrink with the number of ranks (the runs are
 * oversubscribed). COLL_NODE_TIMES=1 prints the time of each phase and of
 * every call slower than 50 ms.
 */
#include "coll_node.h"

enum { C_BCAST, C_REDUCE, C_ALLREDUCE, C_SCAN, C_EXSCAN, C_RSB, C_RS, C_BARRIER, NCOLL };
static const char *const coll_name[NCOLL] = {"Bcast", "Reduce", "Allreduce", "Scan", "Exscan",
                                            "Reduce_scatter_block", "Reduce_scatter", "Barrier"};

static size_t big_bytes = 4u << 20;
static int iter;                   /* numbers every call: the data's `it` */

typedef struct {
    int coll, k, root, inplace, it, r, p, nb;
    int split;                     /* Allreduce: expected slice here, the rest by digests */
    size_t s0, s1;                 /* that slice (elements) */
    size_t n;                      /* elements (units for bcast) */
    MPI_Comm comm;
    const char *cname;
    cn_img sb, sb0, rb, want;
    size_t lo, hi;                 /* bytes of rb not checked */
    int *counts;
    MPI_Request req;
    char what[240];
} job_t;

/* Reduce_scatter's counts: varied, some 0, rank 0 exactly n. */
static int rs_count(int i, size_t n)
{
    return i % 4 == 3 ? 0 : (int)n + i % 3;
}

/* Bcast: kind of rank r (k = 0: bytes everywhere; else the int kinds,
 * rotated over ranks and calls). */
static int bcast_kind(int k, int r, int it)
{
    return k == 0 ? K_BYTE : K_INT + (r + it) % 4;
}

/* Builds the buffers, starts (nb) or runs the call. */
static void job_start(job_t *j)
{
    MPI_Comm_rank(j->comm, &j->r);
    MPI_Comm_size(j->comm, &j->p);
    int r = j->r, p = j->p, k = j->k, it = j->it;
    size_t n = j->n, ext = j->coll == C_BCAST ? 0 : rc[k].ext;
    j->it = it = iter++;
    j->lo = j->hi = 0;
    j->counts = NULL;
    j->sb.base = j->sb0.base = NULL;
    int inplace = j->inplace;
    if (j->coll == C_REDUCE && r != j->root)
        inplace = 0;
    snprintf(j->what, sizeof j->what, "%s: %s%s of %zu %s%s, root %d, call %d", j->cname, j->nb ? "I" : "",
             coll_name[j->coll], n,
             j->coll == C_BCAST ? k_name[bcast_kind(k, r, it)] : j->coll == C_BARRIER ? "" : rc[k].name,
             j->coll == C_BCAST ? (k ? " (x6 ints)" : "") : " elements", j->root, it);
    if (inplace)
        strcat(j->what, " in place");
    const void *sbuf = NULL;
    void *rbuf;
    MPI_Request *rq = j->nb ? &j->req : NULL;
    int rcode = MPI_SUCCESS;
    switch (j->coll) {
    case C_BCAST: {
        int kind = bcast_kind(k, r, it);
        size_t units = n * (k == 0 ? 1 : 6);
        j->rb = cn_img_new(k_span(kind, 0, units), (uint64_t)it * 131 + (uint64_t)r);
        j->want = cn_img_copy(&j->rb);
        if (r == j->root)
            k_write(kind, &j->rb, &j->want, 0, units, j->root, 0, it);
        else
            k_expect(kind, &j->rb, &j->want, 0, units, j->root, 0, it);
        int count = (int)(units / (size_t)k_per[kind]);
        rbuf = cn_ptr(&j->rb);
        rcode = j->nb ? MPI_Ibcast(rbuf, count, k_type[kind], j->root, j->comm, rq)
                      : MPI_Bcast(rbuf, count, k_type[kind], j->root, j->comm);
        break;
    }
    case C_BARRIER:
        j->rb = cn_img_new(0, 1);
        j->want = cn_img_copy(&j->rb);
        rcode = j->nb ? MPI_Ibarrier(j->comm, rq) : MPI_Barrier(j->comm);
        break;
    case C_REDUCE:
    case C_ALLREDUCE:
    case C_SCAN:
    case C_EXSCAN: {
        j->rb = cn_img_new(n * ext, (uint64_t)it * 131 + (uint64_t)r);
        j->want = cn_img_copy(&j->rb);
        if (!inplace) {
            j->sb = cn_img_new(n * ext, (uint64_t)it * 137 + (uint64_t)r + 1);
            rc_write(k, &j->sb, NULL, 0, 0, n, r, it);
            j->sb0 = cn_img_copy(&j->sb);
            sbuf = cn_ptr(&j->sb);
        } else {
            sbuf = MPI_IN_PLACE;
        }
        int lo = 0, hi = p;
        if (j->coll == C_REDUCE && r != j->root)
            hi = lo = -1;                  /* nothing expected, nothing written */
        else if (j->coll == C_SCAN)
            hi = r + 1;
        else if (j->coll == C_EXSCAN)
            hi = r;
        /* a large Allreduce: each rank computes 1/p of the expected result
         * and checks that slice; that all results are equal is checked by
         * digests in job_finish */
        j->split = j->coll == C_ALLREDUCE && n * (size_t)p > (1u << 18) && p > 1;
        j->s0 = j->split ? n * (size_t)r / (size_t)p : 0;
        j->s1 = j->split ? n * (size_t)(r + 1) / (size_t)p : n;
        if (hi > lo)
            rc_expect(k, &j->rb, &j->want, j->s0, j->s0, j->s1 - j->s0, lo, hi, it);
        else if (j->coll == C_EXSCAN)
            j->hi = n * ext;               /* rank 0: recvbuf undefined */
        if (inplace)
            rc_write(k, &j->rb, j->coll == C_EXSCAN && r == 0 ? &j->want : NULL, 0, 0, n, r, it);
        rbuf = cn_ptr(&j->rb);
        int cnt = (int)n;
        MPI_Datatype t = rc[k].type;
        MPI_Op op = rc[k].op;
        switch (j->coll) {
        case C_REDUCE:
            rcode = j->nb ? MPI_Ireduce(sbuf, rbuf, cnt, t, op, j->root, j->comm, rq)
                          : MPI_Reduce(sbuf, rbuf, cnt, t, op, j->root, j->comm);
            break;
        case C_ALLREDUCE:
            rcode = j->nb ? MPI_Iallreduce(sbuf, rbuf, cnt, t, op, j->comm, rq)
                          : MPI_Allreduce(sbuf, rbuf, cnt, t, op, j->comm);
            break;
        case C_SCAN:
            rcode = j->nb ? MPI_Iscan(sbuf, rbuf, cnt, t, op, j->comm, rq)
                          : MPI_Scan(sbuf, rbuf, cnt, t, op, j->comm);
            break;
        default:
            rcode = j->nb ? MPI_Iexscan(sbuf, rbuf, cnt, t, op, j->comm, rq)
                          : MPI_Exscan(sbuf, rbuf, cnt, t, op, j->comm);
            break;
        }
        break;
    }
    case C_RSB:
    case C_RS: {
        size_t total = 0, first = 0, mine = 0;
        j->counts = mtest_malloc((size_t)p * sizeof(int));
        for (int i = 0; i < p; i++) {
            j->counts[i] = j->coll == C_RSB ? (int)n : rs_count(i, n);
            if (i == r) {
                first = total;
                mine = (size_t)j->counts[i];
            }
            total += (size_t)j->counts[i];
        }
        size_t rspan = (inplace ? total : mine) * ext;
        j->rb = cn_img_new(rspan, (uint64_t)it * 131 + (uint64_t)r);
        j->want = cn_img_copy(&j->rb);
        rc_expect(k, &j->rb, &j->want, 0, first, mine, 0, p, it);
        if (inplace) {
            /* the input is the whole recvbuf; what follows the result is
             * not specified afterwards */
            j->lo = mine * ext;
            j->hi = total * ext;
            rc_write(k, &j->rb, NULL, 0, 0, total, r, it);
            sbuf = MPI_IN_PLACE;
        } else {
            j->sb = cn_img_new(total * ext, (uint64_t)it * 137 + (uint64_t)r + 1);
            rc_write(k, &j->sb, NULL, 0, 0, total, r, it);
            j->sb0 = cn_img_copy(&j->sb);
            sbuf = cn_ptr(&j->sb);
        }
        rbuf = cn_ptr(&j->rb);
        MPI_Datatype t = rc[k].type;
        MPI_Op op = rc[k].op;
        if (j->coll == C_RSB)
            rcode = j->nb ? MPI_Ireduce_scatter_block(sbuf, rbuf, (int)n, t, op, j->comm, rq)
                          : MPI_Reduce_scatter_block(sbuf, rbuf, (int)n, t, op, j->comm);
        else
            rcode = j->nb ? MPI_Ireduce_scatter(sbuf, rbuf, j->counts, t, op, j->comm, rq)
                          : MPI_Reduce_scatter(sbuf, rbuf, j->counts, t, op, j->comm);
        break;
    }
    }
    if (rcode != MPI_SUCCESS)
        mtest_fail("%s: returned %d", j->what, rcode);
}

/* Waits (nonblocking), checks and frees. */
static void job_finish(job_t *j, int wait)
{
    if (j->nb && wait)
        MTEST_RC(MPI_Wait(&j->req, MPI_STATUS_IGNORE));
    if (j->nb)
        MTEST_CHECK(j->req == MPI_REQUEST_NULL, "%s: request not freed at completion", j->what);
    if (j->split) {
        size_t ext = rc[j->k].ext, a = j->s0 * ext, b = j->s1 * ext;
        memcpy(cn_ptr(&j->want), cn_ptr(&j->rb), a);
        memcpy(cn_ptr(&j->want) + b, cn_ptr(&j->rb) + b, j->rb.span - b);
        /* digest of the data bytes (the gaps hold each rank's own pattern) */
        uint64_t d = 0x1234567;
        const unsigned char *x = cn_ptr(&j->rb);
        for (size_t i = 0; i < j->n; i++)
            for (int sg = 0; sg < rc[j->k].nseg; sg++)
                for (size_t b = 0; b < rc[j->k].seg[sg][1]; b++)
                    d = (d ^ x[i * ext + rc[j->k].seg[sg][0] + b]) * 0x100000001b3ull;
        if (j->r != 0) {
            MTEST_RC(MPI_Send(&d, 1, MPI_UINT64_T, 0, 4444, j->comm));
        } else {
            for (int i = 1; i < j->p; i++) {
                uint64_t o;
                MTEST_RC(MPI_Recv(&o, 1, MPI_UINT64_T, i, 4444, j->comm, MPI_STATUS_IGNORE));
                MTEST_CHECK(o == d, "%s: rank %d's result differs from rank 0's", j->what, i);
            }
        }
    }
    cn_cmp(&j->rb, &j->want, j->lo, j->hi, j->what);
    if (j->sb.base) {
        char w[260];
        snprintf(w, sizeof w, "%s: send buffer", j->what);
        cn_cmp(&j->sb, &j->sb0, 0, 0, w);
        cn_img_free(&j->sb);
        cn_img_free(&j->sb0);
    }
    cn_img_free(&j->rb);
    cn_img_free(&j->want);
    free(j->counts);
}

static void run1(MPI_Comm comm, const char *cname, int coll, int k, size_t n, int root, int inplace, int nb)
{
    job_t j = {.coll = coll, .k = k, .n = n, .root = root, .inplace = inplace, .nb = nb, .comm = comm,
               .cname = cname};
    double t0 = cn_now();
    job_start(&j);
    job_finish(&j, 1);
    double t1 = cn_now();
    if (t1 - t0 > 0.05 && getenv("COLL_NODE_TIMES"))
        printf("# [%d] %.3f s %s\n", cn_rank, t1 - t0, j.what);
}

/* ---- barrier -------------------------------------------------------------- */

/* Slot `slot` of the shared counters belongs to comm (same slot on all its
 * ranks, different from every other communicator in use at the time). */
static void test_barrier(MPI_Comm comm, const char *cname, int slot, int rounds)
{
    if (!cn_counter)
        return;
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    MTEST_RC(MPI_Barrier(comm));
    int base = __atomic_load_n((int *)&cn_counter[slot], __ATOMIC_SEQ_CST);
    MTEST_RC(MPI_Barrier(comm));
    for (int round = 0; round < rounds; round++) {
        /* each late rank (spread over at most 6) with each mode */
        int nl = p < 6 ? p : 6, late = (round / 3) % nl * p / nl, mode = round % 3;
        if (r == late)
            mtest_sleep_ms(3);
        __atomic_fetch_add((int *)&cn_counter[slot], 1, __ATOMIC_SEQ_CST);
        if (mode == 0) {
            MTEST_RC(MPI_Barrier(comm));
        } else {
            MPI_Request rq;
            MTEST_RC(MPI_Ibarrier(comm, &rq));
            if (mode == 1) {
                MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            } else {
                int done = 0;
                while (!done)
                    MTEST_RC(MPI_Test(&rq, &done, MPI_STATUS_IGNORE));
            }
        }
        int seen = __atomic_load_n((int *)&cn_counter[slot], __ATOMIC_SEQ_CST) - base;
        MTEST_CHECK(seen >= (round + 1) * p, "%s: %s %d (rank %d late): left with %d of %d ranks arrived", cname,
                    mode ? "Ibarrier" : "Barrier", round, late, seen - round * p, p);
        /* nobody may start the next round's increment before all have
         * checked this one: a second barrier */
        MTEST_RC(MPI_Barrier(comm));
    }
}

/* ---- broadcast and reductions over the sizes --------------------------- */

static int nranks_scale(void)
{
    return cn_size <= 4 ? 1 : cn_size <= 8 ? 2 : 4;
}

static void test_bcast(MPI_Comm comm, const char *cname, int full)
{
    int p;
    MPI_Comm_size(comm, &p);
    size_t c[32];
    for (int k = 0; k < 2; k++) {
        int nc = cn_counts(k == 0 ? 1 : 24, c, 1);
        c[nc++] = k == 0 ? 1013 : 7;
        for (int i = 0; i < nc; i++) {
            if (!full && (i + k) % nranks_scale())
                continue;          /* at many ranks, some of the sizes */
            /* every root for a few sizes, a rotating root for the others */
            int all = full && (c[i] == 1 || c[i] == CN_INLINE / (k ? 24 : 1) || c[i] == cn_copy_max / (k ? 24 : 1) + 1);
            for (int root = 0; root < p; root++) {
                if (!all && root != (i + k) % p)
                    continue;
                run1(comm, cname, C_BCAST, k, c[i], root, 0, (root + i) % 2);
            }
        }
    }
    if (full) {
        run1(comm, cname, C_BCAST, 0, big_bytes, p - 1, 0, 0);
        run1(comm, cname, C_BCAST, 1, big_bytes / 24 / 4 + 1, 0, 0, 1);
    }
}

/* Every reduction over the sizes.  full: every case at every size (at many
 * ranks every sc-th case above the inline sizes), plus every root at a few
 * sizes and the large counts; otherwise one case per size, in turn. */
static void test_reductions(MPI_Comm comm, const char *cname, int full)
{
    int p, sc = nranks_scale();
    MPI_Comm_size(comm, &p);
    size_t c[32];
    int ci = 0;
    for (int k = 0; k < NRCASES; k++) {
        int nc = cn_counts(rc[k].ext, c, 1);
        c[nc++] = 1013;
        for (int i = 0; i < nc; i++, ci++) {
            if (full ? i >= 5 && (k + i) % (2 * sc) : (k + i + p) % NRCASES || i % sc)
                continue;
            int root = ci % p, inplace = ci % 2, nb = (ci / 2) % 2;
            int chunkish = c[i] * rc[k].ext >= cn_chunk - rc[k].ext;
            run1(comm, cname, C_REDUCE, k, c[i], root, inplace, nb);
            run1(comm, cname, C_ALLREDUCE, k, c[i], root, !inplace, !nb);
            run1(comm, cname, C_SCAN, k, c[i], 0, inplace, nb);
            run1(comm, cname, C_EXSCAN, k, c[i], 0, !inplace, nb);
            size_t n = c[i] / (size_t)(chunkish ? p : 1);     /* per rank */
            run1(comm, cname, C_RSB, k, n, 0, inplace, !nb);
            run1(comm, cname, C_RS, k, n, 0, !inplace, nb);
        }
    }
    if (!full)
        return;
    /* every root, in place and not, at 1 element, inline+1 and copy+1 bytes */
    int ks[3] = {R_MAT, R_SCHAR_MAX, R_AFF};
    for (int root = 0; root < p; root++)
        for (int x = 0; x < 3; x++) {
            int k = ks[x];
            size_t n = x == 0 ? 1 : x == 1 ? CN_INLINE + 1 : cn_copy_max / rc[k].ext + 1;
            run1(comm, cname, C_REDUCE, k, n, root, root % 2, x == 2);
            run1(comm, cname, C_REDUCE, k, n, root, !(root % 2), x != 2);
        }
    /* the large count (4 MiB of MPI_INT), and 1 MiB (less at many ranks) of
     * the other kinds */
    size_t big = big_bytes / 4, mid = big_bytes / 4 / (size_t)sc;
    run1(comm, cname, C_ALLREDUCE, R_INT_SUM, big, 0, 0, 0);
    run1(comm, cname, C_REDUCE, R_INT_SUM, big, p - 1, 1, 0);
    run1(comm, cname, C_REDUCE, R_DOUBLE_SUM, mid / 8, p / 2, 0, 1);
    run1(comm, cname, C_ALLREDUCE, R_MAT, mid / 16 + 1, 0, 1, 1);
    run1(comm, cname, C_ALLREDUCE, R_AFF, mid / 16 / 2 + 3, 0, 0, 0);
    run1(comm, cname, C_ALLREDUCE, R_SCHAR_MAX, mid - 1, 0, 1, 0);
    run1(comm, cname, C_SCAN, R_MAT, mid / 16 / 4 + 1, 0, 0, 0);
    run1(comm, cname, C_RSB, R_INT_SUM, mid / 4 / (size_t)p + 1, 0, 0, 1);
}

/* ---- nonblocking ones outstanding together ------------------------------ */

/* A batch of nonblocking collectives of every kind on comm (and on other,
 * when given, whose members are a superset or subset: starting them in the
 * same order everywhere is enough), blocking ones in between, completed in
 * reverse order (mode 0), with Waitall (1) or with a Test loop (2). */
static void test_batch(MPI_Comm comm, const char *cname, MPI_Comm other, const char *oname, size_t n, int mode)
{
    int p;
    MPI_Comm_size(comm, &p);
    enum { NJ = 11 };
    job_t j[NJ];
    int colls[NJ] = {C_BCAST, C_ALLREDUCE, C_REDUCE, C_SCAN, C_BARRIER, C_EXSCAN, C_RSB, C_RS, C_ALLREDUCE,
                     C_BCAST, C_REDUCE};
    int ks[NJ] = {1, R_MAT, R_AFF, R_INT_SUM, 0, R_DOUBLE_SUM, R_VEC_SUM, R_LL_SUM, R_SCHAR_MAX, 0, R_RES_MIN};
    for (int i = 0; i < NJ; i++) {
        MPI_Comm c = other != MPI_COMM_NULL && i % 3 == 2 ? other : comm;
        int cp;
        MPI_Comm_size(c, &cp);
        j[i] = (job_t){.coll = colls[i], .k = ks[i], .n = colls[i] == C_BCAST && ks[i] ? n / 24 + 1 : n + (size_t)i,
                       .root = (i * 5 + mode) % cp, .inplace = (i + mode) % 2, .nb = 1, .comm = c,
                       .cname = c == comm ? cname : oname};
        job_start(&j[i]);
        if (i % 4 == 1) {      /* a blocking one in the middle */
            run1(comm, cname, C_ALLREDUCE, R_MAT, n / 3 + 1, 0, i % 2, 0);
            run1(comm, cname, C_BCAST, 0, n + 5, (i + 1) % p, 0, 0);
        }
    }
    if (mode == 0) {
        for (int i = NJ - 1; i >= 0; i--)
            job_finish(&j[i], 1);
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
            job_finish(&j[i], 0);
        }
    }
}

/* ---- several communicators ---------------------------------------------- */

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

    /* barriers: own counter slots (parity 1-2, halves 3-4, dup 5, reversed 6) */
    test_barrier(par, cn[0], 1 + cn_rank % 2, 6);
    test_barrier(half, cn[1], 3 + (cn_rank < cn_size / 2), 6);
    test_barrier(dup, cn[2], 5, 6);
    test_barrier(rev, cn[3], 6, 6);
    test_barrier(MPI_COMM_SELF, cn[4], 8 + cn_rank % 1000, 2);

    /* the sizes on each (the reversed world gets the large ones too) */
    int base = iter;
    for (int c = 0; c < 5; c++) {
        iter = base + 10000 * (c + 1);    /* agreed by the members of cs[c] */
        test_bcast(cs[c], cn[c], 0);
        test_reductions(cs[c], cn[c], 0);
    }

    /* alternate: one collective on each in turn, blocking and not */
    iter = base + 60000;
    size_t sizes[6] = {1, CN_INLINE + 1, cn_copy_max + 1, cn_copy_max - 1, cn_chunk / 8 + 3, 0};
    for (int round = 0; round < 24 / sc; round++) {
        size_t n = sizes[round % 6];
        for (int c = 0; c < 5; c++) {
            int p;
            MPI_Comm_size(cs[c], &p);
            int coll = (round + c) % 3 == 0 ? C_BCAST : (round + c) % 3 == 1 ? C_ALLREDUCE : C_REDUCE;
            int k = coll == C_BCAST ? round % 2 : (round * 3 + c) % NRCASES;
            size_t cnt = coll == C_BCAST ? (k ? n / 24 + 1 : n) : n / rc[k].ext + 1;
            run1(cs[c], cn[c], coll, k, cnt, (round + c) % p, round % 2, (round / 2) % 2);
        }
    }

    /* nonblocking ones outstanding on overlapping communicators */
    test_batch(MPI_COMM_WORLD, "world", par, cn[0], cn_copy_max / (size_t)sc + 1, 0);
    test_batch(half, cn[1], rev, cn[3], CN_INLINE - 1, 1);
    test_batch(dup, cn[2], MPI_COMM_SELF, cn[4], 2000 / (size_t)sc, 2);
    MPI_Comm_free(&par);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&rev);
}

/* ---- many communicators made and freed ----------------------------------- */

static void test_create_free(int n)
{
    enum { LIVE = 5 };
    MPI_Comm live[LIVE];
    for (int i = 0; i < LIVE; i++)
        live[i] = MPI_COMM_NULL;
    for (int i = 0; i < n; i++) {
        MPI_Comm *slot = &live[(i * 3) % LIVE];     /* freed in a different order than made */
        if (*slot != MPI_COMM_NULL)
            MTEST_RC(MPI_Comm_free(slot));
        if (i % 4 == 3)
            MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, cn_rank % 3, -cn_rank, slot));
        else
            MTEST_RC(MPI_Comm_dup(i % 2 ? MPI_COMM_WORLD : live[(i * 3 + 1) % LIVE] != MPI_COMM_NULL
                                                             ? live[(i * 3 + 1) % LIVE]
                                                             : MPI_COMM_WORLD,
                                  slot));
        int p;
        MPI_Comm_size(*slot, &p);
        static const size_t sz[4] = {8, CN_INLINE, 1000, 0};
        size_t bytes = i % 4 == 0 ? cn_copy_max + 8 : i % 8 == 5 ? cn_chunk + 16 : sz[i % 4];
        run1(*slot, "new communicator", C_ALLREDUCE, i % 2 ? R_MAT : R_INT_SUM, bytes / (i % 2 ? 16 : 4), 0,
             i % 3 == 0, i % 5 == 0);
        if (i % 3 == 1)
            run1(*slot, "new communicator", C_BCAST, 0, bytes + 1, i % p, 0, 1);
        if (i % 7 == 2)
            MTEST_RC(MPI_Barrier(*slot));
    }
    for (int i = 0; i < LIVE; i++)
        if (live[i] != MPI_COMM_NULL)
            MTEST_RC(MPI_Comm_free(&live[i]));
}

/* Count 0 with NULL buffers (as mpi4py passes empty arrays), in place
 * too: every reduction succeeds and touches nothing. */
static void test_null_buffers(MPI_Comm comm)
{
    int p, zeros[64] = {0};
    MPI_Comm_size(comm, &p);
    MTEST_RC(MPI_Reduce(NULL, NULL, 0, MPI_INT, MPI_SUM, 0, comm));
    MTEST_RC(MPI_Reduce(cn_rank == 0 ? MPI_IN_PLACE : NULL, NULL, 0, MPI_INT, MPI_SUM, 0, comm));
    MTEST_RC(MPI_Allreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, comm));
    MTEST_RC(MPI_Allreduce(MPI_IN_PLACE, NULL, 0, MPI_INT, MPI_SUM, comm));
    MTEST_RC(MPI_Reduce_scatter_block(NULL, NULL, 0, MPI_INT, MPI_SUM, comm));
    MTEST_RC(MPI_Reduce_scatter_block(MPI_IN_PLACE, NULL, 0, MPI_INT, MPI_SUM, comm));
    MTEST_RC(MPI_Reduce_scatter(MPI_IN_PLACE, NULL, zeros, MPI_INT, MPI_SUM, comm));
    MTEST_RC(MPI_Scan(NULL, NULL, 0, MPI_INT, MPI_SUM, comm));
    MTEST_RC(MPI_Exscan(MPI_IN_PLACE, NULL, 0, MPI_INT, MPI_SUM, comm));
    MTEST_RC(MPI_Bcast(NULL, 0, MPI_INT, p - 1, comm));
    MTEST_RC(MPI_Allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm));
    MTEST_RC(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, NULL, 0, MPI_INT, comm));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    cn_setup();
    if (argc > 1)
        big_bytes = mtest_parse_size(argv[1]);
    cn_kinds_init();
    cn_rcases_init();
    cn_counter_init();
    double t0 = cn_now(), t[6];
    /* every phase numbers its calls from its own base, so that the data of
     * all ranks agree even if a phase's count of calls varied */

    if (cn_size <= 64)
        test_null_buffers(MPI_COMM_WORLD);
    iter = 100000;
    test_barrier(MPI_COMM_WORLD, "world", 0, 3 * (cn_size < 6 ? cn_size : 6));
    t[0] = cn_now();
    iter = 200000;
    test_bcast(MPI_COMM_WORLD, "world", 1);
    t[1] = cn_now();
    iter = 300000;
    test_reductions(MPI_COMM_WORLD, "world", 1);
    t[2] = cn_now();
    iter = 400000;
    for (int mode = 0; mode < 3; mode++) {
        size_t sc = (size_t)nranks_scale();
        size_t n = mode == 0 ? 1 : mode == 1 ? 5000 / sc : 40000 / sc / sc;
        test_batch(MPI_COMM_WORLD, "world", MPI_COMM_NULL, NULL, n, mode);
        if (sc == 1 || mode == 1)
            test_batch(MPI_COMM_WORLD, "world", MPI_COMM_NULL, NULL, mode == 0 ? 12 : cn_copy_max / sc + 1, mode);
    }
    t[3] = cn_now();
    iter = 500000;
    test_comms();
    t[4] = cn_now();
    iter = 600000;
    test_create_free(cn_size <= 8 ? 200 : 100);
    t[5] = cn_now();
    if (cn_rank == 0 && getenv("COLL_NODE_TIMES"))
        printf("# times: barrier %.2f bcast %.2f reductions %.2f batches %.2f comms %.2f create/free %.2f s\n",
               t[0] - t0, t[1] - t[0], t[2] - t[1], t[3] - t[2], t[4] - t[3], t[5] - t[4]);

    cn_counter_free();
    cn_rcases_free();
    cn_kinds_free();
    return mtest_finalize();
}
