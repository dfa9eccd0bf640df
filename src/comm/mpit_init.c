/* MPI_T_init_thread: core's start (core/mpit.h), plus, the first time,
 * what the collectives add to it: a counter per algorithm of each decision
 * table (coll_<collective>_<algorithm>, runs chosen by the table or forced
 * by DMPI_COLL_<NAME>), and the check of an algorithm name written to a
 * DMPI_COLL_<NAME> control variable. */
#include "comm/mpit_init.h"
#include "coll/decide.h"
#include "core/mpit.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int check_algorithm(const char *param, const char *value)
{
    if (strncmp(param, "COLL_", 5) != 0)
        return 0;
    for (int i = 0; dmpi_coll_decisions[i]; i++) {
        const dmpi_coll_decision_t *d = dmpi_coll_decisions[i];
        if (!strcmp(param + 5, d->param))
            return !strcmp(value, "auto") || dmpi_coll_forced(value, d->names) >= 0 ? 0 : -1;
    }
    return 0;                          /* COLL_NODE and the like: numbers, checked by their range */
}

static void add_coll_vars(void)
{
    for (int i = 0; i < DMPI_COLL_MAX_DECISIONS && dmpi_coll_decisions[i]; i++) {
        const dmpi_coll_decision_t *d = dmpi_coll_decisions[i];
        if (!d->names[1])
            continue;                  /* one algorithm: nothing is chosen (barrier) */
        for (int a = 0; a < DMPI_COLL_MAX_ALGOS && d->names[a]; a++) {
            char name[64];
            int n = snprintf(name, sizeof name, "coll_%s_%s", d->param, d->names[a]);
            for (int k = 0; k < n && name[k]; k++)
                name[k] = (char)tolower((unsigned char)name[k]);
            dmpi_pvar_source_t s = {.name = name, .category = "collectives",
                                    .desc = "runs of this point-to-point algorithm, chosen by the decision table or "
                                            "forced by DMPI_COLL_<NAME>, also as a step of a two-level collective "
                                            "(the node-level shared-memory collectives are not counted)",
                                    .verbosity = MPI_T_VERBOSITY_TUNER_BASIC, .var_class = MPI_T_PVAR_CLASS_COUNTER,
                                    .value = &dmpi_coll_chosen[i][a]};
            dmpi_mpit_pvar_add(&s);
        }
    }
    dmpi_mpit_set_cvar_check(check_algorithm);
}

int dmpi_tools_init_thread(int required, int *provided)
{
    return dmpi_mpit_init_thread(required, provided, add_coll_vars);
}
