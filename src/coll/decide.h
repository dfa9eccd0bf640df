/* Decision tables as data. For each collective, an ordered list of rules
 * over what every rank knows alike (the communicator size p, a byte count,
 * a few conditions): the first rule that matches names the algorithm.
 * Apart from the rules, each collective lists its constraints: algorithms
 * that cannot run in some case (a non-commutative op, more bytes than an
 * int count carries) and what runs instead. Rules are tuning and apply to
 * the automatic choice only; constraints are correctness and apply to every
 * choice, a DMPI_COLL_<NAME> one included.
 *
 * select.c describes each call as a case and runs the algorithm chosen;
 * dmpi_info prints the tables (docs/collectives.md). decide.c needs nothing
 * of libmpi but the parameters, so that dmpi_info can compile it in. */
#ifndef DMPI_COLL_DECIDE_H
#define DMPI_COLL_DECIDE_H

#include <stddef.h>
#include <stdint.h>

/* Conditions a rule may need, or a constraint may require, of a call. */
enum {
    /* tuning: used by rules */
    DMPI_IF_POF2 = 1u << 0,          /* p is a power of two */
    DMPI_IF_NOT_POF2 = 1u << 1,      /* p is not a power of two */
    DMPI_IF_COUNT_POF2 = 1u << 2,    /* count >= the largest power of two <= p: no rank gets an empty block */
    DMPI_IF_FEW_PARTNERS = 1u << 3,  /* alltoallv: at most DMPI_ALLTOALLV_WINDOW nonempty steps */
    /* correctness: used by constraints */
    DMPI_IF_COMMUTATIVE = 1u << 4,   /* the op is commutative */
    DMPI_IF_FITS_INT = 1u << 5,      /* bytes <= INT_MAX: one message can carry them */
    DMPI_IF_BLOCKS_FIT = 1u << 6,    /* p * bytes <= INT_MAX: one message can carry p blocks */
};

/* One call, as the tables see it. */
typedef struct dmpi_coll_case {
    int p;                           /* communicator size */
    size_t bytes;                    /* what the collective's table measures (dmpi_coll_decision_t.bytes) */
    unsigned holds;                  /* the DMPI_IF_* conditions that hold */
} dmpi_coll_case_t;

/* The case of a call: the conditions that follow from p, bytes and count
 * (elements of a reduction, 0 otherwise), plus `holds` that only the caller
 * knows (DMPI_IF_COMMUTATIVE, DMPI_IF_FEW_PARTNERS). */
dmpi_coll_case_t dmpi_coll_case(int p, size_t bytes, size_t count, unsigned holds);

/* A rule matches when every bound and every condition it needs holds. */
typedef struct dmpi_coll_rule {
    int algo;                        /* index in the collective's names[] */
    int min_ranks, max_ranks;        /* p in [min_ranks, max_ranks] */
    size_t min_bytes, max_bytes;     /* bytes in [min_bytes, max_bytes] */
    size_t min_per_rank;             /* and bytes >= min_per_rank * p (0: no such bound) */
    unsigned needs;                  /* DMPI_IF_* conditions that must all hold */
} dmpi_coll_rule_t;

/* Algorithm algo runs only if the conditions `needs` hold; otherwise
 * `instead` runs. Applied in order, so a later constraint may move the
 * replacement on again. */
typedef struct dmpi_coll_constraint {
    int algo;
    unsigned needs;
    int instead;
} dmpi_coll_constraint_t;

/* One collective's decision. */
typedef struct dmpi_coll_decision {
    const char *name;                /* "bcast": MPI_Bcast and MPI_Ibcast */
    const char *param;               /* "BCAST": DMPI_COLL_BCAST forces an algorithm */
    const char *value;               /* the parameter's value: "auto" or one of names[] */
    const char *bytes;               /* what bytes measures, for dmpi_info: "count * type size" */
    const char *const *names;        /* the algorithms, ending with NULL */
    const dmpi_coll_rule_t *rules;   /* the first that matches wins; the last matches everything */
    int nrules;
    const dmpi_coll_constraint_t *constraints;
    int nconstraints;
} dmpi_coll_decision_t;

/* Index of the forced algorithm in names[], or -1 for the decision table. */
int dmpi_coll_forced(const char *value, const char *const *names);

/* The algorithm of the first rule that matches k (the last rule's if none
 * does). */
int dmpi_coll_pick(const dmpi_coll_rule_t *rules, int nrules, const dmpi_coll_case_t *k);

/* What runs for case k: the forced algorithm, or the rules' choice, then
 * moved on by the constraints. */
int dmpi_coll_choose(const dmpi_coll_decision_t *d, const dmpi_coll_case_t *k);

/* What a DMPI_IF_* bit means, for dmpi_info ("commutative op"); NULL for
 * anything else. */
const char *dmpi_coll_condition(unsigned bit);

/* The algorithms of each collective, as indices in its names[]. */
enum { DMPI_BARRIER_DISSEMINATION };
enum { DMPI_ROOTED_BINOMIAL, DMPI_ROOTED_LINEAR };       /* gather and scatter alike */
enum { DMPI_ALLGATHER_RECURSIVE_DOUBLING, DMPI_ALLGATHER_BRUCK, DMPI_ALLGATHER_RING };
enum { DMPI_ALLTOALL_BRUCK, DMPI_ALLTOALL_PAIRWISE, DMPI_ALLTOALL_LINEAR };
enum { DMPI_ALLTOALLV_PAIRWISE, DMPI_ALLTOALLV_LINEAR, DMPI_ALLTOALLV_THROTTLED, DMPI_ALLTOALLV_MIXED };
enum { DMPI_BCAST_BINOMIAL, DMPI_BCAST_SCATTER_ALLGATHER };
enum { DMPI_REDUCE_BINOMIAL, DMPI_REDUCE_SCATTER_GATHER };
enum { DMPI_ALLREDUCE_RECURSIVE_DOUBLING, DMPI_ALLREDUCE_REDUCE_SCATTER_ALLGATHER, DMPI_ALLREDUCE_RING };
enum { DMPI_REDSCAT_RECURSIVE_HALVING, DMPI_REDSCAT_PAIRWISE, DMPI_REDSCAT_REDUCE_SCATTERV };

extern const dmpi_coll_decision_t dmpi_decide_barrier, dmpi_decide_gather, dmpi_decide_scatter,
    dmpi_decide_allgather, dmpi_decide_alltoall, dmpi_decide_alltoallv, dmpi_decide_bcast, dmpi_decide_reduce,
    dmpi_decide_allreduce, dmpi_decide_reduce_scatter;

/* Every decision above, for dmpi_info and the parameter check; NULL ends it. */
extern const dmpi_coll_decision_t *const dmpi_coll_decisions[];

/* How often each algorithm ran, by decision (its index in
 * dmpi_coll_decisions) and algorithm: MPI_T's coll_* counters. */
#define DMPI_COLL_MAX_DECISIONS 16
#define DMPI_COLL_MAX_ALGOS 8
extern uint64_t dmpi_coll_chosen[DMPI_COLL_MAX_DECISIONS][DMPI_COLL_MAX_ALGOS];

#endif
