#!/bin/bash
# A rank killed by SIGKILL: exit status 137 and a message naming the signal.
. "$(dirname "$0")/lib.sh"

run "$MPIEXEC" -n 3 "$CLIENT" kill 1 </dev/null
expect_rc 137
expect_err "mpiexec: rank 1 (pid [0-9]*[^)]*) was killed by signal 9 (Killed); terminating the job"
[ "$(count_err_lines '^mpiexec:')" = 1 ] || fail "expected exactly one mpiexec line"
expect_faster 1500
no_leftovers

run "$MPIEXEC" -n 2 sh -c 'kill -SEGV $$' </dev/null
expect_rc 139
expect_err "killed by signal 11"
pass "killed rank reported, status 128+signal"
