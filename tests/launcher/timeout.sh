#!/bin/bash
# --timeout and DMPI_MPIEXEC_TIMEOUT: exit status 124 and a clear message.
. "$(dirname "$0")/lib.sh"

run "$MPIEXEC" --timeout 1 -n 3 "$CLIENT" sleep 30 </dev/null
expect_rc 124
expect_err "^mpiexec: job timed out after 1 second; terminating the job$"
[ "$ELAPSED" -ge 900 ] || fail "stopped too early: $ELAPSED ms"
expect_faster 2500
no_leftovers

DMPI_MPIEXEC_TIMEOUT=0.5 run "$MPIEXEC" -n 2 "$CLIENT" sleep 30 </dev/null
expect_rc 124
expect_err "timed out after 0.5 seconds"
expect_faster 2000
no_leftovers

# A rank that ignores SIGTERM still goes, by SIGKILL.
run "$MPIEXEC" --timeout 0.5 -n 2 sh -c "trap '' TERM; exec $CLIENT sleep 30" </dev/null
expect_rc 124
expect_faster 2500
no_leftovers

# A job that ends in time is unaffected.
DMPI_MPIEXEC_TIMEOUT=20 run "$MPIEXEC" -n 2 "$CLIENT" sleep 0 </dev/null
expect_rc 0
pass "timeout"
