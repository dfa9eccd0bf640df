/* The tool information interface (MPI_T, MPI-4.0 chapter 15):
 *   - before MPI_Init: every call says MPI_T_ERR_NOT_INITIALIZED until
 *     MPI_T_init_thread; then variables are listed, and a control variable
 *     written now keeps its value through MPI_Init;
 *   - every control variable, performance variable, category and enumeration
 *     is listed and its info checked for consistency (names round-trip
 *     through get_index, strings obey the length convention, each variable
 *     is in exactly one category, the categories' counts add up);
 *   - control variables: read; written where their scope allows, with the
 *     effect seen (DMPI_COLL_ALLREDUCE forces an algorithm, whose counter
 *     moves by exactly the number of calls); MPI_T_ERR_CVAR_SET_NEVER for
 *     those read once at MPI_Init; MPI_T_ERR_INVALID for a bad value;
 *   - performance variables: N messages of B bytes (eager and rendezvous)
 *     move the sender's sent counters and the receiver's received counters
 *     by exactly N and N * B; stop freezes a counter, start resumes it,
 *     readreset and write set it; k unexpected messages raise the
 *     unexpected-queue length and high-water mark to exactly k, receiving
 *     them lowers the length but not the mark, a reset lowers the mark;
 *     each one-sided operation moves its counter by one;
 *   - the error code of every call on bad indexes, names, handles, sessions;
 *     no event sources or events, so every index-based event call says
 *     MPI_T_ERR_INVALID_INDEX and every handle-based one
 *     MPI_T_ERR_INVALID_HANDLE;
 *   - MPI_T_init_thread / MPI_T_finalize nest, and work after MPI_Finalize. */
#include "mtest.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT(call, want) expect_at(__LINE__, (call), (want), #call)

static int expect_at(int line, int rc, int want, const char *what)
{
    if (rc != want) {
        mtest_fail_at(__FILE__, line, "%s returned %d, expected %d", what, rc, want);
        return 0;
    }
    return 1;
}

static int cvar_index(const char *name)
{
    int i = -1;
    EXPECT(MPI_T_cvar_get_index(name, &i), MPI_SUCCESS);
    return i;
}

static int pvar_index(const char *name, int var_class)
{
    int i = -1;
    EXPECT(MPI_T_pvar_get_index(name, var_class, &i), MPI_SUCCESS);
    return i;
}

/* ---- before MPI_Init --------------------------------------------------------- */

