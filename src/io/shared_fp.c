/* The shared file pointer: one MPI_Offset (in etypes of the view) in an
 * RMA window at rank 0 of the file's communicator, on a private duplicate
 * of it. A shared access takes its place with one fetch-and-add under a
 * shared lock (accumulates are atomic per element), so ranks never wait for
 * each other beyond that; ordered access scans the ranks' counts, lets
 * the last rank add the total, and gives each rank the pointer plus the
 * counts of the ranks before it. */
#include "io/io_internal.h"
#include "coll/coll.h"
#include "comm/comm.h"
#include "core/op.h"
#include "rma/rma.h"
#include <stdlib.h>

struct io_shared {
    dmpi_win_t *win;
};

static dmpi_dtype_t *offset_type(void) { return dmpi_dtype_get(MPI_INT64_T); }

int io_shared_open(dmpi_file_t *f, MPI_Offset initial)
{
    static const char fn[] = "MPI_File_open";
    struct io_shared *s = calloc(1, sizeof *s);
    dmpi_comm_t *c = NULL;
    int err = dmpi_comm_dup_plain(f->comm, &c);
    if (err != MPI_SUCCESS) {
        free(s);
        return err;
    }
    MPI_Offset *base = NULL;
    /* every rank takes part even without memory for s: the window's creation is collective */
    err = dmpi_win_allocate(c->rank == 0 ? (MPI_Aint)sizeof(MPI_Offset) : 0, 1, NULL, c, false, &base,
                            s ? &s->win : &(dmpi_win_t *){NULL});
    if (err == MPI_SUCCESS && !s)
        err = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    if (err == MPI_SUCCESS) {
        f->shared = s;
        if (c->rank == 0)
            err = io_shared_write(fn, f, initial);
    }
    /* nobody uses the pointer before rank 0 has set it */
    int e = io_agree(fn, f->comm, err, NULL, 0);
    if (e != MPI_SUCCESS && f->shared) {
        io_shared_close(f);
    } else if (e != MPI_SUCCESS) {
        free(s);
    }
    return e;
}

int io_shared_close(dmpi_file_t *f)
{
    struct io_shared *s = f->shared;
    if (!s)
        return MPI_SUCCESS;
    int err = dmpi_win_free(s->win);
    free(s);
    f->shared = NULL;
    return err;
}

void io_shared_forget(dmpi_file_t *f)
{
    free(f->shared);
    f->shared = NULL;
}

/* One accumulate on the pointer under a lock of the given type. */
static int access_pointer(const char *fn, dmpi_file_t *f, int lock, const MPI_Offset *in, MPI_Offset *result,
                          MPI_Op op)
{
    dmpi_win_t *w = f->shared->win;
    dmpi_dtype_t *t = offset_type();
    int err = dmpi_win_lock(lock, 0, 0, w);
    if (err != MPI_SUCCESS)
        return err;
    err = dmpi_rma_acc(fn, in, 1, t, result, result ? 1 : 0, result ? t : NULL, 0, 0, 1, t, dmpi_op_get(op), w,
                       NULL);
    int e = dmpi_win_unlock(0, w);
    return err != MPI_SUCCESS ? err : e;
}

int io_shared_fetch_add(const char *fn, dmpi_file_t *f, MPI_Offset n, MPI_Offset *old)
{
    return access_pointer(fn, f, MPI_LOCK_SHARED, &n, old, MPI_SUM);
}

int io_shared_read(const char *fn, dmpi_file_t *f, MPI_Offset *v)
{
    MPI_Offset none = 0;
    return access_pointer(fn, f, MPI_LOCK_SHARED, &none, v, MPI_NO_OP);
}

int io_shared_write(const char *fn, dmpi_file_t *f, MPI_Offset v)
{
    return access_pointer(fn, f, MPI_LOCK_EXCLUSIVE, &v, NULL, MPI_REPLACE);
}

int io_shared_ordered(const char *fn, dmpi_file_t *f, MPI_Offset n, MPI_Offset *start)
{
    dmpi_comm_t *c = f->comm;
    dmpi_dtype_t *t = offset_type();
    int last = c->size - 1;
    /* the inclusive scan gives each rank the end of its part, the last rank the total */
    int64_t mine = n, upto = 0, word[2] = {0, 0};   /* word: the pointer before the access, an error class */
    int err = dmpi_coll_scan(c, &mine, &upto, 1, t, dmpi_op_get(MPI_SUM), NULL);
    if (c->rank == last) {
        int e = err != MPI_SUCCESS ? err : io_shared_fetch_add(fn, f, upto, &word[0]);
        if (e != MPI_SUCCESS)
            word[1] = dmpi_err_class_of(e) > 0 ? dmpi_err_class_of(e) : MPI_ERR_OTHER;
    }
    int e = dmpi_coll_bcast(c, word, 2, t, last, NULL);
    if (err == MPI_SUCCESS)
        err = e;
    if (err == MPI_SUCCESS && word[1] != 0)
        err = dmpi_err((int)word[1], "%s: the shared file pointer could not be moved", fn);
    *start = word[0] + upto - n;
    return err;
}
