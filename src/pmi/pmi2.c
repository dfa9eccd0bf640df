/* PMI-2 client over the PMI_FD socket (see pmi2.h for the framing).
 *
 * The conversation, as Slurm's mpi/pmi2 plugin (slurmstepd) serves it:
 *   cmd=fullinit;pmijobid=J;pmirank=R;threaded=FALSE;
 *       -> cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=;size=;appnum=;...
 *   cmd=job-getid;                      -> cmd=job-getid-response;rc=0;jobid=;
 *   cmd=info-getjobattr;key=K;          -> cmd=info-getjobattr-response;rc=0;found=TRUE|FALSE;value=;
 *   cmd=kvs-put;key=K;value=V;          -> cmd=kvs-put-response;rc=0;
 *   cmd=kvs-fence;                      -> cmd=kvs-fence-response;rc=0;   (when every rank is in)
 *   cmd=kvs-get;jobid=J;srcid=-1;key=K; -> cmd=kvs-get-response;rc=0;found=TRUE|FALSE;value=;
 *   cmd=abort;isworld=TRUE;msg=M;       (no reply: the step is killed)
 *   cmd=finalize;                       -> cmd=finalize-response;rc=0;
 * Puts become visible to every rank at the next fence. Slurm answers
 * info-getjobattr for keys it does not know with its network table rather
 * than found=FALSE, so only the attributes it documents are asked for. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "pmi2.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MSG_MAX 4096         /* longest message we send or accept */
#define LEN_DIGITS 6         /* the length header */

static struct {
    int fd;
    char jobid[256];
} p2 = { .fd = -1 };

/* ------------------------------------------------------------ wire I/O */

static int wait_fd(short events)
{
    struct pollfd p = { .fd = p2.fd, .events = events };
    return poll(&p, 1, -1) < 0 && errno != EINTR ? -1 : 0;
}

