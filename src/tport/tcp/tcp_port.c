/* Ports (MPI_Open_port): a listening socket of its own on the interface
 * TCP uses, named "dmpi-port:<address>:<port>:<secret>". Whoever holds the
 * name may connect: the connector's first bytes must be the secret (the
 * comm layer's handshake checks it), so a stray connection to the port
 * cannot join a job. The handshake itself (comm/dynamic.c) runs over the
 * accepted socket and is closed after it. */
#include "tport/tcp/tcp.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define PORT_PREFIX "dmpi-port:"
#define SECRET_BYTES 16

typedef struct port {
    struct port *next;
    int fd;
    uint8_t secret[SECRET_BYTES];
    char name[MPI_MAX_PORT_NAME];
} port_t;
static port_t *ports;

static port_t *find(const char *name)
{
    for (port_t *p = ports; p; p = p->next)
        if (!strncmp(p->name, name, MPI_MAX_PORT_NAME))
            return p;
    return NULL;
}

int dmpi_tport_port_open(char *name, size_t len, char *err, size_t errlen)
{
    dmpi_proc_id_t me;
    if (dmpi_tport_my_id(&me) != 0) {
        snprintf(err, errlen, "cannot listen for connections from other jobs (see above)");
        return -1;
    }
    port_t *p = calloc(1, sizeof *p);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr = {.s_addr = me.addr}, .sin_port = 0};
    socklen_t sl = sizeof sa;
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (p->fd < 0 || bind(p->fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(p->fd, 64) != 0 ||
        getsockname(p->fd, (struct sockaddr *)&sa, &sl) != 0 ||
        getrandom(p->secret, sizeof p->secret, 0) != (ssize_t)sizeof p->secret) {
        snprintf(err, errlen, "cannot listen on a socket: %s", strerror(errno));
        if (p->fd >= 0)
            close(p->fd);
        free(p);
        return -1;
    }
    char a[INET_ADDRSTRLEN], hex[2 * SECRET_BYTES + 1];
    inet_ntop(AF_INET, &sa.sin_addr, a, sizeof a);
    for (int i = 0; i < SECRET_BYTES; i++)
        sprintf(hex + 2 * i, "%02x", p->secret[i]);
    snprintf(p->name, sizeof p->name, PORT_PREFIX "%s:%u:%s", a, ntohs(sa.sin_port), hex);
    snprintf(name, len, "%s", p->name);
    p->next = ports;
    ports = p;
    return 0;
}

int dmpi_tport_port_close(const char *name)
{
    for (port_t **pp = &ports; *pp; pp = &(*pp)->next)
        if (!strncmp((*pp)->name, name, MPI_MAX_PORT_NAME)) {
            port_t *p = *pp;
            *pp = p->next;
            close(p->fd);
            free(p);
            return 0;
        }
    return -1;
}

int dmpi_tport_port_secret(const char *name, uint8_t *secret)
{
    port_t *p = find(name);
    if (!p)
        return -1;
    memcpy(secret, p->secret, SECRET_BYTES);
    return 0;
}

int dmpi_tport_port_try_accept(const char *name, int *fd)
{
    port_t *p = find(name);
    if (!p)
        return -1;
    int c = accept4(p->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (c < 0)
        return 0;
    int one = 1;
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    *fd = c;
    return 1;
}

/* "dmpi-port:a.b.c.d:port:secret" -> address and secret; -1 if malformed. */
static int parse(const char *name, struct sockaddr_in *sa, uint8_t *secret)
{
    char a[INET_ADDRSTRLEN + 1], hex[2 * SECRET_BYTES + 2];
    unsigned port;
    int end = 0;
    if (strncmp(name, PORT_PREFIX, strlen(PORT_PREFIX)) ||
        sscanf(name + strlen(PORT_PREFIX), "%16[0-9.]:%u:%33[0-9a-f]%n", a, &port, hex, &end) != 3 ||
        name[strlen(PORT_PREFIX) + (size_t)end] || port == 0 || port > 65535 || strlen(hex) != 2 * SECRET_BYTES)
        return -1;
    *sa = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, a, &sa->sin_addr) != 1)
        return -1;
    for (int i = 0; i < SECRET_BYTES; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        secret[i] = (uint8_t)v;
    }
    return 0;
}

int dmpi_tport_port_dial(const char *name, int *fd, uint8_t *secret, char *err, size_t errlen)
{
    struct sockaddr_in sa;
    if (parse(name, &sa, secret) != 0) {
        snprintf(err, errlen, "'%.64s' is not a port name of MPI_Open_port", name);
        return -1;
    }
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof sa) != 0) {
        snprintf(err, errlen, "cannot connect to port '%.64s': %s", name, strerror(errno));
        if (s >= 0)
            close(s);
        return -1;
    }
    int one = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    *fd = s;
    return 0;
}

/* MPI_Finalize: ports the program left open. */
void tcp_port_close_all(void)
{
    while (ports) {
        port_t *p = ports;
        ports = p->next;
        close(p->fd);
        free(p);
    }
}
