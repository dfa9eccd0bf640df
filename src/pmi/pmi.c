/* PMI client over the PMI_FD socket (see pmi.h for the contract): PMI-1
 * here, PMI-2 in pmi2.c. Slurm's mpi/pmi2 plugin (srun --mpi=pmi2) sets
 * PMI_JOBID next to PMI_FD, PMI_RANK and PMI_SIZE; our mpiexec and Hydra do
 * not. So with PMI_JOBID the init line asks for version 2 (falling back to
 * 1 if the server only speaks that), without it for version 1.
 *
 * The PMI-1 conversation, as served by our mpiexec and by MPICH's Hydra:
 *   cmd=init pmi_version=1 pmi_subversion=1   -> cmd=response_to_init ... rc=0
 *   cmd=get_maxes                             -> cmd=maxes kvsname_max= keylen_max= vallen_max=
 *   cmd=get_appnum                            -> cmd=appnum appnum=
 *   cmd=get_my_kvsname                        -> cmd=my_kvsname kvsname=
 *   cmd=get_universe_size                     -> cmd=universe_size size=
 *   cmd=put kvsname= key= value=              -> cmd=put_result rc= msg=
 *   cmd=get kvsname= key=                     -> cmd=get_result rc= msg= value=
 *   cmd=barrier_in                            -> cmd=barrier_out
 *   cmd=abort exitcode=                       (no reply: the launcher kills the job)
 *   cmd=finalize                              -> cmd=finalize_ack
 * Rank and size come from PMI_RANK and PMI_SIZE. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "pmi.h"
#include "pmi2.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define LINE_MAX_LEN 4096          /* longest request or reply line we handle */
#define ABORT_WAIT_MS 10000        /* how long abort waits to be killed before exiting itself */

struct kv {                        /* singleton mode's key space */
    char *key;
    char *val;
};

static struct {
    int initialized;
    int singleton;
    int version;                   /* of the wire protocol: 1 or 2 */
    int fd;
    int rank, size, appnum;
    int kvsname_max, keylen_max, vallen_max;
    char kvsname[256];
    char rbuf[LINE_MAX_LEN];       /* bytes received but not yet consumed */
    size_t rlen;
    struct kv *store;
    size_t nstore, capstore;
} pmi = { .fd = -1, .rank = -1 };

/* ---------------------------------------------------------------- errors */

static void vreport(const char *fmt, va_list ap)
{
    char buf[LINE_MAX_LEN + 256];
    int n;
    if (pmi.rank >= 0)
        n = snprintf(buf, sizeof buf, "dmpi: PMI (rank %d): ", pmi.rank);
    else
        n = snprintf(buf, sizeof buf, "dmpi: PMI: ");
    vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    fprintf(stderr, "%s\n", buf);
    fflush(stderr);
}

static void pmi_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void pmi_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
}

void dmpi_pmi_report(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ wire I/O */

int dmpi_pmi_write_all(int fd, const char *buf, size_t len)
{
    int use_send = 1;
    while (len > 0) {
        ssize_t n;
        if (use_send) {
            n = send(fd, buf, len, MSG_NOSIGNAL);
            if (n < 0 && errno == ENOTSOCK) {  /* a pipe: plain write */
                use_send = 0;
                continue;
            }
        } else {
            n = write(fd, buf, len);
        }
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct pollfd p = { .fd = fd, .events = POLLOUT };
                poll(&p, 1, -1);
                continue;
            }
            pmi_error("cannot write to the process manager (PMI_FD=%d): %s", fd, strerror(errno));
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Sends one request line; fmt must not contain the trailing newline. */
static int send_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int send_line(const char *fmt, ...)
{
    char line[LINE_MAX_LEN];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line - 1) {
        pmi_error("request too long for the PMI wire protocol");
        return -1;
    }
    line[n++] = '\n';
    return dmpi_pmi_write_all(pmi.fd, line, (size_t)n);
}

/* Receives one reply line into line (newline stripped). Handles replies
 * arriving in pieces, several replies in one read, and EINTR. */
static int recv_line(char *line, size_t max)
{
    for (;;) {
        char *nl = memchr(pmi.rbuf, '\n', pmi.rlen);
        if (nl) {
            size_t len = (size_t)(nl - pmi.rbuf);
            if (len >= max) {
                pmi_error("reply line from the process manager too long (%zu bytes)", len);
                return -1;
            }
            memcpy(line, pmi.rbuf, len);
            line[len] = '\0';
            pmi.rlen -= len + 1;
            memmove(pmi.rbuf, nl + 1, pmi.rlen);
            return 0;
        }
        if (pmi.rlen == sizeof pmi.rbuf) {
            pmi_error("reply line from the process manager exceeds %zu bytes", sizeof pmi.rbuf);
            return -1;
        }
        ssize_t n = read(pmi.fd, pmi.rbuf + pmi.rlen, sizeof pmi.rbuf - pmi.rlen);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct pollfd p = { .fd = pmi.fd, .events = POLLIN };
                poll(&p, 1, -1);
                continue;
            }
            pmi_error("cannot read from the process manager (PMI_FD=%d): %s", pmi.fd, strerror(errno));
            return -1;
        }
        if (n == 0) {
            pmi_error("the process manager closed the connection (did mpiexec die?)");
            return -1;
        }
        pmi.rlen += (size_t)n;
    }
}