static int read_exact(char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = read(p2.fd, buf, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if ((errno == EAGAIN || errno == EWOULDBLOCK) && wait_fd(POLLIN) == 0)
                continue;
            dmpi_pmi_report("cannot read from the process manager (PMI_FD=%d): %s", p2.fd, strerror(errno));
            return -1;
        }
        if (n == 0) {
            dmpi_pmi_report("the process manager closed the connection (did srun or slurmstepd die?)");
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Sends one command: fmt gives the body ("cmd=...;...;"), to which the
 * length header is prepended; header and body go in one write. */
static int send_cmd(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int send_cmd(const char *fmt, ...)
{
    char msg[LEN_DIGITS + MSG_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg + LEN_DIGITS, MSG_MAX + 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n > MSG_MAX) {
        dmpi_pmi_report("request too long for the PMI-2 wire protocol");
        return -1;
    }
    char head[LEN_DIGITS + 1];
    snprintf(head, sizeof head, "%-*d", LEN_DIGITS, n);
    memcpy(msg, head, LEN_DIGITS);
    return dmpi_pmi_write_all(p2.fd, msg, (size_t)(LEN_DIGITS + n));
}

/* Receives one message body (NUL-terminated) into body[MSG_MAX + 1]. */
static int recv_msg(char *body)
{
    char head[LEN_DIGITS + 1], *end;
    if (read_exact(head, LEN_DIGITS) != 0)
        return -1;
    head[LEN_DIGITS] = '\0';
    errno = 0;
    long len = strtol(head, &end, 10);
    while (*end == ' ')
        end++;
    if (errno || end == head || *end || len < 0 || len > MSG_MAX) {
        dmpi_pmi_report("protocol error: bad PMI-2 length header '%s' from the process manager", head);
        return -1;
    }
    if (read_exact(body, (size_t)len) != 0)
        return -1;
    body[len] = '\0';
    return 0;
}

/* Finds "key=value" among the ';'-terminated fields of a message and copies
 * the value. 0 if found, 1 if absent, -1 if the value does not fit. */
static int field(const char *msg, const char *key, char *out, size_t outlen)
{
    size_t klen = strlen(key);
    const char *p = msg;
    while (*p) {
        const char *end = strchr(p, ';');
        if (!end)
            end = p + strlen(p);
        if ((size_t)(end - p) > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            const char *v = p + klen + 1;
            size_t vlen = (size_t)(end - v);
            if (vlen >= outlen)
                return -1;
            memcpy(out, v, vlen);
            out[vlen] = '\0';
            return 0;
        }
        p = *end ? end + 1 : end;
    }
    return 1;
}

static int field_int(const char *msg, const char *key, int *out)
{
    char buf[32];
    return field(msg, key, buf, sizeof buf) != 0 ? -1 : dmpi_pmi_parse_int(buf, out);
}

/* Receives the reply to a command and checks that it is "cmd=<expect>"
 * with rc=0 (a missing rc counts as 0). */
static int expect_reply(const char *expect, char *msg)
{
    char cmd[64];
    if (recv_msg(msg) != 0)
        return -1;
    if (field(msg, "cmd", cmd, sizeof cmd) != 0 || strcmp(cmd, expect) != 0) {
        dmpi_pmi_report("protocol error: expected 'cmd=%s' from the process manager, got '%.200s'", expect, msg);
        return -1;
    }
    int rc = 0;
    if (field(msg, "rc", cmd, sizeof cmd) == 0)
        rc = atoi(cmd);
    if (rc != 0) {
        char err[256] = "";
        field(msg, "errmsg", err, sizeof err);
        dmpi_pmi_report("'%s' failed: rc=%d %s", expect, rc, err);
        return -1;
    }
    return 0;
}

/* The value of a "found=TRUE;value=..." reply: 0, 1 if not found, -1. */
static int found_value(const char *what, const char *key, const char *msg, char *value, size_t maxlen)
{
    char found[16];
    if (field(msg, "found", found, sizeof found) != 0) {
        dmpi_pmi_report("protocol error: %s '%s' answered without 'found': '%.200s'", what, key, msg);
        return -1;
    }
    if (strcasecmp(found, "TRUE") != 0)
        return 1;
    int r = field(msg, "value", value, maxlen);
    if (r == 1) {
        dmpi_pmi_report("protocol error: %s '%s' found without a value: '%.200s'", what, key, msg);
        return -1;
    }
    if (r < 0) {
        dmpi_pmi_report("%s '%s': value does not fit in %zu bytes", what, key, maxlen);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- API */

int dmpi_pmi2_init(int fd, int *rank, int *size, int *appnum, char *jobid, size_t jobidlen)
{
    char msg[MSG_MAX + 1];
    p2.fd = fd;
    const char *pmijobid = getenv("PMI_JOBID");
    if (send_cmd("cmd=fullinit;pmijobid=%s;pmirank=%d;threaded=FALSE;", pmijobid ? pmijobid : "0", *rank) != 0 ||
        expect_reply("fullinit-response", msg) != 0)
        return -1;
    int r, s, a = 0;
    if (field_int(msg, "rank", &r) != 0 || field_int(msg, "size", &s) != 0 || s < 1 || r < 0 || r >= s) {
        dmpi_pmi_report("protocol error: fullinit-response without a valid rank and size: '%.200s'", msg);
        return -1;
    }
    if (r != *rank || s != *size) {
        dmpi_pmi_report("the process manager says rank %d of %d, PMI_RANK and PMI_SIZE say %d of %d", r, s,
                        *rank, *size);
        return -1;
    }
    /* Slurm answers appnum=-1 (not known): one application, number 0. */
    if (field_int(msg, "appnum", &a) != 0 || a < 0)
        a = 0;
    *appnum = a;

    if (send_cmd("cmd=job-getid;") != 0 || expect_reply("job-getid-response", msg) != 0)
        return -1;
    int rc = field(msg, "jobid", p2.jobid, sizeof p2.jobid);
    if (rc != 0 || p2.jobid[0] == '\0' || strlen(p2.jobid) >= jobidlen) {
        dmpi_pmi_report("protocol error: %s jobid in '%.200s'", rc < 0 ? "overlong" : "missing", msg);
        return -1;
    }
    strcpy(jobid, p2.jobid);
    return 0;
}

int dmpi_pmi2_put(const char *key, const char *value)
{
    char msg[MSG_MAX + 1];
    if (strchr(key, ';') || strchr(value, ';')) {
        dmpi_pmi_report("put '%s': PMI-2 keys and values cannot contain ';'", key);
        return -1;
    }
    if (send_cmd("cmd=kvs-put;key=%s;value=%s;", key, value) != 0 || expect_reply("kvs-put-response", msg) != 0)
        return -1;
    return 0;
}

int dmpi_pmi2_get(const char *key, char *value, size_t maxlen)
{
    char msg[MSG_MAX + 1];
    if (strchr(key, ';')) {
        dmpi_pmi_report("get '%s': PMI-2 keys cannot contain ';'", key);
        return -1;
    }
    if (send_cmd("cmd=kvs-get;jobid=%s;srcid=-1;key=%s;", p2.jobid, key) != 0 ||
        expect_reply("kvs-get-response", msg) != 0)
        return -1;
    return found_value("get", key, msg, value, maxlen);
}

int dmpi_pmi2_job_attr(const char *name, char *value, size_t maxlen)
{
    char msg[MSG_MAX + 1];
    if (send_cmd("cmd=info-getjobattr;key=%s;", name) != 0 || expect_reply("info-getjobattr-response", msg) != 0)
        return -1;
    return found_value("job attribute", name, msg, value, maxlen);
}

int dmpi_pmi2_fence(void)
{
    char msg[MSG_MAX + 1];
    if (send_cmd("cmd=kvs-fence;") != 0 || expect_reply("kvs-fence-response", msg) != 0)
        return -1;
    return 0;
}

int dmpi_pmi2_abort(int exitcode, const char *msg)
{
    char text[256];
    /* the message is informative only: no ';', no newlines */
    snprintf(text, sizeof text, "%s", msg && *msg ? msg : "MPI_Abort");
    for (char *c = text; *c; c++)
        if (*c == ';' || *c == '\n' || *c == '\r')
            *c = ' ';
    return send_cmd("cmd=abort;isworld=TRUE;msg=exit code %d: %s;", exitcode, text);
}

int dmpi_pmi2_finalize(void)
{
    char msg[MSG_MAX + 1];
    int rc = 0;
    if (send_cmd("cmd=finalize;") != 0 || expect_reply("finalize-response", msg) != 0)
        rc = -1;
    p2.fd = -1;
    p2.jobid[0] = '\0';
    return rc;
}
