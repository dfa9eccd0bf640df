/*
 * coll_alltoallv: MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallw,
 * MPI_Ialltoallw.
 *   - count patterns (the same matrix computed on every rank): dense,
 *     dense with zeros, dense and large, sparse (each rank sends to two
 *     random peers, all else zero), empty, only to oneself, highly
 *     unbalanced (rank 0 sends a lot to everyone, one pair a lot more),
 *     and a symmetric one for MPI_IN_PLACE;
 *   - blocks placed in reverse rank order with holes, send and receive
 *     types mixed from int, a vector with gaps and a resized type with
 *     lb != 0 (alltoallw: a different type per peer, displacements in
 *     bytes); data exact, gaps untouched;
 *   - blocking, nonblocking and in place; on MPI_COMM_WORLD, a reversed
 *     communicator and halves of the world;
 *   - several outstanding at once with point-to-point traffic on the same
 *     communicator and tags, completed in reverse order and with Waitall;
 *   - error classes: counts, arrays, types, MPI_IN_PLACE as recvbuf,
 *     MPI_COMM_NULL, NULL request, intercommunicator.
 * Run it with each DMPI_COLL_ALLTOALLV algorithm, and with "mixed" (each
 * rank its own algorithm: they must interoperate) (tests/mpi/testlist).
 */
#include "coll_move_types.h"

#include <stdbool.h>

static int rank, size;

enum { P_DENSE, P_ZEROS, P_LARGE, P_SPARSE, P_EMPTY, P_SELF, P_UNBALANCED, P_SYMMETRIC, PATTERNS };
static const char *const pattern_name[PATTERNS] = {"dense", "dense with zeros", "dense large", "sparse",
                                                    "empty", "self only", "unbalanced", "symmetric"};

/* Ints rank i sends to rank j, in a p x p matrix (row i = sender). */
static int *pattern(int pat, int p, bool even)
{
    int *cnt = mtest_malloc(sizeof(int) * (size_t)p * (size_t)p);
    uint64_t seed = 12345;
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++) {
            int lo = i < j ? i : j, hi = i < j ? j : i, c;
            switch (pat) {
            case P_DENSE: c = 1 + (i * 7 + j * 3) % 11; break;
            case P_ZEROS: c = (i + j) % 3 == 0 ? 0 : 1 + (i * 5 + j) % 13; break;
            case P_LARGE: c = p <= 4 ? 16384 + i * 8 + j : 2000 + j; break;
            case P_EMPTY: c = 0; break;
            case P_SELF: c = i == j ? 9 + i : 0; break;
            case P_UNBALANCED: c = i == 0 ? 30000 : i == p - 1 && j == 1 % p ? 50000 : i == j ? 3 : 1; break;
            case P_SYMMETRIC: c = (lo + hi) % 4 == 1 ? 0 : 1 + (lo * 5 + hi * 3) % 9; break;
            default: c = 0; break;   /* P_SPARSE below */
            }
            cnt[i * p + j] = c;
        }
    if (pat == P_SPARSE)
        for (int i = 0; i < p; i++)
            for (int k = 0; k < 2; k++)
                cnt[i * p + (int)mtest_rand_range(&seed, 0, (size_t)p - 1)] = 1 + (int)mtest_rand_range(&seed, 0, 60);
    if (even)
        for (int i = 0; i < p * p; i++)
            cnt[i] += cnt[i] & 1;
    return cnt;
}

/* One type per side (alltoallv): blocks in reverse rank order with a
 * one-element hole between them; displs in elements. Returns the ints spanned. */
static size_t v_layout(int p, const int *ints, int k, int *counts, int *displs)
{
    int pos = 0;
    for (int j = p - 1; j >= 0; j--) {
        counts[j] = ct_count(k, (size_t)ints[j]);
        displs[j] = pos;
        pos += counts[j] + 1;
    }
    return (size_t)pos * (size_t)ct_per[k];
}

enum { BLOCKING, NONBLOCKING, IN_PLACE, MODES };
static const char *const mode_name[MODES] = {"blocking", "nonblocking", "in place"};

