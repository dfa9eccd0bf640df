/* The per-host proxy: "mpiexec --proxy", started on each host of a job by
 * mpiexec through the launcher, talks to mpiexec over its standard input
 * and output (link.c). It forks the host's ranks (spawn.c, as mpiexec does
 * on one host), relays their PMI requests, stdout and stderr byte for byte,
 * reports their pids and exits, feeds rank 0's stdin, and passes on the
 * signals mpiexec sends. All judging is mpiexec's.
 *
 * If mpiexec goes away (the link closes, or nothing comes from it within
 * the link timeout: this host cut off), the proxy kills its ranks and
 * leaves; at the end it removes the job's /dev/shm entries on its host.
 * Its writes to mpiexec are queued, never blocking, so a dead link cannot
 * hold it up. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define OUT_HIGH_WATER (4u << 20)     /* stop reading the ranks' output above this much queued */
#define READ_CHUNK 65536

enum { K_SIGNAL, K_UP, K_PMI, K_OUT, K_ERR, K_STDIN };

struct proxy {
    struct mpx_job job;
    struct mpx_options opt;
    struct mpx_link up;
    char host[256];
    char *stdin_q;                /* bytes for rank 0 not yet written */
    size_t stdin_len, stdin_cap;
    int stdin_eof;                /* mpiexec's stdin ended: close rank 0's after the queue */
    double link_timeout;          /* from START; 0: no heartbeat */
};

static struct proxy px;

/* ---------------------------------------------------------- relaying */

/* Sends what a rank's descriptor has now (for output: up to limit bytes).
 * At EOF: closes it and sends an empty frame. */
static void relay(int *fd, int type, int rank, size_t limit)
{
    char buf[READ_CHUNK];
    size_t sent = 0;
    while (*fd >= 0 && sent < limit) {
        ssize_t n = read(*fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            close(*fd);
            *fd = -1;
            mpx_link_send(&px.up, type, rank, NULL, 0);
            return;
        }
        mpx_link_send(&px.up, type, rank, buf, (size_t)n);
        sent += (size_t)n;
    }
}

static void relay_output(struct mpx_rank *r, size_t limit)
{
    relay(&r->out.fd, MPX_F_OUT, r->rank, limit);
    relay(&r->err.fd, MPX_F_ERR, r->rank, limit);
}

static void pmi_readable(struct mpx_rank *r)
{
    char buf[MPX_PMI_LINE_MAX];
    for (;;) {
        ssize_t n = read(r->pmi.fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            close(r->pmi.fd);
            r->pmi.fd = -1;
            mpx_link_send(&px.up, MPX_F_PMI, r->rank, NULL, 0);
            return;
        }
        /* What a rank printed before MPI_Abort comes out before the abort. */
        if (memmem(buf, (size_t)n, "cmd=abort", 9))
            relay_output(r, (size_t)-1);
        mpx_link_send(&px.up, MPX_F_PMI, r->rank, buf, (size_t)n);
    }
}

static void pmi_reply(struct mpx_rank *r, const char *data, size_t len)
{
    if (r->pmi.fd >= 0)
        mpx_send_patiently(r->pmi.fd, data, len);   /* a rank gone: its exit will tell */
}

/* After reaping: everything the rank said goes up before its exit. */
static void report_exit(struct mpx_job *job, struct mpx_rank *r)
{
    char num[32];
    (void)job;
    if (r->pmi.fd >= 0)
        pmi_readable(r);
    relay_output(r, (size_t)-1);
    snprintf(num, sizeof num, "%d", r->wait_status);
    mpx_link_send(&px.up, MPX_F_EXIT, r->rank, num, strlen(num));
    if (r->rank == 0 && px.job.stdin_dst >= 0) {
        close(px.job.stdin_dst);
        px.job.stdin_dst = -1;
    }
}

/* -------------------------------------------------------------- stdin */

static void stdin_queue(const char *data, size_t len)
{
    if (len == 0) {
        px.stdin_eof = 1;
    } else {
        if (px.stdin_len + len > px.stdin_cap) {
            px.stdin_cap = (px.stdin_len + len) * 2;
            px.stdin_q = mpx_xrealloc(px.stdin_q, px.stdin_cap);
        }
        memcpy(px.stdin_q + px.stdin_len, data, len);
        px.stdin_len += len;
    }
    if (px.job.stdin_dst < 0) {        /* rank 0 is gone or closed it: drop, but keep mpiexec going */
        char num[32];
        snprintf(num, sizeof num, "%zu", px.stdin_len);
        if (px.stdin_len)
            mpx_link_send(&px.up, MPX_F_STDIN_ACK, 0, num, strlen(num));
        px.stdin_len = 0;
    }
}

