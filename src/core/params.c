#include "core/params.h"
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

dmpi_params_t dmpi_params;

typedef enum { P_SIZE, P_INT, P_DOUBLE, P_PATH, P_NAME, P_TEXT } ptype_t;

typedef struct param {
    const char *name;
    ptype_t type;
    const char *dflt;
    const char *min, *max;   /* numbers: the accepted range, written as values are */
    size_t offset;
    const char *doc;
    int when;                /* DMPI_PARAM_AT_INIT unless given: read once, at MPI_Init */
} param_t;

#define P(field) offsetof(dmpi_params_t, field)
#define SIZE_ANY "0", "18446744073709551615"   /* a threshold: every size means something */
/* Defaults and why they were chosen: docs/protocols.md. Ranges: the reason
 * is given where it is not the parameter's own meaning. */
/* A row read once at MPI_Init leaves `when` out (DMPI_PARAM_AT_INIT). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const param_t table[] = {
    /* max: an eager message that arrives before its receive is buffered whole */
    {"EAGER_LIMIT", P_SIZE, "8192", "0", "1G", P(eager_limit),
     "largest message (bytes) copied through the receiver's queue without waiting for the receiver"},
    {"CMA_MIN", P_SIZE, "8193", SIZE_ANY, P(cma_min),
     "smallest rendezvous message read directly from the sender with process_vm_readv; smaller ones use the pipelined copy"},
    {"CMA_SPLIT_MIN", P_SIZE, "32768", SIZE_ANY, P(cma_split_min),
     "single-copy messages from this size are copied by both ranks at once, half each (0 = never)"},
    {"CMA_BLOCK_MIN", P_SIZE, "1024", SIZE_ANY, P(cma_block_min),
     "noncontiguous data is read with process_vm_readv only if its blocks average this many bytes; shorter blocks are packed through the queue"},
    /* default: just above the default eager limit. From 4 KiB the mapped path wins
     * (docs/protocols.md), but below the eager limit it would make a blocking send
     * wait for its receiver, and programs that send head to head would hang */
    {"SHM_MAPPED_MIN", P_SIZE, "8193", SIZE_ANY, P(shm_mapped_min),
     "smallest message sent from a mappable MPI_Alloc_mem block (DMPI_ALLOC_MEM_SHARED) that the receiver copies straight out of its mapping of the block, with no copy by the sender and no system call (0 = never; only with DMPI_SHM_PATH=auto); below DMPI_EAGER_LIMIT such a send no longer completes before its receive is posted"},
    /* max: each mapping holds an entry and some address space, nothing more */
    {"SHM_MAP_CACHE", P_INT, "64", "1", "1000000", P(shm_map_cache),
     "blocks of its node peers a rank keeps mapped at once for DMPI_SHM_MAPPED_MIN; the least recently used is unmapped first"},
    {"ALLOC_MEM_SHARED", P_INT, "1", "0", "1", P(alloc_mem_shared),
     "1: MPI_Alloc_mem blocks of at least DMPI_ALLOC_MEM_SHARED_MIN bytes are memory the rank's node peers can map (memfd), when the node has other ranks and DMPI_SHM_PATH is auto; 0: heap memory"},
    {"ALLOC_MEM_SHARED_MIN", P_SIZE, "4096", SIZE_ANY, P(alloc_mem_shared_min),
     "smaller MPI_Alloc_mem blocks come from the heap (a mappable block takes whole pages and a file descriptor)"},
    {"ALLOC_MEM_SHARED_MAX", P_SIZE, "0", SIZE_ANY, P(alloc_mem_shared_max),
     "bytes of mappable MPI_Alloc_mem blocks one rank may hold; beyond it blocks come from the heap (0 = half the node's memory shared among its ranks)"},
    /* max: a node's segment holds one queue per local rank */
    {"RING_SIZE", P_SIZE, "0", "0", "1G", P(ring_size),
     "bytes of each rank's inbound shared-memory queue (shared by its local senders), rounded up to a power of two of at least 4 KiB; 0 picks 128 KiB"},
    /* max: a piece is at most half the queue, and the queue at most 1G */
    {"FRAG_SIZE", P_SIZE, "0", "0", "512M", P(frag_size),
     "largest piece of one message in the queue (bytes), at most half the queue and 8 MiB; 0 means a quarter of the queue"},
    {"SHM_PATH", P_PATH, "auto", NULL, NULL, P(shm_path),
     "auto, or force one path between ranks on a node for all sizes: eager, copy (pipelined rendezvous) or cma"},
    {"TRANSPORT", P_NAME, "auto", NULL, NULL, P(transport),
     "auto: shared memory between ranks on a node, TCP between nodes; tcp: TCP between all ranks (for tests)"},
    {"TCP_IF", P_TEXT, "auto", NULL, NULL, P(tcp_if),
     "the interface TCP listens on, by name (eth0) or network (10.0.0.0/8); auto: the first that is up and neither loopback nor a bridge"},
    /* max: the receiver reads a whole eager frame ahead into one buffer per connection.
     * default: across two namespace hosts (docs/protocols.md) eager ping-pong beats the
     * rendezvous by 33% at 64 KiB, 24% at 128 KiB, 17% at 256 KiB; 128 KiB keeps the
     * buffer of each connection at 192 KiB */
    {"TCP_EAGER_LIMIT", P_SIZE, "131072", "0", "16M", P(tcp_eager_limit),
     "largest message sent over TCP without waiting for the receiver; larger ones move from buffer to buffer once matched"},
    /* min: the kernel counts in milliseconds and probes in whole seconds */
    {"TCP_TIMEOUT", P_DOUBLE, "60", "0", "1e6", P(tcp_timeout),
     "seconds after which a TCP connection whose peer stopped answering (host down, link cut) ends the job with an error; 0 = the kernel's limits (many minutes)"},
    {"YIELD", P_NAME, "auto", NULL, NULL, P(yield),
     "auto: waiting ranks yield the core early when a node has more ranks than CPUs; always: as if it had (for nodes that share their cores with others, e.g. containers or namespaces on one machine); never: as if it had not"},
    /* min: 0 would yield at the first idle poll; max: 10^9 polls are minutes of spinning already */
    {"SPIN_COUNT", P_INT, "100", "1", "1000000000", P(spin_count),
     "idle polls before a waiting rank starts yielding its core between polls, when ranks outnumber cores (16 times as many otherwise)",
     DMPI_PARAM_LOCAL},
    /* max: a second; longer naps would make a rank deaf for longer than any wait needs */
    {"IDLE_NAP", P_DOUBLE, "1000", "0", "1e6", P(idle_nap),
     "longest sleep (microseconds) between the polls of a rank that has waited DMPI_IDLE_NAP_AFTER; each nap is at most an eighth of the time waited so far (0 = never sleep)",
     DMPI_PARAM_LOCAL},
    {"IDLE_NAP_AFTER", P_DOUBLE, "1", "0", "1e9", P(idle_nap_after),
     "milliseconds a rank waits, polling and yielding, before it naps between polls, when ranks outnumber cores (100 times as long otherwise)",
     DMPI_PARAM_LOCAL},
    /* max: some 30 years, never in effect (0 turns the reports off) */
    {"HANG_TIMEOUT", P_DOUBLE, "300", "0", "1e9", P(hang_timeout),
     "seconds a rank may wait in one call before it prints what it waits for, and again every as many seconds (0 = never)",
     DMPI_PARAM_LOCAL},
