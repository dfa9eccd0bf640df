/* Commit, dup, free, contents and match_size of datatypes. Attributes
 * follow MPI: Type_dup runs the copy callbacks; the delete callbacks run
 * when the type is destroyed, which is at MPI_Type_free unless types built
 * from it or pending operations still hold it (dmpi_dtype_release runs them
 * then), so attributes stay reachable through MPI_Type_get_contents for as
 * long as the type exists. */
#include "core/dtype_ops.h"
#include "core/attr.h"
#include <string.h>

void dmpi_dtype_commit(dmpi_dtype_t *dt)
{
    dt->committed = true;      /* the layout was built by the constructor */
}

int dmpi_dtype_dup(dmpi_dtype_t *dt, dmpi_dtype_t **out)
{
    MPI_Datatype old = dt->handle;
    dmpi_dtype_t *dup;
    int err = dmpi_dtype_create(MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &old, &dup);
    if (err != MPI_SUCCESS)
        return err;
    if ((err = dmpi_attr_copy_all(dt, dup)) != MPI_SUCCESS) {
        dmpi_attr_delete_all(dup);  /* what was copied goes again */
        dmpi_dtype_release(dup);
        return err;
    }
    *out = dup;
    return MPI_SUCCESS;
}

int dmpi_dtype_free(dmpi_dtype_t *dt)
{
    if (dt->refcount == 1) {
        /* This free destroys it: the delete callbacks run here, so that
         * an error of theirs is this call's error and the type stays. */
        int err = dmpi_attr_delete_all(dt);
        if (err != MPI_SUCCESS)
            return err;
    }
    dmpi_dtype_release(dt);
    return MPI_SUCCESS;
}

void dmpi_dtype_get_contents(const dmpi_dtype_t *dt, int *ints, MPI_Aint *aints, MPI_Count *large,
                             MPI_Datatype *types)
{
    const dmpi_dtype_contents_t *c = dt->contents;
    if (c->nints)
        memcpy(ints, c->ints, (size_t)c->nints * sizeof *ints);
    if (c->naints)
        memcpy(aints, c->aints, (size_t)c->naints * sizeof *aints);
    if (c->nlarge)
        memcpy(large, c->large, (size_t)c->nlarge * sizeof *large);
    for (int i = 0; i < c->ntypes; i++) {
        types[i] = c->types[i];
        dmpi_dtype_retain(dmpi_dtype_get(types[i]));   /* no-op for predefined types */
    }
}

MPI_Datatype dmpi_dtype_match_size(int typeclass, int size)
{
    /* In the order C programs name them, so the plainest type wins; then the
     * Fortran sized types of sizes no C type has (REAL*2, INTEGER*16,
     * COMPLEX*4). */
    static const MPI_Datatype reals[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL2};
    static const MPI_Datatype integers[] = {MPI_SIGNED_CHAR, MPI_SHORT, MPI_INT, MPI_LONG, MPI_LONG_LONG,
                                            MPI_INTEGER16};
    static const MPI_Datatype complexes[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
                                             MPI_C_LONG_DOUBLE_COMPLEX, MPI_COMPLEX4};
    const MPI_Datatype *list;
    size_t n;
    switch (typeclass) {
    case MPI_TYPECLASS_REAL: list = reals, n = sizeof reals / sizeof *reals; break;
    case MPI_TYPECLASS_INTEGER: list = integers, n = sizeof integers / sizeof *integers; break;
    case MPI_TYPECLASS_COMPLEX: list = complexes, n = sizeof complexes / sizeof *complexes; break;
    default: return MPI_DATATYPE_NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (dmpi_dtype_get(list[i])->size == (size_t)size)
            return list[i];
    return MPI_DATATYPE_NULL;
}