static void stdin_writable(void)
{
    size_t done = 0;
    int broken = 0;
    while (done < px.stdin_len) {
        ssize_t n = write(px.job.stdin_dst, px.stdin_q + done, px.stdin_len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n < 0) {
            broken = 1;
            break;
        }
        done += (size_t)n;
    }
    if (done) {
        char num[32];
        snprintf(num, sizeof num, "%zu", done);
        mpx_link_send(&px.up, MPX_F_STDIN_ACK, 0, num, strlen(num));
        memmove(px.stdin_q, px.stdin_q + done, px.stdin_len - done);
        px.stdin_len -= done;
    }
    if (broken || (px.stdin_eof && px.stdin_len == 0)) {
        close(px.job.stdin_dst);
        px.job.stdin_dst = -1;
        px.stdin_len = 0;
        if (broken)
            mpx_link_send(&px.up, MPX_F_STDIN_CLOSED, 0, NULL, 0);
    }
}

/* -------------------------------------------------------------- start */

/* The START frame's strings; NULL if it is malformed. */
static char **split_start(const struct mpx_frame *f, int *count)
{
    if (f->len == 0 || f->data[f->len - 1] != '\0')
        return NULL;
    int n = 0;
    for (size_t i = 0; i < f->len; i++)
        n += f->data[i] == '\0';
    char **v = mpx_xmalloc((size_t)(n + 1) * sizeof *v);
    char *copy = mpx_xmalloc(f->len);
    memcpy(copy, f->data, f->len);
    for (int i = 0, off = 0; i < n; i++) {
        v[i] = copy + off;
        off += (int)strlen(copy + off) + 1;
    }
    v[n] = NULL;
    *count = n;
    return v;
}

static int to_int(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 0 || v > 100000000)
        return -1;
    *out = (int)v;
    return 0;
}

static int to_seconds(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= 0 && v <= 1e9))
        return -1;
    *out = v;
    return 0;
}

/* Sets up the job from START; 0, or -1 if it is malformed. */
static int take_start(const struct mpx_frame *f)
{
    int n, k = 0, world, first, nranks, want_stdin, nenv, argc;
    char **v = split_start(f, &n);
    if (!v)
        return -1;
    if (n < 11 || strcmp(v[0], MPX_PROXY_VERSION) != 0 || to_int(v[2], &world) || to_int(v[3], &first) ||
        to_int(v[4], &nranks) || to_int(v[6], &want_stdin) || to_seconds(v[8], &px.link_timeout) ||
        to_int(v[9], &nenv) || nenv > n - 11 || to_int(v[10 + nenv], &argc) || argc < 1 ||
        argc != n - 11 - nenv || nranks < 1 || first > world - nranks || strlen(v[1]) >= MPX_KVSNAME_MAX)
        return -1;
    for (k = 0; k < nenv; k++)
        putenv(v[10 + k]);             /* the strings stay: putenv keeps them */
    memset(&px.opt, 0, sizeof px.opt);
    px.opt.nprocs = nranks;
    px.opt.argv = &v[11 + nenv];
    mpx_job_init(&px.job, &px.opt);
    px.job.world_size = world;
    snprintf(px.job.kvsname, sizeof px.job.kvsname, "%s", v[1]);
    px.job.nnodes = 1;
    px.job.nodes = mpx_xmalloc(sizeof *px.job.nodes);
    px.job.nodes[0].host = mpx_xstrdup(v[5]);
    px.job.nodes[0].first_rank = first;
    px.job.nodes[0].nranks = nranks;
    for (int i = 0; i < nranks; i++) {
        px.job.ranks[i].rank = first + i;
        px.job.ranks[i].node = 0;
        px.job.ranks[i].local_rank = i;
    }
    px.job.stdin_to_rank0 = want_stdin && first == 0;
    px.job.up = &px.up;
    px.job.rank_exited = report_exit;
    if (chdir(v[7]) != 0)
        mpx_job_fail(&px.job, 1, "cannot change to the directory '%s': %s", v[7], strerror(errno));
    return 0;
}

