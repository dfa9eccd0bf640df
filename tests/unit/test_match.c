/* Matching queues (p2p/match.c) and request objects (p2p/request.c):
 *   - posted and unexpected queues keep arrival order, the first match wins;
 *   - MPI_ANY_SOURCE / MPI_ANY_TAG (ANY_TAG never matches the negative
 *     tags of internal traffic);
 *   - unpost (cancel) from head, middle and tail, and of a request that is
 *     not (or no longer) in that queue;
 *   - many context ids: queues are separate and stay put as the table grows;
 *   - a long random run against a reference model (arrive / post / probe /
 *     cancel on several contexts) that also checks both link directions;
 *   - the request pool: handles, lookup, reuse, completion duties, statuses. */
#include "p2p/match.h"
#include "unit.h"
#include <string.h>

extern int unit_bsend_releases;
extern void *unit_bsend_last_region;

static dmpi_request_t *recv_req(uint32_t ctx, int src, int tag)
{
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_RECV);
    if (!r) {
        fprintf(stderr, "FAIL: request pool exhausted\n");
        exit(2);
    }
    r->ctx = ctx;
    r->rank = src;
    r->tag = tag;
    return r;
}

static dmpi_msg_t *msg(uint32_t ctx, int src, int tag)
{
    dmpi_msg_t *m = dmpi_msg_alloc(16);
    m->ctx = ctx;
    m->src = src;
    m->tag = tag;
    return m;
}

/* Walks a posted queue both ways: its length, or -1 if the links disagree. */
static int posted_len(const dmpi_matchq_t *q)
{
    int n = 0;
    const dmpi_request_t *prev = NULL, *r;
    for (r = q->posted_head; r; prev = r, r = r->next, n++)
        if (r->prev != prev || n > 1000000)
            return -1;
    return prev == q->posted_tail ? n : -1;
}

static int unexp_len(const dmpi_matchq_t *q)
{
    int n = 0;
    const dmpi_msg_t *prev = NULL, *m;
    for (m = q->unexp_head; m; prev = m, m = m->next, n++)
        if (m->prev != prev || n > 1000000)
            return -1;
    return prev == q->unexp_tail ? n : -1;
}

/* ---- fixed cases ------------------------------------------------------- */

static void test_match_rule(void)
{
    CHECK(dmpi_match(3, 7, 3, 7), "exact source and tag do not match");
    CHECK(!dmpi_match(3, 7, 4, 7) && !dmpi_match(3, 7, 3, 8), "a different source or tag matches");
    CHECK(dmpi_match(MPI_ANY_SOURCE, 7, 0, 7) && dmpi_match(MPI_ANY_SOURCE, 7, 123456, 7),
          "ANY_SOURCE does not match every source");
    CHECK(!dmpi_match(MPI_ANY_SOURCE, 7, 0, 8), "ANY_SOURCE ignores the tag");
    CHECK(dmpi_match(2, MPI_ANY_TAG, 2, 0) && dmpi_match(2, MPI_ANY_TAG, 2, 32767) &&
          dmpi_match(MPI_ANY_SOURCE, MPI_ANY_TAG, 9, 1 << 30), "ANY_TAG does not match every tag >= 0");
    CHECK(!dmpi_match(2, MPI_ANY_TAG, 3, 0), "ANY_TAG ignores the source");
    CHECK(!dmpi_match(MPI_ANY_SOURCE, MPI_ANY_TAG, 0, -5) && !dmpi_match(0, MPI_ANY_TAG, 0, -2),
          "ANY_TAG matches a negative (internal) tag");
    CHECK(dmpi_match(0, -5, 0, -5), "an exact negative tag does not match itself");
}

