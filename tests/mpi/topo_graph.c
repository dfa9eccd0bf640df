/*
 * topo_graph: graph and distributed graph topologies.  Graph_create with a
 * ring (self-loops and double edges at 1 and 2 processes) and a star,
 * graphs smaller than the communicator, Graphdims_get/Graph_get (also
 * partly)/Graph_neighbors(_count), Graph_map; Dist_graph_create_adjacent
 * weighted (weights carry real values), unweighted and with
 * MPI_WEIGHTS_EMPTY; the general Dist_graph_create with the edges given by
 * one process, by the destinations and spread over everyone; traffic with
 * the neighbours each topology names; topologies kept by Comm_dup but no
 * attributes carried by the creation calls; the error classes of bad input.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* ---- graphs ---------------------------------------------------------------- */

/* index/edges of a ring: node i is joined to i - 1 and i + 1. */
static void ring(int n, int *index, int *edges)
{
    for (int i = 0; i < n; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i - 1 + n) % n;
        edges[2 * i + 1] = (i + 1) % n;
    }
}

/* index/edges of a star: node 0 is joined to every other node. */
static void star(int n, int *index, int *edges)
{
    int e = 0;
    for (int j = 1; j < n; j++)
        edges[e++] = j;
    index[0] = e;
    for (int i = 1; i < n; i++) {
        edges[e++] = 0;
        index[i] = e;
    }
}

static void check_graph(MPI_Comm g, int nnodes, const int *index, const int *edges, const char *what)
{
    int status, nn, ne, nedges = nnodes ? index[nnodes - 1] : 0;
    MTEST_RC(MPI_Topo_test(g, &status));
    MTEST_CHECK(status == MPI_GRAPH, "%s: Topo_test %d, want MPI_GRAPH", what, status);
    MTEST_RC(MPI_Graphdims_get(g, &nn, &ne));
    if (!MTEST_CHECK(nn == nnodes && ne == nedges, "%s: Graphdims_get %d %d, want %d %d", what, nn, ne, nnodes,
                     nedges))
        return;
    int *gi = mtest_malloc(sizeof(int) * (nnodes + 1)), *ge = mtest_malloc(sizeof(int) * (nedges + 1));
    MTEST_RC(MPI_Graph_get(g, nnodes, nedges, gi, ge));
    MTEST_CHECK(!memcmp(gi, index, sizeof(int) * nnodes) && !memcmp(ge, edges, sizeof(int) * nedges),
                "%s: Graph_get returned another graph", what);
    /* short arrays get the first entries only (MPICH: MPI_ERR_ARG) */
    if (!MTEST_MPICH_DEVIATION && nnodes > 1 && nedges > 1) {
        gi[1] = ge[1] = -7;
        MTEST_RC(MPI_Graph_get(g, 1, 1, gi, ge));
        MTEST_CHECK(gi[0] == index[0] && gi[1] == -7 && ge[0] == edges[0] && ge[1] == -7,
                    "%s: Graph_get(1, 1) wrote %d %d %d", what, gi[0], gi[1], ge[1]);
    }
    for (int r = 0; r < nnodes; r++) {
        int first = r ? index[r - 1] : 0, deg = index[r] - first, n = -1;
        MTEST_RC(MPI_Graph_neighbors_count(g, r, &n));
        if (!MTEST_CHECK(n == deg, "%s: node %d has %d neighbours, want %d", what, r, n, deg))
            continue;
        ge[deg] = -7;
        MTEST_RC(MPI_Graph_neighbors(g, r, deg + 1, ge));
        MTEST_CHECK(!memcmp(ge, edges + first, sizeof(int) * deg) && ge[deg] == -7,
                    "%s: Graph_neighbors(%d) differs", what, r);
    }
    free(gi);
    free(ge);
}

/* Each process sends to every neighbour (tag: its position in my list) and
 * receives from every process that lists it. For symmetric graphs. */
