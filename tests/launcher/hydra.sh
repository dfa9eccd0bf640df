#!/bin/bash
# Our PMI client under MPICH's Hydra launcher (skipped if it is not installed).
. "$(dirname "$0")/lib.sh"

HYDRA=$(command -v mpiexec.mpich || command -v mpiexec.hydra || true)
if [ -z "$HYDRA" ]; then
    echo "SKIP: no mpiexec.mpich"
    exit 77
fi
run "$HYDRA" -n 4 "$CLIENT" kvs 3 </dev/null
expect_rc 0
[ "$(grep -c '^rank [0-3]: ok 3 rounds of 4$' "$TMP/out")" = 4 ] || fail "not all ranks ok under Hydra"

run "$HYDRA" -n 2 "$CLIENT" info </dev/null
expect_rc 0
[ "$(grep -c 'size=2 appnum=0' "$TMP/out")" = 2 ] || fail "info under Hydra"

run "$HYDRA" -n 3 "$CLIENT" abort 6 1 </dev/null
[ "$RC" != 0 ] || fail "abort under Hydra exited 0"
expect_faster 15000
no_leftovers
pass "client works under Hydra"
