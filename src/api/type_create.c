/* Derived datatype constructors, int and large-count (_c) forms. Each
 * call has one implementation taking its arguments as MPI_Count in the
 * layout of the _c form (count, block lengths, displacements or stride);
 * the int form widens its arguments into that layout and the engine's one
 * constructor (core/dtype_create.c) reports them as ints or large counts,
 * as the form that made the type. Old types need not be committed. */
#include "api/type_api.h"
#include "api/mpi1.h"
#include "core/dtype_ops.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

DMPI_ALIAS(Type_contiguous)
DMPI_ALIAS(Type_vector)
DMPI_ALIAS(Type_create_hvector)
DMPI_ALIAS(Type_indexed)
DMPI_ALIAS(Type_create_hindexed)
DMPI_ALIAS(Type_create_indexed_block)
DMPI_ALIAS(Type_create_hindexed_block)
DMPI_ALIAS(Type_create_struct)
DMPI_ALIAS(Type_create_resized)
DMPI_ALIAS(Type_dup)
DMPI_ALIAS(Type_contiguous_c)
DMPI_ALIAS(Type_vector_c)
DMPI_ALIAS(Type_create_hvector_c)
DMPI_ALIAS(Type_indexed_c)
DMPI_ALIAS(Type_create_hindexed_c)
DMPI_ALIAS(Type_create_indexed_block_c)
DMPI_ALIAS(Type_create_hindexed_block_c)
DMPI_ALIAS(Type_create_struct_c)
DMPI_ALIAS(Type_create_resized_c)

/* Adds n blocks of bl elements of t to *total; MPI_ERR_ARG when the type
 * would hold more bytes than MPI_Count can count. */
static int add_size(const char *fn, size_t *total, MPI_Count n, MPI_Count bl, const dmpi_dtype_t *t)
{
    size_t b;
    if (__builtin_mul_overflow((size_t)n, (size_t)bl, &b) || __builtin_mul_overflow(b, t->size, &b) ||
        __builtin_add_overflow(*total, b, total) || *total > (size_t)LONG_MAX)
        return dmpi_err(MPI_ERR_ARG, "%s: the new type would hold more than 2^63 bytes", fn);
    return MPI_SUCCESS;
}

/* The checks every constructor of one old type makes. */
static int check_common(const char *fn, MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype,
                        dmpi_dtype_t **old)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_count(fn, count)) ||
        (err = dmpi_type_check(fn, oldtype, "oldtype", old)) || (err = dmpi_check_ptr(fn, newtype, "newtype")))
        return err;
    return MPI_SUCCESS;
}

/* Every block length of an array: not negative, and the total size fits. */
static int check_blocklens(const char *fn, MPI_Count count, const MPI_Count *bls, const dmpi_dtype_t *old)
{
    size_t total = 0;
    int err;
    for (MPI_Count i = 0; i < count; i++)
        if ((err = dmpi_type_check_blocklen(fn, bls[i], i)) || (err = add_size(fn, &total, 1, bls[i], old)))
            return err;
    return MPI_SUCCESS;
}

/* Makes the type from p (the _c layout) and hands out its handle. */
static int build(const char *fn, int combiner, MPI_Count np, const MPI_Count *p, int nt, const MPI_Datatype *types,
                 bool large, MPI_Datatype *newtype)
{
    dmpi_dtype_t *dt;
    int err = dmpi_dtype_make(combiner, np, p, nt, types, large, &dt);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

/* An array argument of either form: int, MPI_Aint or MPI_Count entries. */
typedef struct arr {
    const void *v;
    char kind;                   /* 'i', 'a', 'c' */
} arr_t;
#define ARR_I(x) ((arr_t){(x), 'i'})
#define ARR_A(x) ((arr_t){(x), 'a'})
#define ARR_C(x) ((arr_t){(x), 'c'})

static MPI_Count arr_at(arr_t a, MPI_Count i)
{
    return a.kind == 'i' ? ((const int *)a.v)[i] : a.kind == 'a' ? ((const MPI_Aint *)a.v)[i]
                                                                 : ((const MPI_Count *)a.v)[i];
}

/* head[0..nh), then a[0..n), then b[0..n) if b.v: the _c layout of an
 * indexed-like call. NULL when out of memory. */
static MPI_Count *join(const MPI_Count *head, int nh, arr_t a, arr_t b, MPI_Count n, MPI_Count *np)
{
    *np = nh + n * (b.v ? 2 : 1);
    MPI_Count *p = malloc((size_t)*np * sizeof *p);
    if (!p)
        return NULL;
    for (int i = 0; i < nh; i++)
        p[i] = head[i];
    for (MPI_Count i = 0; i < n; i++) {
        p[nh + i] = arr_at(a, i);
        if (b.v)
            p[nh + n + i] = arr_at(b, i);
    }
    return p;
}

/* The int forms report up to 1 + 2 * count ints (INDEXED), and STRUCT
 * count types in either form: those must fit in an int. */
static int check_count_fits(const char *fn, MPI_Count count, int per_block)
{
    if (count <= (INT_MAX - 2) / per_block)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_COUNT, "%s: count %lld is too large", fn, (long long)count);
}

