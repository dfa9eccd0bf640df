/* Derived datatype constructors. Every combiner comes down to a list of
 * blocks (displacement, block length, child type) in typemap order; the
 * builder appends the child's runs for each block, merging runs that
 * continue each other, so a vector of doubles becomes one strided run and
 * a contiguous type one block. Bounds follow MPI's rules (lb/ub from the
 * children's bounds, struct extents rounded up to the data's alignment). */
#include "core/dtype_internal.h"
#include "core/attr.h"
#include <stdlib.h>
#include <string.h>

typedef struct builder {
    dmpi_run_t *runs;
    int n, cap;
    bool oom;
    bool any;                    /* bounds of children without explicit bounds */
    MPI_Aint lb, ub;
    bool many;                   /* explicit bounds (resized children): these win */
    MPI_Aint mlb, mub;
    bool tany;                   /* data seen */
    MPI_Aint tlb, tub;
    size_t size, nbasic, align;
    MPI_Datatype basic;
    bool mixed, bounds_set;
} builder_t;

/* Appends r, or extends the last run when r continues it. */
static void append_run(builder_t *b, dmpi_run_t r)
{
    if (r.count > 1 && r.stride == (MPI_Aint)r.len) {
        r.len *= r.count;       /* back to back: one block */
        r.count = 1;
    }
    if (r.count == 1)
        r.stride = 0;
    if (b->n) {
        dmpi_run_t *l = &b->runs[b->n - 1];
        if (l->count == 1 && r.count == 1 && l->off + (MPI_Aint)l->len == r.off) {
            l->len += r.len;
            return;
        }
        if (l->len == r.len && r.count == 1) {
            if (l->count == 1) {
                l->stride = r.off - l->off;
                l->count = 2;
                return;
            }
            if (r.off == l->off + (MPI_Aint)l->count * l->stride) {
                l->count++;
                return;
            }
        }
        if (l->len == r.len && l->count > 1 && r.stride == l->stride &&
            r.off == l->off + (MPI_Aint)l->count * l->stride) {
            l->count += r.count;
            return;
        }
    }
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 8;
        dmpi_run_t *runs = realloc(b->runs, (size_t)cap * sizeof *runs);
        if (!runs) {
            b->oom = true;
            return;
        }
        b->runs = runs;
        b->cap = cap;
    }
    b->runs[b->n++] = r;
}

static void widen(MPI_Aint *lo, MPI_Aint *hi, bool *any, MPI_Aint a, MPI_Aint z)
{
    if (!*any || a < *lo)
        *lo = a;
    if (!*any || z > *hi)
        *hi = z;
    *any = true;
}

/* bl copies of t, the first at disp, each next one t's extent further. */
static void add_block(builder_t *b, MPI_Aint disp, size_t bl, const dmpi_dtype_t *t)
{
    if (bl == 0)
        return;
    MPI_Aint last = disp + (MPI_Aint)(bl - 1) * t->extent;
    MPI_Aint first_lo = disp < last ? disp : last, last_hi = disp < last ? last : disp;
    /* MPI's lb/ub markers: once a child has explicit bounds, only explicit
     * bounds count */
    if (t->bounds_set)
        widen(&b->mlb, &b->mub, &b->many, first_lo + t->lb, last_hi + t->lb + t->extent);
    else if (t->size > 0)
        widen(&b->lb, &b->ub, &b->any, first_lo + t->lb, last_hi + t->lb + t->extent);
    if (t->size > 0)
        widen(&b->tlb, &b->tub, &b->tany, first_lo + t->true_lb, last_hi + t->true_lb + t->true_extent);
    b->bounds_set |= t->bounds_set;
    b->size += bl * t->size;
    b->nbasic += bl * t->nbasic;
    if (t->align > b->align)
        b->align = t->align;
    if (t->size > 0) {
        if (t->basic == MPI_DATATYPE_NULL || (b->basic != MPI_DATATYPE_NULL && b->basic != t->basic))
            b->mixed = true;
        b->basic = t->basic;
    }
    if (t->size == 0)
        return;
    if (t->contig) {
        append_run(b, (dmpi_run_t){disp + t->true_lb, t->extent, t->size, bl, 0});
        return;
    }
    for (size_t c = 0; c < bl && !b->oom; c++)
        for (int i = 0; i < t->nruns; i++) {
            dmpi_run_t r = t->runs[i];
            r.off += disp + (MPI_Aint)c * t->extent;
            append_run(b, r);
        }
}

