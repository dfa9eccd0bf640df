/* Derived datatype constructors. Each checks its arguments, lays them out
 * as the arrays MPI_Type_get_contents will report, and calls the engine's
 * one constructor (core/dtype_create.c). Old types need not be committed. */
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

/* Adds n blocks of bl elements of t to *total; MPI_ERR_ARG when the type
 * would hold more bytes than MPI_Count can count. */
static int add_size(const char *fn, size_t *total, int n, int bl, const dmpi_dtype_t *t)
{
    size_t b;
    if (__builtin_mul_overflow((size_t)n, (size_t)bl, &b) || __builtin_mul_overflow(b, t->size, &b) ||
        __builtin_add_overflow(*total, b, total) || *total > (size_t)LONG_MAX)
        return dmpi_err(MPI_ERR_ARG, "%s: the new type would hold more than 2^63 bytes", fn);
    return MPI_SUCCESS;
}

/* The checks every constructor of one old type makes. */
static int check_common(const char *fn, int count, MPI_Datatype oldtype, MPI_Datatype *newtype, dmpi_dtype_t **old)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_count(fn, count)) ||
        (err = dmpi_type_check(fn, oldtype, "oldtype", old)) || (err = dmpi_check_ptr(fn, newtype, "newtype")))
        return err;
    return MPI_SUCCESS;
}

/* Every block length of an array: not negative, and the total size fits. */
static int check_blocklens(const char *fn, int count, const int *bls, const dmpi_dtype_t *old)
{
    size_t total = 0;
    int err;
    for (int i = 0; i < count; i++)
        if ((err = dmpi_type_check_blocklen(fn, bls[i], i)) || (err = add_size(fn, &total, 1, bls[i], old)))
            return err;
    return MPI_SUCCESS;
}

/* Makes the type and hands out its handle. */
static int build(const char *fn, int combiner, int ni, const int *ints, int na, const MPI_Aint *aints, int nt,
                 const MPI_Datatype *types, MPI_Datatype *newtype)
{
    dmpi_dtype_t *dt;
    int err = dmpi_dtype_create(combiner, ni, ints, na, aints, nt, types, &dt);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

/* The ints of INDEXED-like contents: head[0..nh), then a[0..n), then b[0..n)
 * if b is given. NULL when out of memory. */
static int *join_ints(const int *head, int nh, const int *a, const int *b, int n)
{
    int *v = malloc(((size_t)nh + (size_t)n * (b ? 2 : 1)) * sizeof *v);
    if (!v)
        return NULL;
    for (int i = 0; i < nh; i++)
        v[i] = head[i];
    for (int i = 0; i < n; i++) {
        v[nh + i] = a[i];
        if (b)
            v[nh + n + i] = b[i];
    }
    return v;
}

static int build_joined(const char *fn, int combiner, const int *head, int nh, const int *a, const int *b, int n,
                        int na, const MPI_Aint *aints, int nt, const MPI_Datatype *types, MPI_Datatype *newtype)
{
    int *ints = join_ints(head, nh, a, b, n);
    if (!ints)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for %d blocks", fn, n));
    int err = build(fn, combiner, nh + n * (b ? 2 : 1), ints, na, aints, nt, types, newtype);
    free(ints);
    return err;
}

/* get_envelope reports 1 + 2 * count ints for INDEXED: that must fit in an int. */
static int check_count_fits(const char *fn, int count, int per_block)
{
    if (count <= (INT_MAX - 2) / per_block)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_COUNT, "%s: count %d is too large", fn, count);
}

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_contiguous";
    dmpi_dtype_t *old = NULL;
    size_t total = 0;
    int err;
    if ((err = check_common(fn, count, oldtype, newtype, &old)) || (err = add_size(fn, &total, count, 1, old)))
        return dmpi_api_error(NULL, fn, err);
    return build(fn, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1, &oldtype, newtype);
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_vector";
    dmpi_dtype_t *old = NULL;
    size_t total = 0;
    int err;
    if ((err = check_common(fn, count, oldtype, newtype, &old)) ||
        (err = dmpi_type_check_blocklen(fn, blocklength, -1)) || (err = add_size(fn, &total, count, blocklength, old)))
        return dmpi_api_error(NULL, fn, err);
    const int ints[3] = {count, blocklength, stride};
    return build(fn, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &oldtype, newtype);
}

int dmpi_api_type_create_hvector(const char *fn, int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype)
{
    dmpi_dtype_t *old = NULL;
    size_t total = 0;
    int err;
    if ((err = check_common(fn, count, oldtype, newtype, &old)) ||
        (err = dmpi_type_check_blocklen(fn, blocklength, -1)) || (err = add_size(fn, &total, count, blocklength, old)))
        return dmpi_api_error(NULL, fn, err);
    const int ints[2] = {count, blocklength};
    return build(fn, MPI_COMBINER_HVECTOR, 2, ints, 1, &stride, 1, &oldtype, newtype);
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return dmpi_api_type_create_hvector("MPI_Type_create_hvector", count, blocklength, stride, oldtype, newtype);
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_indexed";
    dmpi_dtype_t *old = NULL;
    int err;
    if ((err = check_common(fn, count, oldtype, newtype, &old)) || (err = check_count_fits(fn, count, 2)) ||
        (err = dmpi_type_check_array(fn, array_of_blocklengths, count, "array_of_blocklengths")) ||
        (err = dmpi_type_check_array(fn, array_of_displacements, count, "array_of_displacements")) ||
        (err = check_blocklens(fn, count, array_of_blocklengths, old)))
        return dmpi_api_error(NULL, fn, err);
    return build_joined(fn, MPI_COMBINER_INDEXED, &count, 1, array_of_blocklengths, array_of_displacements, count, 0,
                        NULL, 1, &oldtype, newtype);
}

