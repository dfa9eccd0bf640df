/* TCP connections: the listening socket on the chosen interface, the job's
 * key, and one connection per pair, made when the first message needs it.
 *
 * Both ranks of a pair may dial each other at once. The rule that keeps one
 * connection: the one dialled by the lower rank wins. An acceptor that is
 * dialling the connector itself accepts only a lower connector and rejects
 * a higher one (whose own dial, to the lower rank, is accepted); a rank
 * sends frames only on a connection whose verdict it has, so nothing goes
 * down a connection that loses. */
#include "tport/tcp/tcp.h"
#include "core/params.h"
#include "pmi/pmi.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
    int ep, lfd;
    struct in_addr addr;
    char ifname[IF_NAMESIZE];
    uint8_t key[TCP_KEY_BYTES];
    bool dyn;                    /* other jobs may connect: me is set */
    dmpi_proc_id_t me;
} C = {-1, -1, {0}, "", {0}, false, {0}};

int tcp_epoll_fd(void) { return C.ep; }

/* ---- the interface --------------------------------------------------- */

static bool is_bridge(const char *name)
{
    char path[128];
    struct stat st;
    snprintf(path, sizeof path, "/sys/class/net/%s/bridge", name);
    return stat(path, &st) == 0 || !strncmp(name, "virbr", 5) || !strncmp(name, "docker", 6);
}

/* DMPI_TCP_IF as "a.b.c.d/bits": whether addr lies in it. -1 if it is not a CIDR. */
static int in_cidr(const char *spec, struct in_addr addr)
{
    char net[64];
    const char *slash = strchr(spec, '/');
    if (!slash || (size_t)(slash - spec) >= sizeof net)
        return -1;
    memcpy(net, spec, (size_t)(slash - spec));
    net[slash - spec] = 0;
    char *end;
    long bits = strtol(slash + 1, &end, 10);
    struct in_addr n;
    if (*end || bits < 0 || bits > 32 || inet_pton(AF_INET, net, &n) != 1)
        return -1;
    uint32_t mask = bits ? htonl(~0u << (32 - bits)) : 0;
    return (addr.s_addr & mask) == (n.s_addr & mask);
}

/* The address to listen on: the interface DMPI_TCP_IF names (by name or
 * CIDR), or else the first that is up and neither loopback nor a bridge;
 * loopback only when there is nothing else. */
static int choose_interface(void)
{
    struct ifaddrs *all;
    if (getifaddrs(&all) != 0) {
        perror("dmpi: tcp: getifaddrs");
        return -1;
    }
    const char *want = strcmp(dmpi_params.tcp_if, "auto") ? dmpi_params.tcp_if : "";
    struct ifaddrs *best = NULL, *loop = NULL;
    for (struct ifaddrs *i = all; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP))
            continue;
        struct in_addr a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
        if (want[0]) {
            int c = in_cidr(want, a);
            if (c == 1 || (c == -1 && !strcmp(want, i->ifa_name))) {
                best = i;
                break;
            }
            continue;
        }
        if (i->ifa_flags & IFF_LOOPBACK) {
            loop = loop ? loop : i;
            continue;
        }
        if (!best && !is_bridge(i->ifa_name))
            best = i;
    }
    if (!best && !want[0])
        best = loop;
    if (!best) {
        fprintf(stderr, "dmpi: tcp: no interface that is up matches DMPI_TCP_IF=%s\n", want[0] ? want : "(any)");
        freeifaddrs(all);
        return -1;
    }
    C.addr = ((struct sockaddr_in *)best->ifa_addr)->sin_addr;
    snprintf(C.ifname, sizeof C.ifname, "%s", best->ifa_name);
    freeifaddrs(all);
    return 0;
}

/* ---- listening and the key ---------------------------------------------- */

struct sockaddr_in tcp_listen_addr;

