/* mpiexec's side of a job across hosts. For each host it starts a proxy
 * (this same program, "mpiexec --proxy") through the launcher: ssh HOST,
 * PROGRAM HOST (--launcher-exec), or a plain fork. The launcher's standard
 * input and output are a socketpair whose other end is the proxy's link
 * (link.c). The proxy gets its part of the job in one START frame and then
 * relays its ranks' PMI requests, output and exits; mpiexec serves the PMI
 * key space, prints, judges and decides exactly as for ranks of its own.
 *
 * A proxy that goes away while its ranks run (its link closes), or that
 * is not heard from within the link timeout (its host cut off: ssh notices
 * nothing), ends the job with a line naming the host. */
#include "mpiexec.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define STDIN_WINDOW (256 * 1024)        /* stdin bytes in flight to a remote rank 0 */
#define FINISH_WAIT 1.0                  /* seconds the launchers get to exit at the end */

extern char **environ;

/* ------------------------------------------------------------ start-up */

/* Variables that describe this host or this login, not the job. */
static int host_specific(const char *var)
{
    static const char *const names[] = {
        "HOSTNAME", "HOST", "PWD", "OLDPWD", "SHLVL", "_", "DISPLAY", "XAUTHORITY", "TERMCAP",
        "PMI_FD", "PMI_RANK", "PMI_SIZE", "PMI_PORT", "PMI_ID", "PMI_JOBID", "DMPI_LOCAL_RANK", "DMPI_LOCAL_SIZE",
    };
    size_t len = strcspn(var, "=");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == len && strncmp(var, names[i], len) == 0)
            return 1;
    return strncmp(var, "SSH_", 4) == 0 || strncmp(var, "SLURM_", 6) == 0;
}

struct strbuf {
    char *p;
    size_t len, cap;
};

static void sb_add(struct strbuf *b, const char *s, size_t len)
{
    if (b->len + len + 1 > b->cap) {
        b->cap = (b->len + len + 1) * 2;
        b->p = mpx_xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, s, len);
    b->p[b->len + len] = '\0';
    b->len += len + 1;
}

