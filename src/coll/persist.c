/* Persistent collectives (persist.h): a kept schedule behind a persistent
 * request; the request's start and release run through its pops. */
#include "coll/persist.h"
#include "coll/coll.h"

static int start(dmpi_request_t *r)
{
    r->done = 0;
    dmpi_sched_restart(r->pstate, r);
    return MPI_SUCCESS;
}

static void release(dmpi_request_t *r)
{
    dmpi_sched_free(r->pstate);
    r->pstate = NULL;
}

static const dmpi_preq_ops_t ops = {start, release};

int dmpi_coll_persist_sched(dmpi_sched_t *s, const char *name, dmpi_request_t **out)
{
    *out = NULL;
    int err = dmpi_sched_keep(s);
    dmpi_request_t *r = err == MPI_SUCCESS ? dmpi_req_alloc(DMPI_REQ_COLL) : NULL;
    if (!r) {
        dmpi_sched_free(s);
        return err != MPI_SUCCESS ? err : dmpi_err(MPI_ERR_NO_MEM, "%s: out of request objects", name);
    }
    dmpi_sched_set_name(s, name);
    r->persistent = 1;
    r->done = 1;                 /* inactive: as a completed one, with an empty status */
    dmpi_req_set_empty_status(r, MPI_SUCCESS);
    r->pops = &ops;
    r->pstate = s;
    *out = r;
    return MPI_SUCCESS;
}

void dmpi_coll_persist_begin(void) { dmpi_sched_capture(); }

int dmpi_coll_persist_end(int err, const char *name, dmpi_request_t **out)
{
    dmpi_sched_t *s = dmpi_sched_captured();
    if (err != MPI_SUCCESS) {
        if (s)
            dmpi_sched_free(s);
        *out = NULL;
        return err;
    }
    if (!s || *out)
        return dmpi_err(MPI_ERR_INTERN, "%s: the collective did not build a schedule to keep", name);
    return dmpi_coll_persist_sched(s, name, out);
}

const dmpi_coll_table_t *dmpi_coll_persist_table(const dmpi_comm_t *c)
{
    return dmpi_comm_is_inter(c) ? &dmpi_coll_inter_table : &dmpi_coll_p2p_table;
}
