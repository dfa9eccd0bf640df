/* Signals arrive through a self-pipe: the handler only writes the signal
 * number into it, the main loop polls the read end and does the work. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static int sigpipe_fds[2] = { -1, -1 };

/* Signals whose disposition we change, and what they were at start. */
static const int handled[] = { SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
static const int ignored[] = { SIGPIPE, SIGTTIN, SIGTTOU };
#define NHANDLED (sizeof handled / sizeof handled[0])
#define NIGNORED (sizeof ignored / sizeof ignored[0])
static struct sigaction orig_handled[NHANDLED], orig_ignored[NIGNORED];
static sigset_t orig_mask;

static void on_signal(int sig)
{
    int saved = errno;
    unsigned char c = (unsigned char)sig;
    ssize_t r = write(sigpipe_fds[1], &c, 1);   /* pipe full: a wakeup is pending anyway */
    (void)r;
    errno = saved;
}

int mpx_signals_init(void)
{
    if (pipe2(sigpipe_fds, O_CLOEXEC | O_NONBLOCK) != 0)
        return -1;
    sigprocmask(SIG_SETMASK, NULL, &orig_mask);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (size_t i = 0; i < NHANDLED; i++) {
        sigaction(handled[i], NULL, &orig_handled[i]);
        /* Started under nohup: the job stays immune to hangups. (SIGINT
         * and SIGTERM we always forward, even when a shell started us in
         * the background with SIGINT ignored: kill -INT must work.) */
        if (handled[i] == SIGHUP && orig_handled[i].sa_handler == SIG_IGN)
            continue;
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESTART | (handled[i] == SIGCHLD ? SA_NOCLDSTOP : 0);
        sigaction(handled[i], &sa, NULL);
    }
    sa.sa_handler = SIG_IGN;
    sa.sa_flags = 0;
    for (size_t i = 0; i < NIGNORED; i++) {
        sigaction(ignored[i], NULL, &orig_ignored[i]);
        sigaction(ignored[i], &sa, NULL);
    }

    sigset_t unblock;
    sigemptyset(&unblock);
    for (size_t i = 0; i < NHANDLED; i++)
        sigaddset(&unblock, handled[i]);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    return sigpipe_fds[0];
}

static void on_alarm(int sig)
{
    (void)sig;                         /* its work is to interrupt */
}

void mpx_signals_interrupt_every(double secs)
{
    static int installed;
    if (!installed && secs > 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sigemptyset(&sa.sa_mask);
        sa.sa_handler = on_alarm;      /* no SA_RESTART: a blocked call returns */
        sigaction(SIGALRM, &sa, NULL);
        installed = 1;
    }
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_value.tv_sec = (time_t)secs;
    it.it_value.tv_usec = (suseconds_t)((secs - (double)(time_t)secs) * 1e6);
    it.it_interval = it.it_value;
    setitimer(ITIMER_REAL, &it, NULL);
}

int mpx_signals_next(void)
{
    unsigned char c;
    for (;;) {
        ssize_t n = read(sigpipe_fds[0], &c, 1);
        if (n == 1)
            return c;
        if (n < 0 && errno == EINTR)
            continue;
        return 0;
    }
}

void mpx_signals_restore_for_child(void)
{
    /* The ranks get the default action for what we forward to them, and
     * keep SIGHUP ignored if we were started that way (nohup). */
    for (size_t i = 0; i < NHANDLED; i++) {
        struct sigaction sa = orig_handled[i];
        if (handled[i] != SIGHUP || sa.sa_handler != SIG_IGN)
            sa.sa_handler = SIG_DFL;
        sigaction(handled[i], &sa, NULL);
    }
    for (size_t i = 0; i < NIGNORED; i++)
        sigaction(ignored[i], &orig_ignored[i], NULL);
    sigprocmask(SIG_SETMASK, &orig_mask, NULL);
}