static void sb_str(struct strbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

static void sb_int(struct strbuf *b, long v)
{
    char num[32];
    snprintf(num, sizeof num, "%ld", v);
    sb_str(b, num);
}

/* The START frame: version, kvsname, world size, first rank, ranks, host,
 * stdin to rank 0, working directory, link timeout, the environment, the
 * command. */
static void send_start(struct mpx_job *job, struct mpx_proxy *p)
{
    const struct mpx_node *nd = &job->nodes[p->node];
    const struct mpx_options *opt = job->opt;
    struct strbuf b = { 0 };
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        strcpy(cwd, "/");
    sb_str(&b, MPX_PROXY_VERSION);
    sb_str(&b, job->kvsname);
    sb_int(&b, job->world_size);
    sb_int(&b, nd->first_rank);
    sb_int(&b, nd->nranks);
    sb_str(&b, nd->host);
    sb_int(&b, job->stdin_to_rank0 && nd->first_rank == 0);
    sb_str(&b, cwd);
    char num[32];
    snprintf(num, sizeof num, "%.9g", opt->link_timeout);
    sb_str(&b, num);

    long nenv = 0;
    for (char **e = environ; *e; e++)
        nenv += !host_specific(*e) && strchr(*e, '=');
    for (int i = 0; i < opt->nenv; i++)
        nenv += opt->env[i].value != NULL;
    sb_int(&b, nenv);
    for (char **e = environ; *e; e++)
        if (!host_specific(*e) && strchr(*e, '='))
            sb_str(&b, *e);
    for (int i = 0; i < opt->nenv; i++) {        /* -x and -genv: after, so they win */
        if (!opt->env[i].value)
            continue;
        size_t nl = strlen(opt->env[i].name), vl = strlen(opt->env[i].value);
        char *kv = mpx_xmalloc(nl + vl + 2);
        memcpy(kv, opt->env[i].name, nl);
        kv[nl] = '=';
        memcpy(kv + nl + 1, opt->env[i].value, vl + 1);
        sb_str(&b, kv);
        free(kv);
    }
    long argc = 0;
    while (opt->argv[argc])
        argc++;
    sb_int(&b, argc);
    for (long i = 0; i < argc; i++)
        sb_str(&b, opt->argv[i]);
    mpx_link_send(&p->link, MPX_F_START, 0, b.p, b.len);
    free(b.p);
}

static int is_this_host(const char *host)
{
    char me[256];
    if (strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0)
        return 1;
    if (gethostname(me, sizeof me) != 0)
        return 0;
    me[sizeof me - 1] = '\0';
    size_t short_len = strcspn(me, ".");
    return strcmp(host, me) == 0 || (strlen(host) == short_len && strncmp(host, me, short_len) == 0);
}

/* ssh runs the command through the remote shell: quote a word for it. */
static char *shell_quote(const char *w)
{
    size_t n = 3;
    for (const char *c = w; *c; c++)
        n += *c == '\'' ? 4 : 1;
    char *q = mpx_xmalloc(n), *o = q;
    *o++ = '\'';
    for (const char *c = w; *c; c++) {
        if (*c == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *c;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return q;
}

/* Whether the proxy for host is forked here rather than started through a launcher. */
static int forks_proxy(const struct mpx_options *opt, const char *host)
{
    return opt->launcher == MPX_LAUNCH_FORK ||
           (opt->launcher == MPX_LAUNCH_SSH && !opt->launcher_exec && is_this_host(host));
}

/* In the child: becomes the launcher (or the proxy itself); never returns. */
static void exec_launcher(struct mpx_job *job, const char *host, const char *self, int fd, pid_t parent)
{
    const struct mpx_options *opt = job->opt;
    /* SIGTERM, not SIGKILL: a proxy forked here still cleans its host up */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(1);
    setpgid(0, 0);                     /* the terminal's ^C goes to mpiexec, which decides */
    mpx_signals_restore_for_child();
    if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0)
        _exit(127);
    const char *argv[16];
    int n = 0;
    char *quoted = NULL;
    if (forks_proxy(opt, host)) {
        argv[n++] = self;
    } else {
        /* The remote shell runs the words joined; "exec" makes the proxy
         * take the shell's place, so its death closes the link at once. */
        quoted = shell_quote(self);
        if (opt->launcher_exec) {
            argv[n++] = opt->launcher_exec;
        } else {
            argv[n++] = "ssh";
            argv[n++] = "-x";
            argv[n++] = "-o";
            argv[n++] = "BatchMode=yes";
        }
        argv[n++] = host;
        argv[n++] = "exec";
        argv[n++] = quoted;
    }
    argv[n++] = "--proxy";
    argv[n] = NULL;
    execvp(argv[0], (char **)argv);
    fprintf(stderr, "mpiexec: cannot run '%s' to start the proxy on %s: %s\n", argv[0], host, strerror(errno));
    _exit(127);
}

static int start_proxy(struct mpx_job *job, struct mpx_proxy *p, const char *self)
{
    const char *host = job->nodes[p->node].host;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        mpx_job_fail(job, 1, "cannot start the proxy on %s: socketpair: %s", host, strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        mpx_job_fail(job, 1, "cannot start the proxy on %s: fork: %s", host, strerror(errno));
        return -1;
    }
    if (pid == 0)
        exec_launcher(job, host, self, sv[1], parent);
    close(sv[1]);
    p->pid = pid;
    mpx_link_init(&p->link, sv[0], sv[0]);
    send_start(job, p);
    return 0;
}

int mpx_remote_start(struct mpx_job *job)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        mpx_job_fail(job, 1, "cannot find mpiexec's own path to start the proxies: %s", strerror(errno));
        return -1;
    }
    self[len] = '\0';
    job->nproxies = job->nnodes;
    job->proxies = mpx_xmalloc((size_t)job->nnodes * sizeof *job->proxies);
    memset(job->proxies, 0, (size_t)job->nnodes * sizeof *job->proxies);
    for (int k = 0; k < job->nnodes; k++) {
        struct mpx_proxy *p = &job->proxies[k];
        const struct mpx_node *nd = &job->nodes[k];
        p->node = k;
        p->link.in_fd = p->link.out_fd = -1;
        for (int i = 0; i < nd->nranks; i++) {
            struct mpx_rank *r = &job->ranks[nd->first_rank + i];
            r->proxy = p;
            r->state = MPX_RUNNING;
            mpx_stream_init(&r->out, -1, 1);
            mpx_stream_init(&r->err, -1, 2);
        }
        p->nrunning = nd->nranks;
        job->nrunning += nd->nranks;
    }
    if (job->stdin_to_rank0 && job->n > 0)
        job->stdin_proxy = job->ranks[0].proxy;
    for (int k = 0; k < job->nnodes; k++)
        if (start_proxy(job, &job->proxies[k], self) != 0)
            return -1;
    return 0;
}

