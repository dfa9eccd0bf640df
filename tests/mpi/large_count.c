/*
 * large_count: every large-count (_c) call of point-to-point, probes,
 * persistent requests, buffered sends, statuses, datatypes and packing, at
 * ordinary sizes, on any number of processes (a ring: each rank sends to
 * rank + 1 and receives from rank - 1; one process talks to itself).
 *
 *  - Send_c, Ssend_c, Rsend_c, Bsend_c, Isend_c, Issend_c, Irsend_c,
 *    Ibsend_c into Recv_c and Irecv_c, 0 .. 100000 ints, and a vector_c type
 *    into contiguous ints: every byte, status source and tag, Get_count_c,
 *    Get_elements_c;
 *  - Sendrecv_c, Sendrecv_replace_c, Isendrecv_c, Isendrecv_replace_c;
 *  - Mprobe + Mrecv_c, Improbe + Imrecv_c, MPI_MESSAGE_NO_PROC;
 *  - Send_init_c, Ssend_init_c, Rsend_init_c, Bsend_init_c, Recv_init_c,
 *    each started three times;
 *  - Buffer_attach_c / Buffer_detach_c;
 *  - every _c constructor against its int form: size, extent, true extent
 *    (_c queries), the packed bytes (Pack_c against Pack), envelope and
 *    contents (_c forms report large counts; the int forms refuse such a
 *    type with MPI_ERR_TYPE, and describe int-made types to the _c forms
 *    with no large counts); subarray_c and darray_c;
 *  - Pack_c/Unpack_c/Pack_size_c and Pack_external_c/Unpack_external_c/
 *    Pack_external_size_c against the int forms;
 *  - error classes of bad arguments, with messages that name the _c call.
 */
#include "mtest.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLASS(rc, cls, what) mtest_check_class_at(__FILE__, __LINE__, (rc), (cls), "%s", (what))

static int me, np, right, left;

/* n ints as a message from left: status, counts, data. */
static void check_recv(const MPI_Status *st, const void *buf, MPI_Count n, int tag, int idx, const char *what)
{
    MPI_Count c = -1, e = -1;
    mtest_check_status(st, left, tag, MPI_INT, (int)n, what);
    MTEST_RC(MPI_Get_count_c(st, MPI_INT, &c));
    MTEST_RC(MPI_Get_elements_c(st, MPI_INT, &e));
    MTEST_CHECK(c == n && e == n, "%s: Get_count_c %lld Get_elements_c %lld, expected %lld", what, (long long)c,
                (long long)e, (long long)n);
    mtest_check_data(buf, (size_t)n * sizeof(int), left, idx, "%s (%lld ints)", what, (long long)n);
}

static const MPI_Count sizes[] = {0, 1, 1000, 100000};
#define NSIZES (int)(sizeof sizes / sizeof *sizes)
#define MAXN 100000

/* The send modes, blocking and nonblocking, into Irecv_c (and Recv_c). */
static void modes(int *sbuf, int *rbuf)
{
    MPI_Count cap = 4 * (MAXN * (MPI_Count)sizeof(int) + MPI_BSEND_OVERHEAD);
    void *bbuf = mtest_malloc((size_t)cap);
    MTEST_RC(MPI_Buffer_attach_c(bbuf, cap));
    for (int m = 0; m < 8; m++) {
        for (int k = 0; k < NSIZES; k++) {
            MPI_Count n = sizes[k];
            int idx = 100 * m + k, tag = m;
            MPI_Request rr, sr;
            MPI_Status st;
            mtest_fill(sbuf, (size_t)n * sizeof(int), me, idx);
            mtest_poison(rbuf, (size_t)n * sizeof(int), left, idx);
            MTEST_RC(MPI_Irecv_c(rbuf, n, MPI_INT, left, tag, MPI_COMM_WORLD, &rr));
            MPI_Barrier(MPI_COMM_WORLD);    /* every receive is posted: ready modes may go */
            switch (m) {
            case 0: MTEST_RC(MPI_Send_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD)); break;
            case 1: MTEST_RC(MPI_Ssend_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD)); break;
            case 2: MTEST_RC(MPI_Rsend_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD)); break;
            case 3: MTEST_RC(MPI_Bsend_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD)); break;
            case 4: MTEST_RC(MPI_Isend_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sr)); break;
            case 5: MTEST_RC(MPI_Issend_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sr)); break;
            case 6: MTEST_RC(MPI_Irsend_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sr)); break;
            default: MTEST_RC(MPI_Ibsend_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sr)); break;
            }
            if (m >= 4)
                MTEST_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE));
            MTEST_RC(MPI_Wait(&rr, &st));
            check_recv(&st, rbuf, n, tag, idx, "send mode into Irecv_c");
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    /* blocking Recv_c, with a longer buffer than the message */
    for (int k = 0; k < NSIZES; k++) {
        MPI_Count n = sizes[k];
        MPI_Request sr;
        MPI_Status st;
        mtest_fill(sbuf, (size_t)n * sizeof(int), me, 900 + k);
        mtest_poison(rbuf, (size_t)n * sizeof(int), left, 900 + k);
        MTEST_RC(MPI_Isend_c(sbuf, n, MPI_INT, right, 9, MPI_COMM_WORLD, &sr));
        MTEST_RC(MPI_Recv_c(rbuf, n + 3, MPI_INT, left, 9, MPI_COMM_WORLD, &st));
        MTEST_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE));
        check_recv(&st, rbuf, n, 9, 900 + k, "Recv_c");
    }
    void *addr = NULL;
    MPI_Count size = 0;
    MTEST_RC(MPI_Buffer_detach_c(&addr, &size));
    MTEST_CHECK(addr == bbuf && size == cap, "Buffer_detach_c gives %p, %lld", addr, (long long)size);
    free(bbuf);
}