static void graph_traffic(MPI_Comm g, const char *what)
{
    int me, n;
    MPI_Comm_rank(g, &me);
    MTEST_RC(MPI_Graph_neighbors_count(g, me, &n));
    int *nb = mtest_malloc(sizeof(int) * (n + 1)), *in = mtest_malloc(sizeof(int) * (n + 1)), out = 1000 + me;
    MPI_Request *rq = mtest_malloc(sizeof(MPI_Request) * (2 * n + 1));
    MTEST_RC(MPI_Graph_neighbors(g, me, n, nb));
    /* The k-th edge to the same neighbour pairs with its k-th edge back
     * (self-loops and double edges are allowed), so the tag is k. */
    for (int i = 0; i < n; i++) {
        int k = 0;
        for (int j = 0; j < i; j++)
            k += nb[j] == nb[i];
        in[i] = -1;
        MTEST_RC(MPI_Irecv(&in[i], 1, MPI_INT, nb[i], 40 + k, g, &rq[i]));
        MTEST_RC(MPI_Isend(&out, 1, MPI_INT, nb[i], 40 + k, g, &rq[n + i]));
    }
    MTEST_RC(MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; i++)
        MTEST_CHECK(in[i] == 1000 + nb[i], "%s: from neighbour %d got %d", what, nb[i], in[i]);
    free(nb);
    free(in);
    free(rq);
}

static void test_graph(void)
{
    int *index = mtest_malloc(sizeof(int) * size), *edges = mtest_malloc(sizeof(int) * 2 * size);
    MPI_Comm g, dup;

    ring(size, index, edges);
    MTEST_RC(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g));
    int n, me;
    MPI_Comm_size(g, &n);
    MPI_Comm_rank(g, &me);
    MTEST_CHECK(n == size && me == rank, "ring graph: size %d rank %d", n, me);
    check_graph(g, size, index, edges, "ring");
    graph_traffic(g, "ring");
    MTEST_RC(MPI_Comm_dup(g, &dup));
    MTEST_RC(MPI_Comm_free(&g));
    check_graph(dup, size, index, edges, "dup of the ring");
    graph_traffic(dup, "dup of the ring");
    MTEST_RC(MPI_Comm_free(&dup));

    star(size, index, edges);
    MTEST_RC(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 1, &g));
    check_graph(g, size, index, edges, "star");
    graph_traffic(g, "star");
    /* the centre collects from the neighbours it is told about, and answers */
    int deg;
    MTEST_RC(MPI_Graph_neighbors_count(g, rank, &deg));
    MTEST_CHECK(deg == (rank == 0 ? size - 1 : 1), "star: rank %d has degree %d", rank, deg);
    if (rank == 0) {
        int *nb = mtest_malloc(sizeof(int) * (deg + 1));
        MTEST_RC(MPI_Graph_neighbors(g, 0, deg, nb));
        for (int i = 0; i < deg; i++) {
            int v = -1;
            MTEST_RC(MPI_Recv(&v, 1, MPI_INT, nb[i], 50, g, MPI_STATUS_IGNORE));
            MTEST_CHECK(v == nb[i] * 3, "star centre: got %d from %d", v, nb[i]);
            v++;
            MTEST_RC(MPI_Send(&v, 1, MPI_INT, nb[i], 51, g));
        }
        free(nb);
    } else {
        int centre, v = rank * 3;
        MTEST_RC(MPI_Graph_neighbors(g, rank, 1, &centre));
        MTEST_RC(MPI_Send(&v, 1, MPI_INT, centre, 50, g));
        MTEST_RC(MPI_Recv(&v, 1, MPI_INT, centre, 51, g, MPI_STATUS_IGNORE));
        MTEST_CHECK(centre == 0 && v == rank * 3 + 1, "star leaf: centre %d answered %d", centre, v);
    }
    MTEST_RC(MPI_Comm_free(&g));

    /* a graph on all but the last process (with a self-loop on node 0) */
    int nn = size > 1 ? size - 1 : 1;
    for (int i = 0; i < nn; i++) {
        index[i] = i + 1;
        edges[i] = i ? i - 1 : 0;
    }
    MTEST_RC(MPI_Graph_create(MPI_COMM_WORLD, nn, index, edges, 0, &g));
    if (rank >= nn) {
        MTEST_CHECK(g == MPI_COMM_NULL, "rank %d outside a graph of %d got a communicator", rank, nn);
    } else if (MTEST_CHECK(g != MPI_COMM_NULL, "rank %d in a graph of %d got MPI_COMM_NULL", rank, nn)) {
        MPI_Comm_size(g, &n);
        MTEST_CHECK(n == nn, "partial graph: size %d, want %d", n, nn);
        check_graph(g, nn, index, edges, "partial graph");
        MTEST_RC(MPI_Comm_free(&g));
    }
    int nr;
    MTEST_RC(MPI_Graph_map(MPI_COMM_WORLD, nn, index, edges, &nr));
    MTEST_CHECK(nr == (rank < nn ? rank : MPI_UNDEFINED), "Graph_map(%d nodes): %d", nn, nr);

    /* no nodes at all: nobody gets a communicator */
    MTEST_RC(MPI_Graph_create(MPI_COMM_WORLD, 0, index, edges, 0, &g));
    MTEST_CHECK(g == MPI_COMM_NULL, "a graph of 0 nodes gave a communicator");
    free(index);
    free(edges);
}

