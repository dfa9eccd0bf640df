/* Dynamic processes: MPI_Comm_spawn's jobs and the name service.
 *
 * A spawn arrives as PMI-1's multi-line request, one block per command
 * ("mcmd=spawn", then key=value lines: nprocs, execname, totspawns,
 * spawnssofar, argcnt, argN, preput_*, info_*, then "endcmd"), as MPICH's
 * clients send it. Once the last block is in, the request waits for the
 * poll loop (the rank table grows there, never under a handler holding a
 * rank), which starts the commands as one new job: its own key space
 * (with the preput keys, among them the parents' port), its own barrier,
 * ranks 0.. in its own MPI_COMM_WORLD, in mpiexec's process group, judged
 * like every other rank, so a spawned rank that fails ends the whole run
 * and nothing it made stays in /dev/shm. Spawned ranks run on this host;
 * a run across hosts refuses to spawn. */
#include "mpiexec.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INFO 32

struct app_spec {
    int nprocs;
    char *execname;
    int argcnt;
    char **args;                 /* argcnt, filled by argN */
    int ninfo;
    char *info_key[MAX_INFO], *info_val[MAX_INFO];
};

struct mpx_spawn_req {
    struct mpx_spawn_req *next;
    int requester;               /* index in job.ranks */
    int totspawns, napps;
    struct app_spec *apps;
    int npre;
    char **pre_key, **pre_val;
    char error[256];             /* a malformed request */
};

struct name_entry {
    struct name_entry *next;
    char *service, *port;
};

static struct name_entry *names;
static struct mpx_app **apps;    /* every spawned command, freed at the end */
static int napps;

void mpx_dyn_init(struct mpx_job *job)
{
    job->gens = mpx_xmalloc(sizeof *job->gens);
    job->ngens = 1;
    memset(job->gens, 0, sizeof *job->gens);
    snprintf(job->gens[0].kvsname, sizeof job->gens[0].kvsname, "%s", job->kvsname);
    job->gens[0].size = job->n;
    /* What can usefully run: the processors mpiexec may use (oversubscribing is
     * allowed, but buys nothing); across hosts, the job itself, since
     * spawned ranks run here only. */
    cpu_set_t set;
    long cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
    job->universe_size = job->n;
    if (!job->opt->hosts && !job->opt->hostfile && cpus > job->n)
        job->universe_size = (int)cpus;
}

/* ---- reading a request ----------------------------------------------- */

static void set_error(struct mpx_spawn_req *q, const char *msg)
{
    if (!q->error[0])
        snprintf(q->error, sizeof q->error, "%s", msg);
}

static int parse_count(const char *v, int max)
{
    char *end;
    long n = strtol(v, &end, 10);
    return end == v || *end || n < 0 || n > max ? -1 : (int)n;
}

static void free_preput(struct mpx_spawn_req *q)
{
    for (int i = 0; q->pre_key && i < q->npre; i++) {
        free(q->pre_key[i]);
        free(q->pre_val[i]);
    }
    free(q->pre_key);
    free(q->pre_val);
    q->pre_key = q->pre_val = NULL;
    q->npre = 0;
}

/* key=value into a request; "key_<i>" fields name their index. */
static void take_field(struct mpx_spawn_req *q, const char *key, const char *val)
{
    struct app_spec *a = q->napps ? &q->apps[q->napps - 1] : NULL;
    int i;
    if (!a) {
        set_error(q, "a spawn field before mcmd=spawn");
    } else if (!strcmp(key, "nprocs")) {
        if ((a->nprocs = parse_count(val, 1 << 20)) < 1)
            set_error(q, "bad nprocs");
    } else if (!strcmp(key, "execname")) {
        free(a->execname);
        a->execname = mpx_xstrdup(val);
    } else if (!strcmp(key, "totspawns")) {
        if ((q->totspawns = parse_count(val, 1 << 16)) < 1)
            set_error(q, "bad totspawns");
    } else if (!strcmp(key, "argcnt")) {
        if ((a->argcnt = parse_count(val, 1 << 16)) < 0)
            set_error(q, "bad argcnt");
        else
            a->args = calloc((size_t)a->argcnt + 1, sizeof *a->args);
    } else if (!strncmp(key, "arg", 3) && (i = parse_count(key + 3, 1 << 16)) >= 1) {
        if (!a->args || i > a->argcnt)
            set_error(q, "an argument beyond argcnt");
        else
            a->args[i - 1] = mpx_xstrdup(val);
    } else if (!strcmp(key, "preput_num")) {
        free_preput(q);                    /* each command's block repeats them */
        if ((q->npre = parse_count(val, 1024)) < 0)
            set_error(q, "bad preput_num");
        else {
            q->pre_key = calloc((size_t)q->npre + 1, sizeof(char *));
            q->pre_val = calloc((size_t)q->npre + 1, sizeof(char *));
        }
    } else if (!strncmp(key, "preput_key_", 11) || !strncmp(key, "preput_val_", 11)) {
        i = parse_count(key + 11, 1024);
        if (!q->pre_key || i < 0 || i >= q->npre)
            set_error(q, "a preput entry beyond preput_num");
        else if (key[7] == 'k')
            q->pre_key[i] = mpx_xstrdup(val);
        else
            q->pre_val[i] = mpx_xstrdup(val);
    } else if (!strcmp(key, "info_num")) {
        if ((a->ninfo = parse_count(val, MAX_INFO)) < 0)
            set_error(q, "more than 32 info keys");
    } else if (!strncmp(key, "info_key_", 9) || !strncmp(key, "info_val_", 9)) {
        i = parse_count(key + 9, MAX_INFO - 1);
        if (i < 0 || i >= a->ninfo)
            set_error(q, "an info entry beyond info_num");
        else if (key[5] == 'k')
            a->info_key[i] = mpx_xstrdup(val);
        else
            a->info_val[i] = mpx_xstrdup(val);
    }                                      /* spawnssofar and unknown fields: nothing to keep */
}

