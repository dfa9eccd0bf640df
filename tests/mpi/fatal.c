/*
 * fatal: launcher test (run by exit_status.sh, not from the testlist).
 * Rank 1 (rank 0 when alone) calls MPI_Send to rank 4242, which does not
 * exist, with the default error handler MPI_ERRORS_ARE_FATAL, while the
 * other ranks block in MPI_Recv forever.  The library must print a message
 * naming MPI_Send, the bad argument (4242) and the rank, and the job must
 * end with a non-zero exit status.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
    int rank, size, buf = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == (size > 1 ? 1 : 0)) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        MPI_Send(&buf, 1, MPI_INT, 4242, 0, MPI_COMM_WORLD);
        printf("rank %d: MPI_Send to rank 4242 returned\n", rank);
        MPI_Finalize();
        return 0;
    }
    MPI_Recv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: received a message nobody sent\n", rank);
    MPI_Finalize();
    return 0;
}
