/* dmpi's mpiexec: shared types and the interfaces between its parts.
 *
 *   options.c      command line and environment -> struct mpx_options
 *   hosts.c        --hosts, --hostfile, -ppn -> the nodes and their ranks
 *   spawn.c        forking the ranks, reaping them, killing the job
 *   link.c         framed, non-blocking channel between mpiexec and a proxy
 *   remote.c       mpiexec's side of the hosts: starting proxies, their frames
 *   proxy.c        the per-host proxy (mpiexec --proxy): forks the host's
 *                  ranks, relays their PMI, output and exits, obeys signals
 *   pmi_server.c   PMI-1 server: one key space per job, barrier, abort, finalize
 *   dynamic.c      MPI_Comm_spawn's jobs (PMI spawn), the name service
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

#include <poll.h>
#include <stddef.h>
#include <sys/types.h>

struct mpx_spawn_req;

#define MPX_KILL_GRACE 0.5       /* seconds between SIGTERM and SIGKILL */
#define MPX_CAUSE_WAIT 0.25      /* seconds an abort waits for a failure that explains it */
#define MPX_DRAIN_TIME 0.2       /* seconds to wait for output after the last rank exits */
#define MPX_PARTIAL_FLUSH 0.1    /* seconds an unterminated output line waits for its newline */
#define MPX_PROXY_VERSION "dmpi-proxy-2"   /* first string of a START frame */
#define MPX_LINK_TIMEOUT 30.0    /* default DMPI_MPIEXEC_LINK_TIMEOUT, seconds */
#define MPX_PMI_LINE_MAX 4096    /* longest PMI request line */
#define MPX_KVSNAME_MAX 256
#define MPX_KEYLEN_MAX 64
#define MPX_VALLEN_MAX 1024

/* ------------------------------------------------------------ options.c */

struct mpx_envvar {
    char *name;
    char *value;                 /* what the ranks get */
};

enum mpx_launcher { MPX_LAUNCH_SSH, MPX_LAUNCH_EXEC, MPX_LAUNCH_FORK };

struct mpx_options {
    int nprocs;
    int nprocs_given;            /* -n on the command line (else: the slots) */
    const char *hosts;           /* --hosts h1:2,h2 (NULL: this host only) */
    const char *hostfile;        /* --hostfile FILE */
    int ppn;                     /* -ppn N: ranks per host (0: by slots) */
    enum mpx_launcher launcher;
    const char *launcher_exec;   /* --launcher-exec PROGRAM */
    int tag_output;
    double timeout;              /* seconds; 0 = none */
    double link_timeout;         /* seconds of silence on a proxy link; 0 = no heartbeat */
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
    int fd;                      /* read end of the pipe; -1 once at EOF or if remote */
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
    int aborted;                 /* sent cmd=abort: its own exit says nothing more */
    int dead;                    /* closed: ignore what else arrives */
    struct mpx_spawn_req *mcmd;  /* a spawn request being read (mcmd=spawn ... endcmd) */
};

/* A framed channel: 12-byte header (length, type, rank; network order). */
struct mpx_link {
    int in_fd, out_fd;           /* -1 once closed (may be the same descriptor) */
    char *in;                    /* received bytes: [in_off, in_len) not yet taken */
    size_t in_off, in_len, in_cap;
    char *out;                   /* queued bytes: [out_off, out_len) not yet written */
    size_t out_off, out_len, out_cap;
    double last_sent;            /* when a frame was last queued */
    double last_heard;           /* when bytes last came in */
};

struct mpx_frame {
    int type;
    int rank;
    const char *data;            /* valid until the next mpx_link_read */
    size_t len;
};

enum mpx_frame_type {
    /* mpiexec -> proxy */
    MPX_F_START = 1,             /* the job: NUL-separated strings (remote.c) */
    MPX_F_PMI_REPLY,             /* PMI bytes for a rank */
    MPX_F_STDIN,                 /* bytes for rank 0; empty: end of input */
    MPX_F_SIGNAL,                /* rank field: the signal for every rank */
    /* proxy -> mpiexec */
    MPX_F_HELLO = 16,            /* the proxy runs */
    MPX_F_SPAWNED,               /* data: the rank's pid in decimal */
    MPX_F_FAIL,                  /* rank field: exit status; data: the message */
    MPX_F_PMI,                   /* PMI bytes from a rank */
    MPX_F_OUT,                   /* stdout bytes; empty: EOF */
    MPX_F_ERR,                   /* stderr bytes; empty: EOF */
    MPX_F_EXIT,                  /* data: the wait status in decimal */
    MPX_F_STDIN_ACK,             /* data: bytes written to rank 0, in decimal */
    MPX_F_STDIN_CLOSED,          /* rank 0 no longer reads stdin */
    MPX_F_DONE,                  /* all ranks reaped, all output sent */
    /* either way */
    MPX_F_BEAT = 32,             /* a sign of life on a link quiet for a while */
};