/* Walks the blocks of a combiner's arguments into the builder. */
static void add_blocks(builder_t *b, int combiner, const int *ints, const MPI_Aint *aints,
                       dmpi_dtype_t *const *types)
{
    const dmpi_dtype_t *t = types[0];
    MPI_Aint ext = t->extent;
    int count = ints ? ints[0] : 0;
    switch (combiner) {
    case MPI_COMBINER_CONTIGUOUS:
        add_block(b, 0, (size_t)count, t);
        break;
    case MPI_COMBINER_VECTOR:
        for (int i = 0; i < count && !b->oom; i++)
            add_block(b, (MPI_Aint)i * ints[2] * ext, (size_t)ints[1], t);
        break;
    case MPI_COMBINER_HVECTOR:
        for (int i = 0; i < count && !b->oom; i++)
            add_block(b, (MPI_Aint)i * aints[0], (size_t)ints[1], t);
        break;
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < count && !b->oom; i++)
            add_block(b, (MPI_Aint)ints[1 + count + i] * ext, (size_t)ints[1 + i], t);
        break;
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < count && !b->oom; i++)
            add_block(b, aints[i], (size_t)ints[1 + i], t);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        for (int i = 0; i < count && !b->oom; i++)
            add_block(b, (MPI_Aint)ints[2 + i] * ext, (size_t)ints[1], t);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < count && !b->oom; i++)
            add_block(b, aints[i], (size_t)ints[1], t);
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < count && !b->oom; i++)
            add_block(b, aints[i], (size_t)ints[1 + i], types[i]);
        break;
    default:                       /* DUP and RESIZED: the child's layout */
        add_block(b, 0, 1, t);
        break;
    }
}

static void finish_layout(dmpi_dtype_t *dt, builder_t *b, int combiner, const MPI_Aint *aints,
                          const dmpi_dtype_t *child)
{
    dt->runs = b->runs;
    dt->nruns = b->n;
    dt->size = b->size;
    dt->nbasic = b->nbasic;
    dt->align = b->align ? b->align : 1;
    dt->basic = b->mixed ? MPI_DATATYPE_NULL : b->basic;
    dt->true_lb = b->tany ? b->tlb : 0;
    dt->true_extent = b->tany ? b->tub - b->tlb : 0;
    dt->bounds_set = b->bounds_set;
    MPI_Aint lb = b->many ? b->mlb : b->any ? b->lb : 0, ub = b->many ? b->mub : b->any ? b->ub : 0;
    if (combiner == MPI_COMBINER_STRUCT && !b->bounds_set && ub > lb) {
        MPI_Aint a = (MPI_Aint)dt->align, ext = ub - lb;
        ub = lb + (ext + a - 1) / a * a;   /* pad as the C compiler pads a struct */
    }
    if (combiner == MPI_COMBINER_RESIZED) {
        lb = aints[0];
        ub = aints[0] + aints[1];
        dt->bounds_set = true;
    } else if (combiner == MPI_COMBINER_DUP) {
        lb = child->lb;
        ub = child->lb + child->extent;
    }
    dt->lb = lb;
    dt->extent = ub - lb;
    size_t before = 0;
    for (int i = 0; i < dt->nruns; i++) {
        dt->runs[i].before = before;
        before += dt->runs[i].len * dt->runs[i].count;
    }
    dt->contig = dt->size == 0 || (dt->nruns == 1 && dt->runs[0].count == 1 && dt->extent == (MPI_Aint)dt->size);
}

static dmpi_dtype_contents_t *save_contents(int combiner, int nints, const int *ints, int naints,
                                            const MPI_Aint *aints, int ntypes, const MPI_Datatype *types)
{
    dmpi_dtype_contents_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = (dmpi_dtype_contents_t){.combiner = combiner, .nints = nints, .naints = naints, .ntypes = ntypes};
    c->ints = malloc((size_t)(nints ? nints : 1) * sizeof(int));
    c->aints = malloc((size_t)(naints ? naints : 1) * sizeof(MPI_Aint));
    c->types = malloc((size_t)(ntypes ? ntypes : 1) * sizeof(MPI_Datatype));
    if (!c->ints || !c->aints || !c->types) {
        free(c->ints);
        free(c->aints);
        free(c->types);
        free(c);
        return NULL;
    }
    if (nints)
        memcpy(c->ints, ints, (size_t)nints * sizeof(int));
    if (naints)
        memcpy(c->aints, aints, (size_t)naints * sizeof(MPI_Aint));
    if (ntypes)
        memcpy(c->types, types, (size_t)ntypes * sizeof(MPI_Datatype));
    for (int i = 0; i < ntypes; i++)
        dmpi_dtype_retain(dmpi_dtype_get(types[i]));
    return c;
}