void mpx_dyn_mcmd_line(struct mpx_job *job, struct mpx_rank *r, const char *line)
{
    struct mpx_spawn_req *q = r->pmi.mcmd;
    if (!strcmp(line, "mcmd=spawn")) {
        if (!q) {
            q = r->pmi.mcmd = calloc(1, sizeof *q);
            q->requester = (int)(r - job->ranks);
        }
        q->apps = mpx_xrealloc(q->apps, (size_t)(q->napps + 1) * sizeof *q->apps);
        memset(&q->apps[q->napps++], 0, sizeof *q->apps);
        return;
    }
    if (!q) {
        fprintf(stderr, "mpiexec: rank %d sent an unsupported PMI command '%.64s'\n", r->rank, line);
        mpx_pmi_reply(r, "cmd=error rc=-1 msg=unsupported_command");
        return;
    }
    if (strcmp(line, "endcmd") != 0) {
        const char *eq = strchr(line, '=');
        char key[64];
        if (!eq || (size_t)(eq - line) >= sizeof key) {
            set_error(q, "a malformed line");
            return;
        }
        memcpy(key, line, (size_t)(eq - line));
        key[eq - line] = '\0';
        take_field(q, key, eq + 1);
        return;
    }
    if (q->napps < q->totspawns && !q->error[0])
        return;                            /* more commands follow */
    r->pmi.mcmd = NULL;                    /* complete: the poll loop starts it */
    struct mpx_spawn_req **tail = &job->spawns;
    while (*tail)
        tail = &(*tail)->next;
    *tail = q;
}

/* ---- starting a request ---------------------------------------------- */

static void free_req(struct mpx_spawn_req *q)
{
    for (int i = 0; i < q->napps; i++) {
        struct app_spec *a = &q->apps[i];
        free(a->execname);
        for (int k = 0; a->args && k < a->argcnt; k++)
            free(a->args[k]);
        free(a->args);
        for (int k = 0; k < a->ninfo; k++) {
            free(a->info_key[k]);
            free(a->info_val[k]);
        }
    }
    free_preput(q);
    free(q->apps);
    free(q);
}

static const char *info_of(const struct app_spec *a, const char *key)
{
    for (int i = 0; i < a->ninfo; i++)
        if (a->info_key[i] && !strcmp(a->info_key[i], key))
            return a->info_val[i];
    return NULL;
}

static int executable(const char *dir, const char *name, char *out, size_t len)
{
    struct stat st;
    if (dir && *dir && name[0] != '/')
        snprintf(out, len, "%s/%s", dir, name);
    else
        snprintf(out, len, "%s", name);
    return stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0;
}

/* The program to run: a name with a slash as it is (from wdir); else the
 * first in the info "path" directories, then in PATH. */
static int resolve(const struct app_spec *a, const char *wdir, char *out, size_t len, char *err, size_t errlen)
{
    const char *name = a->execname;
    if (strchr(name, '/')) {
        if (executable(name[0] == '/' ? NULL : wdir, name, out, len))
            return 0;
        snprintf(err, errlen, "cannot execute '%s': %s", name, strerror(errno ? errno : ENOENT));
        return -1;
    }
    const char *lists[2] = {info_of(a, "path"), getenv("PATH")};
    for (int l = 0; l < 2; l++) {
        char *copy = mpx_xstrdup(lists[l] ? lists[l] : ""), *save = NULL;
        for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
            char full[4096];
            snprintf(full, sizeof full, "%s/%s", d, name);
            if (executable(d[0] == '/' ? NULL : wdir, full, out, len)) {
                free(copy);
                return 0;
            }
        }
        free(copy);
    }
    snprintf(err, errlen, "cannot find program '%s' (not in the info key path nor in PATH)", name);
    return -1;
}

