#include "core/errhandler.h"
#include "pmi/pmi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* User error handlers: MPICH-style direct handles of object type 0101. */
#define EH_BASE 0x94000000u
#define EH_MASK 0xfc000000u
#define EH_MAX 1024

static struct {
    MPI_Comm_errhandler_function *fn;
    dmpi_eh_kind_t kind;         /* the objects it may be set on */
    int refs;                    /* the user's handle and every object using it */
} user_eh[EH_MAX];

static const char *const kind_objects[] = {[DMPI_EH_COMM] = "communicators", [DMPI_EH_WIN] = "windows",
                                           [DMPI_EH_SESSION] = "sessions", [DMPI_EH_FILE] = "files"};
static const char *const kind_creator[] = {[DMPI_EH_COMM] = "MPI_Comm_create_errhandler",
                                           [DMPI_EH_WIN] = "MPI_Win_create_errhandler",
                                           [DMPI_EH_SESSION] = "MPI_Session_create_errhandler",
                                           [DMPI_EH_FILE] = "MPI_File_create_errhandler"};

static int user_index(MPI_Errhandler e)
{
    unsigned u = (unsigned)e, i = u & ~EH_MASK;
    if ((u & EH_MASK) != EH_BASE || i >= EH_MAX || !user_eh[i].fn)
        return -1;
    return (int)i;
}

bool dmpi_errhandler_valid(MPI_Errhandler e)
{
    return e == MPI_ERRORS_ARE_FATAL || e == MPI_ERRORS_RETURN || e == MPI_ERRORS_ABORT || user_index(e) >= 0;
}

static int create(dmpi_eh_kind_t kind, MPI_Comm_errhandler_function *fn, MPI_Errhandler *out)
{
    for (int i = 0; i < EH_MAX; i++)
        if (!user_eh[i].fn) {
            user_eh[i].fn = fn;
            user_eh[i].kind = kind;
            user_eh[i].refs = 1;
            *out = (MPI_Errhandler)(EH_BASE | (unsigned)i);
            return MPI_SUCCESS;
        }
    return dmpi_err(MPI_ERR_NO_MEM, "%s: all %d error handler slots are in use", kind_creator[kind], EH_MAX);
}

int dmpi_errhandler_create(MPI_Comm_errhandler_function *fn, MPI_Errhandler *out)
{
    return create(DMPI_EH_COMM, fn, out);
}

int dmpi_errhandler_create_win(MPI_Win_errhandler_function *fn, MPI_Errhandler *out)
{
    return create(DMPI_EH_WIN, fn, out);
}

int dmpi_errhandler_create_session(MPI_Session_errhandler_function *fn, MPI_Errhandler *out)
{
    return create(DMPI_EH_SESSION, fn, out);
}

/* Kept as the communicators' function type; dmpi_err_handle_file casts it
 * back before the call, so the call is made through the function's own type. */
int dmpi_errhandler_create_file(MPI_File_errhandler_function *fn, MPI_Errhandler *out)
{
    return create(DMPI_EH_FILE, (MPI_Comm_errhandler_function *)fn, out);
}

int dmpi_errhandler_check(const char *fn, MPI_Errhandler e, dmpi_eh_kind_t kind)
{
    if (!dmpi_errhandler_valid(e))
        return dmpi_err(MPI_ERR_ERRHANDLER, "%s: invalid error handler 0x%x%s", fn, (unsigned)e,
                        e == MPI_ERRHANDLER_NULL ? " (MPI_ERRHANDLER_NULL)" : "");
    int i = user_index(e);
    if (i < 0 || user_eh[i].kind == kind)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_ARG, "%s: error handler 0x%x was made by %s for %s, not for %s", fn, (unsigned)e,
                    kind_creator[user_eh[i].kind], kind_objects[user_eh[i].kind], kind_objects[kind]);
}

void dmpi_errhandler_retain(MPI_Errhandler e)
{
    int i = user_index(e);
    if (i >= 0)
        user_eh[i].refs++;
}

