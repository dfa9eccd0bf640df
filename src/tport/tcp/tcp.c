/* TCP protocols: eager messages up to DMPI_TCP_EAGER_LIMIT go whole in one
 * frame (written straight from the user's buffer when the socket takes
 * them, copied otherwise); larger ones announce themselves (RTS), and once
 * matched the receiver asks (CTS) and the data is written from the
 * sender's buffer and read into the receiver's, iovec lists for
 * noncontiguous data, no pack buffer on either side. */
#include "tport/tcp/tcp.h"
#include "core/params.h"
#include "core/pvar.h"
#include "p2p/deliver.h"
#include "pmi/pmi.h"
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

extern const dmpi_tport_t dmpi_tport_tcp;
tcp_peer_t *tcp_peers;
int tcp_npeers;

#define TCP_IOV 64
#define RX_SLACK (64u << 10)      /* read-ahead room beyond the largest eager frame */
/* One sendmsg writes at most this much: the kernel sends what a call
 * copies only as the call ends (or once half a window is queued), so a
 * call of megabytes leaves the link and the receiver idle while it copies.
 * Calls of 512 KiB keep both busy: 1-4 MiB messages between two hosts
 * measured 1.6-2.2x faster than with whole-message calls. */
#define TCP_WRITE_CHUNK (512u << 10)
#define TCP_POLL_COST 16          /* a pass's cost: a system call, in shm passes */
#define TCP_HOT 4                 /* up to this many connections, polls recv them directly */

static struct {
    bool on;                      /* listening: some peer is ours */
    size_t eager, rx_cap;
    int npending;                 /* peers with frames waiting to be written */
    int hot[TCP_HOT], nhot;       /* peers with a connection (nhot counts past TCP_HOT) */
    unsigned tick;                /* polls, for the epoll_wait every 16th (poll_hot) */
} T;

static bool forced(void) { return !strcmp(dmpi_params.transport, "tcp"); }

/* Which peers are ours: every rank on another node; every other rank too
 * when DMPI_TRANSPORT=tcp. */
static bool ours(int w)
{
    return w != dmpi_world.rank && (forced() || dmpi_world.local_of_world[w] < 0);
}

/* ---- writing ------------------------------------------------------------ */

static void out_push_tail(tcp_peer_t *p, tcp_out_t *o)
{
    if (!p->oq_head)
        T.npending++;
    o->next = NULL;
    if (p->oq_tail)
        p->oq_tail->next = o;
    else
        p->oq_head = o;
    p->oq_tail = o;
}

static tcp_out_t *out_new(unsigned kind, size_t len)
{
    tcp_out_t *o = calloc(1, sizeof *o);
    if (!o)
        dmpi_fatal("out of memory queueing a TCP frame");
    o->f.kind = (uint8_t)kind;
    o->f.len = len;
    o->len = kind == TCP_EAGER || kind == TCP_DATA ? len : 0;
    return o;
}

/* Up to max bytes of o's payload still to write, as iovecs after the
 * first *n. */
static void payload_iov(const tcp_out_t *o, size_t done, size_t max, struct iovec *iov, int *n)
{
    size_t left = o->len - done < max ? o->len - done : max;
    if (!left)
        return;
    if (o->copy) {
        iov[(*n)++] = (struct iovec){o->copy + done, left};
    } else if (!o->s->nc) {
        iov[(*n)++] = (struct iovec){o->s->buf + o->off + done, left};
    } else {
        size_t covered;
        *n += dmpi_dtype_iov(o->s->dt, o->s->ubuf, o->off + done, left, iov + *n, TCP_IOV - *n, &covered);
    }
}

/* err: the socket's errno, or 0 when the peer closed the connection. */
static void lost(int peer, const char *doing, int err)
{
    char who[64];
    if (peer < tcp_npeers && tcp_peers[peer].foreign)
        snprintf(who, sizeof who, "rank %d of another job", (int)tcp_peers[peer].id.rank);
    else
        snprintf(who, sizeof who, "rank %d", peer);
    dmpi_fatal("tcp: rank %d lost its connection to %s while %s (%s)", dmpi_world.rank, who, doing,
               err == ETIMEDOUT ? "no answer within DMPI_TCP_TIMEOUT" : err ? strerror(err) : "closed by the peer");
}