static void spawn(void)
{
    if (!px.job.have_status)
        mpx_spawn_all(&px.job);        /* a failure goes up as a FAIL frame */
    for (int i = 0; i < px.job.n; i++) {
        struct mpx_rank *r = &px.job.ranks[i];
        if (r->state != MPX_RUNNING)
            continue;
        char num[32];
        snprintf(num, sizeof num, "%ld", (long)r->pid);
        mpx_link_send(&px.up, MPX_F_SPAWNED, r->rank, num, strlen(num));
    }
}

/* ------------------------------------------------------------- frames */

static int started;

static int handle_frame(const struct mpx_frame *f)
{
    switch (f->type) {
    case MPX_F_START:
        if (started || take_start(f) != 0)
            return -1;
        started = 1;
        spawn();
        return 0;
    case MPX_F_PMI_REPLY: {
        int i = f->rank - (started ? px.job.nodes[0].first_rank : 0);
        if (!started || i < 0 || i >= px.job.n)
            return -1;
        pmi_reply(&px.job.ranks[i], f->data, f->len);
        return 0;
    }
    case MPX_F_STDIN:
        if (!started)
            return -1;
        stdin_queue(f->data, f->len);
        return 0;
    case MPX_F_BEAT:                   /* heard: mpx_link_read noted it */
        return 0;
    case MPX_F_SIGNAL:
        if (f->rank <= 0 || f->rank >= NSIG)
            return -1;
        if (started) {
            px.job.terminating = 1;
            mpx_kill_job(&px.job, f->rank);
        }
        return 0;
    default:
        return -1;
    }
}

/* mpiexec is gone: nobody is left to judge or print; end it all. */
static void orphaned(int sigfd)
{
    if (started) {
        mpx_kill_job(&px.job, SIGKILL);
        mpx_kill_leftovers(&px.job, sigfd);
        mpx_shm_cleanup(px.job.kvsname);
    }
    _exit(1);
}

/* --------------------------------------------------------------- loop */

static void up_readable(int sigfd)
{
    int rc = mpx_link_read(&px.up);
    struct mpx_frame f;
    int got;
    while ((got = mpx_link_next(&px.up, &f)) == 1)
        if (handle_frame(&f) != 0)
            orphaned(sigfd);
    if (got < 0 || rc <= 0)
        orphaned(sigfd);
}

/* The heartbeat: a beat when we have been quiet; mpiexec silent for the
 * timeout (after reading what may wait) is gone. Returns the next deadline. */
static double heartbeat(int sigfd, double now)
{
    if (!started || px.link_timeout <= 0)
        return -1;
    double next = mpx_link_beat(&px.up, mpx_beat_interval(px.link_timeout), now);
    if (now - px.up.last_heard >= px.link_timeout) {
        up_readable(sigfd);
        if (now - px.up.last_heard >= px.link_timeout)
            orphaned(sigfd);
    }
    mpx_consider(&next, px.up.last_heard + px.link_timeout);
    return next;
}

static int fds_open(void)
{
    for (int i = 0; i < px.job.n; i++) {
        const struct mpx_rank *r = &px.job.ranks[i];
        if (r->out.fd >= 0 || r->err.fd >= 0 || r->pmi.fd >= 0)
            return 1;
    }
    return 0;
}

