#!/bin/bash
# Usage errors, missing programs, help and version.
. "$(dirname "$0")/lib.sh"

run "$MPIEXEC" -n 2 ./no/such/program </dev/null
expect_rc 127
expect_err "mpiexec: cannot execute './no/such/program': No such file or directory"
[ "$(count_err_lines '^mpiexec:')" = 1 ] || fail "expected exactly one mpiexec line"

run "$MPIEXEC" -n 2 dmpi-no-such-command-anywhere </dev/null
expect_rc 127
expect_err "command not found"

printf 'x' >"$TMP/notexec"
run "$MPIEXEC" -n 1 "$TMP/notexec" </dev/null
expect_rc 126
expect_err "Permission denied"

run "$MPIEXEC" --frobnicate -n 2 true </dev/null
expect_rc 2
expect_err "unknown option '--frobnicate'"
expect_err "Usage: mpiexec"

run "$MPIEXEC" -n zero true </dev/null
expect_rc 2
run "$MPIEXEC" -n </dev/null
expect_rc 2
run "$MPIEXEC" -n 2 </dev/null
expect_rc 2
expect_err "no program"
run "$MPIEXEC" --timeout soon true </dev/null
expect_rc 2

run "$MPIEXEC" --help </dev/null
expect_rc 0
expect_out "Usage: mpiexec"
run "$MPIEXEC" -h </dev/null
expect_rc 0
run "$MPIEXEC" --version </dev/null
expect_rc 0
expect_out "dmpi"

# Options after the program belong to the program.
run "$MPIEXEC" -n 1 echo -n --frobnicate </dev/null
expect_rc 0
[ "$(cat "$TMP/out")" = "--frobnicate" ] || fail "program arguments"

# mpirun is the same program.
MPIRUN=$(dirname "$MPIEXEC")/mpirun
if [ -e "$MPIRUN" ]; then
    run "$MPIRUN" -n 2 true </dev/null
    expect_rc 0
fi
pass "usage and exec errors"
