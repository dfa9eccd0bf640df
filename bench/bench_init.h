/* MPI_Init for the benchmarks: BENCH_THREAD_LEVEL=multiple asks for
 * MPI_THREAD_MULTIPLE (what it costs a program that asks for it but calls
 * MPI from one thread); anything else, MPI_THREAD_SINGLE. */
#ifndef BENCH_INIT_H
#define BENCH_INIT_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void bench_init(int *argc, char ***argv)
{
    const char *level = getenv("BENCH_THREAD_LEVEL");
    int want = level && !strcmp(level, "multiple") ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, got;
    MPI_Init_thread(argc, argv, want, &got);
    if (got < want) {
        fprintf(stderr, "asked for MPI_THREAD_MULTIPLE, got thread level %d\n", got);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

#endif