/* ---- distributed graphs ------------------------------------------------------- */

static int weight_of(int from, int to) { return 100 * from + to + 1; }

/* Checks the lists (in order) and, with weights, their values. */
static void check_dist(MPI_Comm g, int indeg, const int *src, int outdeg, const int *dst, int weighted,
                       const char *what)
{
    int status, i, o, w;
    MTEST_RC(MPI_Topo_test(g, &status));
    MTEST_CHECK(status == MPI_DIST_GRAPH, "%s: Topo_test %d, want MPI_DIST_GRAPH", what, status);
    MTEST_RC(MPI_Dist_graph_neighbors_count(g, &i, &o, &w));
    if (!MTEST_CHECK(i == indeg && o == outdeg && !!w == !!weighted, "%s: counts %d %d %d, want %d %d %d", what, i,
                     o, w, indeg, outdeg, weighted))
        return;
    int *s = mtest_malloc(sizeof(int) * (i + 1)), *sw = mtest_malloc(sizeof(int) * (i + 1));
    int *d = mtest_malloc(sizeof(int) * (o + 1)), *dw = mtest_malloc(sizeof(int) * (o + 1));
    for (int k = 0; k <= i; k++)
        s[k] = sw[k] = -7;
    for (int k = 0; k <= o; k++)
        d[k] = dw[k] = -7;
    MTEST_RC(MPI_Dist_graph_neighbors(g, i, s, sw, o, d, dw));
    for (int k = 0; k < i; k++)
        MTEST_CHECK(s[k] == src[k] && sw[k] == (weighted ? weight_of(src[k], rank) : -7),
                    "%s: source %d is %d weight %d, want %d", what, k, s[k], sw[k], src[k]);
    for (int k = 0; k < o; k++)
        MTEST_CHECK(d[k] == dst[k] && dw[k] == (weighted ? weight_of(rank, dst[k]) : -7),
                    "%s: destination %d is %d weight %d, want %d", what, k, d[k], dw[k], dst[k]);
    MTEST_CHECK(s[i] == -7 && sw[i] == -7 && d[o] == -7 && dw[o] == -7, "%s: wrote past the lists", what);
    /* MPI: "only the first part of the full list is returned" when the
     * arrays are short; MPICH returns MPI_ERR_ARG instead */
    if (!MTEST_MPICH_DEVIATION && i > 1 && o > 1) {
        /* the first part only, and MPI_UNWEIGHTED: no weights wanted */
        for (int k = 0; k <= i; k++)
            s[k] = sw[k] = -7;
        MTEST_RC(MPI_Dist_graph_neighbors(g, 1, s, MPI_UNWEIGHTED, 1, d, MPI_UNWEIGHTED));
        MTEST_CHECK(s[0] == src[0] && s[1] == -7 && d[0] == dst[0], "%s: first neighbours %d %d", what, s[0], d[0]);
    }
    free(s);
    free(sw);
    free(d);
    free(dw);
}

/* Sends the edge weight to every destination and checks what comes from
 * every source: the topology's lists match the other side's. */