/* A vector_c of ints (every other one) sent, received as contiguous ints
 * and the other way round. */
static void derived(int *sbuf, int *rbuf)
{
    const MPI_Count n = 5000;
    MPI_Datatype vec;
    MTEST_RC(MPI_Type_vector_c(n, 1, 2, MPI_INT, &vec));
    MTEST_RC(MPI_Type_commit(&vec));
    int *spread = mtest_malloc((size_t)n * 2 * sizeof(int));
    mtest_fill(sbuf, (size_t)n * sizeof(int), me, 7);
    for (MPI_Count i = 0; i < n; i++)
        spread[2 * i] = sbuf[i], spread[2 * i + 1] = -1;
    MPI_Request sr;
    MPI_Status st;
    mtest_poison(rbuf, (size_t)n * sizeof(int), left, 7);
    MTEST_RC(MPI_Isend_c(spread, 1, vec, right, 20, MPI_COMM_WORLD, &sr));
    MTEST_RC(MPI_Recv_c(rbuf, n, MPI_INT, left, 20, MPI_COMM_WORLD, &st));
    MTEST_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    check_recv(&st, rbuf, n, 20, 7, "vector_c into ints");
    /* contiguous ints into the vector: the gaps keep their -1 */
    for (MPI_Count i = 0; i < 2 * n; i++)
        spread[i] = -1;
    MTEST_RC(MPI_Isend_c(sbuf, n, MPI_INT, right, 21, MPI_COMM_WORLD, &sr));
    MTEST_RC(MPI_Recv_c(spread, 1, vec, left, 21, MPI_COMM_WORLD, &st));
    MTEST_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    MPI_Count c = -1, e = -1;
    MTEST_RC(MPI_Get_count_c(&st, vec, &c));
    MTEST_RC(MPI_Get_elements_c(&st, vec, &e));
    MTEST_CHECK(c == 1 && e == n, "ints into vector_c: Get_count_c %lld Get_elements_c %lld", (long long)c,
                (long long)e);
    for (MPI_Count i = 0; i < n; i++) {
        rbuf[i] = spread[2 * i];
        if (spread[2 * i + 1] != -1) {
            mtest_fail("ints into vector_c: gap %lld written", (long long)i);
            break;
        }
    }
    mtest_check_data(rbuf, (size_t)n * sizeof(int), left, 7, "ints into vector_c");
    free(spread);
    MPI_Type_free(&vec);
}

