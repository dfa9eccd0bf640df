/*
 * startup: MPI_Init and MPI_Finalize, nothing between them.
 *
 * `compare` times the whole launcher command around it (start the ranks on
 * every host, wire them up, end them), so what it measures is the time a job
 * of that many ranks takes to start and stop, the program itself adding
 * nothing. Rank 0 prints the job's size, as a sign that all ranks got there:
 *
 *   # table startup_ranks
 *   # what ranks
 *   size N
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        printf("# table startup_ranks\n# what ranks\nsize %d\n", size);
    MPI_Finalize();
    return 0;
}
