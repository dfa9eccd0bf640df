/* Walks of a type's typemap through the way it was constructed: counting
 * predefined elements (MPI_Get_elements) and visiting every predefined
 * element with its displacement (external32 conversion). The runs of the
 * pack engine have lost the element boundaries; the constructor tree keeps
 * them, at a cost proportional to its description, not to the data. */
#include "core/dtype_internal.h"

/* Number of blocks of a combiner (DUP and friends have one, of inner; so
 * do the f90 types, whose contents hold (p, r), not a count). */
static MPI_Count nblocks(const dmpi_dtype_contents_t *c)
{
    switch (c->combiner) {
    case MPI_COMBINER_CONTIGUOUS:
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
    case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY:
    case MPI_COMBINER_F90_INTEGER:
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
        return 1;
    default:
        return c->p[0];
    }
}

/* Block i: bl copies of *child, the first at *disp (c->p: see core/dmpi.h). */
static void block_at(const dmpi_dtype_contents_t *c, MPI_Count i, MPI_Aint *disp, size_t *bl, dmpi_dtype_t **child)
{
    const MPI_Count *v = c->p;
    *child = c->inner ? c->inner : dmpi_dtype_get(c->types[c->combiner == MPI_COMBINER_STRUCT ? i : 0]);
    MPI_Aint ext = (*child)->extent;
    *disp = 0;
    *bl = 1;
    switch (c->combiner) {
    case MPI_COMBINER_CONTIGUOUS: *bl = (size_t)v[0]; break;
    case MPI_COMBINER_VECTOR: *disp = (MPI_Aint)(i * v[2]) * ext; *bl = (size_t)v[1]; break;
    case MPI_COMBINER_HVECTOR: *disp = (MPI_Aint)(i * v[2]); *bl = (size_t)v[1]; break;
    case MPI_COMBINER_INDEXED: *disp = (MPI_Aint)v[1 + v[0] + i] * ext; *bl = (size_t)v[1 + i]; break;
    case MPI_COMBINER_HINDEXED: *disp = (MPI_Aint)v[1 + v[0] + i]; *bl = (size_t)v[1 + i]; break;
    case MPI_COMBINER_INDEXED_BLOCK: *disp = (MPI_Aint)v[2 + i] * ext; *bl = (size_t)v[1]; break;
    case MPI_COMBINER_HINDEXED_BLOCK: *disp = (MPI_Aint)v[2 + i]; *bl = (size_t)v[1]; break;
    case MPI_COMBINER_STRUCT: *disp = (MPI_Aint)v[1 + v[0] + i]; *bl = (size_t)v[1 + i]; break;
    default: break;
    }
}

/* Whether all blocks have the same length and child (their bytes can be divided). */
static bool uniform(const dmpi_dtype_contents_t *c)
{
    int k = c->combiner;
    return k == MPI_COMBINER_VECTOR || k == MPI_COMBINER_HVECTOR || k == MPI_COMBINER_INDEXED_BLOCK ||
           k == MPI_COMBINER_HINDEXED_BLOCK || nblocks(c) == 1;
}

/* Predefined elements wholly inside the first rem bytes of one element,
 * 0 < rem < size; -1 if rem ends inside one. */
static MPI_Count partial(const dmpi_dtype_t *dt, size_t rem)
{
    if (!dt->contents) {           /* only pair types have parts: value, then index */
        size_t value = dmpi_dtype_pair_value(dt) != MPI_DATATYPE_NULL ? dt->size - sizeof(int) : dt->size / 2;
        return dt->nbasic == 2 && rem == value ? 1 : -1;
    }
    const dmpi_dtype_contents_t *c = dt->contents;
    MPI_Count total = 0, n = nblocks(c), first = 0;
    MPI_Aint disp;
    size_t bl;
    dmpi_dtype_t *child;
    if (uniform(c) && n > 1) {     /* skip whole blocks at once */
        block_at(c, 0, &disp, &bl, &child);
        size_t bytes = bl * child->size;
        first = (MPI_Count)(rem / bytes);
        total = (MPI_Count)first * (MPI_Count)(bl * child->nbasic);
        rem -= (size_t)first * bytes;
    }
    for (MPI_Count i = first; i < n && rem > 0; i++) {
        block_at(c, i, &disp, &bl, &child);
        if (child->size == 0)
            continue;
        size_t whole = rem / child->size;
        if (whole >= bl) {
            total += (MPI_Count)(bl * child->nbasic);
            rem -= bl * child->size;
            continue;
        }
        total += (MPI_Count)(whole * child->nbasic);
        rem -= whole * child->size;
        if (rem == 0)
            break;
        MPI_Count p = partial(child, rem);
        return p < 0 ? -1 : total + p;
    }
    return total;
}

