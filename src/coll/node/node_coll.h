/* Node-level collectives: the ranks of a communicator that share a node
 * meet in a shared area of their own and move data through it, or read it
 * straight from each other's buffers (process_vm_readv), synchronised by
 * flags that only their owner writes.
 *
 * Every collective is a few phases; each phase has a number t, the same on
 * every rank (collectives are called in the same order everywhere), that
 * only grows (64 bits: it never wraps). In phase t a rank may expose data:
 * inline in its post line (up to NC_INLINE bytes), packed into its slot (up
 * to the copy limit), or as the address of a buffer that the others read by
 * single copy. It then sets post[t % NC_DEPTH].seq = t.
 * Readers wait for that, copy what they need and set their done = t once
 * they read nothing more of phase t. A rank rewrites a post only when every
 * rank's done >= t - NC_DEPTH. Its slot is a ring: each exposure takes the
 * next bytes (from the start again when they do not fit), once every rank
 * is through with the phases that last wrote there. So a rank that sends
 * small data many times in a row (a broadcast's root, a gather's senders)
 * runs up to NC_DEPTH calls ahead without waiting, which matters most when
 * the ranks outnumber the cores and each runs for a time slice at once.
 * A buffer exposed by address must stay untouched until its readers' done
 * >= t.
 *
 * Nonblocking collectives run on a channel of their own (rank lines, slots
 * and phase numbers), so that a blocking collective never meets one still
 * in flight, even when ranks start them in different orders.
 *
 * The area of a communicator of n ranks (the formula docs/collectives.md
 * quotes), with C = COLL_NODE_COPY_MAX:
 *   256 B header + n x 2 x 8320 B rank lines + n x (R + C / 2) slot rings,
 * with R = max(2 C, min(8 C, 2 MiB / n)) (area.c),
 * rounded up to pages. */
#ifndef DMPI_COLL_NODE_COLL_H
#define DMPI_COLL_NODE_COLL_H

#include "coll/table.h"
#include "core/dmpi.h"
#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#define NC_INLINE 48             /* payload bytes riding in a post line */
#define NC_DEPTH 128             /* posts per rank, used in turn by phase */
#define NC_MAGIC 0x646d70692d636f6cull   /* "dmpi-col" */

typedef struct nc_post {
    _Atomic uint64_t seq;        /* the phase whose data this holds */
    uint64_t bytes;              /* bytes exposed */
    union {
        unsigned char data[NC_INLINE];
        uint64_t addr;           /* single copy: where they are in the owner's memory; slot: the offset in it */
    };
} nc_post_t;
static_assert(sizeof(nc_post_t) == 64, "a post is one cache line");

/* One rank's lines, written by that rank only: the posts (by phase
 * modulo NC_DEPTH), done, and the barrier's group fields. */
typedef struct nc_rank {
    nc_post_t post[NC_DEPTH];
    _Atomic uint64_t done;       /* the last phase this rank read anything of */
    char pad0[56];
    _Atomic uint64_t up;         /* group leader: its whole group arrived at this phase */
    _Atomic uint64_t down;       /* group leader: every rank arrived; its group may go */
    int32_t domain;              /* set once, before the set-up agreement */
    char pad1[44];
} nc_rank_t;
static_assert(sizeof(nc_rank_t) == (NC_DEPTH + 2) * 64 && sizeof(nc_rank_t) % 128 == 0,
              "rank lines are whole cache lines, in pairs");

typedef struct nc_area {
    uint64_t magic;
    uint64_t bytes;              /* the whole area */
    uint64_t slot;               /* bytes of one rank's slot (two halves) */
    uint64_t nbslot;             /* the same for the nonblocking channel */
    uint32_t n;
    _Atomic uint32_t refs;       /* ranks that still have it mapped */
    char pad[256 - 40];
} nc_area_t;
static_assert(sizeof(nc_area_t) == 256, "the header is four cache lines");

enum { NC_UNSET, NC_READY, NC_OFF };   /* state of a communicator's area */
/* How a contribution travels (NC_CHAIN: in pieces, chain.c; NC_PAIR: two ranks by single copy, pair.c). */
enum { NC_INL, NC_SLOT, NC_CMA, NC_NONE, NC_CHAIN, NC_PAIR };

