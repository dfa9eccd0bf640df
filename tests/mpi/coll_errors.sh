#!/usr/bin/env bash
# coll_errors.sh MPIEXEC BINDIR
#
# Collectives that go wrong, seen from outside (built from
# tests/mpi/coll_mismatch.c into BINDIR):
#   - ranks calling MPI_Allreduce with different counts (10 and 100000, and
#     the reverse, at 2 and 3 ranks): the job ends within 30 s with a
#     non-zero status on every rank, and the output names MPI_Allreduce
#     and the sizes, even under MPI_ERRORS_RETURN (no rank hangs);
#   - a rank that joins MPI_Allreduce 4 s late with DMPI_HANG_TIMEOUT=1: the
#     waiting ranks' hang report names MPI_Allreduce, the communicator, the
#     round and the peer they wait for, and the job then succeeds; and the
#     same after a barrier (in the node-level collectives): the report names
#     the phase, the rank and the flag.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 MPIEXEC BINDIR" >&2
    exit 2
fi
mpiexec=$1
bindir=$(cd "$2" && pwd -P)
prog=$bindir/coll_mismatch
fails=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

fail() {
    echo "FAIL: $*"
    sed 's/^/    | /' "$out" | head -20
    fails=$((fails + 1))
}

for np in 2 3; do
    for counts in "10 100000" "100000 10" "1 2"; do
        start=$(date +%s)
        timeout 60 "$mpiexec" -n $np --timeout 30 "$prog" $counts >"$out" 2>&1
        status=$?
        took=$(($(date +%s) - start))
        if [ $status -eq 0 ] || [ $status -eq 124 ]; then
            fail "np $np counts $counts: status $status after ${took}s, expected an error exit"
        elif [ $took -gt 30 ]; then
            fail "np $np counts $counts: took ${took}s"
        elif ! grep -q "MPI_Allreduce on MPI_COMM_WORLD" "$out" || ! grep -q "different counts" "$out"; then
            fail "np $np counts $counts: the message does not name MPI_Allreduce and the cause"
        elif grep -q "returned 0" "$out"; then
            fail "np $np counts $counts: a rank returned success from the mismatched MPI_Allreduce"
        else
            echo "ok: np $np counts $counts: status $status in ${took}s"
        fi
    done
done

# late MODE WHAT REGEX: rank 1 joins 4 s late (coll_mismatch MODE); rank 0's
# hang report must match REGEX, which names WHAT.
late() {
    local mode=$1 what=$2 regex=$3
    for np in 2 3; do
        DMPI_HANG_TIMEOUT=1 timeout 60 "$mpiexec" -n $np --timeout 30 "$prog" 5 5 "$mode" 4 >"$out" 2>&1
        status=$?
        if [ $status -ne 0 ]; then
            fail "$mode, np $np: status $status"
        elif ! grep -Eq "rank 0 has waited [0-9]+ s for MPI_Allreduce on MPI_COMM_WORLD$regex" "$out"; then
            fail "$mode, np $np: the hang report does not name $what"
        else
            echo "ok: $mode, np $np: $(grep -m1 'rank 0 has waited' "$out" | cut -c1-140)"
        fi
    done
}
late late "the collective, round and peer" ", round [0-9]+ of [0-9]+: a (receive from|send to) rank 1"
# The same wait inside a node-level collective (after a barrier made the
# communicator's shared area): the phase, the rank and the flag.
late late-after "the collective, phase, rank and flag" \
    " \(node-level, phase [0-9]+: rank 1's data flag is at [0-9]+\)"

if [ $fails -ne 0 ]; then
    echo "$fails failed"
    exit 1
fi
echo "No Errors"