static void sendrecv(int *sbuf, int *rbuf)
{
    for (int k = 0; k < NSIZES; k++) {
        MPI_Count n = sizes[k];
        MPI_Status st;
        MPI_Request r;
        mtest_fill(sbuf, (size_t)n * sizeof(int), me, 200 + k);
        mtest_poison(rbuf, (size_t)n * sizeof(int), left, 200 + k);
        MTEST_RC(MPI_Sendrecv_c(sbuf, n, MPI_INT, right, 30, rbuf, n, MPI_INT, left, 30, MPI_COMM_WORLD, &st));
        check_recv(&st, rbuf, n, 30, 200 + k, "Sendrecv_c");

        mtest_poison(rbuf, (size_t)n * sizeof(int), left, 210 + k);
        mtest_fill(sbuf, (size_t)n * sizeof(int), me, 210 + k);
        MTEST_RC(MPI_Isendrecv_c(sbuf, n, MPI_INT, right, 31, rbuf, n, MPI_INT, left, 31, MPI_COMM_WORLD, &r));
        MTEST_RC(MPI_Wait(&r, &st));
        check_recv(&st, rbuf, n, 31, 210 + k, "Isendrecv_c");

        mtest_fill(rbuf, (size_t)n * sizeof(int), me, 220 + k);
        MTEST_RC(MPI_Sendrecv_replace_c(rbuf, n, MPI_INT, right, 32, left, 32, MPI_COMM_WORLD, &st));
        check_recv(&st, rbuf, n, 32, 220 + k, "Sendrecv_replace_c");

        mtest_fill(rbuf, (size_t)n * sizeof(int), me, 230 + k);
        MTEST_RC(MPI_Isendrecv_replace_c(rbuf, n, MPI_INT, right, 33, left, 33, MPI_COMM_WORLD, &r));
        MTEST_RC(MPI_Wait(&r, &st));
        check_recv(&st, rbuf, n, 33, 230 + k, "Isendrecv_replace_c");
    }
}

static void matched(int *sbuf, int *rbuf)
{
    for (int k = 0; k < NSIZES; k++) {
        MPI_Count n = sizes[k];
        MPI_Request sr, rr;
        MPI_Message msg;
        MPI_Status st;
        MPI_Count c = -1;
        int flag = 0;
        mtest_fill(sbuf, (size_t)n * sizeof(int), me, 300 + k);
        mtest_poison(rbuf, (size_t)n * sizeof(int), left, 300 + k);
        MTEST_RC(MPI_Isend_c(sbuf, n, MPI_INT, right, 40, MPI_COMM_WORLD, &sr));
        MTEST_RC(MPI_Mprobe(left, 40, MPI_COMM_WORLD, &msg, &st));
        MTEST_RC(MPI_Get_count_c(&st, MPI_INT, &c));
        MTEST_CHECK(c == n, "Mprobe: Get_count_c %lld, expected %lld", (long long)c, (long long)n);
        MTEST_RC(MPI_Mrecv_c(rbuf, n, MPI_INT, &msg, &st));
        MTEST_CHECK(msg == MPI_MESSAGE_NULL, "Mrecv_c leaves the message handle 0x%x", (unsigned)msg);
        check_recv(&st, rbuf, n, 40, 300 + k, "Mrecv_c");
        MTEST_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE));

        mtest_fill(sbuf, (size_t)n * sizeof(int), me, 310 + k);
        mtest_poison(rbuf, (size_t)n * sizeof(int), left, 310 + k);
        MTEST_RC(MPI_Isend_c(sbuf, n, MPI_INT, right, 41, MPI_COMM_WORLD, &sr));
        while (!flag)
            MTEST_RC(MPI_Improbe(left, 41, MPI_COMM_WORLD, &flag, &msg, &st));
        MTEST_RC(MPI_Imrecv_c(rbuf, n, MPI_INT, &msg, &rr));
        MTEST_RC(MPI_Wait(&rr, &st));
        check_recv(&st, rbuf, n, 41, 310 + k, "Imrecv_c");
        MTEST_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    }
    MPI_Message none;
    MPI_Status st;
    MPI_Request r;
    MTEST_RC(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &none, &st));
    MTEST_RC(MPI_Mrecv_c(rbuf, 10, MPI_INT, &none, &st));
    MTEST_CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Mrecv_c of MPI_MESSAGE_NO_PROC: source %d", st.MPI_SOURCE);
    none = MPI_MESSAGE_NO_PROC;
    MTEST_RC(MPI_Imrecv_c(rbuf, 10, MPI_INT, &none, &r));
    MTEST_RC(MPI_Wait(&r, &st));
    MTEST_CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Imrecv_c of MPI_MESSAGE_NO_PROC: source %d", st.MPI_SOURCE);
}

