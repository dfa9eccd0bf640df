/* The layout in the file of a datatype under a data representation
 * (MPI-4.1 section 14.5.1): the type is rebuilt through the constructors
 * that made it, with every predefined type replaced by bytes of its file
 * extent. Displacements given in elements (vector strides, indexed
 * displacements, subarrays and darrays, which are portable types) scale
 * with the new extents; displacements given in bytes (hvector, hindexed,
 * struct, resized bounds) are taken as they are, as the standard says: the
 * program gives them "in terms of their values in the file". A subtree
 * whose predefined types all keep their native extent and size is used as
 * it is, with a reference; so is the whole type under "native". */
#include "io/datarep_internal.h"
#include "core/dtype_dist.h"
#include <stdlib.h>

/* The file form of predefined type t: size data bytes in a slot of ext
 * bytes (MPI_BYTE contiguous, resized when the slot is larger). */
static int item_type(const char *fn, MPI_Aint ext, MPI_Aint size, dmpi_dtype_t **out)
{
    if (size > ext)
        return dmpi_err(MPI_ERR_CONVERSION, "%s: a predefined type of %ld native bytes has the file extent %ld in "
                        "a data representation that keeps native bytes", fn, (long)size, (long)ext);
    MPI_Datatype byte = MPI_BYTE;
    const MPI_Count n = size;
    dmpi_dtype_t *bytes;
    int err = dmpi_dtype_make(MPI_COMBINER_CONTIGUOUS, 1, &n, 1, &byte, true, &bytes);
    if (err != MPI_SUCCESS || size == ext) {
        *out = bytes;
        return err;
    }
    MPI_Datatype h = bytes->handle;
    const MPI_Count bounds[2] = {0, ext};
    err = dmpi_dtype_make(MPI_COMBINER_RESIZED, 2, bounds, 1, &h, true, out);
    dmpi_dtype_release(bytes);
    return err;
}

/* The number of arguments p of a combiner holds (core/dmpi.h, dmpi_dtype_contents_t.p). */
static MPI_Count nargs(const dmpi_dtype_contents_t *c)
{
    switch (c->combiner) {
    case MPI_COMBINER_DUP: return 0;
    case MPI_COMBINER_CONTIGUOUS: return 1;
    case MPI_COMBINER_RESIZED: return 2;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: return 3;
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: return 2 + c->p[0];
    default: return 1 + 2 * c->p[0];    /* INDEXED, HINDEXED, STRUCT */
    }
}

/* A subarray or darray again, over the new old type (the array types
 * compute their byte strides from the old type's extent). */
static int remake_array(const dmpi_dtype_contents_t *c, dmpi_dtype_t *old, dmpi_dtype_t **out)
{
    const int *v = c->ints;
    bool large = c->nlarge > 0;
    int nd = c->combiner == MPI_COMBINER_SUBARRAY ? v[0] : v[2];
    MPI_Count *a = malloc((size_t)(3 * nd + 1) * sizeof *a);
    if (!a)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a datatype");
    int err;
    if (c->combiner == MPI_COMBINER_SUBARRAY) {
        /* ints: ndims, sizes[], subsizes[], starts[], order (or ndims, order and three large arrays) */
        for (int i = 0; i < 3 * nd; i++)
            a[i] = large ? c->large[i] : v[1 + i];
        int order = large ? v[1] : v[1 + 3 * nd];
        err = dmpi_dtype_subarray(nd, a, a + nd, a + 2 * nd, order, large, old, out);
    } else {
        /* ints: size, rank, ndims, gsizes[] (unless large), distribs[], dargs[], psizes[], order */
        int g = large ? 0 : nd;
        for (int i = 0; i < nd; i++)
            a[i] = large ? c->large[i] : v[3 + i];
        const int *distribs = v + 3 + g, *dargs = distribs + nd, *psizes = dargs + nd;
        err = dmpi_dtype_darray(v[0], v[1], nd, a, distribs, dargs, psizes, psizes[nd], large, old, out);
    }
    free(a);
    return err;
}

/* dt in the file: *out is a new type, or dt itself with a reference when
 * nothing in it changes. */
static int remake(const char *fn, const dmpi_datarep_t *rep, dmpi_dtype_t *dt, dmpi_dtype_t **out)
{
    if (dt->predefined) {        /* the basic types, the pair types, the f90 types */
        MPI_Aint ext, size;
        int err = dt->size ? dmpi_datarep_item(fn, rep, dt, &ext, &size) : MPI_SUCCESS;
        if (err != MPI_SUCCESS)
            return err;
        if (dt->size == 0 || (ext == dt->extent && size == (MPI_Aint)dt->size)) {
            dmpi_dtype_retain(dt);
            *out = dt;
            return MPI_SUCCESS;
        }
        return item_type(fn, ext, size, out);
    }
    const dmpi_dtype_contents_t *c = dt->contents;
    bool array = c->combiner == MPI_COMBINER_SUBARRAY || c->combiner == MPI_COMBINER_DARRAY;
    int n = c->ntypes, err = MPI_SUCCESS;
    dmpi_dtype_t **kids = calloc((size_t)(n ? n : 1), sizeof *kids);
    MPI_Datatype *hs = calloc((size_t)(n ? n : 1), sizeof *hs);
    if (!kids || !hs) {
        free(kids);
        free(hs);
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the file layout of a datatype", fn);
    }
    bool same = true;
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        dmpi_dtype_t *old = dmpi_dtype_get(c->types[i]);
        if ((err = remake(fn, rep, old, &kids[i])) == MPI_SUCCESS) {
            hs[i] = kids[i]->handle;
            same &= kids[i] == old;
        }
    }
    if (err == MPI_SUCCESS && same) {
        dmpi_dtype_retain(dt);
        *out = dt;
    } else if (err == MPI_SUCCESS && array) {
        err = remake_array(c, kids[0], out);
    } else if (err == MPI_SUCCESS) {
        err = dmpi_dtype_make(c->combiner, nargs(c), c->p, n, hs, true, out);
    }
    for (int i = 0; i < n; i++)
        if (kids[i])
            dmpi_dtype_release(kids[i]);
    free(kids);
    free(hs);
    return err;
}

int dmpi_datarep_file_type(const char *fn, const dmpi_datarep_t *rep, dmpi_dtype_t *dt, dmpi_dtype_t **out)
{
    if (dmpi_datarep_native_layout(rep)) {
        dmpi_dtype_retain(dt);
        *out = dt;
        return MPI_SUCCESS;
    }
    int err = remake(fn, rep, dt, out);
    if (err == MPI_SUCCESS && *out != dt)
        (*out)->committed = true;          /* built by the constructors: ready to use */
    return err;
}
