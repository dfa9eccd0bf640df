/* Sessions (MPI-4 chapter 11.3): initialisation, process sets and their
 * groups, and the session's error handler. The library itself is started
 * and stopped by comm/runtime.c; process sets are core/session.c's. */
#include "api/api.h"
#include "comm/comm.h"
#include "core/errhandler.h"
#include "core/group.h"
#include "core/info.h"
#include "core/session.h"
#include "io/io.h"
#include "p2p/bsend.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

DMPI_ALIAS(Session_init)
DMPI_ALIAS(Session_finalize)
DMPI_ALIAS(Session_get_num_psets)
DMPI_ALIAS(Session_get_nth_pset)
DMPI_ALIAS(Session_get_pset_info)
DMPI_ALIAS(Session_get_info)
DMPI_ALIAS(Session_create_errhandler)
DMPI_ALIAS(Session_set_errhandler)
DMPI_ALIAS(Session_get_errhandler)
DMPI_ALIAS(Session_call_errhandler)
DMPI_ALIAS(Group_from_session_pset)

/* MPI_INFO_NULL or a valid info object; *out NULL for MPI_INFO_NULL. */
static int check_info(const char *fn, MPI_Info h, dmpi_info_t **out)
{
    *out = NULL;
    if (h == MPI_INFO_NULL || (*out = dmpi_info_get(h)))
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_INFO, "%s: invalid info 0x%x", fn, (unsigned)h);
}

/* A known process set's index. */
static int check_pset(const char *fn, const char *name, int *i)
{
    if (!name)
        return dmpi_err(MPI_ERR_ARG, "%s: pset_name is NULL", fn);
    if ((*i = dmpi_pset_find(name)) >= 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: no process set is named \"%.*s\" (MPI_Session_get_nth_pset lists them)", fn,
                    MPI_MAX_PSET_NAME_LEN, name);
}

/* The "thread_level" hint; MPI_THREAD_SINGLE without one. */
static int thread_level_of(const char *fn, const dmpi_info_t *info, int *level)
{
    const char *v = info ? dmpi_info_lookup(info, "thread_level") : NULL;
    *level = v ? dmpi_thread_level_parse(v) : MPI_THREAD_SINGLE;
    if (*level >= 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_INFO, "%s: info key thread_level has value \"%.64s\"; it takes MPI_THREAD_SINGLE, "
                    "MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED or MPI_THREAD_MULTIPLE", fn, v);
}

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_init";
    dmpi_info_t *in;
    int err, level, provided;
    if ((err = dmpi_errhandler_check(fn, errhandler, DMPI_EH_SESSION)))
        return dmpi_api_error(NULL, fn, err);
    if ((err = dmpi_check_ptr(fn, session, "session")) || (err = check_info(fn, info, &in)) ||
        (err = thread_level_of(fn, in, &level)) || (err = dmpi_runtime_start(fn, level, &provided)))
        return dmpi_err_handle_session(errhandler, MPI_SESSION_NULL, fn, err);
    dmpi_session_t *s = dmpi_session_new(errhandler, provided);
    if (!s) {
        err = dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for a session", fn);
        dmpi_runtime_release();
        return dmpi_err_handle_session(errhandler, MPI_SESSION_NULL, fn, err);
    }
    *session = s->handle;
    return MPI_SUCCESS;
}

int PMPI_Session_finalize(MPI_Session *session)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_finalize";
    dmpi_session_t *s = NULL;
    int err;
    if ((err = dmpi_check_ptr(fn, session, "session")) || (err = dmpi_check_session(fn, *session, &s)))
        return dmpi_api_session_error(s, fn, err);
    MPI_Errhandler e = s->errhandler;
    dmpi_errhandler_retain(e);      /* for an error of the shutdown, after s is gone */
    dmpi_session_buffer_drop(s);    /* a buffer still attached: its messages leave first */
    if (dmpi_world.model == DMPI_MODEL_FINALIZED && dmpi_session_count() == 1)
        dmpi_io_finalize();         /* the library stops below: the files left open go first */
    dmpi_session_free(s);
    *session = MPI_SESSION_NULL;
    err = dmpi_runtime_release();
    if (err != MPI_SUCCESS)
        err = dmpi_err_handle_session(e, MPI_SESSION_NULL, fn, err);
    dmpi_errhandler_release(e);
    return err;
}

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_get_num_psets";
    dmpi_session_t *s = NULL;
    dmpi_info_t *in;
    int err;
    if ((err = dmpi_check_session(fn, session, &s)) || (err = check_info(fn, info, &in)) ||
        (err = dmpi_check_ptr(fn, npset_names, "npset_names")))
        return dmpi_api_session_error(s, fn, err);
    *npset_names = dmpi_pset_count();
    return MPI_SUCCESS;
}