static void persistent(int *sbuf, int *rbuf)
{
    const MPI_Count n = 2000;
    MPI_Count cap = 3 * (n * (MPI_Count)sizeof(int) + MPI_BSEND_OVERHEAD);
    void *bbuf = mtest_malloc((size_t)cap);
    MTEST_RC(MPI_Buffer_attach_c(bbuf, cap));
    for (int m = 0; m < 4; m++) {
        MPI_Request rr, sr;
        int tag = 50 + m;
        MTEST_RC(MPI_Recv_init_c(rbuf, n, MPI_INT, left, tag, MPI_COMM_WORLD, &rr));
        switch (m) {
        case 0: MTEST_RC(MPI_Send_init_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sr)); break;
        case 1: MTEST_RC(MPI_Ssend_init_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sr)); break;
        case 2: MTEST_RC(MPI_Rsend_init_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sr)); break;
        default: MTEST_RC(MPI_Bsend_init_c(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sr)); break;
        }
        for (int round = 0; round < 3; round++) {
            int idx = 400 + 10 * m + round;
            MPI_Status st;
            mtest_fill(sbuf, (size_t)n * sizeof(int), me, idx);
            mtest_poison(rbuf, (size_t)n * sizeof(int), left, idx);
            MTEST_RC(MPI_Start(&rr));
            MPI_Barrier(MPI_COMM_WORLD);
            MTEST_RC(MPI_Start(&sr));
            MTEST_RC(MPI_Wait(&sr, MPI_STATUS_IGNORE));
            MTEST_RC(MPI_Wait(&rr, &st));
            check_recv(&st, rbuf, n, tag, idx, "persistent _c request");
            MPI_Barrier(MPI_COMM_WORLD);
        }
        MPI_Request_free(&rr);
        MPI_Request_free(&sr);
    }
    void *addr;
    MPI_Count size;
    MTEST_RC(MPI_Buffer_detach_c(&addr, &size));
    free(bbuf);
}

/* ---- datatypes ------------------------------------------------------------ */

/* t (an int-form type) and tc (the same made by the _c form) agree in every
 * query and pack the same bytes; tc describes itself with large counts. */
