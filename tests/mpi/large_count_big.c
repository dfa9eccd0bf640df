/*
 * large_count_big: the large-count (_c) calls with counts, sizes and
 * positions above 2^31, end to end between 2 processes.
 *
 *  - MPI_Send_c / MPI_Recv_c of 2^31 + 5 MPI_BYTEs; MPI_Get_count_c and
 *    MPI_Get_elements_c give 2^31 + 5, the int forms MPI_UNDEFINED;
 *  - MPI_Type_contiguous_c of 2^31 + 7 bytes: size, extent, envelope and
 *    contents (_c forms; the int forms refuse it with MPI_ERR_TYPE), and one
 *    element of it sent back with MPI_Isend_c / MPI_Irecv_c;
 *  - MPI_Bsend_c of 2^31 + 5 bytes through a buffer of more than 2^31 bytes
 *    attached with MPI_Buffer_attach_c: MPI_Buffer_detach (int) refuses to
 *    detach it, MPI_Buffer_detach_c returns its size;
 *  - MPI_Pack_c / MPI_Unpack_c across position 2^31;
 *  - types whose counts exceed INT_MAX (vector_c, hvector_c, resized_c)
 *    described without moving data, and statuses of more than INT_MAX
 *    elements (MPI_Status_set_elements_x).
 * Every byte is checked. Memory at its peak: 4 GiB at rank 0, 2 GiB at
 * rank 1. Meant for exactly 2 processes; with one only the descriptions run.
 * Label bigmem (tests/CMakeLists.txt): not part of the ordinary runs.
 */
#include "mtest.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TWO31 ((MPI_Count)1 << 31)

static double t_start;

static void phase(const char *what)
{
    if (getenv("MTEST_VERBOSE"))
        printf("[rank %d] %6.1f s  %s\n", mtest_rank, MPI_Wtime() - t_start, what);
}

/* Count checks of a status holding n elements of type, which are elems
 * predefined elements. */
static void check_counts(const MPI_Status *st, MPI_Datatype type, MPI_Count n, MPI_Count elems, const char *what)
{
    MPI_Count c = -1;
    int ci = 0;
    MTEST_RC(MPI_Get_count_c(st, type, &c));
    MTEST_CHECK(c == n, "%s: MPI_Get_count_c gives %lld, expected %lld", what, (long long)c, (long long)n);
    MTEST_RC(MPI_Get_count(st, type, &ci));
    MTEST_CHECK(ci == (n > INT_MAX ? MPI_UNDEFINED : (int)n), "%s: MPI_Get_count gives %d for %lld", what, ci,
                (long long)n);
    c = -1;
    MTEST_RC(MPI_Get_elements_c(st, type, &c));
    MTEST_CHECK(c == elems, "%s: MPI_Get_elements_c gives %lld, expected %lld", what, (long long)c,
                (long long)elems);
    MTEST_RC(MPI_Get_elements(st, type, &ci));
    MTEST_CHECK(ci == (elems > INT_MAX ? MPI_UNDEFINED : (int)elems), "%s: MPI_Get_elements gives %d for %lld", what,
                ci, (long long)elems);
}

/* rank 0 -> rank 1: Send_c / Recv_c of 2^31 + 5 bytes. */
static void send_recv_bytes(unsigned char *buf)
{
    const MPI_Count n = TWO31 + 5;
    MPI_Status st;
    if (mtest_rank == 0) {
        mtest_fill(buf, (size_t)n, 0, 1);
        MTEST_RC(MPI_Send_c(buf, n, MPI_BYTE, 1, 5, MPI_COMM_WORLD));
    } else {
        mtest_poison(buf, (size_t)n, 0, 1);
        mtest_guard_set(buf + n);
        MTEST_RC(MPI_Recv_c(buf, n, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &st));
        MTEST_CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 5, "Recv_c: status source %d tag %d", st.MPI_SOURCE,
                    st.MPI_TAG);
        check_counts(&st, MPI_BYTE, n, n, "2^31 + 5 bytes");
        mtest_check_data(buf, (size_t)n, 0, 1, "Send_c/Recv_c of 2^31 + 5 bytes");
        mtest_guard_check(buf + n, "Recv_c of 2^31 + 5 bytes");
    }
}

