/* Starting, reaping and killing the ranks.
 *
 * All ranks go into one new process group (led by rank 0), so that one
 * kill(-pgid) also reaches processes the ranks started. Each child asks for
 * SIGKILL when mpiexec dies (PR_SET_PDEATHSIG) and reports a failed exec
 * through a close-on-exec pipe: EOF there means the exec worked.
 *
 * In a job across hosts, mpiexec starts no rank itself: each host's proxy
 * (proxy.c) runs this code for the ranks of its host. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static struct rlimit orig_nofile;
static int have_orig_nofile;

/* Each rank costs mpiexec about four descriptors; lift the soft limit. */
static void raise_fd_limit(void)
{
    if (getrlimit(RLIMIT_NOFILE, &orig_nofile) != 0)
        return;
    have_orig_nofile = 1;
    if (orig_nofile.rlim_cur < orig_nofile.rlim_max) {
        struct rlimit rl = orig_nofile;
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

static void set_env_int(const char *name, int v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%d", v);
    setenv(name, buf, 1);
}

/* In the child: never returns. */
static void exec_rank(struct mpx_job *job, struct mpx_rank *r, pid_t parent,
                      int in_fd, int out_fd, int err_fd, int pmi_fd, int report_fd)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)                  /* mpiexec died before prctl took hold */
        _exit(1);
    setpgid(0, job->pgid);                    /* 0 for rank 0: leads the new group */
    mpx_signals_restore_for_child();
    if (have_orig_nofile)
        setrlimit(RLIMIT_NOFILE, &orig_nofile);

    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
        goto fail;
    int fl = fcntl(pmi_fd, F_GETFD);          /* the PMI socket survives exec */
    if (fl < 0 || fcntl(pmi_fd, F_SETFD, fl & ~FD_CLOEXEC) < 0)
        goto fail;

    const struct mpx_options *opt = job->opt;
    for (int i = 0; i < opt->nenv; i++)
        if (opt->env[i].value)
            setenv(opt->env[i].name, opt->env[i].value, 1);
    unsetenv("PMI_JOBID");                    /* an outer Slurm step's: we serve PMI-1 here */
    set_env_int("PMI_FD", pmi_fd);
    set_env_int("PMI_RANK", r->rank);
    if (r->gen == 0) {
        set_env_int("PMI_SIZE", job->world_size);
        set_env_int("DMPI_LOCAL_RANK", r->local_rank);
        set_env_int("DMPI_LOCAL_SIZE", job->nodes[r->node].nranks);
        unsetenv("PMI_SPAWNED");              /* (mpiexec itself may run in a spawned job) */
    } else {                                  /* a spawned job: its own world, on this host */
        set_env_int("PMI_SIZE", job->gens[r->gen].size);
        set_env_int("DMPI_LOCAL_RANK", r->rank);
        set_env_int("DMPI_LOCAL_SIZE", job->gens[r->gen].size);
        setenv("PMI_SPAWNED", "1", 1);
        if (r->app->wdir && chdir(r->app->wdir) != 0)
            goto fail;
    }

    char **argv = r->app ? r->app->argv : opt->argv;
    execvp(argv[0], argv);
fail:;
    int e = errno;
    ssize_t w = write(report_fd, &e, sizeof e);
    (void)w;
    _exit(127);
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Waits for the child's exec report: 0 if exec worked, else the errno. */
static int exec_result(int fd)
{
    int e = 0;
    size_t got = 0;
    while (got < sizeof e) {
        ssize_t n = read(fd, (char *)&e + got, sizeof e - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    return got == sizeof e ? (e ? e : EIO) : 0;
}

static int spawn_rank(struct mpx_job *job, struct mpx_rank *r, int devnull)
{
    int sv[2] = { -1, -1 }, outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
    int inp[2] = { -1, -1 }, rep[2] = { -1, -1 };
    const char *what = "socketpair";

    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        goto sys_fail;
    what = "pipe";
    if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0 || pipe2(rep, O_CLOEXEC) != 0)
        goto sys_fail;
    int want_stdin = r->rank == 0 && r->gen == 0 && job->stdin_to_rank0;
    if (want_stdin && pipe2(inp, O_CLOEXEC) != 0)
        goto sys_fail;

    what = "fork";
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        goto sys_fail;
    if (pid == 0)
        exec_rank(job, r, parent, want_stdin ? inp[0] : devnull, outp[1], errp[1], sv[1], rep[1]);

    if (job->pgid == 0)
        job->pgid = pid;
    if (setpgid(pid, job->pgid) != 0 && errno != EACCES && errno != ESRCH)
        fprintf(stderr, "mpiexec: warning: setpgid for rank %d: %s\n", r->rank, strerror(errno));
    r->pid = pid;
    r->state = MPX_RUNNING;
    job->nrunning++;

    close_fd(&sv[1]);
    close_fd(&outp[1]);
    close_fd(&errp[1]);
    close_fd(&inp[0]);
    close_fd(&rep[1]);
    r->pmi.fd = sv[0];
    mpx_set_nonblock(sv[0]);
    mpx_stream_init(&r->out, outp[0], 1);
    mpx_stream_init(&r->err, errp[0], 2);
    if (want_stdin) {
        job->stdin_dst = inp[1];
        mpx_set_nonblock(inp[1]);
    }

    int e = exec_result(rep[0]);
    close_fd(&rep[0]);
    if (e) {
        const char *prog = r->app ? r->app->argv[0] : job->opt->argv[0];
        if (e == ENOENT && !strchr(prog, '/'))
            mpx_job_fail(job, 127, "cannot execute '%s': command not found (not in PATH)", prog);
        else
            mpx_job_fail(job, e == ENOENT ? 127 : 126, "cannot execute '%s': %s", prog, strerror(e));
        return -1;
    }
    return 0;

sys_fail:;
    int err = errno;
    close_fd(&sv[0]);
    close_fd(&sv[1]);
    close_fd(&outp[0]);
    close_fd(&outp[1]);
    close_fd(&errp[0]);
    close_fd(&errp[1]);
    close_fd(&inp[0]);
    close_fd(&inp[1]);
    close_fd(&rep[0]);
    close_fd(&rep[1]);
    mpx_job_fail(job, 1, "cannot start rank %d: %s: %s", r->rank, what, strerror(err));
    return -1;
}

int mpx_spawn_all(struct mpx_job *job)
{
    raise_fd_limit();
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0) {
        mpx_job_fail(job, 1, "cannot open /dev/null: %s", strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < job->n && rc == 0; i++)
        rc = spawn_rank(job, &job->ranks[i], devnull);
    close(devnull);
    return rc;
}

int mpx_spawn_range(struct mpx_job *job, int first, int n)
{
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0) {
        mpx_job_fail(job, 1, "cannot open /dev/null: %s", strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = first; i < first + n && rc == 0; i++)
        rc = spawn_rank(job, &job->ranks[i], devnull);
    close(devnull);
    return rc;
}

void mpx_kill_job(struct mpx_job *job, int sig)
{
    if (job->pgid > 0)
        kill(-job->pgid, sig);
    for (int i = 0; i < job->n; i++)   /* ranks that left the group */
        if (job->ranks[i].state == MPX_RUNNING && !job->ranks[i].proxy && job->ranks[i].pid > 0)
            kill(job->ranks[i].pid, sig);
    mpx_remote_kill(job, sig);
}

/* "rank 3 (pid 1234)", with " on HOST" after the pid when it ran elsewhere. */
static const char *describe(const struct mpx_job *job, const struct mpx_rank *r, char *buf, size_t len)
{
    if (r->proxy)
        snprintf(buf, len, "rank %d (pid %ld on %s)", r->rank, (long)r->pid, job->nodes[r->node].host);
    else if (r->gen)
        snprintf(buf, len, "rank %d of spawned job %d (pid %ld)", r->rank, r->gen, (long)r->pid);
    else
        snprintf(buf, len, "rank %d (pid %ld)", r->rank, (long)r->pid);
    return buf;
}

static void judge(struct mpx_job *job, struct mpx_rank *r)
{
    int st = r->wait_status;
    char who[400];
    if (job->have_status || job->terminating || r->pmi.aborted)
        return;                               /* teardown: deaths are expected */
    describe(job, r, who, sizeof who);
    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        const char *name = strsignal(sig);
        mpx_job_fail(job, 128 + sig, "%s was killed by signal %d (%s)%s; terminating the job",
                     who, sig, name ? name : "?", WCOREDUMP(st) ? " (core dumped)" : "");
    } else if (WEXITSTATUS(st) != 0) {
        mpx_job_fail(job, WEXITSTATUS(st), "%s exited with status %d; terminating the job",
                     who, WEXITSTATUS(st));
    } else if (r->pmi.inited && !r->pmi.finalized) {
        mpx_job_fail(job, 1, "%s exited with status 0 without calling MPI_Finalize; "
                             "terminating the job", who);
    }
}

void mpx_rank_exited(struct mpx_job *job, struct mpx_rank *r)
{
    /* Take in what it said last (an abort, a finalize, its output) before
     * judging its death; a proxy sent all of that before the exit. */
    if (r->pmi.fd >= 0)
        mpx_pmi_readable(job, r);
    mpx_pmi_close(r);
    if (r->out.fd >= 0)
        mpx_stream_readable(job, r, &r->out);
    if (r->err.fd >= 0)
        mpx_stream_readable(job, r, &r->err);
    judge(job, r);
}

static struct mpx_rank *rank_of_pid(struct mpx_job *job, pid_t pid)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].pid == pid && job->ranks[i].state == MPX_RUNNING && !job->ranks[i].proxy)
            return &job->ranks[i];
    return NULL;
}

