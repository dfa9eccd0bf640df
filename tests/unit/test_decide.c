/* The collectives' decision tables (coll/decide.c):
 *   - the algorithm chosen at a set of points, on both sides of every
 *     threshold, is the one docs/collectives.md ("Decision tables and why")
 *     documents;
 *   - the constraints hold whatever was chosen or forced: a non-commutative
 *     op gets an order-keeping algorithm, recursive doubling allgather a
 *     power-of-two size, sizes beyond an int count an algorithm that
 *     carries them;
 *   - every algorithm of every table can be forced (DMPI_COLL_<NAME>) and is
 *     what runs when no constraint objects;
 *   - the tables are well formed: the last rule of each matches everything,
 *     every algorithm index names an algorithm, every condition has a name
 *     for dmpi_info, and every table's parameter is in core/params.c. */
#include "coll/decide.h"
#include "core/params.h"
#include "unit.h"
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)
#define GIB (MIB * KIB)

/* value is one of dmpi_params' COLL_ fields: writable. */
static void force(const dmpi_coll_decision_t *d, const char *algo)
{
    char *value = (char *)d->value;
    snprintf(value, DMPI_PARAM_NAME_MAX, "%s", algo);
}

static const char *chosen(const dmpi_coll_decision_t *d, int p, size_t bytes, size_t count, unsigned holds)
{
    dmpi_coll_case_t k = dmpi_coll_case(p, bytes, count, holds);
    return d->names[dmpi_coll_choose(d, &k)];
}

#define C DMPI_IF_COMMUTATIVE
#define FEW DMPI_IF_FEW_PARTNERS

typedef struct point {
    const dmpi_coll_decision_t *d;
    int p;
    size_t bytes, count;
    unsigned holds;
    const char *algo;
} point_t;