/* *pset_len: in, the room at pset_name (0: only ask); out, the name's
 * length with its terminating null. A longer name is cut to fit. */
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_get_nth_pset";
    dmpi_session_t *s = NULL;
    dmpi_info_t *in;
    int err;
    if ((err = dmpi_check_session(fn, session, &s)) || (err = check_info(fn, info, &in)) ||
        (err = dmpi_check_ptr(fn, pset_len, "pset_len")))
        return dmpi_api_session_error(s, fn, err);
    if (n < 0 || n >= dmpi_pset_count())
        return dmpi_api_session_error(s, fn, dmpi_err(MPI_ERR_ARG, "%s: n = %d, but there are %d process sets", fn, n,
                                                      dmpi_pset_count()));
    if (*pset_len < 0 || (*pset_len > 0 && !pset_name))
        return dmpi_api_session_error(s, fn, dmpi_err(MPI_ERR_ARG, "%s: %s", fn, *pset_len < 0 ? "pset_len is negative"
                                                                                             : "pset_name is NULL"));
    const char *name = dmpi_pset_name(n);
    if (*pset_len > 0)
        snprintf(pset_name, (size_t)*pset_len, "%s", name);
    *pset_len = (int)strlen(name) + 1;
    return MPI_SUCCESS;
}

/* A new info object with key = value. */
static int info_with(const char *fn, const char *key, const char *value, MPI_Info *out)
{
    int err = dmpi_info_create(out);
    if (err == MPI_SUCCESS && (err = dmpi_info_set(dmpi_info_get(*out), key, value)) != MPI_SUCCESS) {
        dmpi_info_free(dmpi_info_get(*out));
        *out = MPI_INFO_NULL;
    }
    return err == MPI_SUCCESS ? err : dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the info object", fn);
}

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_get_pset_info";
    dmpi_session_t *s = NULL;
    int err, i, n;
    if ((err = dmpi_check_session(fn, session, &s)) || (err = check_pset(fn, pset_name, &i)) ||
        (err = dmpi_check_ptr(fn, info, "info")))
        return dmpi_api_session_error(s, fn, err);
    int *members = dmpi_pset_members(i, &n);
    if (!members)
        return dmpi_api_session_error(s, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn));
    free(members);
    char size[16];
    snprintf(size, sizeof size, "%d", n);
    if ((err = info_with(fn, "mpi_size", size, info)))
        return dmpi_api_session_error(s, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_get_info";
    dmpi_session_t *s = NULL;
    int err;
    if ((err = dmpi_check_session(fn, session, &s)) || (err = dmpi_check_ptr(fn, info_used, "info_used")) ||
        (err = info_with(fn, "thread_level", dmpi_thread_level_name(s->thread_level), info_used)))
        return dmpi_api_session_error(s, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_create_errhandler";
    int err;
    if ((err = dmpi_check_ptr(fn, (const void *)session_errhandler_fn, "session_errhandler_fn")) ||
        (err = dmpi_check_ptr(fn, errhandler, "errhandler")) ||
        (err = dmpi_errhandler_create_session(session_errhandler_fn, errhandler)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_set_errhandler";
    dmpi_session_t *s = NULL;
    int err;
    if ((err = dmpi_check_session(fn, session, &s)) || (err = dmpi_errhandler_check(fn, errhandler, DMPI_EH_SESSION)))
        return dmpi_api_session_error(s, fn, err);
    dmpi_errhandler_retain(errhandler);
    dmpi_errhandler_release(s->errhandler);
    s->errhandler = errhandler;
    return MPI_SUCCESS;
}

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_get_errhandler";
    dmpi_session_t *s = NULL;
    int err;
    if ((err = dmpi_check_session(fn, session, &s)) || (err = dmpi_check_ptr(fn, errhandler, "errhandler")))
        return dmpi_api_session_error(s, fn, err);
    dmpi_errhandler_retain(s->errhandler);   /* the caller frees its copy */
    *errhandler = s->errhandler;
    return MPI_SUCCESS;
}

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Session_call_errhandler";
    dmpi_session_t *s = NULL;
    int err;
    if ((err = dmpi_check_session(fn, session, &s)))
        return dmpi_api_session_error(s, fn, err);
    dmpi_api_session_error(s, fn, errorcode);
    return MPI_SUCCESS;
}

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Group_from_session_pset";
    dmpi_session_t *s = NULL;
    int err, i, n;
    if ((err = dmpi_check_session(fn, session, &s)) || (err = check_pset(fn, pset_name, &i)) ||
        (err = dmpi_check_ptr(fn, newgroup, "newgroup")))
        return dmpi_api_session_error(s, fn, err);
    int *members = dmpi_pset_members(i, &n);
    dmpi_group_t *g = members ? dmpi_group_new(members, n) : NULL;
    free(members);
    if (!g)
        return dmpi_api_session_error(s, fn, dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the group", fn));
    dmpi_group_set_session(g, s);
    if ((err = dmpi_group_handle(g, newgroup)) != MPI_SUCCESS) {
        dmpi_group_release(g);
        return dmpi_api_session_error(s, fn, err);
    }
    return MPI_SUCCESS;
}