#define COLL(NAME, field, what)                                                                    \
    {"COLL_" NAME, P_NAME, "auto", NULL, NULL, P(field),                                           \
     "algorithm of " what ": auto (the decision table), or an algorithm name from docs/collectives.md", \
     DMPI_PARAM_ALL_EQ}
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
    {"COLL_NODE", P_INT, "1", "0", "1", P(coll_node),
     "1: collectives on communicators whose ranks share a node move data through shared memory and flags (docs/collectives.md); 0: point-to-point algorithms only",
     DMPI_PARAM_ALL_EQ},
    /* max: two halves of it per rank must fit the budget's share */
    {"COLL_NODE_COPY_MAX", P_SIZE, "32768", "0", "64M", P(coll_node_copy_max),
     "largest contribution of one rank copied through the communicator's shared area (on communicators of more than 64 ranks at most 2 MiB / ranks, and at least 8 KiB); larger ones are read from the owner's buffer with process_vm_readv (larger reduce, scan and exscan of more than two ranks, and everything where single copy is denied, go through the area in pieces: docs/collectives.md)"},
    /* min: a chunk smaller than a page costs more in calls than it saves */
    {"COLL_NODE_CHUNK", P_SIZE, "65536", "4096", "1G", P(coll_node_chunk),
     "piece of a large allreduce pulled and reduced at a time (bounds the temporary buffer)"},
    {"COLL_NODE_BUDGET", P_SIZE, "67108864", "0", "1099511627776", P(coll_node_budget),
     "shared memory the node-level collectives of all communicators on a node may hold; a communicator that would exceed it uses point-to-point algorithms"},
    /* max: more groups than ranks is one rank per group */
    {"COLL_NODE_GROUPS", P_INT, "0", "0", "1000000", P(coll_node_groups),
     "0: group a communicator's ranks by the node's NUMA domains (sockets without NUMA); k > 0: force k groups of consecutive ranks (a two-level hierarchy)"},
    {"COLL_HIER", P_INT, "1", "0", "1", P(coll_hier),
     "1: barrier, bcast, reduce and allreduce (commutative ops) on communicators that span nodes combine each node's ranks at a leader first, and only the leaders talk across nodes (docs/collectives.md); 0: the flat algorithms over all ranks"},
    /* max: a window wider than the communicator is the whole communicator */
    {"ALLTOALLV_WINDOW", P_INT, "8", "1", "1000000", P(alltoallv_window),
     "exchanges in flight at once in the throttled linear alltoallv",
     DMPI_PARAM_ALL_EQ},
    {"COLL_MESSAGE_MAX", P_INT, "2147483647", "1", "2147483647", P(coll_message_max),
     "bytes a collective schedule sends as one message; a larger one travels in pieces of at most this (and 1 GiB), "
     "as messages beyond INT_MAX bytes always do (small values: a test aid)"},
    {"RMA_DIRECT", P_INT, "1", "0", "1", P(rma_direct),
     "1: one-sided communication in a window whose ranks share a node goes through shared memory (locks, accumulates, Put/Get on Win_allocate memory) and single copy (Win_create memory); 0: by messages to the target, as across nodes",
     DMPI_PARAM_ALL_EQ},
    {"VERBOSE", P_INT, "0", "0", "2", P(verbose),
     "0 quiet; 1 prints start-up decisions (paths, fallbacks); 2 adds details",
     DMPI_PARAM_LOCAL},
};
#pragma GCC diagnostic pop
#define NPARAMS (sizeof table / sizeof table[0])

