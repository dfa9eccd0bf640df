#!/bin/bash
# PMI put/get/barrier among 8 ranks, several rounds.
. "$(dirname "$0")/lib.sh"

run "$MPIEXEC" -n 8 "$CLIENT" kvs 5 </dev/null
expect_rc 0
[ "$(grep -c '^rank [0-7]: ok 5 rounds of 8$' "$TMP/out")" = 8 ] || fail "not all ranks ok"
[ ! -s "$TMP/err" ] || fail "unexpected stderr"

run "$MPIEXEC" -n 2 "$CLIENT" badkey </dev/null
expect_rc 0
[ "$(grep -c 'ok' "$TMP/out")" = 2 ] || fail "badkey"

# Exiting 0 without finalize after init is a failure.
run "$MPIEXEC" -n 3 "$CLIENT" nofinalize 1 </dev/null
expect_rc 1
expect_err "rank 1 (pid [0-9]*[^)]*) exited with status 0 without calling MPI_Finalize; terminating the job"
no_leftovers
pass "PMI key space and barrier"