struct mpx_proxy {               /* mpiexec's view of one host's proxy */
    int node;                    /* index into job.nodes */
    pid_t pid;                   /* the launcher process (ssh, or the proxy) */
    struct mpx_link link;
    int hello;                   /* its HELLO came: it started */
    int reaped, wait_status;     /* the launcher process exited */
    int nrunning;                /* its ranks not yet reported exited */
};

enum mpx_rank_state { MPX_NOT_STARTED, MPX_RUNNING, MPX_EXITED };

struct mpx_node {                /* where ranks run */
    char *host;
    int first_rank, nranks;
};

/* A command of MPI_Comm_spawn(_multiple): what its ranks run. */
struct mpx_app {
    char **argv;                 /* the resolved program, then its arguments */
    char *wdir;                  /* info "wdir", or NULL */
};

/* One job of the run: 0 is mpiexec's own, each spawn makes another, with
 * its own key space, barrier and ranks numbered from 0 (its MPI_COMM_WORLD). */
struct mpx_gen {
    char kvsname[MPX_KVSNAME_MAX];
    int first, size;             /* its ranks in job.ranks */
    int barrier_count;
};

struct mpx_rank {
    int rank;                    /* in its own job (gen) */
    int gen;                     /* which job: 0 mpiexec's, then each spawn's */
    int appnum;                  /* MPI_APPNUM: its command's index in the spawn */
    const struct mpx_app *app;   /* what it runs (NULL: mpiexec's command line) */
    int node;                    /* index into job.nodes */
    int local_rank;              /* rank among those on its node */
    struct mpx_proxy *proxy;     /* runs on another host's proxy; NULL: our child */
    pid_t pid;
    enum mpx_rank_state state;
    int wait_status;             /* from waitpid once MPX_EXITED */
    struct mpx_stream out, err;
    struct mpx_pmi_conn pmi;
};

struct mpx_job {
    const struct mpx_options *opt;
    int n;                       /* ranks here (in a proxy: on its host) */
    int world_size;              /* ranks in the job */
    struct mpx_rank *ranks;
    struct mpx_node *nodes;
    int nnodes;
    pid_t pgid;                  /* the one process group of our ranks; 0 before spawning */
    struct mpx_proxy *proxies;   /* one per node when the job spans hosts */
    int nproxies;
    struct mpx_link *up;         /* in a proxy: the link to mpiexec */
    void (*rank_exited)(struct mpx_job *, struct mpx_rank *);   /* after reaping */
    char kvsname[MPX_KVSNAME_MAX];
    struct mpx_gen *gens;        /* the jobs: [0] is mpiexec's own */
    int ngens;
    int universe_size;           /* MPI_UNIVERSE_SIZE: the CPUs here, at least the ranks */
    struct mpx_spawn_req *spawns;   /* complete requests waiting to be started */
    int nrunning;                /* ranks started and not yet reaped */
    int barrier_count;

    double start_time;
    int have_status;             /* the first failure (or signal, timeout) fixed exit_status */
    int pending;                 /* an abort waits (mpx_job_fail_later) */
    int pending_status;
    double pending_deadline;
    char pending_msg[1024];
    int exit_status;
    int terminating;             /* SIGTERM (or a forwarded signal) went out */
    int hard_killed;             /* SIGKILL went out */
    double kill_deadline;        /* when SIGKILL follows */
    double giveup_deadline;      /* when we stop waiting for unkillable ranks */

    /* stdin forwarding to rank 0 */
    int stdin_to_rank0;          /* rank 0 gets a pipe (else /dev/null) */
    int stdin_src;               /* our stdin while forwarding; -1 when done */
    int stdin_dst;               /* write end of rank 0's stdin pipe; -1 when closed */
    struct mpx_proxy *stdin_proxy;   /* rank 0 is remote: its stdin goes there */
    size_t stdin_inflight;       /* sent to that proxy, not yet acknowledged */
    char stdin_buf[65536];
    size_t stdin_len, stdin_off;

    int out_broken[3];           /* our stdout/stderr went away (EPIPE): drop output */
};

/* ---------------------------------------------------------------- job.c */

void mpx_job_init(struct mpx_job *job, const struct mpx_options *opt);
/* (Re)makes the rank table for n ranks, none started. */
void mpx_job_set_size(struct mpx_job *job, int n);
void mpx_job_free(struct mpx_job *job);
/* Records exit_status and prints "mpiexec: <message>" if nothing failed
 * before, then starts terminating the job (SIGTERM, SIGKILL later). */
