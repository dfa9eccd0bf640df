#include "p2p/request.h"
#include "p2p/bsend.h"
#include <stdlib.h>
#include <string.h>

/* Handles are MPICH-style "direct" request handles: kind 10, object type
 * 1011 (request), index in the low 26 bits. */
#define REQ_HANDLE_BASE 0xac000000u
#define REQ_HANDLE_MASK 0xfc000000u
#define BLOCK_SHIFT 10
#define BLOCK_SIZE (1 << BLOCK_SHIFT)
#define MAX_BLOCKS (1 << (26 - BLOCK_SHIFT))

static dmpi_request_t **blocks;
static int nblocks;
static int *free_idx;          /* stack of free indices */
static int nfree, free_cap;
static int live;

static int grow(void)
{
    if (nblocks == MAX_BLOCKS)
        return -1;
    if (!blocks && !(blocks = calloc(MAX_BLOCKS, sizeof *blocks)))
        return -1;
    dmpi_request_t *b = calloc(BLOCK_SIZE, sizeof *b);
    if (!b)
        return -1;
    /* The stack must hold every index there will be, all freed at once. */
    int need = (nblocks + 1) * BLOCK_SIZE;
    if (need > free_cap) {
        int cap = free_cap ? free_cap * 2 : BLOCK_SIZE;
        while (cap < need)
            cap *= 2;
        int *n = realloc(free_idx, cap * sizeof *n);
        if (!n) {
            free(b);
            return -1;
        }
        free_idx = n;
        free_cap = cap;
    }
    int base = nblocks << BLOCK_SHIFT;
    blocks[nblocks++] = b;
    for (int i = BLOCK_SIZE - 1; i >= 0; i--)   /* lowest index on top */
        free_idx[nfree++] = base + i;
    return 0;
}

dmpi_request_t *dmpi_req_alloc(int kind)
{
    if (DMPI_UNLIKELY(nfree == 0) && grow() != 0)
        return NULL;
    int idx = free_idx[--nfree];
    dmpi_request_t *r = &blocks[idx >> BLOCK_SHIFT][idx & (BLOCK_SIZE - 1)];
    memset(r, 0, DMPI_REQ_CLEARED);
    r->kind = (uint8_t)kind;
    r->handle = (MPI_Request)(REQ_HANDLE_BASE | (unsigned)idx);
    live++;
    return r;
}

/* A nonblocking collective's copy of an aliased sendbuf (api/coll_alias.c).
 * Only collective requests are asked: a blocking receive's request on the
 * stack (p2p/recv.c) leaves the field unset. */
static inline bool has_coll_copy(const dmpi_request_t *r) { return r->kind == DMPI_REQ_COLL && r->coll_copy; }

static void free_coll_copy(dmpi_request_t *r)
{
    free(r->coll_copy);
    r->coll_copy = NULL;
}

void dmpi_req_free(dmpi_request_t *r)
{
    int idx = (int)((unsigned)r->handle & ~REQ_HANDLE_MASK);
    if (DMPI_UNLIKELY(r->kind == DMPI_REQ_COLL)) {
        if (r->coll_copy)               /* attached after the collective completed */
            free_coll_copy(r);
        if (r->pops)
            r->pops->release(r);
    }
    if (r->dt_held)
        dmpi_dtype_release(r->dt);
    if (r->comm_held)
        dmpi_comm_release(r->comm);
    r->kind = 0;
    free_idx[nfree++] = idx;
    live--;
}

dmpi_request_t *dmpi_req_get(MPI_Request h)
{
    unsigned u = (unsigned)h;
    if ((u & REQ_HANDLE_MASK) != REQ_HANDLE_BASE)
        return NULL;
    unsigned idx = u & ~REQ_HANDLE_MASK;
    if ((idx >> BLOCK_SHIFT) >= (unsigned)nblocks)
        return NULL;
    dmpi_request_t *r = &blocks[idx >> BLOCK_SHIFT][idx & (BLOCK_SIZE - 1)];
    return r->kind ? r : NULL;
}

int dmpi_req_live_count(void) { return live; }

void dmpi_req_pool_finalize(void)
{
    for (int i = 0; i < nblocks; i++) {
        for (int j = 0; j < BLOCK_SIZE; j++)   /* generalized requests the program left behind */
            if (blocks[i][j].kind == DMPI_REQ_GREQ)
                free(blocks[i][j].greq);
        free(blocks[i]);
    }
    free(blocks);
    free(free_idx);
    blocks = NULL;
    free_idx = NULL;
    nblocks = nfree = free_cap = live = 0;
}

/* Completion duties that only some requests have. */
static void finish_buffers(dmpi_request_t *r)
{
    if (r->tmp) {                   /* a send's packed copy */
        free(r->tmp);
        r->tmp = NULL;
    }
    if (r->bsend_region) {
        dmpi_bsend_release(r->bsend_region);
        r->bsend_region = NULL;
    }
}

void dmpi_req_complete(dmpi_request_t *r)
{
    if (DMPI_UNLIKELY(r->tmp || r->bsend_region))
        finish_buffers(r);
    if (DMPI_UNLIKELY(has_coll_copy(r)))     /* the collective has read its last byte of it */
        free_coll_copy(r);
    r->done = 1;
    if (DMPI_UNLIKELY(r->free_on_done) && !r->persistent)
        dmpi_req_free(r);
}

void dmpi_status_set(MPI_Status *st, int source, int tag, int error, size_t bytes, bool cancelled)
{
    st->MPI_SOURCE = source;
    st->MPI_TAG = tag;
    st->MPI_ERROR = error;
    st->count_lo = (int)(uint32_t)(bytes & 0xffffffffu);
    st->count_hi_and_cancelled = (int)(((uint64_t)bytes >> 32) << 1) | (cancelled ? 1 : 0);
}

void dmpi_status_set_bytes(MPI_Status *st, size_t bytes)
{
    st->count_lo = (int)(uint32_t)(bytes & 0xffffffffu);
    st->count_hi_and_cancelled = (int)((((uint64_t)bytes >> 32) << 1) | ((uint32_t)st->count_hi_and_cancelled & 1));
}

void dmpi_status_set_cancelled(MPI_Status *st, bool cancelled)
{
    st->count_hi_and_cancelled = (int)(((uint32_t)st->count_hi_and_cancelled & ~1u) | (cancelled ? 1u : 0u));
}

size_t dmpi_status_bytes(const MPI_Status *st)
{
    uint64_t hi = (uint64_t)(uint32_t)st->count_hi_and_cancelled >> 1;
    return (size_t)((hi << 32) | (uint32_t)st->count_lo);
}

void dmpi_status_empty(MPI_Status *st)
{
    if (st != MPI_STATUS_IGNORE)
        dmpi_status_set(st, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, false);
}

void dmpi_req_fill_status(const dmpi_request_t *r, MPI_Status *st)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    if (r->kind == DMPI_REQ_SEND) {
        /* A send's status carries only the cancelled flag (and error). */
        dmpi_status_set(st, MPI_ANY_SOURCE, MPI_ANY_TAG, r->st_error, 0, r->cancelled);
        return;
    }
    dmpi_status_set(st, r->st_source, r->st_tag, r->st_error, r->st_bytes, r->cancelled);
}
