/*
 * coll_neighbor: the neighborhood collectives (MPI-4.0 8.6-8.8).
 * MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v/w) in every form
 * (blocking, nonblocking, persistent, each with int and MPI_Count
 * arguments) on:
 *   - Cartesian grids: 1-D periodic and not, 2-D from Dims_create periodic,
 *     not and mixed, 2-D and 3-D with dimensions of size 1 and 2 (in a
 *     periodic dimension of size 1 or 2 both neighbours are one process:
 *     the block sent towards -1 must arrive in the receiver's +1 block and
 *     the other way round, MPI-4.0 Annex B.1.1);
 *   - a graph with repeated edges and a self loop;
 *   - distributed graphs (adjacent) with repeated edges, self edges and
 *     ranks without any neighbour or with only in- or out-edges, and one in
 *     which every rank has more than 70 in- and out-neighbours.
 * The test computes every rank's neighbour lists itself (not through the
 * library's queries) and which block of which sender lands in each receive
 * block; senders send ints hashed from (sender, block, index, call);
 * receive buffers are poisoned and compared whole, so blocks of
 * MPI_PROC_NULL neighbours, the gaps between blocks and the holes of a
 * strided receive type must stay untouched. Receivers use MPI_INT or a
 * vector type with holes against the senders' MPI_INT. Counts include 0,
 * and blocks up to 72 KB. Errors: MPI_ERR_TOPOLOGY without a topology,
 * MPI_IN_PLACE, negative counts, uncommitted types.
 */
#include "mtest.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 64
#define MAXDEG 160

static int rank, size;
static MPI_Datatype vec2;        /* 2 ints at 0 and 2, extent 3 ints */

/* ---- the test's own model of a topology ----------------------------------- */

typedef struct topo {
    char name[64];
    MPI_Comm comm;
    bool cart;
    int indeg[MAXP], outdeg[MAXP];
    int in[MAXP][MAXDEG], out[MAXP][MAXDEG];
} topo_t;

static topo_t T;

static void cart_model(int ndims, const int *dims, const int *periods)
{
    T.cart = true;
    for (int r = 0; r < size; r++) {
        int c[8], x = r;
        for (int d = ndims - 1; d >= 0; d--) {
            c[d] = x % dims[d];
            x /= dims[d];
        }
        T.indeg[r] = T.outdeg[r] = 2 * ndims;
        for (int d = 0; d < ndims; d++)
            for (int s = 0; s < 2; s++) {
                int cc[8];
                memcpy(cc, c, sizeof cc);
                cc[d] += s ? 1 : -1;
                int nb;
                if (cc[d] < 0 || cc[d] >= dims[d]) {
                    if (!periods[d]) {
                        T.in[r][2 * d + s] = T.out[r][2 * d + s] = MPI_PROC_NULL;
                        continue;
                    }
                    cc[d] = (cc[d] + dims[d]) % dims[d];
                }
                nb = 0;
                for (int e = 0; e < ndims; e++)
                    nb = nb * dims[e] + cc[e];
                T.in[r][2 * d + s] = T.out[r][2 * d + s] = nb;
            }
    }
}

static void make_cart(const char *name, int ndims, int *dims, const int *periods)
{
    memset(&T, 0, sizeof T);
    MPI_Dims_create(size, ndims, dims);
    snprintf(T.name, sizeof T.name, "%s", name);
    for (int d = 0; d < ndims; d++)
        snprintf(T.name + strlen(T.name), sizeof T.name - strlen(T.name), "%s%d%s", d ? "x" : " ", dims[d],
                 periods[d] ? "p" : "");
    MTEST_RC(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &T.comm));
    cart_model(ndims, dims, periods);
}

/* An undirected multigraph: each edge {a, b} goes into both lists (a self
 * loop once), in edge order. */