static int contiguous(const char *fn, MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype, bool large)
{
    dmpi_dtype_t *old = NULL;
    size_t total = 0;
    int err;
    if ((err = check_common(fn, count, oldtype, newtype, &old)) || (err = add_size(fn, &total, count, 1, old)))
        return dmpi_api_error(NULL, fn, err);
    return build(fn, MPI_COMBINER_CONTIGUOUS, 1, &count, 1, &oldtype, large, newtype);
}

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return contiguous("MPI_Type_contiguous", count, oldtype, newtype, false);
}

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return contiguous("MPI_Type_contiguous_c", count, oldtype, newtype, true);
}

/* VECTOR (stride in elements) and HVECTOR (in bytes). */
static int vector(const char *fn, int combiner, MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                  MPI_Datatype oldtype, MPI_Datatype *newtype, bool large)
{
    dmpi_dtype_t *old = NULL;
    size_t total = 0;
    int err;
    if ((err = check_common(fn, count, oldtype, newtype, &old)) ||
        (err = dmpi_type_check_blocklen(fn, blocklength, -1)) || (err = add_size(fn, &total, count, blocklength, old)))
        return dmpi_api_error(NULL, fn, err);
    const MPI_Count p[3] = {count, blocklength, stride};
    return build(fn, combiner, 3, p, 1, &oldtype, large, newtype);
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return vector("MPI_Type_vector", MPI_COMBINER_VECTOR, count, blocklength, stride, oldtype, newtype, false);
}

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return vector("MPI_Type_vector_c", MPI_COMBINER_VECTOR, count, blocklength, stride, oldtype, newtype, true);
}

int dmpi_api_type_create_hvector(const char *fn, int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype)
{
    return vector(fn, MPI_COMBINER_HVECTOR, count, blocklength, stride, oldtype, newtype, false);
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return dmpi_api_type_create_hvector("MPI_Type_create_hvector", count, blocklength, stride, oldtype, newtype);
}

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return vector("MPI_Type_create_hvector_c", MPI_COMBINER_HVECTOR, count, blocklength, stride, oldtype, newtype,
                  true);
}

/* INDEXED, HINDEXED (block lengths bls) and INDEXED_BLOCK, HINDEXED_BLOCK
 * (one block length bl), and STRUCT (types[count] instead of oldtype). */
typedef struct indexed_args {
    int combiner;
    MPI_Count count;
    bool bl_array;               /* block lengths bls[]; else the one block length bl */
    arr_t bls;
    MPI_Count bl;
    arr_t disps;
    const MPI_Datatype *types;   /* STRUCT */
} indexed_args_t;

static int check_struct_types(const char *fn, const indexed_args_t *a)
{
    size_t total = 0;
    int err;
    for (MPI_Count i = 0; i < a->count; i++) {
        dmpi_dtype_t *t;
        char what[48];
        snprintf(what, sizeof what, "array_of_types[%lld]", (long long)i);
        MPI_Count bl = arr_at(a->bls, i);
        if ((err = dmpi_type_check(fn, a->types[i], what, &t)) || (err = dmpi_type_check_blocklen(fn, bl, i)) ||
            (err = add_size(fn, &total, 1, bl, t)))
            return err;
    }
    return MPI_SUCCESS;
}

static int indexed(const char *fn, const indexed_args_t *a, MPI_Datatype oldtype, MPI_Datatype *newtype, bool large)
{
    bool is_struct = a->combiner == MPI_COMBINER_STRUCT;
    dmpi_dtype_t *old = NULL;
    size_t total = 0;
    int err;
    if (is_struct) {
        if (!(err = dmpi_check_init(fn)) && !(err = dmpi_check_count(fn, a->count)))
            err = dmpi_check_ptr(fn, newtype, "newtype");
    } else {
        err = check_common(fn, a->count, oldtype, newtype, &old);
    }
    int per_block = a->combiner == MPI_COMBINER_INDEXED ? 2 : 1;   /* ints the int form reports per block */
    bool counted = large ? is_struct : a->combiner != MPI_COMBINER_HINDEXED_BLOCK;
    if (err || (counted && (err = check_count_fits(fn, a->count, per_block))) ||
        (a->bl_array && (err = dmpi_type_check_array(fn, a->bls.v, a->count, "array_of_blocklengths"))) ||
        (err = dmpi_type_check_array(fn, a->disps.v, a->count, "array_of_displacements")) ||
        (is_struct && (err = dmpi_type_check_array(fn, a->types, a->count, "array_of_types"))))
        return dmpi_api_error(NULL, fn, err);
    if (is_struct)
        err = check_struct_types(fn, a);
    else if (!a->bl_array && !(err = dmpi_type_check_blocklen(fn, a->bl, -1)))
        err = add_size(fn, &total, a->count, a->bl, old);
    if (err)
        return dmpi_api_error(NULL, fn, err);
    MPI_Count np, head[2] = {a->count, a->bl};
    MPI_Count *p = a->bl_array ? join(head, 1, a->bls, a->disps, a->count, &np)
                            : join(head, 2, a->disps, (arr_t){NULL, 0}, a->count, &np);
    if (!p)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for %lld blocks", fn,
                                                 (long long)a->count));
    if (a->bl_array && !is_struct && (err = check_blocklens(fn, a->count, p + 1, old))) {
        free(p);
        return dmpi_api_error(NULL, fn, err);
    }
    err = build(fn, a->combiner, np, p, is_struct ? (int)a->count : 1, is_struct ? a->types : &oldtype, large,
                newtype);
    free(p);
    return err;
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    indexed_args_t a = {MPI_COMBINER_INDEXED, count, true, ARR_I(array_of_blocklengths), 0,
                        ARR_I(array_of_displacements), NULL};
    return indexed("MPI_Type_indexed", &a, oldtype, newtype, false);
}

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    indexed_args_t a = {MPI_COMBINER_INDEXED, count, true, ARR_C(array_of_blocklengths), 0,
                        ARR_C(array_of_displacements), NULL};
    return indexed("MPI_Type_indexed_c", &a, oldtype, newtype, true);
}

