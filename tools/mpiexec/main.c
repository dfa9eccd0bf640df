/* mpiexec: start the ranks, then one poll() loop serves PMI, forwards
 * output and stdin, reacts to signals (through a self-pipe) and runs the
 * timers (SIGKILL escalation, --timeout, partial output lines). No busy
 * waiting: poll sleeps until a descriptor, a signal or a deadline. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

enum fd_kind { FD_SIGNAL, FD_STDIN_SRC, FD_STDIN_DST, FD_PMI, FD_OUT, FD_ERR };

struct poll_set {
    struct pollfd *pfd;
    enum fd_kind *kind;
    int *rank;
    int n, cap;
};

static void ps_add(struct poll_set *ps, int fd, short events, enum fd_kind kind, int rank)
{
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 64;
        ps->pfd = mpx_xrealloc(ps->pfd, (size_t)ps->cap * sizeof *ps->pfd);
        ps->kind = mpx_xrealloc(ps->kind, (size_t)ps->cap * sizeof *ps->kind);
        ps->rank = mpx_xrealloc(ps->rank, (size_t)ps->cap * sizeof *ps->rank);
    }
    ps->pfd[ps->n] = (struct pollfd){ .fd = fd, .events = events };
    ps->kind[ps->n] = kind;
    ps->rank[ps->n] = rank;
    ps->n++;
}

/* With 0, 1 or 2 closed, our own pipes could land there: fill them first. */
static void ensure_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) < 0) {
            int nfd = open("/dev/null", O_RDWR);
            if (nfd >= 0 && nfd != fd) {
                dup2(nfd, fd);
                close(nfd);
            }
        }
    }
}

/* Forward our stdin to rank 0 unless it is a terminal we do not own. */
static void choose_stdin(struct mpx_job *job)
{
    if (isatty(0) && tcgetpgrp(0) != getpgrp())
        return;                                /* background job: rank 0 gets /dev/null */
    job->stdin_src = 0;
}

static void handle_signals(struct mpx_job *job)
{
    int sig;
    while ((sig = mpx_signals_next()) != 0) {
        switch (sig) {
        case SIGCHLD:
            mpx_reap(job);
            break;
        case SIGINT:
        case SIGTERM:
        case SIGHUP:
            if (job->nrunning == 0)
                break;
            mpx_job_terminate(job, sig);       /* forward it; a second one means SIGKILL */
            mpx_job_fail(job, 128 + sig, "received signal %d (%s); terminating the job", sig, strsignal(sig));
            break;
        case SIGUSR1:
        case SIGUSR2:
            mpx_kill_job(job, sig);            /* pass on, nothing more */
            break;
        default:
            break;
        }
    }
}

static void consider(double *next, double t)
{
    if (t >= 0 && (*next < 0 || t < *next))
        *next = t;
}

static int streams_open(const struct mpx_job *job)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].out.fd >= 0 || job->ranks[i].err.fd >= 0)
            return 1;
    return 0;
}