static void make_graph(void)
{
    memset(&T, 0, sizeof T);
    snprintf(T.name, sizeof T.name, "graph");
    int ea[4 * MAXP], eb[4 * MAXP], ne = 0;
    for (int r = 0; r < size; r++) {              /* a ring */
        ea[ne] = r;
        eb[ne++] = (r + 1) % size;
    }
    for (int r = 0; r + 1 < size; r += 2) {       /* repeated edges */
        ea[ne] = r + 1;
        eb[ne++] = r;
    }
    ea[ne] = eb[ne] = size - 1;                    /* a self loop */
    ne++;
    for (int e = 0; e < ne; e++) {
        int a = ea[e], b = eb[e];
        T.in[a][T.indeg[a]++] = b;
        if (a != b)
            T.in[b][T.indeg[b]++] = a;
    }
    int index[MAXP], edges[MAXP * MAXDEG], n = 0;
    for (int r = 0; r < size; r++) {
        T.outdeg[r] = T.indeg[r];
        memcpy(T.out[r], T.in[r], sizeof T.in[r]);
        memcpy(edges + n, T.in[r], (size_t)T.indeg[r] * sizeof(int));
        n += T.indeg[r];
        index[r] = n;
    }
    MTEST_RC(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &T.comm));
    /* the library's list is the one the test uses */
    int nb[MAXDEG], cnt;
    MPI_Graph_neighbors_count(T.comm, rank, &cnt);
    MPI_Graph_neighbors(T.comm, rank, MAXDEG, nb);
    MTEST_CHECK(cnt == T.indeg[rank] && !memcmp(nb, T.in[rank], (size_t)cnt * sizeof(int)),
                "graph neighbours differ from the model");
}

/* Directed edges from a seeded generator: rank 1 has no edges at all (from
 * 3 ranks on), rank 2 only sends, the last rank only receives (from 5
 * ranks on); the first edge is repeated, rank 0 sends to itself. Sources
 * are listed in reverse edge order, destinations in edge order, so the
 * k-th edge from a to b meets the k-th edge into b from a by rank, not by
 * list position. */
static void make_dist(int seed, bool many)
{
    memset(&T, 0, sizeof T);
    snprintf(T.name, sizeof T.name, "dist graph %d", seed);
    uint64_t st = (uint64_t)seed * 7919 + (uint64_t)size;
    int ea[8 * MAXP], eb[8 * MAXP], ne = 0;
    ea[ne] = 0;
    eb[ne++] = 0;
    for (int i = 0; i < (many ? 5 : 2) * size && ne < 40; i++) {
        int a = (int)mtest_rand_range(&st, 0, (size_t)size - 1), b = (int)mtest_rand_range(&st, 0, (size_t)size - 1);
        if (size >= 3 && (a == 1 || b == 1))
            continue;
        if (size >= 3 && b == 2)
            continue;
        if (size >= 5 && a == size - 1)
            continue;
        ea[ne] = a;
        eb[ne++] = b;
    }
    if (ne > 1) {
        ea[ne] = ea[1];
        eb[ne] = eb[1];
        ne++;
    }
    for (int e = 0; e < ne; e++)
        T.out[ea[e]][T.outdeg[ea[e]]++] = eb[e];
    for (int e = ne - 1; e >= 0; e--)
        T.in[eb[e]][T.indeg[eb[e]]++] = ea[e];
    MTEST_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, T.indeg[rank], T.in[rank], MPI_UNWEIGHTED,
                                            T.outdeg[rank], T.out[rank], MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                            &T.comm));
    int in, out, w;
    MPI_Dist_graph_neighbors_count(T.comm, &in, &out, &w);
    MTEST_CHECK(in == T.indeg[rank] && out == T.outdeg[rank], "dist graph degrees %d %d, want %d %d", in, out,
                T.indeg[rank], T.outdeg[rank]);
}

/* Many neighbours (more than dmpi keeps on its stack): every rank is a
 * source and a destination of every rank reps times, the sources in rank
 * order, the destinations in reverse rank order. */
static void make_dense(void)
{
    memset(&T, 0, sizeof T);
    int reps = 70 / size + 1;
    snprintf(T.name, sizeof T.name, "dense dist graph x%d", reps);
    for (int r = 0; r < size; r++)
        for (int k = 0; k < reps; k++)
            for (int q = 0; q < size; q++) {
                T.in[r][T.indeg[r]++] = q;
                T.out[r][T.outdeg[r]++] = size - 1 - q;
            }
    MTEST_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, T.indeg[rank], T.in[rank], MPI_UNWEIGHTED,
                                            T.outdeg[rank], T.out[rank], MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                            &T.comm));
}

/* The sender of receive block j at rank r and the index of its send block
 * that lands there (-1: MPI_PROC_NULL). */
