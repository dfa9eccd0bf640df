/*
 * alloc_mem: MPI_Alloc_mem and MPI_Free_mem.
 *
 * Blocks of 0 B to 4 MiB, with MPI_INFO_NULL, an empty info object and
 * MPI_INFO_ENV, are distinct, aligned to 64 bytes under dmpi (and to what
 * the MPI-4.1 key "mpi_minimum_memory_alignment" asks for), writable to their last
 * byte and usable as send and receive buffers around the ring. A thousand
 * blocks freed in a scrambled order all free cleanly; MPI_Free_mem(NULL)
 * is fine. Errors: negative size and NULL baseptr (MPI_ERR_ARG), an invalid
 * info (MPI_ERR_INFO), a size no machine has (MPI_ERR_NO_MEM), freeing what
 * MPI_Alloc_mem did not give or gave and took back (MPI_ERR_BASE).
 */
#include "mtest.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void test_sizes(void)
{
    static const MPI_Aint sizes[] = {0, 1, 7, 63, 64, 65, 4096, 100000, 4 << 20};
    enum { NS = sizeof sizes / sizeof sizes[0] };
    MPI_Info empty;
    MTEST_RC(MPI_Info_create(&empty));
    MPI_Info infos[3] = {MPI_INFO_NULL, empty, MPI_INFO_ENV};
    void *p[3][NS];
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < NS; i++) {
            p[k][i] = NULL;
            MTEST_RC(MPI_Alloc_mem(sizes[i], infos[k], &p[k][i]));
            MTEST_CHECK(p[k][i] != NULL, "Alloc_mem(%ld) gave NULL", (long)sizes[i]);
            if (!MTEST_MPICH_DEVIATION)     /* dmpi's promise; MPICH 4.0 aligns to 16 */
                MTEST_CHECK((uintptr_t)p[k][i] % 64 == 0, "Alloc_mem(%ld) gave %p, not 64-byte aligned",
                            (long)sizes[i], p[k][i]);
            if (p[k][i] && sizes[i])
                mtest_fill(p[k][i], (size_t)sizes[i], mtest_rank, k * NS + i);
        }
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < NS; i++) {
            if (p[k][i] && sizes[i])   /* nothing overlapped: every block still holds its pattern */
                mtest_check_data(p[k][i], (size_t)sizes[i], mtest_rank, k * NS + i, "block %d of %ld bytes", i,
                                 (long)sizes[i]);
            for (int j = 0; j < i; j++)
                MTEST_CHECK(p[k][j] != p[k][i], "blocks %d and %d are both %p", j, i, p[k][i]);
        }
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < NS; i++)
            MTEST_RC(MPI_Free_mem(p[k][i]));
    MTEST_RC(MPI_Free_mem(NULL));

    /* the alignment the program asks for */
    MTEST_RC(MPI_Info_set(empty, "mpi_minimum_memory_alignment", "4096"));
    for (int i = 0; i < 4; i++) {
        void *q = NULL;
        MTEST_RC(MPI_Alloc_mem(100 + i, empty, &q));
        if (!MTEST_MPICH_DEVIATION)     /* MPICH 4.0 does not know the key */
            MTEST_CHECK((uintptr_t)q % 4096 == 0, "with mpi_minimum_memory_alignment 4096: %p", q);
        MTEST_RC(MPI_Free_mem(q));
    }
    MTEST_RC(MPI_Info_free(&empty));
}

static void test_as_buffers(void)
{
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    size_t n = 1 << 20;
    char *out, *in;
    MTEST_RC(MPI_Alloc_mem((MPI_Aint)n, MPI_INFO_NULL, &out));
    MTEST_RC(MPI_Alloc_mem((MPI_Aint)n + MTEST_GUARD, MPI_INFO_NULL, &in));
    mtest_fill(out, n, mtest_rank, 3);
    mtest_poison(in, n, left, 3);
    mtest_guard_set(in + n);
    MPI_Request rq;
    MTEST_RC(MPI_Irecv(in, (int)n, MPI_BYTE, left, 3, MPI_COMM_WORLD, &rq));
    MTEST_RC(MPI_Send(out, (int)n, MPI_BYTE, right, 3, MPI_COMM_WORLD));
    MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    mtest_check_data(in, n, left, 3, "1 MiB received into MPI_Alloc_mem memory");
    mtest_guard_check(in + n, "behind the receive block");
    MTEST_RC(MPI_Free_mem(out));
    MTEST_RC(MPI_Free_mem(in));
}

static void test_many(void)
{
    enum { N = 1000 };
    static void *p[N];
    static int order[N];
    uint64_t seed = 12345 + (uint64_t)mtest_rank;
    for (int i = 0; i < N; i++) {
        MTEST_RC(MPI_Alloc_mem((MPI_Aint)(i % 97), MPI_INFO_NULL, &p[i]));
        order[i] = i;
    }
    for (int i = N - 1; i > 0; i--) {
        int j = (int)mtest_rand_range(&seed, 0, (size_t)i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < N; i++)
        MTEST_RC(MPI_Free_mem(p[order[i]]));
}

static void test_errors(void)
{
    void *p = NULL;
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    mtest_check_class(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p), MPI_ERR_ARG, "Alloc_mem(-1)");
    if (!MTEST_MPICH_DEVIATION) {   /* MPICH 4.0 asserts on a bad info handle, does not check the others */
        mtest_check_class(MPI_Alloc_mem(16, (MPI_Info)0x5c0000ff, &p), MPI_ERR_INFO,
                          "Alloc_mem with an invalid info");
        mtest_check_class(MPI_Alloc_mem(16, MPI_INFO_NULL, NULL), MPI_ERR_ARG, "Alloc_mem with a NULL baseptr");
        mtest_check_class(MPI_Alloc_mem((MPI_Aint)(((uint64_t)1 << 63) - 1), MPI_INFO_NULL, &p), MPI_ERR_NO_MEM,
                          "Alloc_mem of 2^63 - 1 bytes");
        int on_stack;
        mtest_check_class(MPI_Free_mem(&on_stack), MPI_ERR_BASE, "Free_mem of a stack address");
        MTEST_RC(MPI_Alloc_mem(8, MPI_INFO_NULL, &p));
        mtest_check_class(MPI_Free_mem((char *)p + 8), MPI_ERR_BASE, "Free_mem inside a block");
        MTEST_RC(MPI_Free_mem(p));
        mtest_check_class(MPI_Free_mem(p), MPI_ERR_BASE, "Free_mem twice");
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(MPI_Alloc_mem(-5, MPI_INFO_NULL, &p), msg, &len);
        MTEST_CHECK(strstr(msg, "MPI_Alloc_mem") && strstr(msg, "size"), "message '%s'", msg);
    }
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    test_sizes();
    test_as_buffers();
    test_many();
    test_errors();
    return mtest_finalize();
}
