/* Internal declarations shared by every layer of libmpi.
 * Objects (communicators, datatypes, requests) and the services that the
 * api/ layer calls. Nothing here is visible to user programs. */
#ifndef DMPI_CORE_H
#define DMPI_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "mpi.h"

#define DMPI_EXPORT __attribute__((visibility("default")))
#define DMPI_LIKELY(x) __builtin_expect(!!(x), 1)
#define DMPI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define DMPI_CACHELINE 64
/* The fast path of a call inlined into its entry point. */
#define DMPI_ALWAYS_INLINE inline __attribute__((always_inline))

/* memcpy for the few bytes of a small message: inline, no call (an 8-byte
 * message costs less to copy than to call memcpy for). Larger n: memcpy. */
static inline void dmpi_copy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n > 16) {
        __builtin_memcpy(d, s, n);
        return;
    }
    if (n >= 8) {                /* two 8-byte moves that may overlap */
        uint64_t a, b;
        __builtin_memcpy(&a, s, 8);
        __builtin_memcpy(&b, s + n - 8, 8);
        __builtin_memcpy(d, &a, 8);
        __builtin_memcpy(d + n - 8, &b, 8);
        return;
    }
    if (n >= 4) {
        uint32_t a, b;
        __builtin_memcpy(&a, s, 4);
        __builtin_memcpy(&b, s + n - 4, 4);
        __builtin_memcpy(d, &a, 4);
        __builtin_memcpy(d + n - 4, &b, 4);
        return;
    }
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
}

/* ---- process-wide state ------------------------------------------------ */
typedef struct dmpi_world {
    int rank, size;              /* in MPI_COMM_WORLD */
    int local_rank, local_size;  /* on this node */
    int *local_of_world;         /* world rank -> local rank, -1 if remote */
    int *node_of_world;          /* world rank -> its node */
    int node_id, nnodes;         /* this rank's node in the job, and how many (comm/nodes.c) */
    int appnum, universe_size;
    int thread_level;
    bool oversubscribed;         /* more local ranks than the CPUs they may run on together (node/node.c) */
    /* The library's own state: started by the first of MPI_Init and
     * MPI_Session_init, stopped when the last of them ends (comm/runtime.c). */
    enum { DMPI_STATE_NONE, DMPI_STATE_INIT, DMPI_STATE_FINALIZED } state;
    /* The world model's: MPI_Init called, MPI_Finalize called
     * (MPI_Initialized, MPI_Finalized). */
    enum { DMPI_MODEL_NONE, DMPI_MODEL_INIT, DMPI_MODEL_FINALIZED } model;
    char processor_name[MPI_MAX_PROCESSOR_NAME];
} dmpi_world_t;
extern dmpi_world_t dmpi_world;

/* ---- datatypes ----------------------------------------------------------- */
/* The data of one element of a type, in typemap order, as runs of equal
 * blocks: count blocks of len bytes, the first at off from the element's
 * start, each next one stride bytes further. Built once by the type's
 * constructor (core/dtype_create.c); the pack engine (core/dtype_pack.c)
 * walks them. */
typedef struct dmpi_run {
    MPI_Aint off, stride;
    size_t len, count;
    size_t before;               /* packed bytes of the element before this run */
} dmpi_run_t;

struct dmpi_dtype_contents;

typedef struct dmpi_dtype {
    MPI_Datatype handle;
    size_t size;                 /* bytes of data in one element */
    MPI_Aint lb, extent;         /* bounds used for counts and displacements */
    MPI_Aint true_lb, true_extent;  /* bounds of the data itself */
    bool contig;                 /* n elements are n * size bytes at buf + true_lb */
    bool committed;
    bool predefined;             /* MPI_BYTE ... and the pair types */
    bool bounds_set;             /* lb/extent were set by Type_create_resized below */
    int nruns;                   /* layout of one element, for pack/unpack */
    dmpi_run_t *runs;
    MPI_Datatype basic;          /* predefined type all the data is made of, or MPI_DATATYPE_NULL */
    size_t nbasic;               /* predefined elements in one element (MPI_Get_elements) */
    size_t align;                /* largest alignment of the data (struct extents round up to it) */
    struct dmpi_dtype_contents *contents;   /* derived: how it was made; NULL if predefined */
    int refcount;                /* the user's handle and every type made from this one */
    struct dmpi_attr *attrs;     /* cached attributes */
    char name[MPI_MAX_OBJECT_NAME];
} dmpi_dtype_t;

/* How a derived type was made, as MPI_Type_get_contents reports it. inner
 * is the type the layout was built from for DUP, RESIZED, SUBARRAY and
 * DARRAY (walks of the typemap follow it); types[] are held references. */