/* count: elements, for the reductions (bytes / count is the type size). */
static const point_t points[] = {
    {&dmpi_decide_barrier, 1, 0, 0, 0, "dissemination"},
    {&dmpi_decide_barrier, 64, 0, 0, 0, "dissemination"},
    /* Gather, Scatter: binomial if p > 2 and n <= 16 KiB, else linear */
    {&dmpi_decide_gather, 2, 100, 0, 0, "linear"},
    {&dmpi_decide_gather, 3, 0, 0, 0, "binomial"},
    {&dmpi_decide_gather, 3, 16 * KIB, 0, 0, "binomial"},
    {&dmpi_decide_gather, 3, 16 * KIB + 1, 0, 0, "linear"},
    {&dmpi_decide_scatter, 64, 16 * KIB, 0, 0, "binomial"},
    {&dmpi_decide_scatter, 64, 1 * MIB, 0, 0, "linear"},
    {&dmpi_decide_gather, 1 << 17, 16 * KIB, 0, 0, "linear"},      /* p blocks > INT_MAX */
    {&dmpi_decide_gather, (1 << 17) - 1, 16 * KIB, 0, 0, "binomial"},
    /* Allgather: recursive doubling if pof2 and p*n <= 512 KiB, else Bruck
     * if p*n <= 80 KiB, else the ring */
    {&dmpi_decide_allgather, 8, 512 * KIB, 0, 0, "recursive_doubling"},
    {&dmpi_decide_allgather, 8, 512 * KIB + 1, 0, 0, "ring"},
    {&dmpi_decide_allgather, 6, 80 * KIB, 0, 0, "bruck"},
    {&dmpi_decide_allgather, 6, 80 * KIB + 1, 0, 0, "ring"},
    {&dmpi_decide_allgather, 1, 0, 0, 0, "recursive_doubling"},
    {&dmpi_decide_allgather, 64, 3 * GIB, 0, 0, "ring"},
    /* Alltoall: Bruck if n <= 256 and p >= 8, else linear if n <= 32 KiB,
     * else pairwise */
    {&dmpi_decide_alltoall, 8, 256, 0, 0, "bruck"},
    {&dmpi_decide_alltoall, 7, 256, 0, 0, "linear"},
    {&dmpi_decide_alltoall, 8, 257, 0, 0, "linear"},
    {&dmpi_decide_alltoall, 64, 32 * KIB, 0, 0, "linear"},
    {&dmpi_decide_alltoall, 64, 32 * KIB + 1, 0, 0, "pairwise"},
    {&dmpi_decide_alltoall, 2, 64 * MIB, 0, 0, "pairwise"},
    /* Alltoallv: linear with at most the window's nonempty steps, else
     * pairwise from 32 KiB a step on average, else throttled */
    {&dmpi_decide_alltoallv, 64, 0, 0, FEW, "linear"},
    {&dmpi_decide_alltoallv, 64, 64 * MIB, 0, FEW, "linear"},
    {&dmpi_decide_alltoallv, 64, 32 * KIB, 0, 0, "pairwise"},
    {&dmpi_decide_alltoallv, 64, 32 * KIB - 1, 0, 0, "throttled"},
    /* Bcast: binomial if n < 12 KiB or p < 8, else scatter_allgather */
    {&dmpi_decide_bcast, 8, 12 * KIB - 1, 12 * KIB - 1, 0, "binomial"},
    {&dmpi_decide_bcast, 8, 12 * KIB, 12 * KIB, 0, "scatter_allgather"},
    {&dmpi_decide_bcast, 7, 1 * MIB, 1 * MIB, 0, "binomial"},
    {&dmpi_decide_bcast, 64, 2 * GIB, 2 * GIB, 0, "binomial"},    /* beyond INT_MAX */
    {&dmpi_decide_bcast, 64, INT_MAX, INT_MAX, 0, "scatter_allgather"},
    /* Reduce: reduce_scatter_gather if commutative, n > 2 KiB and count >=
     * pof2, else binomial */
    {&dmpi_decide_reduce, 4, 2048, 512, C, "binomial"},
    {&dmpi_decide_reduce, 4, 2049, 2049, C, "reduce_scatter_gather"},
    {&dmpi_decide_reduce, 12, 1 * MIB, 8, C, "reduce_scatter_gather"},
    {&dmpi_decide_reduce, 12, 1 * MIB, 7, C, "binomial"},           /* count < pof2 = 8 */
    {&dmpi_decide_reduce, 12, 1 * MIB, 1 * MIB, 0, "binomial"},     /* not commutative */
    /* Allreduce: recursive doubling if not commutative, n <= 2 KiB or count
     * < pof2; else the ring if p is not a power of two and n >= 16 KiB * p;
     * else reduce_scatter_allgather */
    {&dmpi_decide_allreduce, 8, 2048, 512, C, "recursive_doubling"},
    {&dmpi_decide_allreduce, 8, 2049, 2049, C, "reduce_scatter_allgather"},
    {&dmpi_decide_allreduce, 8, 8 * 16 * KIB, 8 * 16 * KIB, C, "reduce_scatter_allgather"},
    {&dmpi_decide_allreduce, 6, 6 * 16 * KIB, 6 * 16 * KIB, C, "ring"},
    {&dmpi_decide_allreduce, 6, 6 * 16 * KIB - 1, 6 * 16 * KIB - 1, C, "reduce_scatter_allgather"},
    {&dmpi_decide_allreduce, 6, 1 * MIB, 4, C, "ring"},
    {&dmpi_decide_allreduce, 6, 1 * MIB, 3, C, "recursive_doubling"},   /* count < pof2 = 4 */
    {&dmpi_decide_allreduce, 6, 1 * MIB, 1 * MIB, 0, "recursive_doubling"},
    /* Reduce_scatter: reduce_scatterv if not commutative, else recursive
     * halving under 512 KiB, pairwise from there */
    {&dmpi_decide_reduce_scatter, 4, 512 * KIB - 1, 0, C, "recursive_halving"},
    {&dmpi_decide_reduce_scatter, 4, 512 * KIB, 0, C, "pairwise"},
    {&dmpi_decide_reduce_scatter, 4, 100, 0, 0, "reduce_scatterv"},
    {&dmpi_decide_reduce_scatter, 4, 1 * MIB, 0, 0, "reduce_scatterv"},
};

