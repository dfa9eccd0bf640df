/*
 * rma_shared: load/store on shared-memory windows (Win_allocate_shared on
 * the MPI_COMM_TYPE_SHARED split of MPI_COMM_WORLD).
 *   - segments of different sizes and displacement units per rank; every
 *     rank's segment found with Win_shared_query, the contiguous layout
 *     checked against the sizes (rank r + 1's segment right after rank r's)
 *     and with alloc_shared_noncontig=true segments that do not overlap;
 *   - rounds in which every rank stores into its own segment and into an
 *     inbox in its right neighbour's, then loads its neighbours' segments
 *     and its own inbox, synchronised
 *       (a) by Win_sync + MPI_Barrier + Win_sync inside one long
 *           lock_all(MPI_MODE_NOCHECK) epoch,
 *       (b) by a lock_all epoch per round: stores, Win_sync, unlock_all,
 *           barrier, then loads in the next lock_all epoch after Win_sync,
 *       (c) by Win_fence;
 *   - mixed: stores read by MPI_Get, MPI_Put read by loads, Accumulate
 *     into a counter in every segment read by loads, Fetch_and_op on a
 *     value written by a store;
 *   - all of it on the contiguous and on the noncontiguous layout.
 */
#include "rma_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INBOX 16                  /* ints of each segment's inbox */

static MPI_Comm shm;
static int me, n;

typedef struct {
    MPI_Win win;
    int noncontig;
    int **seg;                    /* every rank's segment, by Win_shared_query */
    MPI_Aint *size;
    int *du;
    int *count;                   /* data ints of every rank (before the inbox) */
} sh_t;

static int data_ints(int r)
{
    return 100 + 37 * r;
}

static int value(int r, int round, int i)
{
    return (int)(rma_mix(((uint64_t)(uint32_t)r << 40) ^ ((uint64_t)(uint32_t)round << 20) ^
                         (uint64_t)(uint32_t)i) & 0x7fffffff);
}

static void sh_create(sh_t *s, int noncontig)
{
    memset(s, 0, sizeof *s);
    s->noncontig = noncontig;
    s->seg = mtest_malloc(sizeof(int *) * (size_t)n);
    s->size = mtest_malloc(sizeof(MPI_Aint) * (size_t)n);
    s->du = mtest_malloc(sizeof(int) * (size_t)n);
    s->count = mtest_malloc(sizeof(int) * (size_t)n);
    for (int r = 0; r < n; r++)
        s->count[r] = data_ints(r);
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    /* units differ per rank: 4 or 1 (only the queried unit matters) */
    int du = me % 2 ? 1 : 4;
    MPI_Aint bytes = (MPI_Aint)sizeof(int) * (data_ints(me) + INBOX + 1);
    int *mine = NULL;
    MTEST_RC(MPI_Win_allocate_shared(bytes, du, info, shm, &mine, &s->win));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    for (int r = 0; r < n; r++) {
        s->seg[r] = NULL;
        MTEST_RC(MPI_Win_shared_query(s->win, r, &s->size[r], &s->du[r], &s->seg[r]));
        MPI_Aint want = (MPI_Aint)sizeof(int) * (data_ints(r) + INBOX + 1);
        /* Open MPI 4.1 rounds noncontiguous segments up to pages */
        MTEST_CHECK(s->size[r] == want || (noncontig && MTEST_OMPI_DEVIATION && s->size[r] >= want),
                    "Win_shared_query(%d): size %ld, expected %ld", r, (long)s->size[r],
                    (long)want);
        MTEST_CHECK(s->du[r] == (r % 2 ? 1 : 4), "Win_shared_query(%d): unit %d, expected %d", r,
                    s->du[r], r % 2 ? 1 : 4);
        MTEST_CHECK(s->seg[r] != NULL, "Win_shared_query(%d): NULL base", r);
    }
    MTEST_CHECK(s->seg[me] == mine, "Win_shared_query of my rank gives %p, the allocation %p",
                (void *)s->seg[me], (void *)mine);
    for (int r = 0; r + 1 < n; r++) {
        char *end = (char *)s->seg[r] + s->size[r], *next = (char *)s->seg[r + 1];
        if (!noncontig)
            MTEST_CHECK(next == end, "contiguous segments: rank %d's begins at %p, rank %d's ends "
                        "at %p", r + 1, (void *)next, r, (void *)end);
    }
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            char *pa = (char *)s->seg[a], *pb = (char *)s->seg[b];
            MTEST_CHECK(pa + s->size[a] <= pb || pb + s->size[b] <= pa, "the segments of ranks %d "
                        "and %d overlap", a, b);
        }
}

