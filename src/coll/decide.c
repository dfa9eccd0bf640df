/* The decision tables of the collectives (decide.h): thresholds, rules and
 * constraints as data, and the small functions that read them. Why each
 * table is as it is: docs/collectives.md, "Decision tables and why". */
#include "coll/decide.h"
#include "core/params.h"
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- tunable thresholds (bytes as each table measures them) ------------- */
/* Where each comes from, with the reasoning: docs/collectives.md. */

/* Bcast: bytes = count * type size. */
#define BCAST_SHORT_MSG_SIZE 12288          /* MPICH's BCAST_SHORT_MSG_SIZE: below, the tree's fewer rounds win */
#define BCAST_MIN_PROCS 8                   /* MPICH's BCAST_MIN_PROCS: below, the root sends at most 3 copies */
/* Reduce, Allreduce: bytes = count * type size. */
#define REDUCE_SHORT_MSG_SIZE 2048          /* MPICH's REDUCE_SHORT_MSG_SIZE: up to it, the binomial tree */
#define ALLREDUCE_SHORT_MSG_SIZE 2048       /* MPICH's ALLREDUCE_SHORT_MSG_SIZE: up to it, recursive doubling */
#define ALLREDUCE_RING_MIN_BLOCK 16384      /* per rank: the ring beats the fold (collectives.md; Open MPI tuned) */
/* Reduce_scatter(_block): bytes = the whole vector. */
#define REDUCE_SCATTER_LONG_MSG_SIZE 524288 /* MPICH's REDUCE_SCATTER_COMMUTATIVE_LONG_MSG_SIZE: from it, pairwise */
/* Gather, Scatter: bytes = one rank's block. */
#define ROOTED_TREE_MIN_RANKS 3             /* p > 2: with 2 ranks the tree is the one message linear sends */
#define ROOTED_TREE_MAX 16384               /* above, copies cost more than latencies saved (Open MPI tuned's switch) */
/* Allgather(v): bytes = everything gathered. */
#define ALLGATHER_LONG_MSG_SIZE (512 * 1024) /* MPICH's ALLGATHER_LONG_MSG_SIZE: up to it, recursive doubling */
#define ALLGATHER_SHORT_MSG_SIZE (80 * 1024) /* MPICH's ALLGATHER_SHORT_MSG_SIZE: up to it, Bruck */
/* Alltoall: bytes = one block. */
#define ALLTOALL_SHORT_MSG_SIZE 256         /* MPICH's ALLTOALL_SHORT_MSG_SIZE: up to it, Bruck ... */
#define ALLTOALL_BRUCK_MIN_PROCS 8          /* ... on at least 8 ranks, as MPICH's alltoall */
#define ALLTOALL_MEDIUM_MSG_SIZE 32768      /* MPICH's ALLTOALL_MEDIUM_MSG_SIZE: up to it, linear; then pairwise */
/* Alltoallv/w: bytes = this rank's average per nonempty step (the window is DMPI_ALLTOALLV_WINDOW). */
#define ALLTOALLV_PAIRWISE_MIN 32768        /* from it pairwise, as alltoall's ALLTOALL_MEDIUM_MSG_SIZE */

/* A rule's bounds that do not bound. */
#define ANY_RANKS 1, INT_MAX
#define ANY_BYTES 0, SIZE_MAX

/* ---- reading the tables ------------------------------------------------- */

int dmpi_coll_forced(const char *value, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(value, names[i]))
            return i;
    return -1;
}

static int pof2_below(int p)
{
    int k = 1;
    while (k * 2 <= p)
        k *= 2;
    return k;
}

dmpi_coll_case_t dmpi_coll_case(int p, size_t bytes, size_t count, unsigned holds)
{
    holds |= (p & (p - 1)) == 0 ? DMPI_IF_POF2 : DMPI_IF_NOT_POF2;
    if (count >= (size_t)pof2_below(p))
        holds |= DMPI_IF_COUNT_POF2;
    if (bytes <= INT_MAX)
        holds |= DMPI_IF_FITS_INT;
    if ((size_t)p * bytes <= INT_MAX)
        holds |= DMPI_IF_BLOCKS_FIT;
    return (dmpi_coll_case_t){.p = p, .bytes = bytes, .holds = holds};
}

static bool rule_matches(const dmpi_coll_rule_t *r, const dmpi_coll_case_t *k)
{
    return k->p >= r->min_ranks && k->p <= r->max_ranks && k->bytes >= r->min_bytes && k->bytes <= r->max_bytes &&
           (r->min_per_rank == 0 || k->bytes >= r->min_per_rank * (size_t)k->p) && (r->needs & ~k->holds) == 0;
}

