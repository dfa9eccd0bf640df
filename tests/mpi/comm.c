/*
 * comm: creating communicators.  Comm_dup, Comm_split (colours, keys that
 * reorder, MPI_UNDEFINED), Comm_create from groups (members and
 * non-members), Comm_create_group (only the group calls), Comm_compare
 * (IDENT, CONGRUENT, SIMILAR, UNEQUAL), names, traffic on several
 * communicators at once that must never cross, error classes, and many
 * create/free cycles (context ids are reused, nothing leaks); Comm_split_type
 * (one node here: MPI_COMM_TYPE_SHARED holds every rank), Comm_dup_with_info,
 * Comm_set_info and Comm_get_info.
 *
 *   usage: comm [cycles]     (create/free cycles, default 10000)
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* On comm, every rank sends its rank to every other rank with tag t and
 * checks what arrives: a message on another communicator must never match. */
static void all_to_all_check(MPI_Comm comm, int salt, const char *what)
{
    int n, me;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    int *in = mtest_malloc(sizeof(int) * n), out = me * 1000 + salt;
    MPI_Request *rq = mtest_malloc(sizeof(MPI_Request) * 2 * n);
    for (int i = 0; i < n; i++)
        MTEST_RC(MPI_Irecv(&in[i], 1, MPI_INT, i, 5, comm, &rq[i]));
    for (int i = 0; i < n; i++)
        MTEST_RC(MPI_Isend(&out, 1, MPI_INT, i, 5, comm, &rq[n + i]));
    MTEST_RC(MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; i++)
        MTEST_CHECK(in[i] == i * 1000 + salt, "%s: from rank %d got %d, want %d", what, i, in[i], i * 1000 + salt);
    free(in);
    free(rq);
}

static void test_dup_and_compare(void)
{
    MPI_Comm dup;
    int cmp, n, me;
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm_size(dup, &n);
    MPI_Comm_rank(dup, &me);
    MTEST_CHECK(n == size && me == rank, "dup: size %d rank %d, want %d %d", n, me, size, rank);
    MTEST_RC(MPI_Comm_compare(dup, dup, &cmp));
    MTEST_CHECK(cmp == MPI_IDENT, "compare(dup, dup) = %d, want MPI_IDENT", cmp);
    MTEST_RC(MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp));
    MTEST_CHECK(cmp == MPI_CONGRUENT, "compare(dup, world) = %d, want MPI_CONGRUENT", cmp);

    /* the same members in reverse order: SIMILAR (or CONGRUENT for 1 rank) */
    MPI_Comm rev;
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    MPI_Comm_rank(rev, &me);
    MTEST_CHECK(me == size - 1 - rank, "reversed split: rank %d, want %d", me, size - 1 - rank);
    MTEST_RC(MPI_Comm_compare(rev, MPI_COMM_WORLD, &cmp));
    MTEST_CHECK(cmp == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "compare(reversed, world) = %d", cmp);
    MTEST_RC(MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &cmp));
    MTEST_CHECK(cmp == (size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT), "compare(self, world) = %d", cmp);

    /* traffic on three communicators at once with the same tags */
    all_to_all_check(dup, 1, "dup");
    all_to_all_check(rev, 2, "reversed");
    all_to_all_check(MPI_COMM_WORLD, 3, "world");

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MTEST_RC(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    MTEST_CHECK(!strcmp(name, "MPI_COMM_WORLD") && len == 14, "world's name '%s'", name);
    MTEST_RC(MPI_Comm_set_name(dup, "my duplicate"));
    MTEST_RC(MPI_Comm_get_name(dup, name, &len));
    MTEST_CHECK(!strcmp(name, "my duplicate") && len == 12, "dup's name '%s' (%d)", name, len);
    /* MPI-4.1: the null handles have names too */
    MTEST_RC(MPI_Comm_get_name(MPI_COMM_NULL, name, &len));
    MTEST_CHECK(!strcmp(name, "MPI_COMM_NULL") && len == 13, "MPI_COMM_NULL's name '%s' (%d)", name, len);
    MTEST_RC(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len));
    MTEST_CHECK(!strcmp(name, "MPI_DATATYPE_NULL") && len == 17, "MPI_DATATYPE_NULL's name '%s' (%d)", name, len);
    MTEST_RC(MPI_Win_get_name(MPI_WIN_NULL, name, &len));
    MTEST_CHECK(!strcmp(name, "MPI_WIN_NULL") && len == 12, "MPI_WIN_NULL's name '%s' (%d)", name, len);
    MTEST_RC(MPI_Comm_free(&rev));
    MTEST_RC(MPI_Comm_free(&dup));
    MTEST_CHECK(dup == MPI_COMM_NULL, "Comm_free did not set MPI_COMM_NULL");
}