/* A contiguous type of more than INT_MAX bytes: its description, then one
 * element of it rank 1 -> rank 0 with Isend_c / Irecv_c. */
static void big_contiguous(unsigned char *buf)
{
    const MPI_Count n = TWO31 + 7;
    MPI_Datatype t;
    MTEST_RC(MPI_Type_contiguous_c(n, MPI_BYTE, &t));
    MTEST_RC(MPI_Type_commit(&t));
    MPI_Count size = 0, lb = -1, ext = 0, ni = -1, na = -1, nl = -1, nd = -1;
    int isize = 0, comb = 0, i1, i2, i3, i4;
    MTEST_RC(MPI_Type_size_c(t, &size));
    MTEST_CHECK(size == n, "Type_size_c of contiguous_c(2^31 + 7) is %lld", (long long)size);
    MTEST_RC(MPI_Type_size(t, &isize));
    MTEST_CHECK(isize == MPI_UNDEFINED, "Type_size of 2^31 + 7 bytes gives %d, expected MPI_UNDEFINED", isize);
    MTEST_RC(MPI_Type_get_extent_c(t, &lb, &ext));
    MTEST_CHECK(lb == 0 && ext == n, "Type_get_extent_c: lb %lld extent %lld", (long long)lb, (long long)ext);
    MTEST_RC(MPI_Type_get_true_extent_c(t, &lb, &ext));
    MTEST_CHECK(lb == 0 && ext == n, "Type_get_true_extent_c: lb %lld extent %lld", (long long)lb, (long long)ext);
    MTEST_RC(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &comb));
    MTEST_CHECK(ni == 0 && na == 0 && nl == 1 && nd == 1 && comb == MPI_COMBINER_CONTIGUOUS,
                "Type_get_envelope_c: %lld %lld %lld %lld combiner %d", (long long)ni, (long long)na, (long long)nl,
                (long long)nd, comb);
    MPI_Count lc = 0;
    MPI_Datatype old = MPI_DATATYPE_NULL;
    MTEST_RC(MPI_Type_get_contents_c(t, 0, 0, 1, 1, NULL, NULL, &lc, &old));
    MTEST_CHECK(lc == n && old == MPI_BYTE, "Type_get_contents_c: count %lld", (long long)lc);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mtest_check_class(MPI_Type_get_envelope(t, &i1, &i2, &i3, &i4), MPI_ERR_TYPE,
                      "Type_get_envelope of a type made by Type_contiguous_c");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    MPI_Request r;
    MPI_Status st;
    if (mtest_rank == 1) {
        mtest_fill(buf, (size_t)n, 1, 2);
        MTEST_RC(MPI_Isend_c(buf, 1, t, 0, 6, MPI_COMM_WORLD, &r));
        MTEST_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        mtest_poison(buf, (size_t)n, 1, 2);
        mtest_guard_set(buf + n);
        MTEST_RC(MPI_Irecv_c(buf, 1, t, 1, 6, MPI_COMM_WORLD, &r));
        MTEST_RC(MPI_Wait(&r, &st));
        check_counts(&st, t, 1, n, "one contiguous_c(2^31 + 7)");
        check_counts(&st, MPI_BYTE, n, n, "one contiguous_c(2^31 + 7) in bytes");
        mtest_check_data(buf, (size_t)n, 1, 2, "Isend_c/Irecv_c of one contiguous_c(2^31 + 7)");
        mtest_guard_check(buf + n, "Irecv_c of one contiguous_c(2^31 + 7)");
    }
    MPI_Type_free(&t);
}

