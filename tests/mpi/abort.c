/*
 * abort: launcher test (run by exit_status.sh, not from the testlist).
 * Rank 1 (rank 0 when alone) calls MPI_Abort(MPI_COMM_WORLD, 7) while the
 * other ranks block in MPI_Recv forever.  The launcher must return exit
 * status 7 and kill the blocked ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
    int rank, size, buf;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == (size > 1 ? 1 : 0)) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        MPI_Abort(MPI_COMM_WORLD, 7);
        printf("rank %d: MPI_Abort returned\n", rank);
        return 0;
    }
    MPI_Recv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: received a message nobody sent\n", rank);
    MPI_Finalize();
    return 0;
}
