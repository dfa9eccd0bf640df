/* Where the ranks run: this host alone, or the hosts of --hosts
 * ("h1:2,h2,h3:4") and --hostfile (lines "host", "host:N" or
 * "host slots=N", '#' comments). A host without a count has one slot; a
 * host named twice has the slots of both. With -ppn N every host has N.
 *
 * Ranks fill the hosts in order, each host up to its slots, and start
 * again at the first host while ranks are left, so that every host gets a
 * contiguous block of ranks (node i holds ranks first_rank .. +nranks-1).
 * Without -n the job has as many ranks as slots. */
#include "mpiexec.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SLOTS 1000000

struct host_list {
    char **name;
    long *slots;
    int n;
};

static int add_host(struct host_list *hl, const char *name, size_t len, long slots, const char *where)
{
    if (len == 0 || len > 255) {
        fprintf(stderr, "mpiexec: %s: bad host name '%.*s'\n", where, (int)len, name);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        if (isspace((unsigned char)name[i]) || name[i] == ',' || name[i] == '\'' || name[i] == '"') {
            fprintf(stderr, "mpiexec: %s: bad host name '%.*s'\n", where, (int)len, name);
            return -1;
        }
    }
    for (int i = 0; i < hl->n; i++) {
        if (strlen(hl->name[i]) == len && strncmp(hl->name[i], name, len) == 0) {
            hl->slots[i] += slots;
            if (hl->slots[i] > MAX_SLOTS)
                hl->slots[i] = MAX_SLOTS;
            return 0;
        }
    }
    hl->name = mpx_xrealloc(hl->name, (size_t)(hl->n + 1) * sizeof *hl->name);
    hl->slots = mpx_xrealloc(hl->slots, (size_t)(hl->n + 1) * sizeof *hl->slots);
    hl->name[hl->n] = mpx_xmalloc(len + 1);
    memcpy(hl->name[hl->n], name, len);
    hl->name[hl->n][len] = '\0';
    hl->slots[hl->n] = slots;
    hl->n++;
    return 0;
}

static int parse_count(const char *s, size_t len, long *out)
{
    char buf[16];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (errno || *end || v < 1 || v > MAX_SLOTS)
        return -1;
    *out = v;
    return 0;
}

/* One "host" or "host:N" word. */
static int parse_host_word(struct host_list *hl, const char *w, size_t len, const char *where)
{
    const char *colon = memchr(w, ':', len);
    long slots = 1;
    if (colon) {
        if (parse_count(colon + 1, len - (size_t)(colon + 1 - w), &slots) != 0) {
            fprintf(stderr, "mpiexec: %s: bad slot count in '%.*s'\n", where, (int)len, w);
            return -1;
        }
        len = (size_t)(colon - w);
    }
    return add_host(hl, w, len, slots, where);
}

static int parse_hosts_option(struct host_list *hl, const char *list)
{
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (parse_host_word(hl, p, len, "--hosts") != 0)
            return -1;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

static int parse_hostfile(struct host_list *hl, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "mpiexec: cannot read the host file '%s': %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024], where[1100];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *save = NULL, *word = strtok_r(line, " \t\r\n", &save);
        if (!word)
            continue;
        size_t hostlen = strlen(word);
        long slots = -1;
        for (char *opt; (opt = strtok_r(NULL, " \t\r\n", &save)) != NULL;) {
            if (strncmp(opt, "slots=", 6) == 0) {
                if (parse_count(opt + 6, strlen(opt + 6), &slots) != 0) {
                    fprintf(stderr, "mpiexec: %s: bad '%s'\n", where, opt);
                    rc = -1;
                }
            } else if (strncmp(opt, "max_slots=", 10) != 0) {
                fprintf(stderr, "mpiexec: %s: unknown host attribute '%s'\n", where, opt);
                rc = -1;
            }
        }
        if (rc == 0)
            rc = slots < 0 ? parse_host_word(hl, word, hostlen, where) : add_host(hl, word, hostlen, slots, where);
    }
    fclose(f);
    if (rc == 0 && hl->n == 0) {
        fprintf(stderr, "mpiexec: the host file '%s' names no host\n", path);
        rc = -1;
    }
    return rc;
}

