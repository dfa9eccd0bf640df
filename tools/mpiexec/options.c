/* Command-line parsing. Options come before the program; the first word
 * that is not an option (or the word after "--") is the program, and
 * everything after it belongs to the program. Long options may be written
 * with one or two dashes, and "--name=value" works for those taking one. */
#include "mpiexec.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DMPI_VERSION_STRING
#define DMPI_VERSION_STRING "unknown"
#endif

enum opt_id {
    O_NP, O_X, O_GENV, O_TAG, O_TIMEOUT, O_HELP, O_VERSION, O_IGNORE0, O_IGNORE1,
    O_HOSTS, O_HOSTFILE, O_PPN, O_LAUNCHER, O_LAUNCHER_EXEC
};

struct opt_def {
    const char *name;
    int nargs;
    enum opt_id id;
};

static const struct opt_def opt_defs[] = {
    { "n", 1, O_NP },
    { "np", 1, O_NP },
    { "c", 1, O_NP },
    { "x", 1, O_X },
    { "genv", 2, O_GENV },
    { "env", 2, O_GENV },
    { "tag-output", 0, O_TAG },
    { "prepend-rank", 0, O_TAG },
    { "l", 0, O_TAG },
    { "timeout", 1, O_TIMEOUT },
    { "hosts", 1, O_HOSTS },
    { "host", 1, O_HOSTS },
    { "H", 1, O_HOSTS },
    { "hostfile", 1, O_HOSTFILE },
    { "f", 1, O_HOSTFILE },
    { "machinefile", 1, O_HOSTFILE },
    { "ppn", 1, O_PPN },
    { "npernode", 1, O_PPN },
    { "launcher", 1, O_LAUNCHER },
    { "bootstrap", 1, O_LAUNCHER },
    { "launcher-exec", 1, O_LAUNCHER_EXEC },
    { "bootstrap-exec", 1, O_LAUNCHER_EXEC },
    { "h", 0, O_HELP },
    { "help", 0, O_HELP },
    { "version", 0, O_VERSION },
    { "V", 0, O_VERSION },
    /* Open MPI compatibility: accepted, no effect here. */
    { "oversubscribe", 0, O_IGNORE0 },
    { "allow-run-as-root", 0, O_IGNORE0 },
    { "bind-to", 1, O_IGNORE1 },
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mpiexec [options] program [args...]\n"
            "\n"
            "Starts N copies (ranks) of program on this host, or on the hosts given,\n"
            "and serves them PMI-1.\n"
            "\n"
            "Options:\n"
            "  -n, -np, -c N        number of ranks to start (default 1)\n"
            "  -x VAR               export VAR with its current value to the ranks\n"
            "  -x VAR=VALUE         set VAR=VALUE for the ranks\n"
            "  -genv VAR VALUE      set VAR=VALUE for the ranks\n"
            "  -env VAR VALUE       same as -genv\n"
            "  --tag-output         prefix each output line with [rank] (also -l)\n"
            "  --timeout SECS       kill the job after SECS seconds and exit with status 124\n"
            "                       (default from DMPI_MPIEXEC_TIMEOUT; 0 = no limit)\n"
            "\n"
            "Several hosts (a proxy per host, started through the launcher, starts the\n"
            "host's ranks; ranks fill each host's slots in turn, in blocks):\n"
            "  --hosts H1[:N],H2..  the hosts and their slots (default 1); also --host, -H\n"
            "  --hostfile FILE      lines 'host', 'host:N' or 'host slots=N'; also -f\n"
            "  -ppn N               N ranks per host, whatever the slots\n"
            "                       (without -n: as many ranks as slots)\n"
            "  --launcher ssh|exec|fork\n"
            "                       ssh (default): 'ssh -x HOST ...' (this host: fork);\n"
            "                       exec: 'PROGRAM HOST COMMAND ARGS...' with the PROGRAM\n"
            "                       of --launcher-exec; fork: every proxy on this host\n"
            "  --launcher-exec PROG the program that starts a proxy on a host\n"
            "  -h, --help           show this help and exit\n"
            "  --version            show the version and exit\n"
            "\n"
            "Environment:\n"
            "  DMPI_MPIEXEC_TIMEOUT SECS\n"
            "                       the default of --timeout\n"
            "  DMPI_MPIEXEC_LINK_TIMEOUT SECS\n"
            "                       across hosts: a host's proxy not heard from within\n"
            "                       SECS (its host cut off) ends the job, and a proxy\n"
            "                       not hearing from mpiexec kills its ranks and leaves;\n"
            "                       quiet links carry a beat (default 30; 0 = off)\n"
            "\n"
            "Accepted and ignored for Open MPI compatibility:\n"
            "  --oversubscribe, --allow-run-as-root, --bind-to X\n"
            "\n"
            "Exit status: 0 if every rank exited 0; otherwise that of the first rank that\n"
            "failed (128+N if it was killed by signal N), the MPI_Abort error code, 124 on\n"
            "timeout, 127 if the program cannot be found, 126 if it cannot be executed.\n");
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "mpiexec: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n\n");
    usage(stderr);
    return 2;
}

static int parse_nprocs(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > 1000000)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_seconds(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < 0 || v > 1e9)
        return -1;
    *out = v;
    return 0;
}

static int valid_var_name(const char *name, size_t len)
{
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (name[i] == '=' || name[i] == '\0')
            return 0;
    return 1;
}