/* Writes o as far as the socket takes it; true once all of it is out. */
static bool write_out(int peer, int fd, tcp_out_t *o)
{
    for (;;) {
        struct iovec iov[TCP_IOV];
        int n = 0;
        size_t total = TCP_FRAME_BYTES + o->len;
        if (o->sent < TCP_FRAME_BYTES)
            iov[n++] = (struct iovec){(char *)&o->f + o->sent, TCP_FRAME_BYTES - o->sent};
        payload_iov(o, o->sent > TCP_FRAME_BYTES ? o->sent - TCP_FRAME_BYTES : 0, TCP_WRITE_CHUNK, iov, &n);
        struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)n};
        ssize_t w = sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                return false;
            lost(peer, "sending", errno);
        }
        o->sent += (size_t)w;
        if (o->sent == total)
            return true;
    }
}

/* What happens once a frame is all out. */
static void out_done(tcp_out_t *o)
{
    dmpi_request_t *s = o->s;
    free(o->copy);
    free(o);
    if (s)
        dmpi_req_complete(s);      /* an eager frame, or a rendezvous's DATA: the send is done */
}

static void push_peer(int peer)
{
    tcp_peer_t *p = &tcp_peers[peer];
    if (!p->oq_head) {
        if (p->want_out && p->sock) {
            p->want_out = false;
            tcp_epoll_mod(p->sock, false);
        }
        return;
    }
    if (!p->sock) {
        tcp_conn_dial(peer);
        return;
    }
    while (p->oq_head) {
        tcp_out_t *o = p->oq_head;
        if (!write_out(peer, p->sock->fd, o)) {
            if (!p->want_out) {
                p->want_out = true;
                tcp_epoll_mod(p->sock, true);
            }
            return;
        }
        if (!(p->oq_head = o->next))
            p->oq_tail = NULL;
        out_done(o);
    }
    T.npending--;
    if (p->want_out) {
        p->want_out = false;
        tcp_epoll_mod(p->sock, false);
    }
}

static void note_hot(int peer)
{
    for (int i = 0; i < T.nhot && i < TCP_HOT; i++)
        if (T.hot[i] == peer)
            return;
    if (T.nhot < TCP_HOT)
        T.hot[T.nhot] = peer;
    T.nhot++;
}

/* A connection is up: its read-ahead buffer is made now, so that a job
 * pays for the peers it talks to, not for every rank it could reach. */
void tcp_peer_ready(int peer)
{
    note_hot(peer);
    if (!tcp_peers[peer].rx && !(tcp_peers[peer].rx = malloc(T.rx_cap)))
        dmpi_fatal("out of memory for a TCP read-ahead buffer (%zu bytes)", T.rx_cap);
    if (tcp_peers[peer].oq_head)
        push_peer(peer);
}

/* Queues o for peer, and writes at once if nothing is ahead of it. */
static void send_frame(int peer, tcp_out_t *o)
{
    tcp_peer_t *p = &tcp_peers[peer];
    bool first = !p->oq_head;
    out_push_tail(p, o);
    if (first)
        push_peer(peer);
}

static void send_ctl(int peer, unsigned kind, uint64_t len, uint64_t cookie, uint64_t cookie2)
{
    tcp_out_t *o = out_new(kind, len);
    o->f.cookie = cookie;
    o->f.cookie2 = cookie2;
    send_frame(peer, o);
}

/* An eager frame with room for a copy of its payload. */
static tcp_out_t *eager_frame(const dmpi_hdr_t *m, size_t bytes)
{
    tcp_out_t *o = out_new(TCP_EAGER, bytes);
    o->f.m = *m;
    if (bytes && !(o->copy = malloc(bytes)))
        dmpi_fatal("out of memory for an eager TCP message");
    return o;
}

/* The direct mode: a small contiguous message written at once when the
 * connection is up and idle. Otherwise (no connection yet, frames queued
 * ahead, or nothing written) the caller takes the request path, whose send
 * completes only once its frame is in the kernel: a rank must not leave a
 * send, and go off computing, with the message still in its own queue. */
