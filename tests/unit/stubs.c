/* Stand-ins for the parts of libmpi that a unit under test pulls in but that
 * the tests do not want: the process-wide state, fatal exits and logging
 * (which would reach the PMI client), and the buffered-send service.
 * A unit that calls dmpi_fatal is broken or out of memory: the test fails. */
#include "core/dmpi.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

dmpi_world_t dmpi_world;

/* Counted so that tests can check who released which region. */
int unit_bsend_releases;
void *unit_bsend_last_region;

void dmpi_bsend_release(void *region);
void dmpi_bsend_release(void *region)
{
    unit_bsend_releases++;
    unit_bsend_last_region = region;
}

void dmpi_verbose(int level, const char *fmt, ...)
{
    (void)level;
    (void)fmt;
}

void dmpi_abort_job(int code)
{
    fflush(stdout);
    fprintf(stderr, "FAIL: the unit under test aborted the job (code %d)\n", code);
    exit(3);
}

void dmpi_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL: dmpi_fatal called: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    dmpi_abort_job(1);
}

/* Requests in these tests use communicators made by hand: never the last reference. */
void dmpi_comm_destroy_last(dmpi_comm_t *c)
{
    (void)c;
}