static void run(struct mpx_job *job, int sigfd)
{
    struct poll_set ps = { 0 };
    double drain_deadline = -1;

    mpx_reap(job);
    for (;;) {
        double now = mpx_now();
        double next = mpx_job_timers(job, now);
        for (int i = 0; i < job->n; i++) {
            struct mpx_rank *r = &job->ranks[i];
            mpx_stream_flush(job, r, &r->out, now, 0);
            mpx_stream_flush(job, r, &r->err, now, 0);
            consider(&next, mpx_stream_deadline(job, &r->out));
            consider(&next, mpx_stream_deadline(job, &r->err));
        }
        if (job->nrunning == 0) {
            /* Everyone is reaped; collect the last output, but do not wait
             * long for pipes that processes left behind still hold open. */
            if (drain_deadline < 0)
                drain_deadline = now + MPX_DRAIN_TIME;
            if (!streams_open(job) || now >= drain_deadline)
                break;
            consider(&next, drain_deadline);
        }
        if (job->ranks[0].state == MPX_EXITED && job->stdin_dst >= 0)
            mpx_stdin_close(job);

        ps.n = 0;
        ps_add(&ps, sigfd, POLLIN, FD_SIGNAL, -1);
        if (job->stdin_dst >= 0) {
            if (job->stdin_len > 0)
                ps_add(&ps, job->stdin_dst, POLLOUT, FD_STDIN_DST, 0);
            else {
                ps_add(&ps, job->stdin_dst, 0, FD_STDIN_DST, 0);   /* POLLERR: rank 0 closed stdin */
                if (job->stdin_src >= 0)
                    ps_add(&ps, job->stdin_src, POLLIN, FD_STDIN_SRC, 0);
            }
        }
        for (int i = 0; i < job->n; i++) {
            struct mpx_rank *r = &job->ranks[i];
            if (r->pmi.fd >= 0)
                ps_add(&ps, r->pmi.fd, POLLIN, FD_PMI, i);
            if (r->out.fd >= 0)
                ps_add(&ps, r->out.fd, POLLIN, FD_OUT, i);
            if (r->err.fd >= 0)
                ps_add(&ps, r->err.fd, POLLIN, FD_ERR, i);
        }

        int timeout = -1;
        if (next >= 0) {
            double ms = (next - now) * 1000.0 + 1.0;
            timeout = ms <= 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms;
        }
        int nready = poll(ps.pfd, (nfds_t)ps.n, timeout);
        if (nready < 0) {
            if (errno == EINTR)
                continue;
            mpx_job_fail(job, 1, "poll failed: %s", strerror(errno));
            break;
        }
        if (nready == 0)
            continue;

        if (ps.pfd[0].revents)
            handle_signals(job);
        for (int k = 1; k < ps.n; k++) {
            struct pollfd *p = &ps.pfd[k];
            if (!p->revents)
                continue;
            struct mpx_rank *r = ps.rank[k] >= 0 ? &job->ranks[ps.rank[k]] : NULL;
            switch (ps.kind[k]) {                 /* handlers above may have closed p->fd */
            case FD_STDIN_SRC:
                if (job->stdin_src == p->fd)
                    mpx_stdin_readable(job);
                break;
            case FD_STDIN_DST:
                if (job->stdin_dst != p->fd)
                    break;
                if (p->revents & POLLOUT)
                    mpx_stdin_writable(job);
                else if (p->revents & (POLLERR | POLLHUP | POLLNVAL))
                    mpx_stdin_close(job);
                break;
            case FD_PMI:
                if (r->pmi.fd == p->fd)
                    mpx_pmi_readable(job, r);
                break;
            case FD_OUT:
                if (r->out.fd == p->fd)
                    mpx_stream_readable(job, r, &r->out);
                break;
            case FD_ERR:
                if (r->err.fd == p->fd)
                    mpx_stream_readable(job, r, &r->err);
                break;
            case FD_SIGNAL:
                break;
            }
        }
    }
    free(ps.pfd);
    free(ps.kind);
    free(ps.rank);
}

int main(int argc, char **argv)
{
    struct mpx_options opt;
    int rc = mpx_parse_options(argc, argv, &opt);
    if (rc >= 0) {
        mpx_options_free(&opt);
        return rc;
    }

    ensure_std_fds();
    /* Orphans of the ranks come to us, so that we can reap them too. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    struct mpx_job job;
    mpx_job_init(&job, &opt);
    int sigfd = mpx_signals_init();
    if (sigfd < 0) {
        fprintf(stderr, "mpiexec: cannot set up signal handling: %s\n", strerror(errno));
        return 1;
    }
    mpx_nodes_init(&job);
    mpx_pmi_server_init(&job);
    choose_stdin(&job);

    mpx_spawn_all(&job);                       /* a failure there already terminates the job */
    run(&job, sigfd);

    mpx_kill_leftovers(&job, sigfd);
    for (int i = 0; i < job.n; i++) {
        struct mpx_rank *r = &job.ranks[i];
        if (r->out.fd >= 0)
            mpx_stream_close(&job, r, &r->out);
        if (r->err.fd >= 0)
            mpx_stream_close(&job, r, &r->err);
        mpx_pmi_close(r);
    }
    mpx_stdin_close(&job);
    mpx_shm_cleanup(job.kvsname);
    mpx_pmi_server_free();
    int status = mpx_job_exit_status(&job);
    mpx_job_free(&job);
    mpx_options_free(&opt);
    return status;
}
