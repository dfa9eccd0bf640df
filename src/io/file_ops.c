/* File manipulation: set_size, preallocate, get_size, atomicity, sync.
 * The collective ones compare their arguments across the ranks and agree
 * on the outcome; the file itself is changed by rank 0 alone, and the
 * agreement after it is the barrier that makes the change everyone's. */
#include "io/io_internal.h"
#include "coll/coll.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static int not_writable(const char *fn, const dmpi_file_t *f)
{
    if (f->amode & MPI_MODE_RDONLY)
        return dmpi_err(MPI_ERR_ACCESS, "%s: the file was opened MPI_MODE_RDONLY", fn);
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return dmpi_err(MPI_ERR_ACCESS, "%s: the file was opened MPI_MODE_SEQUENTIAL", fn);
    return MPI_SUCCESS;
}

static int file_size(const char *fn, dmpi_file_t *f, MPI_Offset *size)
{
    struct stat st;
    if (fstat(f->fd, &st) != 0)
        return io_errno(fn, "read the size of", f->path, errno);
    *size = st.st_size;
    return MPI_SUCCESS;
}

/* Rank 0's change to the file's size: to exactly size, or (grow) at least size. */
static int resize(const char *fn, dmpi_file_t *f, MPI_Offset size, bool grow)
{
    MPI_Offset cur = 0;
    int err = file_size(fn, f, &cur);
    if (err != MPI_SUCCESS || (grow && cur >= size) || (!grow && cur == size))
        return err;
    if (grow) {
        int e = posix_fallocate(f->fd, 0, size);
        if (e == 0)
            return MPI_SUCCESS;
        if (e != EOPNOTSUPP && e != EINVAL && e != ENOSYS)
            return io_errno(fn, "allocate space for", f->path, e);
        /* the file system has no allocation: grow it, with a hole */
    }
    int r;
    do
        r = ftruncate(f->fd, size);
    while (r != 0 && errno == EINTR);
    return r == 0 ? MPI_SUCCESS : io_errno(fn, "set the size of", f->path, errno);
}

static int size_call(const char *fn, dmpi_file_t *f, MPI_Offset size, bool grow)
{
    int64_t v[2];
    io_same_put(v, size);
    int err = io_agree(fn, f->comm, not_writable(fn, f), v, 2);
    if (err == MPI_SUCCESS && !io_same_ok(v))
        err = dmpi_err(MPI_ERR_NOT_SAME, "%s: the ranks passed different sizes", fn);
    if (err != MPI_SUCCESS)
        return err;
    return io_agree(fn, f->comm, f->comm->rank == 0 ? resize(fn, f, size, grow) : MPI_SUCCESS, NULL, 0);
}

int dmpi_file_set_size(dmpi_file_t *f, MPI_Offset size) { return size_call("MPI_File_set_size", f, size, false); }

int dmpi_file_preallocate(dmpi_file_t *f, MPI_Offset size) { return size_call("MPI_File_preallocate", f, size, true); }

int dmpi_file_get_size(dmpi_file_t *f, MPI_Offset *size) { return file_size("MPI_File_get_size", f, size); }

int dmpi_file_set_atomicity(dmpi_file_t *f, bool atomic)
{
    static const char fn[] = "MPI_File_set_atomicity";
    int64_t v[2];
    io_same_put(v, atomic);
    int err = io_agree(fn, f->comm, MPI_SUCCESS, v, 2);
    if (err == MPI_SUCCESS && !io_same_ok(v))
        err = dmpi_err(MPI_ERR_NOT_SAME, "%s: the ranks passed different flags", fn);
    if (err == MPI_SUCCESS)
        f->atomic = atomic;
    return err;
}

/* fsync, then a barrier: after MPI_File_sync returns on every rank, data
 * that any rank wrote before it is on storage and visible to all. */
int dmpi_file_sync(dmpi_file_t *f)
{
    static const char fn[] = "MPI_File_sync";
    int mine = MPI_SUCCESS;
    if (fsync(f->fd) != 0 && errno != EINVAL && errno != EROFS)
        mine = io_errno(fn, "sync", f->path, errno);
    return io_agree(fn, f->comm, mine, NULL, 0);
}
