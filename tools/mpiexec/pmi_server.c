/* PMI-1 server, speaking the wire protocol as MPICH's Hydra does: each rank
 * sends "cmd=NAME key=value ...\n" lines over its socketpair, we answer
 * each one with one line (abort gets no answer: the job is killed).
 *
 * One key space per job (job->kvsname), pre-filled with
 * PMI_process_mapping, which MPICH-style clients read to learn the node
 * layout: "(vector,(node,nnodes,ranks_per_node),...)". */
#include "mpiexec.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_FIELDS 16
#define NBUCKETS 1024                 /* power of two */

/* ------------------------------------------------------------ key space */

struct kvs_entry {
    struct kvs_entry *next;
    char *key;
    char *val;
};

static struct kvs_entry *buckets[NBUCKETS];

static unsigned hash_key(const char *s)
{
    unsigned h = 2166136261u;         /* FNV-1a */
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h & (NBUCKETS - 1);
}

static struct kvs_entry *kvs_find(const char *key)
{
    for (struct kvs_entry *e = buckets[hash_key(key)]; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

/* Each job's keys live under "<gen>/key". */
static const char *scoped(int gen, const char *key, char *buf, size_t len)
{
    snprintf(buf, len, "%d/%s", gen, key);
    return buf;
}

static void kvs_put(const char *key, const char *val)
{
    struct kvs_entry *e = kvs_find(key);
    if (e) {                          /* a later put replaces the value */
        free(e->val);
        e->val = mpx_xstrdup(val);
        return;
    }
    unsigned h = hash_key(key);
    e = mpx_xmalloc(sizeof *e);
    e->key = mpx_xstrdup(key);
    e->val = mpx_xstrdup(val);
    e->next = buckets[h];
    buckets[h] = e;
}

void mpx_pmi_server_free(void)
{
    for (int i = 0; i < NBUCKETS; i++) {
        while (buckets[i]) {
            struct kvs_entry *e = buckets[i];
            buckets[i] = e->next;
            free(e->key);
            free(e->val);
            free(e);
        }
    }
}

int mpx_pmi_server_init(struct mpx_job *job)
{
    char map[MPX_VALLEN_MAX];
    size_t len = (size_t)snprintf(map, sizeof map, "(vector");
    for (int i = 0; i < job->nnodes && len < sizeof map; i++)
        len += (size_t)snprintf(map + len, sizeof map - len, ",(%d,1,%d)", i, job->nodes[i].nranks);
    if (len + 2 > sizeof map) {       /* too many nodes to describe: leave the key out */
        return 0;
    }
    strcat(map, ")");
    kvs_put("0/PMI_process_mapping", map);
    return 0;
}

void mpx_kvs_put(int gen, const char *key, const char *val)
{
    char k[MPX_KEYLEN_MAX + 16];
    kvs_put(scoped(gen, key, k, sizeof k), val);
}

/* -------------------------------------------------------------- replies */

void mpx_pmi_close(struct mpx_rank *r)
{
    if (r->pmi.fd >= 0)
        close(r->pmi.fd);
    r->pmi.fd = -1;
    r->pmi.len = 0;
    r->pmi.dead = 1;
}

static int pmi_open(const struct mpx_rank *r)
{
    return r->proxy ? !r->pmi.dead : r->pmi.fd >= 0;
}

#define reply mpx_pmi_reply

void mpx_pmi_reply(struct mpx_rank *r, const char *fmt, ...)
{
    char line[MPX_PMI_LINE_MAX + MPX_VALLEN_MAX];
    va_list ap;
    if (!pmi_open(r))
        return;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line - 1)
        n = snprintf(line, sizeof line, "cmd=error rc=-1 msg=reply_too_long");
    line[n++] = '\n';
    if (r->proxy) {
        mpx_remote_send_pmi(r, line, (size_t)n);
        return;
    }
    if (mpx_send_patiently(r->pmi.fd, line, (size_t)n) != 0)
        mpx_pmi_close(r);                 /* gone: its exit will be judged */
}

/* ------------------------------------------------------------- requests */

struct request {
    int n;
    char *key[MAX_FIELDS];
    char *val[MAX_FIELDS];
};

static const char *req_get(const struct request *q, const char *key)
{
    for (int i = 0; i < q->n; i++)
        if (strcmp(q->key[i], key) == 0)
            return q->val[i];
    return NULL;
}

/* Splits "k1=v1 k2=v2" in place; a value runs to the next space and may contain '='. */
static int parse_request(char *line, struct request *q)
{
    q->n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return 0;
        if (q->n == MAX_FIELDS)
            return -1;
        char *tok = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
        char *eq = strchr(tok, '=');
        if (!eq)
            return -1;
        *eq = '\0';
        q->key[q->n] = tok;
        q->val[q->n] = eq + 1;
        q->n++;
    }
}

