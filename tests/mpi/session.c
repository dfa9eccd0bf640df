/*
 * session: the MPI-4 Sessions model (chapter 11.3).
 *
 *  1. Without MPI_Init: two sessions at once (MPI_Initialized stays 0), the
 *     process sets (count, names, the pset_len protocol, "mpi_size"),
 *     Session_get_info's thread_level, the groups of the psets, and
 *     communicators made from them by MPI_Comm_create_from_group: a ring
 *     of messages checked byte for byte, and two creations on the same
 *     group with different string tags running at once in two threads
 *     (each then carries its own traffic, never the other's). Both
 *     sessions are finalized.
 *  2. MPI_Init after that; a session's psets against MPI_COMM_WORLD,
 *     MPI_COMM_SELF and MPI_Comm_split_type(SHARED) (group compare), a
 *     communicator from the WORLD pset congruent to MPI_COMM_WORLD; session
 *     error handlers (create, set, get, call: the handler sees the session
 *     and the code; one made for communicators refused) and the error
 *     classes of bad arguments.
 *  3. A session open across MPI_Finalize: MPI_Finalized is 1 and the
 *     session still makes a communicator that carries messages; its
 *     MPI_Session_finalize ends the library, and a later MPI_Session_init
 *     fails (checked after the report: a failure makes the exit status
 *     non-zero).
 * With the argument "noinit", phase 1 only: the program never calls
 * MPI_Init, reports through a session's communicator and leaves the
 * library to stop at exit.
 */
#include "mtest.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPSETS_MIN 2
#define MSG_BYTES 1000
#define THREAD_ROUNDS 20

static int get(MPI_Info info, const char *key, char *val)
{
    int flag = 0;
    val[0] = 0;
    if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag) != MPI_SUCCESS)
        return -1;
    return flag;
}

/* The index of pset name in the session's list, or -1; checks the
 * pset_len protocol on the way. */
static int find_pset(MPI_Session s, const char *name)
{
    int n = 0, found = -1;
    MTEST_RC(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    MTEST_CHECK(n >= 3, "%d process sets, want WORLD, SELF and the node", n);
    for (int i = 0; i < n; i++) {
        char buf[MPI_MAX_PSET_NAME_LEN];
        int len = 0;
        MTEST_RC(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));   /* 0: ask the length */
        int want = len;
        len = MPI_MAX_PSET_NAME_LEN;
        memset(buf, 'x', sizeof buf);
        MTEST_RC(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, buf));
        MTEST_CHECK(len == want && (int)strlen(buf) + 1 == len, "pset %d: length %d, asked %d, name '%s'", i, len,
                    want, buf);
        if (len > 4) {             /* a short buffer gets the start of the name, terminated */
            char cut[4];
            int l = 4;
            MTEST_RC(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &l, cut));
            MTEST_CHECK(l == want && cut[3] == 0 && strncmp(cut, buf, 3) == 0, "pset %d cut to 4: '%.4s' len %d",
                        i, cut, l);
        }
        if (strcmp(buf, name) == 0)
            found = i;
    }
    return found;
}

/* "mpi_size" of the pset, checked against its group's size; its group. */
static MPI_Group pset_group(MPI_Session s, const char *name)
{
    char val[MPI_MAX_INFO_VAL + 1];
    MPI_Info info = MPI_INFO_NULL;
    MPI_Group g = MPI_GROUP_NULL;
    int size = -1;
    MTEST_CHECK(find_pset(s, name) >= 0, "no process set %s", name);
    MTEST_RC(MPI_Session_get_pset_info(s, name, &info));
    MTEST_CHECK(get(info, "mpi_size", val) == 1, "%s: no mpi_size", name);
    MPI_Info_free(&info);
    MTEST_RC(MPI_Group_from_session_pset(s, name, &g));
    MPI_Group_size(g, &size);
    MTEST_CHECK(atoi(val) == size && size > 0, "%s: mpi_size '%s', group of %d", name, val, size);
    return g;
}

/* Each rank sends MSG_BYTES to the next and receives from the previous,
 * with tag; idx tells the messages of different communicators apart. */
