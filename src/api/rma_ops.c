/* Put and Get, and their request-based forms Rput and Rget. A target of
 * MPI_PROC_NULL is answered here: nothing moves, and an R form's request
 * is complete at once. The int forms and the _c forms (MPI_Count counts) share
 * one implementation each. */
#include "api/rma_api.h"

DMPI_ALIAS(Put)
DMPI_ALIAS(Get)
DMPI_ALIAS(Rput)
DMPI_ALIAS(Rget)
DMPI_ALIAS(Put_c)
DMPI_ALIAS(Get_c)
DMPI_ALIAS(Rput_c)
DMPI_ALIAS(Rget_c)

/* Both sides of a transfer, the target's place, and for an R form the
 * request pointer. */
static int check_transfer(const char *fn, const void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
                          MPI_Aint tdisp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win, bool rform,
                          MPI_Request *request, dmpi_win_t **w, dmpi_dtype_t **odt, dmpi_dtype_t **tdt)
{
    int err;
    if ((err = dmpi_check_win(fn, win, w)) || (err = dmpi_check_rma_type(fn, ocount, otype, "origin", odt)) ||
        (err = dmpi_check_rma_buf(fn, obuf, ocount, *odt, "origin")) ||
        (err = dmpi_check_win_rank(fn, *w, target, "target_rank")) || (err = dmpi_check_win_disp(fn, *w, tdisp)) ||
        (err = dmpi_check_rma_type(fn, tcount, ttype, "target", tdt)) ||
        (rform && (err = dmpi_check_ptr(fn, request, "request"))))
        return err;
    return MPI_SUCCESS;
}

/* Put (write) or Get, and their R forms. */
static int transfer(const char *fn, bool write, void *obuf, MPI_Count ocount, MPI_Datatype otype, int target,
                    MPI_Aint tdisp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win, bool rform, MPI_Request *request)
{
    dmpi_win_t *w = NULL;
    dmpi_dtype_t *odt, *tdt;
    dmpi_request_t *r = NULL;
    int err;
    if ((err = check_transfer(fn, obuf, ocount, otype, target, tdisp, tcount, ttype, win, rform, request, &w, &odt,
                              &tdt)))
        return dmpi_api_win_error(w, fn, err);
    if (target == MPI_PROC_NULL)
        return dmpi_rma_proc_null(fn, w, rform ? request : NULL);
    err = write ? dmpi_rma_put(fn, obuf, ocount, odt, target, tdisp, tcount, tdt, w, rform ? &r : NULL)
                : dmpi_rma_get(fn, obuf, ocount, odt, target, tdisp, tcount, tdt, w, rform ? &r : NULL);
    return dmpi_rma_return(fn, w, err, r, request);
}

int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    DMPI_API_ENTER;
    return transfer("MPI_Put", true, (void *)origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, false, NULL);
}

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    DMPI_API_ENTER;
    return transfer("MPI_Get", false, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, false, NULL);
}

int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    DMPI_API_ENTER;
    return transfer("MPI_Rput", true, (void *)origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, true, request);
}

int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    DMPI_API_ENTER;
    return transfer("MPI_Rget", false, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, true, request);
}

int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    DMPI_API_ENTER;
    return transfer("MPI_Put_c", true, (void *)origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, false, NULL);
}

int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    DMPI_API_ENTER;
    return transfer("MPI_Get_c", false, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, false, NULL);
}

int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    DMPI_API_ENTER;
    return transfer("MPI_Rput_c", true, (void *)origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, true, request);
}

int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    DMPI_API_ENTER;
    return transfer("MPI_Rget_c", false, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, true, request);
}
