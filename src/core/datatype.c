/* Datatype handles: the predefined types (O(1) lookup from the handle), the
 * MINLOC/MAXLOC pair types, and the table of derived types. */
#include "core/dmpi.h"
#include "core/datatype_builtin.h"
#include "core/dtype_internal.h"
#include "core/objtable.h"
#include <stdio.h>
#include <string.h>

#define DT_KIND_MASK 0xfc000000u
#define DT_BUILTIN 0x4c000000u
#define DT_DIRECT 0x8c000000u
#define DT_DERIVED 0xcc000000u

dmpi_dtype_t dmpi_builtin_dtypes[DMPI_BUILTIN_TYPES];
#define builtins dmpi_builtin_dtypes
_Static_assert(DMPI_BUILTIN_TYPES == DMPI_BUILTIN_MAX, "builtin table size");
static dmpi_run_t builtin_runs[DMPI_BUILTIN_MAX];

/* Derived types: MPICH-style indirect handles 0xcc000000 | index. */
static dmpi_objtable_t derived = {.base = DT_DERIVED};

/* The value-and-index pair types of MINLOC/MAXLOC, laid out as the C
 * compiler lays out the matching structs. */
struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct short_int { short v; int i; };
struct long_double_int { long double v; int i; };

#define PAIR(T, VT, VH)                                                              \
    {{0, 0, sizeof(VT), 1, 0}, {offsetof(struct T, i), 0, sizeof(int), 1, sizeof(VT)}},  \
        sizeof(VT) + sizeof(int), sizeof(struct T), _Alignof(struct T), VH

static const struct pair_layout {
    dmpi_run_t runs[2];
    size_t size;
    size_t extent;
    size_t align;
    MPI_Datatype value;          /* type of the value part */
    const char *name;
} pair_layouts[] = {
    {PAIR(float_int, float, MPI_FLOAT), "MPI_FLOAT_INT"},
    {PAIR(double_int, double, MPI_DOUBLE), "MPI_DOUBLE_INT"},
    {PAIR(long_int, long, MPI_LONG), "MPI_LONG_INT"},
    {PAIR(short_int, short, MPI_SHORT), "MPI_SHORT_INT"},
    {PAIR(long_double_int, long double, MPI_LONG_DOUBLE), "MPI_LONG_DOUBLE_INT"},
};
#define NPAIRS (sizeof pair_layouts / sizeof pair_layouts[0])
static dmpi_dtype_t pairs[NPAIRS];
static dmpi_run_t pair_runs[NPAIRS][2];

static void init_pair(int i)
{
    const struct pair_layout *l = &pair_layouts[i];
    dmpi_dtype_t *t = &pairs[i];
    memcpy(pair_runs[i], l->runs, sizeof l->runs);
    int nr = 2;
    if (pair_runs[i][0].off + (MPI_Aint)pair_runs[i][0].len == pair_runs[i][1].off) {
        pair_runs[i][0].len += pair_runs[i][1].len;   /* no gap inside: one run */
        nr = 1;
    }
    *t = (dmpi_dtype_t){.handle = (MPI_Datatype)(DT_DIRECT | (unsigned)i), .size = l->size, .lb = 0,
                        .extent = (MPI_Aint)l->extent, .true_lb = 0, .true_extent = (MPI_Aint)l->extent,
                        .committed = true, .predefined = true, .nruns = nr, .runs = pair_runs[i],
                        .basic = t->handle, .nbasic = 2, .align = l->align, .refcount = 1};
    t->basic = t->handle;
    t->true_extent = pair_runs[i][nr - 1].off + (MPI_Aint)pair_runs[i][nr - 1].len;
    t->contig = nr == 1 && l->size == l->extent;
    snprintf(t->name, sizeof t->name, "%s", l->name);
}

/* Largest alignment a predefined type of this size needs on x86_64. */
_Static_assert(_Alignof(float _Complex) == 4 && _Alignof(double _Complex) == 8 &&
                   _Alignof(long double _Complex) == 16 && _Alignof(long double) == 16 && _Alignof(_Bool) == 1,
               "C alignments the predefined types assume");