static void run(int sigfd)
{
    struct mpx_poll_set ps = { 0 };
    double drain_deadline = -1;
    for (;;) {
        double now = mpx_now(), next = heartbeat(sigfd, now);
        if (started && px.job.nrunning == 0) {
            if (drain_deadline < 0)
                drain_deadline = now + MPX_DRAIN_TIME;
            if (!fds_open() || now >= drain_deadline)
                break;
            mpx_consider(&next, drain_deadline);
        }
        ps.n = 0;
        mpx_poll_add(&ps, sigfd, POLLIN, K_SIGNAL, -1);
        mpx_poll_add(&ps, px.up.in_fd, POLLIN, K_UP, -1);
        if (px.up.out_fd != px.up.in_fd && mpx_link_queued(&px.up))
            mpx_poll_add(&ps, px.up.out_fd, POLLOUT, K_UP, -1);
        else if (mpx_link_queued(&px.up))
            ps.pfd[1].events |= POLLOUT;
        int take_output = mpx_link_queued(&px.up) < OUT_HIGH_WATER;
        for (int i = 0; started && i < px.job.n; i++) {
            struct mpx_rank *r = &px.job.ranks[i];
            if (r->pmi.fd >= 0)
                mpx_poll_add(&ps, r->pmi.fd, POLLIN, K_PMI, i);
            if (r->out.fd >= 0 && take_output)
                mpx_poll_add(&ps, r->out.fd, POLLIN, K_OUT, i);
            if (r->err.fd >= 0 && take_output)
                mpx_poll_add(&ps, r->err.fd, POLLIN, K_ERR, i);
        }
        if (px.job.stdin_dst >= 0 && (px.stdin_len || px.stdin_eof))
            mpx_poll_add(&ps, px.job.stdin_dst, POLLOUT, K_STDIN, 0);

        int nready = poll(ps.pfd, (nfds_t)ps.n, mpx_poll_timeout(next, now));
        if (nready < 0 && errno != EINTR)
            orphaned(sigfd);
        if (nready <= 0)
            continue;
        for (int k = 0; k < ps.n; k++) {
            struct pollfd *p = &ps.pfd[k];
            if (!p->revents)
                continue;
            struct mpx_rank *r = ps.index[k] >= 0 ? &px.job.ranks[ps.index[k]] : NULL;
            switch (ps.kind[k]) {
            case K_SIGNAL: {
                int sig;
                while ((sig = mpx_signals_next()) != 0) {
                    if (sig == SIGCHLD && started)
                        mpx_reap(&px.job);
                    else if (sig != SIGCHLD && started)
                        mpx_kill_job(&px.job, sig);   /* pass on; the exits tell mpiexec */
                    else if (sig != SIGCHLD)
                        orphaned(sigfd);
                }
                break;
            }
            case K_UP:
                if (p->revents & POLLOUT && mpx_link_flush(&px.up) != 0)
                    orphaned(sigfd);
                if (p->fd == px.up.in_fd && (p->revents & ~POLLOUT))
                    up_readable(sigfd);
                break;
            case K_PMI:
                if (r->pmi.fd == p->fd)
                    pmi_readable(r);
                break;
            case K_OUT:
                if (r->out.fd == p->fd)
                    relay(&r->out.fd, MPX_F_OUT, r->rank, 16 * READ_CHUNK);
                break;
            case K_ERR:
                if (r->err.fd == p->fd)
                    relay(&r->err.fd, MPX_F_ERR, r->rank, 16 * READ_CHUNK);
                break;
            case K_STDIN:
                if (px.job.stdin_dst == p->fd)
                    stdin_writable();
                break;
            }
        }
    }
    mpx_poll_free(&ps);
}

/* Writes what is queued for mpiexec, waiting at most a few seconds. */
static void drain_up(void)
{
    double deadline = mpx_now() + 5.0;
    while (mpx_link_queued(&px.up) && mpx_now() < deadline) {
        if (mpx_link_flush(&px.up) != 0)
            return;
        struct pollfd pf = { .fd = px.up.out_fd, .events = POLLOUT };
        poll(&pf, 1, 100);
    }
}

int mpx_proxy_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    /* The link is our stdin and stdout: move it aside, so that nothing we
     * or a library print can corrupt it. */
    int in = fcntl(0, F_DUPFD_CLOEXEC, 3), out = fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (in < 0 || out < 0) {
        fprintf(stderr, "mpiexec --proxy: no link to mpiexec on stdin and stdout\n");
        return 1;
    }
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) {
        dup2(devnull, 0);
        if (devnull != 0)
            close(devnull);
    }
    dup2(2, 1);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    int sigfd = mpx_signals_init();
    if (sigfd < 0) {
        fprintf(stderr, "mpiexec --proxy: cannot set up signal handling: %s\n", strerror(errno));
        return 1;
    }
    mpx_link_init(&px.up, in, out);
    if (gethostname(px.host, sizeof px.host) != 0)
        strcpy(px.host, "?");
    px.host[sizeof px.host - 1] = '\0';
    mpx_link_send(&px.up, MPX_F_HELLO, 0, px.host, strlen(px.host));

    run(sigfd);

    mpx_link_send(&px.up, MPX_F_DONE, 0, NULL, 0);
    drain_up();
    mpx_kill_leftovers(&px.job, sigfd);
    mpx_shm_cleanup(px.job.kvsname);
    return 0;
}