static int match(int r, int j, int *jj)
{
    int q = T.in[r][j];
    if (q == MPI_PROC_NULL)
        return -1;
    if (T.cart) {
        *jj = j ^ 1;
        return q;
    }
    int k = 0;
    for (int i = 0; i < j; i++)
        k += T.in[r][i] == q;
    for (int i = 0; i < T.outdeg[q]; i++)
        if (T.out[q][i] == r && k-- == 0) {
            *jj = i;
            return q;
        }
    mtest_fail("%s: the model has no edge %d -> %d", T.name, q, r);
    return -1;
}

/* ---- data ------------------------------------------------------------------- */

static int val(int sender, int block, int i, int call)
{
    uint64_t x = ((uint64_t)(sender + 1) << 48) ^ ((uint64_t)(block + 2) << 36) ^ ((uint64_t)call << 20) ^ (uint64_t)i;
    x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15ull;
    return (int)(x >> 17);
}
static int poison(int i) { return (int)(0x5a5a0000u ^ (unsigned)i * 2654435761u); }

/* count elements of a receive type (vec: vec2, else MPI_INT) at int offset
 * off of want: the sender's ints 0, 1, ... */
static void expect_block(int *want, size_t off, bool vec, size_t count, int q, int jj, int call)
{
    for (size_t k = 0; k < count; k++) {
        if (vec) {
            want[off + 3 * k] = val(q, jj, (int)(2 * k), call);
            want[off + 3 * k + 2] = val(q, jj, (int)(2 * k + 1), call);
        } else {
            want[off + k] = val(q, jj, (int)k, call);
        }
    }
}

enum { AG, AGV, A2A, A2AV, A2AW, NOPS };
static const char *op_name[NOPS] = {"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"};
enum { BLK, NB, BLK_C, NB_C, PERS, PERS_C, NMODES };
static const char *mode_name[NMODES] = {"", " (I)", "_c", "_c (I)", "_init", "_init_c"};

/* The arguments of one call, in both widths. */
typedef struct args {
    int *sbuf, *rbuf;
    int scount, rcount;
    MPI_Datatype stype, rtype;
    int scounts[MAXDEG], sdispls[MAXDEG], rcounts[MAXDEG], rdispls[MAXDEG];
    MPI_Count lscounts[MAXDEG], lrcounts[MAXDEG];
    MPI_Aint asdispls[MAXDEG], ardispls[MAXDEG];
    MPI_Datatype stypes[MAXDEG], rtypes[MAXDEG];
} args_t;