typedef struct nc_state {
    dmpi_comm_t *comm;
    const dmpi_coll_table_t *below;
    int status;
    int n, me;
    nc_area_t *area;
    nc_rank_t *ranks;            /* n of them */
    char *slots;                 /* n x slot */
    size_t slot;                 /* bytes of one rank's slot ring on this channel */
    size_t copy;                 /* the copy limit on this channel: larger exposures go by address (at most slot / 2) */
    size_t ring_head;            /* where this rank's next slot exposure goes */
    uint64_t *ring_phase;        /* by cache line of the ring: the last phase that wrote there */
    struct nc_state *nbs;        /* the nonblocking channel (its own lines, slots and phases) */
    bool shared;                 /* this is a channel: the arrays belong to the state it came from */
    uint64_t t;                  /* the last phase number taken */
    uint64_t min_done;           /* every rank's done was at least this when last looked at */
    bool cma_all;                /* every rank can read every other's memory */
    pid_t *pid;                  /* by comm rank */
    int *local;                  /* comm rank -> local rank */
    size_t *cnt, *dsp;           /* n each: the counts and displacements of the call running */
    /* the two-level barrier: groups of ranks, each with a leader */
    int ngroups, *group_of, *leader, *members, nmembers;
    int *group;                  /* the ranks of this rank's group, in rank order (ngroup of them) */
    int ngroup;
    bool groups_ordered;         /* each group is a run of consecutive ranks, in group order */
    int *order;                  /* 0, 1, ... n - 1 */
    void *tmp;                   /* scratch of the collectives, grown on demand */
    size_t tmp_size;
    void *xtmp;                  /* a noncontiguous buffer exposed by address, packed */
    size_t xtmp_size;
    const char *call;            /* the collective running, for hang reports */
    unsigned kind;               /* its number (a post carries it, to catch mismatched calls) */
    struct nb *open;             /* nonblocking operations not finished, in phase order */
    uint64_t open_lo;            /* the first one's phase (UINT64_MAX: none) */
    uint64_t finished;           /* the highest phase this rank finished */
    struct nc_state *next;       /* all live states (freed at MPI_Finalize) */
} nc_state_t;

/* area.c: the lazy set-up (collective over the communicator, on its first
 * eligible call), the free at the communicator's end. */
int nc_setup(nc_state_t *s);
nc_state_t *nc_state_of(dmpi_comm_t *c, const dmpi_coll_table_t *below);
void nc_free(dmpi_comm_t *c);
static inline nc_rank_t *nc_rank(nc_state_t *s, int r) { return &s->ranks[r]; }
static inline nc_post_t *nc_post(nc_state_t *s, int r, uint64_t t) { return &s->ranks[r].post[t % NC_DEPTH]; }
/* Rank r's slot ring, and where its slot exposure of post p lies (the
 * offset rides in the post). */
static inline char *nc_ring(nc_state_t *s, int r) { return s->slots + (size_t)r * s->slot; }
static inline char *nc_slot_of(nc_state_t *s, int r, const nc_post_t *p) { return nc_ring(s, r) + p->addr; }
void *nc_tmp(nc_state_t *s, size_t bytes);
/* Block i of `count` elements of dt in a user buffer (extents apply; a
 * negative displacement passed as size_t comes out right). By integer
 * arithmetic: buf may be MPI_BOTTOM (NULL) with absolute displacements. */
static inline void *nc_block(const void *buf, size_t i, size_t count, const dmpi_dtype_t *dt)
{
    return (void *)((uintptr_t)buf + (uintptr_t)((MPI_Aint)(i * count) * dt->extent));
}
void *nc_xtmp(nc_state_t *s, size_t bytes);
/* A contiguous type's data at buf as packed bytes, and back (reductions
 * fold packed bytes with dmpi_op_apply, which takes typed pointers). */
static inline char *nc_packed(const void *buf, const dmpi_dtype_t *dt) { return (char *)buf + dt->true_lb; }
static inline void *nc_typed(const char *p, const dmpi_dtype_t *dt) { return (void *)(p - dt->true_lb); }

