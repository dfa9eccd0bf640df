/*
 * coll_move_types.h - typed int buffers for the tests of the barrier and
 * the data-movement collectives (coll_gather.c ... coll_alltoallv.c).
 *
 * The data is ints; a buffer lays them out with one of three datatypes:
 *   CT_INT  MPI_INT                                      int e at index e
 *   CT_VEC  vector(2, 1, 2, MPI_INT): 2 ints, a gap, ext 3  int e at 3*(e/2) + 2*(e%2)
 *   CT_RES  an int at byte 8, resized to lb 4, extent 16    int e at 2 + 4*e
 * so every collective is checked with a contiguous type, a noncontiguous
 * one and one whose lb is not 0, mixed between the send and the receive
 * side (the signatures match: n ints). Positions are counted in ints of
 * data; a buffer's holes (and blocks nobody writes) hold CT_HOLE, and a
 * result is compared with an expected buffer built the same way, so a
 * value out of place, a missing one or a write into a gap all show.
 */
#ifndef COLL_MOVE_TYPES_H
#define COLL_MOVE_TYPES_H

#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CT_HOLE (-1)
enum { CT_INT, CT_VEC, CT_RES, CT_KINDS };
static MPI_Datatype ct_type[CT_KINDS];
static const int ct_per[CT_KINDS] = {1, 2, 1};           /* ints per element */
static const char *const ct_name[CT_KINDS] = {"int", "vector", "resized"};

static void ct_init(void)
{
    MPI_Datatype at8;
    int one = 1;
    MPI_Aint eight = 8;
    MPI_Datatype mint = MPI_INT;
    ct_type[CT_INT] = MPI_INT;
    MPI_Type_vector(2, 1, 2, MPI_INT, &ct_type[CT_VEC]);
    MPI_Type_commit(&ct_type[CT_VEC]);
    MPI_Type_create_struct(1, &one, &eight, &mint, &at8);
    MPI_Type_create_resized(at8, 4, 16, &ct_type[CT_RES]);
    MPI_Type_commit(&ct_type[CT_RES]);
    MPI_Type_free(&at8);
}

static void ct_free(void)
{
    MPI_Type_free(&ct_type[CT_VEC]);
    MPI_Type_free(&ct_type[CT_RES]);
}

/* Index in the buffer of data int e. */
static size_t ct_index(int k, size_t e)
{
    return k == CT_INT ? e : k == CT_VEC ? 3 * (e / 2) + 2 * (e % 2) : 2 + 4 * e;
}

/* Ints of buffer that n ints of data need. */
static size_t ct_span(int k, size_t n)
{
    return n ? ct_index(k, n - 1) + 1 : 0;
}

/* Elements of type k holding n ints (n a multiple of ct_per[k]). */
static int ct_count(int k, size_t n)
{
    return (int)(n / (size_t)ct_per[k]);
}

/* Buffer for n ints of data, all CT_HOLE (one spare int: never empty). */
static int *ct_alloc(int k, size_t n)
{
    size_t s = ct_span(k, n) + 1;
    int *b = mtest_malloc(s * sizeof(int));
    for (size_t i = 0; i < s; i++)
        b[i] = CT_HOLE;
    return b;
}

/* What rank `from` puts into int e of its block `blk` (never CT_HOLE). */
static int ct_value(int from, int blk, size_t e)
{
    return (int)(((unsigned)from * 7919u + (unsigned)blk * 104729u + (unsigned)e * 31u + 1u) & 0x3fffffff);
}

/* Data ints [first, first + n) of buf get rank from's values for block blk. */
static void ct_fill(int k, int *buf, size_t first, size_t n, int from, int blk)
{
    for (size_t e = 0; e < n; e++)
        buf[ct_index(k, first + e)] = ct_value(from, blk, e);
}

/* Compares the spans of got and want (n ints of data of type k). */
static int ct_compare(int k, const int *got, const int *want, size_t n, const char *what)
{
    size_t s = ct_span(k, n) + 1, bad = 0, first = 0;
    for (size_t i = 0; i < s; i++)
        if (got[i] != want[i] && bad++ == 0)
            first = i;
    if (bad)
        mtest_fail("%s: %zu of %zu ints wrong, first at index %zu: %d, want %d", what, bad, s, first, got[first],
                   want[first]);
    return bad == 0;
}

#endif