int dmpi_coll_pick(const dmpi_coll_rule_t *rules, int nrules, const dmpi_coll_case_t *k)
{
    for (int i = 0; i < nrules; i++)
        if (rule_matches(&rules[i], k))
            return rules[i].algo;
    return rules[nrules - 1].algo;
}

uint64_t dmpi_coll_chosen[DMPI_COLL_MAX_DECISIONS][DMPI_COLL_MAX_ALGOS];

/* One more run of algo (MPI_T's counters): the decision's row is found
 * among the few there are, which costs nothing next to a collective. */
static int count_choice(const dmpi_coll_decision_t *d, int algo)
{
    for (int i = 0; i < DMPI_COLL_MAX_DECISIONS && dmpi_coll_decisions[i]; i++)
        if (dmpi_coll_decisions[i] == d && algo < DMPI_COLL_MAX_ALGOS)
            dmpi_coll_chosen[i][algo]++;
    return algo;
}

int dmpi_coll_choose(const dmpi_coll_decision_t *d, const dmpi_coll_case_t *k)
{
    int algo = dmpi_coll_forced(d->value, d->names);
    if (algo < 0)
        algo = dmpi_coll_pick(d->rules, d->nrules, k);
    for (int i = 0; i < d->nconstraints; i++) {
        const dmpi_coll_constraint_t *c = &d->constraints[i];
        if (algo == c->algo && (c->needs & ~k->holds) != 0)
            algo = c->instead;
    }
    return count_choice(d, algo);
}

/* ---- the tables --------------------------------------------------------- */

#define RULES(r) .rules = r, .nrules = (int)(sizeof r / sizeof r[0])
#define CONSTRAINTS(c) .constraints = c, .nconstraints = (int)(sizeof c / sizeof c[0])

/* Rules: {algorithm, min ranks, max ranks, min bytes, max bytes, min bytes per rank, conditions needed}. */

/* Barrier: one algorithm. */
static const char *const barrier_names[] = {"dissemination", NULL};
static const dmpi_coll_rule_t barrier_rules[] = {
    {DMPI_BARRIER_DISSEMINATION, ANY_RANKS, ANY_BYTES, 0, 0},
};

/* Gather, Scatter (Gatherv and Scatterv are always linear). */
static const char *const rooted_names[] = {"binomial", "linear", NULL};
static const dmpi_coll_rule_t rooted_rules[] = {
    {DMPI_ROOTED_BINOMIAL, ROOTED_TREE_MIN_RANKS, INT_MAX, 0, ROOTED_TREE_MAX, 0, 0},
    {DMPI_ROOTED_LINEAR, ANY_RANKS, ANY_BYTES, 0, 0},
};
static const dmpi_coll_constraint_t rooted_constraints[] = {
    {DMPI_ROOTED_BINOMIAL, DMPI_IF_BLOCKS_FIT, DMPI_ROOTED_LINEAR},  /* a subtree's blocks go in one message */
};

/* Allgather, Allgatherv (which runs the ring where Bruck is chosen). */
static const char *const allgather_names[] = {"recursive_doubling", "bruck", "ring", NULL};
static const dmpi_coll_rule_t allgather_rules[] = {
    {DMPI_ALLGATHER_RECURSIVE_DOUBLING, ANY_RANKS, 0, ALLGATHER_LONG_MSG_SIZE, 0, DMPI_IF_POF2},
    {DMPI_ALLGATHER_BRUCK, ANY_RANKS, 0, ALLGATHER_SHORT_MSG_SIZE, 0, 0},
    {DMPI_ALLGATHER_RING, ANY_RANKS, ANY_BYTES, 0, 0},
};
static const dmpi_coll_constraint_t allgather_constraints[] = {
    {DMPI_ALLGATHER_RECURSIVE_DOUBLING, DMPI_IF_POF2, DMPI_ALLGATHER_BRUCK},    /* partners rank ^ 2^i */
    {DMPI_ALLGATHER_RECURSIVE_DOUBLING, DMPI_IF_FITS_INT, DMPI_ALLGATHER_RING}, /* many blocks per message */
    {DMPI_ALLGATHER_BRUCK, DMPI_IF_FITS_INT, DMPI_ALLGATHER_RING},              /* many blocks per message */
};

/* Alltoall (pairwise and linear are the Alltoallv algorithms). */
static const char *const alltoall_names[] = {"bruck", "pairwise", "linear", NULL};
static const dmpi_coll_rule_t alltoall_rules[] = {
    {DMPI_ALLTOALL_BRUCK, ALLTOALL_BRUCK_MIN_PROCS, INT_MAX, 0, ALLTOALL_SHORT_MSG_SIZE, 0, 0},
    {DMPI_ALLTOALL_LINEAR, ANY_RANKS, 0, ALLTOALL_MEDIUM_MSG_SIZE, 0, 0},
    {DMPI_ALLTOALL_PAIRWISE, ANY_RANKS, ANY_BYTES, 0, 0},
};
static const dmpi_coll_constraint_t alltoall_constraints[] = {
    {DMPI_ALLTOALL_BRUCK, DMPI_IF_BLOCKS_FIT, DMPI_ALLTOALL_PAIRWISE},  /* about p/2 blocks per message */
};

