/*
 * rma_win: window objects.
 *   - every flavor: Win_create on malloc'd memory and on MPI_Alloc_mem
 *     memory, Win_allocate (also with the same_size/same_disp_unit hints),
 *     Win_allocate_shared on the ranks that share a node, contiguous by
 *     default (rank r's segment begins where the one of the previous rank
 *     with a non-empty segment ends) and with alloc_shared_noncontig=true
 *     (segments of the right size that do not overlap), Win_create_dynamic
 *     with Win_attach/Win_detach of several regions;
 *   - windows of size 0 on some ranks (and on all), displacement units
 *     1, 2, 4, 8 differing per rank;
 *   - Win_shared_query of every rank (sizes, units, addresses) and of
 *     MPI_PROC_NULL (the lowest rank with a non-empty segment; size 0 when
 *     all are empty);
 *   - the attributes MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT,
 *     MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL (MPI_WIN_UNIFIED);
 *   - each window carries data: Put and Get between all ranks under fence,
 *     every target's whole window compared afterwards (bytes nobody
 *     targeted unchanged);
 *   - user keyvals: values set, replaced, deleted; delete callbacks run by
 *     Win_delete_attr, by replacing a value and by Win_free (with the window
 *     being freed and the extra state), also for a keyval freed before the
 *     window; MPI_WIN_NULL_COPY_FN and MPI_WIN_DUP_FN keyvals;
 *   - names: empty by default, set and read back, a second name replaces
 *     the first;
 *   - Win_get_group against the communicator's group (MPI_IDENT);
 *   - Win_set_info/Win_get_info (each get returns a new info object the
 *     caller frees);
 *   - Win_create_errhandler, Win_set/get_errhandler, Win_call_errhandler
 *     (the user handler sees the window and the code), a real error raised
 *     on the window reaching the user handler, MPI_ERRORS_RETURN;
 *   - 200 create/free cycles of all flavors with names and attributes, some
 *     carrying data.
 */
#include "rma_util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MPI_Comm shm;        /* the ranks of MPI_COMM_WORLD on this node */

/* Window sizes: some ranks have none (rank 0 among them when there are
 * more than one, so that MPI_PROC_NULL in Win_shared_query names another
 * rank); the others have odd sizes of at least 8 bytes per rank. */
static MPI_Aint size_of(int r, int n)
{
    if (r % 3 == 0 && r != n - 1)
        return 0;
    return 8 * n + 8 * r + 3;
}

/* MPICH 4.0's Win_allocate returns a base pointer that is not where the
 * window is (it aligns the window to 16 bytes but not the pointer) unless
 * the sizes are multiples of 16 */
static void allocate_sizes(MPI_Aint *sizes, int n)
{
    if (MTEST_MPICH_DEVIATION)
        for (int r = 0; r < n; r++)
            sizes[r] = (MPI_Aint)rma_round_up((size_t)sizes[r], 16);
}

static int unit_of(int r)
{
    return 1 << (r % 4);
}

static void check_attrs(MPI_Win win, const void *base, MPI_Aint size, int du, int flavor,
                        const char *what)
{
    void *b = NULL;
    MPI_Aint *sz = NULL;
    int *d = NULL, *fl = NULL, *model = NULL, flag = 0;
    MTEST_RC(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag));
    /* MPICH 4.0 gives NULL for a Win_create window of size 0 */
    MTEST_CHECK(flag && (b == base || (MTEST_MPICH_DEVIATION && size == 0 && !b)),
                "%s: MPI_WIN_BASE flag %d, %p, expected %p", what, flag, b, base);
    flag = 0;
    MTEST_RC(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    if (MTEST_CHECK(flag && sz, "%s: MPI_WIN_SIZE not found", what))
        MTEST_CHECK(*sz == size, "%s: MPI_WIN_SIZE %ld, expected %ld", what, (long)*sz,
                    (long)size);
    flag = 0;
    MTEST_RC(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &d, &flag));
    if (MTEST_CHECK(flag && d, "%s: MPI_WIN_DISP_UNIT not found", what))
        MTEST_CHECK(*d == du, "%s: MPI_WIN_DISP_UNIT %d, expected %d", what, *d, du);
    flag = 0;
    MTEST_RC(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &flag));
    if (MTEST_CHECK(flag && fl, "%s: MPI_WIN_CREATE_FLAVOR not found", what))
        MTEST_CHECK(*fl == flavor, "%s: MPI_WIN_CREATE_FLAVOR %d, expected %d", what, *fl, flavor);
    flag = 0;
    MTEST_RC(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    if (MTEST_CHECK(flag && model, "%s: MPI_WIN_MODEL not found", what))
        MTEST_CHECK(*model == MPI_WIN_UNIFIED, "%s: MPI_WIN_MODEL %d, expected MPI_WIN_UNIFIED %d",
                    what, *model, MPI_WIN_UNIFIED);
}