static void add_env(struct mpx_options *opt, const char *name, size_t namelen, const char *value)
{
    opt->env = mpx_xrealloc(opt->env, (size_t)(opt->nenv + 1) * sizeof *opt->env);
    struct mpx_envvar *e = &opt->env[opt->nenv++];
    e->name = mpx_xmalloc(namelen + 1);
    memcpy(e->name, name, namelen);
    e->name[namelen] = '\0';
    e->value = value ? mpx_xstrdup(value) : NULL;
}

static const struct opt_def *find_opt(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof opt_defs / sizeof opt_defs[0]; i++)
        if (strlen(opt_defs[i].name) == len && strncmp(opt_defs[i].name, name, len) == 0)
            return &opt_defs[i];
    return NULL;
}

int mpx_parse_options(int argc, char **argv, struct mpx_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->nprocs = 1;

    const char *envt = getenv("DMPI_MPIEXEC_TIMEOUT");
    if (envt && *envt && parse_seconds(envt, &opt->timeout) != 0) {
        fprintf(stderr, "mpiexec: DMPI_MPIEXEC_TIMEOUT='%s' is not a number of seconds\n", envt);
        return 2;
    }
    opt->link_timeout = MPX_LINK_TIMEOUT;
    const char *envl = getenv("DMPI_MPIEXEC_LINK_TIMEOUT");
    if (envl && *envl && parse_seconds(envl, &opt->link_timeout) != 0) {
        fprintf(stderr, "mpiexec: DMPI_MPIEXEC_LINK_TIMEOUT='%s' is not a number of seconds\n", envl);
        return 2;
    }

    int launcher_given = 0;
    int i = 1;
    while (i < argc) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0')
            break;                               /* the program */
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        const char *name = arg + (arg[1] == '-' ? 2 : 1);
        const char *eq = strchr(name, '=');
        size_t namelen = eq ? (size_t)(eq - name) : strlen(name);
        const struct opt_def *d = find_opt(name, namelen);
        if (!d || (eq && d->nargs != 1))
            return usage_error("unknown option '%s'", arg);

        const char *a1 = NULL, *a2 = NULL;
        if (eq) {
            a1 = eq + 1;
        } else if (d->nargs >= 1) {
            if (i + d->nargs >= argc)
                return usage_error("option '%s' needs %s", arg,
                                   d->nargs == 1 ? "an argument" : "two arguments (VAR VALUE)");
            a1 = argv[i + 1];
            if (d->nargs == 2)
                a2 = argv[i + 2];
        }
        i += 1 + (eq ? 0 : d->nargs);

        switch (d->id) {
        case O_NP:
            if (parse_nprocs(a1, &opt->nprocs) != 0)
                return usage_error("the number of ranks must be a positive integer, not '%s'", a1);
            opt->nprocs_given = 1;
            break;
        case O_HOSTS:
            opt->hosts = a1;
            break;
        case O_HOSTFILE:
            opt->hostfile = a1;
            break;
        case O_PPN:
            if (parse_nprocs(a1, &opt->ppn) != 0)
                return usage_error("-ppn needs a positive number of ranks per host, not '%s'", a1);
            break;
        case O_LAUNCHER:
            if (strcmp(a1, "ssh") == 0 || strcmp(a1, "rsh") == 0)
                opt->launcher = MPX_LAUNCH_SSH;
            else if (strcmp(a1, "exec") == 0)
                opt->launcher = MPX_LAUNCH_EXEC;
            else if (strcmp(a1, "fork") == 0)
                opt->launcher = MPX_LAUNCH_FORK;
            else
                return usage_error("unknown launcher '%s' (ssh, exec or fork)", a1);
            launcher_given = 1;
            break;
        case O_LAUNCHER_EXEC:
            opt->launcher_exec = a1;
            break;
        case O_X: {
            const char *veq = strchr(a1, '=');
            size_t len = veq ? (size_t)(veq - a1) : strlen(a1);
            if (!valid_var_name(a1, len))
                return usage_error("bad variable name in '-x %s'", a1);
            if (veq)
                add_env(opt, a1, len, veq + 1);
            else
                add_env(opt, a1, len, getenv(a1));  /* unset here: nothing to export */
            break;
        }
        case O_GENV:
            if (!valid_var_name(a1, strlen(a1)))
                return usage_error("bad variable name '%s'", a1);
            add_env(opt, a1, strlen(a1), a2);
            break;
        case O_TAG:
            opt->tag_output = 1;
            break;
        case O_TIMEOUT:
            if (parse_seconds(a1, &opt->timeout) != 0)
                return usage_error("--timeout needs a number of seconds, not '%s'", a1);
            break;
        case O_HELP:
            usage(stdout);
            return 0;
        case O_VERSION:
            printf("mpiexec (dmpi) %s\n", DMPI_VERSION_STRING);
            return 0;
        case O_IGNORE0:
        case O_IGNORE1:
            break;
        }
    }

    if (i >= argc) {
        fprintf(stderr, "mpiexec: no program to run\n\n");
        usage(stderr);
        return 2;
    }
    opt->argv = &argv[i];
    if (opt->launcher_exec && !launcher_given)
        opt->launcher = MPX_LAUNCH_EXEC;       /* the program says how: like ssh */
    if (opt->launcher == MPX_LAUNCH_EXEC && !opt->launcher_exec)
        return usage_error("--launcher exec needs --launcher-exec PROGRAM");
    return -1;
}

void mpx_options_free(struct mpx_options *opt)
{
    for (int i = 0; i < opt->nenv; i++) {
        free(opt->env[i].name);
        free(opt->env[i].value);
    }
    free(opt->env);
    opt->env = NULL;
    opt->nenv = 0;
}
