/* The individual and the shared file pointer: seek and get_position, in
 * etypes of the view. MPI_SEEK_END counts from the end of the file as the
 * view sees it: the etypes of the view's data that lie before the file's
 * size (rounded up to a whole etype). */
#include "io/io_internal.h"
#include <sys/stat.h>
#include <errno.h>

/* The position (in etypes) of the end of the file in f's view. */
static int end_position(const char *fn, dmpi_file_t *f, MPI_Offset *pos)
{
    struct stat st;
    if (fstat(f->fd, &st) != 0)
        return io_errno(fn, "read the size of", f->path, errno);
    MPI_Offset b = io_view_bytes_before(f, st.st_size), e = f->view->esize;
    *pos = (b + e - 1) / e;
    return MPI_SUCCESS;
}

/* The new position for (off, whence) from cur; MPI_ERR_ARG below 0. */
static int new_position(const char *fn, dmpi_file_t *f, MPI_Offset cur, MPI_Offset off, int whence, MPI_Offset *pos)
{
    MPI_Offset base = 0;
    int err;
    switch (whence) {
    case MPI_SEEK_SET: base = 0; break;
    case MPI_SEEK_CUR: base = cur; break;
    case MPI_SEEK_END:
        if ((err = end_position(fn, f, &base)) != MPI_SUCCESS)
            return err;
        break;
    default: return dmpi_err(MPI_ERR_ARG, "%s: whence %d is none of MPI_SEEK_SET, _CUR and _END", fn, whence);
    }
    if ((off > 0 && base > INT64_MAX - off) || base + off < 0)
        return dmpi_err(MPI_ERR_ARG, "%s: the position %ld%+ld is outside the file", fn, (long)base, (long)off);
    *pos = base + off;
    return MPI_SUCCESS;
}

static int sequential(const char *fn)
{
    return dmpi_err(MPI_ERR_UNSUPPORTED_OPERATION, "%s: the file was opened with MPI_MODE_SEQUENTIAL, which has no "
                    "individual file pointer", fn);
}

int dmpi_file_seek(dmpi_file_t *f, MPI_Offset off, int whence)
{
    static const char fn[] = "MPI_File_seek";
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return sequential(fn);
    return new_position(fn, f, f->fp, off, whence, &f->fp);
}

int dmpi_file_get_position(dmpi_file_t *f, MPI_Offset *off)
{
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return sequential("MPI_File_get_position");
    *off = f->fp;
    return MPI_SUCCESS;
}

int dmpi_file_seek_shared(dmpi_file_t *f, MPI_Offset off, int whence)
{
    static const char fn[] = "MPI_File_seek_shared";
    int mine = MPI_SUCCESS;
    if ((f->amode & MPI_MODE_SEQUENTIAL) && !(whence == MPI_SEEK_END && off == 0))
        mine = dmpi_err(MPI_ERR_UNSUPPORTED_OPERATION, "%s: a file opened with MPI_MODE_SEQUENTIAL seeks only to "
                        "its end (offset 0, MPI_SEEK_END)", fn);
    int64_t v[4];
    io_same_put(v, off);
    io_same_put(v + 2, whence);
    int err = io_agree(fn, f->comm, mine, v, 4);
    if (err == MPI_SUCCESS && (!io_same_ok(v) || !io_same_ok(v + 2)))
        err = dmpi_err(MPI_ERR_NOT_SAME, "%s: the ranks passed different offsets or whence", fn);
    if (err != MPI_SUCCESS)
        return err;
    /* rank 0 moves the pointer; the agreement after it is the barrier that
     * keeps every rank's next shared access behind the move */
    if (f->comm->rank == 0) {
        MPI_Offset cur = 0, pos;
        if (whence != MPI_SEEK_CUR || (mine = io_shared_read(fn, f, &cur)) == MPI_SUCCESS)
            if ((mine = new_position(fn, f, cur, off, whence, &pos)) == MPI_SUCCESS)
                mine = io_shared_write(fn, f, pos);
    }
    return io_agree(fn, f->comm, mine, NULL, 0);
}

int dmpi_file_get_position_shared(dmpi_file_t *f, MPI_Offset *off)
{
    return io_shared_read("MPI_File_get_position_shared", f, off);
}