/* Finds "key=value" among the space-separated fields of a line and copies
 * the value. Returns 0 if found, 1 if absent, -1 if the value does not fit. */
static int field(const char *line, const char *key, char *out, size_t outlen)
{
    size_t klen = strlen(key);
    const char *p = line;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *end = p;
        while (*end && *end != ' ')
            end++;
        if ((size_t)(end - p) > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            const char *v = p + klen + 1;
            size_t vlen = (size_t)(end - v);
            if (vlen >= outlen)
                return -1;
            memcpy(out, v, vlen);
            out[vlen] = '\0';
            return 0;
        }
        p = end;
    }
    return 1;
}

int dmpi_pmi_parse_int(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < INT_MIN || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

static int field_int(const char *line, const char *key, int *out)
{
    char buf[32];
    return field(line, key, buf, sizeof buf) != 0 ? -1 : dmpi_pmi_parse_int(buf, out);
}

/* Receives a reply and checks that it is "cmd=<expect>"; when the reply
 * carries rc, a non-zero rc is reported (unless rc_out takes it). */
static int expect_reply(const char *expect, char *line, size_t max, int *rc_out)
{
    char cmd[64];
    if (recv_line(line, max) != 0)
        return -1;
    if (field(line, "cmd", cmd, sizeof cmd) != 0 || strcmp(cmd, expect) != 0) {
        pmi_error("protocol error: expected 'cmd=%s' from the process manager, got '%s'", expect, line);
        return -1;
    }
    int rc = 0;
    char rcbuf[32];
    if (field(line, "rc", rcbuf, sizeof rcbuf) == 0)
        rc = atoi(rcbuf);
    if (rc_out) {
        *rc_out = rc;
    } else if (rc != 0) {
        char msg[512] = "";
        field(line, "msg", msg, sizeof msg);
        pmi_error("'%s' failed: rc=%d %s", expect, rc, msg);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------- helpers */

static int env_int(const char *name, int *out)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s) {
        pmi_error("PMI_FD is set but %s is not", name);
        return -1;
    }
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < 0 || v > INT_MAX) {
        pmi_error("bad value %s='%s'", name, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int check_key(const char *key)
{
    size_t len = key ? strlen(key) : 0;
    if (len == 0 || len >= (size_t)pmi.keylen_max) {
        pmi_error("key '%s' is empty or longer than %d characters", key ? key : "(null)", pmi.keylen_max - 1);
        return -1;
    }
    if (strpbrk(key, " =;\n\r\t")) {
        pmi_error("key '%s' contains a space, '=', ';' or newline", key);
        return -1;
    }
    return 0;
}

static int check_value(const char *value)
{
    if (!value) {
        pmi_error("NULL value");
        return -1;
    }
    if (strlen(value) >= (size_t)pmi.vallen_max) {
        pmi_error("value of %zu characters exceeds the PMI limit of %d", strlen(value), pmi.vallen_max - 1);
        return -1;
    }
    if (strpbrk(value, " ;\n\r\t")) {
        pmi_error("value '%.60s' contains a space, ';' or newline", value);
        return -1;
    }
    return 0;
}

static int not_initialized(const char *what)
{
    if (pmi.initialized)
        return 0;
    pmi_error("%s called before dmpi_pmi_init", what);
    return 1;
}

/* ---------------------------------------------------- singleton key space */

static struct kv *store_find(const char *key)
{
    for (size_t i = 0; i < pmi.nstore; i++)
        if (strcmp(pmi.store[i].key, key) == 0)
            return &pmi.store[i];
    return NULL;
}

static int store_put(const char *key, const char *value)
{
    struct kv *e = store_find(key);
    char *v = strdup(value);
    if (!v)
        goto nomem;
    if (e) {
        free(e->val);
        e->val = v;
        return 0;
    }
    if (pmi.nstore == pmi.capstore) {
        size_t cap = pmi.capstore ? 2 * pmi.capstore : 16;
        struct kv *s = realloc(pmi.store, cap * sizeof *s);
        if (!s) {
            free(v);
            goto nomem;
        }
        pmi.store = s;
        pmi.capstore = cap;
    }
    pmi.store[pmi.nstore].key = strdup(key);
    if (!pmi.store[pmi.nstore].key) {
        free(v);
        goto nomem;
    }
    pmi.store[pmi.nstore++].val = v;
    return 0;
nomem:
    pmi_error("out of memory in the singleton key space");
    return -1;
}

static void store_free(void)
{
    for (size_t i = 0; i < pmi.nstore; i++) {
        free(pmi.store[i].key);
        free(pmi.store[i].val);
    }
    free(pmi.store);
    pmi.store = NULL;
    pmi.nstore = pmi.capstore = 0;
}

/* ---------------------------------------------------------------- API */

static void report(int *rank, int *size, int *appnum)
{
    if (rank)
        *rank = pmi.rank;
    if (size)
        *size = pmi.size;
    if (appnum)
        *appnum = pmi.appnum;
}

static int init_singleton(void)
{
    pmi.singleton = 1;
    pmi.fd = -1;
    pmi.rank = 0;
    pmi.size = 1;
    pmi.appnum = 0;
    pmi.kvsname_max = (int)sizeof pmi.kvsname;
    pmi.keylen_max = DMPI_PMI_KEY_MAX;
    pmi.vallen_max = DMPI_PMI_VAL_MAX;
    snprintf(pmi.kvsname, sizeof pmi.kvsname, "singleton-%ld", (long)getpid());
    pmi.initialized = 1;
    return 0;
}

/* The rest of init once the server has agreed to speak PMI-2. */
static int init_wire2(void)
{
    if (pmi.rlen != 0) {
        pmi_error("protocol error: unexpected bytes after the PMI-2 init reply");
        return -1;
    }
    if (dmpi_pmi2_init(pmi.fd, &pmi.rank, &pmi.size, &pmi.appnum, pmi.kvsname, sizeof pmi.kvsname) != 0)
        return -1;
    pmi.version = 2;
    pmi.kvsname_max = (int)sizeof pmi.kvsname;
    pmi.keylen_max = DMPI_PMI_KEY_MAX;
    pmi.vallen_max = DMPI_PMI_VAL_MAX;
    pmi.initialized = 1;
    return 0;
}

static int init_wire(const char *fdstr)
{
    char line[LINE_MAX_LEN], *end;
    int v;

    errno = 0;
    long fd = strtol(fdstr, &end, 10);
    if (errno || *end || fd < 0 || fd > INT_MAX) {
        pmi_error("bad value PMI_FD='%s'", fdstr);
        return -1;
    }
    if (fcntl((int)fd, F_GETFD) < 0) {
        pmi_error("PMI_FD=%ld is not an open file descriptor", fd);
        return -1;
    }
    pmi.fd = (int)fd;
    pmi.rlen = 0;
    if (env_int("PMI_RANK", &pmi.rank) != 0 || env_int("PMI_SIZE", &pmi.size) != 0)
        return -1;
    if (pmi.size < 1 || pmi.rank >= pmi.size) {
        pmi_error("PMI_RANK=%d is not below PMI_SIZE=%d", pmi.rank, pmi.size);
        return -1;
    }

    /* Keep the socket out of programs the application may exec later. */
    fcntl(pmi.fd, F_SETFD, fcntl(pmi.fd, F_GETFD) | FD_CLOEXEC);

    int inited = 0;
    const char *jobid = getenv("PMI_JOBID");
    if (jobid && *jobid) {
        int rc;
        if (send_line("cmd=init pmi_version=2 pmi_subversion=0") != 0 ||
            expect_reply("response_to_init", line, sizeof line, &rc) != 0)
            return -1;
        if (field_int(line, "pmi_version", &v) != 0)
            v = 1;
        if (rc == 0 && v == 2)
            return init_wire2();
        /* A PMI-1 server: it accepted (rc=0) with version 1, or refused
         * and then we ask again for version 1. */
        inited = rc == 0 && v == 1;
    }
    if (!inited) {
        if (send_line("cmd=init pmi_version=1 pmi_subversion=1") != 0 ||
            expect_reply("response_to_init", line, sizeof line, NULL) != 0)
            return -1;
        if (field_int(line, "pmi_version", &v) == 0 && v != 1) {
            pmi_error("the process manager speaks PMI version %d, not 1", v);
            return -1;
        }
    }
    pmi.version = 1;

    if (send_line("cmd=get_maxes") != 0 || expect_reply("maxes", line, sizeof line, NULL) != 0)
        return -1;
    if (field_int(line, "kvsname_max", &pmi.kvsname_max) != 0 ||
        field_int(line, "keylen_max", &pmi.keylen_max) != 0 ||
        field_int(line, "vallen_max", &pmi.vallen_max) != 0) {
        pmi_error("protocol error: malformed maxes reply '%s'", line);
        return -1;
    }
    /* Our buffers bound what we accept, whatever the server allows. */
    if (pmi.keylen_max > DMPI_PMI_KEY_MAX)
        pmi.keylen_max = DMPI_PMI_KEY_MAX;
    if (pmi.vallen_max > DMPI_PMI_VAL_MAX)
        pmi.vallen_max = DMPI_PMI_VAL_MAX;
    if (pmi.keylen_max < 2 || pmi.vallen_max < 2) {
        pmi_error("the process manager's limits are unusable: '%s'", line);
        return -1;
    }

    if (send_line("cmd=get_appnum") != 0 || expect_reply("appnum", line, sizeof line, NULL) != 0)
        return -1;
    if (field_int(line, "appnum", &pmi.appnum) != 0) {
        pmi_error("protocol error: malformed appnum reply '%s'", line);
        return -1;
    }

    if (send_line("cmd=get_my_kvsname") != 0 || expect_reply("my_kvsname", line, sizeof line, NULL) != 0)
        return -1;
    int r = field(line, "kvsname", pmi.kvsname, sizeof pmi.kvsname);
    if (r != 0 || pmi.kvsname[0] == '\0') {
        pmi_error("protocol error: %s kvsname in '%s'", r < 0 ? "overlong" : "missing", line);
        return -1;
    }
    pmi.initialized = 1;
    return 0;
}

/* The value of a count in the environment; -1 if unset or not a number. */
static long env_count(const char *name)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return -1;
    long v = strtol(s, &end, 10);
    return *end || v < 0 ? -1 : v;
}

/* Without PMI_FD: is this a rank of a job started by a launcher that dmpi
 * cannot talk to? Each rank would otherwise run alone as a singleton, N
 * times over. If so, says which launcher in one line and returns 1. A
 * launcher that says it started one process is harmless: a singleton. So
 * is a Slurm batch script: it has SLURM_PROCID=0 and the job's
 * SLURM_NTASKS, but only srun's tasks have SLURM_STEP_NUM_TASKS. */
static int unknown_launcher(void)
{
    char seen[256];
    long n;
    const char *v;
    if ((v = getenv("PMI_PORT")) != NULL)
        snprintf(seen, sizeof seen, "a PMI launcher that serves PMI over a TCP port (PMI_PORT=%.64s, "
                 "MPICH's Hydra in a mode dmpi does not speak)", v);
    else if ((v = getenv("PMIX_RANK")) != NULL && env_count("OMPI_COMM_WORLD_SIZE") != 1)
        snprintf(seen, sizeof seen, "%s (PMIX_RANK=%.16s), whose PMIx dmpi does not speak",
                 getenv("SLURM_PROCID") ? "srun --mpi=pmix" : "a PMIx launcher such as Open MPI's mpirun", v);
    else if ((n = env_count("OMPI_COMM_WORLD_SIZE")) > 1)
        snprintf(seen, sizeof seen, "Open MPI's mpirun (OMPI_COMM_WORLD_SIZE=%ld)", n);
    else if ((v = getenv("SLURM_PROCID")) != NULL && (n = env_count("SLURM_STEP_NUM_TASKS")) > 1)
        snprintf(seen, sizeof seen, "srun without --mpi=pmi2 (SLURM_PROCID=%.16s of %ld tasks, no PMI_FD)", v, n);
    else if ((n = env_count("PMI_SIZE")) > 1)
        snprintf(seen, sizeof seen, "a PMI launcher that gave PMI_SIZE=%ld but no PMI_FD", n);
    else if ((n = env_count("MV2_COMM_WORLD_SIZE")) > 1)
        snprintf(seen, sizeof seen, "MVAPICH's mpirun_rsh (MV2_COMM_WORLD_SIZE=%ld)", n);
    else
        return 0;
    fprintf(stderr, "dmpi: started by %s; start dmpi jobs with 'srun --mpi=pmi2', dmpi's mpiexec or "
                    "MPICH's mpiexec (Hydra)\n", seen);
    fflush(stderr);
    return 1;
}

int dmpi_pmi_init(int *rank, int *size, int *appnum)
{
    if (pmi.initialized) {
        report(rank, size, appnum);
        return 0;
    }
    pmi.rank = -1;
    const char *fdstr = getenv("PMI_FD");
    int rc;
    if (fdstr && *fdstr)
        rc = init_wire(fdstr);
    else if (unknown_launcher())
        rc = DMPI_PMI_REFUSED;
    else
        rc = init_singleton();
    if (rc != 0) {
        pmi.fd = -1;
        pmi.rank = -1;
        return rc == DMPI_PMI_REFUSED ? rc : -1;
    }
    report(rank, size, appnum);
    return 0;
}

int dmpi_pmi_is_singleton(void)
{
    return pmi.initialized && pmi.singleton;
}

const char *dmpi_pmi_kvsname(void)
{
    return pmi.initialized ? pmi.kvsname : "";
}

int dmpi_pmi_universe_size(int *usize)
{
    char line[LINE_MAX_LEN];
    if (not_initialized("dmpi_pmi_universe_size"))
        return -1;
    if (pmi.singleton) {
        *usize = 1;
        return 0;
    }
    if (pmi.version == 2) {
        char val[32], *end;
        int r = dmpi_pmi2_job_attr("universeSize", val, sizeof val);
        if (r < 0)
            return -1;
        long v = r == 0 ? strtol(val, &end, 10) : -1;
        *usize = r == 0 && end != val && *end == '\0' && v >= 1 && v <= INT_MAX ? (int)v : -1;
        return 0;
    }
    if (send_line("cmd=get_universe_size") != 0 || expect_reply("universe_size", line, sizeof line, NULL) != 0)
        return -1;
    if (field_int(line, "size", usize) != 0) {
        pmi_error("protocol error: malformed universe_size reply '%s'", line);
        return -1;
    }
    return 0;
}

int dmpi_pmi_put(const char *key, const char *value)
{
    char line[LINE_MAX_LEN];
    if (not_initialized("dmpi_pmi_put") || check_key(key) != 0 || check_value(value) != 0)
        return -1;
    if (pmi.singleton)
        return store_put(key, value);
    if (pmi.version == 2)
        return dmpi_pmi2_put(key, value);
    if (send_line("cmd=put kvsname=%s key=%s value=%s", pmi.kvsname, key, value) != 0 ||
        expect_reply("put_result", line, sizeof line, NULL) != 0)
        return -1;
    return 0;
}

static int do_get(const char *key, char *value, int maxlen, int quiet_absent)
{
    char line[LINE_MAX_LEN];
    int rc;
    if (not_initialized("dmpi_pmi_get") || check_key(key) != 0)
        return -1;
    if (!value || maxlen < 1) {
        pmi_error("get '%s': no room for the value", key);
        return -1;
    }
    if (pmi.singleton) {
        struct kv *e = store_find(key);
        if (!e) {
            if (!quiet_absent)
                pmi_error("get: key '%s' not found", key);
            return 1;
        }
        if (strlen(e->val) >= (size_t)maxlen) {
            pmi_error("get '%s': value of %zu characters does not fit in %d bytes", key, strlen(e->val), maxlen);
            return -1;
        }
        strcpy(value, e->val);
        return 0;
    }
    if (pmi.version == 2) {
        /* The launcher's own facts are job attributes in PMI-2. */
        if (strcmp(key, "PMI_process_mapping") == 0)
            rc = dmpi_pmi2_job_attr(key, value, (size_t)maxlen);
        else
            rc = dmpi_pmi2_get(key, value, (size_t)maxlen);
        if (rc == 1 && !quiet_absent)
            pmi_error("get: key '%s' not found", key);
        return rc;
    }
    if (send_line("cmd=get kvsname=%s key=%s", pmi.kvsname, key) != 0 ||
        expect_reply("get_result", line, sizeof line, &rc) != 0)
        return -1;
    if (rc != 0) {
        if (!quiet_absent) {
            char msg[512] = "";
            field(line, "msg", msg, sizeof msg);
            pmi_error("get: key '%s' not found (rc=%d %s)", key, rc, msg);
        }
        return 1;
    }
    int r = field(line, "value", value, (size_t)maxlen);
    if (r == 1) {
        pmi_error("protocol error: get_result without a value: '%s'", line);
        return -1;
    }
    if (r < 0) {
        pmi_error("get '%s': value does not fit in %d bytes", key, maxlen);
        return -1;
    }
    return 0;
}

int dmpi_pmi_get(const char *key, char *value, int maxlen)
{
    return do_get(key, value, maxlen, 0) == 0 ? 0 : -1;
}

int dmpi_pmi_try_get(const char *key, char *value, int maxlen)
{
    return do_get(key, value, maxlen, 1);
}

int dmpi_pmi_barrier(void)
{
    char line[LINE_MAX_LEN];
    if (not_initialized("dmpi_pmi_barrier"))
        return -1;
    if (pmi.singleton)
        return 0;
    if (pmi.version == 2)
        return dmpi_pmi2_fence();
    if (send_line("cmd=barrier_in") != 0 || expect_reply("barrier_out", line, sizeof line, NULL) != 0)
        return -1;
    return 0;
}

int dmpi_pmi_abort(int exitcode, const char *msg)
{
    if (msg && *msg) {
        fprintf(stderr, "dmpi: rank %d aborting the job: %s\n", pmi.initialized ? pmi.rank : 0, msg);
        fflush(stderr);
    }
    fflush(stdout);
    if (!pmi.initialized || pmi.singleton)
        _exit(exitcode & 0xff);
    if (pmi.version == 2 ? dmpi_pmi2_abort(exitcode, msg) != 0
                         : send_line("cmd=abort exitcode=%d", exitcode) != 0)
        return -1;
    /* The launcher now kills the job; wait for that (or for it closing the
     * connection), then leave on our own so that we never hang here. */
    struct pollfd p = { .fd = pmi.fd, .events = POLLIN };
    int left = ABORT_WAIT_MS;
    while (left > 0) {
        int r = poll(&p, 1, 100);
        if (r > 0) {
            char junk[256];
            ssize_t n = read(pmi.fd, junk, sizeof junk);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                break;
        }
        left -= 100;
    }
    _exit(exitcode & 0xff);
}

int dmpi_pmi_finalize(void)
{
    char line[LINE_MAX_LEN];
    int rc = 0;
    if (!pmi.initialized)
        return 0;
    if (pmi.singleton) {
        store_free();
    } else {
        if (pmi.version == 2)
            rc = dmpi_pmi2_finalize();
        else if (send_line("cmd=finalize") != 0 || expect_reply("finalize_ack", line, sizeof line, NULL) != 0)
            rc = -1;
        close(pmi.fd);
        pmi.fd = -1;
        pmi.rlen = 0;
    }
    pmi.initialized = 0;
    pmi.singleton = 0;
    pmi.version = 0;
    pmi.kvsname[0] = '\0';
    return rc;
}

/* ------------------------------------------------- dynamic processes */

/* A line of an mcmd block: one "key=value" per line, so values may hold
 * blanks (arguments), never a newline. */
static int mcmd_line(const char *key, const char *val, char *err, size_t errlen)
{
    if (strchr(val, '\n')) {
        snprintf(err, errlen, "'%s' contains a newline, which the process manager cannot take", key);
        return -1;
    }
    if (strlen(key) + strlen(val) + 2 >= LINE_MAX_LEN) {
        snprintf(err, errlen, "'%s' is longer than the process manager takes", key);
        return -1;
    }
    return send_line("%s=%s", key, val) == 0 ? 0 : (snprintf(err, errlen, "lost the process manager"), -1);
}

int dmpi_pmi_spawn(int count, const dmpi_pmi_spawn_t *cmds, const char *preput_key, const char *preput_val,
                   char *err, size_t errlen)
{
    char line[LINE_MAX_LEN], k[32], v[32];
    if (!pmi.initialized || pmi.singleton) {
        snprintf(err, errlen, "no process manager to start processes (the program was not started by mpiexec)");
        return -1;
    }
    if (pmi.version == 2) {
        snprintf(err, errlen, "the process manager speaks PMI-2, through which dmpi does not spawn");
        return -1;
    }
    for (int c = 0; c < count; c++) {
        const dmpi_pmi_spawn_t *s = &cmds[c];
        int argc = 0;
        while (s->argv && s->argv[argc])
            argc++;
        if (send_line("mcmd=spawn") != 0)
            goto lost;
#define NUM(key, n) (snprintf(v, sizeof v, "%d", (n)), mcmd_line((key), v, err, errlen))
        if (NUM("nprocs", s->maxprocs) || mcmd_line("execname", s->cmd, err, errlen) || NUM("totspawns", count) ||
            NUM("spawnssofar", c + 1) || NUM("argcnt", argc))
            return -1;
        for (int i = 0; i < argc; i++)
            if ((snprintf(k, sizeof k, "arg%d", i + 1), mcmd_line(k, s->argv[i], err, errlen)))
                return -1;
        if (NUM("preput_num", 1) || mcmd_line("preput_key_0", preput_key, err, errlen) ||
            mcmd_line("preput_val_0", preput_val, err, errlen) || NUM("info_num", s->ninfo))
            return -1;
        for (int i = 0; i < s->ninfo; i++)
            if ((snprintf(k, sizeof k, "info_key_%d", i), mcmd_line(k, s->info_keys[i], err, errlen)) ||
                (snprintf(k, sizeof k, "info_val_%d", i), mcmd_line(k, s->info_vals[i], err, errlen)))
                return -1;
#undef NUM
        if (send_line("endcmd") != 0)
            goto lost;
    }
    int rc;
    if (expect_reply("spawn_result", line, sizeof line, &rc) != 0)
        goto lost;
    if (rc != 0) {
        char msg[1024] = "refused", *o = msg;
        field(line, "msg", msg, sizeof msg);
        for (const char *p = msg; *p; p++) {      /* our mpiexec sends blanks as %20 */
            unsigned v;
            if (p[0] == '%' && sscanf(p + 1, "%2x", &v) == 1 && p[1] && p[2]) {
                *o++ = (char)v;
                p += 2;
            } else {
                *o++ = *p;
            }
        }
        *o = '\0';
        snprintf(err, errlen, "%s", msg);
        return -1;
    }
    return 0;
lost:
    snprintf(err, errlen, "lost the process manager");
    return -1;
}

/* Service names travel in hex: they may hold anything. */
static void hexify(const char *s, char *out)
{
    for (; *s; s++, out += 2)
        sprintf(out, "%02x", (unsigned char)*s);
    *out = '\0';
}

int dmpi_pmi_name(int op, const char *service, char *port, int portlen)
{
    char line[LINE_MAX_LEN], svc[2 * 1024 + 1], key[2 * 1024 + 16];
    int rc;
    if (!pmi.initialized || strlen(service) > 1024)
        return -1;
    hexify(service, svc);
    if (pmi.singleton || pmi.version == 2) {     /* names this process published */
        snprintf(key, sizeof key, "dmpi-svc-%s", svc);
        struct kv *e = store_find(key);
        bool have = e && e->val[0];
        if (op == DMPI_PMI_PUBLISH)
            return have ? 1 : store_put(key, port);
        if (!have)
            return 1;
        if (op == DMPI_PMI_UNPUBLISH)
            return store_put(key, "");
        snprintf(port, (size_t)portlen, "%s", e->val);
        return 0;
    }
    static const char *const cmd[] = {"publish_name", "unpublish_name", "lookup_name"};
    static const char *const res[] = {"publish_result", "unpublish_result", "lookup_result"};
    if ((op == DMPI_PMI_PUBLISH ? send_line("cmd=%s service=%s port=%s", cmd[op], svc, port)
                                : send_line("cmd=%s service=%s", cmd[op], svc)) != 0 ||
        expect_reply(res[op], line, sizeof line, &rc) != 0)
        return -1;
    if (rc != 0)
        return 1;
    if (op == DMPI_PMI_LOOKUP && field(line, "port", port, (size_t)portlen) != 0)
        return -1;
    return 0;
}
