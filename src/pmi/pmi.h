/* PMI client: the library's only way to learn its rank, size and peers.
 * Speaks over the socket named by PMI_FD either the PMI-1 wire protocol
 * (our mpiexec and MPICH's Hydra) or PMI-2 (Slurm's srun --mpi=pmi2, which
 * also sets PMI_JOBID; src/pmi/pmi2.c). Without PMI_FD the process runs as
 * a singleton: rank 0 of 1, with a private in-process key space; unless
 * the environment shows a launcher that started several ranks without
 * PMI_FD (srun without --mpi=pmi2, Open MPI's mpirun, Hydra with PMI_PORT):
 * then init refuses with one line on stderr and DMPI_PMI_REFUSED.
 *
 * PMI-1 wire format: one request per line, "cmd=NAME key=value key=value\n",
 * one reply line per request (none for abort); PMI-2 separates fields with
 * ';'. Keys and values therefore cannot contain spaces, ';' or newlines;
 * keys cannot contain '='. Encode binary data (hex, base64 without spaces)
 * before putting it.
 *
 * Not thread-safe: the library serializes calls (they happen at init and
 * finalize). */
#ifndef DMPI_PMI_H
#define DMPI_PMI_H

#include <stddef.h>

#define DMPI_PMI_KEY_MAX 64     /* buffer size for a key, NUL included */
#define DMPI_PMI_VAL_MAX 1024   /* buffer size for a value, NUL included */

#define DMPI_PMI_REFUSED (-2)   /* init: started by a launcher dmpi cannot talk to (said on stderr) */

/* All return 0 on success, -1 on failure (a message is printed to stderr). */
int dmpi_pmi_init(int *rank, int *size, int *appnum);   /* or DMPI_PMI_REFUSED */
int dmpi_pmi_universe_size(int *usize);         /* -1 if the launcher does not know it (Hydra without hosts) */
const char *dmpi_pmi_kvsname(void);            /* unique per job; "singleton-<pid>" without PMI; "" before init */
int dmpi_pmi_put(const char *key, const char *value);
int dmpi_pmi_get(const char *key, char *value, int maxlen); /* after a barrier that follows the put */
int dmpi_pmi_barrier(void);                    /* commits puts, then waits for every rank */
int dmpi_pmi_abort(int exitcode, const char *msg); /* asks the launcher to kill the job; does not return on success */
int dmpi_pmi_finalize(void);
int dmpi_pmi_is_singleton(void);

/* Like dmpi_pmi_get, for keys that may legitimately be absent (for example
 * "PMI_process_mapping", which Hydra, our mpiexec and Slurm provide; under
 * PMI-2 it is read as a job attribute): returns 0 if
 * found, 1 if the key does not exist (silently), -1 on any other failure. */
int dmpi_pmi_try_get(const char *key, char *value, int maxlen);

/* Dynamic processes (PMI-1 only). spawn starts the commands as one new
 * job, whose key space gets preput_key = preput_val before it starts;
 * 0, or -1 with the reason in err. */
typedef struct dmpi_pmi_spawn {
    const char *cmd;
    char **argv;                 /* NULL-terminated, or NULL */
    int maxprocs;
    int ninfo;
    const char **info_keys, **info_vals;
} dmpi_pmi_spawn_t;
int dmpi_pmi_spawn(int count, const dmpi_pmi_spawn_t *cmds, const char *preput_key, const char *preput_val,
                   char *err, size_t errlen);
/* The name service: publish service -> port, unpublish, lookup (into
 * port). 0; 1 if the name is taken (publish) or absent (the others); -1 if
 * the process manager failed. Without one (a singleton, PMI-2), names live
 * in this process. */
enum { DMPI_PMI_PUBLISH, DMPI_PMI_UNPUBLISH, DMPI_PMI_LOOKUP };
int dmpi_pmi_name(int op, const char *service, char *port, int portlen);

#endif
