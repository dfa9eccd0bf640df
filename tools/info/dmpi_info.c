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
    printf("%-22s %-10s %-10s %s\n", "parameter", "default", "current", "meaning");
    const char *name, *dflt, *doc;
    char cur[64];
    for (int i = 0; dmpi_param_describe(i, &name, &dflt, &doc, cur, sizeof cur); i++) {
        char var[64];
        snprintf(var, sizeof var, "DMPI_%s", name);
        printf("%-22s %-10s %-10s %s\n", var, dflt, cur, doc);
    }
    return 0;
}
