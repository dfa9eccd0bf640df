/* Argument checks of the neighbourhood collectives (coll_neighbor.h). */
#include "api/coll_neighbor.h"
#include "api/coll_move.h"
#include "core/info.h"
#include "core/topo.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dmpi_nbr_check_comm(const char *fn, MPI_Comm comm, dmpi_comm_t **c, int *indegree, int *outdegree)
{
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, c)))
        return err;
    if (!(*c)->topo)
        return dmpi_err(MPI_ERR_TOPOLOGY, "%s: %s has no topology (a neighbourhood collective needs a Cartesian, "
                        "graph or distributed graph one)", fn, (*c)->name[0] ? (*c)->name : "the communicator");
    dmpi_topo_degrees((*c)->topo, (*c)->rank, indegree, outdegree);
    return MPI_SUCCESS;
}

static int check_buf(const char *fn, const char *side, const void *buf)
{
    if (buf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: %sbuf is MPI_IN_PLACE, which the neighbourhood collectives do not take",
                    fn, side);
}


int dmpi_nbr_check_block(const char *fn, const char *side, const void *buf, MPI_Count count, MPI_Datatype type,
                         dmpi_dtype_t **dt)
{
    int err;
    if ((err = check_buf(fn, side, buf)))
        return err;
    if (count < 0)
        return dmpi_err(MPI_ERR_COUNT, "%s: %scount is negative (%ld)", fn, side, (long)count);
    if ((err = dmpi_coll_check_type(fn, side, "type", -1, type, dt)))
        return err;
    if (!dmpi_coll_buf_ok(buf, count, *dt))
        return dmpi_err(MPI_ERR_BUFFER, "%s: %sbuf is NULL but %scount is %ld of %s", fn, side, side, (long)count,
                        dmpi_dtype_desc(*dt));
    return MPI_SUCCESS;
}

static int check_counts(const char *fn, int n, dmpi_nbr_ints_t counts, const char *cname, dmpi_nbr_ints_t displs,
                        const char *dname)
{
    if (n == 0)
        return MPI_SUCCESS;      /* arrays of no entries may be NULL */
    if (!counts.i && !counts.l)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, cname);
    if (!displs.i && !displs.l)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, dname);
    for (int j = 0; j < n; j++)
        if (dmpi_nbr_at(counts, j) < 0)
            return dmpi_err(MPI_ERR_COUNT, "%s: %s[%d] is negative (%ld)", fn, cname, j,
                            (long)dmpi_nbr_at(counts, j));
    return MPI_SUCCESS;
}

int dmpi_nbr_check_vblocks(const char *fn, const char *side, const void *buf, int n, dmpi_nbr_ints_t counts,
                           const char *cname, dmpi_nbr_ints_t displs, const char *dname, MPI_Datatype type,
                           dmpi_dtype_t **dt)
{
    int err;
    if ((err = check_buf(fn, side, buf)) || (err = check_counts(fn, n, counts, cname, displs, dname)) ||
        (err = dmpi_coll_check_type(fn, side, "type", -1, type, dt)))
        return err;
    for (int j = 0; j < n; j++)
        if (!dmpi_coll_buf_ok(buf, dmpi_nbr_at(counts, j), *dt) && !dmpi_nbr_at(displs, j))
            return dmpi_err(MPI_ERR_BUFFER, "%s: %sbuf is NULL but %s[%d] is %ld of %s", fn, side, cname, j,
                            (long)dmpi_nbr_at(counts, j), dmpi_dtype_desc(*dt));
    return MPI_SUCCESS;
}

int dmpi_nbr_check_wblocks(const char *fn, const char *side, const void *buf, int n, dmpi_nbr_ints_t counts,
                           dmpi_nbr_ints_t displs, const MPI_Datatype *types)
{
    char cname[16], dname[16], tname[16];
    snprintf(cname, sizeof cname, "%scounts", side);
    snprintf(dname, sizeof dname, "%cdispls", side[0]);
    snprintf(tname, sizeof tname, "%stypes", side);
    int err;
    if ((err = check_buf(fn, side, buf)) || (err = check_counts(fn, n, counts, cname, displs, dname)))
        return err;
    if (n > 0 && !types)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, tname);
    for (int j = 0; j < n; j++) {
        dmpi_dtype_t *dt;
        if ((err = dmpi_coll_check_type(fn, side, "types", j, types[j], &dt)))
            return err;
        if (!dmpi_coll_buf_ok(buf, dmpi_nbr_at(counts, j), dt) && !dmpi_nbr_at(displs, j))
            return dmpi_err(MPI_ERR_BUFFER, "%s: %sbuf is NULL but %s[%d] is %ld of %s", fn, side, cname, j,
                            (long)dmpi_nbr_at(counts, j), dmpi_dtype_desc(dt));
    }
    return MPI_SUCCESS;
}