static void sh_free(sh_t *s)
{
    MTEST_RC(MPI_Win_free(&s->win));
    free(s->seg);
    free(s->size);
    free(s->du);
    free(s->count);
}

static int *inbox(sh_t *s, int r)
{
    return s->seg[r] + s->count[r];
}

/* Stores of round k: my data, and my right neighbour's inbox. */
static void store(sh_t *s, int k)
{
    int right = (me + 1) % n;
    for (int i = 0; i < s->count[me]; i++)
        s->seg[me][i] = value(me, k, i);
    for (int i = 0; i < INBOX; i++)
        inbox(s, right)[i] = value(me, k, 100000 + i);
}

static int load_check(sh_t *s, int k, const char *how)
{
    int left = (me - 1 + n) % n, right = (me + 1) % n, bad = 0;
    int who[3] = {left, me, right};
    for (int w = 0; w < 3; w++) {
        int r = who[w];
        for (int i = 0; i < s->count[r]; i++)
            if (s->seg[r][i] != value(r, k, i)) {
                if (bad++ == 0)
                    mtest_fail("%s%s round %d: rank %d's int %d loads as %d, expected %d", how,
                               s->noncontig ? " (noncontig)" : "", k, r, i, s->seg[r][i],
                               value(r, k, i));
            }
    }
    for (int i = 0; i < INBOX; i++)
        if (inbox(s, me)[i] != value(left, k, 100000 + i)) {
            if (bad++ == 0)
                mtest_fail("%s%s round %d: my inbox int %d loads as %d, expected rank %d's %d", how,
                           s->noncontig ? " (noncontig)" : "", k, i, inbox(s, me)[i], left,
                           value(left, k, 100000 + i));
        }
    return bad;
}

static void rounds_sync(sh_t *s, int nrounds)
{
    MTEST_RC(MPI_Win_lock_all(MPI_MODE_NOCHECK, s->win));
    for (int k = 0; k < nrounds; k++) {
        store(s, k);
        MTEST_RC(MPI_Win_sync(s->win));
        MPI_Barrier(shm);
        MTEST_RC(MPI_Win_sync(s->win));
        load_check(s, k, "Win_sync + barrier");
        /* nobody stores the next round before everybody has loaded */
        MTEST_RC(MPI_Win_sync(s->win));
        MPI_Barrier(shm);
        MTEST_RC(MPI_Win_sync(s->win));
    }
    MTEST_RC(MPI_Win_unlock_all(s->win));
}

static void rounds_lock_all(sh_t *s, int nrounds)
{
    for (int k = 0; k < nrounds; k++) {
        MTEST_RC(MPI_Win_lock_all(0, s->win));
        store(s, 1000 + k);
        MTEST_RC(MPI_Win_sync(s->win));
        MTEST_RC(MPI_Win_unlock_all(s->win));
        MPI_Barrier(shm);
        MTEST_RC(MPI_Win_lock_all(0, s->win));
        MTEST_RC(MPI_Win_sync(s->win));
        load_check(s, 1000 + k, "lock_all epochs");
        MTEST_RC(MPI_Win_unlock_all(s->win));
        MPI_Barrier(shm);
    }
}

static void rounds_fence(sh_t *s, int nrounds)
{
    MTEST_RC(MPI_Win_fence(0, s->win));
    for (int k = 0; k < nrounds; k++) {
        store(s, 2000 + k);
        MTEST_RC(MPI_Win_fence(0, s->win));
        load_check(s, 2000 + k, "Win_fence");
        MTEST_RC(MPI_Win_fence(0, s->win));
    }
    MTEST_RC(MPI_Win_fence(MPI_MODE_NOSUCCEED, s->win));
}

/* Stores read with MPI_Get, MPI_Put read with loads, Accumulate counted by
 * loads, Fetch_and_op on a stored value. */