static int start_call(int op, int mode, args_t *a, MPI_Comm comm, MPI_Request *req)
{
    MPI_Count sc = a->scount, rc = a->rcount;
    switch (op * NMODES + mode) {
    case AG * NMODES + BLK:
        return MPI_Neighbor_allgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, comm);
    case AG * NMODES + NB:
        return MPI_Ineighbor_allgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, comm, req);
    case AG * NMODES + BLK_C:
        return MPI_Neighbor_allgather_c(a->sbuf, sc, a->stype, a->rbuf, rc, a->rtype, comm);
    case AG * NMODES + NB_C:
        return MPI_Ineighbor_allgather_c(a->sbuf, sc, a->stype, a->rbuf, rc, a->rtype, comm, req);
    case AGV * NMODES + BLK:
        return MPI_Neighbor_allgatherv(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls, a->rtype,
                                       comm);
    case AGV * NMODES + NB:
        return MPI_Ineighbor_allgatherv(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls, a->rtype,
                                        comm, req);
    case AGV * NMODES + BLK_C:
        return MPI_Neighbor_allgatherv_c(a->sbuf, sc, a->stype, a->rbuf, a->lrcounts, a->ardispls, a->rtype, comm);
    case AGV * NMODES + NB_C:
        return MPI_Ineighbor_allgatherv_c(a->sbuf, sc, a->stype, a->rbuf, a->lrcounts, a->ardispls, a->rtype, comm,
                                          req);
    case A2A * NMODES + BLK:
        return MPI_Neighbor_alltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, comm);
    case A2A * NMODES + NB:
        return MPI_Ineighbor_alltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, comm, req);
    case A2A * NMODES + BLK_C:
        return MPI_Neighbor_alltoall_c(a->sbuf, sc, a->stype, a->rbuf, rc, a->rtype, comm);
    case A2A * NMODES + NB_C:
        return MPI_Ineighbor_alltoall_c(a->sbuf, sc, a->stype, a->rbuf, rc, a->rtype, comm, req);
    case A2AV * NMODES + BLK:
        return MPI_Neighbor_alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts, a->rdispls,
                                      a->rtype, comm);
    case A2AV * NMODES + NB:
        return MPI_Ineighbor_alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts, a->rdispls,
                                       a->rtype, comm, req);
    case A2AV * NMODES + BLK_C:
        return MPI_Neighbor_alltoallv_c(a->sbuf, a->lscounts, a->asdispls, a->stype, a->rbuf, a->lrcounts,
                                        a->ardispls, a->rtype, comm);
    case A2AV * NMODES + NB_C:
        return MPI_Ineighbor_alltoallv_c(a->sbuf, a->lscounts, a->asdispls, a->stype, a->rbuf, a->lrcounts,
                                         a->ardispls, a->rtype, comm, req);
    case A2AW * NMODES + BLK:
        return MPI_Neighbor_alltoallw(a->sbuf, a->scounts, a->asdispls, a->stypes, a->rbuf, a->rcounts,
                                      a->ardispls, a->rtypes, comm);
    case A2AW * NMODES + NB:
        return MPI_Ineighbor_alltoallw(a->sbuf, a->scounts, a->asdispls, a->stypes, a->rbuf, a->rcounts,
                                       a->ardispls, a->rtypes, comm, req);
    case A2AW * NMODES + BLK_C:
        return MPI_Neighbor_alltoallw_c(a->sbuf, a->lscounts, a->asdispls, a->stypes, a->rbuf, a->lrcounts,
                                        a->ardispls, a->rtypes, comm);
    case A2AW * NMODES + NB_C:
        return MPI_Ineighbor_alltoallw_c(a->sbuf, a->lscounts, a->asdispls, a->stypes, a->rbuf, a->lrcounts,
                                         a->ardispls, a->rtypes, comm, req);
    case AG * NMODES + PERS:
        return MPI_Neighbor_allgather_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, comm,
                                           MPI_INFO_NULL, req);
    case AG * NMODES + PERS_C:
        return MPI_Neighbor_allgather_init_c(a->sbuf, sc, a->stype, a->rbuf, rc, a->rtype, comm, MPI_INFO_NULL, req);
    case AGV * NMODES + PERS:
        return MPI_Neighbor_allgatherv_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls, a->rtype,
                                            comm, MPI_INFO_NULL, req);
    case AGV * NMODES + PERS_C:
        return MPI_Neighbor_allgatherv_init_c(a->sbuf, sc, a->stype, a->rbuf, a->lrcounts, a->ardispls, a->rtype,
                                              comm, MPI_INFO_NULL, req);
    case A2A * NMODES + PERS:
        return MPI_Neighbor_alltoall_init(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, comm,
                                          MPI_INFO_NULL, req);
    case A2A * NMODES + PERS_C:
        return MPI_Neighbor_alltoall_init_c(a->sbuf, sc, a->stype, a->rbuf, rc, a->rtype, comm, MPI_INFO_NULL, req);
    case A2AV * NMODES + PERS:
        return MPI_Neighbor_alltoallv_init(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts,
                                           a->rdispls, a->rtype, comm, MPI_INFO_NULL, req);
    case A2AV * NMODES + PERS_C:
        return MPI_Neighbor_alltoallv_init_c(a->sbuf, a->lscounts, a->asdispls, a->stype, a->rbuf, a->lrcounts,
                                             a->ardispls, a->rtype, comm, MPI_INFO_NULL, req);
    case A2AW * NMODES + PERS:
        return MPI_Neighbor_alltoallw_init(a->sbuf, a->scounts, a->asdispls, a->stypes, a->rbuf, a->rcounts,
                                           a->ardispls, a->rtypes, comm, MPI_INFO_NULL, req);
    case A2AW * NMODES + PERS_C:
        return MPI_Neighbor_alltoallw_init_c(a->sbuf, a->lscounts, a->asdispls, a->stypes, a->rbuf, a->lrcounts,
                                             a->ardispls, a->rtypes, comm, MPI_INFO_NULL, req);
    }
    return MPI_ERR_OTHER;
}

