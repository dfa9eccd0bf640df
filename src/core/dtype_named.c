/* Predefined types found by what they hold rather than by name: the
 * Fortran 90 parameterized types of MPI_Type_create_f90_* and the
 * value-index pairs of MPI_Type_get_value_index.
 *
 * An f90 type is predefined (MPI-4.0 19.1.9: it cannot be freed, and equal
 * arguments give the same handle) but reports how it was asked for: its
 * envelope is MPI_COMBINER_F90_* with the (p, r) or (r) of the call. It is
 * a derived-table object marked predefined, with the layout of the sized
 * type it stands for, made on first use and cached here. */
#include "core/dtype_ops.h"
#include <stdlib.h>

/* gfortran's kinds on x86_64: decimal precision and exponent range of each,
 * as selected_int_kind / selected_real_kind see them, smallest first. */
static const struct kind {
    int precision, range;
    MPI_Datatype type;
} integers[] = {
    {0, 2, MPI_INTEGER1}, {0, 4, MPI_INTEGER2}, {0, 9, MPI_INTEGER4}, {0, 18, MPI_INTEGER8},
    {0, 38, MPI_INTEGER16},
}, reals[] = {
    {6, 37, MPI_REAL4}, {15, 307, MPI_REAL8}, {18, 4931, MPI_LONG_DOUBLE}, {33, 4931, MPI_REAL16},
}, complexes[] = {
    {6, 37, MPI_COMPLEX8}, {15, 307, MPI_COMPLEX16}, {18, 4931, MPI_C_LONG_DOUBLE_COMPLEX},
    {33, 4931, MPI_COMPLEX32},
};

static struct f90 {
    int combiner, p, r;
    MPI_Datatype handle;
} *made;
static int nmade, capmade;

static MPI_Datatype select_kind(int combiner, int p, int r)
{
    const struct kind *k = combiner == MPI_COMBINER_F90_INTEGER ? integers
                           : combiner == MPI_COMBINER_F90_REAL  ? reals
                                                                : complexes;
    size_t n = combiner == MPI_COMBINER_F90_INTEGER ? sizeof integers / sizeof *integers
               : combiner == MPI_COMBINER_F90_REAL  ? sizeof reals / sizeof *reals
                                                    : sizeof complexes / sizeof *complexes;
    for (size_t i = 0; i < n; i++)          /* MPI_UNDEFINED (negative) asks for nothing */
        if (k[i].precision >= p && k[i].range >= r)
            return k[i].type;
    return MPI_DATATYPE_NULL;
}

int dmpi_dtype_f90(const char *fn, int combiner, int p, int r, MPI_Datatype *out)
{
    for (int i = 0; i < nmade; i++)
        if (made[i].combiner == combiner && made[i].p == p && made[i].r == r) {
            *out = made[i].handle;
            return MPI_SUCCESS;
        }
    MPI_Datatype basic = select_kind(combiner, p, r);
    if (basic == MPI_DATATYPE_NULL)
        return dmpi_err(MPI_ERR_ARG, "%s: p = %d, r = %d: no Fortran %s kind has %s", fn, p, r,
                        combiner == MPI_COMBINER_F90_INTEGER ? "INTEGER"
                        : combiner == MPI_COMBINER_F90_REAL  ? "REAL"
                                                             : "COMPLEX",
                        combiner == MPI_COMBINER_F90_INTEGER ? "that range (the largest is 38 digits)"
                                                             : "that precision and range (the largest are 33 "
                                                               "digits and exponent 4931)");
    if (nmade == capmade) {
        int cap = capmade ? 2 * capmade : 8;
        struct f90 *m = realloc(made, (size_t)cap * sizeof *m);
        if (!m)
            return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        made = m;
        capmade = cap;
    }
    int ints[2] = {p, r}, nints = 2;
    if (combiner == MPI_COMBINER_F90_INTEGER)
        ints[0] = r, nints = 1;
    dmpi_dtype_t *dt;
    dmpi_dtype_args_t a = {.nints = nints, .ints = ints};
    int err = dmpi_dtype_create_as(dmpi_dtype_get(basic), combiner, &a, &dt);
    if (err != MPI_SUCCESS)
        return err;
    dt->committed = true;
    dt->predefined = true;          /* no reference counts; MPI_Type_free refuses it */
    made[nmade++] = (struct f90){combiner, p, r, dt->handle};
    *out = dt->handle;
    return MPI_SUCCESS;
}

/* The table of MPI-4.1 section 5.1.11: the predefined pair types. */
MPI_Datatype dmpi_dtype_value_index(MPI_Datatype value, MPI_Datatype index)
{
    static const MPI_Datatype pairs[][3] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        if (pairs[i][0] == value && pairs[i][1] == index)
            return pairs[i][2];
    return MPI_DATATYPE_NULL;
}

/* The types themselves go with the other derived ones (dmpi_dtype_finalize). */
void dmpi_dtype_named_finalize(void)
{
    free(made);
    made = NULL;
    nmade = capmade = 0;
}
