/* Every collective algorithm of src/coll/algo/, for p = 1 .. 17 ranks in
 * this one process, as Gloo tests its algorithms: no MPI_Init, no
 * transport. For each case every rank's schedule is built by calling the
 * algorithm on a fake communicator (rank r of p) and is never started; a
 * small simulator runs the p schedules against each other:
 *   - rounds in order; the i-th send from a to b meets the i-th receive
 *     that b posts from a (FIFO per ordered pair, as a schedule's one tag
 *     gives on a real transport); their byte counts must be equal (else
 *     truncation) and the data moves through the pack engine;
 *   - a send is complete only once matched (no eager buffering), so a
 *     schedule that passes cannot deadlock whatever its message sizes;
 *   - a rank whose current round has all its messages matched runs that
 *     round's local steps (dmpi_sched_local_steps, the engine's own code)
 *     and starts the next; no rank able to move while some are unfinished
 *     is a deadlock, reported with every stuck rank's round and the steps
 *     it waits for;
 *   - within a round no receive may overlap a send or another receive of
 *     the same rank (a race on a real transport), no copy may overlap its
 *     source and no reduction its input; no rank sends to itself;
 *   - scratch memory is filled with junk before the run, so that reading
 *     it before writing it shows.
 * Buffers are hashed from (case, rank, buffer, byte) and have 32 guard
 * bytes on either side; after a case every byte of every buffer is compared
 * with what it must hold: the initial bytes, with the result computed here
 * directly (sums, a non-commutative op folded in rank order, blocks moved)
 * unpacked into its places. So outputs are exact, and inputs, the gaps of
 * derived types, the receive buffers of ranks where they do not count and
 * the guards are untouched.
 * Inputs: counts 0, 1, 7, 100 or 1000; MPI_INT with MPI_SUM; a
 * non-commutative user op (composition of affine maps on MPI_2INT) for the
 * algorithms that take one; a vector with gaps and an indexed type whose
 * typemap runs backwards in memory (lb 4), alone and with a different type
 * of the same signature at the other end; roots 0, p/2 and p - 1;
 * MPI_IN_PLACE wherever the standard allows it. */
#include "coll/coll.h"
#include "coll/sched_internal.h"
#include "core/op.h"
#include "p2p/p2p.h"
#include "unit.h"
#include <malloc.h>
#include <stdarg.h>
#include <sys/uio.h>
#include <time.h>

/* ---- the point-to-point layer: never reached, nothing is started -------- */

static void not_here(const char *fn)
{
    fprintf(stderr, "FAIL: %s called: a schedule was started\n", fn);
    exit(3);
}
bool dmpi_send_try_direct(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c)
{
    (void)buf, (void)count, (void)dt, (void)dest, (void)tag, (void)c;
    not_here(__func__);
    return false;
}
int dmpi_isend(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c, int mode,
               dmpi_request_t **out)
{
    (void)buf, (void)count, (void)dt, (void)dest, (void)tag, (void)c, (void)mode, (void)out;
    not_here(__func__);
    return MPI_ERR_INTERN;
}
int dmpi_irecv(void *buf, MPI_Count count, dmpi_dtype_t *dt, int src, int tag, dmpi_comm_t *c, dmpi_request_t **out)
{
    (void)buf, (void)count, (void)dt, (void)src, (void)tag, (void)c, (void)out;
    not_here(__func__);
    return MPI_ERR_INTERN;
}
void dmpi_progress_add_hook(dmpi_progress_fn *fn)
{
    (void)fn;
    not_here(__func__);
}
void dmpi_progress_remove_hook(dmpi_progress_fn *fn)
{
    (void)fn;
    not_here(__func__);
}
void dmpi_progress_until(bool (*cond)(void *), void *arg)
{
    (void)cond, (void)arg;
    not_here(__func__);
}
void dmpi_progress_until_described(bool (*cond)(void *), void *arg, void (*describe)(void *, char *, size_t))
{
    (void)cond, (void)arg, (void)describe;
    not_here(__func__);
}

/* ---- types, ops, reference arithmetic ------------------------------------ */

#define MAXP 17
#define GUARD 32

static dmpi_dtype_t *t_int, *t_vec, *t_idx, *t_2int;
static dmpi_op_t *op_sum, *op_affine;
static int affine_bad_type;

/* ints in one element */
static size_t ipe(const dmpi_dtype_t *dt) { return dt->size / sizeof(int); }

/* An element of MPI_2INT is the map x -> a x + b (mod 2^32); in op inout
 * applies `in` (the lower ranks) first: inout = inout o in. Associative,
 * not commutative, so the result shows the order of combination. */
static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    uint32_t *l = in, *h = inout;
    if (*dt != MPI_2INT)
        affine_bad_type++;
    for (int i = 0; i < *len; i++) {
        uint32_t a = h[2 * i] * l[2 * i], b = h[2 * i] * l[2 * i + 1] + h[2 * i + 1];
        h[2 * i] = a;
        h[2 * i + 1] = b;
    }
}

/* acc = acc (lower ranks) op in (higher), on nbytes of packed data */
static void ref_combine(void *acc, const void *in, size_t nbytes, bool user)
{
    uint32_t *a = acc, v[2];
    const unsigned char *x = in;
    if (!user) {
        for (size_t i = 0; i < nbytes / 4; i++) {
            memcpy(v, x + 4 * i, 4);
            a[i] += v[0];
        }
        return;
    }
    for (size_t i = 0; i < nbytes / 8; i++) {
        memcpy(v, x + 8 * i, 8);
        uint32_t na = v[0] * a[2 * i], nb = v[0] * a[2 * i + 1] + v[1];
        a[2 * i] = na;
        a[2 * i + 1] = nb;
    }
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Bytes a buffer of count elements of dt spans from its address (our types
 * have lb >= 0 and a positive extent). */
static size_t span(const dmpi_dtype_t *dt, size_t count)
{
    return count ? (size_t)((MPI_Aint)(count - 1) * dt->extent + dt->true_lb + dt->true_extent) : 0;
}

/* ---- buffers with guards and their expected contents ---------------------- */

typedef struct region {
    unsigned char *mem, *want;   /* GUARD + len + GUARD bytes; want: what mem must hold at the end */
    size_t len;
} region_t;

static uint64_t case_no;

static void reg_new(region_t *g, size_t len, int rank, int which)
{
    size_t all = len + 2 * GUARD;
    uint64_t seed = mix(case_no * 64 + (uint64_t)rank * 4 + (uint64_t)which);
    g->len = len;
    g->mem = malloc(all);
    g->want = malloc(all);
    for (size_t i = 0; i < all; i += 8) {
        uint64_t h = mix(seed + i);
        memcpy(g->mem + i, &h, all - i < 8 ? all - i : 8);
    }
    memcpy(g->want, g->mem, all);
}

static void reg_free(region_t *g)
{
    free(g->mem);
    free(g->want);
    g->mem = g->want = NULL;
}

static void *ub(const region_t *g) { return g->mem + GUARD; }
static void *wb(const region_t *g) { return g->want + GUARD; }

/* Input of the user op: the maps' factors odd, so no product loses bits. */
static void oddify(region_t *g)
{
    for (size_t i = 0; i + 8 <= g->len; i += 8) {
        g->mem[GUARD + i] |= 1;
        g->want[GUARD + i] |= 1;
    }
}

/* Memory that lives until the end of the case (reference streams). */
static void **arena;
static size_t narena, arenacap;
static void *xalloc(size_t n)
{
    if (narena == arenacap) {
        arenacap = arenacap ? 2 * arenacap : 64;
        arena = realloc(arena, arenacap * sizeof *arena);
    }
    return arena[narena++] = malloc(n ? n : 1);
}
static void arena_free(void)
{
    while (narena)
        free(arena[--narena]);
}

/* The packed data of count elements of dt at buf. */
static void *stream_of(const dmpi_dtype_t *dt, const void *buf, size_t count)
{
    size_t n = count * dt->size;
    void *s = xalloc(n);
    if (n)
        dmpi_dtype_pack_range(dt, buf, 0, n, s);
    return s;
}

/* Expected: count elements of dt at `at` of the region hold stream. */
static void expect(const region_t *g, size_t at, const dmpi_dtype_t *dt, size_t count, const void *stream)
{
    if (count * dt->size > 0)
        dmpi_dtype_unpack_range(dt, (char *)wb(g) + at, 0, count * dt->size, stream);
}

/* ---- cases and their reports --------------------------------------------- */

typedef struct algo_stat {
    const char *name;
    int cases, failed, notes;
    double t0;
} algo_stat_t;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);   /* the machine may be busy with others */
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static algo_stat_t st;
static char where[200];
static bool case_bad;

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
    if (!case_bad)
        st.failed++;
    case_bad = true;
    if (st.notes++ >= 6)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s %s: ", st.name, where);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void algo_begin(const char *name)
{
    memset(&st, 0, sizeof st);
    st.name = name;
    st.t0 = now_ms();
}