/* -------------------------------------------------------------- losses */

/* who: the process that exited, "its proxy" or the launcher's name. */
static void describe_status(char *buf, size_t len, const char *who, int st)
{
    if (WIFSIGNALED(st))
        snprintf(buf, len, "%s was killed by signal %d (%s)", who, WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(buf, len, "%s exited with status %d", who, WEXITSTATUS(st));
}

/* The process whose exit is reported: ssh itself with ssh (a proxy gone on
 * its host makes it exit with 255); with a launcher program, the proxy it
 * became once it said HELLO, the program before (it could not start one). */
static const char *lost_process(const struct mpx_job *job, const struct mpx_proxy *p)
{
    const struct mpx_options *opt = job->opt;
    if (forks_proxy(opt, job->nodes[p->node].host))
        return "its proxy";
    if (!opt->launcher_exec)
        return "ssh";
    return p->hello ? "its proxy" : opt->launcher_exec;
}

/* The link is gone: the host's ranks are lost unless the proxy said DONE. */
static void proxy_lost(struct mpx_job *job, struct mpx_proxy *p, const char *why)
{
    const char *host = job->nodes[p->node].host;
    mpx_link_close(&p->link);
    if (job->stdin_proxy == p)
        mpx_stdin_close(job);
    if (p->nrunning == 0)
        return;
    char status[128];
    if (!why) {                        /* the launcher usually exits with the link: say how */
        for (int i = 0; i < 20 && !p->reaped; i++) {
            int st;
            if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
                p->reaped = 1;
                p->wait_status = st;
            } else {
                usleep(5000);
            }
        }
        if (p->reaped)
            describe_status(status, sizeof status, lost_process(job, p), p->wait_status);
        else
            snprintf(status, sizeof status, "the connection to its proxy closed");
        why = status;
    }
    if (!p->hello)
        mpx_job_fail(job, 1, "cannot start the proxy on host %s: %s; terminating the job", host, why);
    else
        mpx_job_fail(job, 1, "lost host %s (%d rank%s): %s; terminating the job", host, p->nrunning,
                     p->nrunning == 1 ? "" : "s", why);
    const struct mpx_node *nd = &job->nodes[p->node];
    for (int i = 0; i < nd->nranks; i++) {
        struct mpx_rank *r = &job->ranks[nd->first_rank + i];
        if (r->state != MPX_RUNNING)
            continue;
        r->state = MPX_EXITED;
        r->wait_status = SIGKILL;
        mpx_pmi_close(r);
        mpx_stream_close(job, r, &r->out);
        mpx_stream_close(job, r, &r->err);
    }
    job->nrunning -= p->nrunning;
    p->nrunning = 0;
}