static void same_type(MPI_Datatype t, MPI_Datatype tc, int combiner, MPI_Count nlarge, const MPI_Count *large,
                      int nints_c, const char *what)
{
    MPI_Count s1, s2, l1, l2, e1, e2, tl1, tl2, te1, te2;
    MTEST_RC(MPI_Type_commit(&t));
    MTEST_RC(MPI_Type_commit(&tc));
    MTEST_RC(MPI_Type_size_x(t, &s1));
    MTEST_RC(MPI_Type_size_c(tc, &s2));
    MTEST_RC(MPI_Type_get_extent_x(t, &l1, &e1));
    MTEST_RC(MPI_Type_get_extent_c(tc, &l2, &e2));
    MTEST_RC(MPI_Type_get_true_extent_x(t, &tl1, &te1));
    MTEST_RC(MPI_Type_get_true_extent_c(tc, &tl2, &te2));
    MTEST_CHECK(s1 == s2 && l1 == l2 && e1 == e2 && tl1 == tl2 && te1 == te2,
                "%s: int form size %lld lb %lld extent %lld true %lld/%lld, _c form %lld %lld %lld %lld/%lld", what,
                (long long)s1, (long long)l1, (long long)e1, (long long)tl1, (long long)te1, (long long)s2,
                (long long)l2, (long long)e2, (long long)tl2, (long long)te2);

    /* pack 3 elements of each from the same memory */
    MPI_Aint span = 3 * (e1 > 0 ? e1 : -e1) + te1 + 64;
    unsigned char *mem = mtest_malloc((size_t)span * 2), *base = mem + span;
    mtest_fill(mem, (size_t)span * 2, me, 500);
    int psize = 0;
    MPI_Count psize_c = 0;
    MTEST_RC(MPI_Pack_size(3, t, MPI_COMM_WORLD, &psize));
    MTEST_RC(MPI_Pack_size_c(3, tc, MPI_COMM_WORLD, &psize_c));
    MTEST_CHECK(psize == 3 * s1 && psize_c == 3 * s1, "%s: Pack_size %d, Pack_size_c %lld", what, psize,
                (long long)psize_c);
    unsigned char *p1 = mtest_malloc((size_t)psize + 1), *p2 = mtest_malloc((size_t)psize + 1);
    int pos = 0;
    MPI_Count pos_c = 0;
    MTEST_RC(MPI_Pack(base - l1, 3, t, p1, psize, &pos, MPI_COMM_WORLD));
    MTEST_RC(MPI_Pack_c(base - l1, 3, tc, p2, psize_c, &pos_c, MPI_COMM_WORLD));
    MTEST_CHECK(pos == psize && pos_c == psize && memcmp(p1, p2, (size_t)psize) == 0,
                "%s: Pack and Pack_c differ (positions %d, %lld)", what, pos, (long long)pos_c);
    /* and back: Unpack_c into zeroed memory, packed again, gives the same bytes */
    unsigned char *mem2 = mtest_malloc((size_t)span * 2);
    memset(mem2, 0, (size_t)span * 2);
    pos_c = 0;
    MTEST_RC(MPI_Unpack_c(p2, psize_c, &pos_c, mem2 + span - l1, 3, tc, MPI_COMM_WORLD));
    MTEST_CHECK(pos_c == psize_c, "%s: Unpack_c position %lld", what, (long long)pos_c);
    pos = 0;
    MTEST_RC(MPI_Pack(mem2 + span - l1, 3, t, p1, psize, &pos, MPI_COMM_WORLD));
    MTEST_CHECK(memcmp(p1, p2, (size_t)psize) == 0, "%s: Unpack_c did not put the data in place", what);
    free(mem2);

    /* envelopes and contents */
    MPI_Count ni, na, nl, nd;
    int comb = -1, i1, i2, i3, i4;
    MTEST_RC(MPI_Type_get_envelope_c(tc, &ni, &na, &nl, &nd, &comb));
    MTEST_CHECK(comb == combiner && nl == nlarge && ni == nints_c && na == 0,
                "%s: envelope_c gives combiner %d, %lld ints %lld addresses %lld large counts; want %d, %d, 0, %lld",
                what, comb, (long long)ni, (long long)na, (long long)nl, combiner, nints_c, (long long)nlarge);
    MPI_Count *lc = mtest_malloc((size_t)(nl + 1) * sizeof *lc);
    int *ints = mtest_malloc((size_t)(ni + 1) * sizeof *ints);
    MPI_Datatype *types = mtest_malloc((size_t)(nd + 1) * sizeof *types);
    MTEST_RC(MPI_Type_get_contents_c(tc, ni, na, nl, nd, ints, NULL, lc, types));
    for (MPI_Count i = 0; i < nl && i < nlarge; i++)
        if (!MTEST_CHECK(lc[i] == large[i], "%s: large count %lld is %lld, expected %lld", what, (long long)i,
                         (long long)lc[i], (long long)large[i]))
            break;
    for (MPI_Count i = 0; i < nd; i++) {
        MPI_Count n1, n2, n3, n4;
        int c2;
        MPI_Type_get_envelope_c(types[i], &n1, &n2, &n3, &n4, &c2);
        if (c2 != MPI_COMBINER_NAMED)
            MPI_Type_free(&types[i]);
    }
    MPI_Count ni1, na1, nl1, nd1;
    int comb1;
    MTEST_RC(MPI_Type_get_envelope_c(t, &ni1, &na1, &nl1, &nd1, &comb1));
    MTEST_CHECK(nl1 == 0 && comb1 == combiner, "%s: envelope_c of the int-made type: %lld large counts", what,
                (long long)nl1);
    if (nlarge > 0) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        CLASS(MPI_Type_get_envelope(tc, &i1, &i2, &i3, &i4), MPI_ERR_TYPE, "Type_get_envelope of a _c-made type");
        CLASS(MPI_Type_get_contents(tc, 100, 100, 100, ints, NULL, types), MPI_ERR_TYPE,
              "Type_get_contents of a _c-made type");
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    free(lc);
    free(ints);
    free(types);
    free(p1);
    free(p2);
    free(mem);
    MPI_Type_free(&t);
    MPI_Type_free(&tc);
}