static void before_init(void)
{
    int n, provided;
    MPI_T_cvar_handle ch = MPI_T_CVAR_HANDLE_NULL;
    MPI_T_pvar_session ses = MPI_T_PVAR_SESSION_NULL;
    EXPECT(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_pvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_category_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_event_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_source_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_pvar_session_create(&ses), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_cvar_read(ch, &n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_init_thread(MPI_THREAD_SINGLE - 1, &provided), MPI_T_ERR_INVALID);

    EXPECT(MPI_T_init_thread(MPI_THREAD_FUNNELED, &provided), MPI_SUCCESS);
    MTEST_CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "provided %d", provided);
    EXPECT(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    MTEST_CHECK(n > 20, "%d control variables before MPI_Init", n);
    /* a run-time variable written now survives MPI_Init's reading of the environment */
    int i = cvar_index("DMPI_HANG_TIMEOUT"), count;
    EXPECT(MPI_T_cvar_handle_alloc(i, NULL, &ch, &count), MPI_SUCCESS);
    double t = 1234.5;
    EXPECT(MPI_T_cvar_write(ch, &t), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_handle_free(&ch), MPI_SUCCESS);
    MTEST_CHECK(ch == MPI_T_CVAR_HANDLE_NULL, "handle_free sets the handle to MPI_T_CVAR_HANDLE_NULL");
    /* left initialized: MPI_Init and the rest run inside this MPI_T_init_thread */
}

/* ---- listing ----------------------------------------------------------------- */

/* A string argument: the length with a NULL buffer, the string itself, and
 * a truncated copy with the length actually returned. */
static void check_strings(const char *what, int index,
                          int (*get)(int index, char *buf, int *len))
{
    int need = -1;
    EXPECT(get(index, NULL, &need), MPI_SUCCESS);
    char *full = malloc((size_t)need + 8);
    memset(full, 'x', (size_t)need + 8);
    int len = need;
    EXPECT(get(index, full, &len), MPI_SUCCESS);
    MTEST_CHECK(len == need && (int)strlen(full) == need - 1, "%s %d: length %d, string of %zu + 1, %d needed",
                what, index, len, strlen(full), need);
    if (need > 2) {
        char small[3] = {'x', 'x', 'x'};
        len = 2;
        EXPECT(get(index, small, &len), MPI_SUCCESS);
        MTEST_CHECK(len == 2 && small[0] == full[0] && small[1] == 0 && small[2] == 'x',
                    "%s %d: truncated to 2 gives len %d", what, index, len);
    }
    free(full);
}

static int cvar_name(int i, char *buf, int *len)
{
    return MPI_T_cvar_get_info(i, buf, len, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}
static int cvar_desc(int i, char *buf, int *len)
{
    return MPI_T_cvar_get_info(i, NULL, NULL, NULL, NULL, NULL, buf, len, NULL, NULL);
}
static int pvar_name(int i, char *buf, int *len)
{
    return MPI_T_pvar_get_info(i, buf, len, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}
static int cat_name(int i, char *buf, int *len)
{
    return MPI_T_category_get_info(i, buf, len, NULL, NULL, NULL, NULL, NULL);
}

static void list_cvars(int *ncvar)
{
    EXPECT(MPI_T_cvar_get_num(ncvar), MPI_SUCCESS);
    for (int i = 0; i < *ncvar; i++) {
        char name[128], desc[1024];
        int nlen = sizeof name, dlen = sizeof desc, verb, bind, scope, count;
        MPI_Datatype dt;
        MPI_T_enum en;
        EXPECT(MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &en, desc, &dlen, &bind, &scope), MPI_SUCCESS);
        MTEST_CHECK(!strncmp(name, "DMPI_", 5) && dlen > 1, "cvar %d: name '%s', desc '%s'", i, name, desc);
        MTEST_CHECK(verb >= MPI_T_VERBOSITY_USER_BASIC && verb <= MPI_T_VERBOSITY_MPIDEV_ALL, "%s: verbosity", name);
        MTEST_CHECK(bind == MPI_T_BIND_NO_OBJECT, "%s: bind %d", name, bind);
        MTEST_CHECK(scope == MPI_T_SCOPE_CONSTANT || scope == MPI_T_SCOPE_LOCAL || scope == MPI_T_SCOPE_ALL_EQ,
                    "%s: scope %d", name, scope);
        MTEST_CHECK(dt == MPI_INT || dt == MPI_UNSIGNED_LONG || dt == MPI_DOUBLE || dt == MPI_CHAR,
                    "%s: datatype 0x%x", name, (unsigned)dt);
        MTEST_CHECK(en == MPI_T_ENUM_NULL || dt == MPI_INT, "%s: an enumeration over a non-int", name);
        int j = -1;
        EXPECT(MPI_T_cvar_get_index(name, &j), MPI_SUCCESS);
        MTEST_CHECK(j == i, "%s: get_index gives %d, not %d", name, j, i);
        check_strings("cvar name", i, cvar_name);
        check_strings("cvar desc", i, cvar_desc);
        MPI_T_cvar_handle h;
        EXPECT(MPI_T_cvar_handle_alloc(i, NULL, &h, &count), MPI_SUCCESS);
        MTEST_CHECK(dt == MPI_CHAR ? count >= 16 : count == 1, "%s: count %d", name, count);
        char value[256];
        memset(value, 0, sizeof value);
        EXPECT(MPI_T_cvar_read(h, value), MPI_SUCCESS);
        if (dt == MPI_CHAR)
            MTEST_CHECK(strlen(value) > 0 && (int)strlen(value) < count, "%s: value '%s'", name, value);
        if (en != MPI_T_ENUM_NULL) {
            int nitems = 0, v;
            EXPECT(MPI_T_enum_get_info(en, &nitems, NULL, NULL), MPI_SUCCESS);
            memcpy(&v, value, sizeof v);
            MTEST_CHECK(nitems > 1 && v >= 0 && v < nitems, "%s: value %d of %d choices", name, v, nitems);
        }
        EXPECT(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    }
}

static void check_enum_shm_path(void)
{
    int i = cvar_index("DMPI_SHM_PATH"), num = 0, value, len;
    MPI_T_enum en = MPI_T_ENUM_NULL;
    MPI_Datatype dt;
    int scope;
    EXPECT(MPI_T_cvar_get_info(i, NULL, NULL, NULL, &dt, &en, NULL, NULL, NULL, &scope), MPI_SUCCESS);
    MTEST_CHECK(dt == MPI_INT && en != MPI_T_ENUM_NULL && scope == MPI_T_SCOPE_CONSTANT,
                "DMPI_SHM_PATH: an int with an enumeration, constant");
    char name[64];
    len = sizeof name;
    EXPECT(MPI_T_enum_get_info(en, &num, name, &len), MPI_SUCCESS);
    MTEST_CHECK(num == 4 && !strcmp(name, "shm_path"), "enum '%s' of %d items", name, num);
    static const char *want[] = {"auto", "eager", "copy", "cma"};
    for (int k = 0; k < num && k < 4; k++) {
        len = sizeof name;
        EXPECT(MPI_T_enum_get_item(en, k, &value, name, &len), MPI_SUCCESS);
        MTEST_CHECK(value == k && !strcmp(name, want[k]), "item %d: %d '%s'", k, value, name);
    }
    EXPECT(MPI_T_enum_get_item(en, num, &value, name, &len), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_enum_get_item(en, -1, &value, name, &len), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_enum_get_info((MPI_T_enum)&num, &num, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &num, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_enum_get_item(MPI_T_ENUM_NULL, 0, &value, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
}

static void list_pvars(int *npvar)
{
    EXPECT(MPI_T_pvar_get_num(npvar), MPI_SUCCESS);
    MTEST_CHECK(*npvar >= 20, "%d performance variables", *npvar);
    for (int i = 0; i < *npvar; i++) {
        char name[128], desc[1024];
        int nlen = sizeof name, dlen = sizeof desc, verb, cls, bind, ro, cont, atomic;
        MPI_Datatype dt;
        MPI_T_enum en;
        EXPECT(MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &dt, &en, desc, &dlen, &bind, &ro, &cont, &atomic),
               MPI_SUCCESS);
        MTEST_CHECK(nlen > 1 && dlen > 1 && dt == MPI_UNSIGNED_LONG_LONG && en == MPI_T_ENUM_NULL &&
                        bind == MPI_T_BIND_NO_OBJECT && atomic == 0,
                    "pvar %d '%s': info", i, name);
        MTEST_CHECK(cls >= MPI_T_PVAR_CLASS_STATE && cls <= MPI_T_PVAR_CLASS_GENERIC, "%s: class %d", name, cls);
        MTEST_CHECK(cls != MPI_T_PVAR_CLASS_LEVEL || (ro && cont), "%s: a level is read-only and continuous", name);
        MTEST_CHECK(cls != MPI_T_PVAR_CLASS_COUNTER || (!ro && !cont), "%s: a counter starts and stops", name);
        int j = -1;
        EXPECT(MPI_T_pvar_get_index(name, cls, &j), MPI_SUCCESS);
        MTEST_CHECK(j == i, "%s: get_index gives %d, not %d", name, j, i);
        int other = cls == MPI_T_PVAR_CLASS_COUNTER ? MPI_T_PVAR_CLASS_LEVEL : MPI_T_PVAR_CLASS_COUNTER;
        EXPECT(MPI_T_pvar_get_index(name, other, &j), MPI_T_ERR_INVALID_NAME);
        check_strings("pvar name", i, pvar_name);
    }
}

/* Every cvar and pvar is in exactly one category; the counts of
 * category_get_info match the lists. */
static void list_categories(int ncvar, int npvar)
{
    int ncat = 0;
    EXPECT(MPI_T_category_get_num(&ncat), MPI_SUCCESS);
    MTEST_CHECK(ncat >= 6, "%d categories", ncat);
    int *cvar_seen = calloc((size_t)ncvar + 1, sizeof(int)), *pvar_seen = calloc((size_t)npvar + 1, sizeof(int));
    for (int c = 0; c < ncat; c++) {
        char name[64];
        int len = sizeof name, nc, np, nsub, nev, dlen = 0;
        EXPECT(MPI_T_category_get_info(c, name, &len, NULL, &dlen, &nc, &np, &nsub), MPI_SUCCESS);
        MTEST_CHECK(dlen > 1 && nsub == 0, "category %s: desc length %d, %d subcategories", name, dlen, nsub);
        int j = -1;
        EXPECT(MPI_T_category_get_index(name, &j), MPI_SUCCESS);
        MTEST_CHECK(j == c, "category %s: index %d, not %d", name, j, c);
        check_strings("category name", c, cat_name);
        int *idx = malloc(sizeof(int) * (size_t)(nc + np + 1));
        EXPECT(MPI_T_category_get_cvars(c, nc, idx), MPI_SUCCESS);
        for (int k = 0; k < nc; k++)
            if (MTEST_CHECK(idx[k] >= 0 && idx[k] < ncvar, "category %s: cvar %d", name, idx[k]))
                cvar_seen[idx[k]]++;
        EXPECT(MPI_T_category_get_pvars(c, np, idx), MPI_SUCCESS);
        for (int k = 0; k < np; k++)
            if (MTEST_CHECK(idx[k] >= 0 && idx[k] < npvar, "category %s: pvar %d", name, idx[k]))
                pvar_seen[idx[k]]++;
        EXPECT(MPI_T_category_get_categories(c, 0, NULL), MPI_SUCCESS);
        EXPECT(MPI_T_category_get_num_events(c, &nev), MPI_SUCCESS);
        MTEST_CHECK(nev == 0, "category %s: %d events", name, nev);
        EXPECT(MPI_T_category_get_events(c, 1, idx), MPI_SUCCESS);
        free(idx);
    }
    for (int i = 0; i < ncvar; i++)
        MTEST_CHECK(cvar_seen[i] == 1, "cvar %d is in %d categories", i, cvar_seen[i]);
    for (int i = 0; i < npvar; i++)
        MTEST_CHECK(pvar_seen[i] == 1, "pvar %d is in %d categories", i, pvar_seen[i]);
    free(cvar_seen);
    free(pvar_seen);
    int stamp1 = -1, stamp2 = -2;
    EXPECT(MPI_T_category_changed(&stamp1), MPI_SUCCESS);
    EXPECT(MPI_T_category_changed(&stamp2), MPI_SUCCESS);
    MTEST_CHECK(stamp1 == stamp2, "categories changed with nothing done");
}

/* ---- control variables --------------------------------------------------------- */

static void check_cvar_writes(void)
{
    MPI_T_cvar_handle h;
    int count;
    /* the value written before MPI_Init */
    EXPECT(MPI_T_cvar_handle_alloc(cvar_index("DMPI_HANG_TIMEOUT"), NULL, &h, &count), MPI_SUCCESS);
    double t = 0;
    EXPECT(MPI_T_cvar_read(h, &t), MPI_SUCCESS);
    MTEST_CHECK(t == 1234.5, "DMPI_HANG_TIMEOUT is %g after MPI_Init, 1234.5 was written before", t);
    double bad = -1;
    EXPECT(MPI_T_cvar_write(h, &bad), MPI_T_ERR_INVALID);
    t = 300;
    EXPECT(MPI_T_cvar_write(h, &t), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);

    /* read once at MPI_Init: never written */
    EXPECT(MPI_T_cvar_handle_alloc(cvar_index("DMPI_EAGER_LIMIT"), NULL, &h, &count), MPI_SUCCESS);
    unsigned long eager = 0, eager2;
    EXPECT(MPI_T_cvar_read(h, &eager), MPI_SUCCESS);
    MTEST_CHECK(eager > 0, "DMPI_EAGER_LIMIT reads %lu", eager);
    eager2 = eager * 2;
    EXPECT(MPI_T_cvar_write(h, &eager2), MPI_T_ERR_CVAR_SET_NEVER);
    EXPECT(MPI_T_cvar_read(h, &eager2), MPI_SUCCESS);
    MTEST_CHECK(eager2 == eager, "a refused write changed DMPI_EAGER_LIMIT");
    EXPECT(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);

    /* a string: a valid name, an unknown algorithm, an unterminated buffer */
    EXPECT(MPI_T_cvar_handle_alloc(cvar_index("DMPI_COLL_ALLREDUCE"), NULL, &h, &count), MPI_SUCCESS);
    char s[256];
    EXPECT(MPI_T_cvar_write(h, "no_such_algorithm"), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_cvar_write(h, "Ring"), MPI_T_ERR_INVALID);
    memset(s, 'a', sizeof s);
    EXPECT(MPI_T_cvar_write(h, s), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_cvar_read(h, s), MPI_SUCCESS);
    MTEST_CHECK(!strcmp(s, "auto"), "DMPI_COLL_ALLREDUCE reads '%s' after refused writes", s);
    EXPECT(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
}

/* Forcing an algorithm through DMPI_COLL_ALLREDUCE: its counter moves by
 * one per MPI_Allreduce (on a communicator made with DMPI_COLL_NODE=0, so
 * that the point-to-point algorithms run on a node too). */
static void check_cvar_effect(MPI_T_pvar_session ses)
{
    MPI_T_cvar_handle node, algo;
    int count, zero = 0, one = 1;
    EXPECT(MPI_T_cvar_handle_alloc(cvar_index("DMPI_COLL_NODE"), NULL, &node, &count), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_handle_alloc(cvar_index("DMPI_COLL_ALLREDUCE"), NULL, &algo, &count), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_write(node, &zero), MPI_SUCCESS);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    EXPECT(MPI_T_cvar_write(node, &one), MPI_SUCCESS);

    static const char *algos[] = {"ring", "recursive_doubling"};
    for (int a = 0; a < 2; a++) {
        char pname[64];
        snprintf(pname, sizeof pname, "coll_allreduce_%s", algos[a]);
        MPI_T_pvar_handle ph;
        EXPECT(MPI_T_pvar_handle_alloc(ses, pvar_index(pname, MPI_T_PVAR_CLASS_COUNTER), NULL, &ph, &count),
               MPI_SUCCESS);
        EXPECT(MPI_T_pvar_start(ses, ph), MPI_SUCCESS);
        EXPECT(MPI_T_cvar_write(algo, algos[a]), MPI_SUCCESS);
        char back[64];
        EXPECT(MPI_T_cvar_read(algo, back), MPI_SUCCESS);
        MTEST_CHECK(!strcmp(back, algos[a]), "DMPI_COLL_ALLREDUCE reads '%s'", back);
        for (int k = 0; k < 5; k++) {
            int in[4] = {mtest_rank, k, 1, 2}, out[4];
            MPI_Allreduce(in, out, 4, MPI_INT, MPI_SUM, comm);
            MTEST_CHECK(out[0] == mtest_size * (mtest_size - 1) / 2 && out[1] == k * mtest_size &&
                            out[3] == 2 * mtest_size,
                        "%s: allreduce result", algos[a]);
        }
        unsigned long long runs = 0;
        EXPECT(MPI_T_pvar_read(ses, ph, &runs), MPI_SUCCESS);
        MTEST_CHECK(runs == 5, "%s forced: its counter moved by %llu in 5 MPI_Allreduce", algos[a], runs);
        EXPECT(MPI_T_pvar_handle_free(ses, &ph), MPI_SUCCESS);
    }
    EXPECT(MPI_T_cvar_write(algo, "auto"), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_handle_free(&algo), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_handle_free(&node), MPI_SUCCESS);
    MPI_Comm_free(&comm);
}

/* ---- performance variables ------------------------------------------------------ */

static const char *tports[] = {"self", "shm", "tcp"};

/* The counters of one kind (msgs_sent, bytes_recvd, ...) of every transport. */
typedef struct {
    MPI_T_pvar_handle h[3];
} tport_set_t;

static void alloc_set(MPI_T_pvar_session ses, const char *kind, tport_set_t *set)
{
    int count;
    for (int t = 0; t < 3; t++) {
        char name[64];
        snprintf(name, sizeof name, "%s_%s", tports[t], kind);
        EXPECT(MPI_T_pvar_handle_alloc(ses, pvar_index(name, MPI_T_PVAR_CLASS_COUNTER), NULL, &set->h[t], &count),
               MPI_SUCCESS);
        MTEST_CHECK(count == 1, "%s: count %d", name, count);
    }
}

static unsigned long long read_set(MPI_T_pvar_session ses, tport_set_t *set, unsigned long long each[3])
{
    unsigned long long sum = 0;
    for (int t = 0; t < 3; t++) {
        each[t] = ~0ull;
        EXPECT(MPI_T_pvar_read(ses, set->h[t], &each[t]), MPI_SUCCESS);
        sum += each[t];
    }
    return sum;
}

/* N messages of B bytes from rank 0 to rank `to` (itself at one process):
 * the counters of one transport move by exactly N and N * B at either end. */
static void check_message_counters(MPI_T_pvar_session ses, int nmsg, int bytes)
{
    int to = mtest_size > 1 ? 1 : 0;
    tport_set_t msent, bsent, mrecv, brecv;
    alloc_set(ses, "msgs_sent", &msent);
    alloc_set(ses, "bytes_sent", &bsent);
    alloc_set(ses, "msgs_recvd", &mrecv);
    alloc_set(ses, "bytes_recvd", &brecv);
    unsigned long long each[3], zero = 0;
    MTEST_CHECK(read_set(ses, &msent, each) == 0, "a counter not started yet reads nonzero");
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    char *buf = malloc((size_t)bytes);
    if (mtest_rank == 0) {
        MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)nmsg);
        if (to == 0)
            for (int k = 0; k < nmsg; k++)
                MPI_Irecv(buf, bytes, MPI_BYTE, 0, k, MPI_COMM_WORLD, &reqs[k]);
        for (int k = 0; k < nmsg; k++) {
            mtest_fill(buf, (size_t)bytes, 0, k);
            MPI_Send(buf, bytes, MPI_BYTE, to, k, MPI_COMM_WORLD);
        }
        if (to == 0)
            MPI_Waitall(nmsg, reqs, MPI_STATUSES_IGNORE);
        free(reqs);
    } else if (mtest_rank == to) {
        for (int k = 0; k < nmsg; k++) {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            mtest_check_data(buf, (size_t)bytes, 0, k, "message %d", k);
        }
    }
    EXPECT(MPI_T_pvar_stop(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    unsigned long long n = (unsigned long long)nmsg, b = (unsigned long long)nmsg * (unsigned long long)bytes;
    unsigned long long ms = read_set(ses, &msent, each), bs = read_set(ses, &bsent, each);
    unsigned long long mr = read_set(ses, &mrecv, each), br = read_set(ses, &brecv, each);
    if (mtest_rank == 0)
        MTEST_CHECK(ms == n && bs == b, "%d x %d B sent: counters moved by %llu messages, %llu bytes", nmsg, bytes,
                    ms, bs);
    if (mtest_rank == to)
        MTEST_CHECK(mr == n && br == b, "%d x %d B received: counters moved by %llu messages, %llu bytes", nmsg,
                    bytes, mr, br);
    if (mtest_rank != 0 && mtest_rank != to)
        MTEST_CHECK(ms == 0 && bs == 0, "a rank that sent nothing counted %llu messages", ms);
    /* stopped: traffic now does not count */
    MPI_Barrier(MPI_COMM_WORLD);
    if (mtest_rank == 0)
        MPI_Send(buf, 1, MPI_BYTE, 0, 99, MPI_COMM_WORLD), MPI_Recv(buf, 1, MPI_BYTE, 0, 99, MPI_COMM_WORLD,
                                                                      MPI_STATUS_IGNORE);
    MTEST_CHECK(read_set(ses, &msent, each) == ms, "a stopped counter moved");
    /* readreset gives the value and starts again from 0; write sets it */
    unsigned long long v = 0, w = 1000;
    int t0 = 0;
    for (int t = 0; t < 3; t++)
        if (each[t])
            t0 = t;
    EXPECT(MPI_T_pvar_readreset(ses, msent.h[t0], &v), MPI_SUCCESS);
    MTEST_CHECK(v == each[t0], "readreset gives %llu, read gave %llu", v, each[t0]);
    EXPECT(MPI_T_pvar_read(ses, msent.h[t0], &v), MPI_SUCCESS);
    MTEST_CHECK(v == 0, "after readreset a counter reads %llu", v);
    EXPECT(MPI_T_pvar_write(ses, msent.h[t0], &w), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_read(ses, msent.h[t0], &v), MPI_SUCCESS);
    MTEST_CHECK(v == 1000, "after writing 1000 a counter reads %llu", v);
    EXPECT(MPI_T_pvar_reset(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    MTEST_CHECK(read_set(ses, &msent, each) == 0 && read_set(ses, &brecv, each) == 0, "reset all: not 0");
    (void)zero;
    for (int t = 0; t < 3; t++) {
        EXPECT(MPI_T_pvar_handle_free(ses, &msent.h[t]), MPI_SUCCESS);
        EXPECT(MPI_T_pvar_handle_free(ses, &bsent.h[t]), MPI_SUCCESS);
        EXPECT(MPI_T_pvar_handle_free(ses, &mrecv.h[t]), MPI_SUCCESS);
        EXPECT(MPI_T_pvar_handle_free(ses, &brecv.h[t]), MPI_SUCCESS);
        MTEST_CHECK(msent.h[t] == MPI_T_PVAR_HANDLE_NULL, "handle_free sets MPI_T_PVAR_HANDLE_NULL");
    }
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* k unexpected messages at rank 0 (from rank 1, or from itself at one
 * process): the queue's length and high-water mark reach exactly k. */
static void check_unexpected(MPI_T_pvar_session ses, int k)
{
    int from = mtest_size > 1 ? 1 : 0, count;
    MPI_T_pvar_handle len, hwm;
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT(MPI_T_pvar_handle_alloc(ses, pvar_index("unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL), NULL, &len,
                                   &count), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_handle_alloc(ses, pvar_index("unexpected_queue_hwm", MPI_T_PVAR_CLASS_HIGHWATERMARK), NULL,
                                   &hwm, &count), MPI_SUCCESS);
    unsigned long long l0 = 9, h0 = 9, l, h;
    EXPECT(MPI_T_pvar_read(ses, len, &l0), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_read(ses, hwm, &h0), MPI_SUCCESS);
    MTEST_CHECK(l0 == 0 && h0 == 0, "with nothing in flight: length %llu, mark %llu", l0, h0);
    EXPECT(MPI_T_pvar_start(ses, len), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT(MPI_T_pvar_stop(ses, hwm), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT(MPI_T_pvar_write(ses, len, &l0), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT(MPI_T_pvar_reset(ses, len), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT(MPI_T_pvar_readreset(ses, len, &l0), MPI_T_ERR_PVAR_NO_WRITE);
    /* k messages with tag 5, then one with tag 6 that a receive posted
     * beforehand takes: when it is there, the k others are there too, all
     * unexpected */
    int x = 7, y = 0;
    MPI_Request last = MPI_REQUEST_NULL;
    if (mtest_rank == 0)
        MPI_Irecv(&y, 1, MPI_INT, from, 6, MPI_COMM_WORLD, &last);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mtest_rank == from)
        for (int i = 0; i <= k; i++)
            MPI_Send(&x, 1, MPI_INT, 0, i < k ? 5 : 6, MPI_COMM_WORLD);
    if (mtest_rank == 0) {
        MPI_Wait(&last, MPI_STATUS_IGNORE);
        MTEST_CHECK(y == 7, "the last message holds %d", y);
        EXPECT(MPI_T_pvar_read(ses, len, &l), MPI_SUCCESS);
        EXPECT(MPI_T_pvar_read(ses, hwm, &h), MPI_SUCCESS);
        MTEST_CHECK(l == (unsigned long long)k && h == (unsigned long long)k,
                    "%d unexpected messages: length %llu, mark %llu", k, l, h);
        for (int i = 0; i < k; i++)
            MPI_Recv(&x, 1, MPI_INT, from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        EXPECT(MPI_T_pvar_read(ses, len, &l), MPI_SUCCESS);
        EXPECT(MPI_T_pvar_read(ses, hwm, &h), MPI_SUCCESS);
        MTEST_CHECK(l == 0 && h == (unsigned long long)k, "all received: length %llu, mark %llu", l, h);
        /* a second handle starts at the present level; resetting it keeps the first's mark */
        MPI_T_pvar_handle hwm2;
        EXPECT(MPI_T_pvar_handle_alloc(ses, pvar_index("unexpected_queue_hwm", MPI_T_PVAR_CLASS_HIGHWATERMARK),
                                       NULL, &hwm2, &count), MPI_SUCCESS);
        EXPECT(MPI_T_pvar_read(ses, hwm2, &h), MPI_SUCCESS);
        MTEST_CHECK(h == 0, "a new mark handle reads %llu with an empty queue", h);
        EXPECT(MPI_T_pvar_read(ses, hwm, &h), MPI_SUCCESS);
        MTEST_CHECK(h == (unsigned long long)k, "another handle's allocation lowered the mark to %llu", h);
        EXPECT(MPI_T_pvar_readreset(ses, hwm, &h), MPI_SUCCESS);
        MTEST_CHECK(h == (unsigned long long)k, "readreset of the mark gives %llu", h);
        EXPECT(MPI_T_pvar_read(ses, hwm, &h), MPI_SUCCESS);
        MTEST_CHECK(h == 0, "after a reset the mark reads %llu", h);
        EXPECT(MPI_T_pvar_handle_free(ses, &hwm2), MPI_SUCCESS);
    }
    EXPECT(MPI_T_pvar_handle_free(ses, &len), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_handle_free(ses, &hwm), MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* One-sided operations: each counter moves by the calls made. */
static void check_rma(MPI_T_pvar_session ses)
{
    static const char *names[] = {"rma_puts", "rma_gets", "rma_accumulates", "rma_compare_and_swaps"};
    const unsigned long long want[] = {3, 2, 4, 1};
    MPI_T_pvar_handle h[4];
    int count, *base, to = (mtest_rank + 1) % mtest_size, one = 1, got[4], old;
    for (int i = 0; i < 4; i++)
        EXPECT(MPI_T_pvar_handle_alloc(ses, pvar_index(names[i], MPI_T_PVAR_CLASS_COUNTER), NULL, &h[i], &count),
               MPI_SUCCESS);
    MPI_Win win;
    MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    memset(base, 0, 16 * sizeof(int));
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < 3; i++)
        MPI_Put(&one, 1, MPI_INT, to, i, 1, MPI_INT, win);
    MPI_Get(&got[0], 1, MPI_INT, to, 8, 1, MPI_INT, win);
    MPI_Get(&got[1], 1, MPI_INT, to, 9, 1, MPI_INT, win);
    MPI_Accumulate(&one, 1, MPI_INT, to, 4, 1, MPI_INT, MPI_SUM, win);
    MPI_Get_accumulate(&one, 1, MPI_INT, &got[2], 1, MPI_INT, to, 5, 1, MPI_INT, MPI_SUM, win);
    MPI_Fetch_and_op(&one, &got[3], MPI_INT, to, 6, MPI_SUM, win);
    MPI_Request req;
    MPI_Raccumulate(&one, 1, MPI_INT, to, 7, 1, MPI_INT, MPI_SUM, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Compare_and_swap(&one, &old, &got[0], MPI_INT, to, 10, win);
    MPI_Win_unlock_all(win);
    EXPECT(MPI_T_pvar_stop(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    for (int i = 0; i < 4; i++) {
        unsigned long long v = 0;
        EXPECT(MPI_T_pvar_read(ses, h[i], &v), MPI_SUCCESS);
        MTEST_CHECK(v == want[i], "%s moved by %llu, %llu calls were made", names[i], v, want[i]);
        EXPECT(MPI_T_pvar_handle_free(ses, &h[i]), MPI_SUCCESS);
    }
    MPI_Win_free(&win);
}

/* ---- errors ----------------------------------------------------------------------- */

static void check_errors(int ncvar, int npvar)
{
    int n, i, count, ncat;
    char buf[64];
    int len = sizeof buf;
    MPI_T_cvar_handle ch = MPI_T_CVAR_HANDLE_NULL, bogus_c = (MPI_T_cvar_handle)&n;
    MPI_T_pvar_handle ph = MPI_T_PVAR_HANDLE_NULL, bogus_p = (MPI_T_pvar_handle)&n;
    MPI_T_pvar_session ses, other, bogus_s = (MPI_T_pvar_session)&n;
    EXPECT(MPI_T_category_get_num(&ncat), MPI_SUCCESS);

    EXPECT(MPI_T_cvar_get_info(ncvar, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_cvar_get_info(-1, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_cvar_get_index("DMPI_NO_SUCH_THING", &i), MPI_T_ERR_INVALID_NAME);
    EXPECT(MPI_T_cvar_get_index("EAGER_LIMIT", &i), MPI_T_ERR_INVALID_NAME);
    EXPECT(MPI_T_cvar_get_index(NULL, &i), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_cvar_get_num(NULL), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_cvar_handle_alloc(ncvar, NULL, &ch, &count), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_cvar_handle_alloc(-1, NULL, &ch, &count), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_cvar_handle_free(&bogus_c), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_cvar_handle_free(&ch), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_cvar_read(bogus_c, buf), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_cvar_write(bogus_c, buf), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, buf), MPI_T_ERR_INVALID_HANDLE);
    /* a freed handle is invalid */
    EXPECT(MPI_T_cvar_handle_alloc(0, NULL, &ch, &count), MPI_SUCCESS);
    MPI_T_cvar_handle copy = ch;
    EXPECT(MPI_T_cvar_handle_free(&ch), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_read(copy, buf), MPI_T_ERR_INVALID_HANDLE);

    EXPECT(MPI_T_pvar_get_info(npvar, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
           MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_pvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
           MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_pvar_get_index("no_such_pvar", MPI_T_PVAR_CLASS_COUNTER, &i), MPI_T_ERR_INVALID_NAME);
    EXPECT(MPI_T_pvar_get_num(NULL), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_pvar_session_create(&ses), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_session_create(&other), MPI_SUCCESS);
    MTEST_CHECK(ses != other && ses != MPI_T_PVAR_SESSION_NULL, "two sessions");
    EXPECT(MPI_T_pvar_handle_alloc(ses, npvar, NULL, &ph, &count), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_pvar_handle_alloc(bogus_s, 0, NULL, &ph, &count), MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, 0, NULL, &ph, &count), MPI_T_ERR_INVALID_SESSION);
    int c = pvar_index("shm_msgs_sent", MPI_T_PVAR_CLASS_COUNTER);
    EXPECT(MPI_T_pvar_handle_alloc(ses, c, NULL, &ph, &count), MPI_SUCCESS);
    unsigned long long v;
    EXPECT(MPI_T_pvar_read(other, ph, &v), MPI_T_ERR_INVALID_HANDLE);      /* a handle of another session */
    EXPECT(MPI_T_pvar_start(other, ph), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_handle_free(other, &ph), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_read(bogus_s, ph, &v), MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_read(ses, bogus_p, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_read(ses, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_write(ses, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_readreset(ses, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_stop(ses, bogus_p), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_reset(ses, MPI_T_PVAR_HANDLE_NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_start(bogus_s, MPI_T_PVAR_ALL_HANDLES), MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_start(other, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);   /* an empty session */
    EXPECT(MPI_T_pvar_session_free(&bogus_s), MPI_T_ERR_INVALID_SESSION);
    /* freeing a session frees its handles */
    EXPECT(MPI_T_pvar_session_free(&ses), MPI_SUCCESS);
    MTEST_CHECK(ses == MPI_T_PVAR_SESSION_NULL, "session_free sets MPI_T_PVAR_SESSION_NULL");
    EXPECT(MPI_T_pvar_session_free(&ses), MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_session_free(&other), MPI_SUCCESS);

    EXPECT(MPI_T_category_get_info(ncat, buf, &len, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_info(-1, buf, &len, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_index("no_such_category", &i), MPI_T_ERR_INVALID_NAME);
    EXPECT(MPI_T_category_get_cvars(ncat, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_pvars(-1, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_categories(ncat, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_num_events(ncat, &n), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_events(ncat, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_cvars(0, -1, NULL), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_category_changed(NULL), MPI_T_ERR_INVALID);

    /* no sources, no events */
    MPI_Count ts;
    MPI_T_event_registration reg = (MPI_T_event_registration)&n;
    MPI_T_event_instance inst = (MPI_T_event_instance)&n;
    MPI_Info info;
    MPI_T_source_order order;
    MPI_Count tps, maxt;
    MPI_Datatype types[4];
    MPI_Aint displs[4];
    MPI_T_enum en;
    int verb, bind;
    EXPECT(MPI_T_source_get_num(&n), MPI_SUCCESS);
    MTEST_CHECK(n == 0, "%d event sources", n);
    EXPECT(MPI_T_event_get_num(&n), MPI_SUCCESS);
    MTEST_CHECK(n == 0, "%d event types", n);
    EXPECT(MPI_T_source_get_info(0, buf, &len, buf, &len, &order, &tps, &maxt, &info), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_source_get_timestamp(0, &ts), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_event_get_info(0, buf, &len, &verb, types, displs, &n, &en, &info, buf, &len, &bind),
           MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_event_get_index("no_such_event", &i), MPI_T_ERR_INVALID_NAME);
    EXPECT(MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_event_handle_get_info(reg, &info), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_handle_set_info(reg, MPI_INFO_NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, NULL),
           MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_NONE, &info), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL),
           MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_set_dropped_handler(reg, NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_handle_free(reg, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_read(inst, 0, buf), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_copy(inst, buf), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_get_timestamp(inst, &ts), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_get_source(inst, &n), MPI_T_ERR_INVALID_HANDLE);
}

/* ---- after MPI_Finalize -------------------------------------------------------------- */

static void after_finalize(void)
{
    int provided, n = 0, count;
    EXPECT(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
    EXPECT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    MPI_T_cvar_handle ch;
    EXPECT(MPI_T_cvar_handle_alloc(cvar_index("DMPI_SPIN_COUNT"), NULL, &ch, &count), MPI_SUCCESS);
    int spins = 0, more = 77;
    EXPECT(MPI_T_cvar_read(ch, &spins), MPI_SUCCESS);
    MTEST_CHECK(spins >= 1, "DMPI_SPIN_COUNT reads %d after MPI_Finalize", spins);
    EXPECT(MPI_T_cvar_write(ch, &more), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_read(ch, &spins), MPI_SUCCESS);
    MTEST_CHECK(spins == 77, "DMPI_SPIN_COUNT reads %d after writing 77", spins);
    EXPECT(MPI_T_cvar_handle_free(&ch), MPI_SUCCESS);
    MPI_T_pvar_session ses;
    MPI_T_pvar_handle ph;
    unsigned long long v = 1;
    EXPECT(MPI_T_pvar_session_create(&ses), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_handle_alloc(ses, pvar_index("unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL), NULL, &ph,
                                   &count), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_read(ses, ph, &v), MPI_SUCCESS);
    MTEST_CHECK(v == 0, "the unexpected queue holds %llu after MPI_Finalize", v);
    EXPECT(MPI_T_pvar_session_free(&ses), MPI_SUCCESS);
    /* handles and sessions left open end with the last MPI_T_finalize */
    EXPECT(MPI_T_cvar_handle_alloc(cvar_index("DMPI_SPIN_COUNT"), NULL, &ch, &count), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_session_create(&ses), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_handle_alloc(ses, 0, NULL, &ph, &count), MPI_SUCCESS);
    EXPECT(MPI_T_finalize(), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_get_num(&n), MPI_SUCCESS);   /* one init is still open */
    EXPECT(MPI_T_cvar_read(ch, &spins), MPI_SUCCESS);
    EXPECT(MPI_T_finalize(), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_read(ch, &spins), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_read(ses, ph, &v), MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_finalize(), MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    before_init();
    MPI_Init(&argc, &argv);
    mtest_start();
    int ncvar, npvar;
    list_cvars(&ncvar);
    check_enum_shm_path();
    list_pvars(&npvar);
    list_categories(ncvar, npvar);
    check_cvar_writes();
    MPI_T_pvar_session ses;
    EXPECT(MPI_T_pvar_session_create(&ses), MPI_SUCCESS);
    check_message_counters(ses, 10, 100);        /* eager */
    check_message_counters(ses, 3, 1 << 20);     /* rendezvous on a node, eager or not on TCP */
    check_message_counters(ses, 5, 0);
    check_unexpected(ses, 8);
    check_cvar_effect(ses);
    check_rma(ses);
    EXPECT(MPI_T_pvar_session_free(&ses), MPI_SUCCESS);
    check_errors(ncvar, npvar);
    EXPECT(MPI_T_finalize(), MPI_SUCCESS);       /* the one of before_init */
    int n;
    EXPECT(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);

    int total = mtest_global_errors();
    MPI_Finalize();
    int before = mtest_error_count();
    after_finalize();
    int late = mtest_error_count() - before;
    if (mtest_rank == 0) {
        if (total == 0 && late == 0)
            printf("No Errors\n");
        else
            printf(" Found %d errors\n", total + late);
    }
    return total != 0 || mtest_error_count() != 0;
}