/* Data through a window of a static flavor: every rank's window holds
 * sizes[r] bytes with unit dus[r]; mem is this rank's.  Every rank puts 8
 * bytes at byte 8 * me of every window of at least 8 * n bytes, then gets
 * back what its right neighbour put at every target; the whole window is
 * compared between the epochs. */
static void exercise(MPI_Win win, MPI_Comm comm, unsigned char *mem, const MPI_Aint *sizes,
                     const int *dus, int salt, const char *what)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    size_t mysize = (size_t)sizes[me];
    unsigned char *want = mtest_malloc(mysize);
    unsigned char *src = mtest_malloc(8 * (size_t)n), *got = mtest_malloc(8 * (size_t)n);
    rma_fill(want, mysize, rma_seed(me, 4000, salt));
    if (mysize)
        memcpy(mem, want, mysize);
    for (int t = 0; t < n; t++)
        rma_fill(src + 8 * t, 8, rma_seed(me, t, salt));
    MTEST_RC(MPI_Win_fence(0, win));
    for (int t = 0; t < n; t++)
        if ((size_t)sizes[t] >= 8 * (size_t)n)
            MTEST_RC(MPI_Put(src + 8 * t, 8, MPI_BYTE, t, 8 * me / dus[t], 8, MPI_BYTE, win));
    MTEST_RC(MPI_Win_fence(0, win));
    if (mysize >= 8 * (size_t)n)
        for (int o = 0; o < n; o++)
            rma_fill(want + 8 * o, 8, rma_seed(o, me, salt));
    rma_compare(mem, want, mysize, "%s: window of rank %d after the puts", what, me);
    memset(got, 0, 8 * (size_t)n);
    int right = (me + 1) % n;
    for (int t = 0; t < n; t++)
        if ((size_t)sizes[t] >= 8 * (size_t)n)
            MTEST_RC(MPI_Get(got + 8 * t, 8, MPI_BYTE, t, 8 * right / dus[t], 8, MPI_BYTE, win));
    MTEST_RC(MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOPUT, win));
    for (int t = 0; t < n; t++) {
        if ((size_t)sizes[t] < 8 * (size_t)n)
            continue;
        unsigned char exp[8];
        rma_fill(exp, 8, rma_seed(right, t, salt));
        rma_compare(got + 8 * t, exp, 8, "%s: Get from rank %d of what rank %d put", what, t,
                    right);
    }
    rma_compare(mem, want, mysize, "%s: window of rank %d after the gets", what, me);
    free(want);
    free(src);
    free(got);
}

static void all_sizes(MPI_Comm comm, MPI_Aint *sizes, int *dus, int zero)
{
    int n;
    MPI_Comm_size(comm, &n);
    for (int r = 0; r < n; r++) {
        sizes[r] = zero ? 0 : size_of(r, n);
        dus[r] = unit_of(r);
    }
}

