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

/* ---- process-wide state ------------------------------------------------ */
typedef struct dmpi_world {
    int rank, size;              /* in MPI_COMM_WORLD */
    int local_rank, local_size;  /* on this node */
    int *local_of_world;         /* world rank -> local rank, -1 if remote */
    int appnum, universe_size;
    int thread_level;
    bool oversubscribed;         /* more local ranks than usable cores */
    enum { DMPI_STATE_NONE, DMPI_STATE_INIT, DMPI_STATE_FINALIZED } state;
    char processor_name[MPI_MAX_PROCESSOR_NAME];
} dmpi_world_t;
extern dmpi_world_t dmpi_world;

/* ---- datatypes ----------------------------------------------------------- */
typedef struct dmpi_block { MPI_Aint off; size_t len; } dmpi_block_t;

typedef struct dmpi_dtype {
    MPI_Datatype handle;
    size_t size;                 /* bytes of data in one element */
    MPI_Aint lb, extent;
    bool contig;                 /* one block at offset 0 and size == extent */
    bool committed;
    bool predefined;             /* MPI_BYTE ... and the pair types */
    int nblocks;                 /* layout of one element, for pack/unpack */
    const dmpi_block_t *blocks;
    const char *name;
} dmpi_dtype_t;

/* NULL if not a valid datatype. Predefined types take the inline path. */
#define DMPI_BUILTIN_TYPES 0x46
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
void dmpi_dtype_pack(const dmpi_dtype_t *dt, size_t count, const void *src, void *dst);
void dmpi_dtype_unpack(const dmpi_dtype_t *dt, size_t count, const void *src, void *dst, size_t bytes);

/* ---- communicators ------------------------------------------------------- */
struct dmpi_group;

typedef struct dmpi_comm {
    MPI_Comm handle;
    uint32_t ctx;                /* point-to-point context; ctx + 1 is for collectives */
    int rank, size;
    const int *world_of;         /* comm rank -> world rank; NULL means identity */
    MPI_Errhandler errhandler;
    int refcount;                /* nonzero while the communicator exists */
    struct dmpi_group *group;
    struct dmpi_attr *attrs;     /* cached attributes (core/attr.c) */
    struct dmpi_info *hints;     /* MPI_Comm_set_info: a private copy, or NULL */
    struct dmpi_topo *topo;      /* Cartesian / graph topology (core/topo.c), or NULL */
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
int dmpi_comm_init_builtins(void);
void dmpi_comm_finalize(void);

/* Communicator creation (core/comm.c), collective as MPI says. *out is
 * NULL for processes that get MPI_COMM_NULL. */
int dmpi_comm_dup(dmpi_comm_t *c, dmpi_comm_t **out);
int dmpi_comm_split(dmpi_comm_t *c, int color, int key, dmpi_comm_t **out);
int dmpi_comm_create(dmpi_comm_t *c, struct dmpi_group *g, dmpi_comm_t **out);
int dmpi_comm_create_group(dmpi_comm_t *c, struct dmpi_group *g, int tag, dmpi_comm_t **out);
int dmpi_comm_free(dmpi_comm_t *c);
int dmpi_comm_compare(const dmpi_comm_t *a, const dmpi_comm_t *b);  /* MPI_IDENT ... MPI_UNEQUAL */

/* ---- errors -------------------------------------------------------------- */
/* Makes an error code of class cls carrying a formatted message that
 * MPI_Error_string returns; the message should name the call and argument. */
int dmpi_err(int cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Passes code to the communicator's error handler; returns what the call returns. */
int dmpi_err_handle(dmpi_comm_t *comm, const char *call, int code);
int dmpi_err_class_of(int code);                     /* -1 if code is not valid */
const char *dmpi_err_string_of(int code);
bool dmpi_errhandler_valid(MPI_Errhandler e);
void dmpi_errhandler_finalize(void);

/* ---- logging and fatal exits --------------------------------------------- */
void dmpi_verbose(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dmpi_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void dmpi_abort_job(int code) __attribute__((noreturn));

/* ---- start-up and shut-down (core/init.c) ------------------------------- */
int dmpi_init(int required, int *provided);
int dmpi_finalize(void);

/* ---- time ---------------------------------------------------------------- */
double dmpi_wtime(void);

#endif