static void test_posted_order(void)
{
    dmpi_matchq_t *q = dmpi_mq(1);
    dmpi_request_t *r1 = recv_req(1, 1, 5), *r2 = recv_req(1, MPI_ANY_SOURCE, 5);
    dmpi_request_t *r3 = recv_req(1, 1, MPI_ANY_TAG), *r4 = recv_req(1, 2, 7);
    dmpi_request_t *r5 = recv_req(1, MPI_ANY_SOURCE, MPI_ANY_TAG);
    dmpi_mq_post(q, r1);
    dmpi_mq_post(q, r2);
    dmpi_mq_post(q, r3);
    dmpi_mq_post(q, r4);
    dmpi_mq_post(q, r5);
    CHECK(posted_len(q) == 5, "posted queue length %d after five posts", posted_len(q));

    CHECK(dmpi_mq_take_posted(q, 9, 9) == r5, "(9, 9) does not take the ANY/ANY receive");
    CHECK(dmpi_mq_take_posted(q, 1, 5) == r1, "(1, 5) does not take the first posted match");
    CHECK(dmpi_mq_take_posted(q, 2, 5) == r2, "(2, 5) does not take the ANY_SOURCE receive");
    CHECK(dmpi_mq_take_posted(q, 1, 5) == r3, "(1, 5) does not take the ANY_TAG receive next");
    CHECK(dmpi_mq_take_posted(q, 1, 5) == NULL, "(1, 5) matches although no receive is left for it");
    CHECK(dmpi_mq_take_posted(q, 2, 8) == NULL, "(2, 8) matches a receive for tag 7");
    CHECK(posted_len(q) == 1 && q->posted_head == r4, "the (2, 7) receive is not left alone in the queue");
    CHECK(dmpi_mq_take_posted(q, 2, 7) == r4, "(2, 7) is not taken");
    CHECK(q->posted_head == NULL && q->posted_tail == NULL, "queue not empty after taking everything");
    CHECK(r1->next == NULL && r1->prev == NULL && r4->next == NULL && r4->prev == NULL,
          "a taken request still has links");

    /* ANY_TAG receives let internal (negative-tag) messages pass. */
    dmpi_mq_post(q, r5);
    dmpi_mq_post(q, r1);
    r1->tag = -3;
    CHECK(dmpi_mq_take_posted(q, 1, -3) == r1, "a negative-tag message did not pass the ANY_TAG receive");
    CHECK(dmpi_mq_take_posted(q, 1, 0) == r5, "ANY/ANY receive not taken");
    dmpi_req_free(r1);
    dmpi_req_free(r2);
    dmpi_req_free(r3);
    dmpi_req_free(r4);
    dmpi_req_free(r5);
}

static void test_unexpected_order(void)
{
    dmpi_matchq_t *q = dmpi_mq(2);
    dmpi_msg_t *m1 = msg(2, 1, 5), *m2 = msg(2, 2, 5), *m3 = msg(2, 1, 6), *m4 = msg(2, 1, 5);
    dmpi_msg_t *m5 = msg(2, 3, -2);
    dmpi_mq_add_unexp(q, m1);
    dmpi_mq_add_unexp(q, m2);
    dmpi_mq_add_unexp(q, m3);
    dmpi_mq_add_unexp(q, m4);
    dmpi_mq_add_unexp(q, m5);
    CHECK(unexp_len(q) == 5, "unexpected queue length %d after five arrivals", unexp_len(q));

    CHECK(dmpi_mq_find_unexp(q, MPI_ANY_SOURCE, 5, false) == m1, "probe (ANY, 5) does not find the first");
    CHECK(dmpi_mq_find_unexp(q, MPI_ANY_SOURCE, 5, false) == m1 && unexp_len(q) == 5,
          "a probe (take = false) removed the message");
    CHECK(dmpi_mq_find_unexp(q, 2, MPI_ANY_TAG, false) == m2, "probe (2, ANY) does not find m2");
    CHECK(dmpi_mq_find_unexp(q, 1, 6, true) == m3, "(1, 6) does not take m3 from the middle");
    CHECK(unexp_len(q) == 4 && m3->next == NULL && m3->prev == NULL, "m3 not cleanly unlinked");
    CHECK(dmpi_mq_find_unexp(q, MPI_ANY_SOURCE, MPI_ANY_TAG, false) == m1, "ANY/ANY probe is not m1");
    CHECK(dmpi_mq_find_unexp(q, 3, MPI_ANY_TAG, false) == NULL, "ANY_TAG finds a negative-tag message");
    CHECK(dmpi_mq_find_unexp(q, MPI_ANY_SOURCE, -2, false) == m5, "an exact negative tag is not found");
    CHECK(dmpi_mq_find_unexp(q, 1, 5, true) == m1, "(1, 5) does not take the first of two");
    CHECK(dmpi_mq_find_unexp(q, 1, 5, true) == m4, "(1, 5) does not take the second one next");
    CHECK(dmpi_mq_find_unexp(q, 1, 5, true) == NULL, "(1, 5) found a third");
    CHECK(dmpi_mq_find_unexp(q, 3, -2, true) == m5 && q->unexp_tail == m2, "tail m5 not taken");
    CHECK(dmpi_mq_find_unexp(q, MPI_ANY_SOURCE, MPI_ANY_TAG, true) == m2, "the last message not taken");
    CHECK(q->unexp_head == NULL && q->unexp_tail == NULL, "unexpected queue not empty at the end");
    dmpi_msg_free(m1);
    dmpi_msg_free(m2);
    dmpi_msg_free(m3);
    dmpi_msg_free(m4);
    dmpi_msg_free(m5);

    /* The payload area of an unexpected message follows it and is usable. */
    dmpi_msg_t *big = dmpi_msg_alloc(100000), *none = dmpi_msg_alloc(0);
    CHECK(big->data == (char *)(big + 1) && none->data == (char *)(none + 1), "data does not follow the message");
    CHECK(big->next == NULL && big->arrived == 0 && big->waiter == NULL && big->len == 0,
          "a new message is not zeroed");
    memset(big->data, 0x77, 100000);
    dmpi_msg_free(big);
    dmpi_msg_free(none);
}

