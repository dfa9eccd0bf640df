/* Instructions per 8-byte MPI_Send + MPI_Recv, counted by callgrind on
 * rank 0 (bench/callgrind_p2p.sh). Rank 0 sends, sleeps (5 ms) long enough for
 * rank 1's reply to be sitting in the ring, then receives: its receive
 * never spins, so the count is the software path alone and repeatable.
 * argv: iterations [thread level 0..3] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int provided, me, n = argc > 1 ? atoi(argv[1]) : 1000;
    int level = argc > 2 ? atoi(argv[2]) : MPI_THREAD_SINGLE;
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
    MPI_Finalize();
    return 0;
}
