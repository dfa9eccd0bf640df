/* Collective agreement on errors and arguments: the calls MPI makes
 * collective (open, close, set_view, set_size, ...) end the same way on
 * every rank, so one allreduce carries every rank's error class together
 * with the values whose sameness the call checks. And the one mapping of
 * errno values to MPI error classes. */
#include "io/io_internal.h"
#include "coll/coll.h"
#include "core/op.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* An error as one number: the highest class wins, then the lowest rank. */
static int64_t error_key(int code, int rank)
{
    if (code == MPI_SUCCESS)
        return 0;
    int cls = dmpi_err_class_of(code);
    if (cls <= 0)
        cls = MPI_ERR_OTHER;
    return ((int64_t)cls << 32) | (int64_t)(0x7fffffff - rank);
}

int io_agree(const char *fn, dmpi_comm_t *c, int mine, int64_t *v, int n)
{
    int64_t small[9], *all = n + 1 <= 9 ? small : malloc((size_t)(n + 1) * sizeof *all);
    if (!all)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    all[0] = error_key(mine, c->rank);
    if (n > 0)
        memcpy(all + 1, v, (size_t)n * sizeof *v);
    int err = MPI_SUCCESS;
    if (c->size > 1)
        err = dmpi_coll_allreduce(c, MPI_IN_PLACE, all, (size_t)n + 1, dmpi_dtype_get(MPI_INT64_T),
                                  dmpi_op_get(MPI_MAX), NULL);
    if (err == MPI_SUCCESS && n > 0)
        memcpy(v, all + 1, (size_t)n * sizeof *v);
    int64_t key = all[0];
    if (all != small)
        free(all);
    if (err != MPI_SUCCESS)
        return err;
    if (key == 0)
        return MPI_SUCCESS;
    int cls = (int)(key >> 32), rank = 0x7fffffff - (int)(key & 0xffffffff);
    if (mine != MPI_SUCCESS && dmpi_err_class_of(mine) == cls)
        return mine;
    return dmpi_err(cls, "%s: failed on rank %d of the file's communicator", fn, rank);
}

int io_errno(const char *fn, const char *what, const char *path, int e)
{
    int cls;
    switch (e) {
    case ENOENT: cls = MPI_ERR_NO_SUCH_FILE; break;
    case EEXIST: cls = MPI_ERR_FILE_EXISTS; break;
    case EACCES:
    case EPERM: cls = MPI_ERR_ACCESS; break;
    case EROFS: cls = MPI_ERR_READ_ONLY; break;
    case ENOSPC:
    case EFBIG: cls = MPI_ERR_NO_SPACE; break;
#ifdef EDQUOT
    case EDQUOT: cls = MPI_ERR_QUOTA; break;
#endif
    case ENOTDIR:
    case EISDIR:
    case ENAMETOOLONG:
    case ELOOP:
    case ENXIO:
    case ENODEV: cls = MPI_ERR_BAD_FILE; break;
    case ETXTBSY:
    case EBUSY: cls = MPI_ERR_FILE_IN_USE; break;
    case ENOMEM: cls = MPI_ERR_NO_MEM; break;
    default: cls = MPI_ERR_IO;
    }
    if (path)
        return dmpi_err(cls, "%s: cannot %s \"%s\": %s", fn, what, path, strerror(e));
    return dmpi_err(cls, "%s: cannot %s: %s", fn, what, strerror(e));
}