typedef struct dmpi_dtype_contents {
    int combiner;
    int nints, naints, ntypes;
    MPI_Count nlarge;            /* > 0 only for types made by the _c constructors */
    int *ints;
    MPI_Aint *aints;
    MPI_Count *large;
    MPI_Datatype *types;
    dmpi_dtype_t *inner;
    /* What the engine reads (not SUBARRAY, DARRAY): the arguments in the
     * layout of the _c constructors, whichever form made the type: count,
     * then block lengths (or one), then displacements or stride, in
     * elements or bytes as the combiner says; RESIZED: lb, extent. */
    MPI_Count *p;
} dmpi_dtype_contents_t;

/* The arguments of a constructor as MPI_Type_get_contents(_c) reports them. */
typedef struct dmpi_dtype_args {
    int nints, naints, ntypes;
    MPI_Count nlarge;
    const int *ints;
    const MPI_Aint *aints;
    const MPI_Count *large;
    const MPI_Datatype *types;
} dmpi_dtype_args_t;

/* NULL if not a valid datatype. Predefined types take the inline path. */
#define DMPI_BUILTIN_TYPES 0x4d
extern dmpi_dtype_t dmpi_builtin_dtypes[DMPI_BUILTIN_TYPES];
dmpi_dtype_t *dmpi_dtype_get_slow(MPI_Datatype h);
static inline dmpi_dtype_t *dmpi_dtype_get(MPI_Datatype h)
{
    unsigned u = (unsigned)h, i = u & 0xff;
    if (DMPI_LIKELY((u & 0xffff0000u) == 0x4c000000u && i < DMPI_BUILTIN_TYPES &&
                    (unsigned)dmpi_builtin_dtypes[i].handle == u))
        return &dmpi_builtin_dtypes[i];
    return dmpi_dtype_get_slow(h);
}
void dmpi_dtype_init(void);
void dmpi_dtype_finalize(void);

/* How every message names a datatype: its name ("MPI_INT", "rowtype"), or
 * for a type without one its handle and kind, "0xcc000002 (a derived vector
 * type, no name)". Writes into buf and returns it. dmpi_dtype_desc(dt)
 * supplies a buffer that lives until the end of the enclosing block, for use
 * as a message argument: dmpi_err(..., "datatype %s", dmpi_dtype_desc(dt)). */
#define DMPI_DTYPE_DESC_MAX (MPI_MAX_OBJECT_NAME + 64)
const char *dmpi_dtype_describe(const dmpi_dtype_t *dt, char *buf, size_t len);
#define dmpi_dtype_desc(dt) dmpi_dtype_describe((dt), (char[DMPI_DTYPE_DESC_MAX]){0}, DMPI_DTYPE_DESC_MAX)

/* Constructors (core/dtype_create.c). The arguments are those that
 * MPI_Type_get_contents returns for the combiner, already checked by the
 * api layer; the new type has refcount 1 and is not committed. */
int dmpi_dtype_create(int combiner, int nints, const int *ints, int naints, const MPI_Aint *aints, int ntypes,
                      const MPI_Datatype *types, dmpi_dtype_t **out);
/* The one constructor behind dmpi_dtype_create and the int and _c forms of
 * the api: np arguments p in the layout of the _c constructors
 * (dmpi_dtype_contents_t.p); large says which form made the type, so which
 * arrays MPI_Type_get_contents(_c) reports (ints and addresses, or p). */
int dmpi_dtype_make(int combiner, MPI_Count np, const MPI_Count *p, int ntypes, const MPI_Datatype *types,
                    bool large, dmpi_dtype_t **out);
/* Same layout as inner, reported with the given contents (subarray, darray). */
int dmpi_dtype_create_as(dmpi_dtype_t *inner, int combiner, const dmpi_dtype_args_t *a, dmpi_dtype_t **out);
void dmpi_dtype_retain(dmpi_dtype_t *dt);
void dmpi_dtype_release(dmpi_dtype_t *dt);   /* frees a derived type at refcount 0 */

/* Pack engine (core/dtype_pack.c). Bytes are counted in the packed stream
 * of count elements; the range versions move bytes [first, first + n). */
void dmpi_dtype_pack(const dmpi_dtype_t *dt, size_t count, const void *src, void *dst);
void dmpi_dtype_unpack(const dmpi_dtype_t *dt, size_t count, const void *src, void *dst, size_t bytes);
void dmpi_dtype_pack_range(const dmpi_dtype_t *dt, const void *base, size_t first, size_t n, void *dst);
void dmpi_dtype_unpack_range(const dmpi_dtype_t *dt, void *base, size_t first, size_t n, const void *src);
/* Fills up to max (address, length) pieces of bytes [first, first + n) of the
 * data at base; returns how many, and in *covered how many bytes they hold. */
