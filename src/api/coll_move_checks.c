/* Argument checks of the barrier and data-movement collectives (coll_move.h). */
#include "api/coll_move.h"
#include <stdio.h>
#include "core/info.h"
#include <stdlib.h>

int dmpi_check_coll(const char *fn, MPI_Comm comm, dmpi_comm_t **c)
{
    int err = dmpi_check_init(fn);
    return err ? err : dmpi_check_comm(fn, comm, c);
}

int dmpi_check_call(const dmpi_coll_call_t *k)
{
    if (k->mode == DMPI_BLOCKING)
        return MPI_SUCCESS;
    if (k->mode == DMPI_PERSISTENT && k->info != MPI_INFO_NULL && !dmpi_info_get(k->info))
        return dmpi_err(MPI_ERR_INFO, "%s: invalid info object 0x%x", k->fn, (unsigned)k->info);
    return dmpi_check_ptr(k->fn, k->request, "the request pointer");
}

int dmpi_coll_check_type(const char *fn, const char *side, const char *noun, int j, MPI_Datatype h,
                         dmpi_dtype_t **out)
{
    if (DMPI_LIKELY((*out = dmpi_dtype_get(h)) && (*out)->committed))
        return MPI_SUCCESS;
    char what[32];
    if (j >= 0)
        snprintf(what, sizeof what, "%s%s[%d]", side, noun, j);
    else
        snprintf(what, sizeof what, "%s%s", side, noun);
    if (*out)
        return dmpi_err(MPI_ERR_TYPE, "%s: %s %s is not committed; call MPI_Type_commit first", fn, what,
                        dmpi_dtype_desc(*out));
    if (h == MPI_DATATYPE_NULL)
        return dmpi_err(MPI_ERR_TYPE, "%s: %s is MPI_DATATYPE_NULL", fn, what);
    return dmpi_err(MPI_ERR_TYPE, "%s: %s is not a valid datatype handle (0x%x)", fn, what, (unsigned)h);
}


int dmpi_check_coll_count(const char *fn, const char *what, MPI_Count count)
{
    if (count >= 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_COUNT, "%s: %s is negative (%lld)", fn, what, (long long)count);
}

int dmpi_check_block(const char *fn, const char *side, const void *buf, MPI_Count count, MPI_Datatype type,
                     dmpi_dtype_t **dt)
{
    if (count < 0)
        return dmpi_err(MPI_ERR_COUNT, "%s: %scount is negative (%lld)", fn, side, (long long)count);
    int err = dmpi_coll_check_type(fn, side, "type", -1, type, dt);
    if (err == MPI_SUCCESS && !dmpi_coll_buf_ok(buf, count, *dt))
        err = dmpi_err(MPI_ERR_BUFFER, "%s: %sbuf is NULL but %scount is %lld of %s", fn, side, side,
                       (long long)count, dmpi_dtype_desc(*dt));
    return err;
}

static int check_counts(const char *fn, int n, const MPI_Count *counts, const char *cname, const MPI_Aint *displs,
                        const char *dname)
{
    if (!counts)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, cname);
    if (!displs)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, dname);
    for (int j = 0; j < n; j++)
        if (counts[j] < 0)
            return dmpi_err(MPI_ERR_COUNT, "%s: %s[%d] is negative (%lld)", fn, cname, j, (long long)counts[j]);
    return MPI_SUCCESS;
}

int dmpi_check_vblocks(const char *fn, const char *side, const void *buf, int n, const MPI_Count *counts,
                       const char *cname, const MPI_Aint *displs, const char *dname, MPI_Datatype type,
                       dmpi_dtype_t **dt)
{
    int err = check_counts(fn, n, counts, cname, displs, dname);
    if (err == MPI_SUCCESS)
        err = dmpi_coll_check_type(fn, side, "type", -1, type, dt);
    for (int j = 0; j < n && err == MPI_SUCCESS; j++)
        if (!dmpi_coll_buf_ok(buf, counts[j], *dt) && !displs[j])
            err = dmpi_err(MPI_ERR_BUFFER, "%s: %sbuf is NULL but %s[%d] is %lld of %s", fn, side, cname, j,
                           (long long)counts[j], dmpi_dtype_desc(*dt));
    return err;
}

int dmpi_check_wblocks(const char *fn, const char *side, const void *buf, int n, const MPI_Count *counts,
                       const MPI_Aint *displs, const MPI_Datatype *types)
{
    char cname[16], dname[16], tname[16];
    snprintf(cname, sizeof cname, "%scounts", side);
    snprintf(dname, sizeof dname, "%cdispls", side[0]);
    snprintf(tname, sizeof tname, "%stypes", side);
    int err = check_counts(fn, n, counts, cname, displs, dname);
    if (err == MPI_SUCCESS && !types)
        err = dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, tname);
    for (int j = 0; j < n && err == MPI_SUCCESS; j++) {
        dmpi_dtype_t *dt;
        if ((err = dmpi_coll_check_type(fn, side, "types", j, types[j], &dt)) == MPI_SUCCESS &&
            !dmpi_coll_buf_ok(buf, counts[j], dt) && !displs[j])
            err = dmpi_err(MPI_ERR_BUFFER, "%s: %sbuf is NULL but %s[%d] is %lld of %s", fn, side, cname, j,
                           (long long)counts[j], dmpi_dtype_desc(dt));
    }
    return err;
}

int dmpi_check_no_in_place(const char *fn, const char *what, const void *buf)
{
    if (buf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: %s cannot be MPI_IN_PLACE here", fn, what);
}

/* ---- the int forms' arrays, widened ---------------------------------------- */

static MPI_Count *scratch;         /* kept between calls: no allocation once it is large enough */
static size_t scratch_cap;       /* entries */
static bool scratch_busy;

int dmpi_varrays_widen(const char *fn, int n, const dmpi_varrays_in_t *in, dmpi_varrays_t *out)
{
    *out = (dmpi_varrays_t){{NULL, NULL}, {NULL, NULL}, NULL};
    if (in->wide) {
        for (int k = 0; k < 2; k++) {
            out->counts[k] = in->counts[k];
            out->displs[k] = in->displs[k];
        }
        return MPI_SUCCESS;
    }
    size_t need = 4 * (size_t)n;
    MPI_Count *mem = scratch;
    if (scratch_busy || need > scratch_cap) {
        if (!(mem = malloc(need ? need * sizeof *mem : 1)))
            return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for %d counts and displacements", fn, 2 * n);
        if (!scratch_busy) {     /* the new, larger scratch */
            free(scratch);
            scratch = mem;
            scratch_cap = need;
        }
    }
    if (mem == scratch)
        scratch_busy = true;
    out->mem = mem;
    for (int k = 0; k < 2; k++) {
        const int *c = in->counts[k], *d = in->displs[k];
        MPI_Count *wc = (MPI_Count *)(mem + 2 * k * (size_t)n);
        MPI_Aint *wd = (MPI_Aint *)(mem + (2 * k + 1) * (size_t)n);
        for (int j = 0; c && j < n; j++)
            wc[j] = c[j];
        for (int j = 0; d && j < n; j++)
            wd[j] = d[j];
        out->counts[k] = c ? wc : NULL;
        out->displs[k] = d ? wd : NULL;
    }
    return MPI_SUCCESS;
}

int dmpi_varrays_done(dmpi_varrays_t *v, int err)
{
    if (!v->mem)
        return err;
    if (v->mem == scratch)
        scratch_busy = false;
    else
        free(v->mem);
    v->mem = NULL;
    return err;
}
