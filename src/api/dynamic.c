/* Dynamic processes: ports, accept/connect, join, disconnect, the parent
 * of a spawned job, and the name service. */
#include "api/api.h"
#include "comm/comm.h"
#include "core/info.h"
#include "pmi/pmi.h"
#include "tport/tport.h"
#include <string.h>

DMPI_ALIAS(Open_port)
DMPI_ALIAS(Close_port)
DMPI_ALIAS(Comm_accept)
DMPI_ALIAS(Comm_connect)
DMPI_ALIAS(Comm_join)
DMPI_ALIAS(Comm_disconnect)
DMPI_ALIAS(Comm_get_parent)
DMPI_ALIAS(Publish_name)
DMPI_ALIAS(Unpublish_name)
DMPI_ALIAS(Lookup_name)

static int check_info(const char *fn, MPI_Info info)
{
    if (info != MPI_INFO_NULL && !dmpi_info_get(info))
        return dmpi_err(MPI_ERR_INFO, "%s: info 0x%x is not a valid info object", fn, (unsigned)info);
    return MPI_SUCCESS;
}

static int check_name(const char *fn, const char *s, const char *what)
{
    if (!s)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, what);
    if (strnlen(s, MPI_MAX_PORT_NAME) == MPI_MAX_PORT_NAME)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is longer than MPI_MAX_PORT_NAME - 1 characters", fn, what);
    return MPI_SUCCESS;
}

int PMPI_Open_port(MPI_Info info, char *port_name)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Open_port";
    char why[256];
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_info(fn, info)) ||
        (err = dmpi_check_ptr(fn, port_name, "port_name")))
        return dmpi_api_error(NULL, fn, err);
    if (dmpi_tport_port_open(port_name, MPI_MAX_PORT_NAME, why, sizeof why) != 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_OTHER, "%s: %s", fn, why));
    return MPI_SUCCESS;
}

int PMPI_Close_port(const char *port_name)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Close_port";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_name(fn, port_name, "port_name")))
        return dmpi_api_error(NULL, fn, err);
    if (dmpi_tport_port_close(port_name) != 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_PORT, "%s: '%s' is not a port open in this process", fn,
                                                 port_name));
    return MPI_SUCCESS;
}

/* accept and connect: comm and root everywhere; port_name and info at the
 * root only, whose verdict the core passes to the whole group. */
static int accept_connect(const char *fn, bool accept, const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                          MPI_Comm *newcomm)
{
    dmpi_comm_t *c = NULL, *n = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_intra(fn, c)) ||
        (err = dmpi_check_ptr(fn, newcomm, "newcomm")))
        return dmpi_api_error(c, fn, err);
    if (root < 0 || root >= c->size)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_ROOT, "%s: invalid root %d (%s has %d ranks)", fn, root,
                                              c->name, c->size));
    int leader_err = MPI_SUCCESS;
    if (c->rank == root && !(leader_err = check_name(fn, port_name, "port_name")))
        leader_err = check_info(fn, info);
    err = accept ? dmpi_comm_accept(port_name, c, root, leader_err, &n)
                 : dmpi_comm_connect(port_name, c, root, leader_err, &n);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
    DMPI_API_ENTER;
    return accept_connect("MPI_Comm_accept", true, port_name, info, root, comm, newcomm);
}

int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
    DMPI_API_ENTER;
    return accept_connect("MPI_Comm_connect", false, port_name, info, root, comm, newcomm);
}

int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_join";
    dmpi_comm_t *n = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, intercomm, "intercomm")))
        return dmpi_api_error(NULL, fn, err);
    if (fd < 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: invalid socket descriptor %d", fn, fd));
    if ((err = dmpi_comm_join(fd, &n)) != MPI_SUCCESS)
        return dmpi_api_error(dmpi_comm_get(MPI_COMM_SELF), fn, err);
    *intercomm = n->handle;
    return MPI_SUCCESS;
}

int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_disconnect";
    dmpi_comm_t *c = NULL;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, comm, "comm")) ||
        (err = dmpi_check_comm(fn, *comm, &c)))
        return dmpi_api_error(c, fn, err);
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_COMM, "%s: %s cannot be disconnected", fn, c->name));
    if ((err = dmpi_comm_disconnect(c)) != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Comm_get_parent";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, parent, "parent")))
        return dmpi_api_error(NULL, fn, err);
    *parent = dmpi_comm_parent ? dmpi_comm_parent->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* The name service: our mpiexec's, else this process's own (docs/dynamic-processes.md). */
static int name_op(const char *fn, int op, const char *service_name, MPI_Info info, char *port_name)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, service_name, "service_name")) ||
        (err = check_info(fn, info)) ||
        (err = op == DMPI_PMI_LOOKUP ? dmpi_check_ptr(fn, port_name, "port_name")
                                     : check_name(fn, port_name, "port_name")))
        return dmpi_api_error(NULL, fn, err);
    if (strlen(service_name) > 1024)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: service_name is longer than 1024 characters", fn));
    int rc = dmpi_pmi_name(op, service_name, port_name, MPI_MAX_PORT_NAME);
    if (rc < 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_OTHER, "%s: the name service failed (see above)", fn));
    if (rc == 1 && op == DMPI_PMI_PUBLISH)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_SERVICE, "%s: service '%s' is already published", fn,
                                                 service_name));
    if (rc == 1)
        return dmpi_api_error(NULL, fn, dmpi_err(op == DMPI_PMI_LOOKUP ? MPI_ERR_NAME : MPI_ERR_SERVICE,
                                                 "%s: service '%s' is not published", fn, service_name));
    return MPI_SUCCESS;
}

int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    DMPI_API_ENTER;
    return name_op("MPI_Publish_name", DMPI_PMI_PUBLISH, service_name, info, (char *)port_name);
}

int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    DMPI_API_ENTER;
    return name_op("MPI_Unpublish_name", DMPI_PMI_UNPUBLISH, service_name, info, (char *)port_name);
}

int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    DMPI_API_ENTER;
    return name_op("MPI_Lookup_name", DMPI_PMI_LOOKUP, service_name, info, port_name);
}