/* rank 0 -> rank 1 by Bsend_c through an attached buffer of more than 2^31 bytes. */
static void big_bsend(unsigned char *buf)
{
    const MPI_Count n = TWO31 + 5;
    MPI_Status st;
    if (mtest_rank == 0) {
        MPI_Count cap = n + MPI_BSEND_OVERHEAD + 64;
        unsigned char *b = mtest_malloc((size_t)cap);
        MTEST_RC(MPI_Buffer_attach_c(b, cap));
        mtest_fill(buf, (size_t)n, 0, 3);
        MTEST_RC(MPI_Bsend_c(buf, n, MPI_BYTE, 1, 7, MPI_COMM_WORLD));
        memset(buf, 0, 4096);          /* the buffered copy is what is sent */
        void *addr = NULL;
        int isize = 0;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        mtest_check_class(MPI_Buffer_detach(&addr, &isize), MPI_ERR_ARG,
                          "Buffer_detach (int) of a buffer of more than INT_MAX bytes");
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Count size = 0;
        MTEST_RC(MPI_Buffer_detach_c(&addr, &size));
        MTEST_CHECK(addr == b && size == cap, "Buffer_detach_c: %p %lld, expected %p %lld", addr, (long long)size,
                    (void *)b, (long long)cap);
        free(b);
    } else {
        mtest_poison(buf, (size_t)n, 0, 3);
        MTEST_RC(MPI_Recv_c(buf, n, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &st));
        check_counts(&st, MPI_BYTE, n, n, "Bsend_c of 2^31 + 5 bytes");
        mtest_check_data(buf, (size_t)n, 0, 3, "Bsend_c of 2^31 + 5 bytes");
    }
}

/* Pack_c of 2^31 + 5 bytes after a 16-byte head, so the position passes
 * 2^31; Unpack_c back from there. (rank 0; buf holds 2^31 + 16 + guard) */
static void big_pack(unsigned char *buf)
{
    const MPI_Count n = TWO31 + 5;
    unsigned char *packed = mtest_malloc((size_t)n + 16 + MTEST_GUARD);
    MPI_Count pos = 16, size = 0;
    MTEST_RC(MPI_Pack_size_c(n, MPI_BYTE, MPI_COMM_WORLD, &size));
    MTEST_CHECK(size == n, "Pack_size_c of 2^31 + 5 bytes is %lld", (long long)size);
    mtest_fill(buf, (size_t)n, 0, 4);
    mtest_guard_set(packed + n + 16);
    MTEST_RC(MPI_Pack_c(buf, n, MPI_BYTE, packed, n + 16, &pos, MPI_COMM_WORLD));
    MTEST_CHECK(pos == n + 16, "Pack_c: position %lld, expected %lld", (long long)pos, (long long)(n + 16));
    mtest_check_data(packed + 16, (size_t)n, 0, 4, "Pack_c of 2^31 + 5 bytes");
    mtest_guard_check(packed + n + 16, "Pack_c of 2^31 + 5 bytes");
    mtest_poison(buf, (size_t)n, 0, 4);
    pos = 16;
    MTEST_RC(MPI_Unpack_c(packed, n + 16, &pos, buf, n, MPI_BYTE, MPI_COMM_WORLD));
    MTEST_CHECK(pos == n + 16, "Unpack_c: position %lld", (long long)pos);
    mtest_check_data(buf, (size_t)n, 0, 4, "Unpack_c of 2^31 + 5 bytes");
    free(packed);
}