static void test_unpost(void)
{
    dmpi_matchq_t *q = dmpi_mq(3), *other = dmpi_mq(4);
    dmpi_request_t *r[5];
    for (int i = 0; i < 5; i++) {
        r[i] = recv_req(3, i, i);
        dmpi_mq_post(q, r[i]);
    }
    CHECK(dmpi_mq_unpost(q, r[2]), "unpost from the middle failed");
    CHECK(!dmpi_mq_unpost(q, r[2]), "unposting twice succeeded");
    CHECK(dmpi_mq_unpost(q, r[0]) && q->posted_head == r[1] && r[1]->prev == NULL, "unpost of the head");
    CHECK(dmpi_mq_unpost(q, r[4]) && q->posted_tail == r[3] && r[3]->next == NULL, "unpost of the tail");
    CHECK(posted_len(q) == 2 && r[1]->next == r[3] && r[3]->prev == r[1], "links after unposting");
    CHECK(!dmpi_mq_unpost(other, r[1]) && posted_len(q) == 2 && posted_len(other) == 0,
          "unposting through another context's queue succeeded or damaged a queue");
    dmpi_request_t *lone = recv_req(3, 0, 0);
    CHECK(!dmpi_mq_unpost(q, lone), "a request that was never posted was unposted");
    CHECK(dmpi_mq_take_posted(q, 2, 2) == NULL, "a cancelled receive still matches");
    CHECK(dmpi_mq_take_posted(q, 3, 3) == r[3] && dmpi_mq_take_posted(q, 1, 1) == r[1], "the rest");
    CHECK(!dmpi_mq_unpost(q, r[3]), "unposting a matched receive succeeded");
    CHECK(q->posted_head == NULL && q->posted_tail == NULL, "queue not empty");
    /* A sole element: head and tail both go. */
    dmpi_mq_post(q, lone);
    CHECK(dmpi_mq_unpost(q, lone) && q->posted_head == NULL && q->posted_tail == NULL, "unpost of the only one");
    dmpi_mq_post(q, lone);
    CHECK(dmpi_mq_take_posted(q, 0, 0) == lone, "re-posting after unpost");
    for (int i = 0; i < 5; i++)
        dmpi_req_free(r[i]);
    dmpi_req_free(lone);
}

