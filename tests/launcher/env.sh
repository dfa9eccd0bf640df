#!/bin/bash
# -x VAR, -x VAR=VALUE, -genv, -env, and the variables mpiexec sets itself.
. "$(dirname "$0")/lib.sh"

export DMPI_TEST_X=exported
run "$MPIEXEC" -n 2 --tag-output -x DMPI_TEST_X -x DMPI_TEST_Y=why -genv DMPI_TEST_G gee \
    -env DMPI_TEST_E "with space" -x DMPI_TEST_UNSET_NEVER \
    sh -c 'echo "$DMPI_TEST_X|$DMPI_TEST_Y|$DMPI_TEST_G|$DMPI_TEST_E|${DMPI_TEST_UNSET_NEVER-unset}|$PMI_RANK|$PMI_SIZE|$DMPI_LOCAL_RANK|$DMPI_LOCAL_SIZE"' </dev/null
expect_rc 0
expect_out '^\[0\] exported|why|gee|with space|unset|0|2|0|2$'
expect_out '^\[1\] exported|why|gee|with space|unset|1|2|1|2$'

# What the PMI server says matches.
run "$MPIEXEC" -np 3 "$CLIENT" info </dev/null
expect_rc 0
[ "$(grep -c 'size=3 appnum=0 usize=3 kvsname=dmpi-[0-9]*-[0-9a-f]* singleton=0' "$TMP/out")" = 3 ] || fail "info"
[ "$(sed 's/.*kvsname=\([^ ]*\).*/\1/' "$TMP/out" | sort -u | wc -l)" = 1 ] || fail "kvsname differs between ranks"
if [ -z "${DMPI_TEST_HOSTS:-}" ]; then   # (across hosts: hosts.sh checks the placement)
    expect_out "^rank=2 .* local_rank=2 local_size=3$"
fi

# -c and --np=N spellings; the Open MPI flags are accepted and ignored.
run "$MPIEXEC" -c 2 --oversubscribe --allow-run-as-root --bind-to core "$CLIENT" info </dev/null
expect_rc 0
[ "$(wc -l <"$TMP/out")" = 2 ] || fail "-c 2"
run "$MPIEXEC" --np=2 "$CLIENT" info </dev/null
expect_rc 0
[ "$(wc -l <"$TMP/out")" = 2 ] || fail "--np=2"
pass "environment options"