static bool tcp_send_inline(int peer, const dmpi_hdr_t *m, const void *buf, size_t bytes)
{
    tcp_peer_t *p = &tcp_peers[peer];
    if (!p->sock || p->oq_head)
        return false;
    tcp_frame_t f = {.kind = TCP_EAGER, .m = *m, .len = bytes};
    struct iovec iov[2] = {{&f, TCP_FRAME_BYTES}, {(void *)buf, bytes}};
    struct msghdr mh = {.msg_iov = iov, .msg_iovlen = bytes ? 2 : 1};
    ssize_t w = sendmsg(p->sock->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w > 0)                     /* all of it or a part: either way it is sent */
        dmpi_pv_sent(DMPI_PV_TCP, bytes);
    if (w == (ssize_t)(TCP_FRAME_BYTES + bytes))
        return true;
    if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        lost(peer, "sending", errno);
    if (w <= 0)
        return false;
    /* Part of the frame is on the wire: the rest must follow, copied. (The
     * socket was all but full: the peer is reading, and this rank's next
     * call into MPI writes the rest.) */
    tcp_out_t *o = eager_frame(m, bytes);
    if (bytes)
        memcpy(o->copy, buf, bytes);
    o->sent = (size_t)w;
    send_frame(peer, o);
    return true;
}

/* An eager send: written from the user's buffer (iovecs for noncontiguous
 * data), done once written (out_done). A synchronous one is copied, since
 * it completes on the SYNC_ACK instead. */
static void tcp_send_eager(dmpi_request_t *s)
{
    bool sync = s->mode == DMPI_MODE_SYNC;
    s->sync_pending = sync;
    s->data_pending = 0;
    tcp_out_t *o;
    if (sync) {
        o = eager_frame(&s->hdr, s->bytes);
        if (s->bytes)
            dmpi_req_take(s, 0, o->copy, s->bytes);
        o->f.flags = TCP_F_SYNC;
        o->f.cookie = (uint64_t)(uintptr_t)s;
    } else {
        o = out_new(TCP_EAGER, s->bytes);
        o->f.m = s->hdr;
        o->s = s;
    }
    dmpi_pv_sent(DMPI_PV_TCP, s->bytes);
    send_frame(s->peer, o);
}

static void tcp_send_rndv(dmpi_request_t *s)
{
    s->sync_pending = 0;           /* a rendezvous is matched before its data moves */
    s->data_pending = 1;
    dmpi_pv_sent(DMPI_PV_TCP, s->bytes);
    tcp_out_t *o = out_new(TCP_RTS, s->bytes);
    o->f.m = s->hdr;
    o->f.cookie = (uint64_t)(uintptr_t)s;
    send_frame(s->peer, o);
}

static void tcp_sync_ack(int peer, uint64_t cookie)
{
    send_ctl(peer, TCP_SYNC_ACK, 0, cookie, 0);
}

/* A receive matched our RTS's message: ask for what fits. */
static void tcp_rndv_matched(dmpi_request_t *r, dmpi_msg_t *m)
{
    size_t n = r->st_bytes;
    r->offset = 0;
    r->expect = n;
    send_ctl(m->peer, TCP_CTS, n, m->cookie, (uint64_t)(uintptr_t)r);
    if (n == 0)
        dmpi_req_complete(r);
    else
        tcp_peers[m->peer].data_owed++;
}

/* Sender: the receiver wants len bytes. */
static void rx_cts(int peer, const tcp_frame_t *f)
{
    dmpi_request_t *s = (dmpi_request_t *)(uintptr_t)f->cookie;
    s->data_pending = 0;
    if (f->len == 0) {
        dmpi_req_complete(s);
        return;
    }
    tcp_out_t *o = out_new(TCP_DATA, f->len);
    o->f.cookie = f->cookie2;
    o->s = s;
    send_frame(peer, o);
}

/* ---- reading ------------------------------------------------------------ */

/* The receive's buffer from its byte off, as iovecs. */
static int recv_iov(dmpi_request_t *r, size_t off, size_t n, struct iovec *iov)
{
    if (!r->nc) {
        iov[0] = (struct iovec){r->buf + off, n};
        return 1;
    }
    size_t covered;
    return dmpi_dtype_iov(r->dt, (void *)r->ubuf, off, n, iov, TCP_IOV, &covered);
}

/* DATA arriving straight into the receive's buffer. */
static int read_direct(int peer, tcp_peer_t *p)
{
    dmpi_request_t *r = p->direct;
    struct iovec iov[TCP_IOV];
    int n = recv_iov(r, r->expect - p->direct_left, p->direct_left, iov);
    ssize_t got = readv(p->sock->fd, iov, n);
    if (got == 0)
        lost(peer, "receiving", 0);
    if (got < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return 0;
        lost(peer, "receiving", errno);
    }
    p->direct_left -= (size_t)got;
    if (!p->direct_left)
        p->direct = NULL;
    dmpi_recv_advance(r, (size_t)got);
    return 1;
}

