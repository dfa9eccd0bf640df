/* Connections between jobs: MPI_Comm_accept/connect through a port,
 * MPI_Comm_join through a socket the program made, MPI_Comm_disconnect,
 * and the parents of a spawned job. The two leaders talk over a socket
 * (a port's connection, or the join's descriptor) only to swap their
 * groups' ids and free context ids (dmpi_intercomm_over_fd); the
 * intercommunicator's traffic then goes through the transports, TCP for
 * processes of other jobs (docs/dynamic-processes.md). */
#include "comm/comm.h"
#include "coll/table.h"
#include "p2p/p2p.h"
#include "pmi/pmi.h"
#include "tport/tport.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HELLO_MAGIC 0x54524f50494d5044ull   /* "DMPIPORT": a connector's first word, then the secret */
#define SECRET_BYTES 16

dmpi_comm_t *dmpi_comm_parent;

typedef struct port_hello {
    uint64_t magic;
    uint8_t secret[SECRET_BYTES];
} port_hello_t;

typedef struct accept_wait {
    const char *port;
    int fd;
} accept_wait_t;

static bool accepted(void *arg)
{
    accept_wait_t *w = arg;
    return dmpi_tport_port_try_accept(w->port, &w->fd) != 0;
}

static void describe_accept(void *arg, char *buf, size_t len)
{
    snprintf(buf, len, "MPI_Comm_accept: a connection to port %s", ((accept_wait_t *)arg)->port);
}

/* The root's side of accept: the first connection that shows the port's
 * secret (others are closed). -1 and *err if the port is not ours. */
static int accept_one(const char *fn, const char *port, int *err)
{
    uint8_t secret[SECRET_BYTES];
    if (dmpi_tport_port_secret(port, secret) != 0) {
        *err = dmpi_err(MPI_ERR_PORT, "%s: '%.64s' is not a port this process opened (MPI_Open_port)", fn, port);
        return -1;
    }
    for (;;) {
        accept_wait_t w = {port, -1};
        dmpi_progress_until_described(accepted, &w, describe_accept);
        if (w.fd < 0) {
            *err = dmpi_err(MPI_ERR_PORT, "%s: port '%.64s' was closed", fn, port);
            return -1;
        }
        port_hello_t h;
        if (dmpi_fd_read(w.fd, &h, sizeof h, "a connector's hello") == MPI_SUCCESS && h.magic == HELLO_MAGIC &&
            !memcmp(h.secret, secret, sizeof secret))
            return w.fd;
        dmpi_verbose(1, "%s: closed a connection to port %s without its secret", fn, port);
        close(w.fd);
    }
}

int dmpi_comm_accept(const char *port, dmpi_comm_t *c, int root, int leader_err, dmpi_comm_t **out)
{
    const char *fn = "MPI_Comm_accept";
    int fd = -1;
    if (c->rank == root && leader_err == MPI_SUCCESS)
        fd = accept_one(fn, port, &leader_err);
    int err = dmpi_intercomm_over_fd(fn, c, root, fd, leader_err, out);
    if (fd >= 0)
        close(fd);
    return err;
}

static int connect_as(const char *fn, const char *port, dmpi_comm_t *c, int root, int leader_err, dmpi_comm_t **out)
{
    int fd = -1;
    if (c->rank == root && leader_err == MPI_SUCCESS) {
        char why[256];
        port_hello_t h = {HELLO_MAGIC, {0}};
        if (dmpi_tport_port_dial(port, &fd, h.secret, why, sizeof why) != 0)
            leader_err = dmpi_err(MPI_ERR_PORT, "%s: %s", fn, why);
        else
            leader_err = dmpi_fd_write(fd, &h, sizeof h, "the hello to the port");
    }
    int err = dmpi_intercomm_over_fd(fn, c, root, fd, leader_err, out);
    if (fd >= 0)
        close(fd);
    return err;
}

int dmpi_comm_connect(const char *port, dmpi_comm_t *c, int root, int leader_err, dmpi_comm_t **out)
{
    return connect_as("MPI_Comm_connect", port, c, root, leader_err, out);
}

int dmpi_comm_join(int fd, dmpi_comm_t **out)
{
    return dmpi_intercomm_over_fd("MPI_Comm_join", dmpi_comm_get(MPI_COMM_SELF), 0, fd, MPI_SUCCESS, out);
}

/* Everything pending on c completes first: a barrier with the other side
 * after this process's own operations on c are done (MPI requires them
 * complete or matched), then the communicator goes. */
int dmpi_comm_disconnect(dmpi_comm_t *c)
{
    int err = c->coll->barrier(c, NULL);
    if (c == dmpi_comm_parent)
        dmpi_comm_parent = NULL;
    int e = dmpi_comm_free(c);
    return err != MPI_SUCCESS ? err : e;
}

/* A spawned job's MPI_Init: launchers mark its processes with PMI_SPAWNED
 * (Hydra does too) and put the parents' port into its key space. */
int dmpi_comm_connect_parent(void)
{
    const char *s = getenv("PMI_SPAWNED");
    if (!s || strcmp(s, "1"))
        return MPI_SUCCESS;
    dmpi_comm_t *world = dmpi_comm_get(MPI_COMM_WORLD);
    char port[DMPI_PMI_VAL_MAX] = "";
    int leader_err = MPI_SUCCESS;
    if (world->rank == 0 && dmpi_pmi_get("PARENT_ROOT_PORT_NAME", port, sizeof port) != 0)
        leader_err = dmpi_err(MPI_ERR_SPAWN, "MPI_Init: PMI_SPAWNED is set but the parents' port is not known");
    int err = connect_as("MPI_Init", port, world, 0, leader_err, &dmpi_comm_parent);
    if (err == MPI_SUCCESS)
        strcpy(dmpi_comm_parent->name, "the parent of this spawned job");
    return err;
}