static void test_split(void)
{
    /* three colours, the last rank undefined; keys reverse the order */
    int color = rank == size - 1 && size > 1 ? MPI_UNDEFINED : rank % 3;
    MPI_Comm c;
    MTEST_RC(MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &c));
    if (color == MPI_UNDEFINED) {
        MTEST_CHECK(c == MPI_COMM_NULL, "MPI_UNDEFINED colour did not give MPI_COMM_NULL");
        return;
    }
    int want = 0, myrank = -1, n;
    for (int r = size - 1; r >= 0; r--) {             /* the members, by key */
        int rc = r == size - 1 && size > 1 ? MPI_UNDEFINED : r % 3;
        if (rc == color) {
            if (r == rank)
                myrank = want;
            want++;
        }
    }
    int me;
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &me);
    MTEST_CHECK(n == want && me == myrank, "split colour %d: size %d rank %d, want %d %d", color, n, me, want, myrank);
    /* a ring on the new communicator: the neighbours are the expected world ranks */
    int next = (me + 1) % n, prev = (me - 1 + n) % n, got = -1;
    MTEST_RC(MPI_Sendrecv(&rank, 1, MPI_INT, next, 9, &got, 1, MPI_INT, prev, 9, c, MPI_STATUS_IGNORE));
    MPI_Group wg, cg;
    int wr;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_group(c, &cg);
    MTEST_RC(MPI_Group_translate_ranks(cg, 1, &prev, wg, &wr));
    MTEST_CHECK(got == wr, "split ring: got %d from the previous rank, want world rank %d", got, wr);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    all_to_all_check(c, 4, "split");
    MTEST_RC(MPI_Comm_free(&c));
}

static void test_create(void)
{
    MPI_Group wg, even;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int range[1][3] = {{0, size - 1, 2}};
    MTEST_RC(MPI_Group_range_incl(wg, 1, range, &even));
    MPI_Comm c;
    MTEST_RC(MPI_Comm_create(MPI_COMM_WORLD, even, &c));
    if (rank % 2) {
        MTEST_CHECK(c == MPI_COMM_NULL, "Comm_create: odd rank got a communicator");
    } else {
        int n, me;
        MPI_Comm_size(c, &n);
        MPI_Comm_rank(c, &me);
        MTEST_CHECK(n == (size + 1) / 2 && me == rank / 2, "Comm_create: size %d rank %d", n, me);
        all_to_all_check(c, 6, "create");
        MPI_Comm_free(&c);
    }
    /* Comm_create_group: only the odd ranks call */
    if (rank % 2) {
        MPI_Group odd;
        MTEST_RC(MPI_Group_difference(wg, even, &odd));
        MTEST_RC(MPI_Comm_create_group(MPI_COMM_WORLD, odd, 17, &c));
        int n, me;
        MPI_Comm_size(c, &n);
        MPI_Comm_rank(c, &me);
        MTEST_CHECK(n == size / 2 && me == rank / 2, "Comm_create_group: size %d rank %d", n, me);
        all_to_all_check(c, 7, "create_group");
        MPI_Comm_free(&c);
        MPI_Group_free(&odd);
    }
    MPI_Group_free(&even);
    MPI_Group_free(&wg);
}

static void test_errors(void)
{
    MPI_Comm c = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mtest_check_class_at(__FILE__, __LINE__, MPI_Comm_free(&c), MPI_ERR_COMM, "Comm_free(MPI_COMM_WORLD)");
    c = MPI_COMM_NULL;
    mtest_check_class_at(__FILE__, __LINE__, MPI_Comm_dup(MPI_COMM_NULL, &c), MPI_ERR_COMM, "Comm_dup(NULL)");
    /* MPICH 4.0 accepts a negative colour; the standard does not. */
    if (!MTEST_MPICH_DEVIATION)
        mtest_check_class_at(__FILE__, __LINE__, MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &c), MPI_ERR_ARG,
                             "Comm_split with colour -5");
    mtest_check_class_at(__FILE__, __LINE__, MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), MPI_ERR_GROUP,
                         "Comm_create(MPI_GROUP_NULL)");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Across hosts: the world ranks that share my node communicator's leader
 * (its rank 0) are its members, ranked by the key (size - rank). */
static void check_node_split(MPI_Comm node, int n, int me)
{
    MPI_Group wg, ng;
    int zero = 0, leader;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_group(node, &ng);
    MPI_Group_translate_ranks(ng, 1, &zero, wg, &leader);
    int *leaders = malloc((size_t)size * sizeof *leaders);
    MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, MPI_COMM_WORLD);
    int same = 0, above = 0;
    for (int w = 0; w < size; w++)
        if (leaders[w] == leader) {
            same++;
            above += w > rank;
        }
    MTEST_CHECK(n == same && me == above, "split_type SHARED: size %d rank %d, expected %d and %d", n, me, same,
                above);
    free(leaders);
    MPI_Group_free(&wg);
    MPI_Group_free(&ng);
}