static void test_many_contexts(void)
{
    enum { N = 5000 };
    static dmpi_matchq_t *seen[N];
    static uint32_t order[N];
    uint64_t rng = 42;
    for (uint32_t i = 0; i < N; i++)
        order[i] = i * 3 + 100;          /* sparse ids, from 100 to 15097 */
    for (uint32_t i = N - 1; i > 0; i--) {   /* shuffle: creation in random order */
        uint32_t j = (uint32_t)(unit_rand(&rng) % (i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    int bad_new = 0, bad_same = 0, bad_sep = 0, bad_distinct = 0;
    for (uint32_t i = 0; i < N; i++) {
        dmpi_matchq_t *q = dmpi_mq(order[i]);
        if (!q || q->posted_head || q->unexp_head)
            NOTE(bad_new, "context %u: new queue missing or not empty", order[i]);
        seen[(order[i] - 100) / 3] = q;
        dmpi_mq_add_unexp(q, msg(order[i], (int)order[i], (int)(order[i] % 1000)));
        if (order[i] % 8 == 4)           /* a receive in every eighth: keeps the live requests < 1024 */
            dmpi_mq_post(q, recv_req(order[i], (int)order[i] + 1, 0));
    }
    for (uint32_t k = 0; k < N; k++) {
        uint32_t ctx = k * 3 + 100;
        dmpi_matchq_t *q = dmpi_mq(ctx);
        if (q != seen[k])
            NOTE(bad_same, "context %u: queue moved as the table grew", ctx);
        if (k && q == seen[k - 1])
            NOTE(bad_distinct, "contexts %u and %u share a queue", ctx - 3, ctx);
        dmpi_msg_t *m = dmpi_mq_find_unexp(q, MPI_ANY_SOURCE, MPI_ANY_TAG, true);
        if (!m || m->ctx != ctx || m->src != (int)ctx || dmpi_mq_find_unexp(q, MPI_ANY_SOURCE, MPI_ANY_TAG, false))
            NOTE(bad_sep, "context %u: unexpected queue holds something else", ctx);
        if (m)
            dmpi_msg_free(m);
        dmpi_request_t *r = dmpi_mq_take_posted(q, (int)ctx + 1, 0);
        if ((ctx % 8 == 4) != (r != NULL) || (r && r->ctx != ctx) || q->posted_head)
            NOTE(bad_sep, "context %u: posted queue holds something else", ctx);
        if (r)
            dmpi_req_free(r);
    }
    CHECK(bad_new == 0, "%d new queues were not empty", bad_new);
    CHECK(bad_same == 0 && bad_distinct == 0, "queues moved (%d) or were shared (%d)", bad_same, bad_distinct);
    CHECK(bad_sep == 0, "%d contexts saw another context's entries", bad_sep);
    CHECK(dmpi_mq(0) != dmpi_mq(1) && dmpi_mq(0) == dmpi_mq(0), "contexts 0 and 1");
    /* A message from a context that was never used stays in its own queue. */
    dmpi_mq_add_unexp(dmpi_mq(70001), msg(70001, 0, 0));
    CHECK(dmpi_mq_find_unexp(dmpi_mq(70000), MPI_ANY_SOURCE, MPI_ANY_TAG, false) == NULL &&
          dmpi_mq_find_unexp(dmpi_mq(70002), MPI_ANY_SOURCE, MPI_ANY_TAG, false) == NULL &&
          dmpi_mq_find_unexp(dmpi_mq(70001), 0, 0, false) != NULL, "neighbouring contexts leak");
}

/* ---- random run against a model ----------------------------------------- */

#define NCTX 3
#define MAXQ 300                 /* NCTX * MAXQ requests live at most: fewer than one pool block */

typedef struct model {
    uint32_t ctx;
    dmpi_request_t *posted[MAXQ];
    int nposted;
    dmpi_msg_t *unexp[MAXQ];
    int nunexp;
} model_t;

/* MPI's rule, written out independently of dmpi_match: wildcards match
 * any source, and any tag a user can send (tags are >= 0). */
static bool ref_match(int want_src, int want_tag, int src, int tag)
{
    bool src_ok = want_src == MPI_ANY_SOURCE ? true : want_src == src;
    bool tag_ok = want_tag == MPI_ANY_TAG ? tag >= 0 : want_tag == tag;
    return src_ok && tag_ok;
}

static int model_first_posted(model_t *md, int src, int tag)
{
    for (int i = 0; i < md->nposted; i++)
        if (ref_match(md->posted[i]->rank, md->posted[i]->tag, src, tag))
            return i;
    return -1;
}

static int model_first_unexp(model_t *md, int src, int tag)
{
    for (int i = 0; i < md->nunexp; i++)
        if (ref_match(src, tag, md->unexp[i]->src, md->unexp[i]->tag))
            return i;
    return -1;
}

static bool model_same(model_t *md)
{
    dmpi_matchq_t *q = dmpi_mq(md->ctx);
    if (posted_len(q) != md->nposted || unexp_len(q) != md->nunexp)
        return false;
    int i = 0;
    for (dmpi_request_t *r = q->posted_head; r; r = r->next)
        if (r != md->posted[i++])
            return false;
    i = 0;
    for (dmpi_msg_t *m = q->unexp_head; m; m = m->next)
        if (m != md->unexp[i++])
            return false;
    return true;
}

static void test_random_model(void)
{
    static model_t models[NCTX];
    static const uint32_t ctxs[NCTX] = {10, 11, 300};
    uint64_t rng = 7, seq = 0;
    int bad_take = 0, bad_find = 0, bad_unpost = 0, bad_shape = 0;
    int matched_posted = 0, matched_unexp = 0, cancels = 0;
    for (int c = 0; c < NCTX; c++)
        models[c].ctx = ctxs[c];

    int bias = 8;                        /* arrivals : posts = bias : 16 - bias */
    /* Stops at the first disagreement: after it the model no longer knows
     * which objects the queues hold. */
    for (int step = 0; step < 200000 && !(bad_take | bad_find | bad_unpost | bad_shape); step++) {
        uint64_t r = unit_rand(&rng);
        model_t *md = &models[r % NCTX];
        dmpi_matchq_t *q = dmpi_mq(md->ctx);
        r >>= 4;
        if (step % 1000 == 0)
            bias = 2 + (int)(r % 13);
        /* op: 0..5 arrival, 6..11 post (scaled by bias), 12..13 probe, 14..15 cancel */
        int op = (int)(r % 16);
        if (op < 12)
            op = (int)((r >> 4) % 16) < bias ? 0 : 6;
        r >>= 8;
        /* sources 0..3; tags 0..3 and now and then the internal tag -2;
         * receives ask for a source or ANY, a tag, ANY, or rarely -2 */
        int src = (int)(r % 4), tag = (r >> 2) % 16 == 0 ? -2 : (int)((r >> 6) % 4);
        int want_src = (r >> 8) % 4 == 0 ? MPI_ANY_SOURCE : (int)((r >> 10) % 4);
        int want_tag = (r >> 12) % 4 == 0 ? MPI_ANY_TAG : (r >> 14) % 16 == 0 ? -2 : (int)((r >> 18) % 4);
        r >>= 20;
        if (op < 6) {                                  /* a message arrives */
            if (md->nunexp == MAXQ)
                continue;
            int i = model_first_posted(md, src, tag);
            dmpi_request_t *got = dmpi_mq_take_posted(q, src, tag);
            if (got != (i < 0 ? NULL : md->posted[i])) {
                NOTE(bad_take, "step %d ctx %u: arrival (%d, %d) matched the wrong receive", step, md->ctx, src, tag);
                break;
            }
            if (got) {
                matched_posted++;
                if (i >= 0) {
                    memmove(&md->posted[i], &md->posted[i + 1], (size_t)(md->nposted - i - 1) * sizeof md->posted[0]);
                    md->nposted--;
                }
                dmpi_req_free(got);
            } else {
                dmpi_msg_t *m = msg(md->ctx, src, tag);
                m->cookie = seq++;
                dmpi_mq_add_unexp(q, m);
                md->unexp[md->nunexp++] = m;
            }
        } else if (op < 12) {                          /* a receive is posted */
            if (md->nposted == MAXQ)
                continue;
            int i = model_first_unexp(md, want_src, want_tag);
            dmpi_msg_t *m = dmpi_mq_find_unexp(q, want_src, want_tag, true);
            if (m != (i < 0 ? NULL : md->unexp[i])) {
                NOTE(bad_find, "step %d ctx %u: receive (%d, %d) took the wrong message", step, md->ctx, want_src,
                     want_tag);
                break;
            }
            if (m) {
                matched_unexp++;
                if (i >= 0) {
                    memmove(&md->unexp[i], &md->unexp[i + 1], (size_t)(md->nunexp - i - 1) * sizeof md->unexp[0]);
                    md->nunexp--;
                }
                dmpi_msg_free(m);
            } else {
                dmpi_request_t *rq = recv_req(md->ctx, want_src, want_tag);
                dmpi_mq_post(q, rq);
                md->posted[md->nposted++] = rq;
            }
        } else if (op < 14) {                          /* a probe */
            int i = model_first_unexp(md, want_src, want_tag);
            if (dmpi_mq_find_unexp(q, want_src, want_tag, false) != (i < 0 ? NULL : md->unexp[i]))
                NOTE(bad_find, "step %d ctx %u: probe (%d, %d) found the wrong message", step, md->ctx, want_src,
                     want_tag);
        } else if (md->nposted > 0) {                  /* a receive is cancelled */
            int i = (int)(r % (uint64_t)md->nposted);
            dmpi_request_t *rq = md->posted[i];
            bool ok = dmpi_mq_unpost(q, rq);
            bool again = dmpi_mq_unpost(q, rq);
            if (!ok || again) {
                NOTE(bad_unpost, "step %d: unpost gave %d then %d", step, ok, again);
                break;
            }
            memmove(&md->posted[i], &md->posted[i + 1], (size_t)(md->nposted - i - 1) * sizeof md->posted[0]);
            md->nposted--;
            dmpi_req_free(rq);
            cancels++;
        }
        if (step % 97 == 0 && !model_same(md))
            NOTE(bad_shape, "step %d ctx %u: queues differ from the model", step, md->ctx);
    }
    bool broke = bad_take | bad_find | bad_unpost | bad_shape;
    for (int c = 0; c < NCTX && !broke; c++)
        if (!model_same(&models[c]))
            NOTE(bad_shape, "end: ctx %u differs from the model", models[c].ctx);
    CHECK(bad_take == 0, "%d arrivals matched the wrong posted receive", bad_take);
    CHECK(bad_find == 0, "%d receives or probes found the wrong unexpected message", bad_find);
    CHECK(bad_unpost == 0, "%d cancels went wrong", bad_unpost);
    CHECK(bad_shape == 0, "%d times the queues differed from the model", bad_shape);
    CHECK(matched_posted > 10000 && matched_unexp > 10000 && cancels > 1000,
          "random run too one-sided: %d arrivals matched a receive, %d receives a message, %d cancels",
          matched_posted, matched_unexp, cancels);
    printf("random run: %d arrivals matched a posted receive, %d receives an unexpected message, %d cancels\n",
           matched_posted, matched_unexp, cancels);
    /* Leave the messages to dmpi_mq_finalize; free the receives here. */
    if (broke)
        return;
    for (int c = 0; c < NCTX; c++)
        for (int i = 0; i < models[c].nposted; i++) {
            dmpi_mq_unpost(dmpi_mq(models[c].ctx), models[c].posted[i]);
            dmpi_req_free(models[c].posted[i]);
        }
}

/* ---- request pool --------------------------------------------------------- */

static void test_request_pool(void)
{
    enum { N = 1000 };                   /* within the first block of 1024 */
    static dmpi_request_t *rs[N];
    int base = dmpi_req_live_count();
    int bad = 0;
    for (int i = 0; i < N; i++) {
        rs[i] = dmpi_req_alloc(DMPI_REQ_SEND);
        if (!rs[i] || rs[i]->kind != DMPI_REQ_SEND || dmpi_req_get(rs[i]->handle) != rs[i] ||
            ((unsigned)rs[i]->handle & 0xfc000000u) != 0xac000000u)
            NOTE(bad, "request %d: bad allocation or handle %#x", i, rs[i] ? (unsigned)rs[i]->handle : 0);
        for (int j = i - 1; j >= 0 && j > i - 50; j--)
            if (rs[j] == rs[i] || rs[j]->handle == rs[i]->handle)
                NOTE(bad, "requests %d and %d share an object or a handle", j, i);
    }
    CHECK(bad == 0, "%d problems allocating %d requests", bad, N);
    CHECK(dmpi_req_live_count() == base + N, "live count %d, want %d", dmpi_req_live_count(), base + N);

    /* Invalid handles give NULL. */
    unsigned last = (unsigned)rs[N - 1]->handle;
    CHECK(dmpi_req_get(MPI_REQUEST_NULL) == NULL, "MPI_REQUEST_NULL is a live request");
    CHECK(dmpi_req_get((MPI_Request)0) == NULL && dmpi_req_get((MPI_Request)-1) == NULL, "0 or -1 is a request");
    CHECK(dmpi_req_get((MPI_Request)(0xac000000u | 0x3ffffffu)) == NULL, "index 2^26-1 is a request");
    CHECK(dmpi_req_get((MPI_Request)((last & 0xfc000000u) | ((last & 0x3ffffffu) + 4096))) == NULL,
          "an index beyond the pool is a request");
    CHECK(dmpi_req_get((MPI_Request)((last & 0x03ffffffu) | 0x6c000000u)) == NULL, "wrong kind bits accepted");

    /* Freed requests are no longer found; their slots are reused, zeroed. */
    MPI_Request h = rs[100]->handle;
    rs[100]->tag = 99;
    rs[100]->buf = (char *)rs;
    dmpi_req_free(rs[100]);
    CHECK(dmpi_req_get(h) == NULL, "a freed request is still found");
    dmpi_request_t *again = dmpi_req_alloc(DMPI_REQ_RECV);
    CHECK(again && dmpi_req_get(again->handle) == again, "no request after a free");
    CHECK(again->tag == 0 && again->buf == NULL && again->kind == DMPI_REQ_RECV && !again->done,
          "a reused request is not zeroed");
    rs[100] = again;

    /* Completion: free_on_done frees a plain request, not a persistent one. */
    rs[0]->free_on_done = 1;
    h = rs[0]->handle;
    dmpi_req_complete(rs[0]);
    CHECK(dmpi_req_get(h) == NULL && dmpi_req_live_count() == base + N - 1,
          "a completed request with free_on_done was not freed");
    rs[1]->free_on_done = 1;
    rs[1]->persistent = 1;
    dmpi_req_complete(rs[1]);
    CHECK(rs[1]->done == 1 && dmpi_req_get(rs[1]->handle) == rs[1], "a persistent request was freed on completion");
    dmpi_req_complete(rs[2]);
    CHECK(rs[2]->done == 1 && dmpi_req_get(rs[2]->handle) == rs[2], "complete did not set done (or freed)");

    /* A noncontiguous receive gets its bytes in place (dmpi_req_put): a
     * vector of every other int, filled in two parts, leaves the gaps. */
    dmpi_request_t *rr = rs[3];
    int out[8] = {-1, -1, -1, -1, -1, -1, -1, -1}, in[3] = {10, 20, 30};
    dmpi_run_t every_other = {0, 2 * sizeof(int), sizeof(int), 4, 0};
    dmpi_dtype_t vec = {.size = 4 * sizeof(int), .extent = 8 * sizeof(int), .nruns = 1, .runs = &every_other,
                        .committed = true, .predefined = true};
    rr->kind = DMPI_REQ_RECV;
    rr->nc = 1;
    rr->dt = &vec;
    rr->ucount = 1;
    rr->ubuf = out;
    dmpi_req_put(rr, 0, in, 5);
    dmpi_req_put(rr, 5, (char *)in + 5, sizeof in - 5);
    CHECK(out[0] == 10 && out[2] == 20 && out[4] == 30 && out[6] == -1 && out[1] == -1 && out[3] == -1 &&
              out[5] == -1 && out[7] == -1,
          "noncontiguous put: %d %d %d %d %d %d %d %d", out[0], out[1], out[2], out[3], out[4], out[5], out[6],
          out[7]);
    /* ... and a noncontiguous send is read from its layout (dmpi_req_take). */
    int got[3] = {0, 0, 0};
    dmpi_req_take(rr, 0, got, 7);
    dmpi_req_take(rr, 7, (char *)got + 7, sizeof got - 7);
    CHECK(got[0] == 10 && got[1] == 20 && got[2] == 30, "noncontiguous take: %d %d %d", got[0], got[1], got[2]);
    rr->nc = 0;
    /* A send's pack buffer is just freed; a buffered send's region released. */
    rs[5]->tmp = malloc(8);
    rs[5]->bsend_region = &out[2];
    int releases = unit_bsend_releases;
    dmpi_req_complete(rs[5]);
    CHECK(rs[5]->tmp == NULL && rs[5]->bsend_region == NULL && unit_bsend_releases == releases + 1 &&
          unit_bsend_last_region == &out[2], "send completion did not free tmp / release the bsend region");

    for (int i = 1; i < N; i++)
        dmpi_req_free(rs[i]);
    CHECK(dmpi_req_live_count() == base, "live count %d after freeing all, want %d", dmpi_req_live_count(), base);
}

/* More live requests than one block holds, all freed, then all taken again:
 * the stack of free indices must hold every index of every block. */
static void test_request_pool_growth(void)
{
    enum { N = 3000 };
    static dmpi_request_t *rs[N];
    static unsigned char used[4 << 10];
    printf("pool growth: %d live requests, freed, then allocated again\n", N);
    fflush(stdout);
    int base = dmpi_req_live_count(), bad = 0;
    for (int round = 0; round < 2; round++) {
        memset(used, 0, sizeof used);
        for (int i = 0; i < N; i++) {
            rs[i] = dmpi_req_alloc(DMPI_REQ_RECV);
            unsigned idx = rs[i] ? (unsigned)rs[i]->handle & 0x3ffffffu : 0;
            if (!rs[i] || dmpi_req_get(rs[i]->handle) != rs[i] || idx >= sizeof used || used[idx]++)
                NOTE(bad, "round %d request %d: missing, not found or duplicate index %u", round, i, idx);
        }
        for (int i = 0; i < N; i++)
            if (rs[i])
                dmpi_req_free(rs[i]);
    }
    CHECK(bad == 0, "%d problems with %d live requests", bad, N);
    CHECK(dmpi_req_live_count() == base, "live count %d, want %d", dmpi_req_live_count(), base);
}

static void test_status(void)
{
    MPI_Status st;
    size_t big = ((size_t)1 << 40) + 12345;
    dmpi_status_set(&st, 3, 9, MPI_ERR_TRUNCATE, big, true);
    CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 9 && st.MPI_ERROR == MPI_ERR_TRUNCATE, "status fields");
    CHECK(dmpi_status_bytes(&st) == big && (st.count_hi_and_cancelled & 1), "bytes %zu or cancelled bit lost",
          dmpi_status_bytes(&st));
    dmpi_status_set(&st, 0, 0, 0, 0xffffffffu, false);
    CHECK(dmpi_status_bytes(&st) == 0xffffffffu && !(st.count_hi_and_cancelled & 1), "4 GiB - 1 bytes");
    dmpi_status_empty(&st);
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG && dmpi_status_bytes(&st) == 0,
          "empty status");
    dmpi_status_empty(MPI_STATUS_IGNORE);

    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_RECV);
    r->st_source = 4;
    r->st_tag = 44;
    r->st_bytes = 444;
    dmpi_req_fill_status(r, &st);
    CHECK(st.MPI_SOURCE == 4 && st.MPI_TAG == 44 && dmpi_status_bytes(&st) == 444, "receive status");
    r->kind = DMPI_REQ_SEND;
    r->cancelled = 1;
    dmpi_req_fill_status(r, &st);
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && dmpi_status_bytes(&st) == 0 && (st.count_hi_and_cancelled & 1),
          "send status");
    dmpi_req_fill_status(r, MPI_STATUS_IGNORE);
    dmpi_req_set_proc_null_status(r);
    r->kind = DMPI_REQ_RECV;
    r->cancelled = 0;
    dmpi_req_fill_status(r, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && dmpi_status_bytes(&st) == 0,
          "PROC_NULL status");
    dmpi_req_free(r);
}

int main(void)
{
    unit_watchdog(60);
    RUN(test_match_rule);
    RUN(test_posted_order);
    RUN(test_unexpected_order);
    RUN(test_unpost);
    RUN(test_many_contexts);
    RUN(test_random_model);
    RUN(test_request_pool);
    RUN(test_status);
    RUN(test_request_pool_growth);

    /* Finalize frees every queue and unexpected message (LeakSanitizer
     * checks); afterwards the queues start again empty. */
    dmpi_mq_finalize();
    dmpi_matchq_t *q = dmpi_mq(5);
    CHECK(q && !q->posted_head && !q->unexp_head, "queue after finalize is not empty");
    dmpi_mq_finalize();
    dmpi_req_pool_finalize();
    CHECK(dmpi_req_live_count() == 0, "requests live after the pool is finalized");
    return unit_summary("test_match");
}