static void ring(MPI_Comm c, int tag, int idx, const char *what)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    unsigned char out[MSG_BYTES], in[MSG_BYTES + MTEST_GUARD];
    int from = (r + n - 1) % n, to = (r + 1) % n;
    mtest_fill(out, sizeof out, r, idx);
    mtest_poison(in, MSG_BYTES, from, idx);
    mtest_guard_set(in + MSG_BYTES);
    MPI_Status st;
    MPI_Request req;
    MTEST_RC(MPI_Irecv(in, MSG_BYTES, MPI_BYTE, from, tag, c, &req));
    MTEST_RC(MPI_Send(out, MSG_BYTES, MPI_BYTE, to, tag, c));
    MTEST_RC(MPI_Wait(&req, &st));
    mtest_check_status(&st, from, tag, MPI_BYTE, MSG_BYTES, what);
    mtest_check_data(in, MSG_BYTES, from, idx, "%s: ring data from rank %d", what, from);
    mtest_guard_check(in + MSG_BYTES, what);
}

struct maker {
    MPI_Group g;
    const char *tag;
    MPI_Comm comm;
    int rc;
};

static pthread_barrier_t start;

static void *make_comm(void *arg)
{
    struct maker *m = arg;
    pthread_barrier_wait(&start);
    m->rc = MPI_Comm_create_from_group(m->g, m->tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &m->comm);
    return NULL;
}

