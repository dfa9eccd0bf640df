/* Where this process runs on the node: the NUMA node (or, without NUMA
 * information, the socket) that holds every CPU it may run on. Node-level
 * collectives group ranks by it, so that most flags and copies stay within
 * one memory domain. */
#ifndef DMPI_NODE_TOPO_H
#define DMPI_NODE_TOPO_H

/* The domain's number, or -1 when the process may run on CPUs of several
 * domains (not bound) or the system does not say. */
int dmpi_node_domain_of_self(void);

#endif
