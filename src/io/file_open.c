/* MPI_File_open, MPI_File_close and MPI_File_delete. Opening is collective
 * and ends alike on every rank: the amode is checked and compared first,
 * a file to be created is created by rank 0 alone (so MPI_MODE_EXCL fails
 * on every rank or on none), then every rank opens it with its own
 * descriptor, and one more agreement makes any rank's failure everyone's. */
#include "io/io_internal.h"
#include "comm/comm.h"
#include "core/errhandler.h"
#include "core/info.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ALL_MODES                                                                                                  \
    (MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE |              \
     MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL | MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL)

/* A file-system prefix as ROMIO takes it ("ufs:/tmp/x", "nfs:data"): a
 * word of two or more letters, digits or underscores before the first
 * colon. Every file system is reached through POSIX calls here, so the
 * prefix only goes. */
static const char *strip_prefix(const char *name)
{
    const char *colon = strchr(name, ':');
    if (!colon || colon - name < 2)
        return name;
    for (const char *p = name; p < colon; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return name;
    return colon + 1;
}

static int check_amode(const char *fn, int amode)
{
    int rw = amode & (MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR);
    if (amode & ~ALL_MODES)
        return dmpi_err(MPI_ERR_AMODE, "%s: amode %#x has bits that are no MPI_MODE_*", fn, (unsigned)amode);
    if (rw != MPI_MODE_RDONLY && rw != MPI_MODE_WRONLY && rw != MPI_MODE_RDWR)
        return dmpi_err(MPI_ERR_AMODE, "%s: amode must have exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and "
                        "MPI_MODE_RDWR", fn);
    if (rw == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return dmpi_err(MPI_ERR_AMODE, "%s: MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL", fn);
    if (rw == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL))
        return dmpi_err(MPI_ERR_AMODE, "%s: MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL", fn);
    return MPI_SUCCESS;
}

static int open_fd(const char *fn, const char *path, int amode, int flags, unsigned perm, int *fd)
{
    int d;
    do
        d = open(path, flags | O_CLOEXEC, (mode_t)perm);
    while (d < 0 && errno == EINTR);
    if (d < 0 && errno == EACCES && (amode & MPI_MODE_WRONLY))   /* not readable: write-only it is */
        do
            d = open(path, (flags & ~O_ACCMODE) | O_WRONLY | O_CLOEXEC, (mode_t)perm);
        while (d < 0 && errno == EINTR);
    if (d < 0)
        return io_errno(fn, "open", path, errno);
    struct stat st;
    if (fstat(d, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(d);
        return dmpi_err(MPI_ERR_BAD_FILE, "%s: \"%s\" is a directory", fn, path);
    }
    *fd = d;
    return MPI_SUCCESS;
}

void io_file_free(dmpi_file_t *f)
{
    io_table_remove(f);
    if (f->fd >= 0)
        close(f->fd);
    io_view_free(f);
    if (f->hints)
        dmpi_info_drop(f->hints);
    if (f->comm)
        dmpi_comm_free(f->comm);
    dmpi_errhandler_release(f->errhandler);
    free(f->path);
    free(f);
}

/* This rank's part of opening: the descriptor (unless rank 0 made it), the
 * hints, the default view and a place in the table. */
static int open_here(const char *fn, dmpi_file_t *f, int flags, struct dmpi_info *info)
{
    int err = MPI_SUCCESS;
    if (f->fd < 0)
        err = open_fd(fn, f->path, f->amode, flags, io_info_perm(info), &f->fd);
    if (err == MPI_SUCCESS)
        err = io_info_open(f, info);
    if (err == MPI_SUCCESS && (err = io_view_default(f)) == MPI_SUCCESS &&
        (fcntl(f->fd, F_GETFL) & O_ACCMODE) == O_WRONLY)
        f->view->flags |= IO_NO_RMW;          /* no read-modify-write without reading */
    if (err == MPI_SUCCESS)
        err = io_table_add(f);
    return err;
}

int dmpi_file_open(dmpi_comm_t *comm, const char *filename, int amode, struct dmpi_info *info, dmpi_file_t **out)
{
    static const char fn[] = "MPI_File_open";
    dmpi_comm_t *c = NULL;
    int err = dmpi_comm_dup_plain(comm, &c);
    if (err != MPI_SUCCESS)
        return err;
    strcpy(c->name, "the private communicator of a file");
    dmpi_file_t *f = calloc(1, sizeof *f);
    int mine = check_amode(fn, amode);
    if (f) {
        f->fd = -1;
        f->comm = c;
        f->amode = amode;
        f->errhandler = dmpi_file_default_errhandler();
        dmpi_errhandler_retain(f->errhandler);
        if (!(f->path = strdup(strip_prefix(filename))) && mine == MPI_SUCCESS)
            mine = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    } else if (mine == MPI_SUCCESS) {
        mine = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    }
    int64_t same[2];
    io_same_put(same, amode);
    err = io_agree(fn, c, mine, same, 2);
    if (err == MPI_SUCCESS && !io_same_ok(same))
        err = dmpi_err(MPI_ERR_NOT_SAME, "%s: the ranks passed different amodes", fn);
    /* write-only files are opened for reading too where allowed: data
     * sieving writes by read-modify-write (io/access.c) */
    int rw = amode & (MPI_MODE_RDWR | MPI_MODE_WRONLY) ? O_RDWR : O_RDONLY;
    int flags = rw | (amode & MPI_MODE_CREATE ? O_CREAT : 0) | (amode & MPI_MODE_EXCL ? O_EXCL : 0);
    if (err == MPI_SUCCESS && (amode & MPI_MODE_CREATE) && c->size > 1) {
        /* rank 0 creates; its outcome is everyone's */
        mine = c->rank == 0 ? open_fd(fn, f->path, f->amode, flags, io_info_perm(info), &f->fd) : MPI_SUCCESS;
        err = io_agree(fn, c, mine, NULL, 0);
        flags &= ~(O_CREAT | O_EXCL);
    }
    if (err == MPI_SUCCESS)
        err = io_agree(fn, c, open_here(fn, f, flags, info), NULL, 0);
    if (err == MPI_SUCCESS) {
        MPI_Offset initial = 0;
        struct stat st;
        if ((amode & MPI_MODE_APPEND) && fstat(f->fd, &st) == 0)
            initial = st.st_size;      /* the default view counts bytes */
        f->fp = initial;
        err = io_shared_open(f, initial);
    }
    if (err != MPI_SUCCESS) {
        if (f)
            io_file_free(f);
        else
            dmpi_comm_free(c);
        return err;
    }
    *out = f;
    return MPI_SUCCESS;
}

int dmpi_file_close(dmpi_file_t *f)
{
    static const char fn[] = "MPI_File_close";
    int err = io_shared_close(f), mine = MPI_SUCCESS;
    if (close(f->fd) != 0 && errno != EINTR)
        mine = io_errno(fn, "close", f->path, errno);
    f->fd = -1;
    /* every rank has closed once the agreement is over */
    int e = io_agree(fn, f->comm, mine, NULL, 0);
    if (err == MPI_SUCCESS)
        err = e;
    if ((f->amode & MPI_MODE_DELETE_ON_CLOSE) && f->comm->rank == 0 && unlink(f->path) != 0 && errno != ENOENT &&
        err == MPI_SUCCESS)
        err = io_errno(fn, "delete", f->path, errno);
    io_file_free(f);
    return err;
}

int dmpi_file_delete(const char *filename, struct dmpi_info *info)
{
    (void)info;
    const char *path = strip_prefix(filename);
    if (unlink(path) != 0)
        return io_errno("MPI_File_delete", "delete", path, errno);
    return MPI_SUCCESS;
}
