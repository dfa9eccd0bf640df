/* mpiexec: start the ranks, then one poll() loop serves PMI, forwards
 * output and stdin, reacts to signals (through a self-pipe) and runs the
 * timers (SIGKILL escalation, --timeout, partial output lines, the proxy
 * links' heartbeat). No busy
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

enum fd_kind { FD_SIGNAL, FD_STDIN_SRC, FD_STDIN_DST, FD_PMI, FD_OUT, FD_ERR, FD_PROXY };

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
    job->stdin_to_rank0 = 1;
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

static int streams_open(const struct mpx_job *job)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].out.fd >= 0 || job->ranks[i].err.fd >= 0)
            return 1;
    return 0;
}

static void run(struct mpx_job *job, int sigfd)
{
    struct mpx_poll_set ps = { 0 };
    double drain_deadline = -1;
    /* proxies wait MPX_DRAIN_TIME for their own pipes, then report */
    double drain_time = job->nproxies ? MPX_DRAIN_TIME + 1.0 : MPX_DRAIN_TIME;

    mpx_reap(job);
    for (;;) {
        mpx_dyn_run_spawns(job);               /* the rank table grows here only */
        double now = mpx_now();
        double next = mpx_remote_timers(job, now);   /* first: a host lost ends the job */
        mpx_consider(&next, mpx_job_timers(job, now));
        for (int i = 0; i < job->n; i++) {
            struct mpx_rank *r = &job->ranks[i];
            mpx_stream_flush(job, r, &r->out, now, 0);
            mpx_stream_flush(job, r, &r->err, now, 0);
            mpx_consider(&next, mpx_stream_deadline(job, &r->out));
            mpx_consider(&next, mpx_stream_deadline(job, &r->err));
        }
        if (job->nrunning == 0) {
            /* Everyone is reaped; collect the last output, but do not wait
             * long for pipes that processes left behind still hold open. */
            if (drain_deadline < 0)
                drain_deadline = now + drain_time;
            if (((!streams_open(job) && !mpx_remote_active(job)) || now >= drain_deadline) && !job->pending)
                break;
            mpx_consider(&next, drain_deadline);
        }
        if (job->ranks[0].state == MPX_EXITED && (job->stdin_dst >= 0 || job->stdin_proxy))
            mpx_stdin_close(job);

        ps.n = 0;
        mpx_poll_add(&ps, sigfd, POLLIN, FD_SIGNAL, -1);
        if (job->stdin_dst >= 0) {
            if (job->stdin_len > 0)
                mpx_poll_add(&ps, job->stdin_dst, POLLOUT, FD_STDIN_DST, 0);
            else {
                mpx_poll_add(&ps, job->stdin_dst, 0, FD_STDIN_DST, 0);   /* POLLERR: rank 0 closed stdin */
                if (job->stdin_src >= 0)
                    mpx_poll_add(&ps, job->stdin_src, POLLIN, FD_STDIN_SRC, 0);
            }
        } else if (job->stdin_src >= 0 && mpx_remote_stdin_ready(job)) {
            mpx_poll_add(&ps, job->stdin_src, POLLIN, FD_STDIN_SRC, 0);
        }
        for (int k = 0; k < job->nproxies; k++) {
            struct mpx_link *l = &job->proxies[k].link;
            if (mpx_link_open(l))
                mpx_poll_add(&ps, l->in_fd, (short)(POLLIN | (mpx_link_queued(l) ? POLLOUT : 0)), FD_PROXY, k);
        }
        for (int i = 0; i < job->n; i++) {
            struct mpx_rank *r = &job->ranks[i];
            if (r->pmi.fd >= 0)
                mpx_poll_add(&ps, r->pmi.fd, POLLIN, FD_PMI, i);
            if (r->out.fd >= 0)
                mpx_poll_add(&ps, r->out.fd, POLLIN, FD_OUT, i);
            if (r->err.fd >= 0)
                mpx_poll_add(&ps, r->err.fd, POLLIN, FD_ERR, i);
        }

        int nready = poll(ps.pfd, (nfds_t)ps.n, mpx_poll_timeout(next, now));
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
        /* A proxy that hung up goes first: when a host is lost, its peers'
         * complaints about the lost ranks are consequences, not the cause. */
        for (int k = 1; k < ps.n; k++) {
            struct pollfd *p = &ps.pfd[k];
            struct mpx_proxy *px = ps.kind[k] == FD_PROXY ? &job->proxies[ps.index[k]] : NULL;
            if (px && (p->revents & (POLLHUP | POLLERR)) && px->link.in_fd == p->fd) {
                mpx_remote_readable(job, px);
                p->revents = 0;
            }
        }
        for (int k = 1; k < ps.n; k++) {
            struct pollfd *p = &ps.pfd[k];
            if (!p->revents)
                continue;
            if (ps.kind[k] == FD_PROXY) {
                struct mpx_proxy *px = &job->proxies[ps.index[k]];
                if (px->link.in_fd == p->fd && (p->revents & POLLOUT))
                    mpx_remote_writable(job, px);
                if (px->link.in_fd == p->fd && (p->revents & ~POLLOUT))
                    mpx_remote_readable(job, px);
                continue;
            }
            struct mpx_rank *r = ps.index[k] >= 0 ? &job->ranks[ps.index[k]] : NULL;
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
            case FD_PROXY:
                break;
            }
        }
    }
    mpx_poll_free(&ps);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--proxy") == 0)
        return mpx_proxy_main(argc, argv);
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
    rc = mpx_nodes_init(&job);
    if (rc != 0) {
        mpx_job_free(&job);
        mpx_options_free(&opt);
        return rc;
    }
    mpx_dyn_init(&job);
    mpx_pmi_server_init(&job);
    choose_stdin(&job);

    /* a failure to start already terminates the job */
    if (job.opt->hosts || job.opt->hostfile)
        mpx_remote_start(&job);
    else
        mpx_spawn_all(&job);
    run(&job, sigfd);

    mpx_kill_leftovers(&job, sigfd);
    mpx_remote_finish(&job, sigfd);
    for (int i = 0; i < job.n; i++) {
        struct mpx_rank *r = &job.ranks[i];
        mpx_stream_close(&job, r, &r->out);    /* (a remote one may still hold a partial line) */
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