static void test_documented_points(void)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        const point_t *t = &points[i];
        const char *got = chosen(t->d, t->p, t->bytes, t->count, t->holds);
        if (strcmp(got, t->algo))
            NOTE(bad, "%s p=%d bytes=%zu count=%zu holds=%#x: %s, documented %s", t->d->name, t->p, t->bytes,
                 t->count, t->holds, got, t->algo);
    }
    CHECK(bad == 0, "%d points differ from docs/collectives.md", bad);
}

/* A forced algorithm runs where the constraints allow it, and steps aside
 * as documented where they do not. */
typedef struct forced {
    const dmpi_coll_decision_t *d;
    const char *value;
    int p;
    size_t bytes;
    unsigned holds;
    const char *algo;
} forced_t;

static const forced_t forced[] = {
    {&dmpi_decide_reduce, "reduce_scatter_gather", 4, 8, 0, "binomial"},
    {&dmpi_decide_allreduce, "ring", 4, 1 * MIB, 0, "recursive_doubling"},
    {&dmpi_decide_allreduce, "reduce_scatter_allgather", 4, 1 * MIB, 0, "recursive_doubling"},
    {&dmpi_decide_reduce_scatter, "recursive_halving", 4, 8, 0, "reduce_scatterv"},
    {&dmpi_decide_reduce_scatter, "pairwise", 4, 8, 0, "reduce_scatterv"},
    {&dmpi_decide_allgather, "recursive_doubling", 6, 8, 0, "bruck"},
    {&dmpi_decide_allgather, "recursive_doubling", 8, 3 * GIB, 0, "ring"},
    {&dmpi_decide_allgather, "recursive_doubling", 6, 3 * GIB, 0, "ring"},
    {&dmpi_decide_allgather, "bruck", 6, 3 * GIB, 0, "ring"},
    {&dmpi_decide_alltoall, "bruck", 64, 64 * MIB, 0, "pairwise"},
    {&dmpi_decide_gather, "binomial", 64, 64 * MIB, 0, "linear"},
    {&dmpi_decide_scatter, "binomial", 64, 64 * MIB, 0, "linear"},
    {&dmpi_decide_bcast, "scatter_allgather", 2, 3 * GIB, 0, "binomial"},
    /* allowed */
    {&dmpi_decide_reduce, "reduce_scatter_gather", 4, 8, C, "reduce_scatter_gather"},
    {&dmpi_decide_allreduce, "ring", 8, 8, C, "ring"},
    {&dmpi_decide_reduce_scatter, "reduce_scatterv", 4, 8, C, "reduce_scatterv"},
    {&dmpi_decide_allgather, "recursive_doubling", 8, 3 * MIB, 0, "recursive_doubling"},
    {&dmpi_decide_alltoall, "bruck", 2, 32 * MIB, 0, "bruck"},
    {&dmpi_decide_gather, "binomial", 2, 1 * MIB, 0, "binomial"},
    {&dmpi_decide_bcast, "scatter_allgather", 2, 8, 0, "scatter_allgather"},
    {&dmpi_decide_alltoallv, "mixed", 2, 8, 0, "mixed"},   /* the entry point runs rank % 3 */
};

