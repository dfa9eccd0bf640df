/* Messages a rank sends to itself: delivered straight into the matching
 * layer. Standard, ready and buffered sends are copied at once, so a
 * blocking send to oneself never waits; synchronous sends complete when a
 * receive matches them, as the standard requires. */
#include "tport/tport.h"
#include "p2p/deliver.h"
#include "core/pvar.h"
#include <limits.h>

extern const dmpi_tport_t dmpi_tport_self;

static int self_init(void)
{
    dmpi_tport_claim(dmpi_world.rank, &dmpi_tport_self, 0, LLONG_MAX, LLONG_MAX);
    return 0;
}

static bool self_send_inline(int peer, const dmpi_hdr_t *h, const void *buf, size_t bytes)
{
    (void)peer;
    dmpi_pv_sent(DMPI_PV_SELF, bytes), dmpi_pv_recvd(DMPI_PV_SELF, bytes);
    dmpi_msg_t *um = NULL;
    dmpi_deliver_eager(h, dmpi_world.rank, bytes, buf, bytes, &um);
    return true;
}

static void self_send(dmpi_request_t *s)
{
    dmpi_msg_t *um = NULL;
    bool sync = s->mode == DMPI_MODE_SYNC;
    s->sync_pending = sync;
    s->data_pending = 0;
    dmpi_pv_sent(DMPI_PV_SELF, s->bytes), dmpi_pv_recvd(DMPI_PV_SELF, s->bytes);
    if (sync)
        dmpi_deliver_eager_sync(&s->hdr, s->peer, s->bytes, s->buf, s->bytes, (uint64_t)(uintptr_t)s, &um);
    else
        dmpi_deliver_eager(&s->hdr, s->peer, s->bytes, s->buf, s->bytes, &um);
    if (!sync)
        dmpi_req_complete(s);       /* a sync send completes in self_sync_ack */
}

static void self_sync_ack(int peer, uint64_t cookie)
{
    (void)peer;
    dmpi_request_t *s = (dmpi_request_t *)(uintptr_t)cookie;
    s->sync_pending = 0;
    dmpi_req_complete(s);
}

static void self_rndv_matched(dmpi_request_t *r, dmpi_msg_t *m)
{
    (void)r;
    (void)m;
    dmpi_fatal("internal error: rendezvous message on the self path");
}

const dmpi_tport_t dmpi_tport_self = {
    .name = "self",
    .init = self_init,
    .send_inline = self_send_inline,
    .send_eager = self_send,
    .send_rndv = self_send,
    .rndv_matched = self_rndv_matched,
    .sync_ack = self_sync_ack,
};