static void phase_without_init(void)
{
    int flag = 1;
    MPI_Initialized(&flag);
    MTEST_CHECK(flag == 0, "MPI_Initialized %d before anything", flag);

    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "thread_level", "MPI_THREAD_MULTIPLE");
    MPI_Session s1 = MPI_SESSION_NULL, s2 = MPI_SESSION_NULL;
    MTEST_RC(MPI_Session_init(hints, MPI_ERRORS_RETURN, &s1));
    MTEST_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    MPI_Info_free(&hints);
    MTEST_CHECK(s1 != MPI_SESSION_NULL && s2 != MPI_SESSION_NULL && s1 != s2, "sessions 0x%x 0x%x", (unsigned)s1,
                (unsigned)s2);
    MPI_Initialized(&flag);
    MTEST_CHECK(flag == 0, "MPI_Initialized %d with sessions only", flag);

    char val[MPI_MAX_INFO_VAL + 1];
    MPI_Info used;
    MTEST_RC(MPI_Session_get_info(s1, &used));
    MTEST_CHECK(get(used, "thread_level", val) == 1 && strcmp(val, "MPI_THREAD_MULTIPLE") == 0,
                "session 1: thread_level '%s'", val);
    MPI_Info_free(&used);

    MPI_Group world = pset_group(s1, "mpi://WORLD"), self = pset_group(s2, "mpi://SELF");
    MPI_Group node = pset_group(s1, "dmpi://node");
    int size = 0, rank = -1, sz = 0, rk = -1, cmp = -1;
    MPI_Group_size(world, &size);
    MPI_Group_rank(world, &rank);
    mtest_rank = rank;             /* for the messages of failures, until MPI_Init */
    mtest_size = size;
    MPI_Group_size(self, &sz);
    MPI_Group_rank(self, &rk);
    MTEST_CHECK(sz == 1 && rk == 0, "SELF: size %d rank %d", sz, rk);
    MPI_Group_size(node, &sz);
    MPI_Group_rank(node, &rk);
    MTEST_CHECK(sz >= 1 && sz <= size && rk >= 0, "node: size %d rank %d of %d", sz, rk, size);
    MPI_Group same;
    MTEST_RC(MPI_Group_from_session_pset(s2, "mpi://WORLD", &same));
    MPI_Group_compare(world, same, &cmp);
    MTEST_CHECK(cmp == MPI_IDENT, "WORLD of two sessions: compare %d", cmp);
    MPI_Group_free(&same);

    /* A communicator of all, and one of the node, each with traffic. */
    MPI_Comm all = MPI_COMM_NULL, local = MPI_COMM_NULL;
    MTEST_RC(MPI_Comm_create_from_group(world, "org.dmpi.test.all", MPI_INFO_NULL, MPI_ERRORS_RETURN, &all));
    MTEST_RC(MPI_Comm_create_from_group(node, "org.dmpi.test.node", MPI_INFO_NULL, MPI_ERRORS_RETURN, &local));
    MPI_Comm_size(all, &sz);
    MPI_Comm_rank(all, &rk);
    MTEST_CHECK(sz == size && rk == rank, "all: size %d rank %d, want %d %d", sz, rk, size, rank);
    ring(all, 5, 1, "all, no MPI_Init");
    ring(local, 5, 2, "node, no MPI_Init");

    /* Two creations on one group at once, kept apart by their tags (rounds
     * of them, so that the threads' agreements really overlap). */
    for (int round = 0; round < THREAD_ROUNDS; round++) {
        char ta[64], tb[64];
        snprintf(ta, sizeof ta, "org.dmpi.test.thread.a.%d", round);
        snprintf(tb, sizeof tb, "org.dmpi.test.thread.b.%d", round);
        struct maker m[2] = {{world, ta, MPI_COMM_NULL, -1}, {world, tb, MPI_COMM_NULL, -1}};
        pthread_t th[2];
        pthread_barrier_init(&start, NULL, 2);
        for (int i = 0; i < 2; i++)
            pthread_create(&th[i], NULL, make_comm, &m[i]);
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
        pthread_barrier_destroy(&start);
        if (!MTEST_RC(m[0].rc) || !MTEST_RC(m[1].rc))
            break;
        MPI_Comm_compare(m[0].comm, m[1].comm, &cmp);
        MTEST_CHECK(cmp == MPI_CONGRUENT, "the two threads' communicators compare %d", cmp);
        /* The message on a is sent first and received last: b's receive must not take it. */
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        unsigned char oa[64], ob[64], ia[64], ib[64];
        mtest_fill(oa, 64, rank, 10 + 2 * round);
        mtest_fill(ob, 64, rank, 11 + 2 * round);
        mtest_poison(ia, 64, from, 10 + 2 * round);
        mtest_poison(ib, 64, from, 11 + 2 * round);
        MPI_Request r[2];
        MTEST_RC(MPI_Isend(oa, 64, MPI_BYTE, to, 0, m[0].comm, &r[0]));
        MTEST_RC(MPI_Isend(ob, 64, MPI_BYTE, to, 0, m[1].comm, &r[1]));
        MTEST_RC(MPI_Recv(ib, 64, MPI_BYTE, from, 0, m[1].comm, MPI_STATUS_IGNORE));
        MTEST_RC(MPI_Recv(ia, 64, MPI_BYTE, from, 0, m[0].comm, MPI_STATUS_IGNORE));
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        mtest_check_data(ia, 64, from, 10 + 2 * round, "thread a's communicator, round %d", round);
        mtest_check_data(ib, 64, from, 11 + 2 * round, "thread b's communicator, round %d", round);
        MPI_Comm_free(&m[0].comm);
        MPI_Comm_free(&m[1].comm);
    }

    MPI_Comm_free(&all);
    MPI_Comm_free(&local);
    MPI_Group_free(&world);
    MPI_Group_free(&self);
    MPI_Group_free(&node);
    MTEST_RC(MPI_Session_finalize(&s1));
    MTEST_CHECK(s1 == MPI_SESSION_NULL, "Session_finalize left 0x%x", (unsigned)s1);
    MTEST_RC(MPI_Session_finalize(&s2));
    MPI_Initialized(&flag);
    MTEST_CHECK(flag == 0, "MPI_Initialized %d after the sessions", flag);
}

static int handler_calls, handler_code;
static MPI_Session handler_session;

static void on_session_error(MPI_Session *s, int *code, ...)
{
    handler_calls++;
    handler_session = *s;
    handler_code = *code;
}

static void on_comm_error(MPI_Comm *c, int *code, ...)
{
    (void)c;
    (void)code;
}