/* phase.c: the moves every collective is made of. */
int nc_mode(const nc_state_t *s, size_t bytes);
/* A piece of a larger call (chain.c, pieces.c: at most a quarter ring,
 * which may exceed the copy limit) always goes through the ring. */
static inline int nc_piece_mode(size_t bytes) { return bytes <= NC_INLINE ? NC_INL : NC_SLOT; }
static inline uint64_t nc_next(nc_state_t *s) { return ++s->t; }
/* Waits until every rank's done >= v. */
void nc_wait_done_all(nc_state_t *s, uint64_t v);
void nc_wait_done(nc_state_t *s, int r, uint64_t v);
/* This rank's post of phase t, once it may be rewritten (every rank's
 * done has reached t - NC_DEPTH, and no operation of this rank's own older
 * than that is open). Set seq last, with nc_publish. nc_slot_begin: the
 * offset in this rank's slot ring of an exposure of `bytes` (at most the
 * slot) in phase t, once every rank is through with what was there. */
typedef struct nc_own_wait { nc_state_t *s; uint64_t before; } nc_own_wait_t;
nc_post_t *nc_post_begin(nc_state_t *s, uint64_t t);
size_t nc_slot_begin(nc_state_t *s, uint64_t t, size_t bytes);
uint64_t nc_slot_need(const nc_state_t *s, size_t bytes);   /* the done it waits for */
static inline void nc_publish(nc_post_t *p, uint64_t t)
{
    atomic_store_explicit(&p->seq, t, memory_order_release);
}
/* This rank's exposure of `bytes` in phase t by mode NC_INL or NC_SLOT:
 * where to write them (the post's line or the slot ring); then
 * nc_publish(*post, t). (Other modes: the post, and NULL.) */
char *nc_expose_begin(nc_state_t *s, uint64_t t, int mode, size_t bytes, nc_post_t **post);
/* Exposes count elements of dt at buf (bytes of them, packed) in phase t,
 * by mode; sets the post. For NC_CMA a noncontiguous buffer is packed into
 * scratch of its own first (nc_xtmp), which lives until the next call. */
int nc_expose(nc_state_t *s, uint64_t t, int mode, const void *buf, size_t count, dmpi_dtype_t *dt, size_t bytes);
/* Waits for rank r's post of phase t and returns it; ends the job if r
 * exposed other than `bytes` or ran another collective. */
nc_post_t *nc_wait_post(nc_state_t *s, int r, uint64_t t, size_t bytes);
/* The same for a post whose size this rank cannot know (alltoallv): only
 * the collective is checked. */
nc_post_t *nc_wait_post_any(nc_state_t *s, int r, uint64_t t);
/* Where one block of a table-led exposure lies (scatterv, alltoallv): an
 * offset from the exposure's start, or an address (by address). */
typedef struct nc_entry { uint64_t at, len; } nc_entry_t;
/* A post's bytes field: the size, and in the top byte the collective. */
#define NC_BYTES_MASK ((1ull << 56) - 1)
static inline uint64_t nc_sig(const nc_state_t *s, size_t bytes) { return (uint64_t)s->kind << 56 | bytes; }
/* Copies bytes [first, first + n) of rank r's exposure in phase t into the
 * packed stream of (dt, base) at dfirst (dt NULL: plain bytes at base). */
int nc_pull(nc_state_t *s, int r, uint64_t t, int mode, size_t first, size_t n, void *base, dmpi_dtype_t *dt,
            size_t dfirst);
/* Phase t finished here: done becomes the highest phase below which
 * everything has finished (an open nonblocking operation holds it back). */
static inline void nc_set_done(nc_state_t *s, uint64_t t)
{
    if (t > s->finished)
        s->finished = t;
    uint64_t d = s->open_lo <= s->finished ? s->open_lo - 1 : s->finished;
    atomic_store_explicit(&nc_rank(s, s->me)->done, d, memory_order_release);
}
/* Waits until *w >= v, naming what it waits for if it takes long. */
void nc_wait_ge(nc_state_t *s, _Atomic uint64_t *w, uint64_t v, const char *flag, int rank);

/* The collectives (one file each family). They return MPI_SUCCESS or an
 * error; they are called only once the area is ready and the sizes fit. */
