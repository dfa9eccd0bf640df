/* dmpi's mpiexec: shared types and the interfaces between its parts.
 *
 *   options.c      command line and environment -> struct mpx_options
 *   spawn.c        node list, forking the ranks, reaping them, killing the job
 *   pmi_server.c   PMI-1 server: one key space per job, barrier, abort, finalize
 *   output.c       forwarding of the ranks' stdout/stderr and of our stdin to rank 0
 *   job.c          job policy: first failure wins, terminate and escalate, exit status
 *   signals.c      signal self-pipe (no work in signal handlers)
 *   shm_cleanup.c  removal of the job's /dev/shm entries at exit
 *   util.c         time, allocation, whole-buffer writes
 *   main.c         the poll() loop tying these together
 */
#ifndef DMPI_MPIEXEC_H
#define DMPI_MPIEXEC_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE              /* pipe2, getentropy, strsignal, prctl */
#endif

#include <stddef.h>
#include <sys/types.h>

#define MPX_KILL_GRACE 0.5       /* seconds between SIGTERM and SIGKILL */
#define MPX_DRAIN_TIME 0.2       /* seconds to wait for output after the last rank exits */
#define MPX_PARTIAL_FLUSH 0.1    /* seconds an unterminated output line waits for its newline */
#define MPX_PMI_LINE_MAX 4096    /* longest PMI request line */
#define MPX_KVSNAME_MAX 256
#define MPX_KEYLEN_MAX 64
#define MPX_VALLEN_MAX 1024

/* ------------------------------------------------------------ options.c */

struct mpx_envvar {
    char *name;
    char *value;                 /* what the ranks get */
};

struct mpx_options {
    int nprocs;
    int tag_output;
    double timeout;              /* seconds; 0 = none */
    struct mpx_envvar *env;      /* -x, -genv, -env in command-line order */
    int nenv;
    char **argv;                 /* program and its arguments (NULL-terminated) */
};

/* Returns -1 to go on and run the job, or an exit status to leave with
 * right away (0 after --help/--version, 2 after a usage error). Either
 * way mpx_options_free releases what it allocated. */
int mpx_parse_options(int argc, char **argv, struct mpx_options *opt);
void mpx_options_free(struct mpx_options *opt);

/* ------------------------------------------------------------- job state */

struct mpx_stream {              /* one rank's stdout or stderr */
    int fd;                      /* read end of the pipe; -1 once at EOF */
    int dest;                    /* 1 or 2 */
    char *buf;                   /* bytes not yet forwarded (an unterminated line) */
    size_t len, cap;
    int at_line_start;           /* the next byte forwarded starts a line */
    double pending_since;        /* when buf became non-empty */
};

struct mpx_pmi_conn {
    int fd;                      /* our end of the rank's socketpair; -1 once closed */
    char buf[MPX_PMI_LINE_MAX];
    size_t len;
    int inited, finalized, in_barrier;
};

enum mpx_rank_state { MPX_NOT_STARTED, MPX_RUNNING, MPX_EXITED };

struct mpx_node {                /* where ranks run; today only this host */
    const char *host;
    int first_rank, nranks;
};

struct mpx_rank {
    int rank;
    int node;                    /* index into job.nodes */
    int local_rank;              /* rank among those on its node */
    pid_t pid;
    enum mpx_rank_state state;
    int wait_status;             /* from waitpid once MPX_EXITED */
    struct mpx_stream out, err;
    struct mpx_pmi_conn pmi;
};

struct mpx_job {
    const struct mpx_options *opt;
    int n;
    struct mpx_rank *ranks;
    struct mpx_node *nodes;
    int nnodes;
    pid_t pgid;                  /* the one process group of all ranks; 0 before spawning */
    char kvsname[MPX_KVSNAME_MAX];
    int nrunning;                /* ranks started and not yet reaped */
    int barrier_count;

    double start_time;
    int have_status;             /* the first failure (or signal, timeout) fixed exit_status */
    int exit_status;
    int terminating;             /* SIGTERM (or a forwarded signal) went out */
    int hard_killed;             /* SIGKILL went out */
    double kill_deadline;        /* when SIGKILL follows */
    double giveup_deadline;      /* when we stop waiting for unkillable ranks */