/* ---- sendbuf == recvbuf ---------------------------------------------------- */

static int nblocks(const dmpi_nbr_side_t *s, int degree) { return s->same ? degree > 0 : degree; }

static bool moves_data(const dmpi_nbr_side_t *s, int degree)
{
    for (int j = 0; j < nblocks(s, degree); j++) {
        void *b;
        size_t n;
        dmpi_dtype_t *dt;
        dmpi_nbr_block(s, j, &b, &n, &dt);
        if (n && dt->size)
            return true;
    }
    return false;
}

static int alias_copy(const char *fn, dmpi_nbr_side_t *send, int outdegree, void **copy)
{
    /* bytes [lo, hi) from sendbuf that the send blocks span (an extent may be negative) */
    intptr_t lo = INTPTR_MAX, hi = INTPTR_MIN, base = (intptr_t)send->buf;
    for (int j = 0; j < nblocks(send, outdegree); j++) {
        void *b;
        size_t n;
        dmpi_dtype_t *dt;
        dmpi_nbr_block(send, j, &b, &n, &dt);
        if (!n || !dt->size)
            continue;
        intptr_t off = (intptr_t)b - base, step = (intptr_t)(n - 1) * dt->extent;
        intptr_t first = off + dt->true_lb + (step < 0 ? step : 0);
        intptr_t end = off + dt->true_lb + dt->true_extent + (step > 0 ? step : 0);
        lo = first < lo ? first : lo;
        hi = end > hi ? end : hi;
    }
    size_t bytes = (size_t)(hi - lo);
    char *p = malloc(bytes ? bytes : 1);
    if (!p)
        return dmpi_err(MPI_ERR_NO_MEM,
                        "%s: sendbuf and recvbuf are the same buffer, and there is no memory for a copy of its "
                        "%zu bytes of send data", fn, bytes);
    memcpy(p, (const char *)send->buf + lo, bytes);
    *copy = p;
    send->buf = (const void *)((uintptr_t)p - (uintptr_t)lo);
    return MPI_SUCCESS;
}

static int aliased(const char *fn)
{
    return dmpi_err(MPI_ERR_BUFFER, "%s: sendbuf and recvbuf are the same buffer", fn);
}

int dmpi_nbr_finish(dmpi_comm_t *c, const char *fn, int mode, MPI_Info info, MPI_Request *request,
                    dmpi_nbr_side_t *send, int outdegree, const dmpi_nbr_side_t *recv, int indegree)
{
    int err;
    dmpi_request_t *r = NULL;
    void *copy = NULL;
    if (mode != DMPI_NBR_BLOCKING && (err = dmpi_check_ptr(fn, request, "the request pointer")))
        return dmpi_api_error(c, fn, err);
    if (mode == DMPI_NBR_PERSISTENT && info != MPI_INFO_NULL && !dmpi_info_get(info))
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_INFO, "%s: invalid info object 0x%x", fn, (unsigned)info));
    bool alias = DMPI_UNLIKELY(send->buf == recv->buf) && send->buf && moves_data(send, outdegree) &&
                 moves_data(recv, indegree);
    if (alias && mode == DMPI_NBR_PERSISTENT)
        return dmpi_api_error(c, fn, aliased(fn));
    if (alias && (err = alias_copy(fn, send, outdegree, &copy)))
        return dmpi_api_error(c, fn, err);
    if (mode == DMPI_NBR_PERSISTENT)
        err = dmpi_coll_neighbor_init(c, fn, send, recv, &r);
    else
        err = dmpi_coll_neighbor(c, fn, send, recv, mode == DMPI_NBR_NONBLOCKING ? &r : NULL);
    if (copy) {
        if (r)                       /* started: it may read the copy until it completes */
            r->coll_copy = copy;
        else
            free(copy);
    }
    if (err != MPI_SUCCESS)
        return dmpi_api_error(c, fn, err);
    if (request)
        *request = r->handle;
    return copy ? dmpi_api_error(c, fn, aliased(fn)) : MPI_SUCCESS;
}