static void dist_traffic(MPI_Comm g, const char *what)
{
    int i, o, w;
    MTEST_RC(MPI_Dist_graph_neighbors_count(g, &i, &o, &w));
    int *s = mtest_malloc(sizeof(int) * (i + 1)), *d = mtest_malloc(sizeof(int) * (o + 1));
    int *in = mtest_malloc(sizeof(int) * (i + 1)), *out = mtest_malloc(sizeof(int) * (o + 1));
    MPI_Request *rq = mtest_malloc(sizeof(MPI_Request) * (i + o + 1));
    MTEST_RC(MPI_Dist_graph_neighbors(g, i, s, MPI_UNWEIGHTED, o, d, MPI_UNWEIGHTED));
    /* edges are unique per (source, destination) in these graphs */
    for (int k = 0; k < i; k++)
        MTEST_RC(MPI_Irecv(&in[k], 1, MPI_INT, s[k], 60, g, &rq[k]));
    for (int k = 0; k < o; k++) {
        out[k] = weight_of(rank, d[k]);
        MTEST_RC(MPI_Isend(&out[k], 1, MPI_INT, d[k], 60, g, &rq[i + k]));
    }
    MTEST_RC(MPI_Waitall(i + o, rq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < i; k++)
        MTEST_CHECK(in[k] == weight_of(s[k], rank), "%s: from source %d got %d", what, s[k], in[k]);
    free(s);
    free(d);
    free(in);
    free(out);
    free(rq);
}

/* In from r - 1 and r - 2, out to r + 1 and r + 2 (mod size), as far as
 * those are other processes; no (source, destination) pair twice. */
static int dist_ring(int *src, int *dst)
{
    int n = 0;
    for (int k = 1; k <= 2 && k < size; k++) {
        src[n] = (rank - k + size) % size;
        dst[n++] = (rank + k) % size;
    }
    return n;
}

static void test_dist_adjacent(void)
{
    int src[2], dst[2], sw[2], dw[2], n = dist_ring(src, dst);
    for (int k = 0; k < n; k++) {
        sw[k] = weight_of(src[k], rank);
        dw[k] = weight_of(rank, dst[k]);
    }
    MPI_Comm g, dup;
    MTEST_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, src, sw, n, dst, dw, MPI_INFO_NULL, 0, &g));
    int sz, me;
    MPI_Comm_size(g, &sz);
    MPI_Comm_rank(g, &me);
    MTEST_CHECK(sz == size && me == rank, "dist graph: size %d rank %d", sz, me);
    check_dist(g, n, src, n, dst, 1, "weighted adjacent");
    dist_traffic(g, "weighted adjacent");
    MTEST_RC(MPI_Comm_dup(g, &dup));
    MTEST_RC(MPI_Comm_free(&g));
    check_dist(dup, n, src, n, dst, 1, "dup of weighted adjacent");
    dist_traffic(dup, "dup of weighted adjacent");
    MTEST_RC(MPI_Comm_free(&dup));

    MPI_Info info;
    MTEST_RC(MPI_Info_create(&info));
    MTEST_RC(MPI_Info_set(info, "some_hint", "true"));
    MTEST_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, src, MPI_UNWEIGHTED, n, dst, MPI_UNWEIGHTED, info, 1,
                                            &g));
    MTEST_RC(MPI_Info_free(&info));
    check_dist(g, n, src, n, dst, 0, "unweighted adjacent");
    dist_traffic(g, "unweighted adjacent");
    MTEST_RC(MPI_Comm_free(&g));

    /* a weighted chain 0 -> 1 -> ... : the ends have no edge on one side */
    int in = rank > 0, out = rank < size - 1, s1 = rank - 1, d1 = rank + 1;
    int w_in = weight_of(s1, rank), w_out = weight_of(rank, d1);
    MTEST_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, in, &s1, in ? &w_in : MPI_WEIGHTS_EMPTY, out, &d1,
                                            out ? &w_out : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g));
    check_dist(g, in, &s1, out, &d1, 1, "weighted chain");
    dist_traffic(g, "weighted chain");
    MTEST_RC(MPI_Comm_free(&g));

    /* no edges at all, weighted */
    MTEST_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL, MPI_WEIGHTS_EMPTY,
                                            MPI_INFO_NULL, 0, &g));
    check_dist(g, 0, NULL, 0, NULL, 1, "empty weighted");
    MTEST_RC(MPI_Comm_free(&g));
}

/* ---- the general Dist_graph_create ------------------------------------------- */

typedef struct { int peer, w; } nb_t;

static int by_peer(const void *a, const void *b)
{
    const nb_t *x = a, *y = b;
    return x->peer != y->peer ? (x->peer > y->peer) - (x->peer < y->peer) : (x->w > y->w) - (x->w < y->w);
}