static size_t builtin_align(size_t size)
{
    size_t a = 1;
    while (a < size && a < 16)
        a *= 2;
    return size ? a : 1;
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
        builtin_runs[i] = (dmpi_run_t){0, 0, size, 1, 0};
        builtins[i] = (dmpi_dtype_t){.handle = (MPI_Datatype)h, .size = size, .lb = 0, .extent = (MPI_Aint)size,
                                     .true_lb = 0, .true_extent = (MPI_Aint)size, .contig = true,
                                     .committed = true, .predefined = true, .nruns = size ? 1 : 0,
                                     .runs = &builtin_runs[i], .basic = (MPI_Datatype)h,
                                     .nbasic = size ? 1 : 0, .align = builtin_align(size), .refcount = 1};
        snprintf(builtins[i].name, sizeof builtins[i].name, "%s", dmpi_builtin_types[i].name);
    }
    /* A complex number is aligned as its parts are (C's float _Complex to 4
     * bytes, not 8), so a struct's padding matches the C compiler's. */
    static const MPI_Datatype complexes[] = {
        MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_CXX_FLOAT_COMPLEX,
        MPI_CXX_DOUBLE_COMPLEX, MPI_CXX_LONG_DOUBLE_COMPLEX, MPI_COMPLEX, MPI_DOUBLE_COMPLEX,
        MPI_COMPLEX4, MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
    for (size_t i = 0; i < sizeof complexes / sizeof complexes[0]; i++) {
        dmpi_dtype_t *t = &builtins[(unsigned)complexes[i] & 0xff];
        t->align = builtin_align(t->size / 2);
    }
    /* Composite predefined types count their parts (MPI_Get_elements). */
    static const MPI_Datatype twos[] = {MPI_2INT, MPI_2INTEGER, MPI_2REAL, MPI_2DOUBLE_PRECISION};
    for (size_t i = 0; i < sizeof twos / sizeof twos[0]; i++) {
        dmpi_dtype_t *t = &builtins[(unsigned)twos[i] & 0xff];
        t->nbasic = 2;
        t->align = t->size / 2;
    }
    for (size_t i = 0; i < NPAIRS; i++)
        init_pair((int)i);
}

const char *dmpi_dtype_describe(const dmpi_dtype_t *dt, char *buf, size_t len)
{
    /* the constructor names, as in MPI_Type_<name> / MPI_Type_create_<name> */
    static const char *const combiner[] = {
        [MPI_COMBINER_DUP] = "dup",
        [MPI_COMBINER_CONTIGUOUS] = "contiguous",
        [MPI_COMBINER_VECTOR] = "vector",
        [MPI_COMBINER_HVECTOR_INTEGER] = "hvector",
        [MPI_COMBINER_HVECTOR] = "hvector",
        [MPI_COMBINER_INDEXED] = "indexed",
        [MPI_COMBINER_HINDEXED_INTEGER] = "hindexed",
        [MPI_COMBINER_HINDEXED] = "hindexed",
        [MPI_COMBINER_INDEXED_BLOCK] = "indexed_block",
        [MPI_COMBINER_HINDEXED_BLOCK] = "hindexed_block",
        [MPI_COMBINER_STRUCT_INTEGER] = "struct",
        [MPI_COMBINER_STRUCT] = "struct",
        [MPI_COMBINER_SUBARRAY] = "subarray",
        [MPI_COMBINER_DARRAY] = "darray",
        [MPI_COMBINER_F90_REAL] = "f90_real",
        [MPI_COMBINER_F90_COMPLEX] = "f90_complex",
        [MPI_COMBINER_F90_INTEGER] = "f90_integer",
        [MPI_COMBINER_RESIZED] = "resized",
    };
    if (dt->name[0]) {
        snprintf(buf, len, "%s", dt->name);
        return buf;
    }
    int c = dt->contents ? dt->contents->combiner : MPI_COMBINER_NAMED;
    const char *kind = c >= 0 && c < (int)(sizeof combiner / sizeof combiner[0]) ? combiner[c] : NULL;
    if (!dt->contents)
        snprintf(buf, len, "0x%x (a predefined type, no name)", (unsigned)dt->handle);
    else if (dt->predefined && kind)       /* MPI_Type_create_f90_* */
        snprintf(buf, len, "0x%x (a predefined %s type, no name)", (unsigned)dt->handle, kind);
    else if (kind)
        snprintf(buf, len, "0x%x (a derived %s type, no name)", (unsigned)dt->handle, kind);
    else
        snprintf(buf, len, "0x%x (a derived type, no name)", (unsigned)dt->handle);
    return buf;
}

/* The predefined type of the value in a pair type (its first part). */
MPI_Datatype dmpi_dtype_pair_value(const dmpi_dtype_t *pair)
{
    unsigned u = (unsigned)pair->handle;
    if ((u & DT_KIND_MASK) == DT_DIRECT && (u & ~DT_KIND_MASK) < NPAIRS)
        return pair_layouts[u & ~DT_KIND_MASK].value;
    return MPI_DATATYPE_NULL;
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
    if ((u & DT_KIND_MASK) == DT_DERIVED)
        return dmpi_obj_get(&derived, u);
    return NULL;
}

/* Gives a new derived type its handle; false when out of handles. */
bool dmpi_dtype_register(dmpi_dtype_t *dt)
{
    uint32_t h = dmpi_obj_add(&derived, dt);
    dt->handle = (MPI_Datatype)h;
    return h != 0;
}

void dmpi_dtype_unregister(dmpi_dtype_t *dt) { dmpi_obj_remove(&derived, (uint32_t)dt->handle); }

/* At MPI_Finalize: the types the program did not free go too. */
void dmpi_dtype_finalize(void)
{
    for (int i = 0; i < derived.cap; i++)
        if (derived.slot[i])
            dmpi_dtype_destroy(derived.slot[i]);
    dmpi_obj_clear(&derived);
}
