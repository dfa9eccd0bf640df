#!/bin/bash
# --tag-output: every line carries its rank, and lines written in pieces by
# several ranks at once never mix.
. "$(dirname "$0")/lib.sh"

N=4 LINES=300
run "$MPIEXEC" -n $N --tag-output "$CLIENT" pieces $LINES </dev/null
expect_rc 0
total=$(wc -l <"$TMP/out")
[ "$total" = $((N * LINES)) ] || fail "expected $((N * LINES)) lines, got $total"
bad=$(grep -v -E '^\[([0-9]+)\] line from \1 number [0-9]+$' "$TMP/out" | head -3)
[ -z "$bad" ] || fail "mixed or untagged lines: $bad"
for r in 0 1 2 3; do
    got=$(grep -c "^\[$r\] " "$TMP/out")
    [ "$got" = $LINES ] || fail "rank $r: $got lines"
    # each rank's lines in order
    grep "^\[$r\] " "$TMP/out" | sed 's/.* number //' >"$TMP/seq"
    seq 0 $((LINES - 1)) | cmp -s - "$TMP/seq" || fail "rank $r lines out of order"
done

# stderr is tagged too, and a last line without newline still comes out.
run "$MPIEXEC" -n 2 --tag-output sh -c 'echo out; echo err >&2; printf tail' </dev/null
expect_rc 0
[ "$(grep -c '^\[[01]\] out$' "$TMP/out")" = 2 ] || fail "stdout tags"
[ "$(grep -c '^\[[01]\] err$' "$TMP/err")" = 2 ] || fail "stderr tags"
[ "$(grep -c '^\[[01]\] tail$' "$TMP/out")" = 2 ] || fail "unterminated last line"

# Untagged output passes through byte for byte.
run "$MPIEXEC" -n 1 sh -c 'printf "a\nb"; sleep 0.3; printf "c\n"' </dev/null
printf 'a\nbc\n' | cmp -s - "$TMP/out" || fail "untagged output changed"
pass "tagged lines whole and in order"