int tcp_conn_listen(void)
{
    if (choose_interface() != 0)
        return -1;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr = C.addr, .sin_port = 0};
    socklen_t len = sizeof sa;
    C.lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (C.lfd < 0 || bind(C.lfd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(C.lfd, 1024) != 0 ||
        getsockname(C.lfd, (struct sockaddr *)&sa, &len) != 0) {
        perror("dmpi: tcp: cannot listen");
        return -1;
    }
    C.addr = sa.sin_addr;
    C.ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = TCP_LISTEN_TAG};
    if (C.ep < 0 || epoll_ctl(C.ep, EPOLL_CTL_ADD, C.lfd, &ev) != 0) {
        perror("dmpi: tcp: epoll");
        return -1;
    }
    char a[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &C.addr, a, sizeof a);
    dmpi_verbose(2, "tcp: rank %d listens on %s:%u (%s)", dmpi_world.rank, a, ntohs(sa.sin_port), C.ifname);
    tcp_listen_addr = sa;
    return 0;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
}

/* Rank 0 draws the job's key and puts it into the launcher's key space,
 * which only the job's processes read: never on a command line or in an
 * environment. */
int tcp_conn_publish(void)
{
    if (dmpi_world.rank != 0)
        return 0;
    if (getrandom(C.key, sizeof C.key, 0) != (ssize_t)sizeof C.key) {
        perror("dmpi: tcp: getrandom");
        return -1;
    }
    char h[2 * TCP_KEY_BYTES + 1];
    hex(C.key, sizeof C.key, h);
    return dmpi_pmi_put("dmpi-tcp-key", h);
}

int tcp_conn_dyn_start(dmpi_proc_id_t *me)
{
    if (!C.dyn) {
        if (getrandom(me->key, sizeof me->key, 0) != (ssize_t)sizeof me->key) {
            perror("dmpi: tcp: getrandom");
            return -1;
        }
        me->addr = tcp_listen_addr.sin_addr.s_addr;
        me->port = tcp_listen_addr.sin_port;
        C.me = *me;
        C.dyn = true;
    }
    *me = C.me;
    return 0;
}

/* Of two processes that dial each other, the connection of the lower one
 * wins: world ranks in a job, (job, rank) across jobs. */
static bool me_lower(int peer)
{
    if (!tcp_peers[peer].foreign)
        return dmpi_world.rank < peer;
    const dmpi_proc_id_t *o = &tcp_peers[peer].id;
    return C.me.job != o->job ? C.me.job < o->job : C.me.rank < o->rank;
}

int tcp_conn_read_key(void)
{
    if (dmpi_world.rank == 0)
        return 0;
    char h[DMPI_PMI_VAL_MAX];
    if (dmpi_pmi_get("dmpi-tcp-key", h, sizeof h) != 0 || strlen(h) != 2 * TCP_KEY_BYTES)
        return -1;
    for (int i = 0; i < TCP_KEY_BYTES; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1)
            return -1;
        C.key[i] = (uint8_t)v;
    }
    return 0;
}

/* ---- sockets ------------------------------------------------------------ */

/* A peer that stops answering (its host down, the link cut) is noticed
 * within DMPI_TCP_TIMEOUT seconds: data unacknowledged that long fails the
 * socket (TCP_USER_TIMEOUT), and an idle connection is probed (keepalive)
 * so that a rank waiting to receive finds out too. A peer that is merely
 * busy still answers the probes from its kernel. */
static void set_timeout(int fd)
{
    double t = dmpi_params.tcp_timeout;
    if (t <= 0)
        return;
    unsigned ms = t * 1000 > 4e9 ? 4000000000u : (unsigned)(t * 1000);
    int one = 1, idle = t / 3 < 1 ? 1 : (int)(t / 3), intvl = t / 6 < 1 ? 1 : (int)(t / 6), cnt = 3;
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ms, sizeof ms);
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

static tcp_sock_t *sock_new(int fd, int peer, int state, unsigned events)
{
    tcp_sock_t *k = calloc(1, sizeof *k);
    if (!k)
        dmpi_fatal("out of memory for a TCP connection");
    k->fd = fd;
    k->peer = peer;
    k->state = state;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    set_timeout(fd);
    struct epoll_event ev = {.events = events, .data.ptr = k};
    if (epoll_ctl(C.ep, EPOLL_CTL_ADD, fd, &ev) != 0)
        dmpi_fatal("tcp: epoll_ctl: %s", strerror(errno));
    return k;
}

