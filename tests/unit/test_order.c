/* Message order by sequence numbers (p2p/deliver.c): matching takes the
 * messages from one source on one context id in the order they were sent,
 * whatever order a transport hands them over in:
 *   - eager messages that arrive swapped, with receives posted before and
 *     after they arrive;
 *   - an early message whose data is still arriving in pieces;
 *   - a rendezvous announcement that arrives before an eager message sent
 *     ahead of it (the transport's rndv_matched gets the right receive);
 *   - two sources under MPI_ANY_SOURCE, each in its own order;
 *   - unsequenced messages (DMPI_SEQ_NONE) matched as they arrive;
 *   - a released context pair numbers its messages from 0 again;
 *   - a long random run: messages of several sources handed over in random
 *     order, checked against the order they were sent in. */
#include "p2p/deliver.h"
#include "unit.h"
#include <string.h>

/* A transport that records what matching asks of it. */
static dmpi_request_t *rndv_receive;
static uint64_t rndv_cookie;
static void fake_rndv_matched(dmpi_request_t *r, dmpi_msg_t *m)
{
    rndv_receive = r;
    rndv_cookie = m->cookie;
    dmpi_req_complete(r);
}
static void fake_sync_ack(int peer, uint64_t cookie) { (void)peer, (void)cookie; }
static const dmpi_tport_t fake = {.name = "fake", .rndv_matched = fake_rndv_matched, .sync_ack = fake_sync_ack};
static dmpi_tport_peer_t peers[8];
dmpi_tport_peer_t *dmpi_tport_peers = peers;

enum { CTX = 6 };

static dmpi_hdr_t hdr(int src, int tag, uint32_t seq) { return (dmpi_hdr_t){CTX, src, tag, seq}; }

static void eager(int src, int tag, uint32_t seq, int value)
{
    dmpi_hdr_t h = hdr(src, tag, seq);
    dmpi_msg_t *um;
    dmpi_deliver_eager(&h, src, sizeof value, &value, sizeof value, &um);
}

/* A receive as p2p/recv.c makes one: matched against what arrived, or posted. */
static dmpi_request_t *post(int src, int tag, int *buf)
{
    dmpi_request_t *r = dmpi_req_alloc(DMPI_REQ_RECV);
    r->ctx = CTX;
    r->rank = src;
    r->tag = tag;
    r->buf = (char *)buf;
    r->bytes = sizeof *buf;
    r->dt = dmpi_dtype_get(MPI_INT);
    *buf = -1;
    dmpi_matchq_t *q = dmpi_mq(CTX);
    dmpi_msg_t *m = dmpi_mq_find_unexp(q, src, tag, true);
    if (m)
        dmpi_recv_from_msg(r, m);
    else
        dmpi_mq_post(q, r);
    return r;
}

static void done(dmpi_request_t *r) { dmpi_req_free(r); }

static void swapped_eager(void)
{
    int a, b;
    eager(0, 5, 1, 200);             /* sent second, arrives first */
    eager(0, 5, 0, 100);
    dmpi_request_t *r1 = post(0, 5, &a), *r2 = post(0, 5, &b);
    CHECK(r1->done && r2->done && a == 100 && b == 200, "unexpected, swapped: got %d then %d", a, b);
    done(r1), done(r2);

    r1 = post(0, 7, &a), r2 = post(0, 7, &b);
    eager(0, 7, 3, 400);
    CHECK(!r1->done && !r2->done, "a message that arrived early matched a posted receive");
    eager(0, 7, 2, 300);
    CHECK(r1->done && r2->done && a == 300 && b == 400, "posted, swapped: got %d then %d", a, b);
    done(r1), done(r2);
}

static void early_in_pieces(void)
{
    /* seq 5 (16 bytes) arrives first with 4 bytes, the rest later */
    int data[4] = {11, 12, 13, 14}, got[4] = {0}, first;
    dmpi_hdr_t h = hdr(0, 9, 5);
    dmpi_msg_t *um = NULL;
    dmpi_request_t *r = dmpi_deliver_eager(&h, 0, sizeof data, data, 4, &um);
    CHECK(!r && um, "an early message gets a buffer for the rest of its data");
    eager(0, 9, 4, 10);
    dmpi_request_t *r1 = post(0, 9, &first);
    dmpi_request_t *r2 = dmpi_req_alloc(DMPI_REQ_RECV);
    r2->ctx = CTX, r2->rank = 0, r2->tag = 9, r2->buf = (char *)got, r2->bytes = sizeof got;
    r2->dt = dmpi_dtype_get(MPI_INT);
    dmpi_matchq_t *q = dmpi_mq(CTX);
    dmpi_msg_t *m = dmpi_mq_find_unexp(q, 0, 9, true);
    CHECK(m == um, "the early message is next in line once seq 4 was taken");
    dmpi_recv_from_msg(r2, m);
    CHECK(r1->done && first == 10 && !r2->done, "seq 4 first (%d), seq 5 waits for its data", first);
    dmpi_msg_fill(um, (char *)data + 4, sizeof data - 4);
    CHECK(r2->done && !memcmp(got, data, sizeof data), "the rest of seq 5 arrived");
    done(r1), done(r2);
}