static void phase_with_init(void)
{
    int cmp = -1, provided = -1;
    MPI_Session s;
    MTEST_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Info used;
    char val[MPI_MAX_INFO_VAL + 1];
    MTEST_RC(MPI_Session_get_info(s, &used));
    MPI_Query_thread(&provided);
    MTEST_CHECK(get(used, "thread_level", val) == 1 && strncmp(val, "MPI_THREAD_", 11) == 0,
                "thread_level '%s'", val);
    MPI_Info_free(&used);

    /* The psets against the world model's communicators. */
    MPI_Group g, ref;
    MPI_Comm_group(MPI_COMM_WORLD, &ref);
    g = pset_group(s, "mpi://WORLD");
    MPI_Group_compare(g, ref, &cmp);
    MTEST_CHECK(cmp == MPI_IDENT, "WORLD pset vs MPI_COMM_WORLD: %d", cmp);
    MPI_Comm c = MPI_COMM_NULL;
    MTEST_RC(MPI_Comm_create_from_group(g, "org.dmpi.test.world", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp);
    MTEST_CHECK(cmp == MPI_CONGRUENT, "from the WORLD pset vs MPI_COMM_WORLD: %d", cmp);
    MPI_Errhandler e = MPI_ERRHANDLER_NULL;
    MPI_Comm_get_errhandler(c, &e);
    MTEST_CHECK(e == MPI_ERRORS_RETURN, "the new communicator's handler 0x%x, want MPI_ERRORS_RETURN", (unsigned)e);
    MPI_Errhandler_free(&e);
    ring(c, 7, 3, "from the WORLD pset");
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Group_free(&ref);

    MPI_Comm_group(MPI_COMM_SELF, &ref);
    g = pset_group(s, "mpi://SELF");
    MPI_Group_compare(g, ref, &cmp);
    MTEST_CHECK(cmp == MPI_IDENT, "SELF pset vs MPI_COMM_SELF: %d", cmp);
    MPI_Group_free(&g);
    MPI_Group_free(&ref);

    MPI_Comm shm;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    MPI_Comm_group(shm, &ref);
    g = pset_group(s, "dmpi://node");
    MPI_Group_compare(g, ref, &cmp);
    MTEST_CHECK(cmp == MPI_IDENT, "node pset vs Comm_split_type(SHARED): %d", cmp);
    MPI_Group_free(&g);
    MPI_Group_free(&ref);
    MPI_Comm_free(&shm);

    /* Error handlers: the session's own. */
    MPI_Errhandler mine, got, comm_eh;
    MTEST_RC(MPI_Session_create_errhandler(on_session_error, &mine));
    MTEST_RC(MPI_Session_set_errhandler(s, mine));
    MTEST_RC(MPI_Session_get_errhandler(s, &got));
    MTEST_CHECK(got == mine, "Session_get_errhandler 0x%x, set 0x%x", (unsigned)got, (unsigned)mine);
    MPI_Errhandler_free(&got);
    MTEST_RC(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    MTEST_CHECK(handler_calls == 1 && handler_session == s && handler_code == MPI_ERR_OTHER,
                "handler: %d calls, session 0x%x, code %d", handler_calls, (unsigned)handler_session, handler_code);
    /* An error of the session goes to it too. */
    int n = 0;
    int rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 1000, &n, NULL);
    mtest_check_class(rc, MPI_ERR_ARG, "get_nth_pset n = 1000");
    MTEST_CHECK(handler_calls == 2 && handler_code == rc, "an error of the session: %d handler calls, code %d/%d",
                handler_calls, handler_code, rc);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);   /* until the end of the phase */
    MPI_Comm_create_errhandler(on_comm_error, &comm_eh);
    rc = MPI_Session_set_errhandler(s, comm_eh);
    mtest_check_class(rc, MPI_ERR_ARG, "Session_set_errhandler with a communicator's handler");
    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine);
    mtest_check_class(rc, MPI_ERR_ARG, "Comm_set_errhandler with a session's handler");
    MTEST_RC(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&comm_eh);
    MPI_Errhandler_free(&mine);

    /* Error classes (no session: MPI_COMM_WORLD's handler). */
    MPI_Session bad = MPI_SESSION_NULL;
    mtest_check_class(MPI_Session_get_num_psets(bad, MPI_INFO_NULL, &n), MPI_ERR_SESSION, "num_psets(NULL)");
    mtest_check_class(MPI_Session_finalize(&bad), MPI_ERR_SESSION, "finalize(SESSION_NULL)");
    mtest_check_class(MPI_Session_finalize(NULL), MPI_ERR_ARG, "finalize(NULL)");
    mtest_check_class(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL), MPI_ERR_ARG, "init(NULL)");
    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "thread_level", "MPI_THREAD_SOMETIMES");
    mtest_check_class(MPI_Session_init(hints, MPI_ERRORS_RETURN, &bad), MPI_ERR_INFO, "init, bad thread_level");
    MPI_Info_free(&hints);
    mtest_check_class(MPI_Session_get_num_psets(s, (MPI_Info)0x12345, &n), MPI_ERR_INFO, "num_psets, bad info");
    mtest_check_class(MPI_Session_get_pset_info(s, "mpi://NOWHERE", &used), MPI_ERR_ARG, "pset_info, unknown");
    MPI_Group ng;
    mtest_check_class(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &ng), MPI_ERR_ARG, "group of unknown pset");
    mtest_check_class(MPI_Group_from_session_pset(s, NULL, &ng), MPI_ERR_ARG, "group of NULL pset");
    mtest_check_class(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, &n, NULL), MPI_ERR_ARG, "nth_pset -1");
    n = -1;
    mtest_check_class(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &n, NULL), MPI_ERR_ARG, "nth_pset len -1");
    mtest_check_class(MPI_Session_get_info(s, NULL), MPI_ERR_ARG, "get_info(NULL)");
    mtest_check_class(MPI_Session_set_errhandler(s, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER, "set ERRHANDLER_NULL");
    mtest_check_class(MPI_Session_init(MPI_INFO_NULL, MPI_ERRHANDLER_NULL, &bad), MPI_ERR_ERRHANDLER,
                      "init, ERRHANDLER_NULL");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MTEST_RC(MPI_Session_finalize(&s));
}

