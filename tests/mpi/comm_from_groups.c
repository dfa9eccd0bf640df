/*
 * comm_from_groups: MPI_Comm_create_from_group and
 * MPI_Intercomm_create_from_groups (MPI-4.0) on groups of MPI_COMM_WORLD.
 *
 *  - every window of consecutive ranks [lo, hi] (overlapping subsets): the
 *    members make a communicator with a tag naming the window, in the
 *    order of lo, then of hi; its group equals the window's, its rank and
 *    size follow, a ring of messages in it arrives byte for byte, and an
 *    MPI_Allreduce over it sums the members' world ranks;
 *  - the ranks of even and odd world rank, each a group, made at once by
 *    all with different tags (the groups are disjoint, the tags too);
 *  - intercommunicators between the windows [0, k) and [k, n) for every k,
 *    leaders at either end: local and remote groups, sizes and ranks,
 *    messages both ways between every pair of ranks, checked byte for byte;
 *    and a merge of each, whose group orders the low side first;
 *  - an empty remote group (a process alone): an intercommunicator with
 *    remote size 0;
 *  - the info's hints are the communicator's (mpi_assert_no_any_tag); the
 *    error handler is the new communicator's;
 *  - error classes under MPI_ERRORS_RETURN given as the errhandler (and set
 *    on MPI_COMM_WORLD, whose handler takes errors when the errhandler
 *    argument is not one for communicators): invalid
 *    group or not a member (MPI_ERR_GROUP), NULL or overlong stringtag,
 *    NULL result, a handler made for windows (MPI_ERR_ARG), invalid info
 *    (MPI_ERR_INFO), leaders out of range (MPI_ERR_RANK), overlapping local
 *    and remote groups (MPI_ERR_GROUP); a user communicator handler given
 *    as the errhandler is the one called.
 */
#include "mtest.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYTES 300

static MPI_Group world_group;

static MPI_Group window(int lo, int hi)
{
    int range[1][3] = {{lo, hi, 1}};
    MPI_Group g = MPI_GROUP_EMPTY;
    if (lo <= hi)
        MTEST_RC(MPI_Group_range_incl(world_group, 1, range, &g));
    return g;
}

/* Every local rank sends to every remote rank and receives from each;
 * side (0 or 1) tells the two groups of an intercommunicator apart. */
static void all_pairs(MPI_Comm c, int idx, int side, const char *what)
{
    int r, n, rn = 0, inter = 0;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    MPI_Comm_test_inter(c, &inter);
    if (inter)
        MPI_Comm_remote_size(c, &rn);
    else
        rn = n;
    unsigned char *out = mtest_malloc(BYTES), *in = mtest_malloc((size_t)rn * (BYTES + MTEST_GUARD));
    MPI_Request *req = mtest_malloc(2 * (size_t)rn * sizeof *req);
    MPI_Status *st = mtest_malloc(2 * (size_t)rn * sizeof *st);
    /* the pattern's sender names this rank on this side: (side, rank) */
    int me = 1000 * side + r;
    mtest_fill(out, BYTES, me, idx);
    for (int p = 0; p < rn; p++) {
        int from = 1000 * (inter ? side ^ 1 : side) + p;
        unsigned char *b = in + (size_t)p * (BYTES + MTEST_GUARD);
        mtest_poison(b, BYTES, from, idx);
        mtest_guard_set(b + BYTES);
        MTEST_RC(MPI_Irecv(b, BYTES, MPI_BYTE, p, 40, c, &req[p]));
    }
    for (int p = 0; p < rn; p++)
        MTEST_RC(MPI_Isend(out, BYTES, MPI_BYTE, p, 40, c, &req[rn + p]));
    MTEST_RC(MPI_Waitall(2 * rn, req, st));
    for (int p = 0; p < rn; p++) {
        int from = 1000 * (inter ? side ^ 1 : side) + p;
        unsigned char *b = in + (size_t)p * (BYTES + MTEST_GUARD);
        mtest_check_status(&st[p], p, 40, MPI_BYTE, BYTES, what);
        mtest_check_data(b, BYTES, from, idx, "%s: from rank %d", what, p);
        mtest_guard_check(b + BYTES, what);
    }
    free(out);
    free(in);
    free(req);
    free(st);
}