/* The whole graph, the same on every process: r -> r + 1, r -> r + 3 with
 * weight_of, and a self-loop on every third process. */
static int graph_edges(int *from, int *to)
{
    int e = 0;
    for (int r = 0; r < size; r++) {
        from[e] = r, to[e++] = (r + 1) % size;
        from[e] = r, to[e++] = (r + 3) % size;
        if (r % 3 == 0)
            from[e] = r, to[e++] = r;
    }
    return e;
}

/* The neighbour lists of this process, from the whole graph, sorted. */
static int expected(const int *from, const int *to, int e, int incoming, nb_t *out)
{
    int n = 0;
    for (int k = 0; k < e; k++)
        if ((incoming ? to[k] : from[k]) == rank)
            out[n++] = (nb_t){incoming ? from[k] : to[k], weight_of(from[k], to[k])};
    qsort(out, (size_t)n, sizeof *out, by_peer);
    return n;
}

/* The order of the lists is not specified for Dist_graph_create: compare
 * sorted, and check that two queries give the same order. */
static void check_general(MPI_Comm g, const int *from, const int *to, int e, int weighted, const char *what)
{
    nb_t *win = mtest_malloc(sizeof(nb_t) * (e + 1)), *wout = mtest_malloc(sizeof(nb_t) * (e + 1));
    int ni = expected(from, to, e, 1, win), no = expected(from, to, e, 0, wout), i, o, w, status;
    MTEST_RC(MPI_Topo_test(g, &status));
    MTEST_CHECK(status == MPI_DIST_GRAPH, "%s: Topo_test %d", what, status);
    MTEST_RC(MPI_Dist_graph_neighbors_count(g, &i, &o, &w));
    if (MTEST_CHECK(i == ni && o == no && !!w == !!weighted, "%s: counts %d %d %d, want %d %d %d", what, i, o, w, ni,
                    no, weighted)) {
        int *s = mtest_malloc(sizeof(int) * (i + 1)), *sw = mtest_malloc(sizeof(int) * (i + 1));
        int *d = mtest_malloc(sizeof(int) * (o + 1)), *dw = mtest_malloc(sizeof(int) * (o + 1));
        int *s2 = mtest_malloc(sizeof(int) * (i + 1)), *d2 = mtest_malloc(sizeof(int) * (o + 1));
        MTEST_RC(MPI_Dist_graph_neighbors(g, i, s, sw, o, d, dw));
        MTEST_RC(MPI_Dist_graph_neighbors(g, i, s2, MPI_UNWEIGHTED, o, d2, MPI_UNWEIGHTED));
        MTEST_CHECK(!memcmp(s, s2, sizeof(int) * i) && !memcmp(d, d2, sizeof(int) * o),
                    "%s: two queries gave different orders", what);
        nb_t *gin = mtest_malloc(sizeof(nb_t) * (i + 1)), *gout = mtest_malloc(sizeof(nb_t) * (o + 1));
        for (int k = 0; k < i; k++)
            gin[k] = (nb_t){s[k], weighted ? sw[k] : weight_of(s[k], rank)};
        for (int k = 0; k < o; k++)
            gout[k] = (nb_t){d[k], weighted ? dw[k] : weight_of(rank, d[k])};
        qsort(gin, (size_t)i, sizeof *gin, by_peer);
        qsort(gout, (size_t)o, sizeof *gout, by_peer);
        for (int k = 0; k < i; k++)
            MTEST_CHECK(gin[k].peer == win[k].peer && gin[k].w == win[k].w, "%s: in-edge %d: %d (%d), want %d (%d)",
                        what, k, gin[k].peer, gin[k].w, win[k].peer, win[k].w);
        for (int k = 0; k < o; k++)
            MTEST_CHECK(gout[k].peer == wout[k].peer && gout[k].w == wout[k].w,
                        "%s: out-edge %d: %d (%d), want %d (%d)", what, k, gout[k].peer, gout[k].w, wout[k].peer,
                        wout[k].w);
        free(s), free(sw), free(d), free(dw), free(s2), free(d2), free(gin), free(gout);
    }
    free(win);
    free(wout);
}