/* Elements of the v forms' blocks: a function of the edge (the sender and
 * its block), zero for some. */
static int vcount(int q, int jj, int call, int scale)
{
    return ((q * 7 + jj * 5 + call) % 4) * scale;
}

static int ncalls;

/* The send blocks of this rank, with the data of call dv. */
static void fill_send(args_t *a, int op, int out, int dv)
{
    if (op == AG || op == AGV)
        for (int i = 0; i < a->scount; i++)
            a->sbuf[i] = val(rank, -1, i, dv);
    else if (op == A2A)
        for (int j = 0; j < out; j++)
            for (int i = 0; i < a->scount; i++)
                a->sbuf[(size_t)j * (size_t)a->scount + (size_t)i] = val(rank, j, i, dv);
    else
        for (int j = 0; j < out; j++)
            for (int i = 0; i < a->scounts[j]; i++)
                a->sbuf[a->sdispls[j] + i] = val(rank, j, i, dv);
}

static void check_recv(const args_t *a, const int *want, size_t rints, int op, int mode, int n, int scale, bool vec,
                       const char *when)
{
    size_t bad = 0, first = 0;
    for (size_t i = rints; i-- > 0;)
        if (a->rbuf[i] != want[i]) {
            bad++;
            first = i;
        }
    MTEST_CHECK(bad == 0, "%s rank %d: %s%s n=%d scale=%d %s %s: %zu of %zu ints wrong, first at %zu (0x%x, want 0x%x)",
                T.name, rank, op_name[op], mode_name[mode], n, scale, vec ? "vec" : "int", when, bad, rints, first,
                (unsigned)a->rbuf[first], (unsigned)want[first]);
}

/* One call of op in mode on the current topology: n elements per block
 * (uniform forms) or scale (v forms); vec: the receiver takes vec2. */