int dmpi_api_type_create_hindexed(const char *fn, int count, const int array_of_blocklengths[],
                                  const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    dmpi_dtype_t *old = NULL;
    int err;
    if ((err = check_common(fn, count, oldtype, newtype, &old)) || (err = check_count_fits(fn, count, 1)) ||
        (err = dmpi_type_check_array(fn, array_of_blocklengths, count, "array_of_blocklengths")) ||
        (err = dmpi_type_check_array(fn, array_of_displacements, count, "array_of_displacements")) ||
        (err = check_blocklens(fn, count, array_of_blocklengths, old)))
        return dmpi_api_error(NULL, fn, err);
    return build_joined(fn, MPI_COMBINER_HINDEXED, &count, 1, array_of_blocklengths, NULL, count, count,
                        array_of_displacements, 1, &oldtype, newtype);
}

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return dmpi_api_type_create_hindexed("MPI_Type_create_hindexed", count, array_of_blocklengths,
                                         array_of_displacements, oldtype, newtype);
}

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_create_indexed_block";
    dmpi_dtype_t *old = NULL;
    size_t total = 0;
    int err;
    if ((err = check_common(fn, count, oldtype, newtype, &old)) || (err = check_count_fits(fn, count, 1)) ||
        (err = dmpi_type_check_blocklen(fn, blocklength, -1)) ||
        (err = dmpi_type_check_array(fn, array_of_displacements, count, "array_of_displacements")) ||
        (err = add_size(fn, &total, count, blocklength, old)))
        return dmpi_api_error(NULL, fn, err);
    const int head[2] = {count, blocklength};
    return build_joined(fn, MPI_COMBINER_INDEXED_BLOCK, head, 2, array_of_displacements, NULL, count, 0, NULL, 1,
                        &oldtype, newtype);
}

int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_create_hindexed_block";
    dmpi_dtype_t *old = NULL;
    size_t total = 0;
    int err;
    if ((err = check_common(fn, count, oldtype, newtype, &old)) ||
        (err = dmpi_type_check_blocklen(fn, blocklength, -1)) ||
        (err = dmpi_type_check_array(fn, array_of_displacements, count, "array_of_displacements")) ||
        (err = add_size(fn, &total, count, blocklength, old)))
        return dmpi_api_error(NULL, fn, err);
    const int ints[2] = {count, blocklength};
    return build(fn, MPI_COMBINER_HINDEXED_BLOCK, 2, ints, count, array_of_displacements, 1, &oldtype, newtype);
}

int dmpi_api_type_create_struct(const char *fn, int count, const int array_of_blocklengths[],
                                const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                                MPI_Datatype *newtype)
{
    size_t total = 0;
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_count(fn, count)) || (err = check_count_fits(fn, count, 1)) ||
        (err = dmpi_type_check_array(fn, array_of_blocklengths, count, "array_of_blocklengths")) ||
        (err = dmpi_type_check_array(fn, array_of_displacements, count, "array_of_displacements")) ||
        (err = dmpi_type_check_array(fn, array_of_types, count, "array_of_types")) ||
        (err = dmpi_check_ptr(fn, newtype, "newtype")))
        return dmpi_api_error(NULL, fn, err);
    for (int i = 0; i < count; i++) {
        dmpi_dtype_t *t;
        char what[40];
        snprintf(what, sizeof what, "array_of_types[%d]", i);
        if ((err = dmpi_type_check(fn, array_of_types[i], what, &t)) ||
            (err = dmpi_type_check_blocklen(fn, array_of_blocklengths[i], i)) ||
            (err = add_size(fn, &total, 1, array_of_blocklengths[i], t)))
            return dmpi_api_error(NULL, fn, err);
    }
    return build_joined(fn, MPI_COMBINER_STRUCT, &count, 1, array_of_blocklengths, NULL, count, count,
                        array_of_displacements, count, array_of_types, newtype);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    return dmpi_api_type_create_struct("MPI_Type_create_struct", count, array_of_blocklengths, array_of_displacements,
                                       array_of_types, newtype);
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Type_create_resized";
    dmpi_dtype_t *old = NULL;
    int err;
    if ((err = check_common(fn, 1, oldtype, newtype, &old)))
        return dmpi_api_error(NULL, fn, err);
    const MPI_Aint aints[2] = {lb, extent};
    return build(fn, MPI_COMBINER_RESIZED, 0, NULL, 2, aints, 1, &oldtype, newtype);
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