static const char *path_names[] = {"auto", "eager", "copy", "cma"};

/* Numbers are compared as long double, whose 64-bit mantissa holds every
 * size_t, int and double exactly. */
_Static_assert(LDBL_MANT_DIG >= 64, "sizes compare exactly");

/* A size: digits and an optional K, M or G; "-" before it makes a
 * (negative, out of range) number too. */
static int parse_size(const char *s, long double *out)
{
    bool neg = *s == '-';
    s += neg;
    if (*s < '0' || *s > '9')          /* no blanks, no second sign */
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    long double x = errno == ERANGE ? (long double)ULLONG_MAX * 2 : (long double)v;
    if (*end == 'k' || *end == 'K') x *= 1ULL << 10, end++;
    else if (*end == 'm' || *end == 'M') x *= 1ULL << 20, end++;
    else if (*end == 'g' || *end == 'G') x *= 1ULL << 30, end++;
    if (*end)
        return -1;
    *out = neg ? -x : x;
    return 0;
}

static int parse_int(const char *s, long double *out)
{
    if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
        return -1;                     /* no blanks, no "+" */
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);  /* beyond long long: clamped, so out of range */
    if (*end)
        return -1;
    *out = (long double)v;
    return 0;
}

static int parse_double(const char *s, long double *out)
{
    /* plain decimal notation: no blanks, hex, "inf" or "nan" */
    if (!*s || strspn(s, "0123456789.eE+-") != strlen(s) || *s == '+' || *s == 'e' || *s == 'E')
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);        /* beyond double: +-HUGE_VAL, so out of range */
    if (end == s || *end)
        return -1;
    *out = v;
    return 0;
}