/* info "soft": the counts the caller accepts ("a", "a:b", "a:b:step", by
 * commas); the largest one not above maxprocs is started. -1 if none. */
static int soft_count(const char *soft, int maxprocs)
{
    int best = -1;
    char *copy = mpx_xstrdup(soft), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long lo, hi, step = 1;
        int n = sscanf(t, "%ld:%ld:%ld", &lo, &hi, &step);
        if (n < 1 || step < 1)
            continue;
        if (n == 1)
            hi = lo;
        for (long v = lo; v <= hi && v <= maxprocs; v += step)
            if (v >= 1 && v > best)
                best = (int)v;
    }
    free(copy);
    return best;
}

static int this_host(const struct mpx_job *job, const char *host)
{
    char me[256];
    if (gethostname(me, sizeof me) != 0)
        me[0] = '\0';
    me[sizeof me - 1] = '\0';
    size_t n = strcspn(me, ".");
    return !strcmp(host, "localhost") || !strcmp(host, me) || (strlen(host) == n && !strncmp(host, me, n)) ||
           !strcmp(host, job->nodes[0].host);
}

/* Checks a request and makes its commands; the error, or "" */
static void prepare(struct mpx_job *job, struct mpx_spawn_req *q, struct mpx_app **made, int *counts, char *err,
                    size_t len)
{
    if (q->error[0])
        snprintf(err, len, "malformed spawn request: %s", q->error);
    else if (job->nproxies)
        snprintf(err, len, "mpiexec spawns no processes in a run across hosts (--hosts, --hostfile)");
    else if (job->terminating || job->have_status)
        snprintf(err, len, "the run is ending");
    for (int i = 0; i < q->napps && !err[0]; i++) {
        struct app_spec *a = &q->apps[i];
        const char *wdir = info_of(a, "wdir"), *host = info_of(a, "host"), *soft = info_of(a, "soft");
        char path[4096];
        struct stat st;
        counts[i] = soft ? soft_count(soft, a->nprocs) : a->nprocs;
        if (!a->execname || a->nprocs < 1)
            snprintf(err, len, "command %d has no program or no process count", i);
        else if (counts[i] < 1)
            snprintf(err, len, "info soft=%s allows no count up to maxprocs %d", soft, a->nprocs);
        else if (host && !this_host(job, host))
            snprintf(err, len, "info host=%s: spawned processes run on this host only", host);
        else if (wdir && (stat(wdir, &st) != 0 || !S_ISDIR(st.st_mode)))
            snprintf(err, len, "info wdir=%s is not a directory", wdir);
        else if (resolve(a, wdir, path, sizeof path, err, len) == 0) {
            struct mpx_app *app = made[i] = mpx_xmalloc(sizeof *app);
            app->argv = mpx_xmalloc((size_t)(a->argcnt + 2) * sizeof(char *));
            app->argv[0] = mpx_xstrdup(path);
            for (int k = 0; k < a->argcnt; k++)
                app->argv[k + 1] = mpx_xstrdup(a->args[k] ? a->args[k] : "");
            app->argv[a->argcnt + 1] = NULL;
            app->wdir = wdir ? mpx_xstrdup(wdir) : NULL;
        }
    }
}

static void free_app(struct mpx_app *a)
{
    if (!a)
        return;
    for (char **p = a->argv; *p; p++)
        free(*p);
    free(a->argv);
    free(a->wdir);
    free(a);
}

/* A PMI value holds no blanks: the reason travels with blanks, newlines and
 * '%' as %20, %0a, %25 (the client decodes them). */
static void reply_error(struct mpx_rank *r, const char *msg)
{
    char m[1024];
    size_t n = 0;
    for (const char *p = msg; *p && n + 4 < sizeof m; p++) {
        if (*p == ' ' || *p == '\n' || *p == '%')
            n += (size_t)snprintf(m + n, sizeof m - n, "%%%02x", (unsigned char)*p);
        else
            m[n++] = *p;
    }
    m[n] = '\0';
    mpx_pmi_reply(r, "cmd=spawn_result rc=-1 msg=%s", m);
}