/* One whole frame at the front of the read-ahead; returns the bytes it
 * took, or 0 if it is not all there yet. */
static size_t rx_frame(int peer, tcp_peer_t *p, const char *at, size_t have)
{
    tcp_frame_t f;
    memcpy(&f, at, sizeof f);
    const char *payload = at + TCP_FRAME_BYTES;
    switch (f.kind) {
    case TCP_EAGER: {
        if (have < TCP_FRAME_BYTES + f.len)
            return 0;
        dmpi_pv_recvd(DMPI_PV_TCP, f.len);
        dmpi_msg_t *um = NULL;
        if (f.flags & TCP_F_SYNC)
            dmpi_deliver_eager_sync(&f.m, peer, f.len, payload, f.len, f.cookie, &um);
        else
            dmpi_deliver_eager(&f.m, peer, f.len, payload, f.len, &um);
        return TCP_FRAME_BYTES + f.len;
    }
    case TCP_RTS:
        dmpi_pv_recvd(DMPI_PV_TCP, f.len);
        dmpi_deliver_rndv(&f.m, peer, f.len, f.cookie, 0, 0, 0);
        break;
    case TCP_CTS:
        rx_cts(peer, &f);
        break;
    case TCP_SYNC_ACK: {
        dmpi_request_t *s = (dmpi_request_t *)(uintptr_t)f.cookie;
        s->sync_pending = 0;
        dmpi_req_complete(s);
        break;
    }
    case TCP_DATA: {
        dmpi_request_t *r = (dmpi_request_t *)(uintptr_t)f.cookie;
        p->data_owed--;
        size_t here = have - TCP_FRAME_BYTES < f.len ? have - TCP_FRAME_BYTES : f.len;
        if (here < f.len) {         /* the rest is read straight into the buffer */
            p->direct = r;
            p->direct_left = f.len - here;
        }
        if (here)
            dmpi_recv_fill(r, r->expect - f.len, payload, here);
        return TCP_FRAME_BYTES + here;
    }
    default:
        dmpi_fatal("tcp: rank %d got a frame of unknown kind %u from rank %d", dmpi_world.rank, f.kind, peer);
    }
    return TCP_FRAME_BYTES;
}

/* How much one recv may read ahead. While DATA is owed, no further than
 * the end of the frame under way (its header, or an eager frame's
 * payload): a DATA payload read ahead would be copied once more on its way
 * to the receive's buffer, instead of read straight into it. */
static size_t read_room(const tcp_peer_t *p)
{
    size_t room = T.rx_cap - p->rx_fill;
    if (!p->data_owed)
        return room;
    size_t have = p->rx_fill - p->rx_at, want = TCP_FRAME_BYTES;
    if (have >= TCP_FRAME_BYTES) {
        tcp_frame_t f;
        memcpy(&f, p->rx + p->rx_at, sizeof f);
        if (f.kind == TCP_EAGER)
            want += f.len;
    }
    return want > have && want - have < room ? want - have : room;
}

/* Reads what the socket has and hands over every whole frame. */
static int read_peer(int peer)
{
    tcp_peer_t *p = &tcp_peers[peer];
    if (p->direct)
        return read_direct(peer, p);
    if (p->rx_at == p->rx_fill) {
        p->rx_at = p->rx_fill = 0;
    } else if (p->rx_at && T.rx_cap - p->rx_fill < TCP_FRAME_BYTES + T.eager) {
        memmove(p->rx, p->rx + p->rx_at, p->rx_fill - p->rx_at);   /* room for a whole frame */
        p->rx_fill -= p->rx_at;
        p->rx_at = 0;
    }
    ssize_t got = recv(p->sock->fd, p->rx + p->rx_fill, read_room(p), MSG_DONTWAIT);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return 0;
    if (got <= 0) {
        /* The peer closed: fine once it finished, with nothing under way
         * (a reset too: a peer that closes with unread bytes resets). Any
         * other error (no answer within DMPI_TCP_TIMEOUT) loses it. */
        int err = got < 0 ? errno : 0;
        if ((err && err != ECONNRESET) || p->rx_fill != p->rx_at || p->oq_head)
            lost(peer, "receiving", err);
        tcp_conn_close(p->sock);
        p->sock = NULL;
        return 1;
    }
    p->rx_fill += (size_t)got;
    while (!p->direct && p->rx_fill - p->rx_at >= TCP_FRAME_BYTES) {
        size_t took = rx_frame(peer, p, p->rx + p->rx_at, p->rx_fill - p->rx_at);
        if (!took)
            break;
        p->rx_at += took;
    }
    return 1;
}