static int parse_number(ptype_t t, const char *s, long double *out)
{
    switch (t) {
    case P_SIZE: return parse_size(s, out);
    case P_INT: return parse_int(s, out);
    case P_DOUBLE: return parse_double(s, out);
    default: return -1;
    }
}

enum { OK, MALFORMED, OUT_OF_RANGE };

static int parse_one(const param_t *p, const char *s)
{
    char *base = (char *)&dmpi_params + p->offset;
    long double v, lo, hi;
    switch (p->type) {
    case P_SIZE:
    case P_INT:
    case P_DOUBLE:
        if (parse_number(p->type, s, &v))
            return MALFORMED;
        parse_number(p->type, p->min, &lo);
        parse_number(p->type, p->max, &hi);
        if (!(v >= lo && v <= hi))     /* the one range check */
            return OUT_OF_RANGE;
        if (p->type == P_SIZE)
            *(size_t *)base = (size_t)v;
        else if (p->type == P_INT)
            *(int *)base = (int)v;
        else
            *(double *)base = (double)v;
        return OK;
    case P_PATH:
        for (int i = 0; i < 4; i++)
            if (!strcasecmp(s, path_names[i])) {
                *(int *)base = i;
                return OK;
            }
        return MALFORMED;
    case P_NAME:                       /* an identifier: [a-z0-9_]+ */
        if (!*s || strlen(s) >= DMPI_PARAM_NAME_MAX || strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(s))
            return MALFORMED;
        strcpy(base, s);
        return OK;
    case P_TEXT:                       /* a name or an address: [A-Za-z0-9_.:/@-]+ */
        if (!*s || strlen(s) >= DMPI_PARAM_TEXT_MAX ||
            strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:/@-") != strlen(s))
            return MALFORMED;
        strcpy(base, s);
        return OK;
    }
    return MALFORMED;
}

static const char *expected(ptype_t t)
{
    switch (t) {
    case P_SIZE: return "a size in bytes (digits, optionally followed by K, M or G)";
    case P_INT: return "an integer";
    case P_DOUBLE: return "a number";
    case P_PATH: return "auto, eager, copy or cma";
    case P_NAME: return "a name of lowercase letters, digits and _";
    case P_TEXT: return "a name or an address (letters, digits and _ . : / @ -)";
    }
    return "?";
}

/* Entries set through MPI_T (dmpi_param_set): a later load keeps them. */
static bool set_by_tool[NPARAMS];
static bool loaded;

int dmpi_params_load(void)
{
    loaded = true;
    for (size_t i = 0; i < NPARAMS; i++) {
        const param_t *p = &table[i];
        if (set_by_tool[i])
            continue;
        parse_one(p, p->dflt);
        char var[64];
        snprintf(var, sizeof var, "DMPI_%s", p->name);
        const char *s = getenv(var);
        if (!s)
            continue;
        switch (parse_one(p, s)) {
        case OK:
            break;
        case OUT_OF_RANGE:
            fprintf(stderr, "dmpi: %s=%s is out of range (%s .. %s)\n", var, s, p->min, p->max);
            return -1;
        default:
            if (p->min)
                fprintf(stderr, "dmpi: %s='%s' is not valid: expected %s in %s .. %s (%s)\n", var, s,
                        expected(p->type), p->min, p->max, p->doc);
            else
                fprintf(stderr, "dmpi: %s='%s' is not valid: expected %s (%s)\n", var, s, expected(p->type),
                        p->doc);
            return -1;
        }
    }
    return 0;
}

/* The group of a parameter, from its name, so that a new entry has one
 * without saying so. */
static const char *category_of(const char *name)
{
    static const struct {
        const char *prefix, *category;
    } groups[] = {
        {"COLL_", "collectives"}, {"ALLTOALLV_", "collectives"}, {"TCP_", "tcp"}, {"RMA_", "rma"},
        {"EAGER_", "shm"}, {"CMA_", "shm"}, {"SHM_", "shm"}, {"RING_", "shm"}, {"FRAG_", "shm"},
        {"ALLOC_MEM_", "shm"}, {"TRANSPORT", "p2p"}, {"YIELD", "progress"}, {"SPIN_", "progress"},
        {"IDLE_", "progress"}, {"HANG_", "progress"},
    };
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        if (!strncmp(name, groups[g].prefix, strlen(groups[g].prefix)))
            return groups[g].category;
    return "general";
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
    case P_TEXT: snprintf(cur, len, "%s", base); break;
    }
}