static void algo_end(const char *dims)
{
    printf("  %-44s %5d cases %4.0f ms  %s\n", st.name, st.cases, now_ms() - st.t0, dims);
    CHECK(st.failed == 0, "%s: %d of %d cases failed", st.name, st.failed, st.cases);
}

static void case_begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void case_begin(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where, sizeof where, fmt, ap);
    va_end(ap);
    case_bad = false;
    case_no++;
    st.cases++;
}

static void reg_check(const region_t *g, int rank, const char *name)
{
    size_t all = g->len + 2 * GUARD;
    if (!g->mem || !memcmp(g->mem, g->want, all))
        return;
    size_t i = 0, n = 0;
    while (g->mem[i] == g->want[i])
        i++;
    for (size_t j = i; j < all; j++)
        n += g->mem[j] != g->want[j];
    long off = (long)i - GUARD;
    bad("rank %d %s: %zu bytes differ, first at offset %ld%s (0x%02x, want 0x%02x)", rank, name, n, off,
        off < 0 || (size_t)off >= g->len ? " (guard)" : "", g->mem[i], g->want[i]);
}

/* ---- the simulator --------------------------------------------------------- */

static dmpi_comm_t comms[MAXP];
static dmpi_sched_t *sch[MAXP];
static int np;                   /* ranks of the case */

typedef struct qent {
    int step;
    uint32_t know;               /* sends: the ranks the sender had heard from when it posted */
} qent_t;
typedef struct fifo {
    qent_t *v;
    int head, n, cap;
} fifo_t;
/* [a][b]: sends from a to b, and receives that b posted from a */
static fifo_t sendq[MAXP][MAXP], recvq[MAXP][MAXP];
static int rnd[MAXP], pending[MAXP];
static uint32_t know[MAXP];      /* ranks heard from, directly or not (the barrier's duty) */
static unsigned char *matched[MAXP];
static bool broken;              /* the simulation cannot go on */
static unsigned char *wire;      /* one message in flight, packed */
static uint64_t nschedules, nmessages, nbytes;   /* for the last line */
static size_t wirecap;

static void push(fifo_t *f, qent_t e)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 16;
        f->v = realloc(f->v, (size_t)f->cap * sizeof *f->v);
    }
    f->v[f->n++] = e;
}

static size_t step_bytes(const step_t *t) { return t->count * t->dt->size; }

static void match(int a, int b)
{
    fifo_t *sq = &sendq[a][b], *rq = &recvq[a][b];
    while (!broken && sq->head < sq->n && rq->head < rq->n) {
        qent_t se = sq->v[sq->head++], re = rq->v[rq->head++];
        step_t *ts = &sch[a]->steps[se.step], *tr = &sch[b]->steps[re.step];
        size_t n = step_bytes(ts), rn = step_bytes(tr);
        if (n != rn) {
            bad("rank %d (round %d) sends %zu bytes to rank %d, whose receive (round %d) takes %zu", a, rnd[a], n, b,
                rnd[b], rn);
            broken = true;
            return;
        }
        if (n) {
            if (n > wirecap) {
                wirecap = n;
                wire = realloc(wire, wirecap);
            }
            dmpi_dtype_pack_range(ts->dt, ts->src, 0, n, wire);
            dmpi_dtype_unpack_range(tr->dt, tr->dst, 0, n, wire);
        }
        know[b] |= se.know;
        nmessages++;
        nbytes += n;
        matched[a][se.step] = matched[b][re.step] = 1;
        pending[a]--;
        pending[b]--;
    }
}

/* Byte ranges that steps read or write, to find overlaps. */
typedef struct ival {
    uintptr_t lo, hi;
    int step;
    bool write;
} ival_t;
static ival_t *ivs;
static size_t nivs, ivcap;

static void add_ivals(const dmpi_dtype_t *dt, const void *buf, size_t count, int step, bool write)
{
    size_t n = count * dt->size, done = 0;
    while (done < n) {
        struct iovec iov[64];
        size_t covered;
        int k = dmpi_dtype_iov(dt, buf, done, n - done, iov, 64, &covered);
        for (int i = 0; i < k; i++) {
            if (nivs == ivcap) {
                ivcap = ivcap ? 2 * ivcap : 256;
                ivs = realloc(ivs, ivcap * sizeof *ivs);
            }
            uintptr_t lo = (uintptr_t)iov[i].iov_base;
            ivs[nivs++] = (ival_t){lo, lo + iov[i].iov_len, step, write};
        }
        done += covered;
    }
}

