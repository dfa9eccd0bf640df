/* Communicator construction: everything that makes communicators by
 * talking to other processes (context ids, splits, intercommunicators,
 * topologies) and the start-up and shut-down of the library. It sits above
 * coll/ and uses the real collective algorithms. */
#ifndef DMPI_COMM_COMM_H
#define DMPI_COMM_COMM_H

#include "core/dmpi.h"
#include "p2p/request.h"

struct dmpi_group;

/* Creation, collective as MPI says. *out is NULL for processes that get
 * MPI_COMM_NULL. */
int dmpi_comm_dup(dmpi_comm_t *c, dmpi_comm_t **out);
int dmpi_comm_split(dmpi_comm_t *c, int color, int key, dmpi_comm_t **out);
int dmpi_comm_create(dmpi_comm_t *c, struct dmpi_group *g, dmpi_comm_t **out);
int dmpi_comm_create_group(dmpi_comm_t *c, struct dmpi_group *g, int tag, dmpi_comm_t **out);
int dmpi_comm_dup_extras(dmpi_comm_t *c, dmpi_comm_t **out);
/* A private duplicate of intracommunicator c for an object built on it (a
 * window): c's group on a fresh context pair and nothing else of c's (no
 * attributes, hints, topology, name or handle), its errors returned. */
int dmpi_comm_dup_plain(dmpi_comm_t *c, dmpi_comm_t **out);
/* MPI_Comm_idup: *out exists at once (a handle the caller may hold) and is
 * ready when *req completes; the context pair is agreed by nonblocking
 * collectives (comm/comm_idup.c). On an intercommunicator the dup is made
 * at once and *req is complete. */
int dmpi_comm_idup(dmpi_comm_t *c, dmpi_comm_t **out, dmpi_request_t **req);

/* Intercommunicators (comm/intercomm.c). leader_err is the local leader's
 * verdict on peer_comm, remote_leader and tag (checked by the api layer
 * there; MPI_SUCCESS elsewhere), passed on to its whole group. */
int dmpi_intercomm_create(dmpi_comm_t *local, int local_leader, dmpi_comm_t *peer, int remote_leader, int tag,
                          int leader_err, dmpi_comm_t **out);
int dmpi_intercomm_merge(dmpi_comm_t *ic, bool high, dmpi_comm_t **out);
/* The intercommunicator forms of dup, split and create. */
int dmpi_intercomm_dup(dmpi_comm_t *ic, dmpi_comm_t **out);
int dmpi_intercomm_split(dmpi_comm_t *ic, int color, int key, dmpi_comm_t **out);
int dmpi_intercomm_create_sub(dmpi_comm_t *ic, struct dmpi_group *g, dmpi_comm_t **out);

/* The exchanges construction needs (comm/exchange.c), as real collectives. */
/* words[i] &= the same words of every process of c. */
int dmpi_comm_and_words(dmpi_comm_t *c, uint32_t *words, int n);
/* words from c's rank root to every process of c. */
int dmpi_comm_bcast_words(dmpi_comm_t *c, int root, uint32_t *words, int n);
/* Every rank of c contributes k ints; all[] gets size*k ints in rank order. */
int dmpi_comm_allgather_ints(dmpi_comm_t *c, const int *mine, int k, int *all);
/* The lowest context pair free on every process of c (and reserved by no
 * nonblocking agreement in flight here). */
int dmpi_comm_agree_pair(dmpi_comm_t *c, int *pair);

/* Between jobs: an intercommunicator of lc with the group whose leader
 * lc's rank root reaches through socket fd (comm/intercomm.c). */
int dmpi_intercomm_over_fd(const char *fn, dmpi_comm_t *lc, int root, int fd, int leader_err, dmpi_comm_t **out);
/* Whole reads and writes on a socket, driving progress while waiting
 * (comm/dyn_fd.c); what names the data in errors. */
int dmpi_fd_read(int fd, void *buf, size_t n, const char *what);
int dmpi_fd_write(int fd, const void *buf, size_t n, const char *what);

/* Dynamic processes (comm/dynamic.c, comm/spawn.c). */
struct dmpi_info;
int dmpi_comm_accept(const char *port, dmpi_comm_t *c, int root, int leader_err, dmpi_comm_t **out);
int dmpi_comm_connect(const char *port, dmpi_comm_t *c, int root, int leader_err, dmpi_comm_t **out);
int dmpi_comm_join(int fd, dmpi_comm_t **out);
int dmpi_comm_disconnect(dmpi_comm_t *c);
/* One command of a spawn, as the root passes it. */
typedef struct dmpi_spawn_cmd {
    const char *cmd;
    char **argv;
    int maxprocs;
    struct dmpi_info *info;
} dmpi_spawn_cmd_t;
/* Spawns count commands (meaningful at root only); errcodes (or NULL) get
 * one code per child process (nerr entries at most). */
int dmpi_comm_spawn(const char *fn, dmpi_comm_t *c, int root, int count, const dmpi_spawn_cmd_t *cmds,
                    int leader_err, int *errcodes, int nerr, dmpi_comm_t **out);
/* The intercommunicator to the parents of a spawned job, or NULL. */
extern dmpi_comm_t *dmpi_comm_parent;
int dmpi_comm_connect_parent(void);       /* MPI_Init of a spawned job */

/* Start-up and shut-down (comm/init.c). */
int dmpi_init(const char *fn, int required, int *provided);   /* fn: the call that starts it */
/* Sets dmpi_world's node fields (local ranks, node id) from the launcher's
 * PMI_process_mapping, else from host names (comm/nodes.c). */
int dmpi_find_nodes(void);
int dmpi_finalize(void);
/* Who keeps the library running (comm/runtime.c). start: MPI_Init or
 * MPI_Session_init, starting the library or raising its thread level.
 * release: the caller has ended (MPI_Finalize has set model, or a session
 * went); stops the library if nothing else uses it. world_finalize: the
 * world model's part of MPI_Finalize, then release. */
int dmpi_runtime_start(const char *fn, int required, int *provided);
int dmpi_runtime_release(void);
int dmpi_world_finalize(void);

/* Communicators from groups (comm/from_group.c), over a hidden
 * communicator of every process made at start-up. stringtag keeps
 * concurrent creations on overlapping groups apart. */
int dmpi_from_group_init(void);
void dmpi_from_group_finalize(void);
int dmpi_comm_from_group(struct dmpi_group *g, const char *stringtag, dmpi_comm_t **out);
int dmpi_intercomm_from_groups(struct dmpi_group *lg, int local_leader, struct dmpi_group *rg, int remote_leader,
                               const char *stringtag, dmpi_comm_t **out);
/* An intercommunicator of lc's group with an empty remote group. */
int dmpi_intercomm_alone(dmpi_comm_t *lc, dmpi_comm_t **out);

#endif