/* Alltoallv, Alltoallw: each rank by its own counts ("mixed", a test aid,
 * is never chosen: forced, rank r runs algorithm r % 3). */
static const char *const alltoallv_names[] = {"pairwise", "linear", "throttled", "mixed", NULL};
static const dmpi_coll_rule_t alltoallv_rules[] = {
    {DMPI_ALLTOALLV_LINEAR, ANY_RANKS, ANY_BYTES, 0, DMPI_IF_FEW_PARTNERS},
    {DMPI_ALLTOALLV_PAIRWISE, ANY_RANKS, ALLTOALLV_PAIRWISE_MIN, SIZE_MAX, 0, 0},
    {DMPI_ALLTOALLV_THROTTLED, ANY_RANKS, ANY_BYTES, 0, 0},
};

/* Bcast. */
static const char *const bcast_names[] = {"binomial", "scatter_allgather", NULL};
static const dmpi_coll_rule_t bcast_rules[] = {
    {DMPI_BCAST_SCATTER_ALLGATHER, BCAST_MIN_PROCS, INT_MAX, BCAST_SHORT_MSG_SIZE, SIZE_MAX, 0, 0},
    {DMPI_BCAST_BINOMIAL, ANY_RANKS, ANY_BYTES, 0, 0},
};
static const dmpi_coll_constraint_t bcast_constraints[] = {
    {DMPI_BCAST_SCATTER_ALLGATHER, DMPI_IF_FITS_INT, DMPI_BCAST_BINOMIAL},  /* int-counted pieces of the bytes */
};

/* Reduce. */
static const char *const reduce_names[] = {"binomial", "reduce_scatter_gather", NULL};
static const dmpi_coll_rule_t reduce_rules[] = {
    {DMPI_REDUCE_SCATTER_GATHER, ANY_RANKS, REDUCE_SHORT_MSG_SIZE + 1, SIZE_MAX, 0, DMPI_IF_COUNT_POF2},
    {DMPI_REDUCE_BINOMIAL, ANY_RANKS, ANY_BYTES, 0, 0},
};
static const dmpi_coll_constraint_t reduce_constraints[] = {
    {DMPI_REDUCE_SCATTER_GATHER, DMPI_IF_COMMUTATIVE, DMPI_REDUCE_BINOMIAL},  /* only the tree keeps rank order */
};

/* Allreduce. */
static const char *const allreduce_names[] = {"recursive_doubling", "reduce_scatter_allgather", "ring", NULL};
static const dmpi_coll_rule_t allreduce_rules[] = {
    {DMPI_ALLREDUCE_RING, ANY_RANKS, ALLREDUCE_SHORT_MSG_SIZE + 1, SIZE_MAX, ALLREDUCE_RING_MIN_BLOCK,
     DMPI_IF_COUNT_POF2 | DMPI_IF_NOT_POF2},
    {DMPI_ALLREDUCE_REDUCE_SCATTER_ALLGATHER, ANY_RANKS, ALLREDUCE_SHORT_MSG_SIZE + 1, SIZE_MAX, 0,
     DMPI_IF_COUNT_POF2},
    {DMPI_ALLREDUCE_RECURSIVE_DOUBLING, ANY_RANKS, ANY_BYTES, 0, 0},
};
static const dmpi_coll_constraint_t allreduce_constraints[] = {
    /* recursive doubling keeps rank order */
    {DMPI_ALLREDUCE_REDUCE_SCATTER_ALLGATHER, DMPI_IF_COMMUTATIVE, DMPI_ALLREDUCE_RECURSIVE_DOUBLING},
    {DMPI_ALLREDUCE_RING, DMPI_IF_COMMUTATIVE, DMPI_ALLREDUCE_RECURSIVE_DOUBLING},
};