static void one(int op, int mode, int n, int scale, bool vec)
{
    int call = ++ncalls, me = rank, in = T.indeg[me], out = T.outdeg[me];
    args_t a;
    memset(&a, 0, sizeof a);
    int unit = vec ? 2 : 1, ext = vec ? 3 : 1;   /* ints per receive element, its extent in ints */
    a.stype = MPI_INT;
    a.rtype = vec ? vec2 : MPI_INT;
    a.rcount = n;
    /* send side */
    size_t sints = 0;
    if (op == AG || op == A2A) {
        a.scount = n * unit;
        sints = (size_t)a.scount * (op == AG ? 1 : (size_t)out);
    } else if (op == AGV) {
        a.scount = vcount(me, -1, call, scale) * unit;
        sints = (size_t)a.scount;
    } else {
        for (int j = 0; j < out; j++) {
            a.scounts[j] = vcount(me, j, call, scale) * unit;
            a.sdispls[j] = (int)sints + 1;            /* a gap before each block */
            sints += (size_t)a.scounts[j] + 1;
            a.stypes[j] = MPI_INT;
        }
    }
    a.sbuf = mtest_malloc((sints + 1) * sizeof(int));
    /* receive side: block j's count (elements), offset (ints) and type */
    size_t rints = 0, roff[MAXDEG];
    int rcnt[MAXDEG];
    bool rvec[MAXDEG];
    for (int j = 0; j < in; j++) {
        int jj = 0, q = match(me, j, &jj);
        rvec[j] = vec;
        if (op == AG || op == A2A) {
            rcnt[j] = n;
            roff[j] = (size_t)j * (size_t)n * (size_t)ext;
            rints = roff[j] + (size_t)n * (size_t)ext;
            continue;
        }
        int c = q < 0 ? 3 : vcount(q, op == AGV ? -1 : jj, call, scale);
        if (op == A2AW) {                   /* receive types alternate; displacements in bytes */
            rvec[j] = vec && j % 2;
            a.rtypes[j] = rvec[j] ? vec2 : MPI_INT;
            rcnt[j] = rvec[j] ? c : c * unit;
            roff[j] = rints + 2;            /* a gap of 2 ints before each block */
            rints = roff[j] + (size_t)rcnt[j] * (rvec[j] ? 3 : 1);
            a.ardispls[j] = (MPI_Aint)(roff[j] * sizeof(int));
        } else {                            /* displacements in extents: a gap of one before each block */
            rcnt[j] = c;
            roff[j] = rints + (size_t)ext;
            rints = roff[j] + (size_t)c * (size_t)ext;
            a.rdispls[j] = (int)(roff[j] / (size_t)ext);
            a.ardispls[j] = a.rdispls[j];
        }
        a.rcounts[j] = rcnt[j];
        a.lrcounts[j] = rcnt[j];
    }
    for (int j = 0; j < out; j++) {
        a.lscounts[j] = a.scounts[j];
        a.asdispls[j] = op == A2AW ? (MPI_Aint)(a.sdispls[j] * (int)sizeof(int)) : a.sdispls[j];
    }
    rints += 3;
    a.rbuf = mtest_malloc(rints * sizeof(int));
    int *want = mtest_malloc(rints * sizeof(int));
    MPI_Request req = MPI_REQUEST_NULL;
    bool pers = mode == PERS || mode == PERS_C, blocking = mode == BLK || mode == BLK_C;
    int rc = MPI_SUCCESS;
    /* a persistent request is started three times, with new send data each time */
    for (int round = 0; round < (pers ? 3 : 1) && rc == MPI_SUCCESS; round++) {
        int dv = call + round * 1000003;
        for (size_t i = 0; i < sints + 1; i++)
            a.sbuf[i] = -1;
        fill_send(&a, op, out, dv);
        for (size_t i = 0; i < rints; i++)
            a.rbuf[i] = want[i] = poison((int)i);
        for (int j = 0; j < in; j++) {
            int jj = 0, q = match(me, j, &jj);
            if (q >= 0)
                expect_block(want, roff[j], rvec[j], (size_t)rcnt[j], q, op == AG || op == AGV ? -1 : jj, dv);
        }
        if (round == 0)
            rc = start_call(op, mode, &a, T.comm, &req);       /* _init: an inactive request */
        if (rc == MPI_SUCCESS && pers)
            rc = MPI_Start(&req);
        if (rc == MPI_SUCCESS && !blocking)
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (MTEST_CHECK(rc == MPI_SUCCESS, "%s: %s%s returned %d", T.name, op_name[op], mode_name[mode], rc))
            check_recv(&a, want, rints, op, mode, n, scale, vec, round ? "restarted" : "");
        if (pers && rc == MPI_SUCCESS)
            MTEST_CHECK(req != MPI_REQUEST_NULL, "%s%s: the persistent request is gone after MPI_Wait", op_name[op],
                        mode_name[mode]);
    }
    if (pers && req != MPI_REQUEST_NULL)
        MPI_Request_free(&req);
    MTEST_CHECK(req == MPI_REQUEST_NULL, "%s%s: request not freed", op_name[op], mode_name[mode]);
    free(a.sbuf);
    free(a.rbuf);
    free(want);
}

/* Every call in every form on the current topology; light: small blocks only. */
static void run_sizes(bool light)
{
    static const int sizes[] = {0, 1, 3, 700, 9000};
    static const int scales[] = {1, 5, 2300};
    int nsizes = light ? 3 : 5, nscales = light ? 2 : 3;
    for (int op = 0; op < NOPS; op++)
        for (int mode = 0; mode < NMODES; mode++)
            for (int v = 0; v < 2; v++) {
                if (op == AG || op == A2A)
                    for (int k = 0; k < nsizes; k++)
                        one(op, mode, sizes[k], 0, v);
                else
                    for (int k = 0; k < nscales; k++)
                        one(op, mode, 0, scales[k], v);
            }
    MPI_Comm_free(&T.comm);
}

static void run_all(void) { run_sizes(false); }

