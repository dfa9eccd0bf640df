#include "core/params.h"
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

dmpi_params_t dmpi_params;

typedef enum { P_SIZE, P_INT, P_DOUBLE, P_PATH, P_NAME } ptype_t;

typedef struct param {
    const char *name;
    ptype_t type;
    const char *dflt;
    size_t offset;
    const char *doc;
} param_t;

#define P(field) offsetof(dmpi_params_t, field)
/* Defaults and why they were chosen: docs/protocols.md. */
static const param_t table[] = {
    {"EAGER_LIMIT", P_SIZE, "8192", P(eager_limit),
     "largest message (bytes) copied through the per-pair ring without waiting for the receiver"},
    {"CMA_MIN", P_SIZE, "8193", P(cma_min),
     "smallest rendezvous message read directly from the sender with process_vm_readv; smaller ones use the pipelined copy"},
    {"CMA_SPLIT_MIN", P_SIZE, "32768", P(cma_split_min),
     "single-copy messages from this size are copied by both ranks at once, half each (0 = never)"},
    {"CMA_BLOCK_MIN", P_SIZE, "1024", P(cma_block_min),
     "noncontiguous data is read with process_vm_readv only if its blocks average this many bytes; shorter blocks are packed through the ring"},
    {"RING_SIZE", P_SIZE, "0", P(ring_size),
     "bytes of each per-pair ring; 0 picks 128 KiB, shrunk for large nodes so the rings stay within 64 MiB"},
    {"FRAG_SIZE", P_SIZE, "0", P(frag_size),
     "largest piece of one message in the ring (bytes); 0 means a quarter of the ring"},
    {"SHM_PATH", P_PATH, "auto", P(shm_path),
     "auto, or force one path between ranks on a node for all sizes: eager, copy (pipelined rendezvous) or cma"},
    {"SPIN_COUNT", P_INT, "100", P(spin_count),
     "idle polls before a waiting rank starts yielding its core between polls, when ranks outnumber cores (16 times as many otherwise)"},
    {"HANG_TIMEOUT", P_DOUBLE, "300", P(hang_timeout),
     "seconds a rank may wait in one call before it prints what it waits for, and again every as many seconds (0 = never)"},
#define COLL(NAME, field, what)                                                                    \
    {"COLL_" NAME, P_NAME, "auto", P(field),                                                       \
     "algorithm of " what ": auto (the decision table), or an algorithm name from docs/collectives.md"}
    COLL("BARRIER", coll_barrier, "MPI_Barrier and MPI_Ibarrier"),
    COLL("BCAST", coll_bcast, "MPI_Bcast and MPI_Ibcast"),
    COLL("REDUCE", coll_reduce, "MPI_Reduce and MPI_Ireduce"),
    COLL("ALLREDUCE", coll_allreduce, "MPI_Allreduce and MPI_Iallreduce"),
    COLL("GATHER", coll_gather, "MPI_Gather and MPI_Igather"),
    COLL("SCATTER", coll_scatter, "MPI_Scatter and MPI_Iscatter"),
    COLL("ALLGATHER", coll_allgather, "MPI_Allgather(v) and MPI_Iallgather(v)"),
    COLL("ALLTOALL", coll_alltoall, "MPI_Alltoall and MPI_Ialltoall"),
    COLL("ALLTOALLV", coll_alltoallv, "MPI_Alltoallv/w and MPI_Ialltoallv/w"),
    COLL("REDUCE_SCATTER", coll_reduce_scatter, "MPI_Reduce_scatter(_block) and their nonblocking forms"),
    {"ALLTOALLV_WINDOW", P_INT, "8", P(alltoallv_window),
     "exchanges in flight at once in the throttled linear alltoallv"},
    {"VERBOSE", P_INT, "0", P(verbose),
     "0 quiet; 1 prints start-up decisions (paths, fallbacks); 2 adds details"},
};
#define NPARAMS (sizeof table / sizeof table[0])

static const char *path_names[] = {"auto", "eager", "copy", "cma"};

static int parse_size(const char *s, size_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')          /* no sign, no blanks */
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    unsigned long long mult = 1;
    if (*end == 'k' || *end == 'K') mult = 1ULL << 10, end++;
    else if (*end == 'm' || *end == 'M') mult = 1ULL << 20, end++;
    else if (*end == 'g' || *end == 'G') mult = 1ULL << 30, end++;
    if (*end || v > SIZE_MAX / mult)
        return -1;
    *out = (size_t)(v * mult);
    return 0;
}

static int parse_one(const param_t *p, const char *s)
{
    char *base = (char *)&dmpi_params + p->offset;
    char *end;
    switch (p->type) {
    case P_SIZE:
        return parse_size(s, (size_t *)base);
    case P_INT: {
        errno = 0;
        long v = strtol(s, &end, 10);
        if (errno || end == s || *end || v < INT_MIN || v > INT_MAX)
            return -1;
        *(int *)base = (int)v;
        return 0;
    }
    case P_DOUBLE: {
        double v = strtod(s, &end);
        if (end == s || *end || v < 0)
            return -1;
        *(double *)base = v;
        return 0;
    }
    case P_PATH:
        for (int i = 0; i < 4; i++)
            if (!strcasecmp(s, path_names[i])) {
                *(int *)base = i;
                return 0;
            }
        return -1;
    case P_NAME:                       /* an identifier: [a-z0-9_]+ */
        if (!*s || strlen(s) >= DMPI_PARAM_NAME_MAX || strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(s))
            return -1;
        strcpy(base, s);
        return 0;
    }
    return -1;
}

int dmpi_params_load(void)
{
    for (size_t i = 0; i < NPARAMS; i++) {
        const param_t *p = &table[i];
        parse_one(p, p->dflt);
        char var[64];
        snprintf(var, sizeof var, "DMPI_%s", p->name);
        const char *s = getenv(var);
        if (s && parse_one(p, s) != 0) {
            fprintf(stderr, "dmpi: environment variable %s has an invalid value '%s' (%s)\n", var, s, p->doc);
            return -1;
        }
    }
    return 0;
}

static void format_current(const param_t *p, char *cur, size_t len)
{
    const char *base = (const char *)&dmpi_params + p->offset;
    switch (p->type) {
    case P_SIZE: snprintf(cur, len, "%zu", *(const size_t *)base); break;
    case P_INT: snprintf(cur, len, "%d", *(const int *)base); break;
    case P_DOUBLE: snprintf(cur, len, "%g", *(const double *)base); break;
    case P_PATH: snprintf(cur, len, "%s", path_names[*(const int *)base]); break;
    case P_NAME: snprintf(cur, len, "%s", base); break;
    }
}

int dmpi_param_describe(int i, const char **name, const char **dflt, const char **doc, char *cur, size_t curlen)
{
    if (i < 0 || (size_t)i >= NPARAMS)
        return 0;
    *name = table[i].name;
    *dflt = table[i].dflt;
    *doc = table[i].doc;
    format_current(&table[i], cur, curlen);
    return 1;
}