static void alltoallv_case(MPI_Comm comm, const char *cname, int pat, int sk, int rk, int mode)
{
    int me, p;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Alltoallv %s, %s -> %s, %s", cname, pattern_name[pat], ct_name[sk],
             ct_name[rk], mode_name[mode]);
    int *cnt = pattern(pat, p, sk == CT_VEC || rk == CT_VEC);
    int *sints = mtest_malloc(sizeof(int) * (size_t)p), *rints = mtest_malloc(sizeof(int) * (size_t)p);
    for (int j = 0; j < p; j++) {
        sints[j] = cnt[me * p + j];
        rints[j] = cnt[j * p + me];
    }
    int *scounts = mtest_malloc(sizeof(int) * (size_t)p), *sdispls = mtest_malloc(sizeof(int) * (size_t)p);
    int *rcounts = mtest_malloc(sizeof(int) * (size_t)p), *rdispls = mtest_malloc(sizeof(int) * (size_t)p);
    size_t stotal = v_layout(p, sints, sk, scounts, sdispls), rtotal = v_layout(p, rints, rk, rcounts, rdispls);
    int *sbuf = ct_alloc(sk, stotal), *rbuf = ct_alloc(rk, rtotal), *want = ct_alloc(rk, rtotal);
    for (int j = 0; j < p; j++) {
        ct_fill(sk, sbuf, (size_t)sdispls[j] * (size_t)ct_per[sk], (size_t)sints[j], me, j);
        ct_fill(rk, want, (size_t)rdispls[j] * (size_t)ct_per[rk], (size_t)rints[j], j, me);
    }
    const void *sb = sbuf;
    if (mode == IN_PLACE) {
        for (int j = 0; j < p; j++)    /* what goes to j sits where j's data will arrive */
            ct_fill(rk, rbuf, (size_t)rdispls[j] * (size_t)ct_per[rk], (size_t)rints[j], me, j);
        sb = MPI_IN_PLACE;
    }
    if (mode == NONBLOCKING) {
        MPI_Request rq;
        MTEST_RC(MPI_Ialltoallv(sb, scounts, sdispls, ct_type[sk], rbuf, rcounts, rdispls, ct_type[rk], comm, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        MTEST_RC(MPI_Alltoallv(sb, scounts, sdispls, ct_type[sk], rbuf, rcounts, rdispls, ct_type[rk], comm));
    }
    ct_compare(rk, rbuf, want, rtotal, what);
    free(cnt);
    free(sints);
    free(rints);
    free(scounts);
    free(sdispls);
    free(rcounts);
    free(rdispls);
    free(sbuf);
    free(rbuf);
    free(want);
}

/* Alltoallw: the block for (from) rank j has its own type, kind (me + j) % 3
 * to send and (2 me + j) % 3 to receive, and lies at a byte displacement:
 * blocks in reverse rank order with a one-int hole. Fills counts, displs,
 * types and each block's first int (base) and kind; returns the ints spanned. */
static size_t w_layout(int p, const int *ints, int me, int mul, int *counts, int *displs, MPI_Datatype *types,
                       size_t *base, int *kind)
{
    size_t pos = 0;
    for (int j = p - 1; j >= 0; j--) {
        kind[j] = (mul * me + j) % CT_KINDS;
        counts[j] = ct_count(kind[j], (size_t)ints[j]);
        types[j] = ct_type[kind[j]];
        base[j] = pos;
        displs[j] = (int)(pos * sizeof(int));
        pos += ct_span(kind[j], (size_t)ints[j]) + 1;
    }
    return pos;
}

static int *filled(size_t total)
{
    int *b = mtest_malloc((total + 1) * sizeof(int));
    for (size_t i = 0; i <= total; i++)
        b[i] = CT_HOLE;
    return b;
}

static void alltoallw_case(MPI_Comm comm, const char *cname, int pat, int mode)
{
    int me, p;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    snprintf(what, sizeof what, "%s: Alltoallw %s, %s", cname, pattern_name[pat], mode_name[mode]);
    int *cnt = pattern(pat, p, true);
    size_t n = (size_t)p;
    int *sints = mtest_malloc(sizeof(int) * n), *rints = mtest_malloc(sizeof(int) * n);
    int *scounts = mtest_malloc(sizeof(int) * n), *sdispls = mtest_malloc(sizeof(int) * n);
    int *rcounts = mtest_malloc(sizeof(int) * n), *rdispls = mtest_malloc(sizeof(int) * n);
    int *skind = mtest_malloc(sizeof(int) * n), *rkind = mtest_malloc(sizeof(int) * n);
    size_t *sbase = mtest_malloc(sizeof(size_t) * n), *rbase = mtest_malloc(sizeof(size_t) * n);
    MPI_Datatype *stypes = mtest_malloc(sizeof(MPI_Datatype) * n), *rtypes = mtest_malloc(sizeof(MPI_Datatype) * n);
    for (int j = 0; j < p; j++) {
        sints[j] = cnt[me * p + j];
        rints[j] = cnt[j * p + me];
    }
    size_t stotal = w_layout(p, sints, me, 1, scounts, sdispls, stypes, sbase, skind);
    size_t rtotal = w_layout(p, rints, me, 2, rcounts, rdispls, rtypes, rbase, rkind);
    int *sbuf = filled(stotal), *rbuf = filled(rtotal), *want = filled(rtotal);
    for (int j = 0; j < p; j++) {
        ct_fill(skind[j], sbuf + sbase[j], 0, (size_t)sints[j], me, j);
        ct_fill(rkind[j], want + rbase[j], 0, (size_t)rints[j], j, me);
    }
    const void *sb = sbuf;
    if (mode == IN_PLACE) {
        for (int j = 0; j < p; j++)
            ct_fill(rkind[j], rbuf + rbase[j], 0, (size_t)rints[j], me, j);
        sb = MPI_IN_PLACE;
    }
    if (mode == NONBLOCKING) {
        MPI_Request rq;
        MTEST_RC(MPI_Ialltoallw(sb, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, &rq));
        MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    } else {
        MTEST_RC(MPI_Alltoallw(sb, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm));
    }
    ct_compare(CT_INT, rbuf, want, rtotal, what);
    free(cnt);
    free(sints);
    free(rints);
    free(scounts);
    free(sdispls);
    free(rcounts);
    free(rdispls);
    free(skind);
    free(rkind);
    free(sbase);
    free(rbase);
    free(stypes);
    free(rtypes);
    free(sbuf);
    free(rbuf);
    free(want);
}

static const int combos[][2] = {{CT_INT, CT_INT}, {CT_INT, CT_VEC}, {CT_VEC, CT_RES}, {CT_RES, CT_INT}};
#define NCOMBOS ((int)(sizeof combos / sizeof combos[0]))

static void test_patterns(MPI_Comm comm, const char *cname)
{
    for (int pat = 0; pat < PATTERNS; pat++) {
        for (int mode = 0; mode < MODES; mode++) {
            /* in place needs a symmetric matrix */
            if (mode == IN_PLACE && pat != P_SYMMETRIC && pat != P_EMPTY && pat != P_SELF)
                continue;
            for (int c = 0; c < NCOMBOS; c++) {
                if (pat == P_LARGE && c > 1)
                    continue;
                alltoallv_case(comm, cname, pat, combos[c][0], combos[c][1], mode);
            }
            alltoallw_case(comm, cname, pat, mode);
        }
    }
}

static void test_outstanding(MPI_Comm comm, const char *cname)
{
    enum { N = 4 };
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    size_t n = (size_t)p;
    int *cnt = pattern(P_SYMMETRIC, p, false);
    int *counts = mtest_malloc(sizeof(int) * n), *displs = mtest_malloc(sizeof(int) * n);
    MPI_Datatype *types = mtest_malloc(sizeof(MPI_Datatype) * n);
    int *bdispls = mtest_malloc(sizeof(int) * n), total = 0;
    for (int j = 0; j < p; j++) {
        counts[j] = cnt[me * p + j];   /* symmetric: the same both ways */
        displs[j] = total;
        bdispls[j] = total * (int)sizeof(int);
        types[j] = MPI_INT;
        total += counts[j] + 2;
    }
    for (int order = 0; order < 2; order++) {
        MPI_Request rq[N + 2];
        int *sbuf[N], *rbuf[N];
        int ptp_out = me * 10 + order, ptp_in = -1;
        for (int i = 0; i < N; i++) {
            sbuf[i] = ct_alloc(CT_INT, (size_t)total);
            rbuf[i] = ct_alloc(CT_INT, (size_t)total);
            for (int j = 0; j < p; j++)
                ct_fill(CT_INT, i == 2 ? rbuf[i] : sbuf[i], (size_t)displs[j], (size_t)counts[j], me, 50 * i + j);
            if (i == 1 || i == 3)
                MTEST_RC(MPI_Ialltoallw(sbuf[i], counts, bdispls, types, rbuf[i], counts, bdispls, types, comm,
                                        &rq[i]));
            else
                MTEST_RC(MPI_Ialltoallv(i == 2 ? MPI_IN_PLACE : sbuf[i], counts, displs, MPI_INT, rbuf[i], counts,
                                        displs, MPI_INT, comm, &rq[i]));
            if (i == 1) {
                MTEST_RC(MPI_Irecv(&ptp_in, 1, MPI_INT, (me - 1 + p) % p, 0, comm, &rq[N]));
                MTEST_RC(MPI_Isend(&ptp_out, 1, MPI_INT, (me + 1) % p, 0, comm, &rq[N + 1]));
            }
        }
        if (order == 0) {
            for (int i = N + 1; i >= 0; i--) {
                int flag = 0;
                while (!flag)
                    MTEST_RC(MPI_Test(&rq[i], &flag, MPI_STATUS_IGNORE));
            }
        } else {
            MTEST_RC(MPI_Waitall(N + 2, rq, MPI_STATUSES_IGNORE));
        }
        MTEST_CHECK(ptp_in == ((me - 1 + p) % p) * 10 + order, "%s: point-to-point message among collectives: %d",
                    cname, ptp_in);
        for (int i = 0; i < N; i++) {
            int *want = ct_alloc(CT_INT, (size_t)total);
            for (int j = 0; j < p; j++)
                ct_fill(CT_INT, want, (size_t)displs[j], (size_t)counts[j], j, 50 * i + me);
            char what[96];
            snprintf(what, sizeof what, "%s: outstanding collective %d (order %d)", cname, i, order);
            ct_compare(CT_INT, rbuf[i], want, (size_t)total, what);
            free(want);
            free(sbuf[i]);
            free(rbuf[i]);
        }
    }
    free(cnt);
    free(counts);
    free(displs);
    free(bdispls);
    free(types);
}

static void test_errors(void)
{
    int v[4] = {0}, w[64], one[64], zero[64], neg[64];
    MPI_Datatype ints[64], nulls[64];
    MPI_Request rq;
    for (int i = 0; i < 64; i++) {
        one[i] = 1;
        zero[i] = 0;
        neg[i] = -1;
        ints[i] = MPI_INT;
        nulls[i] = MPI_DATATYPE_NULL;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    mtest_check_class(MPI_Alltoallv(v, neg, zero, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
                      "sendcounts negative");
    mtest_check_class(MPI_Ialltoallv(v, one, zero, MPI_INT, w, neg, zero, MPI_INT, MPI_COMM_WORLD, &rq),
                      MPI_ERR_COUNT, "recvcounts negative");
    mtest_check_class(MPI_Alltoallv(v, one, zero, MPI_DATATYPE_NULL, w, one, zero, MPI_INT, MPI_COMM_WORLD),
                      MPI_ERR_TYPE, "sendtype NULL");
    mtest_check_class(MPI_Alltoallv(v, one, zero, MPI_INT, MPI_IN_PLACE, one, zero, MPI_INT, MPI_COMM_WORLD),
                      MPI_ERR_BUFFER, "recvbuf MPI_IN_PLACE");
    mtest_check_class(MPI_Alltoallw(v, one, zero, nulls, w, one, zero, ints, MPI_COMM_WORLD), MPI_ERR_TYPE,
                      "sendtypes NULL");
    mtest_check_class(MPI_Alltoallw(v, one, zero, ints, w, one, zero, nulls, MPI_COMM_WORLD), MPI_ERR_TYPE,
                      "recvtypes NULL");
    mtest_check_class(MPI_Alltoallw(v, one, zero, ints, w, neg, zero, ints, MPI_COMM_WORLD), MPI_ERR_COUNT,
                      "Alltoallw recvcounts negative");
    mtest_check_class(MPI_Alltoallv(v, one, zero, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM,
                      "MPI_COMM_NULL");
    mtest_check_class(MPI_Ialltoallv(v, one, zero, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_SELF, NULL),
                      MPI_ERR_ARG, "NULL request");
    mtest_check_class(MPI_Ialltoallw(v, one, zero, ints, w, one, zero, ints, MPI_COMM_SELF, NULL), MPI_ERR_ARG,
                      "Ialltoallw NULL request");
    /* on an intercommunicator MPI_IN_PLACE is not allowed (tests/mpi/coll_inter.c has the rest) */
    if (size > 1 && !MTEST_MPICH_DEVIATION) {
        MPI_Comm half, inter;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        MTEST_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        mtest_check_class(MPI_Alltoallv(MPI_IN_PLACE, one, zero, MPI_INT, w, one, zero, MPI_INT, inter), MPI_ERR_BUFFER,
                          "MPI_IN_PLACE on an intercommunicator");
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ct_init();
    test_patterns(MPI_COMM_WORLD, "world");
    if (size > 1) {
        MPI_Comm rev;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
        test_patterns(rev, "reversed");
        MPI_Comm_free(&rev);
    }
    if (size > 2) {
        MPI_Comm half;
        MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        test_patterns(half, rank % 2 ? "odd half" : "even half");
        test_outstanding(half, "half");
        MPI_Comm_free(&half);
    }
    test_outstanding(MPI_COMM_WORLD, "world");
    test_errors();
    ct_free();
    return mtest_finalize();
}
