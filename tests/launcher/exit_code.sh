#!/bin/bash
# A rank exiting with status 3 makes mpiexec exit with 3, report that rank
# once, and take the sleeping ranks down within a second.
. "$(dirname "$0")/lib.sh"

run "$MPIEXEC" -n 4 "$CLIENT" exit 3 2 </dev/null
expect_rc 3
expect_err "mpiexec: rank 2 (pid [0-9]*[^)]*) exited with status 3; terminating the job"
[ "$(count_err_lines '^mpiexec:')" = 1 ] || fail "expected exactly one mpiexec line"
expect_faster 1500
no_leftovers

# The same through the mpirun name, and a non-MPI program.
run "$MPIEXEC" -n 2 sh -c 'exit 5' </dev/null
expect_rc 5
expect_err "exited with status 5"

# All ranks exiting 0 is success, and silent.
run "$MPIEXEC" -n 3 true </dev/null
expect_rc 0
[ ! -s "$TMP/err" ] || fail "unexpected stderr"
pass "exit status of the first failing rank; job gone in ${ELAPSED} ms"
