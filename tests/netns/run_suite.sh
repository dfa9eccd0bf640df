#!/usr/bin/env bash
# run_suite.sh LAUNCHER BUILD_DIR [FILTER]
#
# Runs every line of tests/mpi/testlist (or those that match the extended
# regular expression FILTER, e.g. '^(pingpong|ordering) [0-9]+$' for the
# plain runs of two programs) through tests/run_mpi_test.sh with LAUNCHER,
# one at a time, and prints a summary; exit status 1 if any failed. Used to
# run the suite across the namespace hosts (tests/netns/hosts), e.g.
#   tests/netns/hosts up 2
#   tests/netns/run_suite.sh tests/netns/mpiexec-hydra build
set -u
launcher=$1
build=$2
filter=${3:-.}
src=$(cd "$(dirname "$0")/../.." && pwd)
export MTEST_MULTI_HOST=1    # tests that assume one node check what holds on several
pass=0
failed=()
while read -r prog np rest; do
    case $prog in '' | '#'*) continue ;; esac
    line="$prog $np${rest:+ $rest}"
    [[ $line =~ $filter ]] || continue
    # shellcheck disable=SC2086
    if out=$(bash "$src/tests/run_mpi_test.sh" "$launcher" "$np" "$build/tests/mpi/$prog" $rest 2>&1); then
        pass=$((pass + 1))
    else
        failed+=("$prog $np $rest")
        echo "$out" | tail -15
    fi
done <"$src/tests/mpi/testlist"
echo "${pass} passed, ${#failed[@]} failed"
for f in "${failed[@]}"; do echo "FAILED: $f"; done
[ ${#failed[@]} -eq 0 ]