static void constructors(void)
{
    MPI_Datatype t, tc;
    {
        MPI_Count lc[] = {7};
        MPI_Type_contiguous(7, MPI_INT, &t);
        MTEST_RC(MPI_Type_contiguous_c(7, MPI_INT, &tc));
        same_type(t, tc, MPI_COMBINER_CONTIGUOUS, 1, lc, 0, "contiguous_c");
    }
    {
        MPI_Count lc[] = {4, 3, -5};
        MPI_Type_vector(4, 3, -5, MPI_DOUBLE, &t);
        MTEST_RC(MPI_Type_vector_c(4, 3, -5, MPI_DOUBLE, &tc));
        same_type(t, tc, MPI_COMBINER_VECTOR, 3, lc, 0, "vector_c");
    }
    {
        MPI_Count lc[] = {5, 2, 24};
        MPI_Type_create_hvector(5, 2, 24, MPI_SHORT, &t);
        MTEST_RC(MPI_Type_create_hvector_c(5, 2, 24, MPI_SHORT, &tc));
        same_type(t, tc, MPI_COMBINER_HVECTOR, 3, lc, 0, "hvector_c");
    }
    {
        int bl[] = {2, 0, 3}, d[] = {10, 4, -3};
        MPI_Count blc[] = {2, 0, 3}, dc[] = {10, 4, -3}, lc[] = {3, 2, 0, 3, 10, 4, -3};
        MPI_Type_indexed(3, bl, d, MPI_INT, &t);
        MTEST_RC(MPI_Type_indexed_c(3, blc, dc, MPI_INT, &tc));
        same_type(t, tc, MPI_COMBINER_INDEXED, 7, lc, 0, "indexed_c");
    }
    {
        int bl[] = {1, 4};
        MPI_Aint d[] = {40, 3};
        MPI_Count blc[] = {1, 4}, dc[] = {40, 3}, lc[] = {2, 1, 4, 40, 3};
        MPI_Type_create_hindexed(2, bl, d, MPI_CHAR, &t);
        MTEST_RC(MPI_Type_create_hindexed_c(2, blc, dc, MPI_CHAR, &tc));
        same_type(t, tc, MPI_COMBINER_HINDEXED, 5, lc, 0, "hindexed_c");
    }
    {
        int d[] = {6, 0, 3};
        MPI_Count dc[] = {6, 0, 3}, lc[] = {3, 2, 6, 0, 3};
        MPI_Type_create_indexed_block(3, 2, d, MPI_FLOAT, &t);
        MTEST_RC(MPI_Type_create_indexed_block_c(3, 2, dc, MPI_FLOAT, &tc));
        same_type(t, tc, MPI_COMBINER_INDEXED_BLOCK, 5, lc, 0, "indexed_block_c");
    }
    {
        MPI_Aint d[] = {16, -8};
        MPI_Count dc[] = {16, -8}, lc[] = {2, 3, 16, -8};
        MPI_Type_create_hindexed_block(2, 3, d, MPI_BYTE, &t);
        MTEST_RC(MPI_Type_create_hindexed_block_c(2, 3, dc, MPI_BYTE, &tc));
        same_type(t, tc, MPI_COMBINER_HINDEXED_BLOCK, 4, lc, 0, "hindexed_block_c");
    }
    {
        int bl[] = {1, 2, 1};
        MPI_Aint d[] = {0, 8, 24};
        MPI_Count blc[] = {1, 2, 1}, dc[] = {0, 8, 24}, lc[] = {3, 1, 2, 1, 0, 8, 24};
        MPI_Datatype ty[] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
        MPI_Type_create_struct(3, bl, d, ty, &t);
        MTEST_RC(MPI_Type_create_struct_c(3, blc, dc, ty, &tc));
        same_type(t, tc, MPI_COMBINER_STRUCT, 7, lc, 0, "struct_c");
    }
    {
        MPI_Count lc[] = {-4, 20};
        MPI_Type_create_resized(MPI_INT, -4, 20, &t);
        MTEST_RC(MPI_Type_create_resized_c(MPI_INT, -4, 20, &tc));
        same_type(t, tc, MPI_COMBINER_RESIZED, 2, lc, 0, "resized_c");
    }
    {
        int sz[] = {6, 5, 4}, sub[] = {2, 3, 2}, st[] = {1, 2, 2};
        MPI_Count szc[] = {6, 5, 4}, subc[] = {2, 3, 2}, stc[] = {1, 2, 2},
                  lc[] = {6, 5, 4, 2, 3, 2, 1, 2, 2};
        MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_FORTRAN, MPI_INT, &t);
        MTEST_RC(MPI_Type_create_subarray_c(3, szc, subc, stc, MPI_ORDER_FORTRAN, MPI_INT, &tc));
        same_type(t, tc, MPI_COMBINER_SUBARRAY, 9, lc, 2, "subarray_c");
    }
    {
        int gs[] = {9, 7}, dist[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
        int darg[] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[] = {2, 2};
        MPI_Count gsc[] = {9, 7}, lc[] = {9, 7};
        MPI_Type_create_darray(4, me % 4, 2, gs, dist, darg, ps, MPI_ORDER_C, MPI_DOUBLE, &t);
        MTEST_RC(MPI_Type_create_darray_c(4, me % 4, 2, gsc, dist, darg, ps, MPI_ORDER_C, MPI_DOUBLE, &tc));
        same_type(t, tc, MPI_COMBINER_DARRAY, 2, lc, 10, "darray_c");
    }
    {   /* Type_dup of a _c type keeps nothing large; describing it is fine in both forms */
        MPI_Count dummy = 0;
        MPI_Type_contiguous_c(3, MPI_INT, &tc);
        MPI_Type_dup(tc, &t);
        MPI_Datatype t2;
        MPI_Type_dup(tc, &t2);
        same_type(t, t2, MPI_COMBINER_DUP, 0, &dummy, 0, "dup of a contiguous_c");
        MPI_Type_free(&tc);
    }
}