/* Traffic along every edge: one message per edge, tag = its multiplicity so far. */
static void general_traffic(MPI_Comm g, const char *what)
{
    int i, o, w;
    MTEST_RC(MPI_Dist_graph_neighbors_count(g, &i, &o, &w));
    int *s = mtest_malloc(sizeof(int) * (i + 1)), *d = mtest_malloc(sizeof(int) * (o + 1));
    int *in = mtest_malloc(sizeof(int) * (i + 1)), out = 7000 + rank;
    MPI_Request *rq = mtest_malloc(sizeof(MPI_Request) * (i + o + 1));
    MTEST_RC(MPI_Dist_graph_neighbors(g, i, s, MPI_UNWEIGHTED, o, d, MPI_UNWEIGHTED));
    for (int k = 0; k < i; k++) {
        int m = 0;
        for (int j = 0; j < k; j++)
            m += s[j] == s[k];
        MTEST_RC(MPI_Irecv(&in[k], 1, MPI_INT, s[k], 70 + m, g, &rq[k]));
    }
    for (int k = 0; k < o; k++) {
        int m = 0;
        for (int j = 0; j < k; j++)
            m += d[j] == d[k];
        MTEST_RC(MPI_Isend(&out, 1, MPI_INT, d[k], 70 + m, g, &rq[i + k]));
    }
    MTEST_RC(MPI_Waitall(i + o, rq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < i; k++)
        MTEST_CHECK(in[k] == 7000 + s[k], "%s: from %d got %d", what, s[k], in[k]);
    free(s), free(d), free(in), free(rq);
}

static void test_dist_general(void)
{
    int *from = mtest_malloc(sizeof(int) * 3 * size), *to = mtest_malloc(sizeof(int) * 3 * size);
    int e = graph_edges(from, to);
    int *w = mtest_malloc(sizeof(int) * (e + 1)), *deg = mtest_malloc(sizeof(int) * (e + 1));
    int *src = mtest_malloc(sizeof(int) * (e + 1)), *dst = mtest_malloc(sizeof(int) * (e + 1));
    MPI_Comm g, dup;

    /* 1. rank 0 gives every edge, one source entry per edge */
    int n = 0;
    if (rank == 0)
        for (int k = 0; k < e; k++, n++) {
            src[n] = from[k], deg[n] = 1, dst[n] = to[k], w[n] = weight_of(from[k], to[k]);
        }
    MTEST_RC(MPI_Dist_graph_create(MPI_COMM_WORLD, n, src, deg, dst, w, MPI_INFO_NULL, 0, &g));
    check_general(g, from, to, e, 1, "edges from rank 0");
    general_traffic(g, "edges from rank 0");
    MTEST_RC(MPI_Comm_dup(g, &dup));
    check_general(dup, from, to, e, 1, "dup of edges from rank 0");
    MTEST_RC(MPI_Comm_free(&dup));
    MTEST_RC(MPI_Comm_free(&g));

    /* 2. each process gives the edges into it, unweighted */
    n = 0;
    for (int k = 0; k < e; k++)
        if (to[k] == rank) {
            src[n] = from[k], deg[n] = 1, dst[n++] = rank;
        }
    MTEST_RC(MPI_Dist_graph_create(MPI_COMM_WORLD, n, src, deg, dst, MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &g));
    check_general(g, from, to, e, 0, "edges from their destinations");
    general_traffic(g, "edges from their destinations");
    MTEST_RC(MPI_Comm_free(&g));

    /* 3. process r gives the edges out of r + 1, as one source with its degree */
    int s1 = (rank + 1) % size, nd = 0;
    for (int k = 0; k < e; k++)
        if (from[k] == s1) {
            dst[nd] = to[k];
            w[nd++] = weight_of(s1, to[k]);
        }
    MTEST_RC(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &s1, &nd, dst, w, MPI_INFO_NULL, 0, &g));
    check_general(g, from, to, e, 1, "edges from the next process");
    general_traffic(g, "edges from the next process");
    MTEST_RC(MPI_Comm_free(&g));

    /* 4. nobody gives any edge */
    MTEST_RC(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g));
    int i, o, wt;
    MTEST_RC(MPI_Dist_graph_neighbors_count(g, &i, &o, &wt));
    MTEST_CHECK(i == 0 && o == 0 && wt, "no edges: counts %d %d %d", i, o, wt);
    MTEST_RC(MPI_Comm_free(&g));
    free(from), free(to), free(w), free(deg), free(src), free(dst);
}