static dmpi_dtype_t *new_type(int combiner, int nints, const int *ints, int naints, const MPI_Aint *aints,
                              int ntypes, const MPI_Datatype *types)
{
    dmpi_dtype_t *dt = calloc(1, sizeof *dt);
    if (!dt)
        return NULL;
    dt->refcount = 1;
    if (!(dt->contents = save_contents(combiner, nints, ints, naints, aints, ntypes, types)) ||
        !dmpi_dtype_register(dt)) {
        dmpi_dtype_destroy(dt);
        return NULL;
    }
    return dt;
}

int dmpi_dtype_create(int combiner, int nints, const int *ints, int naints, const MPI_Aint *aints, int ntypes,
                      const MPI_Datatype *types, dmpi_dtype_t **out)
{
    dmpi_dtype_t *stack_children[8] = {NULL}, **children = stack_children;
    if (ntypes > 8 && !(children = malloc((size_t)ntypes * sizeof *children)))
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a datatype");
    for (int i = 0; i < ntypes; i++)
        children[i] = dmpi_dtype_get(types[i]);
    builder_t b = {.basic = MPI_DATATYPE_NULL};
    if (ntypes > 0)
        add_blocks(&b, combiner, nints ? ints : NULL, aints, children);
    dmpi_dtype_t *dt = b.oom ? NULL : new_type(combiner, nints, ints, naints, aints, ntypes, types);
    if (!dt) {
        free(b.runs);
        if (children != stack_children)
            free(children);
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a datatype");
    }
    finish_layout(dt, &b, combiner, aints, children[0]);
    if (combiner == MPI_COMBINER_DUP || combiner == MPI_COMBINER_RESIZED)
        dt->contents->inner = children[0];
    if (combiner == MPI_COMBINER_DUP && children[0]->committed)
        dt->committed = true;   /* a duplicate of a committed type is committed */
    if (children != stack_children)
        free(children);
    *out = dt;
    return MPI_SUCCESS;
}

int dmpi_dtype_create_as(dmpi_dtype_t *inner, int combiner, int nints, const int *ints, int naints,
                         const MPI_Aint *aints, int ntypes, const MPI_Datatype *types, dmpi_dtype_t **out)
{
    MPI_Datatype ih = inner->handle;
    dmpi_dtype_t *dt;
    int err = dmpi_dtype_create(MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &ih, &dt);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_dtype_contents_t *c = save_contents(combiner, nints, ints, naints, aints, ntypes, types);
    if (!c) {
        dmpi_dtype_release(dt);
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a datatype");
    }
    c->inner = inner;
    dmpi_dtype_retain(inner);
    dmpi_dtype_contents_t *dup = dt->contents;
    dt->contents = c;
    dt->committed = false;
    for (int i = 0; i < dup->ntypes; i++)
        dmpi_dtype_release(dmpi_dtype_get(dup->types[i]));
    free(dup->ints);
    free(dup->aints);
    free(dup->types);
    free(dup);
    *out = dt;
    return MPI_SUCCESS;
}

void dmpi_dtype_retain(dmpi_dtype_t *dt)
{
    if (!dt->predefined)
        dt->refcount++;
}

void dmpi_dtype_destroy(dmpi_dtype_t *dt)
{
    dmpi_dtype_contents_t *c = dt->contents;
    if (c) {
        free(c->ints);
        free(c->aints);
        free(c->types);
        free(c);
    }
    while (dt->attrs) {
        dmpi_attr_t *a = dt->attrs;
        dt->attrs = a->next;
        free(a);
    }
    free(dt->runs);
    free(dt);
}

void dmpi_dtype_release(dmpi_dtype_t *dt)
{
    if (dt->predefined || --dt->refcount > 0)
        return;
    if (dt->attrs)                  /* delete callbacks, while the handle is still valid */
        dmpi_attr_delete_all(dt);
    dmpi_dtype_contents_t *c = dt->contents;
    dmpi_dtype_unregister(dt);
    for (int i = 0; c && i < c->ntypes; i++)
        dmpi_dtype_release(dmpi_dtype_get(c->types[i]));
    if (c && c->inner && c->combiner != MPI_COMBINER_DUP && c->combiner != MPI_COMBINER_RESIZED)
        dmpi_dtype_release(c->inner);
    dmpi_dtype_destroy(dt);
}