int nc_barrier(nc_state_t *s);
int nc_bcast(nc_state_t *s, void *buf, size_t count, dmpi_dtype_t *dt, int root, int mode);
/* pieces.c: above the copy limit where single copy is denied. */
int nc_bcast_pieces(nc_state_t *s, void *buf, size_t count, dmpi_dtype_t *dt, int root);
int nc_gather_pieces(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                     dmpi_dtype_t *rdt, int root, bool all);
int nc_scatter_pieces(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                      dmpi_dtype_t *rdt, int root, bool all);
struct dmpi_op;
int nc_allreduce(nc_state_t *s, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, struct dmpi_op *op,
                 int mode);
int nc_reduce(nc_state_t *s, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, struct dmpi_op *op,
              int root, int mode);
enum { NC_RED_REDUCE, NC_RED_SCAN, NC_RED_EXSCAN };
/* chain.c: reduce (root >= 0), scan, exscan above the copy limit, and
 * allreduce above it where single copy is denied. */
int nc_reduce_pieces(nc_state_t *s, int what, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                     struct dmpi_op *op, int root);
int nc_allreduce_pieces(nc_state_t *s, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                        struct dmpi_op *op);
/* pair.c: the same at two ranks by single copy. */
int nc_pair_reduce(nc_state_t *s, int what, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt,
                   struct dmpi_op *op, int root);
int nc_reduce_scatter(nc_state_t *s, const void *sbuf, void *rbuf, const size_t *counts, size_t total,
                      dmpi_dtype_t *dt, struct dmpi_op *op, int mode);
int nc_scan(nc_state_t *s, const void *sbuf, void *rbuf, size_t count, dmpi_dtype_t *dt, struct dmpi_op *op,
            int mode, bool exclusive);
int nc_gather(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
              dmpi_dtype_t *rdt, int root, int mode);
int nc_scatter(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
               dmpi_dtype_t *rdt, int root, int mode);
int nc_allgatherv(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf,
                  const size_t *rcounts, const size_t *displs, dmpi_dtype_t *rdt, int mode);
/* gatherv, scatterv: NC_BELOW when every rank is to run the table below. */
#define NC_BELOW (-1)
int nc_gatherv(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, const MPI_Count *rcounts,
               const MPI_Aint *displs, dmpi_dtype_t *rdt, int root);
int nc_scatterv(nc_state_t *s, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs, dmpi_dtype_t *sdt,
                void *rbuf, size_t rcount, dmpi_dtype_t *rdt, int root);
/* alltoallv.c: NC_BELOW when the call goes to the table below. */
int nc_alltoallv(nc_state_t *s, const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls, dmpi_dtype_t *sdt,
                 void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls, dmpi_dtype_t *rdt);
/* Between two typed buffers of this process, through the packed stream. */
int nc_copy_local(nc_state_t *s, const void *src, size_t scount, dmpi_dtype_t *sdt, void *dst, size_t dcount,
                  dmpi_dtype_t *ddt);
int nc_alltoall(nc_state_t *s, const void *sbuf, size_t scount, dmpi_dtype_t *sdt, void *rbuf, size_t rcount,
                dmpi_dtype_t *rdt, int mode);

/* nonblocking.c: the nonblocking forms within the copy limit. */
enum { NB_BARRIER, NB_BCAST, NB_REDUCE, NB_GATHER, NB_SCATTER, NB_ALLGATHER, NB_ALLTOALL };
typedef struct nc_nb_args {
    int kind, mode, root;        /* root: -1 for Iallreduce */
    const void *sbuf;
    void *rbuf;                  /* Ibcast: the buffer */
    size_t scount, rcount, bytes;   /* bytes: of one block (reductions: of the vector) */
    dmpi_dtype_t *sdt, *rdt;     /* reductions and Ibcast: rdt */
    struct dmpi_op *op;
    bool local_copy;             /* this rank's own block, copied at the start */
    const void *lsrc;
    void *ldst;
    size_t lscount, ldcount;
    dmpi_dtype_t *lsdt, *lddt;
} nc_nb_args_t;
int nc_start(nc_state_t *s, const nc_nb_args_t *a, dmpi_request_t **req);
void nc_open_changed(nc_state_t *s);

#endif
