/* File manipulation (MPI-4.1 section 14.2.4-14.2.8, 14.6.1-14.6.3): size,
 * preallocation, the group and access mode a file was opened with, info
 * hints, atomic mode and sync. The collective ones (set_size, preallocate,
 * set_info, set_atomicity, sync) agree in io/. */
#include "api/file_api.h"
#include "core/group.h"
#include "core/info.h"

DMPI_ALIAS(File_set_size)
DMPI_ALIAS(File_preallocate)
DMPI_ALIAS(File_get_size)
DMPI_ALIAS(File_get_group)
DMPI_ALIAS(File_get_amode)
DMPI_ALIAS(File_set_info)
DMPI_ALIAS(File_get_info)
DMPI_ALIAS(File_set_atomicity)
DMPI_ALIAS(File_get_atomicity)
DMPI_ALIAS(File_sync)

static int check_size(const char *fn, MPI_Offset size)
{
    if (size >= 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: negative size %lld", fn, (long long)size);
}

int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_set_size";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = check_size(fn, size)) || (err = dmpi_file_set_size(f, size)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_preallocate";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = check_size(fn, size)) ||
        (err = dmpi_file_preallocate(f, size)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_size";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_ptr(fn, size, "size")) ||
        (err = dmpi_file_get_size(f, size)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

/* A new group for the caller to free, as MPI_Comm_group gives: the group
 * of the communicator the file was opened on. */
int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_group";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_ptr(fn, group, "group")))
        return dmpi_api_file_error(f, fn, err);
    const dmpi_group_t *fg = f->comm->group;
    dmpi_group_t *g = dmpi_group_new(fg->world, fg->size);
    if (!g)
        return dmpi_api_file_error(f, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn));
    if ((err = dmpi_group_handle(g, group)) != MPI_SUCCESS) {
        dmpi_group_release(g);
        return dmpi_api_file_error(f, fn, err);
    }
    return MPI_SUCCESS;
}

int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_amode";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_ptr(fn, amode, "amode")))
        return dmpi_api_file_error(f, fn, err);
    *amode = f->amode;
    return MPI_SUCCESS;
}

int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_set_info";
    dmpi_file_t *f = NULL;
    struct dmpi_info *i;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_file_info(fn, info, &i)) ||
        (err = dmpi_file_set_info(f, i)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

/* A new info object for the caller to free: every hint the file keeps. */
int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_info";
    dmpi_file_t *f = NULL;
    struct dmpi_info *i;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_ptr(fn, info_used, "info_used")) ||
        (err = dmpi_file_get_info(f, &i)))
        return dmpi_api_file_error(f, fn, err);
    *info_used = i->handle;
    return MPI_SUCCESS;
}

int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_set_atomicity";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_file_set_atomicity(f, flag != 0)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}

int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_get_atomicity";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_check_ptr(fn, flag, "flag")))
        return dmpi_api_file_error(f, fn, err);
    *flag = f->atomic;
    return MPI_SUCCESS;
}

int PMPI_File_sync(MPI_File fh)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_File_sync";
    dmpi_file_t *f = NULL;
    int err;
    if ((err = dmpi_check_file(fn, fh, &f)) || (err = dmpi_file_sync(f)))
        return dmpi_api_file_error(f, fn, err);
    return MPI_SUCCESS;
}
