/* One table of tunables. Each is read once, at MPI_Init, from the environment
 * variable DMPI_<NAME>; numbers must lie in the range their entry gives.
 * dmpi_info lists them with their defaults, ranges and docs. */
#ifndef DMPI_PARAMS_H
#define DMPI_PARAMS_H

#include <stddef.h>

#define DMPI_PARAM_NAME_MAX 32
#define DMPI_PARAM_TEXT_MAX 64

typedef struct dmpi_params {
    size_t eager_limit;       /* EAGER_LIMIT: largest message sent eagerly between ranks on a node */
    size_t cma_min;           /* CMA_MIN: smallest rendezvous message read with one process_vm_readv */
    size_t cma_split_min;     /* CMA_SPLIT_MIN: from this size both ranks copy half each (0 = never) */
    size_t cma_block_min;     /* CMA_BLOCK_MIN: noncontiguous data goes by cma only with blocks this long on average */
    size_t shm_mapped_min;    /* SHM_MAPPED_MIN: from this size a send from a mappable block is read from the receiver's mapping (0 = never) */
    int shm_map_cache;        /* SHM_MAP_CACHE: peers' blocks a rank keeps mapped at once */
    int alloc_mem_shared;     /* ALLOC_MEM_SHARED: MPI_Alloc_mem gives blocks the node's peers can map (1) or heap memory (0) */
    size_t alloc_mem_shared_min;  /* ALLOC_MEM_SHARED_MIN: smaller MPI_Alloc_mem blocks come from the heap */
    size_t alloc_mem_shared_max;  /* ALLOC_MEM_SHARED_MAX: bytes of mappable blocks per rank (0 = half the memory / local ranks) */
    size_t ring_size;         /* RING_SIZE: bytes of each rank's inbound queue (0 = 128 KiB) */
    size_t frag_size;         /* FRAG_SIZE: largest piece of a message in one ring slot */
    int shm_path;             /* SHM_PATH: auto, eager, copy or cma: force one path for every size */
    char transport[DMPI_PARAM_NAME_MAX];   /* TRANSPORT: auto, or tcp between all ranks */
    char tcp_if[DMPI_PARAM_TEXT_MAX];      /* TCP_IF: interface name or CIDR, or auto */
    size_t tcp_eager_limit;   /* TCP_EAGER_LIMIT: largest message sent eagerly over TCP */
    double tcp_timeout;       /* TCP_TIMEOUT: seconds a silent connection lives (0 = the kernel's) */
    char yield[DMPI_PARAM_NAME_MAX];       /* YIELD: auto, always (as if oversubscribed) or never */
    int spin_count;           /* SPIN_COUNT: polls before yielding the core when oversubscribed */
    double idle_nap;          /* IDLE_NAP: longest sleep (us) between the polls of a long wait (0 = never) */
    double idle_nap_after;    /* IDLE_NAP_AFTER: ms of waiting before naps, oversubscribed (x100 otherwise) */
    double hang_timeout;      /* HANG_TIMEOUT: seconds of waiting before a report of what is awaited */
    /* COLL_<NAME>: a collective's algorithm by name, "auto" for the decision table */
    char coll_barrier[DMPI_PARAM_NAME_MAX], coll_bcast[DMPI_PARAM_NAME_MAX], coll_reduce[DMPI_PARAM_NAME_MAX],
        coll_allreduce[DMPI_PARAM_NAME_MAX], coll_gather[DMPI_PARAM_NAME_MAX], coll_scatter[DMPI_PARAM_NAME_MAX],
        coll_allgather[DMPI_PARAM_NAME_MAX], coll_alltoall[DMPI_PARAM_NAME_MAX], coll_alltoallv[DMPI_PARAM_NAME_MAX],
        coll_reduce_scatter[DMPI_PARAM_NAME_MAX];
    int coll_node;            /* COLL_NODE: node-level shared-memory collectives on (1) or off (0) */
    int coll_hier;            /* COLL_HIER: node leaders first on communicators that span nodes (1) or flat (0) */
    size_t coll_node_copy_max;  /* COLL_NODE_COPY_MAX: largest per-rank contribution copied through the area */
    size_t coll_node_chunk;   /* COLL_NODE_CHUNK: piece of a large reduction handled at a time */
    size_t coll_node_budget;  /* COLL_NODE_BUDGET: shared memory for all collective areas of the node */
    int coll_node_groups;     /* COLL_NODE_GROUPS: 0 from the topology, k forces k groups */
    int alltoallv_window;     /* ALLTOALLV_WINDOW: exchanges in flight in the throttled linear alltoallv */
    int coll_message_max;     /* COLL_MESSAGE_MAX: bytes per message of a collective schedule (larger: pieces) */
    int rma_direct;           /* RMA_DIRECT: windows on one node synchronise and move data directly (1) or by messages (0) */
    int verbose;              /* VERBOSE: 0 quiet, 1 decisions, 2 details */
} dmpi_params_t;

enum { DMPI_PATH_AUTO, DMPI_PATH_EAGER, DMPI_PATH_COPY, DMPI_PATH_CMA };

extern dmpi_params_t dmpi_params;

/* 0, or -1 after printing which variable is malformed or out of range
 * ("dmpi: DMPI_SPIN_COUNT=-1 is out of range (1 .. 1000000000)"). */
int dmpi_params_load(void);

/* For dmpi_info and tests: entry i of the table, with its current value.
 * min and max (the accepted range, as written in the table) are NULL for
 * parameters that are not numbers. Returns 0 past the end. */
typedef struct dmpi_param_info {
    const char *name, *dflt, *min, *max, *doc;
    char cur[64];
    int kind;                 /* DMPI_PARAM_* below: how MPI_T shows the value */
    int when;                 /* DMPI_PARAM_AT_INIT, or when a change at run time takes effect */
    const char *category;     /* the group it belongs to (MPI_T categories, dmpi_info) */
} dmpi_param_info_t;
int dmpi_param_describe(int i, dmpi_param_info_t *info);

/* Kinds of values: a size_t, an int, a double, an int naming one of a few
 * choices (dmpi_param_choice), a string of at most DMPI_PARAM_NAME_MAX or
 * DMPI_PARAM_TEXT_MAX bytes with its NUL. */
enum { DMPI_PARAM_SIZE, DMPI_PARAM_INT, DMPI_PARAM_DOUBLE, DMPI_PARAM_CHOICE, DMPI_PARAM_NAME, DMPI_PARAM_TEXT };
/* When a parameter is read: once at MPI_Init (never changed afterwards), at
 * every use by this process alone, or at every use by all processes alike
 * (a change must be made by all of them between the same calls). */
enum { DMPI_PARAM_AT_INIT, DMPI_PARAM_LOCAL, DMPI_PARAM_ALL_EQ };

/* The name of choice c of a DMPI_PARAM_CHOICE parameter, NULL past the end. */
const char *dmpi_param_choice(int i, int c);

/* The value of entry i, as its kind says (size_t, int, double, or the
 * string with its NUL). */
const void *dmpi_param_value(int i);
/* Sets entry i from its kind's representation (a string for names and
 * text): 0, or -1 if the value is malformed or out of range. A value set so
 * survives later loads from the environment (MPI_Init after MPI_T). */
int dmpi_param_set(int i, const void *value);
/* Loads the table once, if no load happened yet (MPI_T before MPI_Init):
 * 0 or -1 as dmpi_params_load. */
int dmpi_params_load_once(void);

#endif
