/* Small helpers: monotonic time, allocation that cannot fail, whole writes. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

double mpx_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void out_of_memory(size_t n)
{
    fprintf(stderr, "mpiexec: out of memory (%zu bytes)\n", n);
    exit(1);
}

void *mpx_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *mpx_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

char *mpx_xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        out_of_memory(strlen(s) + 1);
    return d;
}

int mpx_write_all(int fd, const char *buf, size_t len, void (*waiting)(void *), void *arg)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct pollfd p = { .fd = fd, .events = POLLOUT };
                if (poll(&p, 1, 1000) < 0 && errno != EINTR)
                    return -1;
            } else if (errno != EINTR) {
                return -1;
            }
            if (waiting)
                waiting(arg);
            continue;
        }
        buf += n;
        len -= (size_t)n;
        if (len > 0 && waiting)            /* cut short by a signal */
            waiting(arg);
    }
    return 0;
}

int mpx_set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0)
        return -1;
    return fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

void mpx_poll_add(struct mpx_poll_set *ps, int fd, short events, int kind, int index)
{
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 64;
        ps->pfd = mpx_xrealloc(ps->pfd, (size_t)ps->cap * sizeof *ps->pfd);
        ps->kind = mpx_xrealloc(ps->kind, (size_t)ps->cap * sizeof *ps->kind);
        ps->index = mpx_xrealloc(ps->index, (size_t)ps->cap * sizeof *ps->index);
    }
    ps->pfd[ps->n] = (struct pollfd){ .fd = fd, .events = events };
    ps->kind[ps->n] = kind;
    ps->index[ps->n] = index;
    ps->n++;
}

void mpx_poll_free(struct mpx_poll_set *ps)
{
    free(ps->pfd);
    free(ps->kind);
    free(ps->index);
    memset(ps, 0, sizeof *ps);
}

int mpx_poll_timeout(double next, double now)
{
    if (next < 0)
        return -1;
    double ms = (next - now) * 1000.0 + 1.0;
    return ms <= 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms;
}

void mpx_consider(double *next, double t)
{
    if (t >= 0 && (*next < 0 || t < *next))
        *next = t;
}

int mpx_send_patiently(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t w = send(fd, data, len, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {   /* not reading: wait a little */
                struct pollfd pf = { .fd = fd, .events = POLLOUT };
                int pr = poll(&pf, 1, 1000);
                if (pr > 0 || (pr < 0 && errno == EINTR))
                    continue;
            }
            return -1;
        }
        data += w;
        len -= (size_t)w;
    }
    return 0;
}