/* Types and statuses with counts above INT_MAX, described only. */
static void big_descriptions(void)
{
    const MPI_Count n = 3 * TWO31 / 2 + 1;   /* 3221225473 */
    MPI_Datatype v, hv, rs;
    MPI_Count size, lb, ext;
    MTEST_RC(MPI_Type_vector_c(n, 1, 2, MPI_INT, &v));
    MTEST_RC(MPI_Type_size_c(v, &size));
    MTEST_RC(MPI_Type_get_extent_c(v, &lb, &ext));
    MTEST_CHECK(size == n * 4 && lb == 0 && ext == (n - 1) * 8 + 4,
                "vector_c(%lld, 1, 2, MPI_INT): size %lld lb %lld extent %lld", (long long)n, (long long)size,
                (long long)lb, (long long)ext);
    MTEST_RC(MPI_Type_create_hvector_c(n, 2, -16, MPI_INT, &hv));
    MTEST_RC(MPI_Type_size_c(hv, &size));
    MTEST_RC(MPI_Type_get_extent_c(hv, &lb, &ext));
    MTEST_CHECK(size == n * 8 && lb == -(n - 1) * 16 && ext == (n - 1) * 16 + 8,
                "hvector_c(%lld, 2, -16, MPI_INT): size %lld lb %lld extent %lld", (long long)n, (long long)size,
                (long long)lb, (long long)ext);
    MTEST_RC(MPI_Type_create_resized_c(MPI_INT, -TWO31 * 3, TWO31 * 5, &rs));
    MTEST_RC(MPI_Type_get_extent_c(rs, &lb, &ext));
    MTEST_CHECK(lb == -TWO31 * 3 && ext == TWO31 * 5, "resized_c: lb %lld extent %lld", (long long)lb,
                (long long)ext);
    MPI_Count ni, na, nl, nd, lcs[3];
    int comb;
    MPI_Datatype old;
    MTEST_RC(MPI_Type_get_envelope_c(v, &ni, &na, &nl, &nd, &comb));
    MTEST_CHECK(ni == 0 && na == 0 && nl == 3 && nd == 1 && comb == MPI_COMBINER_VECTOR,
                "envelope_c of vector_c: %lld %lld %lld %lld %d", (long long)ni, (long long)na, (long long)nl,
                (long long)nd, comb);
    MTEST_RC(MPI_Type_get_contents_c(hv, 0, 0, 3, 1, NULL, NULL, lcs, &old));
    MTEST_CHECK(lcs[0] == n && lcs[1] == 2 && lcs[2] == -16 && old == MPI_INT,
                "contents_c of hvector_c: %lld %lld %lld", (long long)lcs[0], (long long)lcs[1], (long long)lcs[2]);
    MTEST_RC(MPI_Type_commit(&v));
    MPI_Count psize = 0;
    MTEST_RC(MPI_Pack_size_c(2, v, MPI_COMM_WORLD, &psize));
    MTEST_CHECK(psize == 2 * n * 4, "Pack_size_c of 2 vector_c: %lld", (long long)psize);
    MPI_Type_free(&v);
    MPI_Type_free(&hv);
    MPI_Type_free(&rs);

    /* a status that says 3 * 2^30 ints were received */
    MPI_Status st;
    memset(&st, 0, sizeof st);
    MTEST_RC(MPI_Status_set_elements_x(&st, MPI_INT, n));
    check_counts(&st, MPI_INT, n, n, "a status of 3221225473 ints");
    MPI_Count c = 0;
    MTEST_RC(MPI_Get_count_c(&st, MPI_SHORT, &c));
    MTEST_CHECK(c == 2 * n, "Get_count_c in shorts: %lld", (long long)c);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    t_start = MPI_Wtime();
    big_descriptions();
    if (mtest_size < 2) {
        printf("large_count_big: needs 2 processes for the messages\n");
        return mtest_finalize();
    }
    if (mtest_rank <= 1) {
        unsigned char *buf = mtest_malloc((size_t)(TWO31 + 16 + MTEST_GUARD));
        phase("send_recv_bytes");
        send_recv_bytes(buf);
        phase("big_contiguous");
        big_contiguous(buf);
        phase("big_bsend");
        big_bsend(buf);
        if (mtest_rank == 0) {
            phase("big_pack");
            big_pack(buf);
        }
        phase("done");
        free(buf);
    }
    return mtest_finalize();
}