void mpx_reap(struct mpx_job *job)
{
    for (;;) {
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid <= 0)
            return;
        struct mpx_rank *r = rank_of_pid(job, pid);
        if (!r) {                              /* a proxy's launcher, or an adopted orphan */
            mpx_remote_reaped(job, pid, st);
            continue;
        }
        r->state = MPX_EXITED;
        r->wait_status = st;
        job->nrunning--;
        job->rank_exited(job, r);
    }
}

void mpx_kill_leftovers(struct mpx_job *job, int sigfd)
{
    if (job->pgid <= 0)
        return;
    kill(-job->pgid, SIGKILL);
    double deadline = mpx_now() + 1.0;
    for (;;) {
        int st;
        pid_t pid = waitpid(-job->pgid, &st, WNOHANG);
        if (pid > 0 || (pid < 0 && errno == EINTR))
            continue;
        if (pid < 0)                           /* ECHILD: none of ours left in the group */
            break;
        double left = deadline - mpx_now();
        if (left <= 0)
            break;
        struct pollfd p = { .fd = sigfd, .events = POLLIN };
        if (poll(&p, 1, (int)(left * 1000) + 1) > 0)
            while (mpx_signals_next() != 0)
                ;
    }
    while (waitpid(-1, NULL, WNOHANG) > 0)     /* adopted orphans that already died */
        ;
}