static void windows(void)
{
    char tag[64];
    for (int lo = 0; lo < mtest_size; lo++)
        for (int hi = lo; hi < mtest_size; hi++) {
            if (mtest_rank < lo || mtest_rank > hi)
                continue;
            MPI_Group g = window(lo, hi), got;
            MPI_Comm c = MPI_COMM_NULL;
            snprintf(tag, sizeof tag, "window %d..%d", lo, hi);
            MTEST_RC(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
            if (c == MPI_COMM_NULL) {
                MPI_Group_free(&g);
                continue;
            }
            int r = -1, n = -1, cmp = -1, sum = -1;
            MPI_Comm_rank(c, &r);
            MPI_Comm_size(c, &n);
            MTEST_CHECK(r == mtest_rank - lo && n == hi - lo + 1, "%s: rank %d size %d", tag, r, n);
            MPI_Comm_group(c, &got);
            MPI_Group_compare(g, got, &cmp);
            MTEST_CHECK(cmp == MPI_IDENT, "%s: group compares %d", tag, cmp);
            MPI_Group_free(&got);
            all_pairs(c, 100 + lo * 16 + hi, 0, tag);
            MTEST_RC(MPI_Allreduce(&mtest_rank, &sum, 1, MPI_INT, MPI_SUM, c));
            MTEST_CHECK(sum == (lo + hi) * (hi - lo + 1) / 2, "%s: allreduce %d", tag, sum);
            MPI_Comm_free(&c);
            MPI_Group_free(&g);
        }
}

static void even_odd(void)
{
    int n = (mtest_size + 1 - (mtest_rank & 1)) / 2, *ranks = mtest_malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        ranks[i] = 2 * i + (mtest_rank & 1);
    MPI_Group g;
    MPI_Group_incl(world_group, n, ranks, &g);
    MPI_Comm c = MPI_COMM_NULL;
    MTEST_RC(MPI_Comm_create_from_group(g, mtest_rank & 1 ? "odd" : "even", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    if (c != MPI_COMM_NULL) {
        int sum = -1, want = 0;
        for (int i = 0; i < n; i++)
            want += ranks[i];
        MTEST_RC(MPI_Allreduce(&mtest_rank, &sum, 1, MPI_INT, MPI_SUM, c));
        MTEST_CHECK(sum == want, "even/odd: allreduce %d, want %d", sum, want);
        all_pairs(c, 50, mtest_rank & 1, "even/odd");
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&g);
    free(ranks);
}

static void intercomms(void)
{
    char tag[64];
    for (int k = 1; k < mtest_size; k++)
        for (int end = 0; end < 2; end++) {
            bool low = mtest_rank < k;
            MPI_Group lg = low ? window(0, k - 1) : window(k, mtest_size - 1);
            MPI_Group rg = low ? window(k, mtest_size - 1) : window(0, k - 1);
            int lsize, rsize;
            MPI_Group_size(lg, &lsize);
            MPI_Group_size(rg, &rsize);
            snprintf(tag, sizeof tag, "split at %d", k);
            MPI_Comm ic = MPI_COMM_NULL;
            MTEST_RC(MPI_Intercomm_create_from_groups(lg, end ? lsize - 1 : 0, rg, end ? rsize - 1 : 0, tag,
                                                      MPI_INFO_NULL, MPI_ERRORS_RETURN, &ic));
            if (ic == MPI_COMM_NULL)
                goto next;
            int inter = 0, r = -1, n = -1, rn = -1, cmp = -1;
            MPI_Comm_test_inter(ic, &inter);
            MPI_Comm_rank(ic, &r);
            MPI_Comm_size(ic, &n);
            MPI_Comm_remote_size(ic, &rn);
            MTEST_CHECK(inter && n == lsize && rn == rsize && r == (low ? mtest_rank : mtest_rank - k),
                        "%s: inter %d rank %d size %d remote %d", tag, inter, r, n, rn);
            MPI_Group got;
            MPI_Comm_remote_group(ic, &got);
            MPI_Group_compare(got, rg, &cmp);
            MTEST_CHECK(cmp == MPI_IDENT, "%s: remote group compares %d", tag, cmp);
            MPI_Group_free(&got);
            all_pairs(ic, 2 * k + end, low ? 0 : 1, tag);
            MPI_Comm merged;
            MTEST_RC(MPI_Intercomm_merge(ic, !low, &merged));
            MPI_Comm_rank(merged, &r);
            MTEST_CHECK(r == mtest_rank, "%s: merged rank %d", tag, r);
            MPI_Comm_free(&merged);
            MPI_Comm_free(&ic);
        next:
            MPI_Group_free(&lg);
            MPI_Group_free(&rg);
        }

    /* Alone: an empty remote group. */
    MPI_Group me = window(mtest_rank, mtest_rank);
    MPI_Comm ic = MPI_COMM_NULL;
    MTEST_RC(MPI_Intercomm_create_from_groups(me, 0, MPI_GROUP_EMPTY, 0, "alone", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                              &ic));
    if (ic != MPI_COMM_NULL) {
        int inter = 0, rn = -1;
        MPI_Comm_test_inter(ic, &inter);
        MPI_Comm_remote_size(ic, &rn);
        MTEST_CHECK(inter && rn == 0, "alone: inter %d remote size %d", inter, rn);
        MPI_Comm_free(&ic);
    }
    MPI_Group_free(&me);
}

static int user_calls, user_code;
static MPI_Comm user_comm;

static void on_error(MPI_Comm *c, int *code, ...)
{
    user_calls++;
    user_comm = *c;
    user_code = *code;
}

static void on_win_error(MPI_Win *w, int *code, ...)
{
    (void)w;
    (void)code;
}

static void info_and_handler(void)
{
    MPI_Info info, used;
    MPI_Errhandler eh, got;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm c = MPI_COMM_NULL;
    MTEST_RC(MPI_Comm_create_from_group(world_group, "with info", info, eh, &c));
    MPI_Info_free(&info);
    if (c == MPI_COMM_NULL)
        return;
    char val[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    MPI_Comm_get_info(c, &used);
    MPI_Info_get(used, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, val, &flag);
    MTEST_CHECK(flag && strcmp(val, "true") == 0, "the hint: flag %d value '%s'", flag, val);
    MPI_Info_free(&used);
    MPI_Comm_get_errhandler(c, &got);
    MTEST_CHECK(got == eh, "the new communicator's handler 0x%x, given 0x%x", (unsigned)got, (unsigned)eh);
    MPI_Errhandler_free(&got);
    MPI_Comm_call_errhandler(c, MPI_ERR_OTHER);
    MTEST_CHECK(user_calls == 1 && user_comm == c && user_code == MPI_ERR_OTHER, "handler: %d calls", user_calls);
    MPI_Comm_free(&c);

    /* An error of the call goes to the errhandler argument. */
    user_calls = 0;
    int rc = MPI_Comm_create_from_group(world_group, NULL, MPI_INFO_NULL, eh, &c);
    mtest_check_class(rc, MPI_ERR_ARG, "NULL stringtag, user handler");
    MTEST_CHECK(user_calls == 1 && user_code == rc, "the errhandler argument: %d calls, code %d/%d", user_calls,
                user_code, rc);
    MPI_Errhandler_free(&eh);
}

static void errors(void)
{
    MPI_Comm c;
    MPI_Errhandler weh;
    MPI_Info bad_info = (MPI_Info)0x1c000abc;
    char longtag[MPI_MAX_STRINGTAG_LEN + 8];
    memset(longtag, 'a', sizeof longtag - 1);
    longtag[sizeof longtag - 1] = 0;
    const MPI_Errhandler R = MPI_ERRORS_RETURN;
    MPI_Group others = MPI_GROUP_EMPTY, me = window(mtest_rank, mtest_rank);
    if (mtest_size > 1) {
        MPI_Group_excl(world_group, 1, &mtest_rank, &others);
    }
    MPI_Win_create_errhandler(on_win_error, &weh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, R);
    mtest_check_class(MPI_Comm_create_from_group(MPI_GROUP_NULL, "t", MPI_INFO_NULL, R, &c), MPI_ERR_GROUP,
                      "GROUP_NULL");
    mtest_check_class(MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "t", MPI_INFO_NULL, R, &c), MPI_ERR_GROUP,
                      "GROUP_EMPTY (not a member)");
    if (mtest_size > 1)
        mtest_check_class(MPI_Comm_create_from_group(others, "t", MPI_INFO_NULL, R, &c), MPI_ERR_GROUP,
                          "not a member");
    mtest_check_class(MPI_Comm_create_from_group(me, NULL, MPI_INFO_NULL, R, &c), MPI_ERR_ARG, "NULL tag");
    mtest_check_class(MPI_Comm_create_from_group(me, longtag, MPI_INFO_NULL, R, &c), MPI_ERR_ARG, "long tag");
    mtest_check_class(MPI_Comm_create_from_group(me, "t", MPI_INFO_NULL, R, NULL), MPI_ERR_ARG, "NULL newcomm");
    mtest_check_class(MPI_Comm_create_from_group(me, "t", bad_info, R, &c), MPI_ERR_INFO, "bad info");
    mtest_check_class(MPI_Comm_create_from_group(me, "t", MPI_INFO_NULL, weh, &c), MPI_ERR_ARG, "window handler");

    mtest_check_class(MPI_Intercomm_create_from_groups(MPI_GROUP_NULL, 0, others, 0, "t", MPI_INFO_NULL, R, &c),
                      MPI_ERR_GROUP, "inter: local GROUP_NULL");
    mtest_check_class(MPI_Intercomm_create_from_groups(me, 0, MPI_GROUP_NULL, 0, "t", MPI_INFO_NULL, R, &c),
                      MPI_ERR_GROUP, "inter: remote GROUP_NULL");
    if (mtest_size > 1) {
        mtest_check_class(MPI_Intercomm_create_from_groups(others, 0, me, 0, "t", MPI_INFO_NULL, R, &c),
                          MPI_ERR_GROUP, "inter: not in local_group");
        mtest_check_class(MPI_Intercomm_create_from_groups(me, 1, others, 0, "t", MPI_INFO_NULL, R, &c),
                          MPI_ERR_RANK, "inter: local_leader 1");
        mtest_check_class(MPI_Intercomm_create_from_groups(me, 0, others, mtest_size - 1, "t", MPI_INFO_NULL, R,
                                                           &c), MPI_ERR_RANK, "inter: remote_leader past the end");
        mtest_check_class(MPI_Intercomm_create_from_groups(me, 0, others, -1, "t", MPI_INFO_NULL, R, &c),
                          MPI_ERR_RANK, "inter: remote_leader -1");
    }
    mtest_check_class(MPI_Intercomm_create_from_groups(me, 0, world_group, 0, "t", MPI_INFO_NULL, R, &c),
                      MPI_ERR_GROUP, "inter: overlapping groups");
    mtest_check_class(MPI_Intercomm_create_from_groups(me, 0, others, 0, NULL, MPI_INFO_NULL, R, &c),
                      MPI_ERR_ARG, "inter: NULL tag");
    mtest_check_class(MPI_Intercomm_create_from_groups(me, 0, others, 0, "t", bad_info, R, &c), MPI_ERR_INFO,
                      "inter: bad info");
    mtest_check_class(MPI_Intercomm_create_from_groups(me, 0, others, 0, "t", MPI_INFO_NULL, weh, &c),
                      MPI_ERR_ARG, "inter: window handler");
    mtest_check_class(MPI_Intercomm_create_from_groups(me, 0, others, 0, "t", MPI_INFO_NULL, R, NULL),
                      MPI_ERR_ARG, "inter: NULL newintercomm");
    MPI_Errhandler_free(&weh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (others != MPI_GROUP_EMPTY)
        MPI_Group_free(&others);
    MPI_Group_free(&me);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    windows();
    even_odd();
    intercomms();
    info_and_handler();
    errors();
    MPI_Group_free(&world_group);
    return mtest_finalize();
}