/* ---- progress ----------------------------------------------------------- */

/* Reads k while it has data (DATA straight into a buffer may take several
 * reads); 1 if anything came. */
static int drain(int peer, tcp_sock_t *k)
{
    int did = 0;
    while (tcp_peers[peer].sock == k && read_peer(peer)) {
        did = 1;
        if (!tcp_peers[peer].direct)
            break;
    }
    return did;
}

/* A rank with few connections polls them itself: one poll() for all of
 * them, then recv on those with data. A frame's arrival costs the two
 * calls, where epoll took epoll_wait first and then recv (0.5 us more per
 * message between two hosts). poll() takes no socket lock, so a frame that
 * arrives meanwhile is queued to the socket at once; recv polling held the
 * lock, left such a frame in the socket's backlog, and found it only on
 * the next call. epoll_wait still runs every 16th pass (new connections,
 * verdicts), on every pass while frames wait for room to be written, and
 * always on an oversubscribed node, where direct polling measured slower
 * (allreduce across 2 x 2 ranks on 2 cores: 1.5-2x). */
static int poll_hot(void)
{
    struct pollfd pf[TCP_HOT];
    tcp_sock_t *ks[TCP_HOT];
    int n = 0, did = 0;
    for (int i = 0; i < T.nhot; i++) {
        tcp_sock_t *k = tcp_peers[T.hot[i]].sock;
        if (k && k->state == TCP_S_READY) {
            pf[n] = (struct pollfd){.fd = k->fd, .events = POLLIN};
            ks[n++] = k;
        }
    }
    if (n == 0 || poll(pf, (nfds_t)n, 0) <= 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (pf[i].revents)
            did |= drain(ks[i]->peer, ks[i]);
    return did;
}

static int tcp_progress(void)
{
    if (!T.on)
        return 0;
    if (T.nhot && T.nhot <= TCP_HOT && !dmpi_world.oversubscribed && !T.npending && (++T.tick & 15))
        return poll_hot();
    struct epoll_event ev[32];
    int n = epoll_wait(tcp_epoll_fd(), ev, 32, 0);
    int did = 0;
    for (int i = 0; i < n; i++) {
        tcp_sock_t *k = ev[i].data.ptr;
        if (k == TCP_LISTEN_TAG) {
            tcp_conn_accept_all();
            continue;
        }
        did = 1;
        if (k->fd < 0)
            continue;               /* closed earlier in this batch */
        if (k->state != TCP_S_READY) {
            tcp_conn_event(k, ev[i].events);
            continue;
        }
        int peer = k->peer;
        if (ev[i].events & EPOLLOUT)
            push_peer(peer);
        if (ev[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
            drain(peer, k);
    }
    tcp_conn_reap();
    return did;
}

static bool tcp_quiet(void) { return T.npending == 0; }

/* ---- start-up ----------------------------------------------------------- */

static int tcp_plan(void)
{
    if (strcmp(dmpi_params.transport, "auto") && !forced()) {
        fprintf(stderr, "dmpi: DMPI_TRANSPORT=%s: expected auto or tcp\n", dmpi_params.transport);
        return -1;
    }
    for (int w = 0; w < dmpi_world.size; w++)
        T.on |= ours(w);
    if (!T.on)
        return 0;
    if (tcp_conn_listen() != 0 || tcp_conn_publish() != 0)
        return -1;
    return 0;
}

/* What every start needs: the sizes, and the peer table for the world. */
static int start_common(void)
{
    /* every pass is now a system call (recv, poll or epoll_wait, 0.3-0.5
     * us): spinning 100 of them on a machine whose ranks outnumber its
     * cores kept the rank we wait for off a core, and allreduce across
     * 2 x 2 ranks on 2 cores took 2-3x as long */
    dmpi_tport_poll_cost = TCP_POLL_COST;
    T.eager = dmpi_params.tcp_eager_limit;
    T.rx_cap = TCP_FRAME_BYTES + T.eager + RX_SLACK;
    tcp_npeers = dmpi_world.size;
    return (tcp_peers = calloc((size_t)dmpi_world.size, sizeof *tcp_peers)) ? 0 : -1;
}

static int tcp_init(void)
{
    if (!T.on)
        return 0;
    if (tcp_addr_publish(&tcp_listen_addr) != 0) {
        fprintf(stderr, "dmpi: tcp: rank %d cannot publish its address\n", dmpi_world.rank);
        return -1;
    }
    if (dmpi_pmi_barrier() != 0 || tcp_conn_read_key() != 0) {
        fprintf(stderr, "dmpi: tcp: rank %d cannot read the job's key\n", dmpi_world.rank);
        return -1;
    }
    if (start_common() != 0)
        return -1;
    for (int w = 0; w < dmpi_world.size; w++) {
        if (!ours(w))
            continue;
        dmpi_tport_claim(w, &dmpi_tport_tcp, w, (long long)T.eager, (long long)T.eager);
    }
    if (dmpi_world.rank == 0)
        dmpi_verbose(1, "tcp: eager limit %zu bytes%s", T.eager, forced() ? ", between all ranks (DMPI_TRANSPORT=tcp)" : "");
    return 0;
}

static void tcp_finalize(void)
{
    tcp_port_close_all();
    if (!T.on)
        return;
    for (int w = 0; w < tcp_npeers; w++) {
        tcp_peer_t *p = &tcp_peers[w];
        tcp_conn_close(p->sock);
        tcp_conn_close(p->dialing);
        for (tcp_out_t *o = p->oq_head, *n; o; o = n) {
            n = o->next;
            free(o->copy);
            free(o);
        }
        free(p->rx);
    }
    free(tcp_peers);
    tcp_addr_finalize();
    tcp_peers = NULL;
    tcp_npeers = 0;
    tcp_conn_finalize();
    T.on = false;
    T.npending = 0;
    T.nhot = 0;
}

/* A long wait sleeps on the epoll set, so that a frame (or room to write)
 * ends the nap at once: ppoll, since naps are often shorter than
 * epoll_wait's millisecond, and a blind sleep would leave a stream's
 * socket full (the sender stalls) while this rank sleeps. */
static bool tcp_nap(double seconds)
{
    if (!T.on)
        return false;
    struct pollfd pfd = {.fd = tcp_epoll_fd(), .events = POLLIN};
    struct timespec ts = dmpi_tport_timespec(seconds);
    ppoll(&pfd, 1, &ts, NULL);
    return true;
}

/* ---- processes of other jobs -------------------------------------------- */

/* Other jobs reach this process by TCP: listen now if the job did not need
 * TCP (all ranks on one node). */
static int tcp_dyn_start(dmpi_proc_id_t *me)
{
    if (!T.on) {
        if (tcp_conn_listen() != 0 || start_common() != 0)
            return -1;
        T.on = true;
    }
    return tcp_conn_dyn_start(me);
}

static int tcp_dyn_add(int proc, const dmpi_proc_id_t *id)
{
    if (proc >= tcp_npeers) {
        tcp_peer_t *n = realloc(tcp_peers, (size_t)(proc + 1) * sizeof *n);
        if (!n)
            return -1;
        memset(n + tcp_npeers, 0, (size_t)(proc + 1 - tcp_npeers) * sizeof *n);
        tcp_peers = n;
        tcp_npeers = proc + 1;
    }
    tcp_peers[proc].foreign = true;
    tcp_peers[proc].id = *id;
    dmpi_tport_claim(proc, &dmpi_tport_tcp, proc, (long long)T.eager, (long long)T.eager);
    return 0;
}

const dmpi_tport_t dmpi_tport_tcp = {
    .name = "tcp",
    .plan = tcp_plan,
    .init = tcp_init,
    .finalize = tcp_finalize,
    .progress = tcp_progress,
    .quiet = tcp_quiet,
    .send_inline = tcp_send_inline,
    .send_eager = tcp_send_eager,
    .send_rndv = tcp_send_rndv,
    .rndv_matched = tcp_rndv_matched,
    .sync_ack = tcp_sync_ack,
    .nap = tcp_nap,
    .dyn_start = tcp_dyn_start,
    .dyn_add = tcp_dyn_add,
};