struct iovec;
int dmpi_dtype_iov(const dmpi_dtype_t *dt, const void *base, size_t first, size_t n, struct iovec *iov, int max,
                   size_t *covered);

/* Typemap walks (core/dtype_walk.c). */
/* Predefined elements in the first bytes of count elements; -1 if bytes
 * ends inside a predefined element. */
MPI_Count dmpi_dtype_elements(const dmpi_dtype_t *dt, size_t bytes);
/* The reverse (MPI_Status_set_elements): the bytes of the first n predefined
 * elements of a stream of dt; -1 if they are more than INT64_MAX. */
int dmpi_dtype_elements_bytes(const dmpi_dtype_t *dt, MPI_Count n, size_t *bytes);
/* Calls fn for each run of n predefined elements of type basic at disp
 * (from base), in typemap order, for count elements. Stops early and returns
 * what fn returns if that is not 0. */
typedef int dmpi_dtype_visit_fn(void *ctx, dmpi_dtype_t *basic, MPI_Aint disp, size_t n);
int dmpi_dtype_walk(const dmpi_dtype_t *dt, size_t count, dmpi_dtype_visit_fn *fn, void *ctx);

/* ---- communicators ------------------------------------------------------- */
struct dmpi_group;

typedef struct dmpi_comm {
    MPI_Comm handle;
    uint32_t ctx;                /* point-to-point context; ctx + 1 is for collectives */
    int rank, size;
    const int *world_of;         /* comm rank -> world rank; NULL means identity */
    /* The ranks point-to-point names: this group's on an intracommunicator
     * (equal to size and world_of), the remote group's on an intercommunicator. */
    int peer_size;
    const int *peer_world_of;    /* peer rank -> world rank; NULL means identity */
    MPI_Errhandler errhandler;
    /* The user's handle (until MPI_Comm_free) and every request, schedule
     * and derived object still using the communicator; it is destroyed, and
     * its context ids become free, when the last one lets go. */
    int refcount;
    struct dmpi_comm *obj;       /* the object itself; a view (dmpi_coll_view) points to the one it views */
    /* Blocking and nonblocking collectives draw their schedules' tags from
     * separate sequences (coll/sched.c), so a blocking collective never
     * matches the messages of a nonblocking one still in flight. */
    uint32_t coll_seq, icoll_seq;
    int coll_tag;                /* unless DMPI_TAG_NONE: every schedule on this communicator uses
                                  * this tag (temporary views: Comm_create_group, Comm_idup rounds) */
    uint32_t idup_seq;           /* MPI_Comm_idup calls on it, the same count on every rank */
    const struct dmpi_coll_table *coll;   /* its collective functions (coll/table.c) */
    void *coll_state;            /* a component's state (coll/node), freed by dmpi_comm_coll_free_hook */
    struct dmpi_coll_layout *layout;  /* its ranks by node (coll/hier.c), made on first use; one block */
    struct dmpi_group *group;
    struct dmpi_attr *attrs;     /* cached attributes (core/attr.c) */
    struct dmpi_info *hints;     /* MPI_Comm_set_info: a private copy, or NULL */
    struct dmpi_topo *topo;      /* Cartesian / graph topology (core/topo.c), or NULL */
    struct dmpi_group *remote_group;  /* intercommunicators only, else NULL */
    struct dmpi_comm *local_comm;     /* intercommunicators: private intracommunicator of the local group */
    /* Sequence numbers of the next message to each peer rank (p2p/deliver.h):
     * peer_size for the point-to-point context, then peer_size for the
     * collective one. NULL: messages go unsequenced (a temporary
     * communicator of MPI_Comm_create_group, whose ranks number a subgroup). */
    uint32_t *seq_out;
    struct dmpi_bbuf *bsend_buf; /* MPI_Comm_attach_buffer's (p2p/bsend.c): one malloc'd block, idle once
                                  * the last reference goes (its sends and flushes hold references) */
    struct dmpi_session *session; /* held: the session it derives from (MPI_Comm_create_from_group, then
                                   * every communicator made from it), whose buffer its Bsends use next */
    char name[MPI_MAX_OBJECT_NAME];
} dmpi_comm_t;