void mpx_remote_reaped(struct mpx_job *job, pid_t pid, int status)
{
    for (int k = 0; k < job->nproxies; k++) {
        struct mpx_proxy *p = &job->proxies[k];
        if (p->pid == pid && !p->reaped) {
            p->reaped = 1;
            p->wait_status = status;
            return;                    /* its link tells the rest */
        }
    }
}

/* -------------------------------------------------------------- frames */

static struct mpx_rank *frame_rank(struct mpx_job *job, struct mpx_proxy *p, const struct mpx_frame *f)
{
    const struct mpx_node *nd = &job->nodes[p->node];
    if (f->rank < nd->first_rank || f->rank >= nd->first_rank + nd->nranks)
        return NULL;
    return &job->ranks[f->rank];
}

/* Returns 0, or -1 if the frame makes no sense. */
static int handle_frame(struct mpx_job *job, struct mpx_proxy *p, const struct mpx_frame *f)
{
    struct mpx_rank *r = NULL;
    long v;
    switch (f->type) {
    case MPX_F_HELLO:
        p->hello = 1;
        return 0;
    case MPX_F_FAIL:
        mpx_job_fail(job, f->rank, "%.*s (on %s)", (int)(f->len < 900 ? f->len : 900), f->data,
                     job->nodes[p->node].host);
        return 0;
    case MPX_F_DONE:                   /* its link closes next; its ranks are all reported */
    case MPX_F_BEAT:                   /* heard: mpx_link_read noted it */
        return 0;
    case MPX_F_STDIN_ACK:
        if ((v = mpx_frame_long(f)) < 0)
            return -1;
        job->stdin_inflight -= (size_t)v <= job->stdin_inflight ? (size_t)v : job->stdin_inflight;
        return 0;
    case MPX_F_STDIN_CLOSED:
        if (job->stdin_proxy == p)
            mpx_stdin_close(job);
        return 0;
    default:
        break;
    }
    if (!(r = frame_rank(job, p, f)))
        return -1;
    switch (f->type) {
    case MPX_F_SPAWNED:
        if ((v = mpx_frame_long(f)) < 0)
            return -1;
        r->pid = (pid_t)v;
        return 0;
    case MPX_F_PMI:
        if (f->len == 0)
            mpx_pmi_close(r);
        else
            mpx_pmi_input(job, r, f->data, f->len);
        return 0;
    case MPX_F_OUT:
    case MPX_F_ERR: {
        struct mpx_stream *s = f->type == MPX_F_OUT ? &r->out : &r->err;
        if (f->len == 0)
            mpx_stream_close(job, r, s);
        else
            mpx_stream_input(job, r, s, f->data, f->len);
        return 0;
    }
    case MPX_F_EXIT:
        if ((v = mpx_frame_long(f)) < 0 || v > INT_MAX || r->state != MPX_RUNNING)
            return -1;
        r->state = MPX_EXITED;
        r->wait_status = (int)v;
        job->nrunning--;
        p->nrunning--;
        job->rank_exited(job, r);
        return 0;
    default:
        return -1;
    }
}

void mpx_remote_readable(struct mpx_job *job, struct mpx_proxy *p)
{
    int rc = mpx_link_read(&p->link);
    struct mpx_frame f;
    int got;
    while ((got = mpx_link_next(&p->link, &f)) == 1) {
        if (handle_frame(job, p, &f) != 0) {
            proxy_lost(job, p, "its proxy sent a malformed message");
            return;
        }
    }
    if (got < 0)
        proxy_lost(job, p, "its proxy sent a malformed message");
    else if (rc == 0 || (rc < 0 && errno == ECONNRESET))
        proxy_lost(job, p, NULL);      /* a reset only says frames were left unread: its exit says why */
    else if (rc < 0)
        proxy_lost(job, p, strerror(errno));
}

void mpx_remote_writable(struct mpx_job *job, struct mpx_proxy *p)
{
    if (mpx_link_flush(&p->link) != 0)
        proxy_lost(job, p, NULL);
}