void dmpi_errhandler_release(MPI_Errhandler e)
{
    int i = user_index(e);
    if (i >= 0 && --user_eh[i].refs == 0)
        user_eh[i].fn = NULL;
}

int dmpi_errhandler_free(MPI_Errhandler *e)
{
    dmpi_errhandler_release(*e);
    *e = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

void dmpi_errhandler_finalize(void)
{
    for (int i = 0; i < EH_MAX; i++)
        user_eh[i].fn = NULL;
}

/* where names the object the error was raised on, for the message. */
static void fatal_error(const char *where, const char *call, int code)
{
    int cls = dmpi_err_class_of(code);
    const char *msg = dmpi_err_string_of(code);
    /* Messages made by dmpi_err already begin with the call's name. */
    bool named = msg && strncmp(msg, call, strlen(call)) == 0;
    fprintf(stderr, "dmpi: rank %d: %s%s%s [%s, on %s]; aborting the job\n", dmpi_world.rank,
            named ? "" : call, named ? "" : ": ", msg ? msg : "unknown error code",
            cls >= 0 ? dmpi_err_string_of(cls) : "invalid error class", where);
    fflush(stderr);
    dmpi_abort_job(cls > 0 ? cls : 1);
}

int dmpi_err_handle(dmpi_comm_t *comm, const char *call, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    if (!comm)
        comm = dmpi_comm_get(MPI_COMM_WORLD);
    MPI_Errhandler e = comm ? comm->errhandler : MPI_ERRORS_ARE_FATAL;
    if (e == MPI_ERRORS_RETURN)
        return code;
    if (e == MPI_ERRORS_ARE_FATAL || e == MPI_ERRORS_ABORT)
        fatal_error(comm && comm->name[0] ? comm->name : "a communicator", call, code);
    int i = user_index(e);
    if (i >= 0) {
        MPI_Comm h = comm->handle;
        user_eh[i].fn(&h, &code);
    }
    return code;
}

int dmpi_err_handle_win(MPI_Errhandler e, MPI_Win h, const char *name, const char *call, int code)
{
    if (code == MPI_SUCCESS || e == MPI_ERRORS_RETURN)
        return code;
    if (e == MPI_ERRORS_ARE_FATAL || e == MPI_ERRORS_ABORT) {
        char where[MPI_MAX_OBJECT_NAME + 16] = "a window";
        if (name && name[0])
            snprintf(where, sizeof where, "window %s", name);
        fatal_error(where, call, code);
    }
    int i = user_index(e);
    if (i >= 0)
        user_eh[i].fn(&h, &code);    /* MPI_Win * and MPI_Comm * are both int * */
    return code;
}

int dmpi_err_handle_session(MPI_Errhandler e, MPI_Session h, const char *call, int code)
{
    if (code == MPI_SUCCESS || e == MPI_ERRORS_RETURN)
        return code;
    if (e == MPI_ERRORS_ARE_FATAL || e == MPI_ERRORS_ABORT)
        fatal_error(h == MPI_SESSION_NULL ? "no session yet" : "a session", call, code);
    int i = user_index(e);
    if (i >= 0)
        user_eh[i].fn(&h, &code);    /* MPI_Session * is an int * too */
    return code;
}

int dmpi_err_handle_file(MPI_Errhandler e, MPI_File h, const char *path, const char *call, int code)
{
    if (code == MPI_SUCCESS || e == MPI_ERRORS_RETURN)
        return code;
    if (e == MPI_ERRORS_ARE_FATAL || e == MPI_ERRORS_ABORT) {
        char where[320] = "no open file (MPI_FILE_NULL)";
        if (h != MPI_FILE_NULL)
            snprintf(where, sizeof where, "file %.300s", path ? path : "(unnamed)");
        fatal_error(where, call, code);
    }
    int i = user_index(e);
    if (i >= 0) {
        /* made by MPI_File_create_errhandler (dmpi_errhandler_check lets no other kind onto a file) */
        MPI_File_errhandler_function *f = (MPI_File_errhandler_function *)user_eh[i].fn;
        f(&h, &code);
    }
    return code;
}
