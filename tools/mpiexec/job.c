/* Job policy: the first failure decides the exit status and is the only
 * one reported; any failure terminates the whole job, SIGTERM first and
 * SIGKILL MPX_KILL_GRACE seconds later. */
#include "mpiexec.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MPX_GIVEUP_TIME 3.0      /* after SIGKILL: stop waiting for ranks stuck in the kernel */

static void random_hex(char *out, size_t nhex)
{
    unsigned char bytes[16] = { 0 };
    size_t nbytes = (nhex + 1) / 2;
    if (nbytes > sizeof bytes)
        nbytes = sizeof bytes;
    if (getentropy(bytes, nbytes) != 0) {
        unsigned long x = (unsigned long)getpid() * 2654435761UL ^ (unsigned long)(mpx_now() * 1e9);
        for (size_t i = 0; i < nbytes; i++, x >>= 5)
            bytes[i] = (unsigned char)(x ^ (x >> 13));
    }
    for (size_t i = 0; i < nhex && i / 2 < nbytes; i++)
        out[i] = "0123456789abcdef"[(bytes[i / 2] >> (i % 2 ? 0 : 4)) & 0xf];
    out[nhex] = '\0';
}

void mpx_job_set_size(struct mpx_job *job, int n)
{
    free(job->ranks);
    job->n = job->world_size = n;
    job->ranks = mpx_xmalloc((size_t)n * sizeof *job->ranks);
    memset(job->ranks, 0, (size_t)n * sizeof *job->ranks);
    for (int i = 0; i < n; i++) {
        struct mpx_rank *r = &job->ranks[i];
        r->rank = i;
        r->state = MPX_NOT_STARTED;
        r->out.fd = r->err.fd = r->pmi.fd = -1;
    }
}

int mpx_job_add_ranks(struct mpx_job *job, int n)
{
    int first = job->n;
    job->ranks = mpx_xrealloc(job->ranks, (size_t)(first + n) * sizeof *job->ranks);
    memset(job->ranks + first, 0, (size_t)n * sizeof *job->ranks);
    for (int i = first; i < first + n; i++) {
        struct mpx_rank *r = &job->ranks[i];
        r->state = MPX_NOT_STARTED;
        r->out.fd = r->err.fd = r->pmi.fd = -1;
    }
    job->n += n;
    return first;
}

void mpx_job_init(struct mpx_job *job, const struct mpx_options *opt)
{
    char hex[9];
    memset(job, 0, sizeof *job);
    job->opt = opt;
    mpx_job_set_size(job, opt->nprocs);
    random_hex(hex, 8);
    snprintf(job->kvsname, sizeof job->kvsname, "dmpi-%ld-%s", (long)getpid(), hex);
    job->start_time = mpx_now();
    job->stdin_src = job->stdin_dst = -1;
    job->rank_exited = mpx_rank_exited;
}

void mpx_job_free(struct mpx_job *job)
{
    mpx_dyn_free(job);
    free(job->ranks);
    job->ranks = NULL;
    mpx_nodes_free(job);
    free(job->proxies);
    job->proxies = NULL;
}

void mpx_job_terminate(struct mpx_job *job, int sig)
{
    if (job->terminating) {              /* asked again: no more patience */
        if (!job->hard_killed) {
            mpx_kill_job(job, SIGKILL);
            job->hard_killed = 1;
            job->giveup_deadline = mpx_now() + MPX_GIVEUP_TIME;
        }
        return;
    }
    job->terminating = 1;
    mpx_kill_job(job, sig);
    job->kill_deadline = mpx_now() + MPX_KILL_GRACE;
}

void mpx_job_fail_later(struct mpx_job *job, int status, const char *fmt, ...)
{
    if (job->have_status || job->pending || job->terminating)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(job->pending_msg, sizeof job->pending_msg, fmt, ap);
    va_end(ap);
    job->pending = 1;
    job->pending_status = status;
    job->pending_deadline = mpx_now() + MPX_CAUSE_WAIT;
}

void mpx_job_fail(struct mpx_job *job, int status, const char *fmt, ...)
{
    job->pending = 0;                    /* this one explains a waiting abort */
    if (!job->have_status) {
        char msg[1024];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        job->have_status = 1;
        job->exit_status = status;
        if (job->up) {                   /* a proxy: mpiexec reports it */
            mpx_link_send(job->up, MPX_F_FAIL, status, msg, strlen(msg));
        } else {
            fflush(stdout);
            fprintf(stderr, "mpiexec: %s\n", msg);
            fflush(stderr);
        }
    }
    if (job->up) {                       /* ... and ends the job */
        job->terminating = 1;
        return;
    }
    if (!job->terminating && job->nrunning > 0)
        mpx_job_terminate(job, SIGTERM);
    else
        job->terminating = 1;
}

double mpx_job_timers(struct mpx_job *job, double now)
{
    double next = -1;

    if (job->pending) {
        if (now >= job->pending_deadline)
            mpx_job_fail(job, job->pending_status, "%s", job->pending_msg);
        else
            mpx_consider(&next, job->pending_deadline);
    }
    if (job->opt->timeout > 0 && !job->terminating && job->nrunning > 0) {
        double t = job->start_time + job->opt->timeout;
        if (now >= t)
            mpx_job_fail(job, 124, "job timed out after %g second%s; terminating the job",
                         job->opt->timeout, job->opt->timeout == 1 ? "" : "s");
        else
            mpx_consider(&next, t);
    }
    if (job->terminating && !job->hard_killed && job->nrunning > 0) {
        if (now >= job->kill_deadline) {
            mpx_kill_job(job, SIGKILL);
            job->hard_killed = 1;
            job->giveup_deadline = now + MPX_GIVEUP_TIME;
        } else {
            mpx_consider(&next, job->kill_deadline);
        }
    }
    if (job->hard_killed && job->nrunning > 0) {
        if (now >= job->giveup_deadline) {
            fprintf(stderr, "mpiexec: %d rank(s) did not die after SIGKILL; giving up on them\n", job->nrunning);
            for (int i = 0; i < job->n; i++)
                if (job->ranks[i].state == MPX_RUNNING)
                    job->ranks[i].state = MPX_EXITED;
            job->nrunning = 0;
        } else {
            mpx_consider(&next, job->giveup_deadline);
        }
    }
    return next;
}

int mpx_job_exit_status(const struct mpx_job *job)
{
    return job->have_status ? job->exit_status & 0xff : 0;
}