void tcp_epoll_mod(tcp_sock_t *k, bool out)
{
    struct epoll_event ev = {.events = EPOLLIN | (out ? EPOLLOUT : 0), .data.ptr = k};
    epoll_ctl(C.ep, EPOLL_CTL_MOD, k->fd, &ev);
}

/* A closed socket may still have an event in the batch being handled: it
 * is freed after the batch (tcp_conn_reap), its fd -1 meanwhile. */
static tcp_sock_t *graveyard[128];   /* a batch of 32 events closes at most 2 each */
static int ngrave;

void tcp_conn_close(tcp_sock_t *k)
{
    if (!k || k->fd < 0)
        return;
    epoll_ctl(C.ep, EPOLL_CTL_DEL, k->fd, NULL);
    close(k->fd);
    k->fd = -1;
    if (ngrave == (int)(sizeof graveyard / sizeof graveyard[0]))
        tcp_conn_reap();
    graveyard[ngrave++] = k;
}

void tcp_conn_reap(void)
{
    while (ngrave)
        free(graveyard[--ngrave]);
}

void tcp_conn_dial(int peer)
{
    tcp_peer_t *p = &tcp_peers[peer];
    if (p->sock || p->dialing)
        return;
    struct sockaddr_in sa;
    if (p->foreign)
        sa = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = (in_port_t)p->id.port,
                                  .sin_addr = {.s_addr = p->id.addr}};
    else
        tcp_addr_of(peer, &sa);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        dmpi_fatal("tcp: socket: %s", strerror(errno));
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 && errno != EINPROGRESS)
        dmpi_fatal("tcp: rank %d cannot connect to rank %d: %s", dmpi_world.rank, peer, strerror(errno));
    p->dialing = sock_new(fd, peer, TCP_S_CONNECTING, EPOLLOUT);
}

/* Small control writes on a fresh socket: its buffer is empty, so they go
 * whole or the connection is broken. */
static bool write_all(int fd, const void *b, size_t n)
{
    return send(fd, b, n, MSG_NOSIGNAL) == (ssize_t)n;
}

/* Reads what is left of a fixed-size message into k->in; true once whole,
 * false for more later; *dead on EOF or error. */
static bool read_part(tcp_sock_t *k, size_t want, bool *dead)
{
    ssize_t n = recv(k->fd, (char *)&k->in + k->got, want - k->got, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        *dead = true;
        return false;
    }
    if (n > 0)
        k->got += (size_t)n;
    return k->got == want;
}

static void dial_failed(tcp_sock_t *k, const char *why)
{
    dmpi_fatal("tcp: rank %d lost its connection to rank %d while connecting (%s)", dmpi_world.rank, k->peer, why);
}

/* Our dial: connected, so say hello; then the verdict. */
static void dial_event(tcp_sock_t *k, unsigned events)
{
    tcp_peer_t *p = &tcp_peers[k->peer];
    if (k->state == TCP_S_CONNECTING) {
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(k->fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err)
            dmpi_fatal("tcp: rank %d cannot connect to rank %d: %s", dmpi_world.rank, k->peer, strerror(err));
        if (!(events & EPOLLOUT))
            return;
        tcp_hello_t h = {TCP_MAGIC, {0}, dmpi_world.rank, (uint32_t)dmpi_world.size};
        tcp_hello_dyn_t hd = {TCP_MAGIC_DYN, {0}, C.me};
        memcpy(h.key, C.key, sizeof h.key);
        memcpy(hd.key, p->id.key, sizeof hd.key);
        if (p->foreign ? !write_all(k->fd, &hd, sizeof hd) : !write_all(k->fd, &h, sizeof h))
            dial_failed(k, "hello");
        k->state = TCP_S_AWAIT_VERDICT;
        k->got = 0;
        tcp_epoll_mod(k, false);
        /* A lower rank's dial is always accepted (accept_event): its frames
         * follow the hello at once, so that they reach the peer's kernel
         * whether or not the peer is in MPI just now. */
        if (me_lower(k->peer)) {
            p->sock = k;
            tcp_peer_ready(k->peer);
        }
        return;
    }
    if (p->sock == k && (events & EPOLLOUT))
        tcp_peer_ready(k->peer);     /* frames sent ahead of the verdict wait for room */
    bool dead = false;
    if (!read_part(k, sizeof(tcp_verdict_t), &dead)) {
        if (dead && p->sock == k)
            dial_failed(k, "verdict");
        if (dead) {             /* the peer dropped it: its own dial won, or it rejected our key */
            p->dialing = NULL;
            tcp_conn_close(k);
        }
        return;
    }
    p->dialing = NULL;
    if (k->in.verdict.magic != TCP_MAGIC || k->in.verdict.verdict != TCP_ACCEPT) {
        if (p->sock == k)
            dial_failed(k, "refused");
        tcp_conn_close(k);      /* the peer's own connection wins */
        return;
    }
    k->state = TCP_S_READY;
    p->sock = k;
    tcp_peer_ready(k->peer);
}