void mpx_remote_send_pmi(struct mpx_rank *r, const char *line, size_t len)
{
    mpx_link_send(&r->proxy->link, MPX_F_PMI_REPLY, r->rank, line, len);
}

void mpx_remote_send_stdin(struct mpx_job *job, const char *data, size_t len)
{
    struct mpx_proxy *p = job->stdin_proxy;
    if (!p)
        return;
    mpx_link_send(&p->link, MPX_F_STDIN, 0, data, len);
    job->stdin_inflight += len;
}

int mpx_remote_stdin_ready(const struct mpx_job *job)
{
    return job->stdin_proxy && job->stdin_inflight < STDIN_WINDOW;
}

void mpx_remote_kill(struct mpx_job *job, int sig)
{
    for (int k = 0; k < job->nproxies; k++) {
        struct mpx_proxy *p = &job->proxies[k];
        if (mpx_link_open(&p->link) && p->nrunning > 0)
            mpx_link_send(&p->link, MPX_F_SIGNAL, sig, NULL, 0);
    }
}

double mpx_remote_beats(struct mpx_job *job, double now)
{
    double next = -1, interval = mpx_beat_interval(job->opt->link_timeout);
    for (int k = 0; k < job->nproxies; k++)
        mpx_consider(&next, mpx_link_beat(&job->proxies[k].link, interval, now));
    return next;
}

/* Silent for the timeout: read what may wait first (we may have been the
 * slow side, e.g. blocked on our stdout), then give up on it. */
static double check_heard(struct mpx_job *job, struct mpx_proxy *p, double now)
{
    double timeout = job->opt->link_timeout;
    if (!mpx_link_open(&p->link) || timeout <= 0)
        return -1;
    if (now - p->link.last_heard >= timeout)
        mpx_remote_readable(job, p);
    if (!mpx_link_open(&p->link))
        return -1;
    if (now - p->link.last_heard < timeout)
        return p->link.last_heard + timeout;
    char why[128];
    snprintf(why, sizeof why, "no word from its proxy within %g s (DMPI_MPIEXEC_LINK_TIMEOUT)", timeout);
    proxy_lost(job, p, why);
    return -1;
}

double mpx_remote_timers(struct mpx_job *job, double now)
{
    double next = mpx_remote_beats(job, now);
    for (int k = 0; k < job->nproxies; k++)
        mpx_consider(&next, check_heard(job, &job->proxies[k], now));
    return next;
}

int mpx_remote_active(const struct mpx_job *job)
{
    for (int k = 0; k < job->nproxies; k++)
        if (mpx_link_open(&job->proxies[k].link))
            return 1;
    return 0;
}

void mpx_remote_finish(struct mpx_job *job, int sigfd)
{
    for (int k = 0; k < job->nproxies; k++)
        mpx_link_close(&job->proxies[k].link);    /* a proxy still there cleans up and leaves */
    double deadline = mpx_now() + FINISH_WAIT;
    for (;;) {
        int left = 0;
        for (int k = 0; k < job->nproxies; k++) {
            struct mpx_proxy *p = &job->proxies[k];
            int st;
            if (!p->reaped && p->pid > 0 && waitpid(p->pid, &st, WNOHANG) == p->pid)
                p->reaped = 1;
            left += !p->reaped && p->pid > 0;
        }
        double now = mpx_now();
        if (!left || now >= deadline)
            break;
        struct pollfd pf = { .fd = sigfd, .events = POLLIN };
        if (poll(&pf, 1, mpx_poll_timeout(now + 0.02 < deadline ? now + 0.02 : deadline, now)) > 0)
            while (mpx_signals_next() != 0)
                ;
    }
    for (int k = 0; k < job->nproxies; k++) {
        struct mpx_proxy *p = &job->proxies[k];
        if (!p->reaped && p->pid > 0) {
            kill(-p->pid, SIGKILL);
            kill(p->pid, SIGKILL);
            waitpid(p->pid, NULL, 0);
            p->reaped = 1;
        }
    }
}