static void free_host_list(struct host_list *hl)
{
    for (int i = 0; i < hl->n; i++)
        free(hl->name[i]);
    free(hl->name);
    free(hl->slots);
}

static void set_rank_nodes(struct mpx_job *job)
{
    for (int k = 0; k < job->nnodes; k++) {
        const struct mpx_node *nd = &job->nodes[k];
        for (int i = 0; i < nd->nranks; i++) {
            job->ranks[nd->first_rank + i].node = k;
            job->ranks[nd->first_rank + i].local_rank = i;
        }
    }
}

static void this_host_only(struct mpx_job *job)
{
    char host[256];
    if (gethostname(host, sizeof host) != 0)
        strcpy(host, "localhost");
    host[sizeof host - 1] = '\0';
    job->nnodes = 1;
    job->nodes = mpx_xmalloc(sizeof *job->nodes);
    job->nodes[0].host = mpx_xstrdup(host);
    job->nodes[0].first_rank = 0;
    job->nodes[0].nranks = job->n;
}

/* Number of ranks each host gets: its slots per pass, passes until done. */
static void place(struct mpx_job *job, const struct host_list *hl, const long *cap)
{
    long *count = mpx_xmalloc((size_t)hl->n * sizeof *count);
    memset(count, 0, (size_t)hl->n * sizeof *count);
    long left = job->n;
    while (left > 0) {
        for (int i = 0; i < hl->n && left > 0; i++) {
            long take = cap[i] < left ? cap[i] : left;
            count[i] += take;
            left -= take;
        }
    }
    job->nodes = mpx_xmalloc((size_t)hl->n * sizeof *job->nodes);
    job->nnodes = 0;
    int first = 0;
    for (int i = 0; i < hl->n; i++) {
        if (count[i] == 0)
            continue;
        struct mpx_node *nd = &job->nodes[job->nnodes++];
        nd->host = mpx_xstrdup(hl->name[i]);
        nd->first_rank = first;
        nd->nranks = (int)count[i];
        first += nd->nranks;
    }
    free(count);
}

int mpx_nodes_init(struct mpx_job *job)
{
    const struct mpx_options *opt = job->opt;
    if (!opt->hosts && !opt->hostfile) {
        this_host_only(job);
        set_rank_nodes(job);
        return 0;
    }
    struct host_list hl = { 0 };
    if ((opt->hosts && parse_hosts_option(&hl, opt->hosts) != 0) ||
        (opt->hostfile && parse_hostfile(&hl, opt->hostfile) != 0)) {
        free_host_list(&hl);
        return 2;
    }
    long *cap = mpx_xmalloc((size_t)hl.n * sizeof *cap);
    long total = 0;
    for (int i = 0; i < hl.n; i++) {
        cap[i] = opt->ppn > 0 ? opt->ppn : hl.slots[i];
        total += cap[i];
    }
    if (!opt->nprocs_given) {                  /* as many ranks as slots */
        if (total > MAX_SLOTS) {
            fprintf(stderr, "mpiexec: the hosts have %ld slots; give -n\n", total);
            free(cap);
            free_host_list(&hl);
            return 2;
        }
        mpx_job_set_size(job, (int)total);
    }
    place(job, &hl, cap);
    free(cap);
    free_host_list(&hl);
    set_rank_nodes(job);
    return 0;
}

void mpx_nodes_free(struct mpx_job *job)
{
    for (int i = 0; i < job->nnodes; i++)
        free(job->nodes[i].host);
    free(job->nodes);
    job->nodes = NULL;
    job->nnodes = 0;
}
