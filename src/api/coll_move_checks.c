/* Argument checks of the barrier and data-movement collectives (coll_move.h). */
#include "api/coll_move.h"
#include <stdio.h>

int dmpi_check_coll(const char *fn, MPI_Comm comm, dmpi_comm_t **c)
{
    int err = dmpi_check_init(fn);
    return err ? err : dmpi_check_comm(fn, comm, c);
}

/* The argument's name, "sendtype" or "recvtypes[2]", is made only for a
 * message: side and noun, with [j] if j >= 0. */
static int check_type(const char *fn, const char *side, const char *noun, int j, MPI_Datatype h,
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

/* NULL is MPI_BOTTOM: fine for types with absolute addresses, not for
 * predefined types that hold data. */
static bool buf_ok(const void *buf, int count, const dmpi_dtype_t *dt)
{
    return buf || count == 0 || dt->size == 0 || !dt->predefined;
}

int dmpi_check_block(const char *fn, const char *side, const void *buf, int count, MPI_Datatype type,
                     dmpi_dtype_t **dt)
{
    if (count < 0)
        return dmpi_err(MPI_ERR_COUNT, "%s: %scount is negative (%d)", fn, side, count);
    int err = check_type(fn, side, "type", -1, type, dt);
    if (err == MPI_SUCCESS && !buf_ok(buf, count, *dt))
        err = dmpi_err(MPI_ERR_BUFFER, "%s: %sbuf is NULL but %scount is %d of %s", fn, side, side, count,
                       dmpi_dtype_desc(*dt));
    return err;
}

static int check_counts(const char *fn, int n, const int *counts, const char *cname, const int *displs,
                        const char *dname)
{
    if (!counts)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, cname);
    if (!displs)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, dname);
    for (int j = 0; j < n; j++)
        if (counts[j] < 0)
            return dmpi_err(MPI_ERR_COUNT, "%s: %s[%d] is negative (%d)", fn, cname, j, counts[j]);
    return MPI_SUCCESS;
}

int dmpi_check_vblocks(const char *fn, const char *side, const void *buf, int n, const int *counts,
                       const char *cname, const int *displs, const char *dname, MPI_Datatype type,
                       dmpi_dtype_t **dt)
{
    int err = check_counts(fn, n, counts, cname, displs, dname);
    if (err == MPI_SUCCESS)
        err = check_type(fn, side, "type", -1, type, dt);
    for (int j = 0; j < n && err == MPI_SUCCESS; j++)
        if (!buf_ok(buf, counts[j], *dt))
            err = dmpi_err(MPI_ERR_BUFFER, "%s: %sbuf is NULL but %s[%d] is %d of %s", fn, side, cname, j,
                           counts[j], dmpi_dtype_desc(*dt));
    return err;
}

int dmpi_check_wblocks(const char *fn, const char *side, const void *buf, int n, const int *counts,
                       const int *displs, const MPI_Datatype *types)
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
        if ((err = check_type(fn, side, "types", j, types[j], &dt)) == MPI_SUCCESS && !buf_ok(buf, counts[j], dt))
            err = dmpi_err(MPI_ERR_BUFFER, "%s: %sbuf is NULL but %s[%d] is %d of %s", fn, side, cname, j,
                           counts[j], dmpi_dtype_desc(dt));
    }
    return err;
}

int dmpi_check_no_in_place(const char *fn, const char *what, const void *buf)
{
    if (buf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_BUFFER, "%s: %s cannot be MPI_IN_PLACE here", fn, what);
}