static void test_type_and_info(void)
{
    MPI_Comm node, none, dup;
    int n, me, cmp, flag, nkeys;
    /* Every rank runs on this one node, unless the suite runs across hosts
     * (MTEST_MULTI_HOST, tests/netns/run_suite.sh): then each node's
     * communicator holds exactly the ranks that agree on its leader. */
    MTEST_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, size - rank, MPI_INFO_NULL, &node));
    MPI_Comm_size(node, &n);
    MPI_Comm_rank(node, &me);
    if (!getenv("MTEST_MULTI_HOST")) {
        MTEST_CHECK(n == size && me == size - 1 - rank, "split_type SHARED: size %d rank %d", n, me);
    } else {
        check_node_split(node, n, me);
    }
    all_to_all_check(node, 9, "split_type");
    MTEST_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none));
    MTEST_CHECK(none == MPI_COMM_NULL, "split_type MPI_UNDEFINED did not give MPI_COMM_NULL");

    MPI_Info info, used;
    char val[MPI_MAX_INFO_VAL + 1];
    MPI_Info_create(&info);
    MPI_Info_set(info, "my_hint", "42");
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Info_set(info, "mpi_assert_exact_length", "maybe");   /* not a boolean: ignored */
    MTEST_RC(MPI_Comm_dup_with_info(node, info, &dup));
    MPI_Info_free(&info);              /* the communicator keeps its own copy */
    MTEST_RC(MPI_Comm_compare(dup, node, &cmp));
    MTEST_CHECK(cmp == MPI_CONGRUENT, "dup_with_info: compare %d", cmp);
    /* MPI-4: get_info returns the hints the implementation uses, with their
     * defaults, and none it ignores */
    static const char *const keys[] = {"mpi_assert_no_any_tag", "mpi_assert_no_any_source",
                                       "mpi_assert_exact_length", "mpi_assert_allow_overtaking"};
    const char *want[] = {"true", "false", "false", "false"};
    MTEST_RC(MPI_Comm_get_info(dup, &used));
    MTEST_RC(MPI_Info_get(used, "my_hint", MPI_MAX_INFO_VAL, val, &flag));
    MTEST_CHECK(!flag || MTEST_OMPI_DEVIATION, "get_info returned the unknown hint my_hint");
    for (int k = 0; k < 4; k++) {
        MTEST_RC(MPI_Info_get(used, keys[k], MPI_MAX_INFO_VAL, val, &flag));
        MTEST_CHECK(flag && !strcmp(val, want[k]), "dup_with_info: %s is %s, want %s", keys[k], flag ? val : "unset",
                    want[k]);
    }
    MPI_Info_free(&used);
    /* set_info changes the hints it names, and leaves the others */
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_allow_overtaking", "TRUE");
    MTEST_RC(MPI_Comm_set_info(dup, info));
    MPI_Info_free(&info);
    want[3] = "true";
    MTEST_RC(MPI_Comm_get_info(dup, &used));
    MTEST_RC(MPI_Info_get_nkeys(used, &nkeys));
    MTEST_CHECK(nkeys == 4 || MTEST_MPICH_DEVIATION, "get_info returned %d hints, want the 4 dmpi knows", nkeys);
    for (int k = 0; k < 4; k++) {
        MTEST_RC(MPI_Info_get(used, keys[k], MPI_MAX_INFO_VAL, val, &flag));
        MTEST_CHECK(flag && !strcmp(val, want[k]), "set_info: %s is %s, want %s", keys[k], flag ? val : "unset",
                    want[k]);
    }
    MPI_Info_free(&used);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&node);
}

/* Context ids come back: many more cycles than there are ids. */
static void test_cycles(int cycles)
{
    double t0 = MPI_Wtime();
    for (int i = 0; i < cycles; i++) {
        MPI_Comm a, b;
        MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &a));
        MTEST_RC(MPI_Comm_split(a, rank % 2, rank, &b));
        if (i % 1000 == 0)
            all_to_all_check(b, 8, "cycle");
        MTEST_RC(MPI_Comm_free(&b));
        MTEST_RC(MPI_Comm_free(&a));
    }
    if (rank == 0 && getenv("COMM_VERBOSE"))
        printf("%d dup+split+free cycles: %.1f us each\n", cycles, (MPI_Wtime() - t0) / cycles * 1e6);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int cycles = argc > 1 ? atoi(argv[1]) : 10000;
    test_dup_and_compare();
    test_split();
    test_create();
    test_errors();
    test_type_and_info();
    test_cycles(cycles);
    return mtest_finalize();
}
