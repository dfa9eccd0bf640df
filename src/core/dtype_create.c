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
        if (l->len == r.len && l->count == 1 && r.count > 1 && r.off - l->off == r.stride) {
            l->stride = r.stride;
            l->count = 1 + r.count;
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

/* n blocks of bl copies of t, block i at i * stride bytes. A contiguous t
 * makes them one strided run: the first and last block give the bounds,
 * the ones between are counted at once (a vector of 2^32 blocks costs what
 * a vector of 3 does). */
static void add_strided(builder_t *b, MPI_Count n, MPI_Aint stride, size_t bl, const dmpi_dtype_t *t)
{
    if (n <= 3 || bl == 0 || t->size == 0 || !t->contig || (MPI_Aint)t->size != t->extent) {
        for (MPI_Count i = 0; i < n && !b->oom; i++)
            add_block(b, (MPI_Aint)i * stride, bl, t);
        return;
    }
    add_block(b, 0, bl, t);
    size_t mid = (size_t)n - 2;
    append_run(b, (dmpi_run_t){stride + t->true_lb, stride, bl * t->size, mid, 0});
    b->size += mid * bl * t->size;
    b->nbasic += mid * bl * t->nbasic;
    add_block(b, (MPI_Aint)(n - 1) * stride, bl, t);
}

/* Walks the blocks of a combiner's arguments (p, see dmpi_dtype_contents_t) into the builder. */
static void add_blocks(builder_t *b, int combiner, const MPI_Count *p, dmpi_dtype_t *const *types)
{
    const dmpi_dtype_t *t = types[0];
    MPI_Aint ext = t->extent;
    MPI_Count count = combiner == MPI_COMBINER_RESIZED || combiner == MPI_COMBINER_DUP ? 1 : p[0];
    const MPI_Count *bls = p + 1, *disps = p + 1 + count;
    switch (combiner) {
    case MPI_COMBINER_CONTIGUOUS:
        add_block(b, 0, (size_t)count, t);
        break;
    case MPI_COMBINER_VECTOR:
        add_strided(b, count, (MPI_Aint)p[2] * ext, (size_t)p[1], t);
        break;
    case MPI_COMBINER_HVECTOR:
        add_strided(b, count, (MPI_Aint)p[2], (size_t)p[1], t);
        break;
    case MPI_COMBINER_INDEXED:
        for (MPI_Count i = 0; i < count && !b->oom; i++)
            add_block(b, (MPI_Aint)disps[i] * ext, (size_t)bls[i], t);
        break;
    case MPI_COMBINER_HINDEXED:
        for (MPI_Count i = 0; i < count && !b->oom; i++)
            add_block(b, (MPI_Aint)disps[i], (size_t)bls[i], t);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        for (MPI_Count i = 0; i < count && !b->oom; i++)
            add_block(b, (MPI_Aint)p[2 + i] * ext, (size_t)p[1], t);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (MPI_Count i = 0; i < count && !b->oom; i++)
            add_block(b, (MPI_Aint)p[2 + i], (size_t)p[1], t);
        break;
    case MPI_COMBINER_STRUCT:
        for (MPI_Count i = 0; i < count && !b->oom; i++)
            add_block(b, (MPI_Aint)disps[i], (size_t)bls[i], types[i]);
        break;
    default:                       /* DUP and RESIZED: the child's layout */
        add_block(b, 0, 1, t);
        break;
    }
}

static void finish_layout(dmpi_dtype_t *dt, builder_t *b, int combiner, const MPI_Count *p,
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
        lb = (MPI_Aint)p[0];
        ub = (MPI_Aint)(p[0] + p[1]);
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

static void free_contents(dmpi_dtype_contents_t *c)
{
    if (!c)
        return;
    free(c->ints);
    free(c->aints);
    free(c->large);
    free(c->types);
    free(c->p);
    free(c);
}

/* A copy of n elements of size sz (a block even for n == 0); false when out of memory. */
static bool copy_array(void *dst, const void *src, MPI_Count n, size_t sz)
{
    void *a = malloc((size_t)(n ? n : 1) * sz);
    if (a && n)
        memcpy(a, src, (size_t)n * sz);
    *(void **)dst = a;
    return a != NULL;
}

static dmpi_dtype_contents_t *save_contents(int combiner, const dmpi_dtype_args_t *a)
{
    dmpi_dtype_contents_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = (dmpi_dtype_contents_t){.combiner = combiner, .nints = a->nints, .naints = a->naints,
                                 .nlarge = a->nlarge, .ntypes = a->ntypes};
    if (!copy_array(&c->ints, a->ints, a->nints, sizeof(int)) ||
        !copy_array(&c->aints, a->aints, a->naints, sizeof(MPI_Aint)) ||
        !copy_array(&c->large, a->large, a->nlarge, sizeof(MPI_Count)) ||
        !copy_array(&c->types, a->types, a->ntypes, sizeof(MPI_Datatype))) {
        free_contents(c);
        return NULL;
    }
    for (int i = 0; i < a->ntypes; i++)
        dmpi_dtype_retain(dmpi_dtype_get(a->types[i]));
    return c;
}

static dmpi_dtype_t *new_type(int combiner, const dmpi_dtype_args_t *a, MPI_Count np, const MPI_Count *p)
{
    dmpi_dtype_t *dt = calloc(1, sizeof *dt);
    if (!dt)
        return NULL;
    dt->refcount = 1;
    if (!(dt->contents = save_contents(combiner, a)) || !copy_array(&dt->contents->p, p, np, sizeof *p) ||
        !dmpi_dtype_register(dt)) {
        dmpi_dtype_destroy(dt);
        return NULL;
    }
    return dt;
}

/* How many of a combiner's arguments the int forms take as ints (the
 * rest are MPI_Aint): count and block lengths, and the displacements of
 * the element-strided combiners. */
static MPI_Count int_args(int combiner, MPI_Count np, const MPI_Count *p)
{
    switch (combiner) {
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_HINDEXED_BLOCK:
        return 2;
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_STRUCT:
        return 1 + p[0];
    case MPI_COMBINER_RESIZED:
        return 0;
    default:
        return np;
    }
}

int dmpi_dtype_make(int combiner, MPI_Count np, const MPI_Count *p, int ntypes, const MPI_Datatype *types,
                    bool large, dmpi_dtype_t **out)
{
    dmpi_dtype_t *stack_children[8] = {NULL}, **children = stack_children;
    dmpi_dtype_args_t a = {.ntypes = ntypes, .types = types};
    int *ints = NULL;
    MPI_Aint *aints = NULL;
    if (large) {
        a.nlarge = np;
        a.large = p;
    } else {                       /* the int form: its ints, then its addresses */
        MPI_Count ni = int_args(combiner, np, p);
        a.nints = (int)ni;
        a.naints = (int)(np - ni);
        ints = malloc((size_t)(ni ? ni : 1) * sizeof *ints);
        aints = malloc((size_t)(np - ni ? np - ni : 1) * sizeof *aints);
        if (!ints || !aints) {
            free(ints);
            free(aints);
            return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a datatype");
        }
        for (MPI_Count i = 0; i < np; i++) {
            if (i < ni)
                ints[i] = (int)p[i];
            else
                aints[i - ni] = (MPI_Aint)p[i];
        }
        a.ints = ints;
        a.aints = aints;
    }
    int err = MPI_SUCCESS;
    if (ntypes > 8 && !(children = malloc((size_t)ntypes * sizeof *children)))
        err = dmpi_err(MPI_ERR_NO_MEM, "out of memory for a datatype");
    for (int i = 0; err == MPI_SUCCESS && i < ntypes; i++)
        children[i] = dmpi_dtype_get(types[i]);
    builder_t b = {.basic = MPI_DATATYPE_NULL};
    if (err == MPI_SUCCESS && ntypes > 0)
        add_blocks(&b, combiner, p, children);
    dmpi_dtype_t *dt = err || b.oom ? NULL : new_type(combiner, &a, np, p);
    free(ints);
    free(aints);
    if (!dt) {
        free(b.runs);
        if (children != stack_children)
            free(children);
        return err ? err : dmpi_err(MPI_ERR_NO_MEM, "out of memory for a datatype");
    }
    finish_layout(dt, &b, combiner, p, children[0]);
    if (combiner == MPI_COMBINER_DUP || combiner == MPI_COMBINER_RESIZED)
        dt->contents->inner = children[0];
    if (combiner == MPI_COMBINER_DUP && children[0]->committed)
        dt->committed = true;   /* a duplicate of a committed type is committed */
    if (children != stack_children)
        free(children);
    *out = dt;
    return MPI_SUCCESS;
}

int dmpi_dtype_create(int combiner, int nints, const int *ints, int naints, const MPI_Aint *aints, int ntypes,
                      const MPI_Datatype *types, dmpi_dtype_t **out)
{
    MPI_Count stack[8], *p = stack;
    int np = nints + naints;
    if (np > 8 && !(p = malloc((size_t)np * sizeof *p)))
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a datatype");
    for (int i = 0; i < nints; i++)
        p[i] = ints[i];
    for (int i = 0; i < naints; i++)
        p[nints + i] = aints[i];
    int err = dmpi_dtype_make(combiner, np, p, ntypes, types, false, out);
    if (p != stack)
        free(p);
    return err;
}

int dmpi_dtype_create_as(dmpi_dtype_t *inner, int combiner, const dmpi_dtype_args_t *a, dmpi_dtype_t **out)
{
    MPI_Datatype ih = inner->handle;
    dmpi_dtype_t *dt;
    int err = dmpi_dtype_create(MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &ih, &dt);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_dtype_contents_t *c = save_contents(combiner, a);
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
    free_contents(dup);
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
    free_contents(dt->contents);
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
