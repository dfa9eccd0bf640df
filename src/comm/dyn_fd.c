/* Whole reads and writes on the sockets that connect jobs (a port's
 * connection, MPI_Comm_join's descriptor). Waiting drives the progress
 * engine, so traffic of this process goes on meanwhile, and a wait that
 * lasts says what it waits for. */
#include "comm/comm.h"
#include "p2p/p2p.h"
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

typedef struct fd_wait {
    int fd;
    short events;
    const char *what;
} fd_wait_t;

static bool ready(void *arg)
{
    fd_wait_t *w = arg;
    struct pollfd p = {.fd = w->fd, .events = w->events};
    return poll(&p, 1, 0) > 0;
}

static void describe(void *arg, char *buf, size_t len)
{
    fd_wait_t *w = arg;
    snprintf(buf, len, "%s %s through socket %d", w->events == POLLIN ? "receiving" : "sending", w->what, w->fd);
}

int dmpi_fd_read(int fd, void *buf, size_t n, const char *what)
{
    size_t got = 0;
    fd_wait_t w = {fd, POLLIN, what};
    while (got < n) {
        ssize_t r = recv(fd, (char *)buf + got, n - got, MSG_DONTWAIT);
        if (r > 0) {
            got += (size_t)r;
            continue;
        }
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            dmpi_progress_until_described(ready, &w, describe);
            continue;
        }
        return dmpi_err(MPI_ERR_OTHER, "receiving %s: %s", what, r == 0 ? "the other side closed the connection"
                                                                          : strerror(errno));
    }
    return MPI_SUCCESS;
}

int dmpi_fd_write(int fd, const void *buf, size_t n, const char *what)
{
    size_t put = 0;
    fd_wait_t w = {fd, POLLOUT, what};
    while (put < n) {
        ssize_t r = send(fd, (const char *)buf + put, n - put, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (r > 0) {
            put += (size_t)r;
            continue;
        }
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            dmpi_progress_until_described(ready, &w, describe);
            continue;
        }
        return dmpi_err(MPI_ERR_OTHER, "sending %s: %s", what, strerror(errno));
    }
    return MPI_SUCCESS;
}