static void test_create(int allocmem)
{
    const char *what = allocmem ? "Win_create on MPI_Alloc_mem memory" : "Win_create on malloc memory";
    int n = mtest_size, me = mtest_rank;
    MPI_Aint *sizes = mtest_malloc(sizeof(MPI_Aint) * (size_t)n);
    int *dus = mtest_malloc(sizeof(int) * (size_t)n);
    for (int zero = 0; zero < 2; zero++) {
        all_sizes(MPI_COMM_WORLD, sizes, dus, zero);
        unsigned char *mem = NULL;
        if (allocmem) {
            MTEST_RC(MPI_Alloc_mem(sizes[me] ? sizes[me] : 1, MPI_INFO_NULL, &mem));
        } else if (sizes[me]) {
            mem = mtest_malloc((size_t)sizes[me]);
        }
        /* an empty window may have a NULL base (malloc case) */
        MPI_Win win = MPI_WIN_NULL;
        MTEST_RC(MPI_Win_create(mem, sizes[me], dus[me], MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        check_attrs(win, mem, sizes[me], dus[me], MPI_WIN_FLAVOR_CREATE, what);
        exercise(win, MPI_COMM_WORLD, mem, sizes, dus, 10 + allocmem * 2 + zero, what);
        MTEST_RC(MPI_Win_free(&win));
        MTEST_CHECK(win == MPI_WIN_NULL, "%s: Win_free did not set MPI_WIN_NULL", what);
        if (allocmem)
            MTEST_RC(MPI_Free_mem(mem));
        else
            free(mem);
    }
    free(sizes);
    free(dus);
}

static void test_allocate(void)
{
    const char *what = "Win_allocate";
    int n = mtest_size, me = mtest_rank;
    MPI_Aint *sizes = mtest_malloc(sizeof(MPI_Aint) * (size_t)n);
    int *dus = mtest_malloc(sizeof(int) * (size_t)n);
    for (int zero = 0; zero < 2; zero++) {
        all_sizes(MPI_COMM_WORLD, sizes, dus, zero);
        allocate_sizes(sizes, n);
        unsigned char *mem = NULL;
        MPI_Win win = MPI_WIN_NULL;
        MTEST_RC(MPI_Win_allocate(sizes[me], dus[me], MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
        MTEST_CHECK(sizes[me] == 0 || mem != NULL, "%s: baseptr NULL for %ld bytes", what,
                    (long)sizes[me]);
        check_attrs(win, mem, sizes[me], dus[me], MPI_WIN_FLAVOR_ALLOCATE, what);
        exercise(win, MPI_COMM_WORLD, mem, sizes, dus, 20 + zero, what);
        MTEST_RC(MPI_Win_free(&win));
    }
    /* the same size and unit everywhere, said with hints */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "same_size", "true");
    MPI_Info_set(info, "same_disp_unit", "true");
    /* a multiple of 64 (see allocate_sizes) */
    for (int r = 0; r < n; r++) {
        sizes[r] = (MPI_Aint)rma_round_up(8 * (size_t)n, 64);
        dus[r] = 4;
    }
    unsigned char *mem = NULL;
    MPI_Win win;
    MTEST_RC(MPI_Win_allocate(sizes[me], 4, info, MPI_COMM_WORLD, &mem, &win));
    MPI_Info_free(&info);
    check_attrs(win, mem, sizes[me], 4, MPI_WIN_FLAVOR_ALLOCATE, "Win_allocate same_size");
    exercise(win, MPI_COMM_WORLD, mem, sizes, dus, 22, "Win_allocate same_size");
    MTEST_RC(MPI_Win_free(&win));
    free(sizes);
    free(dus);
}

/* Win_allocate_shared on shm: contiguous (noncontig 0) or not. */
static void test_shared(int noncontig, int zero)
{
    char what[96];
    snprintf(what, sizeof what, "Win_allocate_shared%s%s", noncontig ? " noncontig" : "",
             zero ? " (all sizes 0)" : "");
    int n, me;
    MPI_Comm_size(shm, &n);
    MPI_Comm_rank(shm, &me);
    MPI_Aint *sizes = mtest_malloc(sizeof(MPI_Aint) * (size_t)n);
    int *dus = mtest_malloc(sizeof(int) * (size_t)n);
    all_sizes(shm, sizes, dus, zero);
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    unsigned char *mem = NULL;
    MPI_Win win = MPI_WIN_NULL;
    MTEST_RC(MPI_Win_allocate_shared(sizes[me], dus[me], info, shm, &mem, &win));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    check_attrs(win, mem, sizes[me], dus[me], MPI_WIN_FLAVOR_SHARED, what);

    unsigned char **bases = mtest_malloc(sizeof(unsigned char *) * (size_t)n);
    for (int r = 0; r < n; r++) {
        MPI_Aint sz = -1;
        int du = -1;
        bases[r] = NULL;
        MTEST_RC(MPI_Win_shared_query(win, r, &sz, &du, &bases[r]));
        /* MPICH 4.0 gives some other rank's unit when all segments are
         * empty; Open MPI 4.1 rounds noncontiguous segments up to pages */
        MTEST_CHECK((sz == sizes[r] || (noncontig && MTEST_OMPI_DEVIATION && sz >= sizes[r])) &&
                    (du == dus[r] || (zero && MTEST_MPICH_DEVIATION)),
                    "%s: Win_shared_query(%d) gives size %ld unit %d, expected %ld and %d", what,
                    r, (long)sz, du, (long)sizes[r], dus[r]);
        if (r == me && sizes[r] > 0)
            MTEST_CHECK(bases[r] == mem, "%s: Win_shared_query of my own rank gives %p, "
                        "baseptr was %p", what, (void *)bases[r], (void *)mem);
        if (sizes[r] > 0)
            MTEST_CHECK(bases[r] != NULL, "%s: Win_shared_query(%d): NULL base", what, r);
    }
    /* MPI_PROC_NULL: the lowest rank with a non-empty segment */
    int lowest = -1;
    for (int r = n - 1; r >= 0; r--)
        if (sizes[r] > 0)
            lowest = r;
    {
        MPI_Aint sz = -1;
        int du = -1;
        unsigned char *b = NULL;
        MTEST_RC(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &b));
        if (lowest >= 0)
            MTEST_CHECK((sz == sizes[lowest] || (noncontig && MTEST_OMPI_DEVIATION)) && du == dus[lowest] && b == bases[lowest],
                        "%s: Win_shared_query(MPI_PROC_NULL) gives size %ld unit %d base %p; "
                        "rank %d (the lowest with size > 0) has %ld, %d, %p", what, (long)sz, du,
                        (void *)b, lowest, (long)sizes[lowest], dus[lowest],
                        (void *)bases[lowest]);
        else
            MTEST_CHECK(sz == 0, "%s: Win_shared_query(MPI_PROC_NULL) with all sizes 0 gives "
                        "size %ld", what, (long)sz);
    }
    if (!noncontig) {
        int prev = -1;
        for (int r = 0; r < n; r++) {
            if (sizes[r] == 0)
                continue;
            if (prev >= 0)
                MTEST_CHECK(bases[r] == bases[prev] + sizes[prev], "%s: rank %d's segment "
                            "begins at %p, rank %d's (%ld bytes at %p) ends at %p", what, r,
                            (void *)bases[r], prev, (long)sizes[prev], (void *)bases[prev],
                            (void *)(bases[prev] + sizes[prev]));
            prev = r;
        }
    } else {
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++) {
                if (sizes[a] == 0 || sizes[b] == 0)
                    continue;
                MTEST_CHECK(bases[a] + sizes[a] <= bases[b] || bases[b] + sizes[b] <= bases[a],
                            "%s: the segments of ranks %d and %d overlap", what, a, b);
            }
    }
    /* load/store: each rank writes its segment, everybody reads all */
    MTEST_RC(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    rma_fill(mem, (size_t)sizes[me], rma_seed(me, 5000, noncontig));
    MTEST_RC(MPI_Win_sync(win));
    MPI_Barrier(shm);
    MTEST_RC(MPI_Win_sync(win));
    for (int r = 0; r < n; r++) {
        unsigned char *exp = mtest_malloc((size_t)sizes[r]);
        rma_fill(exp, (size_t)sizes[r], rma_seed(r, 5000, noncontig));
        rma_compare(bases[r], exp, (size_t)sizes[r], "%s: rank %d's segment read by load", what, r);
        free(exp);
    }
    MPI_Barrier(shm);
    MTEST_RC(MPI_Win_unlock_all(win));
    exercise(win, shm, mem, sizes, dus, 30 + noncontig * 2 + zero, what);
    MTEST_RC(MPI_Win_free(&win));
    free(bases);
    free(sizes);
    free(dus);
}

/* Dynamic windows: regions attached and detached while the window lives;
 * the targets' addresses exchanged by messages. */
static void test_dynamic(void)
{
    const char *what = "Win_create_dynamic";
    int n = mtest_size, me = mtest_rank;
    MPI_Win win = MPI_WIN_NULL;
    MTEST_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_attrs(win, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, what);
    MPI_Aint *addr = mtest_malloc(sizeof(MPI_Aint) * (size_t)n);
    size_t len = 8 * (size_t)n + 5;
    for (int round = 0; round < 3; round++) {
        /* region A malloc'd, region B from MPI_Alloc_mem; round 2 attaches
         * only B, at a new place */
        unsigned char *a = NULL, *b = NULL;
        int use_a = round != 2;
        if (use_a) {
            a = mtest_malloc(len);
            rma_fill(a, len, rma_seed(me, 6000, round));
            MTEST_RC(MPI_Win_attach(win, a, (MPI_Aint)len));
        }
        MTEST_RC(MPI_Alloc_mem((MPI_Aint)len, MPI_INFO_NULL, &b));
        rma_fill(b, len, rma_seed(me, 6001, round));
        MTEST_RC(MPI_Win_attach(win, b, (MPI_Aint)len));
        MPI_Aint ab;
        MPI_Get_address(use_a ? a : b, &ab);
        rma_allgather_aint(MPI_COMM_WORLD, ab, addr);
        MPI_Aint bb;
        MPI_Get_address(b, &bb);
        MPI_Aint *baddr = mtest_malloc(sizeof(MPI_Aint) * (size_t)n);
        rma_allgather_aint(MPI_COMM_WORLD, bb, baddr);
        unsigned char src[16];
        MTEST_RC(MPI_Win_lock_all(0, win));
        for (int t = 0; t < n; t++) {
            rma_fill(src, 16, rma_seed(me, t, 60 + round));
            MTEST_RC(MPI_Put(src, 8, MPI_BYTE, t, addr[t] + 8 * me, 8, MPI_BYTE, win));
            if (use_a)
                MTEST_RC(MPI_Put(src + 8, 8, MPI_BYTE, t, baddr[t] + 8 * me + 1, 8, MPI_BYTE, win));
            MTEST_RC(MPI_Win_flush(t, win));
        }
        MTEST_RC(MPI_Win_unlock_all(win));
        MPI_Barrier(MPI_COMM_WORLD);
        unsigned char *wa = mtest_malloc(len), *wb = mtest_malloc(len);
        rma_fill(wa, len, rma_seed(me, 6000, round));
        rma_fill(wb, len, rma_seed(me, 6001, round));
        for (int o = 0; o < n; o++) {
            rma_fill(src, 16, rma_seed(o, me, 60 + round));
            memcpy((use_a ? wa : wb) + 8 * o, src, 8);
        }
        if (use_a)
            for (int o = 0; o < n; o++) {
                rma_fill(src, 16, rma_seed(o, me, 60 + round));
                memcpy(wb + 8 * o + 1, src + 8, 8);
            }
        MTEST_RC(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
        if (use_a)
            rma_compare(a, wa, len, "%s round %d: region A", what, round);
        rma_compare(b, wb, len, "%s round %d: region B", what, round);
        MTEST_RC(MPI_Win_unlock(me, win));
        MPI_Barrier(MPI_COMM_WORLD);
        if (use_a)
            MTEST_RC(MPI_Win_detach(win, a));
        MTEST_RC(MPI_Win_detach(win, b));
        free(a);
        MPI_Free_mem(b);
        free(wa);
        free(wb);
        free(baddr);
    }
    check_attrs(win, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, "Win_create_dynamic after detaching");
    MTEST_RC(MPI_Win_free(&win));
    free(addr);
}

/* ---- attributes ---------------------------------------------------------- */

static int deletes;
static MPI_Win deleted_win;
static intptr_t deleted_val;
static int extra_state;

static int copy_never(MPI_Win old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)kv, (void)extra, (void)in, (void)out;
    mtest_fail("a window attribute copy callback ran (windows are never duplicated)");
    *flag = 0;
    return MPI_SUCCESS;
}

static int on_delete(MPI_Win win, int kv, void *val, void *extra)
{
    (void)kv;
    MTEST_CHECK(extra == &extra_state, "delete callback: wrong extra_state");
    deletes++;
    deleted_win = win;
    deleted_val = (intptr_t)val;
    return MPI_SUCCESS;
}

static void test_keyvals(void)
{
    int kv, kv_null, kv_dup, flag;
    void *v;
    MPI_Win win, win2;
    unsigned char *mem, *mem2;
    MTEST_RC(MPI_Win_create_keyval(copy_never, on_delete, &kv, &extra_state));
    MTEST_RC(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kv_null, NULL));
    MTEST_RC(MPI_Win_create_keyval(MPI_WIN_DUP_FN, on_delete, &kv_dup, &extra_state));
    MTEST_RC(MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    MTEST_RC(MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem2, &win2));

    MTEST_RC(MPI_Win_get_attr(win, kv, &v, &flag));
    MTEST_CHECK(!flag, "an attribute never set is found");
    MTEST_RC(MPI_Win_set_attr(win, kv, (void *)(intptr_t)101));
    MTEST_RC(MPI_Win_set_attr(win2, kv, (void *)(intptr_t)201));
    MTEST_RC(MPI_Win_set_attr(win, kv_null, (void *)(intptr_t)102));
    MTEST_RC(MPI_Win_get_attr(win, kv, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 101, "get_attr: flag %d value %ld, want 101", flag,
                (long)(intptr_t)v);
    MTEST_RC(MPI_Win_get_attr(win2, kv, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 201, "get_attr on the second window: flag %d value %ld, "
                "want 201", flag, (long)(intptr_t)v);
    MTEST_RC(MPI_Win_get_attr(win, kv_null, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 102, "MPI_WIN_NULL_COPY_FN keyval: flag %d value %ld", flag,
                (long)(intptr_t)v);

    /* replacing a value deletes the old one */
    deletes = 0;
    MTEST_RC(MPI_Win_set_attr(win, kv, (void *)(intptr_t)103));
    MTEST_CHECK(deletes == 1 && deleted_win == win && deleted_val == 101,
                "replacing a value: %d delete callbacks (value %ld), want 1 (101)", deletes,
                (long)deleted_val);
    /* Win_delete_attr */
    MTEST_RC(MPI_Win_delete_attr(win, kv));
    MTEST_CHECK(deletes == 2 && deleted_val == 103, "Win_delete_attr: %d delete callbacks in all "
                "(last value %ld), want 2 (103)", deletes, (long)deleted_val);
    MTEST_RC(MPI_Win_get_attr(win, kv, &v, &flag));
    MTEST_CHECK(!flag, "a deleted attribute is still found");
    MTEST_RC(MPI_Win_get_attr(win2, kv, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 201, "deleting on one window removed the other's value");

    /* Win_free runs the callbacks of what is left, also for a keyval
     * already freed */
    MTEST_RC(MPI_Win_set_attr(win, kv, (void *)(intptr_t)104));
    MTEST_RC(MPI_Win_set_attr(win, kv_dup, (void *)(intptr_t)105));
    int saved = kv;
    MTEST_RC(MPI_Win_free_keyval(&kv));
    MTEST_CHECK(kv == MPI_KEYVAL_INVALID, "Win_free_keyval did not set MPI_KEYVAL_INVALID");
    MTEST_RC(MPI_Win_get_attr(win, saved, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 104, "a freed keyval no longer finds its attribute");
    deletes = 0;
    MPI_Win freed = win;
    MTEST_RC(MPI_Win_free(&win));
    MTEST_CHECK(deletes == 2, "Win_free ran %d delete callbacks, want 2", deletes);
    MTEST_CHECK(deleted_win == freed, "Win_free: the delete callback was given another window");
    deletes = 0;
    MTEST_RC(MPI_Win_free(&win2));
    MTEST_CHECK(deletes == 1 && deleted_val == 201, "Win_free of the second window: %d delete "
                "callbacks (value %ld), want 1 (201)", deletes, (long)deleted_val);
    MTEST_RC(MPI_Win_free_keyval(&kv_null));
    MTEST_RC(MPI_Win_free_keyval(&kv_dup));
}

static void test_names(void)
{
    MPI_Win win;
    unsigned char *mem;
    char name[MPI_MAX_OBJECT_NAME + 8];
    int len = -1;
    MTEST_RC(MPI_Win_allocate(16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    memset(name, 'x', sizeof name);
    MTEST_RC(MPI_Win_get_name(win, name, &len));
    /* Open MPI 4.1 names its windows "rdma window N" */
    if (!MTEST_OMPI_DEVIATION)
        MTEST_CHECK(len == 0 && name[0] == '\0', "default window name: length %d, \"%.20s\"",
                    len, name);
    MTEST_RC(MPI_Win_set_name(win, "first window name"));
    MTEST_RC(MPI_Win_get_name(win, name, &len));
    MTEST_CHECK(len == 17 && strcmp(name, "first window name") == 0, "name \"%s\" (length %d)",
                name, len);
    /* the longest name allowed */
    char longest[MPI_MAX_OBJECT_NAME];
    memset(longest, 'w', sizeof longest - 1);
    longest[sizeof longest - 1] = '\0';
    MTEST_RC(MPI_Win_set_name(win, longest));
    MTEST_RC(MPI_Win_get_name(win, name, &len));
    MTEST_CHECK(len == MPI_MAX_OBJECT_NAME - 1 && strcmp(name, longest) == 0,
                "a name of MPI_MAX_OBJECT_NAME - 1 chars came back with length %d", len);
    MTEST_RC(MPI_Win_set_name(win, "w2"));
    MTEST_RC(MPI_Win_get_name(win, name, &len));
    MTEST_CHECK(len == 2 && strcmp(name, "w2") == 0, "renamed window: \"%s\" (length %d)", name,
                len);
    MTEST_RC(MPI_Win_free(&win));
}

static void test_group(void)
{
    MPI_Comm comms[3] = {MPI_COMM_WORLD, shm, MPI_COMM_SELF};
    for (int i = 0; i < 3; i++) {
        MPI_Win win;
        void *mem;
        MPI_Group g, cg;
        int res = -1;
        MTEST_RC(MPI_Win_allocate(8, 1, MPI_INFO_NULL, comms[i], &mem, &win));
        MTEST_RC(MPI_Win_get_group(win, &g));
        MPI_Comm_group(comms[i], &cg);
        MTEST_RC(MPI_Group_compare(g, cg, &res));
        MTEST_CHECK(res == MPI_IDENT, "Win_get_group on communicator %d: Group_compare gives %d, "
                    "expected MPI_IDENT", i, res);
        MPI_Group_free(&g);
        MPI_Group_free(&cg);
        MTEST_RC(MPI_Win_free(&win));
    }
    /* a reversed communicator: the window's group follows its order */
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, mtest_size - mtest_rank, &rev);
    MPI_Win win;
    MTEST_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, rev, &win));
    MPI_Group g, wg;
    MTEST_RC(MPI_Win_get_group(win, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int r0 = 0, w0 = -1;
    MPI_Group_translate_ranks(g, 1, &r0, wg, &w0);
    MTEST_CHECK(w0 == mtest_size - 1, "window on a reversed communicator: its rank 0 is world "
                "rank %d, expected %d", w0, mtest_size - 1);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    MTEST_RC(MPI_Win_free(&win));
    MPI_Comm_free(&rev);
}

static void test_info(void)
{
    MPI_Info info, got1 = MPI_INFO_NULL, got2 = MPI_INFO_NULL;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "false");
    MPI_Info_set(info, "accumulate_ordering", "rar,raw,war,waw");
    MPI_Info_set(info, "accumulate_ops", "same_op_no_op");
    MPI_Info_set(info, "dmpi_test_unknown_key", "whatever");
    void *mem;
    MPI_Win win;
    MTEST_RC(MPI_Win_allocate(32, 1, info, MPI_COMM_WORLD, &mem, &win));
    MTEST_RC(MPI_Win_get_info(win, &got1));
    MTEST_RC(MPI_Win_get_info(win, &got2));
    MTEST_CHECK(got1 != MPI_INFO_NULL && got2 != MPI_INFO_NULL, "Win_get_info returned MPI_INFO_NULL");
    MTEST_CHECK(got1 != got2 && got1 != info, "Win_get_info did not return a new info object");
    int nkeys = -1;
    if (got1 != MPI_INFO_NULL) {
        MTEST_RC(MPI_Info_get_nkeys(got1, &nkeys));
        MTEST_CHECK(nkeys >= 0, "Info_get_nkeys of Win_get_info's result: %d", nkeys);
        /* the caller owns it: changing it leaves the window and the other
         * copy alone */
        MTEST_RC(MPI_Info_set(got1, "no_locks", "true"));
        MTEST_RC(MPI_Info_free(&got1));
    }
    if (got2 != MPI_INFO_NULL) {
        char val[64];
        int flag = 0;
#if MPI_VERSION >= 4
        int vlen = sizeof val;
        MTEST_RC(MPI_Info_get_string(got2, "no_locks", &vlen, val, &flag));
#else
        MTEST_RC(MPI_Info_get(got2, "no_locks", sizeof val - 1, val, &flag));
#endif
        MTEST_CHECK(!flag || strcmp(val, "false") == 0, "no_locks in Win_get_info is \"%s\"", val);
        MTEST_RC(MPI_Info_free(&got2));
    }
    /* set_info with new hints, then get again */
    MPI_Info_free(&info);
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ops", "same_op");
    MTEST_RC(MPI_Win_set_info(win, info));
    MPI_Info_free(&info);
    MTEST_RC(MPI_Win_get_info(win, &got1));
    if (got1 != MPI_INFO_NULL)
        MTEST_RC(MPI_Info_free(&got1));
    /* the window still works with locks (no_locks was false) */
    int v = mtest_rank + 1;
    MTEST_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, mtest_rank, 0, win));
    MTEST_RC(MPI_Put(&v, 1, MPI_INT, mtest_rank, 0, 1, MPI_INT, win));
    MTEST_RC(MPI_Win_unlock(mtest_rank, win));
    MTEST_RC(MPI_Win_lock(MPI_LOCK_SHARED, mtest_rank, 0, win));
    MTEST_CHECK(*(int *)mem == v, "Put to myself: %d, expected %d", *(int *)mem, v);
    MTEST_RC(MPI_Win_unlock(mtest_rank, win));
    MTEST_RC(MPI_Win_free(&win));
}

/* ---- error handlers -------------------------------------------------------- */

static int handler_calls;
static MPI_Win handler_win;
static int handler_code;

static void win_handler(MPI_Win *win, int *code, ...)
{
    handler_calls++;
    handler_win = *win;
    handler_code = *code;
}

static void test_errhandler(void)
{
    MPI_Errhandler eh, got;
    void *mem;
    MPI_Win win;
    MTEST_RC(MPI_Win_allocate(16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    MTEST_RC(MPI_Win_create_errhandler(win_handler, &eh));
    MTEST_RC(MPI_Win_set_errhandler(win, eh));
    MTEST_RC(MPI_Win_get_errhandler(win, &got));
    MTEST_CHECK(got == eh, "Win_get_errhandler does not return the handler set");
    MTEST_RC(MPI_Errhandler_free(&got));
    /* the window keeps the handler after the program freed its handle */
    MTEST_RC(MPI_Errhandler_free(&eh));
    MTEST_CHECK(eh == MPI_ERRHANDLER_NULL, "Errhandler_free did not set MPI_ERRHANDLER_NULL");

    handler_calls = 0;
    handler_win = MPI_WIN_NULL;
    int rc = MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
    MTEST_CHECK(rc == MPI_SUCCESS, "Win_call_errhandler with a handler that returns: rc %d", rc);
    MTEST_CHECK(handler_calls == 1 && handler_win == win && handler_code == MPI_ERR_OTHER,
                "Win_call_errhandler: handler ran %d times, code %d (want 1, MPI_ERR_OTHER, the "
                "window)", handler_calls, handler_code);
    /* an error the library finds reaches the handler */
    handler_calls = 0;
    rc = MPI_Win_lock(424242, mtest_rank, 0, win);
    MTEST_CHECK(handler_calls == 1 && handler_win == win, "an invalid lock type: the window's "
                "handler ran %d times", handler_calls);
    /* MPICH 4.0 says MPI_ERR_ARG */
    int locktype = MTEST_MPICH_DEVIATION ? MPI_ERR_ARG : MPI_ERR_LOCKTYPE;
    if (handler_calls == 1)
        rma_check_class(handler_code, locktype, "code given to the handler for an invalid lock "
                        "type");
    rma_check_class(rc, locktype, "Win_lock with an invalid lock type, user handler");

    /* MPI_ERRORS_RETURN: the handler is no longer called */
    MTEST_RC(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MTEST_RC(MPI_Win_get_errhandler(win, &got));
    MTEST_CHECK(got == MPI_ERRORS_RETURN, "Win_get_errhandler after setting MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&got);
    handler_calls = 0;
    rc = MPI_Win_lock(424242, mtest_rank, 0, win);
    rma_check_class(rc, locktype, "Win_lock with an invalid lock type, MPI_ERRORS_RETURN");
    MTEST_CHECK(handler_calls == 0, "the old handler ran after MPI_ERRORS_RETURN was set");
    MTEST_RC(MPI_Win_free(&win));
}

/* ---- many windows ------------------------------------------------------------ */

static int cycle_deletes;

static int cycle_delete(MPI_Win win, int kv, void *val, void *extra)
{
    (void)win, (void)kv, (void)extra;
    if ((intptr_t)val == 77)
        cycle_deletes++;
    return MPI_SUCCESS;
}

static void test_cycles(int ncycles)
{
    int kv;
    MTEST_RC(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, cycle_delete, &kv, NULL));
    int n = mtest_size, me = mtest_rank, snum, sme;
    MPI_Comm_size(shm, &snum);
    MPI_Comm_rank(shm, &sme);
    MPI_Aint *sizes = mtest_malloc(sizeof(MPI_Aint) * (size_t)n);
    int *dus = mtest_malloc(sizeof(int) * (size_t)n);
    unsigned char *buf = mtest_malloc(16 * (size_t)n + 64);
    cycle_deletes = 0;
    MPI_Win keep[3] = {MPI_WIN_NULL, MPI_WIN_NULL, MPI_WIN_NULL};
    for (int i = 0; i < ncycles; i++) {
        int flavor = i % 4;
        MPI_Comm comm = flavor == 2 ? shm : MPI_COMM_WORLD;
        all_sizes(comm, sizes, dus, 0);
        if (flavor == 1)
            allocate_sizes(sizes, n);
        int r = flavor == 2 ? sme : me;
        MPI_Win win = MPI_WIN_NULL;
        unsigned char *mem = NULL;
        switch (flavor) {
        case 0:
            MTEST_RC(MPI_Win_create(buf, sizes[r], dus[r], MPI_INFO_NULL, comm, &win));
            mem = buf;
            break;
        case 1:
            MTEST_RC(MPI_Win_allocate(sizes[r], dus[r], MPI_INFO_NULL, comm, &mem, &win));
            break;
        case 2:
            MTEST_RC(MPI_Win_allocate_shared(sizes[r], dus[r], MPI_INFO_NULL, comm, &mem, &win));
            break;
        default:
            MTEST_RC(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &win));
            break;
        }
        char name[32], got[MPI_MAX_OBJECT_NAME];
        int len;
        snprintf(name, sizeof name, "cycle %d", i);
        MTEST_RC(MPI_Win_set_name(win, name));
        MTEST_RC(MPI_Win_set_attr(win, kv, (void *)(intptr_t)77));
        MTEST_RC(MPI_Win_get_name(win, got, &len));
        MTEST_CHECK(strcmp(got, name) == 0, "cycle %d: name \"%s\"", i, got);
        if (flavor != 3 && i % 20 < 4)
            exercise(win, comm, mem, sizes, dus, 1000 + i, name);
        /* a few stay alive across later cycles */
        if (i % 50 < 3 && keep[i % 50] == MPI_WIN_NULL && flavor != 0) {
            keep[i % 50] = win;
            continue;
        }
        MTEST_RC(MPI_Win_free(&win));
    }
    for (int k = 0; k < 3; k++)
        if (keep[k] != MPI_WIN_NULL)
            MTEST_RC(MPI_Win_free(&keep[k]));
    MTEST_CHECK(cycle_deletes == ncycles, "%d create/free cycles ran %d delete callbacks", ncycles,
                cycle_deletes);
    MTEST_RC(MPI_Win_free_keyval(&kv));
    free(sizes);
    free(dus);
    free(buf);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    test_create(0);
    test_create(1);
    test_allocate();
    test_shared(0, 0);
    test_shared(1, 0);
    test_shared(0, 1);
    test_dynamic();
    test_keyvals();
    test_names();
    test_group();
    test_info();
    test_errhandler();
    test_cycles(argc > 1 ? atoi(argv[1]) : 200);
    MPI_Comm_free(&shm);
    return mtest_finalize();
}