/* Pack_external_c and friends against the int forms. */
static void external(void)
{
    double d[4] = {1.5, -2.25, 1e300, 0};
    MPI_Aint esize = 0, pos = 0;
    MPI_Count esize_c = 0, pos_c = 0;
    unsigned char e1[64], e2[64];
    MTEST_RC(MPI_Pack_external_size("external32", 4, MPI_DOUBLE, &esize));
    MTEST_RC(MPI_Pack_external_size_c("external32", 4, MPI_DOUBLE, &esize_c));
    MTEST_CHECK(esize == 32 && esize_c == 32, "Pack_external_size %ld, _c %lld", (long)esize, (long long)esize_c);
    MTEST_RC(MPI_Pack_external("external32", d, 4, MPI_DOUBLE, e1, sizeof e1, &pos));
    MTEST_RC(MPI_Pack_external_c("external32", d, 4, MPI_DOUBLE, e2, sizeof e2, &pos_c));
    MTEST_CHECK(pos == 32 && pos_c == 32 && memcmp(e1, e2, 32) == 0, "Pack_external_c differs from Pack_external");
    MTEST_CHECK(e2[0] == 0x3f && e2[1] == 0xf8, "Pack_external_c of 1.5 is not big-endian: %02x %02x", e2[0], e2[1]);
    double back[4] = {0};
    pos_c = 0;
    MTEST_RC(MPI_Unpack_external_c("external32", e2, 32, &pos_c, back, 4, MPI_DOUBLE));
    MTEST_CHECK(pos_c == 32 && memcmp(back, d, sizeof d) == 0, "Unpack_external_c did not restore the doubles");
}