static int by_lo(const void *x, const void *y)
{
    const ival_t *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* An overlap of a write with anything else: the two steps, or false. */
static bool overlap(int *s1, int *s2)
{
    qsort(ivs, nivs, sizeof *ivs, by_lo);
    const ival_t *far = NULL, *farw = NULL;   /* the earlier ranges reaching furthest */
    for (size_t i = 0; i < nivs; i++) {
        const ival_t *x = &ivs[i];
        const ival_t *hit = x->write ? far : farw;
        if (hit && x->lo < hit->hi && hit->step != x->step) {
            *s1 = hit->step;
            *s2 = x->step;
            return true;
        }
        if (!far || x->hi > far->hi)
            far = x;
        if (x->write && (!farw || x->hi > farw->hi))
            farw = x;
    }
    return false;
}

static const char *kind_name(int k)
{
    return k == STEP_SEND ? "send" : k == STEP_RECV ? "receive" : k == STEP_REDUCE ? "reduction" : "copy";
}

/* The bytes count elements of dt at buf may touch, as one range. */
static void hull(const dmpi_dtype_t *dt, const void *buf, size_t count, uintptr_t *lo, uintptr_t *hi)
{
    MPI_Aint reach = (MPI_Aint)(count - 1) * dt->extent;
    *lo = (uintptr_t)buf + (uintptr_t)(dt->true_lb + (reach < 0 ? reach : 0));
    *hi = (uintptr_t)buf + (uintptr_t)(dt->true_lb + dt->true_extent + (reach > 0 ? reach : 0));
}

/* Whether the data of two typed buffers share a byte: their hulls first,
 * then byte ranges when the hulls meet (interleaved types). */
static bool touch(const dmpi_dtype_t *d1, const void *b1, size_t n1, const dmpi_dtype_t *d2, const void *b2,
                  size_t n2)
{
    uintptr_t lo1, hi1, lo2, hi2;
    int a, b;
    if (!n1 || !n2 || !d1->size || !d2->size)
        return false;
    hull(d1, b1, n1, &lo1, &hi1);
    hull(d2, b2, n2, &lo2, &hi2);
    if (hi1 <= lo2 || hi2 <= lo1)
        return false;
    nivs = 0;
    add_ivals(d1, b1, n1, 0, true);
    add_ivals(d2, b2, n2, 1, true);
    return overlap(&a, &b);
}

/* The round's communication must not race, its local steps not overlap. */
static void check_hazards(int r, int lo, int hi)
{
    dmpi_sched_t *s = sch[r];
    for (int i = lo; i < hi; i++) {
        step_t *t = &s->steps[i];
        if (t->kind == STEP_RECV) {   /* a receive against every other message of the round */
            for (int j = lo; j < hi; j++) {
                step_t *u = &s->steps[j];
                if (j == i || (u->kind != STEP_SEND && u->kind != STEP_RECV) || (u->kind == STEP_RECV && j < i))
                    continue;
                if (touch(t->dt, t->dst, t->count, u->dt, u->kind == STEP_SEND ? u->src : u->dst, u->count))
                    bad("rank %d round %d: the receive from rank %d overlaps the %s %s rank %d", r, rnd[r], t->peer,
                        kind_name(u->kind), u->kind == STEP_SEND ? "to" : "from", u->peer);
            }
        } else if (t->kind == STEP_REDUCE) {
            if (t->src == t->dst || touch(t->dt, t->src, t->count, t->dt, t->dst, t->count))
                bad("rank %d round %d: a reduction whose input overlaps its result", r, rnd[r]);
        } else if (t->kind == STEP_COPY) {
            if (touch(t->dt, t->src, t->count, t->ddt, t->dst, t->dcount))
                bad("rank %d round %d: a copy whose source and destination overlap", r, rnd[r]);
        }
    }
}

/* Posts rank r's current round. */
static void post(int r)
{
    dmpi_sched_t *s = sch[r];
    int k = rnd[r], lo = k ? s->round_end[k - 1] : 0, hi = s->round_end[k];
    check_hazards(r, lo, hi);
    for (int i = lo; i < hi; i++) {
        step_t *t = &s->steps[i];
        if (t->kind != STEP_SEND && t->kind != STEP_RECV)
            continue;
        if (t->peer < 0 || t->peer >= np) {
            bad("rank %d round %d: a %s with rank %d of %d", r, k, kind_name(t->kind), t->peer, np);
            broken = true;
            return;
        }
        if (t->peer == r)
            bad("rank %d round %d: a %s to itself (the own block is a local copy)", r, k, kind_name(t->kind));
        if (t->kind == STEP_SEND)
            push(&sendq[r][t->peer], (qent_t){i, know[r]});
        else
            push(&recvq[t->peer][r], (qent_t){i, 0});
        pending[r]++;
    }
    for (int i = lo; i < hi; i++) {
        step_t *t = &s->steps[i];
        if (t->kind == STEP_SEND)
            match(r, t->peer);
        else if (t->kind == STEP_RECV)
            match(t->peer, r);
    }
}

static void report_stuck(void)
{
    char line[400];
    for (int r = 0; r < np; r++) {
        dmpi_sched_t *s = sch[r];
        if (rnd[r] >= s->nrounds)
            continue;
        int k = rnd[r], lo = k ? s->round_end[k - 1] : 0, hi = s->round_end[k], shown = 0;
        size_t at = (size_t)snprintf(line, sizeof line, "deadlock: rank %d in round %d of %d waits for", r, k,
                                     s->nrounds);
        for (int i = lo; i < hi && at < sizeof line; i++) {
            step_t *t = &s->steps[i];
            if ((t->kind != STEP_SEND && t->kind != STEP_RECV) || matched[r][i])
                continue;
            if (shown++ == 4) {
                at += (size_t)snprintf(line + at, sizeof line - at, " ...");
                break;
            }
            at += (size_t)snprintf(line + at, sizeof line - at, " %s %s rank %d (%zu bytes)", kind_name(t->kind),
                                   t->kind == STEP_SEND ? "to" : "from", t->peer, step_bytes(t));
        }
        bad("%s", line);
    }
}

/* Runs the p built schedules against each other; true if all finished. */
static bool simulate(bool barrier)
{
    uint32_t all = np == 32 ? ~0u : (1u << np) - 1;
    broken = false;
    for (int a = 0; a < np; a++)
        for (int b = 0; b < np; b++)
            sendq[a][b].head = sendq[a][b].n = recvq[a][b].head = recvq[a][b].n = 0;
    for (int r = 0; r < np; r++) {
        rnd[r] = pending[r] = 0;
        know[r] = 1u << r;
        matched[r] = calloc((size_t)sch[r]->nsteps + 1, 1);
    }
    for (int r = 0; r < np && !broken; r++)
        if (sch[r]->nrounds)
            post(r);
    bool moved = true;
    while (moved && !broken) {
        moved = false;
        for (int r = 0; r < np && !broken; r++) {
            dmpi_sched_t *s = sch[r];
            while (!broken && rnd[r] < s->nrounds && pending[r] == 0) {
                dmpi_sched_local_steps(s, rnd[r]);
                if (s->err != MPI_SUCCESS) {
                    bad("rank %d round %d: a local step failed (error %d)", r, rnd[r], s->err);
                    s->err = MPI_SUCCESS;
                }
                moved = true;
                if (++rnd[r] < s->nrounds)
                    post(r);
            }
        }
    }
    bool done = !broken;
    for (int r = 0; r < np && done; r++)
        done = rnd[r] == sch[r]->nrounds;
    if (!broken && !done)
        report_stuck();
    for (int r = 0; r < np && done && barrier; r++)
        if (know[r] != all)
            bad("rank %d left the barrier without hearing from every rank (mask 0x%x)", r, know[r]);
    for (int r = 0; r < np; r++) {
        free(matched[r]);
        matched[r] = NULL;
    }
    return done;
}

typedef int build_fn(dmpi_sched_t *s, dmpi_comm_t *c);

/* Builds every rank's schedule with build, simulates, frees them. */
static void run(int p, build_fn *build, bool barrier)
{
    bool built = true;
    np = p;
    for (int r = 0; r < p; r++) {
        comms[r] = (dmpi_comm_t){.handle = MPI_COMM_WORLD, .rank = r, .size = p, .peer_size = p,
                                 .errhandler = MPI_ERRORS_RETURN, .refcount = 1, .coll_tag = -1};
        comms[r].obj = &comms[r];
        sch[r] = NULL;
        int err = dmpi_sched_new(&comms[r], &sch[r]);
        nschedules++;
        if (err == MPI_SUCCESS)
            err = build(sch[r], &comms[r]);
        if (err == MPI_SUCCESS)
            err = dmpi_sched_close_rounds(sch[r]);
        if (err != MPI_SUCCESS) {
            bad("rank %d: building the schedule failed (error %d)", r, err);
            built = false;
        }
    }
    if (built) {
        for (int r = 0; r < p; r++) {
            dmpi_sched_t *s = sch[r];
            if (s->tag != sch[0]->tag)
                bad("rank %d's schedule has tag %d, rank 0's %d", r, s->tag, sch[0]->tag);
            for (int i = 0; i < s->ntmps; i++)   /* junk: scratch must be written before it is read */
                memset(s->tmps[i].p, 0xdb, s->tmps[i].cap);
        }
        simulate(barrier);
    }
    for (int r = 0; r < p; r++)
        if (sch[r])
            dmpi_sched_free(sch[r]);
}

/* ---- the case parameters --------------------------------------------------- */

static region_t sreg[MAXP], rreg[MAXP];

static struct {
    int root;
    size_t n;
    bool inplace;
    dmpi_dtype_t *sdt, *rdt, *dt;
    size_t scount, rcount, ratio;     /* ratio: sdt elements per rdt element */
    dmpi_op_t *op;
    MPI_Count counts[MAXP];
    MPI_Aint displs[MAXP];
    /* alltoallv/w: [rank][peer] */
    MPI_Count scnt[MAXP][MAXP], rcnt[MAXP][MAXP];
    MPI_Aint sdsp[MAXP][MAXP], rdsp[MAXP][MAXP];
    MPI_Datatype sty[MAXP][MAXP], rty[MAXP][MAXP];
    int shape;                        /* alltoall family: SHAPE_* */
    int window;
    union {
        int (*bcast)(dmpi_sched_t *, dmpi_comm_t *, void *, size_t, dmpi_dtype_t *, int);
        int (*reduce)(dmpi_sched_t *, dmpi_comm_t *, const void *, void *, size_t, dmpi_dtype_t *, dmpi_op_t *, int);
        int (*allred)(dmpi_sched_t *, dmpi_comm_t *, const void *, void *, size_t, dmpi_dtype_t *, dmpi_op_t *);
        int (*rs)(dmpi_sched_t *, dmpi_comm_t *, const void *, void *, const MPI_Count *, dmpi_dtype_t *, dmpi_op_t *);
        int (*move)(dmpi_sched_t *, dmpi_comm_t *, const dmpi_move_t *);
    } fn;
    int a2av;                         /* A2AV_* */
} cs;

static void free_regions(int p)
{
    for (int r = 0; r < p; r++) {
        reg_free(&sreg[r]);
        reg_free(&rreg[r]);
    }
    arena_free();
}

static void check_regions(int p)
{
    for (int r = 0; r < p; r++) {
        reg_check(&sreg[r], r, "send buffer");
        reg_check(&rreg[r], r, "receive buffer");
    }
}

/* Counts: where the data grow as p (broadcast, reductions, rooted
 * collectives) up to 1000, but 100 for the derived types, whose element-wise
 * packing costs the most; where they grow as p^2 up to 100. */
static const size_t counts_linear[] = {0, 1, 7, 1000};
static const size_t counts_square[] = {0, 1, 7, 100};
#define NCOUNTS 4
static size_t count_linear(int ci, const dmpi_dtype_t *a, const dmpi_dtype_t *b)
{
    return a->contig && b->contig ? counts_linear[ci] : counts_square[ci];
}

/* Roots 0, p/2 and p - 1, each once. */
static int roots_of(int p, int *roots)
{
    int n = 0, cand[3] = {0, p / 2, p - 1};
    for (int i = 0; i < 3; i++) {
        bool dup = false;
        for (int j = 0; j < n; j++)
            dup |= roots[j] == cand[i];
        if (!dup)
            roots[n++] = cand[i];
    }
    return n;
}

/* Type pairs of the data movement: (send type, receive type), the same
 * signature: n receive elements are n * ratio send elements. */
typedef struct tpair {
    const char *name;
    dmpi_dtype_t **s, **r;
} tpair_t;
static const tpair_t tpairs[] = {{"int", &t_int, &t_int}, {"int->vec", &t_int, &t_vec}, {"vec->idx", &t_vec, &t_idx}};
#define NTPAIRS 3

static void set_pair(const tpair_t *tp)
{
    cs.sdt = *tp->s;
    cs.rdt = *tp->r;
    cs.ratio = ipe(cs.rdt) / ipe(cs.sdt);
}

/* Irregular block sizes with zeros, in elements: a v form's counts[j]. */
static int vary(int j, size_t n) { return (int)(((size_t)j * 7 + n) % (n + 3)); }

/* Blocks laid out backwards with a one-element gap before each; returns the
 * elements the whole layout spans. */
static size_t layout_backwards(const MPI_Count *cnt, MPI_Aint *disp, int p)
{
    size_t at = 1;
    for (int j = p - 1; j >= 0; j--) {
        disp[j] = (MPI_Aint)at;
        at += (size_t)cnt[j] + 1;
    }
    return at;
}

/* ---- barrier ------------------------------------------------------------- */

static int build_barrier(dmpi_sched_t *s, dmpi_comm_t *c) { return dmpi_barrier_dissemination(s, c); }

static void test_barrier(void)
{
    algo_begin("barrier_dissemination");
    for (int p = 1; p <= MAXP; p++) {
        case_begin("p=%d", p);
        run(p, build_barrier, true);
    }
    algo_end("p 1..17; every rank hears from all before it leaves");
}

/* ---- broadcast ------------------------------------------------------------ */

static int build_bcast(dmpi_sched_t *s, dmpi_comm_t *c)
{
    bool root = c->rank == cs.root;
    return cs.fn.bcast(s, c, ub(&rreg[c->rank]), root ? cs.scount : cs.rcount, root ? cs.sdt : cs.rdt, cs.root);
}

static void test_bcast(const char *name,
                       int (*fn)(dmpi_sched_t *, dmpi_comm_t *, void *, size_t, dmpi_dtype_t *, int))
{
    algo_begin(name);
    cs.fn.bcast = fn;
    for (int p = 1; p <= MAXP; p++)
        for (int ci = 0; ci < NCOUNTS; ci++)
            for (int tp = 0; tp < NTPAIRS; tp++) {
                int roots[3], nr = roots_of(p, roots);
                for (int ri = 0; ri < nr; ri++) {
                    set_pair(&tpairs[tp]);
                    size_t n = count_linear(ci, cs.sdt, cs.rdt);
                    cs.root = roots[ri];
                    cs.rcount = n;
                    cs.scount = n * cs.ratio;
                    case_begin("p=%d count=%zu root=%d types=%s", p, n, cs.root, tpairs[tp].name);
                    for (int r = 0; r < p; r++)
                        reg_new(&rreg[r], r == cs.root ? span(cs.sdt, cs.scount) : span(cs.rdt, n), r, 1);
                    void *data = stream_of(cs.sdt, ub(&rreg[cs.root]), cs.scount);
                    run(p, build_bcast, false);
                    for (int r = 0; r < p; r++)
                        if (r != cs.root)
                            expect(&rreg[r], 0, cs.rdt, n, data);
                    check_regions(p);
                    free_regions(p);
                }
            }
    algo_end("p 1..17 x count 0,1,7,1000 (derived 100) x root 0,p/2,p-1 x types int, int->vec, vec->idx");
}

/* ---- reductions ------------------------------------------------------------ */

/* The reduction types: (type, op). */
typedef struct rtype {
    const char *name;
    dmpi_dtype_t **dt;
    dmpi_op_t **op;
} rtype_t;
static const rtype_t rtypes[] = {
    {"int sum", &t_int, &op_sum}, {"vec sum", &t_vec, &op_sum}, {"idx sum", &t_idx, &op_sum},
    {"2int affine (non-commutative)", &t_2int, &op_affine},
};
#define NRTYPES 4

/* The input of rank r (its send buffer, or its receive buffer in place). */
static region_t *input_of(int r, bool inplace) { return inplace ? &rreg[r] : &sreg[r]; }

/* Packed inputs x[r] of count elements each; fold[r] = x[lo] op ... op x[r]
 * for r >= lo (lo = 0: inclusive scans from rank 0). */
static void inputs(int p, size_t count, bool inplace_all, int inplace_rank, void **x)
{
    for (int r = 0; r < p; r++) {
        region_t *g = input_of(r, inplace_all || r == inplace_rank);
        if (cs.op == op_affine)
            oddify(g);
        x[r] = stream_of(cs.dt, ub(g), count);
    }
}

static void *fold(void **x, int from, int to, size_t nbytes)
{
    void *acc = xalloc(nbytes);
    memcpy(acc, x[from], nbytes);
    for (int r = from + 1; r <= to; r++)
        ref_combine(acc, x[r], nbytes, cs.op == op_affine);
    return acc;
}

static int build_reduce(dmpi_sched_t *s, dmpi_comm_t *c)
{
    int r = c->rank;
    const void *sb = cs.inplace && r == cs.root ? MPI_IN_PLACE : ub(&sreg[r]);
    return cs.fn.reduce(s, c, sb, ub(&rreg[r]), cs.n, cs.dt, cs.op, cs.root);
}

static void test_reduce(const char *name,
                        int (*fn)(dmpi_sched_t *, dmpi_comm_t *, const void *, void *, size_t, dmpi_dtype_t *,
                                  dmpi_op_t *, int),
                        bool any_op)
{
    algo_begin(name);
    cs.fn.reduce = fn;
    for (int p = 1; p <= MAXP; p++)
        for (int ci = 0; ci < NCOUNTS; ci++)
            for (int ti = 0; ti < (any_op ? NRTYPES : NRTYPES - 1); ti++)
                for (int ip = 0; ip < 2; ip++) {
                    int roots[3], nr = roots_of(p, roots);
                    for (int ri = 0; ri < nr; ri++) {
                        cs.dt = *rtypes[ti].dt;
                        size_t n = count_linear(ci, cs.dt, cs.dt);
                        cs.n = n;
                        cs.op = *rtypes[ti].op;
                        cs.root = roots[ri];
                        cs.inplace = ip;
                        case_begin("p=%d count=%zu root=%d %s%s", p, n, cs.root, rtypes[ti].name,
                                   ip ? " in place" : "");
                        for (int r = 0; r < p; r++) {
                            if (!(ip && r == cs.root))
                                reg_new(&sreg[r], span(cs.dt, n), r, 0);
                            reg_new(&rreg[r], span(cs.dt, n), r, 1);
                        }
                        void *x[MAXP];
                        inputs(p, n, false, ip ? cs.root : -1, x);
                        void *want = fold(x, 0, p - 1, n * cs.dt->size);
                        run(p, build_reduce, false);
                        expect(&rreg[cs.root], 0, cs.dt, n, want);
                        check_regions(p);
                        free_regions(p);
                    }
                }
    algo_end(any_op ? "p 1..17 x count 0,1,7,1000 (derived 100) x root 0,p/2,p-1 x int,vec,idx sum + 2int affine"
                      " x in place"
                    : "p 1..17 x count 0,1,7,1000 (derived 100) x root 0,p/2,p-1 x int,vec,idx sum x in place");
}

static int build_allreduce(dmpi_sched_t *s, dmpi_comm_t *c)
{
    int r = c->rank;
    return cs.fn.allred(s, c, cs.inplace ? MPI_IN_PLACE : ub(&sreg[r]), ub(&rreg[r]), cs.n, cs.dt, cs.op);
}

/* kind: 0 allreduce, 1 scan, 2 exscan */
static void test_allreduce(const char *name,
                           int (*fn)(dmpi_sched_t *, dmpi_comm_t *, const void *, void *, size_t, dmpi_dtype_t *,
                                     dmpi_op_t *),
                           bool any_op, int kind)
{
    algo_begin(name);
    cs.fn.allred = fn;
    for (int p = 1; p <= MAXP; p++)
        for (int ci = 0; ci < NCOUNTS; ci++)
            for (int ti = 0; ti < (any_op ? NRTYPES : NRTYPES - 1); ti++)
                for (int ip = 0; ip < 2; ip++) {
                    cs.dt = *rtypes[ti].dt;
                    size_t n = count_linear(ci, cs.dt, cs.dt), nb;
                    cs.n = n;
                    cs.op = *rtypes[ti].op;
                    cs.inplace = ip;
                    nb = n * cs.dt->size;
                    case_begin("p=%d count=%zu %s%s", p, n, rtypes[ti].name, ip ? " in place" : "");
                    for (int r = 0; r < p; r++) {
                        if (!ip)
                            reg_new(&sreg[r], span(cs.dt, n), r, 0);
                        reg_new(&rreg[r], span(cs.dt, n), r, 1);
                    }
                    void *x[MAXP], *all = NULL;
                    inputs(p, n, ip, -1, x);
                    if (kind == 0)
                        all = fold(x, 0, p - 1, nb);
                    void *want[MAXP], *pre[MAXP];   /* pre[r] = x[0] op ... op x[r] */
                    for (int r = 0; r < p; r++) {
                        pre[r] = xalloc(nb);
                        memcpy(pre[r], r ? pre[r - 1] : x[0], nb);
                        if (r)
                            ref_combine(pre[r], x[r], nb, cs.op == op_affine);
                        want[r] = kind == 0 ? all : kind == 1 ? pre[r] : r ? pre[r - 1] : NULL;
                    }
                    run(p, build_allreduce, false);
                    for (int r = 0; r < p; r++)
                        if (want[r])   /* exscan: rank 0's receive buffer stays as it was */
                            expect(&rreg[r], 0, cs.dt, n, want[r]);
                    check_regions(p);
                    free_regions(p);
                }
    algo_end(any_op ? "p 1..17 x count 0,1,7,1000 (derived 100) x int,vec,idx sum + 2int affine x in place"
                    : "p 1..17 x count 0,1,7,1000 (derived 100) x int,vec,idx sum x in place");
}

static int build_rs(dmpi_sched_t *s, dmpi_comm_t *c)
{
    int r = c->rank;
    return cs.fn.rs(s, c, cs.inplace ? MPI_IN_PLACE : ub(&sreg[r]), ub(&rreg[r]), cs.counts, cs.dt, cs.op);
}

static void test_reduce_scatter(const char *name,
                                int (*fn)(dmpi_sched_t *, dmpi_comm_t *, const void *, void *, const MPI_Count *,
                                          dmpi_dtype_t *, dmpi_op_t *),
                                bool any_op)
{
    algo_begin(name);
    cs.fn.rs = fn;
    for (int p = 1; p <= MAXP; p++)
        for (int ci = 0; ci < NCOUNTS; ci++)
            for (int v = 0; v < 2; v++)
                for (int ti = 0; ti < (any_op ? NRTYPES : NRTYPES - 1); ti++)
                    for (int ip = 0; ip < 2; ip++) {
                        size_t n = counts_square[ci], total = 0;
                        cs.dt = *rtypes[ti].dt;
                        cs.op = *rtypes[ti].op;
                        cs.inplace = ip;
                        for (int j = 0; j < p; j++)
                            total += (size_t)(cs.counts[j] = v ? vary(j, n) : (int)n);
                        case_begin("p=%d count=%zu%s %s%s", p, n, v ? " (varied)" : "", rtypes[ti].name,
                                   ip ? " in place" : "");
                        for (int r = 0; r < p; r++) {
                            if (!ip)
                                reg_new(&sreg[r], span(cs.dt, total), r, 0);
                            reg_new(&rreg[r], span(cs.dt, ip ? total : (size_t)cs.counts[r]), r, 1);
                        }
                        void *x[MAXP];
                        inputs(p, total, ip, -1, x);
                        unsigned char *all = fold(x, 0, p - 1, total * cs.dt->size);
                        run(p, build_rs, false);
                        size_t at = 0;
                        for (int r = 0; r < p; at += (size_t)cs.counts[r], r++)
                            expect(&rreg[r], 0, cs.dt, (size_t)cs.counts[r], all + at * cs.dt->size);
                        check_regions(p);
                        free_regions(p);
                    }
    algo_end(any_op ? "p 1..17 x count 0,1,7,100 uniform+varied x int,vec,idx sum + 2int affine x in place"
                    : "p 1..17 x count 0,1,7,100 uniform+varied x int,vec,idx sum x in place");
}

/* ---- gather, scatter -------------------------------------------------------- */

static int build_gather(dmpi_sched_t *s, dmpi_comm_t *c)
{
    int r = c->rank;
    bool v = cs.shape;
    dmpi_move_t m = {.sbuf = cs.inplace && r == cs.root ? MPI_IN_PLACE : ub(&sreg[r]),
                     .scount = v ? (size_t)cs.counts[r] * cs.ratio : cs.scount, .sdt = cs.sdt,
                     .rbuf = ub(&rreg[r]), .rcount = cs.rcount, .rdt = cs.rdt, .root = cs.root};
    if (v) {
        m.rcounts = cs.counts;
        m.rdispls = cs.displs;
    }
    return cs.fn.move(s, c, &m);
}

/* shape 0: gather, 1: gatherv */
static void test_gather(const char *name, int (*fn)(dmpi_sched_t *, dmpi_comm_t *, const dmpi_move_t *), int shape)
{
    algo_begin(name);
    cs.fn.move = fn;
    cs.shape = shape;
    for (int p = 1; p <= MAXP; p++)
        for (int ci = 0; ci < NCOUNTS; ci++)
            for (int tp = 0; tp < NTPAIRS; tp++)
                for (int ip = 0; ip < 2; ip++) {
                    int roots[3], nr = roots_of(p, roots);
                    for (int ri = 0; ri < nr; ri++) {
                        set_pair(&tpairs[tp]);
                        size_t n = count_linear(ci, cs.sdt, cs.rdt), relems;
                        cs.root = roots[ri];
                        cs.inplace = ip;
                        cs.rcount = n;
                        cs.scount = n * cs.ratio;
                        if (shape) {
                            for (int j = 0; j < p; j++)
                                cs.counts[j] = vary(j, n);
                            relems = layout_backwards(cs.counts, cs.displs, p);
                        } else {
                            relems = (size_t)p * n;
                        }
                        case_begin("p=%d count=%zu root=%d types=%s%s", p, n, cs.root, tpairs[tp].name,
                                   ip ? " in place" : "");
                        for (int r = 0; r < p; r++) {
                            size_t sn = shape ? (size_t)cs.counts[r] * cs.ratio : cs.scount;
                            if (!(ip && r == cs.root))
                                reg_new(&sreg[r], span(cs.sdt, sn), r, 0);
                            /* elsewhere the receive buffer does not count: one block, to stay untouched */
                            reg_new(&rreg[r], span(cs.rdt, r == cs.root ? relems : n), r, 1);
                        }
                        void *x[MAXP];
                        for (int r = 0; r < p; r++)
                            x[r] = ip && r == cs.root ? NULL
                                                      : stream_of(cs.sdt, ub(&sreg[r]),
                                                                  shape ? (size_t)cs.counts[r] * cs.ratio : cs.scount);
                        run(p, build_gather, false);
                        for (int j = 0; j < p; j++) {
                            size_t at = shape ? (size_t)cs.displs[j] : (size_t)j * n;
                            if (x[j])
                                expect(&rreg[cs.root], at * (size_t)cs.rdt->extent, cs.rdt,
                                       shape ? (size_t)cs.counts[j] : n, x[j]);
                        }
                        check_regions(p);
                        free_regions(p);
                    }
                }
    algo_end(shape ? "p 1..17 x count 0,1,7,1000 (derived 100, varied) x root 0,p/2,p-1 x 3 type pairs x in place"
                   : "p 1..17 x count 0,1,7,1000 (derived 100) x root 0,p/2,p-1 x 3 type pairs x in place");
}

static int build_scatter(dmpi_sched_t *s, dmpi_comm_t *c)
{
    int r = c->rank;
    bool v = cs.shape;
    dmpi_move_t m = {.sbuf = ub(&sreg[r]), .scount = cs.scount, .sdt = cs.sdt,
                     .rbuf = cs.inplace && r == cs.root ? MPI_IN_PLACE : ub(&rreg[r]),
                     .rcount = v ? (size_t)cs.counts[r] : cs.rcount, .rdt = cs.rdt, .root = cs.root};
    if (v) {
        m.scounts = cs.scnt[0];
        m.sdispls = cs.displs;
    }
    return cs.fn.move(s, c, &m);
}

/* shape 0: scatter, 1: scatterv */
static void test_scatter(const char *name, int (*fn)(dmpi_sched_t *, dmpi_comm_t *, const dmpi_move_t *), int shape)
{
    algo_begin(name);
    cs.fn.move = fn;
    cs.shape = shape;
    for (int p = 1; p <= MAXP; p++)
        for (int ci = 0; ci < NCOUNTS; ci++)
            for (int tp = 0; tp < NTPAIRS; tp++)
                for (int ip = 0; ip < 2; ip++) {
                    int roots[3], nr = roots_of(p, roots);
                    for (int ri = 0; ri < nr; ri++) {
                        set_pair(&tpairs[tp]);
                        size_t n = count_linear(ci, cs.sdt, cs.rdt), selems;
                        cs.root = roots[ri];
                        cs.inplace = ip;
                        cs.rcount = n;
                        cs.scount = n * cs.ratio;
                        if (shape) {   /* counts[] in receive elements, scnt[0][] the root's in send elements */
                            for (int j = 0; j < p; j++) {
                                cs.counts[j] = vary(j, n);
                                cs.scnt[0][j] = cs.counts[j] * (int)cs.ratio;
                            }
                            selems = layout_backwards(cs.scnt[0], cs.displs, p);
                        } else {
                            selems = (size_t)p * cs.scount;
                        }
                        case_begin("p=%d count=%zu root=%d types=%s%s", p, n, cs.root, tpairs[tp].name,
                                   ip ? " in place" : "");
                        for (int r = 0; r < p; r++) {
                            /* elsewhere the send buffer does not count: one block, to stay untouched */
                            reg_new(&sreg[r], span(cs.sdt, r == cs.root ? selems : cs.scount), r, 0);
                            if (!(ip && r == cs.root))
                                reg_new(&rreg[r], span(cs.rdt, shape ? (size_t)cs.counts[r] : n), r, 1);
                        }
                        void *x[MAXP];
                        for (int j = 0; j < p; j++) {
                            size_t at = shape ? (size_t)cs.displs[j] : (size_t)j * cs.scount;
                            x[j] = stream_of(cs.sdt, (char *)ub(&sreg[cs.root]) + at * (size_t)cs.sdt->extent,
                                             shape ? (size_t)cs.scnt[0][j] : cs.scount);
                        }
                        run(p, build_scatter, false);
                        for (int r = 0; r < p; r++)
                            if (!(ip && r == cs.root))
                                expect(&rreg[r], 0, cs.rdt, shape ? (size_t)cs.counts[r] : n, x[r]);
                        check_regions(p);
                        free_regions(p);
                    }
                }
    algo_end(shape ? "p 1..17 x count 0,1,7,1000 (derived 100, varied) x root 0,p/2,p-1 x 3 type pairs x in place"
                   : "p 1..17 x count 0,1,7,1000 (derived 100) x root 0,p/2,p-1 x 3 type pairs x in place");
}

/* ---- allgather, allgatherv -------------------------------------------------- */

static int build_allgather(dmpi_sched_t *s, dmpi_comm_t *c)
{
    int r = c->rank;
    dmpi_move_t m = {.sbuf = cs.inplace ? MPI_IN_PLACE : ub(&sreg[r]),
                     .scount = cs.shape ? (size_t)cs.counts[r] * cs.ratio : cs.scount, .sdt = cs.sdt,
                     .rbuf = ub(&rreg[r]), .rcount = cs.rcount, .rdt = cs.rdt};
    if (cs.shape) {
        m.rcounts = cs.counts;
        m.rdispls = cs.displs;
    }
    return cs.fn.move(s, c, &m);
}

/* shape 0: allgather, 1: allgatherv */
static void test_allgather(const char *name, int (*fn)(dmpi_sched_t *, dmpi_comm_t *, const dmpi_move_t *),
                           int shape, bool pof2_only)
{
    algo_begin(name);
    cs.fn.move = fn;
    cs.shape = shape;
    for (int p = 1; p <= MAXP; p++) {
        if (pof2_only && (p & (p - 1)))
            continue;
        for (int ci = 0; ci < NCOUNTS; ci++)
            for (int tp = 0; tp < NTPAIRS; tp++)
                for (int ip = 0; ip < 2; ip++) {
                    size_t n = counts_square[ci], relems;
                    set_pair(&tpairs[tp]);
                    cs.inplace = ip;
                    cs.rcount = n;
                    cs.scount = n * cs.ratio;
                    if (shape) {
                        for (int j = 0; j < p; j++)
                            cs.counts[j] = vary(j, n);
                        relems = layout_backwards(cs.counts, cs.displs, p);
                    } else {
                        relems = (size_t)p * n;
                    }
                    case_begin("p=%d count=%zu types=%s%s", p, n, tpairs[tp].name, ip ? " in place" : "");
                    for (int r = 0; r < p; r++) {
                        size_t bn = shape ? (size_t)cs.counts[r] : n;
                        if (!ip)
                            reg_new(&sreg[r], span(cs.sdt, bn * cs.ratio), r, 0);
                        reg_new(&rreg[r], span(cs.rdt, relems), r, 1);
                    }
                    void *x[MAXP];
                    for (int j = 0; j < p; j++) {
                        size_t bn = shape ? (size_t)cs.counts[j] : n;
                        size_t bat = shape ? (size_t)cs.displs[j] : (size_t)j * n;
                        x[j] = ip ? stream_of(cs.rdt, (char *)ub(&rreg[j]) + bat * (size_t)cs.rdt->extent, bn)
                                  : stream_of(cs.sdt, ub(&sreg[j]), bn * cs.ratio);
                    }
                    run(p, build_allgather, false);
                    for (int r = 0; r < p; r++)
                        for (int j = 0; j < p; j++) {
                            size_t bn = shape ? (size_t)cs.counts[j] : n;
                            size_t bat = shape ? (size_t)cs.displs[j] : (size_t)j * n;
                            expect(&rreg[r], bat * (size_t)cs.rdt->extent, cs.rdt, bn, x[j]);
                        }
                    check_regions(p);
                    free_regions(p);
                }
    }
    algo_end(pof2_only ? "p 1,2,4,8,16 x count 0,1,7,100 x 3 type pairs x in place"
                       : "p 1..17 x count 0,1,7,100 x 3 type pairs x in place");
}

/* ---- alltoall, alltoallv, alltoallw ------------------------------------------ */

enum { SHAPE_A2A, SHAPE_A2AV, SHAPE_A2AW };
enum { A2AV_PAIRWISE, A2AV_LINEAR, A2AV_THROTTLED, A2AV_MIXED, A2A_BRUCK };
static dmpi_dtype_t **const tri[3] = {&t_int, &t_vec, &t_idx};

/* Elements (of the receive type; the w form: pairs of ints) from i to j:
 * a quarter of the pairs empty; sym: the same both ways (in place). */
static int a2a_elems(int i, int j, size_t n, bool sym)
{
    if (sym && i > j) {
        int t = i;
        i = j;
        j = t;
    }
    uint64_t h = mix((uint64_t)i * 131 + (uint64_t)j + n * 7919);
    if (h % 4 == 0 || n == 0)
        return 0;
    return (int)((h >> 8) % (n + 1));
}

/* Rank r's blocks (size[j] units each) one unit apart, in an order of
 * their own: rank r + k first for odd r, rank r - 1 - k for even r. disp[j]
 * in units (in_units) or bytes; returns the units or bytes spanned. */
static size_t layout_perm(int r, int p, const size_t *bytes, MPI_Aint *disp, size_t unit, bool in_units)
{
    size_t at = unit;
    for (int k = 0; k < p; k++) {
        int j = r % 2 ? (r + k) % p : (r + p - 1 - k) % p;
        disp[j] = (MPI_Aint)(in_units ? at / unit : at);
        at += (bytes[j] + unit - 1) / unit * unit + unit;
    }
    return at;
}

static int build_a2a(dmpi_sched_t *s, dmpi_comm_t *c)
{
    int r = c->rank, err;
    dmpi_move_t m = {.sbuf = cs.inplace ? MPI_IN_PLACE : ub(&sreg[r]), .rbuf = ub(&rreg[r])};
    switch (cs.shape) {
    case SHAPE_A2A:
        m.scount = cs.scount, m.sdt = cs.sdt, m.rcount = cs.rcount, m.rdt = cs.rdt;
        break;
    case SHAPE_A2AV:
        m.scounts = cs.scnt[r], m.sdispls = cs.sdsp[r], m.sdt = cs.sdt;
        m.rcounts = cs.rcnt[r], m.rdispls = cs.rdsp[r], m.rdt = cs.rdt;
        break;
    default:
        m.scounts = cs.scnt[r], m.sdispls = cs.sdsp[r], m.stypes = cs.sty[r];
        m.rcounts = cs.rcnt[r], m.rdispls = cs.rdsp[r], m.rtypes = cs.rty[r];
        break;
    }
    if (cs.inplace) {
        m.scounts = NULL, m.sdispls = NULL, m.stypes = NULL, m.sdt = NULL;
        if (cs.a2av != A2A_BRUCK && (err = dmpi_move_pack_inplace(s, c, &m)) != MPI_SUCCESS)
            return err;   /* as select.c does; Bruck packs in place itself */
    }
    int algo = cs.a2av == A2AV_MIXED ? r % 3 : cs.a2av;
    switch (algo) {
    case A2AV_PAIRWISE: return dmpi_alltoallv_pairwise(s, c, &m);
    case A2AV_LINEAR: return dmpi_alltoallv_linear(s, c, &m);
    case A2AV_THROTTLED: return dmpi_alltoallv_throttled(s, c, &m, cs.a2av == A2AV_MIXED ? 2 : cs.window);
    default: return dmpi_alltoall_bruck(s, c, &m);
    }
}

/* Rank r's block for j: where it is (bytes from the buffer), count, type. */
static void sblock(int r, int j, size_t *at, size_t *count, dmpi_dtype_t **dt)
{
    if (cs.inplace) {
        if (cs.shape == SHAPE_A2A) {
            *dt = cs.rdt, *count = cs.rcount, *at = (size_t)j * cs.rcount * (size_t)cs.rdt->extent;
        } else if (cs.shape == SHAPE_A2AV) {
            *dt = cs.rdt, *count = (size_t)cs.rcnt[r][j], *at = (size_t)cs.rdsp[r][j] * (size_t)cs.rdt->extent;
        } else {
            *dt = dmpi_dtype_get(cs.rty[r][j]), *count = (size_t)cs.rcnt[r][j], *at = (size_t)cs.rdsp[r][j];
        }
        return;
    }
    if (cs.shape == SHAPE_A2A)
        *dt = cs.sdt, *count = cs.scount, *at = (size_t)j * cs.scount * (size_t)cs.sdt->extent;
    else if (cs.shape == SHAPE_A2AV)
        *dt = cs.sdt, *count = (size_t)cs.scnt[r][j], *at = (size_t)cs.sdsp[r][j] * (size_t)cs.sdt->extent;
    else
        *dt = dmpi_dtype_get(cs.sty[r][j]), *count = (size_t)cs.scnt[r][j], *at = (size_t)cs.sdsp[r][j];
}

static void rblock(int r, int j, size_t *at, size_t *count, dmpi_dtype_t **dt)
{
    if (cs.shape == SHAPE_A2A)
        *dt = cs.rdt, *count = cs.rcount, *at = (size_t)j * cs.rcount * (size_t)cs.rdt->extent;
    else if (cs.shape == SHAPE_A2AV)
        *dt = cs.rdt, *count = (size_t)cs.rcnt[r][j], *at = (size_t)cs.rdsp[r][j] * (size_t)cs.rdt->extent;
    else
        *dt = dmpi_dtype_get(cs.rty[r][j]), *count = (size_t)cs.rcnt[r][j], *at = (size_t)cs.rdsp[r][j];
}

/* Sets up the counts, displacements and types of every rank; returns the
 * bytes of each rank's send and receive buffers in sbytes[], rbytes[]. */
static void a2a_layout(int p, size_t n, size_t *sbytes, size_t *rbytes)
{
    bool sym = cs.inplace;
    for (int r = 0; r < p; r++) {
        size_t sb[MAXP], rb[MAXP];
        if (cs.shape == SHAPE_A2A) {
            sbytes[r] = span(cs.sdt, (size_t)p * cs.scount);
            rbytes[r] = span(cs.rdt, (size_t)p * cs.rcount);
            continue;
        }
        for (int j = 0; j < p; j++) {
            int out = a2a_elems(r, j, n, sym), in = a2a_elems(j, r, n, sym);
            if (cs.shape == SHAPE_A2AV) {
                cs.scnt[r][j] = out * (int)cs.ratio;
                cs.rcnt[r][j] = in;
                sb[j] = (size_t)cs.scnt[r][j];
                rb[j] = (size_t)in;
            } else {   /* 2 ints per element count, in the types of the pair (r, j) */
                dmpi_dtype_t *st = *tri[(r + j) % 3], *rt = *tri[(2 * r + j + 1) % 3];
                if (sym)   /* in place: the receive side describes both */
                    st = rt;
                cs.sty[r][j] = st->handle;
                cs.rty[r][j] = rt->handle;
                cs.scnt[r][j] = out * 2 / (int)ipe(st);
                cs.rcnt[r][j] = in * 2 / (int)ipe(rt);
                sb[j] = span(st, (size_t)cs.scnt[r][j]);
                rb[j] = span(rt, (size_t)cs.rcnt[r][j]);
            }
        }
        if (cs.shape == SHAPE_A2AV) {
            sbytes[r] = span(cs.sdt, layout_perm(r, p, sb, cs.sdsp[r], 1, true));
            rbytes[r] = span(cs.rdt, layout_perm(r + 1, p, rb, cs.rdsp[r], 1, true));
        } else {
            sbytes[r] = layout_perm(r, p, sb, cs.sdsp[r], 4, false);
            rbytes[r] = layout_perm(r + 1, p, rb, cs.rdsp[r], 4, false);
        }
    }
}

static const char *const a2a_shapes[] = {"alltoall", "alltoallv", "alltoallw"};

static void test_alltoall(const char *name, int algo, int shape, int window)
{
    char full[80];
    snprintf(full, sizeof full, "%s [%s]", name, a2a_shapes[shape]);
    algo_begin(full);
    cs.a2av = algo;
    cs.shape = shape;
    cs.window = window;
    for (int p = 1; p <= MAXP; p++)
        for (int ci = 0; ci < NCOUNTS; ci++)
            for (int tp = 0; tp < (shape == SHAPE_A2AW ? 1 : NTPAIRS); tp++)
                for (int ip = 0; ip < 2; ip++) {
                    size_t n = counts_square[ci], sbytes[MAXP], rbytes[MAXP];
                    set_pair(&tpairs[tp]);
                    cs.inplace = ip;
                    cs.rcount = n;
                    cs.scount = n * cs.ratio;
                    a2a_layout(p, n, sbytes, rbytes);
                    case_begin("p=%d count=%zu types=%s%s", p, n,
                               shape == SHAPE_A2AW ? "int,vec,idx mixed" : tpairs[tp].name, ip ? " in place" : "");
                    for (int r = 0; r < p; r++) {
                        if (!ip)
                            reg_new(&sreg[r], sbytes[r], r, 0);
                        reg_new(&rreg[r], rbytes[r], r, 1);
                    }
                    /* x[j][r]: what rank j sends to rank r */
                    static void *x[MAXP][MAXP];
                    for (int j = 0; j < p; j++)
                        for (int r = 0; r < p; r++) {
                            size_t at, count;
                            dmpi_dtype_t *dt;
                            sblock(j, r, &at, &count, &dt);
                            x[j][r] = stream_of(dt, (char *)ub(ip ? &rreg[j] : &sreg[j]) + at, count);
                        }
                    run(p, build_a2a, false);
                    for (int r = 0; r < p; r++)
                        for (int j = 0; j < p; j++) {
                            size_t at, count;
                            dmpi_dtype_t *dt;
                            if (ip && j == r)
                                continue;   /* in place: the own block stays */
                            rblock(r, j, &at, &count, &dt);
                            expect(&rreg[r], at, dt, count, x[j][r]);
                        }
                    check_regions(p);
                    free_regions(p);
                }
    algo_end(shape == SHAPE_A2AW ? "p 1..17 x count 0,1,7,100 (sparse) x per-peer types x in place"
             : shape == SHAPE_A2AV ? "p 1..17 x count 0,1,7,100 (sparse) x 3 type pairs x in place"
                                   : "p 1..17 x count 0,1,7,100 x 3 type pairs x in place");
}

/* ---- main -------------------------------------------------------------------- */

static dmpi_dtype_t *make(int combiner, int nints, const int *ints)
{
    MPI_Datatype i32 = MPI_INT;
    dmpi_dtype_t *dt = NULL;
    int err = dmpi_dtype_create(combiner, nints, ints, 0, NULL, 1, &i32, &dt);
    CHECK(err == MPI_SUCCESS && dt, "created a derived type (combiner %d)", combiner);
    return dt;
}

int main(void)
{
    unit_watchdog(60);
    /* buffers come and go by the thousand: keep them off mmap, whose fresh
     * pages would cost more than the test itself */
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    dmpi_dtype_init();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);

    /* vector(2, 1, 3) of int: ints at 0 and 12, extent 16 (gaps 4..12) */
    const int vec[3] = {2, 1, 3};
    /* indexed {1 at int 3, 1 at int 1}: the typemap runs backwards in memory; lb 4, extent 12 */
    const int idx[5] = {2, 1, 1, 3, 1};
    t_vec = make(MPI_COMBINER_VECTOR, 3, vec);
    t_idx = make(MPI_COMBINER_INDEXED, 5, idx);
    t_int = dmpi_dtype_get(MPI_INT);
    t_2int = dmpi_dtype_get(MPI_2INT);
    op_sum = dmpi_op_get(MPI_SUM);
    MPI_Op h = MPI_OP_NULL;
    CHECK(dmpi_op_create(affine, NULL, false, &h) == MPI_SUCCESS, "created the user op");
    op_affine = dmpi_op_get(h);
    if (!t_vec || !t_idx || !op_affine || !op_sum)
        return unit_summary("coll_algos");
    CHECK(t_vec->size == 8 && t_vec->extent == 16 && !t_vec->contig, "vector(2, 1, 3): size %zu extent %ld",
          t_vec->size, (long)t_vec->extent);
    CHECK(t_idx->size == 8 && t_idx->extent == 12 && t_idx->lb == 4 && t_idx->true_lb == 4,
          "indexed: size %zu lb %ld extent %ld", t_idx->size, (long)t_idx->lb, (long)t_idx->extent);

    printf("collective algorithms, p = 1 .. %d ranks in one process:\n", MAXP);
    RUN(test_barrier);
    test_bcast("bcast_binomial", dmpi_bcast_binomial);
    test_bcast("bcast_scatter_allgather", dmpi_bcast_scatter_allgather);
    test_reduce("reduce_binomial", dmpi_reduce_binomial, true);
    test_reduce("reduce_scatter_gather", dmpi_reduce_scatter_gather, false);
    test_allreduce("allreduce_recursive_doubling", dmpi_allreduce_recursive_doubling, true, 0);
    test_allreduce("allreduce_reduce_scatter_allgather", dmpi_allreduce_reduce_scatter_allgather, false, 0);
    test_allreduce("allreduce_ring", dmpi_allreduce_ring, false, 0);
    test_reduce_scatter("reduce_scatter_recursive_halving", dmpi_reduce_scatter_recursive_halving, false);
    test_reduce_scatter("reduce_scatter_pairwise", dmpi_reduce_scatter_pairwise, false);
    test_reduce_scatter("reduce_scatter_reduce_scatterv", dmpi_reduce_scatter_reduce_scatterv, true);
    test_allreduce("scan_recursive_doubling", dmpi_scan_recursive_doubling, true, 1);
    test_allreduce("exscan_recursive_doubling", dmpi_exscan_recursive_doubling, true, 2);
    test_gather("gather_binomial", dmpi_gather_binomial, 0);
    test_gather("gather_linear", dmpi_gather_linear, 0);
    test_gather("gatherv_linear", dmpi_gatherv_linear, 1);
    test_scatter("scatter_binomial", dmpi_scatter_binomial, 0);
    test_scatter("scatter_linear", dmpi_scatter_linear, 0);
    test_scatter("scatterv_linear", dmpi_scatterv_linear, 1);
    test_allgather("allgather_recursive_doubling", dmpi_allgather_recursive_doubling, 0, true);
    test_allgather("allgather_bruck", dmpi_allgather_bruck, 0, false);
    test_allgather("allgather_ring", dmpi_allgather_ring, 0, false);
    test_allgather("allgatherv_recursive_doubling", dmpi_allgatherv_recursive_doubling, 1, true);
    test_allgather("allgatherv_ring", dmpi_allgatherv_ring, 1, false);
    test_alltoall("alltoall_bruck", A2A_BRUCK, SHAPE_A2A, 0);
    for (int shape = SHAPE_A2A; shape <= SHAPE_A2AW; shape++) {
        test_alltoall("alltoallv_pairwise", A2AV_PAIRWISE, shape, 0);
        test_alltoall("alltoallv_linear", A2AV_LINEAR, shape, 0);
        test_alltoall("alltoallv_throttled(window 1)", A2AV_THROTTLED, shape, 1);
        test_alltoall("alltoallv_throttled(window 3)", A2AV_THROTTLED, shape, 3);
        test_alltoall("alltoallv mixed (rank % 3 picks)", A2AV_MIXED, shape, 0);
    }
    CHECK(affine_bad_type == 0, "the user op always got MPI_2INT (%d times not)", affine_bad_type);

    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%llu schedules, %llu messages matched, %.1f MB moved; %.0f ms (%.0f ms of CPU)\n",
           (unsigned long long)nschedules, (unsigned long long)nmessages, (double)nbytes / 1e6,
           (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6, now_ms());

    for (int a = 0; a < MAXP; a++)
        for (int b = 0; b < MAXP; b++) {
            free(sendq[a][b].v);
            free(recvq[a][b].v);
        }
    free(ivs);
    free(wire);
    free(arena);
    dmpi_dtype_release(t_vec);
    dmpi_dtype_release(t_idx);
    dmpi_op_free(op_affine);
    dmpi_op_finalize();
    dmpi_dtype_finalize();
    return unit_summary("coll_algos");
}