static void do_barrier_in(struct mpx_job *job, struct mpx_rank *r)
{
    if (r->pmi.in_barrier)
        return;
    struct mpx_gen *g = &job->gens[r->gen];
    r->pmi.in_barrier = 1;
    if (++g->barrier_count < g->size)
        return;
    g->barrier_count = 0;             /* everyone is in: release them all */
    for (int i = g->first; i < g->first + g->size; i++) {
        struct mpx_rank *o = &job->ranks[i];
        if (o->pmi.in_barrier) {
            o->pmi.in_barrier = 0;
            reply(o, "cmd=barrier_out");
        }
    }
}

static void do_put(struct mpx_job *job, struct mpx_rank *r, const struct request *q)
{
    const char *kvs = req_get(q, "kvsname"), *key = req_get(q, "key"), *val = req_get(q, "value");
    char k[MPX_KEYLEN_MAX + 16];
    if (!kvs || strcmp(kvs, job->gens[r->gen].kvsname) != 0)
        reply(r, "cmd=put_result rc=-1 msg=unknown_kvsname");
    else if (!key || !*key || strlen(key) >= MPX_KEYLEN_MAX)
        reply(r, "cmd=put_result rc=-1 msg=bad_key");
    else if (!val || strlen(val) >= MPX_VALLEN_MAX)
        reply(r, "cmd=put_result rc=-1 msg=bad_value");
    else {
        kvs_put(scoped(r->gen, key, k, sizeof k), val);
        reply(r, "cmd=put_result rc=0 msg=success");
    }
}

static void do_get(struct mpx_job *job, struct mpx_rank *r, const struct request *q)
{
    const char *kvs = req_get(q, "kvsname"), *key = req_get(q, "key");
    struct kvs_entry *e;
    char k[MPX_KEYLEN_MAX + 16];
    if (!kvs || strcmp(kvs, job->gens[r->gen].kvsname) != 0)
        reply(r, "cmd=get_result rc=-1 msg=unknown_kvsname value=unknown");
    else if (!key || !*key || strlen(key) >= MPX_KEYLEN_MAX)
        reply(r, "cmd=get_result rc=-1 msg=bad_key value=unknown");
    else if (!(e = kvs_find(scoped(r->gen, key, k, sizeof k))))
        reply(r, "cmd=get_result rc=-1 msg=key_%s_not_found value=unknown", key);
    else
        reply(r, "cmd=get_result rc=0 msg=success value=%s", e->val);
}

static void do_abort(struct mpx_job *job, struct mpx_rank *r, const struct request *q)
{
    const char *s = req_get(q, "exitcode");
    long code = 1;
    if (s) {
        char *end;
        code = strtol(s, &end, 10);
        if (end == s || *end || code < INT_MIN || code > INT_MAX)
            code = 1;
    }
    /* Let what the rank printed before aborting come out before our line. */
    if (r->out.fd >= 0)                  /* (a proxy sends the output first) */
        mpx_stream_readable(job, r, &r->out);
    if (r->err.fd >= 0)
        mpx_stream_readable(job, r, &r->err);
    int status = (int)(code & 0xff);
    if (code != 0 && status == 0)     /* keep a failure a failure */
        status = 1;
    r->pmi.aborted = 1;
    mpx_job_fail_later(job, status, "rank %d called MPI_Abort with error code %ld", r->rank, code);
}