static void start(struct mpx_job *job, struct mpx_spawn_req *q)
{
    char err[512] = "";
    struct mpx_app **made = calloc((size_t)q->napps, sizeof *made);
    int *counts = calloc((size_t)q->napps, sizeof *counts), total = 0;
    prepare(job, q, made, counts, err, sizeof err);
    if (err[0]) {
        for (int i = 0; i < q->napps; i++)
            free_app(made[i]);
        reply_error(&job->ranks[q->requester], err);
        goto out;
    }
    for (int i = 0; i < q->napps; i++)
        total += counts[i];
    int g = job->ngens++;
    job->gens = mpx_xrealloc(job->gens, (size_t)job->ngens * sizeof *job->gens);
    struct mpx_gen *gen = &job->gens[g];
    memset(gen, 0, sizeof *gen);
    snprintf(gen->kvsname, sizeof gen->kvsname, "%.200s-s%d", job->kvsname, g);
    gen->size = total;
    gen->first = mpx_job_add_ranks(job, total);
    char map[64];
    snprintf(map, sizeof map, "(vector,(0,1,%d))", total);
    mpx_kvs_put(g, "PMI_process_mapping", map);
    for (int i = 0; i < q->npre; i++)
        if (q->pre_key[i] && q->pre_val[i])
            mpx_kvs_put(g, q->pre_key[i], q->pre_val[i]);
    for (int i = 0, k = gen->first; i < q->napps; i++) {
        apps = mpx_xrealloc(apps, (size_t)(napps + 1) * sizeof *apps);
        apps[napps++] = made[i];
        for (int c = 0; c < counts[i]; c++, k++) {
            struct mpx_rank *r = &job->ranks[k];
            r->rank = k - gen->first;
            r->gen = g;
            r->appnum = i;
            r->app = made[i];
            r->local_rank = r->rank;
        }
    }
    if (mpx_spawn_range(job, gen->first, total) != 0) {
        reply_error(&job->ranks[q->requester], "the processes could not be started");
        goto out;
    }
    mpx_pmi_reply(&job->ranks[q->requester], "cmd=spawn_result rc=0 msg=success");
out:
    free(made);
    free(counts);
    free_req(q);
}

void mpx_dyn_run_spawns(struct mpx_job *job)
{
    while (job->spawns) {
        struct mpx_spawn_req *q = job->spawns;
        job->spawns = q->next;
        start(job, q);
    }
}

/* ---- the name service ------------------------------------------------- */

void mpx_dyn_name(struct mpx_job *job, struct mpx_rank *r, const char *cmd, const char *service, const char *port)
{
    (void)job;
    struct name_entry **pp = &names;
    if (!service) {
        const char *what = cmd[0] == 'p' ? "publish" : cmd[0] == 'u' ? "unpublish" : "lookup";
        mpx_pmi_reply(r, "cmd=%s_result rc=-1 msg=no_service", what);
        return;
    }
    while (*pp && strcmp((*pp)->service, service))
        pp = &(*pp)->next;
    if (!strcmp(cmd, "publish_name")) {
        if (*pp || !port) {
            mpx_pmi_reply(r, "cmd=publish_result rc=1 msg=service_already_published");
            return;
        }
        struct name_entry *e = mpx_xmalloc(sizeof *e);
        e->service = mpx_xstrdup(service);
        e->port = mpx_xstrdup(port);
        e->next = names;
        names = e;
        mpx_pmi_reply(r, "cmd=publish_result rc=0 msg=success");
    } else if (!*pp) {
        mpx_pmi_reply(r, "cmd=%s_result rc=1 msg=service_not_published", cmd[0] == 'u' ? "unpublish" : "lookup");
    } else if (!strcmp(cmd, "unpublish_name")) {
        struct name_entry *e = *pp;
        *pp = e->next;
        free(e->service);
        free(e->port);
        free(e);
        mpx_pmi_reply(r, "cmd=unpublish_result rc=0 msg=success");
    } else {
        mpx_pmi_reply(r, "cmd=lookup_result rc=0 msg=success port=%s", (*pp)->port);
    }
}

void mpx_dyn_free(struct mpx_job *job)
{
    while (job->spawns) {
        struct mpx_spawn_req *q = job->spawns;
        job->spawns = q->next;
        free_req(q);
    }
    for (int i = 0; i < job->n; i++)
        if (job->ranks && job->ranks[i].pmi.mcmd) {
            free_req(job->ranks[i].pmi.mcmd);
            job->ranks[i].pmi.mcmd = NULL;
        }
    for (int i = 0; i < napps; i++)
        free_app(apps[i]);
    free(apps);
    apps = NULL;
    napps = 0;
    while (names) {
        struct name_entry *e = names;
        names = e->next;
        free(e->service);
        free(e->port);
        free(e);
    }
    free(job->gens);
    job->gens = NULL;
}
