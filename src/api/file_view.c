/* File views (MPI-4.1 section 14.3): set and query the view, the extent of
 * a type in the file's data representation, and the byte in the file that a
 * view position falls on. What only the view can judge (displacement,
 * filetype built of etypes, the representation's name) is io/'s. */
#include "api/file_api.h"
#include "core/dtype_ops.h"
#include <string.h>

DMPI_ALIAS(File_set_view)
DMPI_ALIAS(File_get_view)
DMPI_ALIAS(File_get_type_extent)
DMPI_ALIAS(File_get_type_extent_c)
DMPI_ALIAS(File_get_byte_offset)

/* A type of the view, valid and committed; what names the argument. */
static int check_view_type(const char *fn, MPI_Datatype h, const char *what, dmpi_dtype_t **dt)
{
    if ((*dt = dmpi_dtype_get(h))) {
        if ((*dt)->committed)
            return MPI_SUCCESS;
        return dmpi_err(MPI_ERR_TYPE, "%s: %s %s is not committed; call MPI_Type_commit first", fn, what,
                        dmpi_dtype_desc(*dt));
    }
    if (h == MPI_DATATYPE_NULL)
        return dmpi_err(MPI_ERR_TYPE, "%s: %s is MPI_DATATYPE_NULL", fn, what);
    return dmpi_err(MPI_ERR_TYPE, "%s: invalid %s handle 0x%x", fn, what, (unsigned)h);
}

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep,
                       MPI_Info info)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_set_view";
    dmpi_file_t *f = NULL;
    dmpi_dtype_t *et, *ft;
    struct dmpi_info *i;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = check_view_type(fn, etype, "etype", &et)) ||
        (err = check_view_type(fn, filetype, "filetype", &ft)) || (err = dmpi_check_ptr(fn, datarep, "datarep")) ||
        (err = dmpi_check_file_info(fn, info, &i)) || (err = dmpi_file_set_view(f, disp, et, ft, datarep, i)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

/* A type of the view as the program gets it back: a predefined one as it
 * is, a derived one as a new duplicate for the program to free (MPI-4.1
 * section 14.3). */
static int view_type(dmpi_dtype_t *dt, MPI_Datatype *out)
{
    if (dt->predefined) {
        *out = dt->handle;
        return MPI_SUCCESS;
    }
    dmpi_dtype_t *dup;
    int err = dmpi_dtype_dup(dt, &dup);   /* its attributes' copy callbacks may fail */
    if (err != MPI_SUCCESS)
        return err;
    *out = dup->handle;
    return MPI_SUCCESS;
}

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_view";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_ptr(fn, disp, "disp")) ||
        (err = dmpi_check_ptr(fn, etype, "etype")) || (err = dmpi_check_ptr(fn, filetype, "filetype")) ||
        (err = dmpi_check_ptr(fn, datarep, "datarep")))
        return dmpi_api_file_error(f, fn, err);
    MPI_Datatype e, t;
    if ((err = view_type(f->etype, &e)))
        return dmpi_api_file_error(f, fn, err);
    if ((err = view_type(f->ftype, &t))) {
        if (e != f->etype->handle)
            dmpi_dtype_free(dmpi_dtype_get(e));
        return dmpi_api_file_error(f, fn, err);
    }
    *disp = f->disp;
    *etype = e;
    *filetype = t;
    const char *name = f->rep ? f->rep->name : "native";
    size_t n = strnlen(name, MPI_MAX_DATAREP_STRING - 1);
    memcpy(datarep, name, n);
    datarep[n] = '\0';
    return MPI_SUCCESS;
}

static int get_type_extent(const char *fn, MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    dmpi_file_t *f = NULL;
    dmpi_dtype_t *dt = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_ptr(fn, extent, "extent")))
        return dmpi_api_file_error(f, fn, err);
    if (!(dt = dmpi_dtype_get(datatype)))
        return dmpi_api_file_error(f, fn, dmpi_err(MPI_ERR_TYPE, "%s: invalid datatype handle 0x%x%s", fn,
                                                   (unsigned)datatype,
                                                   datatype == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : ""));
    if ((err = dmpi_file_type_extent(f, dt, extent)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_type_extent";
    MPI_Count x;
    int err = get_type_extent(fn, fh, datatype, extent ? &x : NULL);
    if (err == MPI_SUCCESS)
        *extent = (MPI_Aint)x;   /* MPI_Aint and MPI_Count are both 64 bits here */
    return err;
}

int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    DMPI_API_ENTER;
    return get_type_extent("MPI_File_get_type_extent_c", fh, datatype, extent);
}

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_byte_offset";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_ptr(fn, disp, "disp")) ||
        (err = dmpi_file_byte_offset(f, offset, disp)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}