static void errors(int *buf)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype t;
    MPI_Request r;
    MPI_Status st;
    MPI_Count c;
    int rc = MPI_Send_c(buf, -1, MPI_INT, right, 0, MPI_COMM_WORLD);
    CLASS(rc, MPI_ERR_COUNT, "Send_c with count -1");
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    MTEST_CHECK(strstr(msg, "MPI_Send_c") != NULL, "the message of Send_c's error does not name it: %s", msg);
    CLASS(MPI_Recv_c(buf, -5, MPI_INT, left, 0, MPI_COMM_WORLD, &st), MPI_ERR_COUNT, "Recv_c with count -5");
    CLASS(MPI_Send_c(buf, (MPI_Count)1 << 62, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
          "Send_c of 2^62 ints (2^64 bytes)");
    CLASS(MPI_Irecv_c(buf, INT64_MAX, MPI_SHORT, left, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT,
          "Irecv_c of INT64_MAX shorts");
    CLASS(MPI_Isend_c(buf, 1, MPI_DATATYPE_NULL, right, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE,
          "Isend_c of MPI_DATATYPE_NULL");
    CLASS(MPI_Irecv_c(buf, 1, MPI_INT, np, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK, "Irecv_c from rank size");
    CLASS(MPI_Ssend_c(buf, 1, MPI_INT, right, -3, MPI_COMM_WORLD), MPI_ERR_TAG, "Ssend_c with tag -3");
    CLASS(MPI_Send_init_c(buf, -2, MPI_INT, right, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT, "Send_init_c count -2");
    CLASS(MPI_Recv_init_c(buf, 1, MPI_INT, left, 0, MPI_COMM_NULL, &r), MPI_ERR_COMM, "Recv_init_c on COMM_NULL");
    CLASS(MPI_Sendrecv_c(buf, 1, MPI_INT, right, 0, buf, -1, MPI_INT, left, 0, MPI_COMM_WORLD, &st), MPI_ERR_COUNT,
          "Sendrecv_c with recvcount -1");
    MPI_Message m = MPI_MESSAGE_NULL;
    CLASS(MPI_Mrecv_c(buf, 1, MPI_INT, &m, &st), MPI_ERR_REQUEST, "Mrecv_c of MPI_MESSAGE_NULL");
    CLASS(MPI_Get_count_c(&st, MPI_INT, NULL), MPI_ERR_ARG, "Get_count_c with count NULL");
    CLASS(MPI_Get_count_c(MPI_STATUS_IGNORE, MPI_INT, &c), MPI_ERR_ARG, "Get_count_c of MPI_STATUS_IGNORE");
    CLASS(MPI_Buffer_attach_c(buf, -1), MPI_ERR_ARG, "Buffer_attach_c with size -1");
    CLASS(MPI_Type_contiguous_c(-1, MPI_INT, &t), MPI_ERR_COUNT, "Type_contiguous_c with count -1");
    CLASS(MPI_Type_vector_c(2, -1, 3, MPI_INT, &t), MPI_ERR_ARG, "Type_vector_c with blocklength -1");
    MPI_Count bl[2] = {1, -4}, d[2] = {0, 8};
    CLASS(MPI_Type_indexed_c(2, bl, d, MPI_INT, &t), MPI_ERR_ARG, "Type_indexed_c with a negative blocklength");
    CLASS(MPI_Type_create_hindexed_c(2, NULL, d, MPI_INT, &t), MPI_ERR_ARG, "Type_create_hindexed_c with NULL");
    MPI_Count sz[1] = {4}, sub[1] = {5}, at[1] = {0};
    CLASS(MPI_Type_create_subarray_c(1, sz, sub, at, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
          "Type_create_subarray_c with a subsize beyond the size");
    MPI_Count pos = 0;
    char out[8];
    CLASS(MPI_Pack_c(buf, 3, MPI_INT, out, sizeof out, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
          "Pack_c of 12 bytes into 8");
    pos = 9;
    CLASS(MPI_Unpack_c(out, sizeof out, &pos, buf, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG,
          "Unpack_c with the position beyond insize");
    CLASS(MPI_Pack_external_size_c("native", 1, MPI_INT, &c), MPI_ERR_ARG, "Pack_external_size_c of \"native\"");
    MPI_Type_contiguous_c(2, MPI_INT, &t);
    MPI_Count ni, na, nl, nd;
    int comb;
    MPI_Datatype got;
    CLASS(MPI_Type_get_contents_c(t, 0, 0, 0, 1, NULL, NULL, NULL, &got), MPI_ERR_ARG,
          "Type_get_contents_c with max_large_counts 0 of 1");
    CLASS(MPI_Type_get_envelope_c(t, &ni, &na, NULL, &nd, &comb), MPI_ERR_ARG,
          "Type_get_envelope_c with num_large_counts NULL");
    CLASS(MPI_Type_size_c(MPI_DATATYPE_NULL, &c), MPI_ERR_TYPE, "Type_size_c of MPI_DATATYPE_NULL");
    MPI_Type_free(&t);
    (void)nl;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    me = mtest_rank;
    np = mtest_size;
    right = (me + 1) % np;
    left = (me + np - 1) % np;
    int *sbuf = mtest_malloc(MAXN * sizeof(int) + MTEST_GUARD);
    int *rbuf = mtest_malloc((MAXN + 8) * sizeof(int) + MTEST_GUARD);
    modes(sbuf, rbuf);
    derived(sbuf, rbuf);
    sendrecv(sbuf, rbuf);
    matched(sbuf, rbuf);
    persistent(sbuf, rbuf);
    constructors();
    external();
    errors(sbuf);
    free(sbuf);
    free(rbuf);
    return mtest_finalize();
}
