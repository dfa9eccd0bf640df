/* dmpi_info: what this dmpi is and every tunable parameter, with its
 * default, its value in the current environment and what it does. */
#include "core/params.h"
#include "mpi.h"
#include <stdio.h>
#include <string.h>

static void usage(void)
{
    printf("usage: dmpi_info [--params]\n"
           "Prints the dmpi version and its parameters (environment variables DMPI_<NAME>).\n");
}

int main(int argc, char **argv)
{
    int params_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--params"))
            params_only = 1;
        else {
            usage();
            return strcmp(argv[i], "-h") && strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (!params_only) {
        printf("dmpi %s: MPI %d.%d, MPICH ABI (libmpi.so.12)\n", DMPI_VERSION, MPI_VERSION, MPI_SUBVERSION);
        printf("transports: self, shared memory (per-pair rings; cross-memory attach for large messages)\n\n");
    }
    if (dmpi_params_load() != 0)
        return 1;
    printf("%-24s %-8s %-8s %-28s %s\n", "parameter", "default", "current", "range", "meaning");
    dmpi_param_info_t p;
    for (int i = 0; dmpi_param_describe(i, &p); i++) {
        char var[64], range[64];
        snprintf(var, sizeof var, "DMPI_%s", p.name);
        if (p.min)
            snprintf(range, sizeof range, "%s .. %s", p.min, p.max);
        else
            snprintf(range, sizeof range, "-");
        printf("%-24s %-8s %-8s %-28s %s\n", var, p.dflt, p.cur, range, p.doc);
    }
    return 0;
}
