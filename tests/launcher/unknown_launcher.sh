#!/bin/bash
# A rank started by a launcher that dmpi cannot talk to (no PMI_FD, but the
# environment of srun without --mpi=pmi2, Open MPI's mpirun, Hydra with
# PMI_PORT) refuses at init with one line naming the launcher and exits
# non-zero, instead of running as one of N singletons. The environments are
# faked; a launcher that says it started one process, and no launcher at
# all, give a singleton as before.
. "$(dirname "$0")/lib.sh"
unset SLURM_PROCID SLURM_NTASKS SLURM_STEP_NUM_TASKS OMPI_COMM_WORLD_SIZE PMIX_RANK PMI_PORT PMI_JOBID \
    MV2_COMM_WORLD_SIZE

# an MPI program of the same build, if there is one (MPIEXEC is BUILD/bin/mpiexec)
PROG=$(dirname "$MPIEXEC")/../tests/mpi/init
[ -x "$PROG" ] || PROG=

# refused NAME WORDS VAR=VALUE...: both the PMI client and MPI_Init refuse,
# with exactly one line on stderr that names the launcher (WORDS) and says
# how to start dmpi jobs
refused() {
    local name=$1 words=$2 prog
    shift 2
    for prog in "$CLIENT" ${PROG:+"$PROG"}; do
        if [ "$prog" = "$CLIENT" ]; then
            run env "$@" "$prog" info </dev/null
        else
            run env "$@" "$prog" </dev/null
        fi
        [ "$RC" -ne 0 ] || fail "$name ($(basename "$prog")): exit status 0"
        expect_err "dmpi: started by $words"
        expect_err "start dmpi jobs with 'srun --mpi=pmi2'"
        [ "$(count_err_lines "started by")" -eq 1 ] || fail "$name: not one line"
        if [ "$prog" != "$CLIENT" ]; then
            [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$name: MPI_Init printed more than the one line"
            grep -q "No Errors" "$TMP/out" && fail "$name: the program ran"
        fi
        expect_faster 5000
    done
}

# singleton NAME VAR=VALUE...: runs as rank 0 of 1, silently
singleton() {
    local name=$1
    shift
    run env "$@" "$CLIENT" info </dev/null
    expect_rc 0
    expect_out "^rank=0 size=1 .* singleton=1"
    [ -s "$TMP/err" ] && fail "$name: says something on stderr"
    if [ -n "$PROG" ]; then
        run env "$@" "$PROG" </dev/null
        expect_rc 0
        [ -s "$TMP/err" ] && fail "$name: MPI_Init says something on stderr"
    fi
    return 0
}

refused "srun without --mpi" "srun without --mpi=pmi2 (SLURM_PROCID=1 of 4 tasks" \
    SLURM_PROCID=1 SLURM_NTASKS=4 SLURM_STEP_NUM_TASKS=4 SLURM_JOB_ID=7
refused "srun --mpi=pmix" "srun --mpi=pmix" SLURM_PROCID=1 SLURM_NTASKS=2 SLURM_STEP_NUM_TASKS=2 PMIX_RANK=1
refused "Open MPI" "a PMIx launcher such as Open MPI's mpirun" OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=2 \
    PMIX_RANK=2
refused "Open MPI without PMIx" "Open MPI's mpirun (OMPI_COMM_WORLD_SIZE=2)" OMPI_COMM_WORLD_SIZE=2
refused "Hydra with PMI_PORT" "a PMI launcher that serves PMI over a TCP port (PMI_PORT=h1:4242" \
    PMI_PORT=h1:4242 PMI_ID=1 PMI_RANK=1 PMI_SIZE=2
refused "PMI_SIZE without PMI_FD" "a PMI launcher that gave PMI_SIZE=2 but no PMI_FD" PMI_RANK=1 PMI_SIZE=2

singleton "no launcher"
singleton "srun -n 1" SLURM_PROCID=0 SLURM_NTASKS=1 SLURM_STEP_NUM_TASKS=1 SLURM_JOB_ID=7
singleton "a batch script of a 4-task job" SLURM_PROCID=0 SLURM_NTASKS=4 SLURM_JOB_ID=7
singleton "a step of 1 task in a 4-task job" SLURM_PROCID=0 SLURM_NTASKS=4 SLURM_STEP_NUM_TASKS=1
singleton "mpirun -n 1" OMPI_COMM_WORLD_SIZE=1 OMPI_COMM_WORLD_RANK=0 PMIX_RANK=0
no_leftovers
pass "unknown launchers refused${PROG:+ (PMI client and MPI_Init)}, singletons still run"
