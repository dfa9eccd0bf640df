/* An erroneous program for tests/mpi/coll_errors.sh: the ranks call
 * MPI_Allreduce with different counts (argv[1] on even ranks, argv[2] on
 * odd ones), under MPI_ERRORS_RETURN. The job must end with an error on
 * every rank, naming the collective, not hang. argv[3] "late": rank 1
 * sleeps argv[4] seconds before a matching MPI_Allreduce instead, so that
 * the others' hang report can be read (the job then succeeds); "late-after"
 * does the same after an MPI_Barrier, so that the wait is in the node-level
 * collectives (whose shared area the first collective makes). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int n = atoi(argv[rank % 2 ? 2 : 1]);
    if (argc > 4 && !strcmp(argv[3], "late-after"))
        MPI_Barrier(MPI_COMM_WORLD);
    if (argc > 4 && !strncmp(argv[3], "late", 4) && rank == 1)
        sleep((unsigned)atoi(argv[4]));
    int *in = calloc((size_t)n, sizeof(int)), *out = calloc((size_t)n, sizeof(int));
    int err = MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: MPI_Allreduce returned %d\n", rank, err);
    free(in);
    free(out);
    MPI_Finalize();
    return err == MPI_SUCCESS ? 0 : 1;
}