static void test_forced(void)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof forced / sizeof forced[0]; i++) {
        const forced_t *t = &forced[i];
        force(t->d, t->value);
        const char *got = chosen(t->d, t->p, t->bytes, t->p, t->holds);
        if (strcmp(got, t->algo))
            NOTE(bad, "%s forced %s, p=%d bytes=%zu holds=%#x: %s, expected %s", t->d->name, t->value, t->p,
                 t->bytes, t->holds, got, t->algo);
        force(t->d, "auto");
    }
    CHECK(bad == 0, "%d forced choices wrong", bad);

    /* every algorithm of every table, where every condition holds */
    bad = 0;
    for (int i = 0; dmpi_coll_decisions[i]; i++) {
        const dmpi_coll_decision_t *d = dmpi_coll_decisions[i];
        for (int a = 0; d->names[a]; a++) {
            force(d, d->names[a]);
            dmpi_coll_case_t k = dmpi_coll_case(8, 1024, 1024, C | FEW);
            if (dmpi_coll_choose(d, &k) != a)
                NOTE(bad, "%s: forcing %s gives %s", d->name, d->names[a], d->names[dmpi_coll_choose(d, &k)]);
        }
        force(d, "auto");
        if (dmpi_coll_forced("auto", d->names) != -1 || dmpi_coll_forced("nonsense", d->names) != -1)
            NOTE(bad, "%s: auto or nonsense taken for an algorithm", d->name);
    }
    CHECK(bad == 0, "%d algorithms cannot be forced", bad);
}

/* Whatever the case, a non-commutative op never gets an algorithm that
 * needs a commutative one, nor allgather recursive doubling a non-power of
 * two, nor anything that packs p blocks into one message more than an int
 * can count. Forced or not. */
static void test_constraints_everywhere(void)
{
    static const size_t sizes[] = {0, 1, 2048, 2049, 16384, 80 * 1024, 512 * 1024, 64 * MIB, INT_MAX,
                                   (size_t)INT_MAX + 1, 3 * GIB};
    int bad = 0, cases = 0;
    for (int i = 0; dmpi_coll_decisions[i]; i++) {
        const dmpi_coll_decision_t *d = dmpi_coll_decisions[i];
        for (int f = -1; d->names[f < 0 ? 0 : f]; f++) {
            force(d, f < 0 ? "auto" : d->names[f]);
            for (int p = 1; p <= 64; p++)
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                    for (unsigned h = 0; h < 4; h++) {
                        unsigned holds = (h & 1 ? C : 0) | (h & 2 ? FEW : 0);
                        dmpi_coll_case_t k = dmpi_coll_case(p, sizes[s], sizes[s], holds);
                        const char *a = d->names[dmpi_coll_choose(d, &k)];
                        bool comm = holds & C, pof2 = (p & (p - 1)) == 0;
                        bool fits = sizes[s] <= INT_MAX, blocks_fit = (size_t)p * sizes[s] <= INT_MAX;
                        cases++;
                        if (!comm && (!strcmp(a, "reduce_scatter_gather") || !strcmp(a, "reduce_scatter_allgather") ||
                                      (d == &dmpi_decide_allreduce && !strcmp(a, "ring")) ||
                                      !strcmp(a, "recursive_halving") ||
                                      (d == &dmpi_decide_reduce_scatter && !strcmp(a, "pairwise"))))
                            NOTE(bad, "%s p=%d n=%zu: %s with a non-commutative op", d->name, p, sizes[s], a);
                        if (d == &dmpi_decide_allgather && !strcmp(a, "recursive_doubling") && (!pof2 || !fits))
                            NOTE(bad, "allgather p=%d n=%zu: recursive doubling", p, sizes[s]);
                        if (d == &dmpi_decide_allgather && !strcmp(a, "bruck") && !fits)
                            NOTE(bad, "allgather p=%d n=%zu: bruck", p, sizes[s]);
                        if (d == &dmpi_decide_bcast && !strcmp(a, "scatter_allgather") && !fits)
                            NOTE(bad, "bcast n=%zu: scatter_allgather", sizes[s]);
                        if ((d == &dmpi_decide_gather || d == &dmpi_decide_scatter || d == &dmpi_decide_alltoall) &&
                            (!strcmp(a, "binomial") || !strcmp(a, "bruck")) && !blocks_fit)
                            NOTE(bad, "%s p=%d n=%zu: %s", d->name, p, sizes[s], a);
                    }
        }
        force(d, "auto");
    }
    CHECK(bad == 0, "%d of %d cases break a constraint", bad, cases);
}

