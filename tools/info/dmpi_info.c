/* dmpi_info: what this dmpi is, every tunable parameter (its default, its
 * value in the current environment, its group and when it may change: the
 * MPI_T control variables, and what it does), and the decision
 * tables that choose each collective's algorithm. */
#include "core/params.h"
#include "mpi.h"
#include <limits.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "coll/decide.h"

static void usage(void)
{
    printf("usage: dmpi_info [--params | --coll]\n"
           "Prints the dmpi version, its parameters (environment variables DMPI_<NAME>) and the\n"
           "decision tables of the collectives; --params or --coll prints only those.\n");
}

/* 12288 -> "12 KiB", 2049 -> "2049". */
static const char *size_text(size_t n, char *buf, size_t len)
{
    if (n >= 1024 * 1024 && n % (1024 * 1024) == 0)
        snprintf(buf, len, "%zu MiB", n / (1024 * 1024));
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(buf, len, "%zu KiB", n / 1024);
    else
        snprintf(buf, len, "%zu", n);
    return buf;
}

/* A bound: "> 2 KiB" rather than ">= 2049", "< 512 KiB" rather than "<= 524287". */
static bool round_size(size_t n)
{
    return n >= 1024 && n % 1024 == 0;
}

static void range_text(size_t lo, size_t hi, size_t any_lo, size_t any_hi, char *buf, size_t len)
{
    char a[32], b[32];
    const char *ge = ">=", *le = "<=";
    if (lo > any_lo && !round_size(lo) && round_size(lo - 1))
        ge = ">", lo--;
    if (hi < any_hi && !round_size(hi) && round_size(hi + 1))
        le = "<", hi++;
    size_text(lo, a, sizeof a);
    size_text(hi, b, sizeof b);
    if (lo <= any_lo && hi >= any_hi)
        snprintf(buf, len, "any");
    else if (hi >= any_hi)
        snprintf(buf, len, "%s %s", ge, a);
    else if (lo <= any_lo)
        snprintf(buf, len, "%s %s", le, b);
    else
        snprintf(buf, len, "%s .. %s", a, b);
}

/* The conditions of a rule or constraint: "p power of 2, count >= pof2", or "-". */
static void conditions_text(unsigned needs, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (unsigned bit = 1; bit; bit <<= 1)
        if (needs & bit)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", dmpi_coll_condition(bit));
    if (!used)
        snprintf(buf, len, "-");
}

static void print_decisions(void)
{
    printf("collective decision tables: per collective, the first rule that matches chooses, unless\n"
           "DMPI_COLL_<NAME> forces an algorithm; p is the communicator size, bytes as listed below.\n");
    printf("%-23s %-9s %-23s %-32s %s\n", "collective", "ranks", "bytes", "conditions", "algorithm");
    for (int i = 0; dmpi_coll_decisions[i]; i++) {
        const dmpi_coll_decision_t *d = dmpi_coll_decisions[i];
        for (int r = 0; r < d->nrules; r++) {
            const dmpi_coll_rule_t *u = &d->rules[r];
            char ranks[80], bytes[80], cond[160], per_rank[32];
            range_text((size_t)u->min_ranks, (size_t)u->max_ranks, 1, INT_MAX, ranks, sizeof ranks);
            range_text(u->min_bytes, u->max_bytes, 0, SIZE_MAX, bytes, sizeof bytes);
            if (u->min_per_rank) {
                size_t n = strcmp(bytes, "any") ? strlen(bytes) : 0;
                snprintf(bytes + n, sizeof bytes - n, "%s>= %s * p", n ? ", " : "",
                         size_text(u->min_per_rank, per_rank, sizeof per_rank));
            }
            conditions_text(u->needs, cond, sizeof cond);
            printf("%-23s %-9s %-23s %-32s %s\n", d->name, ranks, bytes, cond, d->names[u->algo]);
        }
    }
    printf("\nconstraints, for chosen and forced algorithms alike:\n");
    printf("%-23s %-25s %-27s %s\n", "collective", "algorithm", "runs only if", "else runs");
    for (int i = 0; dmpi_coll_decisions[i]; i++) {
        const dmpi_coll_decision_t *d = dmpi_coll_decisions[i];
        for (int c = 0; c < d->nconstraints; c++) {
            const dmpi_coll_constraint_t *u = &d->constraints[c];
            char cond[160];
            conditions_text(u->needs, cond, sizeof cond);
            printf("%-23s %-25s %-27s %s\n", d->name, d->names[u->algo], cond, d->names[u->instead]);
        }
    }
    printf("\nbytes are, for each collective:\n");
    for (int i = 0; dmpi_coll_decisions[i]; i++)
        if (strcmp(dmpi_coll_decisions[i]->bytes, "-"))
            printf("  %-23s %s\n", dmpi_coll_decisions[i]->name, dmpi_coll_decisions[i]->bytes);
    printf("pof2: the largest power of 2 <= p; steps: this rank's nonempty exchanges; window:\n"
           "DMPI_ALLTOALLV_WINDOW; INT_MAX: what a point-to-point count carries.\n");
    for (int i = 0; dmpi_coll_decisions[i]; i++)
        if (strcmp(dmpi_coll_decisions[i]->value, "auto"))
            printf("forced now: DMPI_COLL_%s=%s\n", dmpi_coll_decisions[i]->param, dmpi_coll_decisions[i]->value);
}

int main(int argc, char **argv)
{
    int params_only = 0, coll_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--params"))
            params_only = 1;
        else if (!strcmp(argv[i], "--coll"))
            coll_only = 1;
        else {
            usage();
            return strcmp(argv[i], "-h") && strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (!params_only && !coll_only) {
        printf("dmpi %s: MPI %d.%d, MPICH ABI (libmpi.so.12)\n", DMPI_VERSION, MPI_VERSION, MPI_SUBVERSION);
        printf("transports: self, shared memory (one inbound queue per rank; cross-memory attach for large messages), TCP (between nodes; DMPI_TRANSPORT=tcp between all ranks)\n\n");
    }
    if (dmpi_params_load() != 0)
        return 1;
    if (coll_only) {
        print_decisions();
        return 0;
    }
    printf("%-24s %-8s %-8s %-28s %-11s %-5s %s\n", "parameter", "default", "current", "range", "group", "set",
           "meaning");
    dmpi_param_info_t p;
    for (int i = 0; dmpi_param_describe(i, &p); i++) {
        char var[64], range[64];
        snprintf(var, sizeof var, "DMPI_%s", p.name);
        if (p.min)
            snprintf(range, sizeof range, "%s .. %s", p.min, p.max);
        else
            snprintf(range, sizeof range, "-");
        static const char *when[] = {[DMPI_PARAM_AT_INIT] = "init", [DMPI_PARAM_LOCAL] = "local",
                                     [DMPI_PARAM_ALL_EQ] = "all"};
        printf("%-24s %-8s %-8s %-28s %-11s %-5s %s\n", var, p.dflt, p.cur, range, p.category, when[p.when], p.doc);
    }
    printf("\nEach parameter is also an MPI_T control variable of that name, in the MPI_T category\n"
           "\"group\" (docs/tools-interface.md). set: init = read once at MPI_Init (MPI_T scope\n"
           "constant: MPI_T_cvar_write says MPI_T_ERR_CVAR_SET_NEVER); local = MPI_T_cvar_write takes\n"
           "effect at its next use in this process (MPI_T_SCOPE_LOCAL); all = likewise, but every\n"
           "process must write the same value at the same point (MPI_T_SCOPE_ALL_EQ).\n");
    if (!params_only) {
        printf("\n");
        print_decisions();
    }
    return 0;
}
