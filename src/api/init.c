/* Start-up, shut-down and the environment queries. */
#include "api/api.h"
#include "comm/comm.h"
#include "core/attr.h"
#include "core/session.h"
#include "io/io.h"
#include "pmi/pmi.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

DMPI_ALIAS(Init)
DMPI_ALIAS(Init_thread)
DMPI_ALIAS(Initialized)
DMPI_ALIAS(Finalize)
DMPI_ALIAS(Finalized)
DMPI_ALIAS(Abort)
DMPI_ALIAS(Query_thread)
DMPI_ALIAS(Is_thread_main)
DMPI_ALIAS(Get_processor_name)
DMPI_ALIAS(Get_version)
DMPI_ALIAS(Get_library_version)
DMPI_ALIAS(Wtime)
DMPI_ALIAS(Wtick)
DMPI_ALIAS(Pcontrol)

static pthread_t main_thread;

static int init(const char *fn, int required, int *provided)
{
    if (dmpi_world.model != DMPI_MODEL_NONE)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_OTHER, "%s: MPI is already %s", fn,
                              dmpi_world.model == DMPI_MODEL_INIT ? "initialized" : "finalized"));
    main_thread = pthread_self();
    /* Started already if a session came first (comm/runtime.c). */
    int err = dmpi_runtime_start(fn, required, provided);
    if (err != MPI_SUCCESS) {
        /* No communicator exists yet: report and stop, as ERRORS_ARE_FATAL does. */
        fprintf(stderr, "dmpi: %s\n", dmpi_err_string_of(err));
        dmpi_abort_job(1);
    }
    dmpi_world.model = DMPI_MODEL_INIT;
    return MPI_SUCCESS;
}

int PMPI_Init(int *argc, char ***argv)
{
    DMPI_API_ENTER;
    (void)argc;
    (void)argv;
    int provided;
    return init("MPI_Init", MPI_THREAD_SINGLE, &provided);
}

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    DMPI_API_ENTER;
    (void)argc;
    (void)argv;
    const char *fn = "MPI_Init_thread";
    if (!provided)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: provided is NULL", fn));
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: invalid thread level %d", fn, required));
    return init(fn, required, provided);
}

int PMPI_Initialized(int *flag)
{
    if (!flag)
        return dmpi_api_error(NULL, "MPI_Initialized", dmpi_err(MPI_ERR_ARG, "MPI_Initialized: flag is NULL"));
    *flag = dmpi_world.model != DMPI_MODEL_NONE;
    return MPI_SUCCESS;
}

int PMPI_Finalized(int *flag)
{
    if (!flag)
        return dmpi_api_error(NULL, "MPI_Finalized", dmpi_err(MPI_ERR_ARG, "MPI_Finalized: flag is NULL"));
    *flag = dmpi_world.model == DMPI_MODEL_FINALIZED;
    return MPI_SUCCESS;
}

int PMPI_Finalize(void)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Finalize";
    int err = dmpi_check_init(fn);
    if (err == MPI_SUCCESS && dmpi_world.model != DMPI_MODEL_INIT)
        err = dmpi_err(MPI_ERR_OTHER, "%s: %s", fn, dmpi_world.model == DMPI_MODEL_NONE
                       ? "MPI_Init was not called (sessions end with MPI_Session_finalize)"
                       : "called twice");
    if (err != MPI_SUCCESS)
        return dmpi_api_error(NULL, fn, err);
    if (dmpi_session_count() == 0) {
        /* The library stops here: the files the program left open go first,
         * but after the delete callbacks of MPI_COMM_SELF's attributes, which
         * MPI runs before anything else and which may close files themselves
         * (dmpi_world_finalize finds none left to run). */
        err = dmpi_attr_delete_all(dmpi_comm_get(MPI_COMM_SELF));
        dmpi_io_finalize();
    }
    int e = dmpi_world_finalize();   /* the library itself stops when no session is left */
    if (err == MPI_SUCCESS)
        err = e;
    return err == MPI_SUCCESS ? err : dmpi_api_error(NULL, fn, err);
}

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    DMPI_API_ENTER;
    /* Aborts every rank of the job, whatever comm is (allowed by the standard). */
    (void)comm;
    fflush(stdout);
    dmpi_pmi_abort(errorcode, NULL);
    dmpi_abort_job(errorcode);
}

int PMPI_Query_thread(int *provided)
{
    const char *fn = "MPI_Query_thread";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, provided, "provided")))
        return dmpi_api_error(NULL, fn, err);
    *provided = dmpi_world.thread_level;
    return MPI_SUCCESS;
}

int PMPI_Is_thread_main(int *flag)
{
    const char *fn = "MPI_Is_thread_main";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, flag, "flag")))
        return dmpi_api_error(NULL, fn, err);
    *flag = pthread_equal(pthread_self(), main_thread) != 0;
    return MPI_SUCCESS;
}

int PMPI_Get_processor_name(char *name, int *resultlen)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Get_processor_name";
    int err;
    if ((err = dmpi_check_ptr(fn, name, "name")) || (err = dmpi_check_ptr(fn, resultlen, "resultlen")))
        return dmpi_api_error(NULL, fn, err);
    if (!dmpi_world.processor_name[0] && gethostname(dmpi_world.processor_name, MPI_MAX_PROCESSOR_NAME - 1) != 0)
        strcpy(dmpi_world.processor_name, "localhost");
    snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", dmpi_world.processor_name);
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

int PMPI_Get_version(int *version, int *subversion)
{
    const char *fn = "MPI_Get_version";
    int err;
    if ((err = dmpi_check_ptr(fn, version, "version")) || (err = dmpi_check_ptr(fn, subversion, "subversion")))
        return dmpi_api_error(NULL, fn, err);
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int PMPI_Get_library_version(char *version, int *resultlen)
{
    const char *fn = "MPI_Get_library_version";
    int err;
    if ((err = dmpi_check_ptr(fn, version, "version")) || (err = dmpi_check_ptr(fn, resultlen, "resultlen")))
        return dmpi_api_error(NULL, fn, err);
    snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
             "dmpi %s (MPI %d.%d, MPICH ABI libmpi.so.12), built %s", DMPI_VERSION, MPI_VERSION, MPI_SUBVERSION,
             __DATE__);
    *resultlen = (int)strlen(version);
    return MPI_SUCCESS;
}

double PMPI_Wtime(void) { return dmpi_wtime(); }

double PMPI_Wtick(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 1e-9;
    return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}

int PMPI_Pcontrol(const int level, ...)
{
    DMPI_API_ENTER;
    (void)level;                    /* no profiling levels of our own */
    return MPI_SUCCESS;
}