    /* stdin forwarding to rank 0 */
    int stdin_src;               /* our stdin while forwarding; -1 when done */
    int stdin_dst;               /* write end of rank 0's stdin pipe; -1 when closed */
    char stdin_buf[65536];
    size_t stdin_len, stdin_off;

    int out_broken[3];           /* our stdout/stderr went away (EPIPE): drop output */
};

/* ---------------------------------------------------------------- job.c */

void mpx_job_init(struct mpx_job *job, const struct mpx_options *opt);
void mpx_job_free(struct mpx_job *job);
/* Records exit_status and prints "mpiexec: <message>" if nothing failed
 * before, then starts terminating the job (SIGTERM, SIGKILL later). */
void mpx_job_fail(struct mpx_job *job, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sends sig to every rank and their process group and arms the SIGKILL
 * escalation; a second call escalates to SIGKILL at once. */
void mpx_job_terminate(struct mpx_job *job, int sig);
/* Timer work: SIGKILL escalation, the --timeout. Returns the earliest
 * pending deadline (absolute seconds) or a negative value if none. */
double mpx_job_timers(struct mpx_job *job, double now);
int mpx_job_exit_status(const struct mpx_job *job);

/* -------------------------------------------------------------- spawn.c */

void mpx_nodes_init(struct mpx_job *job);
/* Starts all ranks; returns 0, or -1 after mpx_job_fail (exec failure...). */
int mpx_spawn_all(struct mpx_job *job);
/* Reaps every child that has exited; judges the ranks (mpx_job_fail). */
void mpx_reap(struct mpx_job *job);
/* Sends sig to the process group and to each live rank. */
void mpx_kill_job(struct mpx_job *job, int sig);
/* Final sweep: SIGKILL whatever is left in the process group and reap it,
 * waiting (on the signal pipe sigfd) at most a second. */
void mpx_kill_leftovers(struct mpx_job *job, int sigfd);

/* ---------------------------------------------------------- pmi_server.c */

int mpx_pmi_server_init(struct mpx_job *job);
void mpx_pmi_server_free(void);
/* Reads and serves what the rank sent (non-blocking). */
void mpx_pmi_readable(struct mpx_job *job, struct mpx_rank *r);
void mpx_pmi_close(struct mpx_rank *r);

/* ------------------------------------------------------------- output.c */

void mpx_stream_init(struct mpx_stream *s, int fd, int dest);
/* Reads what is available (non-blocking) and forwards complete lines. */
void mpx_stream_readable(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s);
/* Forwards an unterminated line once it has waited long enough (or if force). */
void mpx_stream_flush(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s, double now, int force);
double mpx_stream_deadline(const struct mpx_job *job, const struct mpx_stream *s);   /* <0: none */
void mpx_stream_close(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s);
/* stdin forwarding */
void mpx_stdin_readable(struct mpx_job *job);
void mpx_stdin_writable(struct mpx_job *job);
void mpx_stdin_close(struct mpx_job *job);

/* ------------------------------------------------------------ signals.c */

int mpx_signals_init(void);           /* installs handlers; returns the read end of the self-pipe */
/* Returns the next pending signal number, or 0 if none. */
int mpx_signals_next(void);
/* In a child before exec: the dispositions and mask mpiexec started with. */
void mpx_signals_restore_for_child(void);

/* -------------------------------------------------------- shm_cleanup.c */

void mpx_shm_cleanup(const char *kvsname);

/* --------------------------------------------------------------- util.c */

double mpx_now(void);                 /* monotonic seconds */
void *mpx_xmalloc(size_t n);
void *mpx_xrealloc(void *p, size_t n);
char *mpx_xstrdup(const char *s);
/* Writes all of buf to fd (retries EINTR, waits out EAGAIN). 0 or -1. */
int mpx_write_all(int fd, const char *buf, size_t len);
int mpx_set_nonblock(int fd);

#endif