/* The report of a program that never calls MPI_Init. */
static int report_without_init(void)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm c;
    int mine, total = -1;
    MTEST_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s));
    MTEST_RC(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MTEST_RC(MPI_Comm_create_from_group(g, "org.dmpi.test.report", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c));
    mine = mtest_error_count();
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, c);
    if (mtest_rank == 0)
        printf(total == 0 ? "No Errors\n" : " Found %d errors\n", total);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Session_finalize(&s);
    int flag = 1;
    MPI_Initialized(&flag);
    return total != 0 || mine != 0 || flag != 0;
}

int main(int argc, char **argv)
{
    phase_without_init();
    if (argc > 1 && strcmp(argv[1], "noinit") == 0)
        return report_without_init();
    mtest_init(&argc, &argv);     /* what phase 1 found is counted in the report */
    phase_with_init();

    /* 3: a session open across MPI_Finalize. */
    MPI_Session s;
    MTEST_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    int rc = mtest_finalize();
    int flag = 0;
    MPI_Finalized(&flag);
    MTEST_CHECK(flag == 1, "MPI_Finalized %d after MPI_Finalize", flag);
    MPI_Group g;
    MPI_Comm c = MPI_COMM_NULL;
    MTEST_RC(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MTEST_RC(MPI_Comm_create_from_group(g, "org.dmpi.test.after", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    if (c != MPI_COMM_NULL) {
        ring(c, 9, 4, "after MPI_Finalize");
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&g);
    MTEST_RC(MPI_Session_finalize(&s));
    MPI_Finalized(&flag);
    MTEST_CHECK(flag == 1, "MPI_Finalized %d at the end", flag);
    /* The library has stopped and cannot start again (PMI cannot: docs/sessions.md). */
    mtest_check_class(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s), MPI_ERR_OTHER,
                      "MPI_Session_init after the library stopped");
    if (mtest_error_count() != 0)
        fprintf(stderr, "rank %d: %d errors after MPI_Finalize\n", mtest_rank, mtest_error_count());
    return rc != 0 || mtest_error_count() != 0;
}