int dmpi_api_type_create_hindexed(const char *fn, int count, const int array_of_blocklengths[],
                                  const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    indexed_args_t a = {MPI_COMBINER_HINDEXED, count, true, ARR_I(array_of_blocklengths), 0,
                        ARR_A(array_of_displacements), NULL};
    return indexed(fn, &a, oldtype, newtype, false);
}

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return dmpi_api_type_create_hindexed("MPI_Type_create_hindexed", count, array_of_blocklengths,
                                         array_of_displacements, oldtype, newtype);
}

int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    indexed_args_t a = {MPI_COMBINER_HINDEXED, count, true, ARR_C(array_of_blocklengths), 0,
                        ARR_C(array_of_displacements), NULL};
    return indexed("MPI_Type_create_hindexed_c", &a, oldtype, newtype, true);
}

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    indexed_args_t a = {MPI_COMBINER_INDEXED_BLOCK, count, false,
                        {NULL, 0}, blocklength, ARR_I(array_of_displacements), NULL};
    return indexed("MPI_Type_create_indexed_block", &a, oldtype, newtype, false);
}

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    indexed_args_t a = {MPI_COMBINER_INDEXED_BLOCK, count, false,
                        {NULL, 0}, blocklength, ARR_C(array_of_displacements), NULL};
    return indexed("MPI_Type_create_indexed_block_c", &a, oldtype, newtype, true);
}

int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    indexed_args_t a = {MPI_COMBINER_HINDEXED_BLOCK, count, false, {NULL, 0}, blocklength,
                        ARR_A(array_of_displacements), NULL};
    return indexed("MPI_Type_create_hindexed_block", &a, oldtype, newtype, false);
}

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                      MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    indexed_args_t a = {MPI_COMBINER_HINDEXED_BLOCK, count, false, {NULL, 0}, blocklength,
                        ARR_C(array_of_displacements), NULL};
    return indexed("MPI_Type_create_hindexed_block_c", &a, oldtype, newtype, true);
}

int dmpi_api_type_create_struct(const char *fn, int count, const int array_of_blocklengths[],
                                const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                                MPI_Datatype *newtype)
{
    indexed_args_t a = {MPI_COMBINER_STRUCT, count, true, ARR_I(array_of_blocklengths), 0,
                        ARR_A(array_of_displacements),
                        array_of_types};
    return indexed(fn, &a, MPI_DATATYPE_NULL, newtype, false);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return dmpi_api_type_create_struct("MPI_Type_create_struct", count, array_of_blocklengths, array_of_displacements,
                                       array_of_types, newtype);
}

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                              MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    indexed_args_t a = {MPI_COMBINER_STRUCT, count, true, ARR_C(array_of_blocklengths), 0,
                        ARR_C(array_of_displacements),
                        array_of_types};
    return indexed("MPI_Type_create_struct_c", &a, MPI_DATATYPE_NULL, newtype, true);
}

static int resized(const char *fn, MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype,
                   bool large)
{
    dmpi_dtype_t *old = NULL;
    int err;
    if ((err = check_common(fn, 1, oldtype, newtype, &old)))
        return dmpi_api_error(NULL, fn, err);
    const MPI_Count p[2] = {lb, extent};
    return build(fn, MPI_COMBINER_RESIZED, 2, p, 1, &oldtype, large, newtype);
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return resized("MPI_Type_create_resized", oldtype, lb, extent, newtype, false);
}

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return resized("MPI_Type_create_resized_c", oldtype, lb, extent, newtype, true);
}

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_dup";
    dmpi_dtype_t *old = NULL, *dup;
    int err;
    if ((err = check_common(fn, 1, oldtype, newtype, &old)) || (err = dmpi_dtype_dup(old, &dup))) {
        if (newtype)
            *newtype = MPI_DATATYPE_NULL;   /* e.g. a copy callback failed: nothing was made */
        return dmpi_api_error(NULL, fn, err);
    }
    *newtype = dup->handle;
    return MPI_SUCCESS;
}
