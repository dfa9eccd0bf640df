#!/bin/bash
# stdin goes to rank 0 only; the others read /dev/null; EOF reaches rank 0.
. "$(dirname "$0")/lib.sh"

printf 'one\ntwo\n' >"$TMP/in"
run "$MPIEXEC" -n 3 cat <"$TMP/in"
expect_rc 0
cmp -s "$TMP/in" "$TMP/out" || fail "stdin not forwarded exactly once"

# A megabyte of binary data through a pipe, compared byte for byte.
head -c 1048576 /dev/urandom >"$TMP/big"
run "$MPIEXEC" -n 2 cat < <(cat "$TMP/big")
expect_rc 0
cmp -s "$TMP/big" "$TMP/out" || fail "large stdin corrupted"

# Rank 0 sees EOF when our stdin closes, even while we keep running.
run "$MPIEXEC" -n 2 --tag-output sh -c 'n=$(wc -c); echo "got $n"' </dev/null
expect_rc 0
expect_out "^\[0\] got 0$"
expect_out "^\[1\] got 0$"

# Rank 0 not reading stdin at all does not hang the job.
run "$MPIEXEC" -n 2 true < <(yes | head -c 10000000)
expect_rc 0
pass "stdin forwarded to rank 0"
