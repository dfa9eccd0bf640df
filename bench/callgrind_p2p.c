/* Instructions per 8-byte MPI_Send + MPI_Recv, counted by callgrind on
 * rank 0 (bench/callgrind_p2p.sh). Rank 0 sends, sleeps (5 ms) long enough for
 * rank 1's reply to be waiting, then receives: its receive never spins, so
 * the count is the software path alone and repeatable. More ranks than 2 sit
 * meanwhile in MPI_Barrier, or in an MPI_Recv from rank 0, polling as a busy
 * node's ranks do, so the count shows what they cost the pair.
 * argv: iterations [thread level 0..3] [barrier|recv] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int provided, me, n = argc > 1 ? atoi(argv[1]) : 1000;
    int level = argc > 2 ? atoi(argv[2]) : MPI_THREAD_SINGLE;
    int idle_recv = argc > 3 && strcmp(argv[3], "recv") == 0;
    MPI_Init_thread(&argc, &argv, level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (provided < level && me == 0)
        fprintf(stderr, "asked for thread level %d, got %d\n", level, provided);
    char buf[8] = {0};
    for (int i = 0; i < n; i++) {
        if (me == 0) {
            MPI_Send(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
            usleep(5000);
            MPI_Recv(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (me == 1) {
            MPI_Recv(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
    }
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (idle_recv && me == 0) {
        /* Isend and Waitall: outside what callgrind counts */
        MPI_Request reqs[size > 2 ? size - 2 : 1];
        for (int r = 2; r < size; r++)
            MPI_Isend(NULL, 0, MPI_CHAR, r, 1, MPI_COMM_WORLD, &reqs[r - 2]);
        MPI_Waitall(size - 2, reqs, MPI_STATUSES_IGNORE);
    } else if (idle_recv && me >= 2) {
        MPI_Recv(NULL, 0, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