static void test_tables_well_formed(void)
{
    int n = 0, bad = 0;
    unsigned all_bits = 0;
    for (int i = 0; dmpi_coll_decisions[i]; i++, n++) {
        const dmpi_coll_decision_t *d = dmpi_coll_decisions[i];
        int names = 0;
        while (d->names[names])
            names++;
        const dmpi_coll_rule_t *last = &d->rules[d->nrules - 1];
        if (d->nrules < 1 || last->min_ranks > 1 || last->max_ranks != INT_MAX || last->min_bytes != 0 ||
            last->max_bytes != SIZE_MAX || last->min_per_rank != 0 || last->needs != 0)
            NOTE(bad, "%s: the last rule does not match everything", d->name);
        for (int r = 0; r < d->nrules; r++) {
            const dmpi_coll_rule_t *u = &d->rules[r];
            if (u->algo < 0 || u->algo >= names || u->min_ranks > u->max_ranks || u->min_bytes > u->max_bytes)
                NOTE(bad, "%s: rule %d is malformed", d->name, r);
            all_bits |= u->needs;
        }
        for (int c = 0; c < d->nconstraints; c++) {
            const dmpi_coll_constraint_t *u = &d->constraints[c];
            if (u->algo < 0 || u->algo >= names || u->instead < 0 || u->instead >= names || u->needs == 0)
                NOTE(bad, "%s: constraint %d is malformed", d->name, c);
            all_bits |= u->needs;
        }
        /* the parameter exists, with the default "auto" */
        char want[64];
        snprintf(want, sizeof want, "COLL_%s", d->param);
        bool found = false;
        dmpi_param_info_t info;
        for (int j = 0; dmpi_param_describe(j, &info); j++)
            if (!strcmp(info.name, want) && !strcmp(info.dflt, "auto") && !strcmp(d->value, "auto"))
                found = true;
        if (!found)
            NOTE(bad, "%s: no parameter DMPI_%s defaulting to auto", d->name, want);
    }
    CHECK(n == 10, "%d decision tables, expected 10", n);
    for (unsigned bit = 1; bit; bit <<= 1)
        if ((all_bits & bit) && !dmpi_coll_condition(bit))
            NOTE(bad, "condition %#x has no name", bit);
    CHECK(bad == 0, "%d malformed table entries", bad);
}

/* The case builder: conditions from p, bytes and count. */
static void test_case(void)
{
    dmpi_coll_case_t k = dmpi_coll_case(8, 100, 8, 0);
    CHECK(k.holds == (DMPI_IF_POF2 | DMPI_IF_COUNT_POF2 | DMPI_IF_FITS_INT | DMPI_IF_BLOCKS_FIT), "p=8: %#x",
          k.holds);
    k = dmpi_coll_case(12, (size_t)INT_MAX / 12 + 1, 7, C);
    CHECK(k.holds == (DMPI_IF_NOT_POF2 | DMPI_IF_FITS_INT | C), "p=12: %#x", k.holds);
    k = dmpi_coll_case(1, (size_t)INT_MAX + 1, 0, 0);
    CHECK(k.holds == (DMPI_IF_POF2), "p=1, 2 GiB: %#x", k.holds);
}

int main(void)
{
    unit_watchdog(60);
    for (int i = 0; dmpi_coll_decisions[i]; i++) {   /* the defaults, whatever the environment */
        char var[64];
        snprintf(var, sizeof var, "DMPI_COLL_%s", dmpi_coll_decisions[i]->param);
        unsetenv(var);
    }
    if (dmpi_params_load() != 0)
        return 2;
    RUN(test_case);
    RUN(test_documented_points);
    RUN(test_forced);
    RUN(test_constraints_everywhere);
    RUN(test_tables_well_formed);
    return unit_summary("decide");
}