static void serve(struct mpx_job *job, struct mpx_rank *r, char *line)
{
    struct request q;
    size_t len = strlen(line);
    if (len > 0 && line[len - 1] == '\r')
        line[len - 1] = '\0';
    if (line[0] == '\0')
        return;
    if (r->pmi.mcmd || !strncmp(line, "mcmd=", 5)) {   /* a spawn request, one key=value a line */
        mpx_dyn_mcmd_line(job, r, line);
        return;
    }
    char copy[128];
    snprintf(copy, sizeof copy, "%s", line);    /* for messages: parsing cuts the line up */
    const char *cmd;
    if (parse_request(line, &q) != 0 || !(cmd = req_get(&q, "cmd"))) {
        fprintf(stderr, "mpiexec: rank %d sent a malformed PMI request '%s'\n", r->rank, copy);
        reply(r, "cmd=error rc=-1 msg=malformed_request");
        return;
    }

    if (strcmp(cmd, "init") == 0) {
        const char *v = req_get(&q, "pmi_version");
        if (v && strcmp(v, "1") != 0) {
            reply(r, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1");
            return;
        }
        r->pmi.inited = 1;
        reply(r, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0");
    } else if (strcmp(cmd, "get_maxes") == 0) {
        reply(r, "cmd=maxes kvsname_max=%d keylen_max=%d vallen_max=%d",
              MPX_KVSNAME_MAX, MPX_KEYLEN_MAX, MPX_VALLEN_MAX);
    } else if (strcmp(cmd, "get_appnum") == 0) {
        reply(r, "cmd=appnum appnum=%d", r->appnum);
    } else if (strcmp(cmd, "get_my_kvsname") == 0) {
        reply(r, "cmd=my_kvsname kvsname=%s", job->gens[r->gen].kvsname);
    } else if (strcmp(cmd, "get_universe_size") == 0) {
        reply(r, "cmd=universe_size size=%d", job->universe_size);
    } else if (!strcmp(cmd, "publish_name") || !strcmp(cmd, "unpublish_name") || !strcmp(cmd, "lookup_name")) {
        mpx_dyn_name(job, r, cmd, req_get(&q, "service"), req_get(&q, "port"));
    } else if (strcmp(cmd, "put") == 0) {
        do_put(job, r, &q);
    } else if (strcmp(cmd, "get") == 0) {
        do_get(job, r, &q);
    } else if (strcmp(cmd, "barrier_in") == 0) {
        do_barrier_in(job, r);
    } else if (strcmp(cmd, "finalize") == 0) {
        r->pmi.finalized = 1;
        reply(r, "cmd=finalize_ack");
    } else if (strcmp(cmd, "abort") == 0) {
        do_abort(job, r, &q);
    } else {
        fprintf(stderr, "mpiexec: rank %d sent an unsupported PMI command '%s'\n", r->rank, cmd);
        reply(r, "cmd=%.64s_result rc=-1 msg=unsupported_command", cmd);
    }
}

/* Serves the complete lines in the rank's buffer and keeps the rest. */
static void serve_lines(struct mpx_job *job, struct mpx_rank *r)
{
    struct mpx_pmi_conn *c = &r->pmi;
    size_t start = 0;
    char *nl;
    while (pmi_open(r) && (nl = memchr(c->buf + start, '\n', c->len - start)) != NULL) {
        *nl = '\0';
        serve(job, r, c->buf + start);
        start = (size_t)(nl - c->buf) + 1;
    }
    if (!pmi_open(r))
        return;
    c->len -= start;
    memmove(c->buf, c->buf + start, c->len);
    if (c->len == sizeof c->buf) {
        mpx_pmi_close(r);
        mpx_job_fail(job, 1, "rank %d sent a PMI request longer than %d bytes; terminating the job",
                     r->rank, MPX_PMI_LINE_MAX);
    }
}

void mpx_pmi_readable(struct mpx_job *job, struct mpx_rank *r)
{
    struct mpx_pmi_conn *c = &r->pmi;
    while (c->fd >= 0) {
        ssize_t n = read(c->fd, c->buf + c->len, sizeof c->buf - c->len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                mpx_pmi_close(r);
            return;
        }
        if (n == 0) {                 /* the rank closed its end (finalized, or exiting) */
            mpx_pmi_close(r);
            return;
        }
        c->len += (size_t)n;
        serve_lines(job, r);
    }
}

void mpx_pmi_input(struct mpx_job *job, struct mpx_rank *r, const char *data, size_t len)
{
    struct mpx_pmi_conn *c = &r->pmi;
    while (len > 0 && pmi_open(r)) {
        size_t take = sizeof c->buf - c->len < len ? sizeof c->buf - c->len : len;
        memcpy(c->buf + c->len, data, take);
        c->len += take;
        data += take;
        len -= take;
        serve_lines(job, r);
    }
}
