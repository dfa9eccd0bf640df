/* Datatypes: the predefined ones (O(1) lookup from the handle) and the
 * pack/unpack of noncontiguous layouts. Each type describes one element as
 * a list of (offset, length) blocks; contiguous types move with memcpy. */
#include "core/dmpi.h"
#include "core/datatype_builtin.h"
#include <string.h>

#define DT_KIND_MASK 0xfc000000u
#define DT_BUILTIN 0x4c000000u
#define DT_DIRECT 0x8c000000u

dmpi_dtype_t dmpi_builtin_dtypes[DMPI_BUILTIN_TYPES];
#define builtins dmpi_builtin_dtypes
_Static_assert(DMPI_BUILTIN_TYPES == DMPI_BUILTIN_MAX, "builtin table size");
static dmpi_block_t builtin_blocks[DMPI_BUILTIN_MAX];

/* The value-and-index pair types of MINLOC/MAXLOC, laid out as the C
 * compiler lays out the matching structs. */
struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct short_int { short v; int i; };
struct long_double_int { long double v; int i; };

#define PAIR(T, VT)                                                         \
    {{0, sizeof(VT)}, {offsetof(struct T, i), sizeof(int)}}, sizeof(VT) + sizeof(int), sizeof(struct T)

static const struct pair_layout {
    dmpi_block_t blocks[2];
    size_t size;
    size_t extent;
    const char *name;
} pair_layouts[] = {
    {PAIR(float_int, float), "MPI_FLOAT_INT"},
    {PAIR(double_int, double), "MPI_DOUBLE_INT"},
    {PAIR(long_int, long), "MPI_LONG_INT"},
    {PAIR(short_int, short), "MPI_SHORT_INT"},
    {PAIR(long_double_int, long double), "MPI_LONG_DOUBLE_INT"},
};
#define NPAIRS (sizeof pair_layouts / sizeof pair_layouts[0])
static dmpi_dtype_t pairs[NPAIRS];
static dmpi_block_t pair_blocks[NPAIRS][2];

static void init_pair(int i)
{
    const struct pair_layout *l = &pair_layouts[i];
    dmpi_dtype_t *t = &pairs[i];
    memcpy(pair_blocks[i], l->blocks, sizeof l->blocks);
    int nb = 2;
    if (pair_blocks[i][0].off + (MPI_Aint)pair_blocks[i][0].len == pair_blocks[i][1].off) {
        pair_blocks[i][0].len += pair_blocks[i][1].len;   /* no gap inside: one block */
        nb = 1;
    }
    *t = (dmpi_dtype_t){.handle = (MPI_Datatype)(DT_DIRECT | (unsigned)i), .size = l->size, .lb = 0,
                        .extent = (MPI_Aint)l->extent, .committed = true, .predefined = true, .nblocks = nb,
                        .blocks = pair_blocks[i], .name = l->name};
    t->contig = nb == 1 && l->size == l->extent;
}

void dmpi_dtype_init(void)
{
    if (pairs[0].handle)
        return;
    for (int i = 0; i < DMPI_BUILTIN_MAX; i++) {
        unsigned h = dmpi_builtin_types[i].handle;
        if (!h)
            continue;
        size_t size = (h >> 8) & 0xff;
        builtin_blocks[i] = (dmpi_block_t){0, size};
        builtins[i] = (dmpi_dtype_t){.handle = (MPI_Datatype)h, .size = size, .lb = 0, .extent = (MPI_Aint)size,
                                     .contig = true, .committed = true, .predefined = true, .nblocks = 1,
                                     .blocks = &builtin_blocks[i], .name = dmpi_builtin_types[i].name};
    }
    for (size_t i = 0; i < NPAIRS; i++)
        init_pair((int)i);
}

/* Everything but an initialized predefined type (see dmpi_dtype_get). */
dmpi_dtype_t *dmpi_dtype_get_slow(MPI_Datatype h)
{
    unsigned u = (unsigned)h;
    dmpi_dtype_init();              /* types may be asked for before MPI_Init */
    if ((u & DT_KIND_MASK) == DT_BUILTIN) {
        unsigned i = u & 0xff;
        return i < DMPI_BUILTIN_MAX && dmpi_builtin_types[i].handle == u ? &builtins[i] : NULL;
    }
    if ((u & DT_KIND_MASK) == DT_DIRECT && (u & ~DT_KIND_MASK) < NPAIRS)
        return &pairs[u & ~DT_KIND_MASK];
    return NULL;
}

void dmpi_dtype_pack(const dmpi_dtype_t *dt, size_t count, const void *src, void *dst)
{
    char *d = dst;
    const char *s = src;
    if (dt->contig) {
        if (count && dt->size)
            memcpy(d, s + dt->lb, count * dt->size);
        return;
    }
    for (size_t e = 0; e < count; e++, s += dt->extent)
        for (int b = 0; b < dt->nblocks; b++) {
            memcpy(d, s + dt->blocks[b].off, dt->blocks[b].len);
            d += dt->blocks[b].len;
        }
}

void dmpi_dtype_unpack(const dmpi_dtype_t *dt, size_t count, const void *src, void *dst, size_t bytes)
{
    const char *s = src;
    char *d = dst;
    if (dt->contig) {
        size_t n = count * dt->size;
        if (bytes && n)
            memcpy(d + dt->lb, s, bytes < n ? bytes : n);
        return;
    }
    for (size_t e = 0; e < count && bytes > 0; e++, d += dt->extent)
        for (int b = 0; b < dt->nblocks && bytes > 0; b++) {
            size_t n = dt->blocks[b].len < bytes ? dt->blocks[b].len : bytes;
            memcpy(d + dt->blocks[b].off, s, n);
            s += n;
            bytes -= n;
        }
}