static void mixed(sh_t *s)
{
    int left = (me - 1 + n) % n, right = (me + 1) % n;
    int cnt_index = s->count[me] + INBOX;      /* the int after the inbox */
    MTEST_RC(MPI_Win_lock_all(0, s->win));
    store(s, 3000);
    s->seg[me][cnt_index] = 0;
    MTEST_RC(MPI_Win_sync(s->win));
    MPI_Barrier(shm);
    MTEST_RC(MPI_Win_sync(s->win));

    /* MPI_Get of my right neighbour's stores; disp in its unit */
    int cr = s->count[right];
    int *buf = mtest_malloc(sizeof(int) * (size_t)cr);
    MTEST_RC(MPI_Get(buf, cr, MPI_INT, right, 0, cr, MPI_INT, s->win));
    MTEST_RC(MPI_Win_flush(right, s->win));
    for (int i = 0; i < cr; i++)
        if (!MTEST_CHECK(buf[i] == value(right, 3000, i), "MPI_Get of rank %d's stored int %d: %d, "
                         "expected %d", right, i, buf[i], value(right, 3000, i)))
            break;
    free(buf);
    MTEST_RC(MPI_Win_sync(s->win));
    MPI_Barrier(shm);   /* everybody has read before anybody overwrites */
    MTEST_RC(MPI_Win_sync(s->win));

    /* MPI_Put into my right neighbour's inbox; it loads it */
    int msg[INBOX];
    for (int i = 0; i < INBOX; i++)
        msg[i] = value(me, 3001, i);
    MPI_Aint inbox_disp = (MPI_Aint)(s->count[right] * (int)sizeof(int)) / s->du[right];
    MTEST_RC(MPI_Put(msg, INBOX, MPI_INT, right, inbox_disp, INBOX, MPI_INT, s->win));
    /* and everybody adds me + 1 to every counter */
    int add = me + 1;
    for (int r = 0; r < n; r++) {
        MPI_Aint d = (MPI_Aint)((s->count[r] + INBOX) * (int)sizeof(int)) / s->du[r];
        MTEST_RC(MPI_Accumulate(&add, 1, MPI_INT, r, d, 1, MPI_INT, MPI_SUM, s->win));
    }
    MTEST_RC(MPI_Win_flush_all(s->win));
    MTEST_RC(MPI_Win_sync(s->win));
    MPI_Barrier(shm);
    MTEST_RC(MPI_Win_sync(s->win));
    for (int i = 0; i < INBOX; i++)
        if (!MTEST_CHECK(inbox(s, me)[i] == value(left, 3001, i), "load of what rank %d put into "
                         "my inbox, int %d: %d, expected %d", left, i, inbox(s, me)[i],
                         value(left, 3001, i)))
            break;
    int want = n * (n + 1) / 2;
    for (int r = 0; r < n; r++)
        MTEST_CHECK(s->seg[r][s->count[r] + INBOX] == want, "load of rank %d's counter after "
                    "everybody's Accumulate: %d, expected %d", r, s->seg[r][s->count[r] + INBOX],
                    want);
    MTEST_RC(MPI_Win_sync(s->win));
    MPI_Barrier(shm);
    MTEST_RC(MPI_Win_sync(s->win));

    /* a store, then Fetch_and_op by the neighbour sees it */
    if (me == 0) {
        s->seg[0][0] = 4242;
    }
    MTEST_RC(MPI_Win_sync(s->win));
    MPI_Barrier(shm);
    MTEST_RC(MPI_Win_sync(s->win));
    int one = 1, got = -1;
    MTEST_RC(MPI_Fetch_and_op(&one, &got, MPI_INT, 0, 0, MPI_SUM, s->win));
    MTEST_RC(MPI_Win_flush(0, s->win));
    MTEST_CHECK(got >= 4242 && got < 4242 + n, "Fetch_and_op on rank 0's stored 4242 fetched %d",
                got);
    MTEST_RC(MPI_Win_sync(s->win));
    MPI_Barrier(shm);
    MTEST_RC(MPI_Win_sync(s->win));
    MTEST_CHECK(s->seg[0][0] == 4242 + n, "load after %d Fetch_and_op: %d, expected %d", n,
                s->seg[0][0], 4242 + n);
    MTEST_RC(MPI_Win_unlock_all(s->win));
    MPI_Barrier(shm);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    MPI_Comm_rank(shm, &me);
    MPI_Comm_size(shm, &n);
    int nrounds = argc > 1 ? atoi(argv[1]) : 20;
    for (int noncontig = 0; noncontig < 2; noncontig++) {
        sh_t s;
        sh_create(&s, noncontig);
        rounds_sync(&s, nrounds);
        rounds_lock_all(&s, nrounds / 2);
        rounds_fence(&s, nrounds / 2);
        mixed(&s);
        sh_free(&s);
    }
    MPI_Comm_free(&shm);
    return mtest_finalize();
}
