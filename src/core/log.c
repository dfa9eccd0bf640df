/* Messages to the user, fatal exits and the job-wide abort. */
#include "core/dmpi.h"
#include "core/params.h"
#include "pmi/pmi.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

void dmpi_verbose(int level, const char *fmt, ...)
{
    if (dmpi_params.verbose < level)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "dmpi[%d]: ", dmpi_world.rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void dmpi_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "dmpi: rank %d: fatal: ", dmpi_world.rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    dmpi_abort_job(1);
}

void dmpi_abort_job(int code)
{
    fflush(stdout);
    fflush(stderr);
    /* The launcher kills every rank; without one, this just exits. */
    dmpi_pmi_abort(code, NULL);
    _exit(code ? code : 1);
}

double dmpi_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