/* Reduce_scatter, Reduce_scatter_block. */
static const char *const reduce_scatter_names[] = {"recursive_halving", "pairwise", "reduce_scatterv", NULL};
static const dmpi_coll_rule_t reduce_scatter_rules[] = {
    {DMPI_REDSCAT_PAIRWISE, ANY_RANKS, REDUCE_SCATTER_LONG_MSG_SIZE, SIZE_MAX, 0, 0},
    {DMPI_REDSCAT_RECURSIVE_HALVING, ANY_RANKS, ANY_BYTES, 0, 0},
};
static const dmpi_coll_constraint_t reduce_scatter_constraints[] = {
    /* the binomial reduce keeps rank order */
    {DMPI_REDSCAT_RECURSIVE_HALVING, DMPI_IF_COMMUTATIVE, DMPI_REDSCAT_REDUCE_SCATTERV},
    {DMPI_REDSCAT_PAIRWISE, DMPI_IF_COMMUTATIVE, DMPI_REDSCAT_REDUCE_SCATTERV},
};

const dmpi_coll_decision_t dmpi_decide_barrier = {
    .name = "barrier", .param = "BARRIER", .value = dmpi_params.coll_barrier, .bytes = "-",
    .names = barrier_names, RULES(barrier_rules)};
const dmpi_coll_decision_t dmpi_decide_gather = {
    .name = "gather", .param = "GATHER", .value = dmpi_params.coll_gather, .bytes = "one rank's block",
    .names = rooted_names, RULES(rooted_rules), CONSTRAINTS(rooted_constraints)};
const dmpi_coll_decision_t dmpi_decide_scatter = {
    .name = "scatter", .param = "SCATTER", .value = dmpi_params.coll_scatter, .bytes = "one rank's block",
    .names = rooted_names, RULES(rooted_rules), CONSTRAINTS(rooted_constraints)};
const dmpi_coll_decision_t dmpi_decide_allgather = {
    .name = "allgather(v)", .param = "ALLGATHER", .value = dmpi_params.coll_allgather,
    .bytes = "everything gathered", .names = allgather_names, RULES(allgather_rules),
    CONSTRAINTS(allgather_constraints)};
const dmpi_coll_decision_t dmpi_decide_alltoall = {
    .name = "alltoall", .param = "ALLTOALL", .value = dmpi_params.coll_alltoall, .bytes = "one block",
    .names = alltoall_names, RULES(alltoall_rules), CONSTRAINTS(alltoall_constraints)};
const dmpi_coll_decision_t dmpi_decide_alltoallv = {
    .name = "alltoallv/w", .param = "ALLTOALLV", .value = dmpi_params.coll_alltoallv,
    .bytes = "this rank's average per nonempty step, sent + received (ranks decide alone)",
    .names = alltoallv_names, RULES(alltoallv_rules)};
const dmpi_coll_decision_t dmpi_decide_bcast = {
    .name = "bcast", .param = "BCAST", .value = dmpi_params.coll_bcast, .bytes = "count * type size",
    .names = bcast_names, RULES(bcast_rules), CONSTRAINTS(bcast_constraints)};
const dmpi_coll_decision_t dmpi_decide_reduce = {
    .name = "reduce", .param = "REDUCE", .value = dmpi_params.coll_reduce, .bytes = "count * type size",
    .names = reduce_names, RULES(reduce_rules), CONSTRAINTS(reduce_constraints)};
const dmpi_coll_decision_t dmpi_decide_allreduce = {
    .name = "allreduce", .param = "ALLREDUCE", .value = dmpi_params.coll_allreduce, .bytes = "count * type size",
    .names = allreduce_names, RULES(allreduce_rules), CONSTRAINTS(allreduce_constraints)};
const dmpi_coll_decision_t dmpi_decide_reduce_scatter = {
    .name = "reduce_scatter(_block)", .param = "REDUCE_SCATTER", .value = dmpi_params.coll_reduce_scatter,
    .bytes = "the whole vector (all blocks)", .names = reduce_scatter_names, RULES(reduce_scatter_rules),
    CONSTRAINTS(reduce_scatter_constraints)};

const dmpi_coll_decision_t *const dmpi_coll_decisions[] = {
    &dmpi_decide_barrier, &dmpi_decide_gather,    &dmpi_decide_scatter, &dmpi_decide_allgather,
    &dmpi_decide_alltoall, &dmpi_decide_alltoallv, &dmpi_decide_bcast,   &dmpi_decide_reduce,
    &dmpi_decide_allreduce, &dmpi_decide_reduce_scatter, NULL,
};

const char *dmpi_coll_condition(unsigned bit)
{
    switch (bit) {
    case DMPI_IF_POF2: return "p power of 2";
    case DMPI_IF_NOT_POF2: return "p not power of 2";
    case DMPI_IF_COUNT_POF2: return "count >= pof2";
    case DMPI_IF_FEW_PARTNERS: return "steps <= window";
    case DMPI_IF_COMMUTATIVE: return "commutative op";
    case DMPI_IF_FITS_INT: return "bytes <= INT_MAX";
    case DMPI_IF_BLOCKS_FIT: return "p * bytes <= INT_MAX";
    default: return NULL;
    }
}