/* ---- errors ----------------------------------------------------------------- */

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int sb[4] = {0}, rb[64];
    int counts[MAXDEG] = {0}, displs[MAXDEG] = {0};
    MPI_Aint adispls[MAXDEG] = {0};
    MPI_Datatype types[MAXDEG];
    MPI_Request req;
    for (int j = 0; j < MAXDEG; j++)
        types[j] = MPI_INT;
    int rc = MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD);
    mtest_check_class(rc, MPI_ERR_TOPOLOGY, "Neighbor_alltoall on MPI_COMM_WORLD");
    rc = MPI_Ineighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_SELF, &req);
    mtest_check_class(rc, MPI_ERR_TOPOLOGY, "Ineighbor_allgather on MPI_COMM_SELF");
    rc = MPI_Neighbor_alltoallw_c(sb, NULL, adispls, types, rb, NULL, adispls, types, MPI_COMM_WORLD);
    mtest_check_class(rc, MPI_ERR_TOPOLOGY, "Neighbor_alltoallw_c on MPI_COMM_WORLD");
    rc = MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_NULL);
    mtest_check_class(rc, MPI_ERR_COMM, "Neighbor_allgather on MPI_COMM_NULL");

    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    rc = MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, rb, 1, MPI_INT, cart);
    mtest_check_class(rc, MPI_ERR_BUFFER, "Neighbor_alltoall with MPI_IN_PLACE");
    rc = MPI_Neighbor_allgather(sb, -1, MPI_INT, rb, 1, MPI_INT, cart);
    mtest_check_class(rc, MPI_ERR_COUNT, "Neighbor_allgather with sendcount -1");
    rc = MPI_Neighbor_allgather_c(sb, 1, MPI_INT, rb, -5, MPI_INT, cart);
    mtest_check_class(rc, MPI_ERR_COUNT, "Neighbor_allgather_c with recvcount -5");
    counts[1] = -1;
    rc = MPI_Neighbor_alltoallv(sb, counts, displs, MPI_INT, rb, counts, displs, MPI_INT, cart);
    mtest_check_class(rc, MPI_ERR_COUNT, "Neighbor_alltoallv with sendcounts[1] -1");
    counts[1] = 0;
    rc = MPI_Neighbor_alltoallv(sb, NULL, displs, MPI_INT, rb, counts, displs, MPI_INT, cart);
    mtest_check_class(rc, MPI_ERR_ARG, "Neighbor_alltoallv with sendcounts NULL");
    MPI_Datatype unc;
    MPI_Type_contiguous(2, MPI_INT, &unc);
    rc = MPI_Neighbor_alltoall(sb, 1, unc, rb, 2, MPI_INT, cart);
    mtest_check_class(rc, MPI_ERR_TYPE, "Neighbor_alltoall with an uncommitted sendtype");
    types[1] = unc;
    rc = MPI_Ineighbor_alltoallw(sb, counts, adispls, types, rb, counts, adispls, types, cart, &req);
    mtest_check_class(rc, MPI_ERR_TYPE, "Ineighbor_alltoallw with an uncommitted sendtypes[1]");
    MPI_Type_free(&unc);
    rc = MPI_Ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, cart, NULL);
    mtest_check_class(rc, MPI_ERR_ARG, "Ineighbor_alltoall with a NULL request pointer");
    /* the same buffer both ways: the call still takes part (the neighbours
     * complete) and reports MPI_ERR_BUFFER; the data moved is right */
    int both[8];
    for (int j = 0; j < 2; j++)
        both[j] = val(rank, j, 0, 0);
    rc = MPI_Neighbor_alltoall(both, 1, MPI_INT, both, 1, MPI_INT, cart);
    mtest_check_class(rc, MPI_ERR_BUFFER, "Neighbor_alltoall with sendbuf == recvbuf");
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    MTEST_CHECK(both[0] == val(left, 1, 0, 0) && both[1] == val(right, 0, 0, 0),
                "aliased Neighbor_alltoall moved the wrong data");
    /* persistent: the same buffer both ways is refused (a copy would be
     * stale at the next start), as are a bad info and a NULL request pointer */
    req = MPI_REQUEST_NULL;
    rc = MPI_Neighbor_alltoall_init(both, 1, MPI_INT, both, 1, MPI_INT, cart, MPI_INFO_NULL, &req);
    mtest_check_class(rc, MPI_ERR_BUFFER, "Neighbor_alltoall_init with sendbuf == recvbuf");
    MTEST_CHECK(req == MPI_REQUEST_NULL, "Neighbor_alltoall_init with sendbuf == recvbuf set a request");
    rc = MPI_Neighbor_allgather_init(sb, 1, MPI_INT, rb, 1, MPI_INT, cart, (MPI_Info)0x1234, &req);
    mtest_check_class(rc, MPI_ERR_INFO, "Neighbor_allgather_init with a bad info");
    rc = MPI_Neighbor_alltoallv_init_c(sb, NULL, NULL, MPI_INT, rb, NULL, NULL, MPI_INT, cart, MPI_INFO_NULL, NULL);
    mtest_check_class(rc, MPI_ERR_ARG, "Neighbor_alltoallv_init_c with NULL arrays");
    rc = MPI_Neighbor_allgather_init(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    mtest_check_class(rc, MPI_ERR_TOPOLOGY, "Neighbor_allgather_init on MPI_COMM_WORLD");
    /* a persistent request never started, freed; another outliving its communicator */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "key", "value");
    rc = MPI_Neighbor_allgather_init(sb, 1, MPI_INT, rb, 1, MPI_INT, cart, info, &req);
    MTEST_CHECK(rc == MPI_SUCCESS && req != MPI_REQUEST_NULL, "Neighbor_allgather_init with an info failed");
    MPI_Info_free(&info);
    MPI_Request_free(&req);
    MPI_Comm dup;
    MPI_Comm_dup(cart, &dup);
    sb[0] = val(rank, -1, 0, 77);
    rb[0] = rb[1] = -1;
    rc = MPI_Neighbor_allgather_init(sb, 1, MPI_INT, rb, 1, MPI_INT, dup, MPI_INFO_NULL, &req);
    MPI_Comm_free(&dup);
    for (int k = 0; k < 2 && rc == MPI_SUCCESS; k++) {
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MTEST_CHECK(rb[0] == val(left, -1, 0, 77) && rb[1] == val(right, -1, 0, 77),
                    "Neighbor_allgather_init on a freed communicator moved the wrong data");
    }
    MPI_Request_free(&req);
    MPI_Comm_free(&cart);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

