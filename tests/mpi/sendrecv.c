/*
 * sendrecv: MPI_Sendrecv, MPI_Sendrecv_replace, MPI_Isendrecv and
 * MPI_Isendrecv_replace.
 *
 *  - ring shifts in both directions (each rank sends to rank+1 and receives
 *    from rank-1, then the reverse) for sizes from 0 B to 1 MiB;
 *  - different send and receive datatypes (ints sent, bytes received);
 *  - MPI_PROC_NULL partners: a non-periodic shift (the ends talk to
 *    MPI_PROC_NULL) and both partners MPI_PROC_NULL; a receive from
 *    MPI_PROC_NULL gives MPI_SOURCE = MPI_PROC_NULL, MPI_TAG = MPI_ANY_TAG,
 *    count 0 and leaves the buffer alone.
 *
 * MPI_Isendrecv* are MPI-4.0 functions; with an older MPI (Open MPI 4.1)
 * those parts are left out.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MPI_VERSION >= 4
#define HAVE_ISENDRECV 1
#else
#define HAVE_ISENDRECV 0
#endif

static const size_t sizes[] = {0, 1, 7, 1000, 4096, 65537, 1 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

enum kind { SENDRECV, SENDRECV_REPLACE, ISENDRECV, ISENDRECV_REPLACE, NKINDS };
static const char *kind_name[] = {"Sendrecv", "Sendrecv_replace", "Isendrecv",
                                  "Isendrecv_replace"};

/* One shift: send to `to`, receive from `from` (either may be
 * MPI_PROC_NULL). */
static void shift(enum kind k, int to, int from, size_t n, int idx)
{
    const int me = mtest_rank;
    const int stag = 100 + k, rtag = from == MPI_PROC_NULL ? 55 : 100 + k;
    unsigned char *sb = mtest_malloc(n + MTEST_GUARD), *rb = mtest_malloc(n + MTEST_GUARD);
    MPI_Status st;
    MPI_Request r;
    char what[120];
    snprintf(what, sizeof what, "%s of %zu bytes to %d from %d", kind_name[k], n, to, from);

    mtest_status_garbage(&st);
    switch (k) {
    case SENDRECV:
        mtest_fill(sb, n, me, idx);
        mtest_poison(rb, n, from, idx);
        mtest_guard_set(rb + n);
        MPI_Sendrecv(sb, (int)n, MPI_BYTE, to, stag, rb, (int)n, MPI_BYTE, from, rtag,
                     MPI_COMM_WORLD, &st);
        break;
    case SENDRECV_REPLACE:
        mtest_fill(rb, n, me, idx);
        mtest_guard_set(rb + n);
        MPI_Sendrecv_replace(rb, (int)n, MPI_BYTE, to, stag, from, rtag, MPI_COMM_WORLD, &st);
        break;
#if HAVE_ISENDRECV
    case ISENDRECV:
        mtest_fill(sb, n, me, idx);
        mtest_poison(rb, n, from, idx);
        mtest_guard_set(rb + n);
        MPI_Isendrecv(sb, (int)n, MPI_BYTE, to, stag, rb, (int)n, MPI_BYTE, from, rtag,
                      MPI_COMM_WORLD, &r);
        MPI_Wait(&r, &st);
        MTEST_CHECK(r == MPI_REQUEST_NULL, "%s: request not freed", what);
        break;
    case ISENDRECV_REPLACE:
        mtest_fill(rb, n, me, idx);
        mtest_guard_set(rb + n);
        MPI_Isendrecv_replace(rb, (int)n, MPI_BYTE, to, stag, from, rtag, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, &st);
        MTEST_CHECK(r == MPI_REQUEST_NULL, "%s: request not freed", what);
        break;
#endif
    default:
        (void)r;
        break;
    }

    /* MPICH 4.0.2 returns a zeroed status from MPI_Isendrecv* */
    int check_status = !(MTEST_MPICH_DEVIATION && (k == ISENDRECV || k == ISENDRECV_REPLACE));
    if (from == MPI_PROC_NULL) {
        if (check_status)
            mtest_check_status(&st, MPI_PROC_NULL, MPI_ANY_TAG, MPI_BYTE, 0, what);
        /* buffer untouched: still what we put there */
        if (k == SENDRECV || k == ISENDRECV) {
            unsigned char *chk = mtest_malloc(n);
            mtest_poison(chk, n, from, idx);
            MTEST_CHECK(memcmp(chk, rb, n) == 0, "%s: receive buffer was modified", what);
            free(chk);
        } else {
            mtest_check_data(rb, n, me, idx, "%s: buffer was modified", what);
        }
    } else {
        if (check_status)
            mtest_check_status(&st, from, 100 + k, MPI_BYTE, (int)n, what);
        mtest_check_data(rb, n, from, idx, "%s", what);
    }
    mtest_guard_check(rb + n, what);
    free(sb);
    free(rb);
}

