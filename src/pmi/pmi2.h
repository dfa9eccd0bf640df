/* PMI-2 wire protocol, as Slurm's mpi/pmi2 plugin serves it (srun
 * --mpi=pmi2); internal to src/pmi: pmi.c chooses it at init and keeps
 * the dmpi_pmi_* interface of pmi.h for both protocols.
 *
 * After the PMI-1 style "cmd=init pmi_version=2 pmi_subversion=0" line
 * (sent by pmi.c), every message in either direction is a 6-character
 * decimal length, left-aligned and padded with blanks, then that many bytes
 * of "cmd=NAME;key=value;...;". Values therefore cannot contain ';' (Slurm
 * does not unescape ";;"). */
#ifndef DMPI_PMI2_H
#define DMPI_PMI2_H

#include <stddef.h>

/* fullinit and job-getid on the descriptor fd, whose PMI-1 style init
 * line has been answered with pmi_version=2. rank and size are the
 * launcher's; jobid (the key space's name) is written into jobid. */
int dmpi_pmi2_init(int fd, int *rank, int *size, int *appnum, char *jobid, size_t jobidlen);
int dmpi_pmi2_put(const char *key, const char *value);
/* kvs-get: 0 found, 1 absent, -1 failure (reported). */
int dmpi_pmi2_get(const char *key, char *value, size_t maxlen);
/* info-getjobattr (PMI_process_mapping, universeSize): as dmpi_pmi2_get. */
int dmpi_pmi2_job_attr(const char *name, char *value, size_t maxlen);
int dmpi_pmi2_fence(void);
/* Sends abort (no reply comes: the launcher kills the job). */
int dmpi_pmi2_abort(int exitcode, const char *msg);
int dmpi_pmi2_finalize(void);

/* From pmi.c: writes all of buf to the launcher's descriptor (waits while
 * it is full); 0, or -1 after reporting why. */
int dmpi_pmi_write_all(int fd, const char *buf, size_t len);
/* From pmi.c: a whole decimal int (0), or -1. */
int dmpi_pmi_parse_int(const char *s, int *out);
/* From pmi.c: prints "dmpi: PMI (rank R): <message>" to stderr. */
void dmpi_pmi_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