/* The creation calls are not Comm_dup: no attribute comes along. */
static void test_no_attributes(void)
{
    int key, val = 42, *got, flag, idx[1] = {0}, none[1] = {0};
    MPI_Comm dup, g;
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MTEST_RC(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    MTEST_RC(MPI_Comm_set_attr(dup, key, &val));
    MTEST_RC(MPI_Dist_graph_create_adjacent(dup, 0, NULL, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                            &g));
    MTEST_RC(MPI_Comm_get_attr(g, key, &got, &flag));
    MTEST_CHECK(!flag, "Dist_graph_create_adjacent copied an attribute");
    MTEST_RC(MPI_Comm_free(&g));
    MTEST_RC(MPI_Graph_create(dup, 1, idx, none, 0, &g));
    if (rank == 0) {
        MTEST_RC(MPI_Comm_get_attr(g, key, &got, &flag));
        MTEST_CHECK(!flag, "Graph_create copied an attribute");
        MTEST_RC(MPI_Comm_free(&g));
    }
    MTEST_RC(MPI_Comm_free(&dup));
    MTEST_RC(MPI_Comm_free_keyval(&key));
}

/* ---- errors --------------------------------------------------------------------- */

static void free_if_made(int rc, MPI_Comm *c)
{
    if (rc == MPI_SUCCESS && *c != MPI_COMM_NULL)
        MPI_Comm_free(c);
}

static void test_errors(void)
{
    MPI_Comm c = MPI_COMM_NULL;
    int index[2] = {1, 2}, edges[2] = {0, 0}, a, b, wt, rc;

    mtest_check_class(MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0, &c), MPI_ERR_ARG,
                      "Graph_create with %d nodes on %d processes", size + 1, size);
    rc = MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &c);
    if (!MTEST_MPICH_DEVIATION)         /* MPICH accepts a negative nnodes */
        mtest_check_class(rc, MPI_ERR_ARG, "Graph_create with nnodes -1");
    else
        free_if_made(rc, &c);
    edges[0] = -1;
    mtest_check_class(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &c), MPI_ERR_ARG,
                      "Graph_create with an edge to node -1");
    edges[0] = 1;
    rc = MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &c);
    if (!MTEST_MPICH_DEVIATION)         /* MPICH checks edges against the communicator's size, and allows it */
        mtest_check_class(rc, MPI_ERR_ARG, "Graph_create with an edge to node 1 of 1");
    else
        free_if_made(rc, &c);
    edges[0] = 0;
    index[0] = -1;
    mtest_check_class(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &c), MPI_ERR_ARG,
                      "Graph_create with index[0] = -1");
    if (size >= 2) {
        index[0] = 2, index[1] = 1;
        mtest_check_class(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &c), MPI_ERR_ARG,
                          "Graph_create with a decreasing index");
    }
    mtest_check_class(MPI_Graph_map(MPI_COMM_WORLD, size + 1, index, edges, &a), MPI_ERR_ARG,
                      "Graph_map with %d nodes", size + 1);
    mtest_check_class(MPI_Graphdims_get(MPI_COMM_WORLD, &a, &b), MPI_ERR_TOPOLOGY, "Graphdims_get(world)");
    mtest_check_class(MPI_Graph_neighbors_count(MPI_COMM_WORLD, 0, &a), MPI_ERR_TOPOLOGY,
                      "Graph_neighbors_count(world)");
    mtest_check_class(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &a, &b, &wt), MPI_ERR_TOPOLOGY,
                      "Dist_graph_neighbors_count(world)");
    mtest_check_class(MPI_Dist_graph_neighbors(MPI_COMM_WORLD, 0, NULL, NULL, 0, NULL, NULL), MPI_ERR_TOPOLOGY,
                      "Dist_graph_neighbors(world)");

    /* on a graph: bad nodes, and the other kinds' queries */
    int *ri = mtest_malloc(sizeof(int) * size), *re = mtest_malloc(sizeof(int) * 2 * size), nb[2];
    ring(size, ri, re);
    MTEST_RC(MPI_Graph_create(MPI_COMM_WORLD, size, ri, re, 0, &c));
    mtest_check_class(MPI_Graph_neighbors_count(c, size, &a), MPI_ERR_RANK, "Graph_neighbors_count(rank %d)", size);
    mtest_check_class(MPI_Graph_neighbors(c, -1, 2, nb), MPI_ERR_RANK, "Graph_neighbors(rank -1)");
    mtest_check_class(MPI_Cart_shift(c, 0, 1, &a, &b), MPI_ERR_TOPOLOGY, "Cart_shift(graph)");
    mtest_check_class(MPI_Dist_graph_neighbors_count(c, &a, &b, &wt), MPI_ERR_TOPOLOGY,
                      "Dist_graph_neighbors_count(graph)");
    MTEST_RC(MPI_Comm_free(&c));
    free(ri);
    free(re);

    /* distributed graphs */
    int s[1] = {0}, w[1] = {-1}, big[1] = {size}, ok[1] = {1};
    rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, s, w, 1, s, w, MPI_INFO_NULL, 0, &c);
    if (!MTEST_MPICH_DEVIATION)         /* MPICH accepts negative weights */
        mtest_check_class(rc, MPI_ERR_ARG, "Dist_graph_create_adjacent with weight -1");
    else
        free_if_made(rc, &c);
    rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, big, MPI_UNWEIGHTED, 1, s, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                        0, &c);
    if (!MTEST_MPICH_DEVIATION)         /* MPICH accepts a source outside the communicator */
        mtest_check_class(rc, MPI_ERR_RANK, "Dist_graph_create_adjacent with source %d", size);
    else
        free_if_made(rc, &c);
    mtest_check_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, s, MPI_UNWEIGHTED, 1, s, MPI_UNWEIGHTED,
                                                     MPI_INFO_NULL, 0, &c),
                      MPI_ERR_ARG, "Dist_graph_create_adjacent with indegree -1");
    rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, s, MPI_UNWEIGHTED, 1, s, ok, MPI_INFO_NULL, 0, &c);
    if (!MTEST_MPICH_DEVIATION)         /* MPICH: MPI_ERR_TOPOLOGY */
        mtest_check_class(rc, MPI_ERR_ARG, "Dist_graph_create_adjacent half MPI_UNWEIGHTED");
    else
        free_if_made(rc, &c);
    rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, s, MPI_WEIGHTS_EMPTY, 1, s, MPI_WEIGHTS_EMPTY,
                                        MPI_INFO_NULL, 0, &c);
    if (!MTEST_MPICH_DEVIATION)         /* MPICH reads the weights from the marker */
        mtest_check_class(rc, MPI_ERR_ARG, "Dist_graph_create_adjacent with MPI_WEIGHTS_EMPTY for one edge");
    else
        free_if_made(rc, &c);
    int dg[1] = {-1};
    rc = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, s, dg, s, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c);
    if (!MTEST_MPICH_DEVIATION)         /* MPICH accepts a negative degree */
        mtest_check_class(rc, MPI_ERR_ARG, "Dist_graph_create with degree -1");
    else
        free_if_made(rc, &c);
    if (!MTEST_MPICH_DEVIATION)         /* MPICH aborts the job on this */
        mtest_check_class(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, s, ok, big, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
                          MPI_ERR_RANK, "Dist_graph_create with destination %d", size);
    mtest_check_class(MPI_Dist_graph_create(MPI_COMM_WORLD, -1, s, ok, s, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
                      MPI_ERR_ARG, "Dist_graph_create with n -1");

    /* queries on a distributed graph */
    MTEST_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED,
                                            MPI_INFO_NULL, 0, &c));
    mtest_check_class(MPI_Dist_graph_neighbors(c, -1, s, w, 0, s, w), MPI_ERR_ARG, "Dist_graph_neighbors(max -1)");
    mtest_check_class(MPI_Graphdims_get(c, &a, &b), MPI_ERR_TOPOLOGY, "Graphdims_get(dist graph)");
    mtest_check_class(MPI_Cartdim_get(c, &a), MPI_ERR_TOPOLOGY, "Cartdim_get(dist graph)");
    MTEST_RC(MPI_Comm_free(&c));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_graph();
    test_dist_adjacent();
    test_dist_general();
    test_no_attributes();
    test_errors();
    return mtest_finalize();
}
