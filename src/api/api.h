/* Shared by the MPI_* entry points: argument checks that name the call and
 * the bad argument, and the hand-off of errors to the error handler.
 * Each entry point is PMPI_X; MPI_X is a weak alias (profiling interface). */
#ifndef DMPI_API_H
#define DMPI_API_H

#include "core/dmpi.h"
#include "core/lock.h"

#define DMPI_ALIAS(name) _Pragma(DMPI_STR(weak MPI_##name = PMPI_##name))
#define DMPI_STR(x) #x

static inline bool dmpi_ready(void) { return DMPI_LIKELY(dmpi_world.state == DMPI_STATE_INIT); }

/* Each returns MPI_SUCCESS or an error code whose message names fn and the argument. */
int dmpi_check_init(const char *fn);
int dmpi_check_comm(const char *fn, MPI_Comm h, dmpi_comm_t **out);
int dmpi_check_type(const char *fn, MPI_Datatype h, dmpi_dtype_t **out);
int dmpi_check_count(const char *fn, MPI_Count count);
int dmpi_check_buf(const char *fn, const void *buf, MPI_Count count, const dmpi_dtype_t *dt);
int dmpi_check_dest(const char *fn, int dest, const dmpi_comm_t *c);
int dmpi_check_source(const char *fn, int src, const dmpi_comm_t *c);
int dmpi_check_send_tag(const char *fn, int tag);
int dmpi_check_recv_tag(const char *fn, int tag);
int dmpi_check_ptr(const char *fn, const void *p, const char *what);
/* A live session (MPI_ERR_SESSION otherwise). Its errors go to its handler;
 * without a session (a bad handle), to MPI_COMM_WORLD's, as errors of no object do. */
struct dmpi_session;
int dmpi_check_session(const char *fn, MPI_Session h, struct dmpi_session **s);
int dmpi_api_session_error(struct dmpi_session *s, const char *fn, int code);

/* A NULL status pointer is the user's error, not ours to write through:
 * MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are (MPI_Status *)1. A valid
 * pointer costs one compare; the message comes from out of line. An array
 * of count <= 0 statuses is never touched, so NULL is fine there. */
int dmpi_err_status_null(const char *fn, int count);
static inline int dmpi_check_status(const char *fn, const MPI_Status *st)
{
    return DMPI_LIKELY(st != NULL) ? MPI_SUCCESS : dmpi_err_status_null(fn, -1);
}
static inline int dmpi_check_statuses(const char *fn, int count, const MPI_Status *st)
{
    return DMPI_LIKELY(st != NULL) || count <= 0 ? MPI_SUCCESS : dmpi_err_status_null(fn, count);
}
/* MPI_ERR_COMM unless c is an intracommunicator (topologies, split_type,
 * create_group) or an intercommunicator respectively. */
/* The hints of i that communicators recognise, set on c (api/comm_info.c);
 * replace: the others go back to their defaults first. i may be NULL. */
struct dmpi_info;
int dmpi_api_comm_set_hints(const char *fn, dmpi_comm_t *c, const struct dmpi_info *i, bool replace);
int dmpi_check_intra(const char *fn, const dmpi_comm_t *c);
int dmpi_check_inter(const char *fn, const dmpi_comm_t *c);
/* MPI_ERR_COMM on an intercommunicator: MPI defines no scans there. */
int dmpi_check_scan_comm(const char *fn, const dmpi_comm_t *c);
/* MPI_ERR_BUFFER if either buffer is MPI_IN_PLACE on an intercommunicator,
 * where no collective takes it (the standard's two-group forms). */
int dmpi_check_inter_in_place(const char *fn, const dmpi_comm_t *c, const void *sendbuf, const void *recvbuf);
/* The root argument of a rooted collective: a rank of an intracommunicator;
 * on an intercommunicator MPI_ROOT, MPI_PROC_NULL or a remote rank. */
int dmpi_check_root(const char *fn, int root, const dmpi_comm_t *c);
/* What this rank does in a rooted collective (root already checked): the
 * root's part; a sender's or receiver's; or, at the other ranks of an
 * intercommunicator root's group (MPI_PROC_NULL), nothing at all. */
enum { DMPI_AT_ROOT, DMPI_AT_OTHER, DMPI_AT_IDLE };
static inline int dmpi_root_role(const dmpi_comm_t *c, int root)
{
    if (!dmpi_comm_is_inter(c))
        return c->rank == root ? DMPI_AT_ROOT : DMPI_AT_OTHER;
    return root == MPI_ROOT ? DMPI_AT_ROOT : root == MPI_PROC_NULL ? DMPI_AT_IDLE : DMPI_AT_OTHER;
}

/* All the checks of a send (dest) or receive (source): comm, count, type, buffer, rank, tag. */
int dmpi_check_send_args(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                         MPI_Comm comm, dmpi_comm_t **c, dmpi_dtype_t **dt);
int dmpi_check_recv_args(const char *fn, const void *buf, MPI_Count count, MPI_Datatype type, int src, int tag,
                         MPI_Comm comm, dmpi_comm_t **c, dmpi_dtype_t **dt);

/* MPI-4.1: Comm/Type/Win_get_name of the null handle give its name
 * ("MPI_COMM_NULL", ...). Checks init and the two pointers. */
int dmpi_null_handle_name(const char *fn, const char *null_name, char *name, int *resultlen);

/* Error return through the handler of comm (MPI_COMM_WORLD's when NULL). */
static inline int dmpi_api_error(dmpi_comm_t *comm, const char *fn, int code)
{
    return dmpi_err_handle(comm, fn, code);
}

/* The comm a bad-argument error is reported on: the call's own if valid. */
static inline dmpi_comm_t *dmpi_comm_or_null(MPI_Comm h) { return dmpi_comm_get(h); }

#define DMPI_TAG_UB_VALUE 0x7fffffff

/* The common case of a send or receive, in a few compares; anything else
 * (PROC_NULL, ANY_SOURCE, MPI_BOTTOM, counts above INT_MAX, errors) goes
 * through the full checks. */
static inline bool dmpi_p2p_args_ok(const dmpi_comm_t *c, const dmpi_dtype_t *dt, const void *buf, MPI_Count count,
                                    int rank, int tag)
{
    return dmpi_ready() && c && dt && dt->committed && (unsigned long long)count <= 0x7fffffff &&
           (unsigned)rank < (unsigned)c->peer_size && tag >= 0 && (buf || count == 0);
}

#endif
