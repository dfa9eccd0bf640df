#!/bin/bash
# PMI abort (what MPI_Abort does): the job dies, mpiexec exits with the code.
. "$(dirname "$0")/lib.sh"

run "$MPIEXEC" -n 4 "$CLIENT" abort 7 3 </dev/null
expect_rc 7
expect_err "^mpiexec: rank 3 called MPI_Abort with error code 7$"
[ "$(count_err_lines '^mpiexec:')" = 1 ] || fail "expected exactly one mpiexec line"
expect_err "test abort"
expect_faster 1500
no_leftovers

run "$MPIEXEC" -n 2 "$CLIENT" abort 1 0 </dev/null
expect_rc 1
expect_err "rank 0 called MPI_Abort with error code 1"
pass "abort kills the job with its error code"