static void refuse(tcp_sock_t *k, const char *why)
{
    dmpi_verbose(1, "tcp: rank %d refused a connection: %s", dmpi_world.rank, why);
    tcp_conn_close(k);
}

/* A connection we accepted: the hello must carry the job's key and a rank. */
/* A hello from a process of another job: our own key for them, and its id. */
static int accept_dyn(tcp_sock_t *k)
{
    tcp_hello_dyn_t *h = &k->in.dyn;
    if (!C.dyn || memcmp(h->key, C.me.key, sizeof h->key) != 0) {
        refuse(k, "no valid key for connections from other jobs");
        return -1;
    }
    int r = dmpi_tport_proc(&h->from);
    if (r < dmpi_world.size || r >= tcp_npeers) {
        refuse(k, "a process of another job that cannot be reached");
        return -1;
    }
    return r;
}

static void accept_event(tcp_sock_t *k)
{
    bool dead = false;
    size_t want = k->got >= sizeof(uint64_t) && k->in.hello.magic == TCP_MAGIC_DYN ? sizeof(tcp_hello_dyn_t)
                                                                                   : sizeof(tcp_hello_t);
    for (;;) {
        if (!read_part(k, want, &dead)) {
            if (dead)
                refuse(k, "closed before its hello");
            return;
        }
        if (k->in.hello.magic != TCP_MAGIC_DYN || want == sizeof(tcp_hello_dyn_t))
            break;
        want = sizeof(tcp_hello_dyn_t);
    }
    tcp_hello_t *h = &k->in.hello;
    int r;
    if (h->magic == TCP_MAGIC_DYN) {
        if ((r = accept_dyn(k)) < 0)
            return;
    } else if (h->magic != TCP_MAGIC || memcmp(h->key, C.key, sizeof C.key) != 0) {
        refuse(k, "no valid key of this job");
        return;
    } else if ((r = h->rank) < 0 || r >= dmpi_world.size || r == dmpi_world.rank ||
               h->size != (uint32_t)dmpi_world.size) {
        refuse(k, "a rank that is not in this job");
        return;
    }
    tcp_peer_t *p = &tcp_peers[r];
    bool ours_wins = p->sock || (p->dialing && me_lower(r));
    tcp_verdict_t v = {TCP_MAGIC, ours_wins ? TCP_REJECT : TCP_ACCEPT, 0};
    if (!write_all(k->fd, &v, sizeof v) || ours_wins) {
        tcp_conn_close(k);
        return;
    }
    if (p->dialing) {           /* our dial to a lower rank loses */
        tcp_conn_close(p->dialing);
        p->dialing = NULL;
    }
    k->peer = r;
    k->state = TCP_S_READY;
    p->sock = k;
    tcp_peer_ready(r);
}

void tcp_conn_event(tcp_sock_t *k, unsigned events)
{
    if (k->state == TCP_S_AWAIT_HELLO)
        accept_event(k);
    else
        dial_event(k, events);
}

void tcp_conn_accept_all(void)
{
    for (;;) {
        int fd = accept4(C.lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        sock_new(fd, -1, TCP_S_AWAIT_HELLO, EPOLLIN);
    }
}

void tcp_conn_finalize(void)
{
    tcp_conn_reap();
    if (C.lfd >= 0)
        close(C.lfd);
    if (C.ep >= 0)
        close(C.ep);
    C.lfd = C.ep = -1;
    C.dyn = false;
}
