#!/bin/bash
# The library's PMI-2 client (src/pmi/pmi2.c) against fake_pmi2.py, which
# answers as Slurm's mpi/pmi2 plugin does (srun --mpi=pmi2): PMI_JOBID next
# to PMI_FD chooses PMI-2; the key space, job attributes (process mapping,
# universe size), abort, and MPI_Init of a real program on it. The real
# thing runs in the ctest netns.slurm.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }
FAKE=(python3 "$(dirname "$0")/fake_pmi2.py")

run "${FAKE[@]}" 3 "$CLIENT" kvs 3 </dev/null
expect_rc 0
[ "$(grep -c 'ok 3 rounds of 3' "$TMP/out")" -eq 3 ] || fail "kvs: not every rank ok"

run "${FAKE[@]}" 2 "$CLIENT" info </dev/null
expect_rc 0
expect_out "^rank=0 size=2 appnum=0 usize=2 kvsname=4242.0 singleton=0"
expect_out "^rank=1 size=2 appnum=0 usize=2 kvsname=4242.0 singleton=0"

run "${FAKE[@]}" 2 "$CLIENT" badkey </dev/null
expect_rc 0

run "${FAKE[@]}" 3 "$CLIENT" abort 7 1 </dev/null
[ "$RC" -ne 0 ] || fail "abort: exit status 0"
expect_err "fake_pmi2: rank 1 aborts: exit code 7"
expect_faster 10000

# MPI_Init on PMI-2: nodes from the mapping (here 2 "nodes" alternating)
PROG=$(dirname "$MPIEXEC")/../tests/mpi/init
if [ -x "$PROG" ]; then
    FAKE_PMI2_MAPPING="(vector,(0,2,1))" DMPI_VERBOSE=1 run "${FAKE[@]}" 4 "$PROG" </dev/null
    expect_rc 0
    expect_out "No Errors"
    expect_err "4 ranks on 2 nodes"
fi
no_leftovers
pass "PMI-2 client against a fake Slurm step daemon"