MPI_Count dmpi_dtype_elements(const dmpi_dtype_t *dt, size_t bytes)
{
    if (dt->size == 0)
        return 0;
    MPI_Count total = (MPI_Count)(bytes / dt->size) * (MPI_Count)dt->nbasic;
    size_t rem = bytes % dt->size;
    if (rem == 0)
        return total;
    MPI_Count p = partial(dt, rem);
    return p < 0 ? -1 : total + p;
}

/* Bytes taken by the first k predefined elements of one element, 0 < k < nbasic:
 * partial() backwards. */
static size_t partial_bytes(const dmpi_dtype_t *dt, MPI_Count k)
{
    if (!dt->contents)             /* a pair type: k is 1, the value */
        return dmpi_dtype_pair_value(dt) != MPI_DATATYPE_NULL ? dt->size - sizeof(int) : dt->size / 2;
    const dmpi_dtype_contents_t *c = dt->contents;
    size_t bytes = 0;
    MPI_Count n = nblocks(c), first = 0;
    MPI_Aint disp;
    size_t bl;
    dmpi_dtype_t *child;
    if (uniform(c) && n > 1) {     /* skip whole blocks at once */
        block_at(c, 0, &disp, &bl, &child);
        MPI_Count per = (MPI_Count)(bl * child->nbasic);
        if (per > 0) {
            first = k / per;
            bytes = (size_t)first * bl * child->size;
            k -= (MPI_Count)first * per;
        }
    }
    for (MPI_Count i = first; i < n && k > 0; i++) {
        block_at(c, i, &disp, &bl, &child);
        if (child->nbasic == 0)
            continue;
        MPI_Count whole = k / (MPI_Count)child->nbasic;
        if (whole >= (MPI_Count)bl) {
            bytes += bl * child->size;
            k -= (MPI_Count)(bl * child->nbasic);
            continue;
        }
        bytes += (size_t)whole * child->size;
        k -= whole * (MPI_Count)child->nbasic;
        if (k == 0)
            break;
        return bytes + partial_bytes(child, k);
    }
    return bytes;
}

int dmpi_dtype_elements_bytes(const dmpi_dtype_t *dt, MPI_Count n, size_t *bytes)
{
    *bytes = 0;
    if (dt->nbasic == 0 || n == 0)
        return 0;
    MPI_Count whole = n / (MPI_Count)dt->nbasic, k = n % (MPI_Count)dt->nbasic;
    if ((uint64_t)whole > (uint64_t)INT64_MAX / dt->size)
        return -1;
    uint64_t b = (uint64_t)whole * dt->size;
    size_t part = k ? partial_bytes(dt, k) : 0;
    if (b > (uint64_t)INT64_MAX - part)
        return -1;
    *bytes = (size_t)(b + part);
    return 0;
}

static int walk_one(const dmpi_dtype_t *dt, MPI_Aint at, dmpi_dtype_visit_fn *fn, void *ctx)
{
    if (!dt->contents)
        return dt->size ? fn(ctx, (dmpi_dtype_t *)dt, at, 1) : 0;
    const dmpi_dtype_contents_t *c = dt->contents;
    MPI_Count n = nblocks(c);
    int err;
    for (MPI_Count i = 0; i < n; i++) {
        MPI_Aint disp;
        size_t bl;
        dmpi_dtype_t *child;
        block_at(c, i, &disp, &bl, &child);
        if (!child->contents && child->extent == (MPI_Aint)child->size) {
            if (bl && child->size && (err = fn(ctx, child, at + disp, bl)))
                return err;     /* bl predefined elements back to back */
            continue;
        }
        for (size_t k = 0; k < bl; k++)
            if ((err = walk_one(child, at + disp + (MPI_Aint)k * child->extent, fn, ctx)))
                return err;
    }
    return 0;
}

int dmpi_dtype_walk(const dmpi_dtype_t *dt, size_t count, dmpi_dtype_visit_fn *fn, void *ctx)
{
    int err;
    for (size_t e = 0; e < count; e++)
        if ((err = walk_one(dt, (MPI_Aint)e * dt->extent, fn, ctx)))
            return err;
    return 0;
}