/* NULL if not a valid communicator. MPI_COMM_WORLD takes the inline path. */
extern dmpi_comm_t dmpi_comm_world_obj;
dmpi_comm_t *dmpi_comm_get_slow(MPI_Comm h);
static inline dmpi_comm_t *dmpi_comm_get(MPI_Comm h)
{
    if (DMPI_LIKELY(h == MPI_COMM_WORLD && dmpi_comm_world_obj.refcount))
        return &dmpi_comm_world_obj;
    return dmpi_comm_get_slow(h);
}
static inline int dmpi_comm_world_rank(const dmpi_comm_t *c, int r)
{
    return c->world_of ? c->world_of[r] : r;
}
/* The world rank of the process that point-to-point rank r names. */
static inline int dmpi_comm_peer_world(const dmpi_comm_t *c, int r)
{
    return c->peer_world_of ? c->peer_world_of[r] : r;
}
#define DMPI_TAG_NONE (-0x7fffffff - 1)
static inline bool dmpi_comm_is_inter(const dmpi_comm_t *c) { return c->remote_group != NULL; }
int dmpi_comm_init_builtins(void);
void dmpi_comm_finalize(void);
/* Sets the ranks point-to-point names (an intercommunicator's remote group). */
int dmpi_comm_set_peers(dmpi_comm_t *c, int peer_size, const int *peer_world_of);
/* References held by requests and schedules (a view counts on its object). */
static inline void dmpi_comm_retain(dmpi_comm_t *c) { c->obj->refcount++; }
void dmpi_comm_destroy_last(dmpi_comm_t *c);     /* the last reference went */
/* Set by the collectives: frees c->coll_state when the communicator goes. */
extern void (*dmpi_comm_coll_free_hook)(dmpi_comm_t *c);
static inline void dmpi_comm_release(dmpi_comm_t *c)
{
    if (DMPI_UNLIKELY(--c->obj->refcount == 0))
        dmpi_comm_destroy_last(c->obj);
}

/* Communicator objects (core/comm.c). Creation is collective and lives in
 * comm/ (comm/comm.h), above the collectives it uses. */
int dmpi_comm_free(dmpi_comm_t *c);          /* the user's reference: MPI_Comm_free */
int dmpi_comm_compare(const dmpi_comm_t *a, const dmpi_comm_t *b);  /* MPI_IDENT ... MPI_UNEQUAL */
/* A communicator over group g (this process is in it) on context pair,
 * taking over the caller's reference to g; a hidden one gets no handle.
 * pair -1: the pair is still being agreed (MPI_Comm_idup), set later. */
int dmpi_comm_make(dmpi_comm_t *parent, struct dmpi_group *g, int pair, bool hidden, dmpi_comm_t **out);
/* Records that c derives from session s (held; NULL: none). dmpi_comm_make passes on the parent's. */
void dmpi_comm_set_session(dmpi_comm_t *c, struct dmpi_session *s);
#define DMPI_CTX_PENDING 0xfffffffeu
void dmpi_comm_set_pair(dmpi_comm_t *c, int pair);

/* ---- errors -------------------------------------------------------------- */
/* Makes an error code of class cls carrying a formatted message that
 * MPI_Error_string returns; the message should name the call and argument. */
int dmpi_err(int cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Passes code to the communicator's error handler; returns what the call returns. */
int dmpi_err_handle(dmpi_comm_t *comm, const char *call, int code);
int dmpi_err_class_of(int code);                     /* -1 if code is not valid */
const char *dmpi_err_string_of(int code);
/* Classes and codes added by the program (above MPI_ERR_LASTCODE); fn names
 * the call in error messages. A class must lose its codes before it goes. */
typedef enum { DMPI_ERR_CLASS, DMPI_ERR_CODE, DMPI_ERR_STRING } dmpi_err_part_t;
int dmpi_err_add_class(int *cls);
int dmpi_err_add_code(const char *fn, int cls, int *code);
int dmpi_err_add_string(const char *fn, int code, const char *text);
int dmpi_err_remove(const char *fn, int code, dmpi_err_part_t what);
/* The largest class or code in use: MPI_LASTUSEDCODE's value. */
int dmpi_err_last_used(void);
bool dmpi_errhandler_valid(MPI_Errhandler e);
void dmpi_errhandler_finalize(void);

/* ---- memory (core/mem.c) ------------------------------------------------- */
/* MPI_Alloc_mem's blocks: aligned to a cache line, or to align if larger (a
 * power of two); size 0 gives a block too. */
int dmpi_mem_alloc(MPI_Aint size, size_t align, void **out);
int dmpi_mem_free(void *p);                  /* -1 if p is not such a block */
/* Memory of another kind for MPI_Alloc_mem, offered by a higher layer
 * (node/shareable.c: blocks the node's peers can map). alloc returns NULL
 * to decline (then the block comes from the heap); free returns false for
 * a block that is not its own. Registered once, kept for the process. */
typedef struct dmpi_mem_provider {
    void *(*alloc)(size_t size, size_t align);
    bool (*free)(void *p);
} dmpi_mem_provider_t;
void dmpi_mem_set_provider(const dmpi_mem_provider_t *p);

/* ---- logging and fatal exits --------------------------------------------- */
void dmpi_verbose(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dmpi_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void dmpi_abort_job(int code) __attribute__((noreturn));

/* ---- time ---------------------------------------------------------------- */
double dmpi_wtime(void);

#endif