static void rendezvous_early(void)
{
    int a, b;
    dmpi_request_t *r1 = post(0, 3, &a), *r2 = post(0, 3, &b);
    dmpi_hdr_t h = hdr(0, 3, 7);
    rndv_receive = NULL;
    dmpi_deliver_rndv(&h, 0, 4, 0x77, 0, 0, 0);
    CHECK(rndv_receive == NULL && !r1->done, "an early rendezvous announcement waits");
    eager(0, 3, 6, 600);
    CHECK(r1->done && a == 600, "the eager message sent first matched the first receive");
    CHECK(rndv_receive == r2 && rndv_cookie == 0x77, "then the rendezvous went to the second receive");
    done(r1), done(r2);
}

static void two_sources(void)
{
    int v[4];
    eager(1, 2, 1, 1001);
    eager(2, 2, 1, 2001);
    eager(2, 2, 0, 2000);
    eager(1, 2, 0, 1000);
    dmpi_request_t *r[4];
    for (int i = 0; i < 4; i++)
        r[i] = post(MPI_ANY_SOURCE, 2, &v[i]);
    /* arrival order of the in-order messages: 2000 (source 2, once seq 0
     * came), then 2001 released with it, then 1000, 1001 */
    int pos1000 = -1, pos1001 = -1, pos2000 = -1, pos2001 = -1;
    for (int i = 0; i < 4; i++) {
        CHECK(r[i]->done, "receive %d done", i);
        if (v[i] == 1000) pos1000 = i;
        if (v[i] == 1001) pos1001 = i;
        if (v[i] == 2000) pos2000 = i;
        if (v[i] == 2001) pos2001 = i;
        done(r[i]);
    }
    CHECK(pos1000 >= 0 && pos1000 < pos1001 && pos2000 >= 0 && pos2000 < pos2001,
          "each source in its own order: %d %d %d %d", v[0], v[1], v[2], v[3]);
}

static void unsequenced_and_forget(void)
{
    int a;
    eager(3, 4, DMPI_SEQ_NONE, 31);
    dmpi_request_t *r = post(3, 4, &a);
    CHECK(r->done && a == 31, "an unsequenced message is matched at once");
    done(r);
    eager(3, 4, 0, 30);              /* source 3's numbering is unaffected */
    r = post(3, 4, &a);
    CHECK(r->done && a == 30, "seq 0 of source 3 after an unsequenced one");
    done(r);
    dmpi_mq_forget_pair(CTX / 2);
    eager(0, 1, 0, 5);
    r = post(0, 1, &a);
    CHECK(r->done && a == 5, "after the pair was released, source 0 starts at 0 again");
    done(r);
}

/* Sources send n messages each (payload source*100000 + k); the transport
 * hands them over in a random order; receives of ANY_SOURCE and of each
 * source must see each source's messages in increasing k. */
static void random_order(void)
{
    enum { SOURCES = 4, N = 300 };
    dmpi_mq_forget_pair(CTX / 2);
    static int order[SOURCES * N];
    for (int i = 0; i < SOURCES * N; i++)
        order[i] = i;
    srand(7);
    /* shuffle within windows of 16, as reordering transports do */
    for (int i = 0; i < SOURCES * N; i++) {
        int j = i + rand() % (16 < SOURCES * N - i ? 16 : SOURCES * N - i);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < SOURCES * N; i++) {
        int s = order[i] % SOURCES, k = order[i] / SOURCES;
        eager(s, 8, (uint32_t)k, s * 100000 + k);
    }
    int next[SOURCES] = {0}, bad = 0;
    for (int i = 0; i < SOURCES * N; i++) {
        int v, want = MPI_ANY_SOURCE;
        if (i % 3 == 0)                 /* every third names a source that has messages left */
            for (int t = 0; t < SOURCES; t++)
                if (next[(i + t) % SOURCES] < N) {
                    want = (i + t) % SOURCES;
                    break;
                }
        dmpi_request_t *r = post(want, 8, &v);
        if (!r->done) {
            NOTE(bad, "receive %d not matched", i);
            done(r);
            continue;
        }
        int s = v / 100000, k = v % 100000;
        if (s < 0 || s >= SOURCES || k != next[s])
            NOTE(bad, "receive %d got source %d message %d, expected %d", i, s, k, s >= 0 && s < SOURCES ? next[s] : -1);
        else
            next[s]++;
        done(r);
    }
    CHECK(bad == 0, "random order: %d mismatches", bad);
}

int main(void)
{
    for (int i = 0; i < 8; i++)
        peers[i] = (dmpi_tport_peer_t){&fake, -1, 1 << 20, i};
    dmpi_dtype_init();
    swapped_eager();
    early_in_pieces();
    rendezvous_early();
    two_sources();
    unsequenced_and_forget();
    random_order();
    dmpi_mq_finalize();
    dmpi_req_pool_finalize();
    return unit_summary("order");
}