static void typed_mix(void)
{
    const int me = mtest_rank, size = mtest_size;
    const int to = (me + 1) % size, from = (me + size - 1) % size;
    int out[100];
    unsigned char in[400 + MTEST_GUARD];
    MPI_Status st;
    for (int i = 0; i < 100; i++)
        out[i] = me * 1000 + i;
    mtest_guard_set(in + 400);
    MPI_Sendrecv(out, 100, MPI_INT, to, 9, in, 400 + MTEST_GUARD, MPI_BYTE, from, 9,
                 MPI_COMM_WORLD, &st);
    mtest_check_status(&st, from, 9, MPI_BYTE, 400, "Sendrecv ints as bytes");
    mtest_check_status(&st, from, 9, MPI_INT, 100, "Sendrecv ints as bytes (count in ints)");
    int got[100];
    memcpy(got, in, 400);
    for (int i = 0; i < 100; i++)
        MTEST_CHECK(got[i] == from * 1000 + i, "Sendrecv ints as bytes: element %d = %d", i,
                    got[i]);
    mtest_guard_check(in + 400, "Sendrecv ints as bytes");

    /* send and receive tags differ, and the ANY_TAG / ANY_SOURCE receive */
    int a = me, b = -1;
    MPI_Sendrecv(&a, 1, MPI_INT, to, 200 + me, &b, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                 MPI_COMM_WORLD, &st);
    mtest_check_status(&st, from, 200 + from, MPI_INT, 1, "Sendrecv with ANY_SOURCE/ANY_TAG");
    MTEST_CHECK(b == from, "Sendrecv with wildcards got %d, expected %d", b, from);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    const int me = mtest_rank, size = mtest_size;
    const int right = (me + 1) % size, left = (me + size - 1) % size;
    const int nkinds = HAVE_ISENDRECV ? NKINDS : 2;

    for (int k = 0; k < nkinds; k++) {
        for (int s = 0; s < NSIZES; s++) {
            int idx = 1000 * k + 10 * s;
            /* periodic shifts both ways */
            shift(k, right, left, sizes[s], idx);
            shift(k, left, right, sizes[s], idx + 1);
            /* MPICH 4.0.2 crashes in MPI_Isendrecv* with MPI_PROC_NULL
             * (pmodels/mpich#6004) */
            if (MTEST_MPICH_DEVIATION && (k == ISENDRECV || k == ISENDRECV_REPLACE)) {
                shift(k, me, me, sizes[s], idx + 4);
                continue;
            }
            /* non-periodic shift: rank 0 receives from PROC_NULL, the last
             * rank sends to PROC_NULL */
            shift(k, me == size - 1 ? MPI_PROC_NULL : me + 1, me == 0 ? MPI_PROC_NULL : me - 1,
                  sizes[s], idx + 2);
            /* both partners PROC_NULL */
            shift(k, MPI_PROC_NULL, MPI_PROC_NULL, sizes[s], idx + 3);
            /* exchange with oneself */
            shift(k, me, me, sizes[s], idx + 4);
        }
    }
    typed_mix();
    return mtest_finalize();
}
