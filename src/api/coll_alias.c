/* Aliased send and receive buffers: the copy a collective reads instead of
 * sendbuf, and the call's MPI_ERR_BUFFER afterwards (coll_alias.h). */
#include "api/coll_alias.h"
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int nblocks(const dmpi_coll_side_t *s) { return s->counts ? s->n : 1; }

/* Block j of a side: its element count, and its type and byte offset from the buffer. */
static size_t block(const dmpi_coll_side_t *s, int j, const dmpi_dtype_t **dt, MPI_Aint *off)
{
    if (!s->counts) {
        *dt = s->dt;
        *off = 0;
        return s->count;
    }
    if (s->types) {
        *dt = dmpi_dtype_get(s->types[j]);
        *off = s->displs[j];
    } else {
        *dt = s->dt;
        *off = (MPI_Aint)s->displs[j] * s->dt->extent;
    }
    return (size_t)s->counts[j];
}

static bool moves_data(const dmpi_coll_side_t *s)
{
    for (int j = 0; j < nblocks(s); j++) {
        const dmpi_dtype_t *dt;
        MPI_Aint off;
        if (block(s, j, &dt, &off) && dt->size)
            return true;
    }
    return false;
}

/* Bytes [lo, hi) from the buffer that a side's data spans: from the first
 * byte of each block's lowest element to the last of its highest (an
 * extent may be negative). Called only when the side moves data. */
static void span(const dmpi_coll_side_t *s, MPI_Aint *lo, MPI_Aint *hi)
{
    *lo = LONG_MAX;
    *hi = LONG_MIN;
    for (int j = 0; j < nblocks(s); j++) {
        const dmpi_dtype_t *dt;
        MPI_Aint off;
        size_t count = block(s, j, &dt, &off);
        if (!count || !dt->size)
            continue;
        MPI_Aint step = (MPI_Aint)(count - 1) * dt->extent;
        MPI_Aint b = off + dt->true_lb + (step < 0 ? step : 0);
        MPI_Aint e = off + dt->true_lb + dt->true_extent + (step > 0 ? step : 0);
        if (b < *lo)
            *lo = b;
        if (e > *hi)
            *hi = e;
    }
}

int dmpi_alias_copy(const char *fn, const void **sendbuf, const dmpi_coll_side_t *send, const dmpi_coll_side_t *recv,
                    void **copy)
{
    if (!moves_data(send) || !moves_data(recv))
        return MPI_SUCCESS;          /* one side empty: nothing is both read and written */
    MPI_Aint lo, hi;
    span(send, &lo, &hi);
    size_t bytes = (size_t)(hi - lo);
    char *p = malloc(bytes ? bytes : 1);
    if (!p)
        return dmpi_err(MPI_ERR_NO_MEM,
                        "%s: sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE), and there is no memory for "
                        "a copy of its %zu bytes of send data",
                        fn, bytes);
    memcpy(p, (const char *)*sendbuf + lo, bytes);
    *copy = p;
    /* The collective addresses the data from sendbuf, lo bytes before the
     * copy; in integers, as that address may lie outside the copy. */
    *sendbuf = (const void *)((uintptr_t)p - (uintptr_t)lo);
    return MPI_SUCCESS;
}

int dmpi_alias_finish(dmpi_comm_t *c, const char *fn, int err, void *copy, dmpi_request_t *r, MPI_Request *request)
{
    if (r)                           /* started: it may read the copy until it completes */
        r->coll_copy = copy;
    else
        free(copy);
    if (err != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    /* A nonblocking call hands out its request although it reports the
     * error: the other ranks' requests need this rank's part to complete,
     * and the program's MPI_Wait on it succeeds. */
    if (request)
        *request = r->handle;
    err = dmpi_err(MPI_ERR_BUFFER, "%s: sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)", fn);
    return dmpi_api_error(c, fn, err);
}