/* Several nonblocking neighbourhood collectives in flight on one
 * communicator, completed in reverse order. */
static void overlap(void)
{
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    cart_model(2, dims, periods);
    enum { K = 6 };
    int sb[K][4], rb[K][4];
    MPI_Request req[K];
    for (int k = 0; k < K; k++) {
        for (int j = 0; j < 4; j++) {
            sb[k][j] = val(rank, j, k, 999);
            rb[k][j] = -7;
        }
        MPI_Ineighbor_alltoall(sb[k], 1, MPI_INT, rb[k], 1, MPI_INT, cart, &req[k]);
    }
    for (int k = K - 1; k >= 0; k--)
        MPI_Wait(&req[k], MPI_STATUS_IGNORE);
    for (int k = 0; k < K; k++)
        for (int j = 0; j < 4; j++) {
            int jj = 0, q = match(rank, j, &jj);
            MTEST_CHECK(rb[k][j] == val(q, jj, k, 999), "overlapping Ineighbor_alltoall %d block %d wrong", k, j);
        }
    MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > MAXP) {
        if (rank == 0)
            printf("coll_neighbor: at most %d ranks\n", MAXP);
        return mtest_finalize();
    }
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec2);
    MPI_Type_commit(&vec2);

    int d1[1], p1[1], d2[2], p2[2], d3[3], p3[3];
    d1[0] = 0, p1[0] = 1;
    make_cart("1-D", 1, d1, p1), run_all();
    d1[0] = 0, p1[0] = 0;
    make_cart("1-D", 1, d1, p1), run_all();
    d2[0] = d2[1] = 0, p2[0] = p2[1] = 1;
    make_cart("2-D", 2, d2, p2), run_all();
    d2[0] = d2[1] = 0, p2[0] = 0, p2[1] = 1;
    make_cart("2-D", 2, d2, p2), run_all();
    d2[0] = d2[1] = 0, p2[0] = p2[1] = 0;
    make_cart("2-D", 2, d2, p2), run_all();
    d2[0] = 1, d2[1] = 0, p2[0] = p2[1] = 1;      /* a periodic dimension of size 1 */
    make_cart("2-D", 2, d2, p2), run_all();
    if (size % 2 == 0) {                          /* periodic dimensions of sizes 2 and 1 */
        d3[0] = 2, d3[1] = 1, d3[2] = 0, p3[0] = p3[1] = 1, p3[2] = 0;
        make_cart("3-D", 3, d3, p3), run_all();
    }
    make_graph(), run_all();
    make_dist(1, true), run_all();
    make_dist(2, false), run_all();
    make_dense(), run_sizes(true);
    overlap();
    errors();
    MPI_Type_free(&vec2);
    return mtest_finalize();
}