void mpx_job_fail(struct mpx_job *job, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same for an abort, which may be the consequence of a failure still
 * on its way (a rank that lost a peer whose death its host has yet to
 * report): it is reported MPX_CAUSE_WAIT seconds later, unless another
 * failure comes first and is reported instead. */
void mpx_job_fail_later(struct mpx_job *job, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sends sig to every rank and their process group and arms the SIGKILL
 * escalation; a second call escalates to SIGKILL at once. */
void mpx_job_terminate(struct mpx_job *job, int sig);
/* Timer work: SIGKILL escalation, the --timeout. Returns the earliest
 * pending deadline (absolute seconds) or a negative value if none. */
double mpx_job_timers(struct mpx_job *job, double now);
int mpx_job_exit_status(const struct mpx_job *job);

/* -------------------------------------------------------------- hosts.c */

/* Fills job->nodes and each rank's node: this host only, or the hosts of
 * --hosts/--hostfile. Returns 0, or an exit status after printing why. */
int mpx_nodes_init(struct mpx_job *job);
void mpx_nodes_free(struct mpx_job *job);

/* -------------------------------------------------------------- spawn.c */

/* Starts all ranks; returns 0, or -1 after mpx_job_fail (exec failure...). */
int mpx_spawn_all(struct mpx_job *job);
/* Starts ranks [first, first + n) of the table (a spawned job's). */
int mpx_spawn_range(struct mpx_job *job, int first, int n);
/* Grows the rank table by n ranks, not started; returns the first new index. */
int mpx_job_add_ranks(struct mpx_job *job, int n);
/* Reaps every child that has exited; calls job->rank_exited for ranks,
 * mpx_remote_reaped for the launchers of proxies. */
void mpx_reap(struct mpx_job *job);
/* A rank is gone (reaped here, or reported by its proxy): collect what it
 * said last, then judge its exit (mpx_job_fail). */
void mpx_rank_exited(struct mpx_job *job, struct mpx_rank *r);
/* Sends sig to the process group and to each live rank. */
void mpx_kill_job(struct mpx_job *job, int sig);
/* Final sweep: SIGKILL whatever is left in the process group and reap it,
 * waiting (on the signal pipe sigfd) at most a second. */
void mpx_kill_leftovers(struct mpx_job *job, int sigfd);

/* ------------------------------------------------------------ dynamic.c */

void mpx_dyn_init(struct mpx_job *job);
/* A line of an mcmd=spawn block from rank r (the first one too). */
void mpx_dyn_mcmd_line(struct mpx_job *job, struct mpx_rank *r, const char *line);
/* Starts the spawn requests that are complete (from the poll loop, where
 * the rank table may grow). */
void mpx_dyn_run_spawns(struct mpx_job *job);
/* publish_name, unpublish_name, lookup_name */
void mpx_dyn_name(struct mpx_job *job, struct mpx_rank *r, const char *cmd, const char *service, const char *port);
void mpx_dyn_free(struct mpx_job *job);

/* ---------------------------------------------------------- pmi_server.c */

void mpx_pmi_reply(struct mpx_rank *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mpx_kvs_put(int gen, const char *key, const char *val);

int mpx_pmi_server_init(struct mpx_job *job);
void mpx_pmi_server_free(void);
/* Reads and serves what the rank sent (non-blocking). */
void mpx_pmi_readable(struct mpx_job *job, struct mpx_rank *r);
/* Serves bytes a proxy relayed from a rank. */
void mpx_pmi_input(struct mpx_job *job, struct mpx_rank *r, const char *data, size_t len);
void mpx_pmi_close(struct mpx_rank *r);

/* ------------------------------------------------------------- output.c */

void mpx_stream_init(struct mpx_stream *s, int fd, int dest);
/* Reads what is available (non-blocking) and forwards complete lines. */
void mpx_stream_readable(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s);
/* Forwards bytes a proxy relayed (complete lines now, the rest later). */
void mpx_stream_input(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s,
                      const char *data, size_t len);
/* Forwards an unterminated line once it has waited long enough (or if force). */
void mpx_stream_flush(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s, double now, int force);
double mpx_stream_deadline(const struct mpx_job *job, const struct mpx_stream *s);   /* <0: none */
void mpx_stream_close(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s);
/* stdin forwarding */
void mpx_stdin_readable(struct mpx_job *job);
void mpx_stdin_writable(struct mpx_job *job);
void mpx_stdin_close(struct mpx_job *job);

/* --------------------------------------------------------------- link.c */

void mpx_link_init(struct mpx_link *l, int in_fd, int out_fd);
/* Queues a frame and writes what the descriptor takes now. */
void mpx_link_send(struct mpx_link *l, int type, int rank, const void *data, size_t len);
/* Writes queued bytes (non-blocking). 0, or -1 if the peer is gone. */
int mpx_link_flush(struct mpx_link *l);
/* Reads what is available: 1 (maybe frames to take), 0 at EOF, -1 on an error. */
int mpx_link_read(struct mpx_link *l);
/* Takes the next whole frame: 1, 0 if none yet, -1 if the stream is corrupt. */
int mpx_link_next(struct mpx_link *l, struct mpx_frame *f);
size_t mpx_link_queued(const struct mpx_link *l);
int mpx_link_open(const struct mpx_link *l);
void mpx_link_close(struct mpx_link *l);
/* Parses a decimal number in a frame; -1 if it is not one. */
long mpx_frame_long(const struct mpx_frame *f);
/* Heartbeat: seconds between beats for a link timeout (0: none). */
double mpx_beat_interval(double timeout);
/* Sends a beat if nothing went out for interval; returns when the next is
 * due (<0: none). */
double mpx_link_beat(struct mpx_link *l, double interval, double now);

/* ------------------------------------------------------------- remote.c */

/* Starts one proxy per node through the launcher and sends it its part of
 * the job. Returns 0, or -1 after mpx_job_fail. */
int mpx_remote_start(struct mpx_job *job);
/* The link of p is readable / writable. */
void mpx_remote_readable(struct mpx_job *job, struct mpx_proxy *p);
void mpx_remote_writable(struct mpx_job *job, struct mpx_proxy *p);
/* pid was reaped: if it is a proxy's launcher, note it; else ignore. */
void mpx_remote_reaped(struct mpx_job *job, pid_t pid, int status);
void mpx_remote_kill(struct mpx_job *job, int sig);
/* Heartbeat of the links: beats that are due. Returns when the next is due (<0: none). */
double mpx_remote_beats(struct mpx_job *job, double now);
/* The beats, and a proxy silent for the link timeout is lost. Returns the
 * earliest deadline (<0: none). */
double mpx_remote_timers(struct mpx_job *job, double now);
int mpx_remote_active(const struct mpx_job *job);   /* some proxy link still open */
/* End of the job: close the links, wait a moment for the launchers, kill the rest. */
void mpx_remote_finish(struct mpx_job *job, int sigfd);
void mpx_remote_send_pmi(struct mpx_rank *r, const char *line, size_t len);
void mpx_remote_send_stdin(struct mpx_job *job, const char *data, size_t len);
int mpx_remote_stdin_ready(const struct mpx_job *job);   /* rank 0 is remote and may take more */

/* -------------------------------------------------------------- proxy.c */

int mpx_proxy_main(int argc, char **argv);

/* ------------------------------------------------------------ signals.c */

int mpx_signals_init(void);           /* installs handlers; returns the read end of the self-pipe */
/* Returns the next pending signal number, or 0 if none. */
int mpx_signals_next(void);
/* In a child before exec: the dispositions and mask mpiexec started with. */
void mpx_signals_restore_for_child(void);
/* SIGALRM every secs seconds (0: none), interrupting a blocking call. */
void mpx_signals_interrupt_every(double secs);

/* -------------------------------------------------------- shm_cleanup.c */

void mpx_shm_cleanup(const char *kvsname);

/* --------------------------------------------------------------- util.c */

double mpx_now(void);                 /* monotonic seconds */
void *mpx_xmalloc(size_t n);
void *mpx_xrealloc(void *p, size_t n);
char *mpx_xstrdup(const char *s);
/* Writes all of buf to fd (retries EINTR, waits out EAGAIN), calling
 * waiting(arg) after each interruption or wait if it is not NULL. 0 or -1. */
int mpx_write_all(int fd, const char *buf, size_t len, void (*waiting)(void *), void *arg);
int mpx_set_nonblock(int fd);
/* Sends all of data on a socket, waiting up to a second each time it is
 * full. 0, or -1 if the peer is gone or does not read. */
int mpx_send_patiently(int fd, const char *data, size_t len);

/* The descriptors one poll() call watches, with what each one is. */
struct mpx_poll_set {
    struct pollfd *pfd;
    int *kind;
    int *index;
    int n, cap;
};
void mpx_poll_add(struct mpx_poll_set *ps, int fd, short events, int kind, int index);
void mpx_poll_free(struct mpx_poll_set *ps);
/* poll() timeout in ms until the absolute time next (<0: none). */
int mpx_poll_timeout(double next, double now);
/* Moves a deadline earlier: *next = t if t comes first (t < 0: none). */
void mpx_consider(double *next, double t);

#endif