int dmpi_param_describe(int i, dmpi_param_info_t *info)
{
    if (i < 0 || (size_t)i >= NPARAMS)
        return 0;
    const param_t *p = &table[i];
    info->name = p->name;
    info->dflt = p->dflt;
    info->min = p->min;
    info->max = p->max;
    info->doc = p->doc;
    format_current(p, info->cur, sizeof info->cur);
    static const int kinds[] = {[P_SIZE] = DMPI_PARAM_SIZE, [P_INT] = DMPI_PARAM_INT, [P_DOUBLE] = DMPI_PARAM_DOUBLE,
                                [P_PATH] = DMPI_PARAM_CHOICE, [P_NAME] = DMPI_PARAM_NAME, [P_TEXT] = DMPI_PARAM_TEXT};
    info->kind = kinds[p->type];
    info->when = p->when;
    info->category = category_of(p->name);
    return 1;
}

const char *dmpi_param_choice(int i, int c)
{
    if (i < 0 || (size_t)i >= NPARAMS || table[i].type != P_PATH || c < 0 || c >= 4)
        return NULL;
    return path_names[c];
}

const void *dmpi_param_value(int i)
{
    return (const char *)&dmpi_params + table[i].offset;
}

int dmpi_param_set(int i, const void *value)
{
    const param_t *p = &table[i];
    char text[64];
    switch (p->type) {   /* the value as the environment would give it, then the one parser */
    case P_SIZE: snprintf(text, sizeof text, "%zu", *(const size_t *)value); break;
    case P_INT: snprintf(text, sizeof text, "%d", *(const int *)value); break;
    case P_DOUBLE: snprintf(text, sizeof text, "%.17g", *(const double *)value); break;
    case P_PATH: {
        int c = *(const int *)value;
        if (c < 0 || c >= 4)
            return -1;
        snprintf(text, sizeof text, "%s", path_names[c]);
        break;
    }
    case P_NAME:
    case P_TEXT:
        if (strnlen(value, sizeof text) >= sizeof text)
            return -1;
        snprintf(text, sizeof text, "%s", (const char *)value);
        break;
    }
    if (parse_one(p, text) != OK)
        return -1;
    set_by_tool[i] = true;
    return 0;
}

int dmpi_params_load_once(void)
{
    return loaded ? 0 : dmpi_params_load();
}
