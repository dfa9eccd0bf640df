# Helpers shared by the launcher tests. Usage in a test:
#   . "$(dirname "$0")/lib.sh"   (with "$@" = MPIEXEC CLIENT)
# Provides $MPIEXEC, $CLIENT (a private copy under $TMP, so pgrep -f "$TMP"
# finds exactly this test's processes), run, expect_* and no_leftovers.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 MPIEXEC PMI_CLIENT" >&2
    exit 2
fi
MPIEXEC=$1
TMP=$(mktemp -d /tmp/dmpi-launcher-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
CLIENT=$TMP/pmi_client
cp "$2" "$CLIENT"
# DMPI_TEST_HOSTS="OPTIONS": every mpiexec of the test runs with these host
# options too (e.g. "--launcher fork --hosts a:2,b:1"), so that the same
# checks hold for a job across hosts, each rank under its host's proxy.
if [ -n "${DMPI_TEST_HOSTS:-}" ]; then
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$MPIEXEC" "$DMPI_TEST_HOSTS" >"$TMP/mpiexec"
    chmod +x "$TMP/mpiexec"
    MPIEXEC=$TMP/mpiexec
fi
unset PMI_FD PMI_RANK PMI_SIZE DMPI_MPIEXEC_TIMEOUT
TESTNAME=$(basename "$0" .sh)

fail() {
    echo "FAIL [$TESTNAME]: $*" >&2
    if [ -f "$TMP/out" ]; then echo "--- stdout:" >&2; head -c 4000 "$TMP/out" >&2; fi
    if [ -f "$TMP/err" ]; then echo "--- stderr:" >&2; head -c 4000 "$TMP/err" >&2; fi
    exit 1
}

pass() {
    echo "PASS [$TESTNAME]: $*"
}

now_ms() { date +%s%3N; }

# run CMD...: stdout to $TMP/out, stderr to $TMP/err, status in $RC,
# wall time in $ELAPSED (milliseconds). Standard input is /dev/null unless
# the caller redirects run's own.
run() {
    local t0
    t0=$(now_ms)
    "$@" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    ELAPSED=$(( $(now_ms) - t0 ))
}

expect_rc() {
    [ "$RC" = "$1" ] || fail "expected exit status $1, got $RC"
}

expect_err() {
    grep -q -- "$1" "$TMP/err" || fail "stderr lacks '$1'"
}

expect_out() {
    grep -q -- "$1" "$TMP/out" || fail "stdout lacks '$1'"
}

expect_faster() {
    [ "$ELAPSED" -lt "$1" ] || fail "took ${ELAPSED} ms, expected under $1 ms"
}

count_err_lines() {
    grep -c -- "$1" "$TMP/err"
}

# Nothing started from $TMP may still be running. (Zombies do not count:
# Hydra, for one, exits before reaping; init collects them a moment later.)
no_leftovers() {
    local left="" pid st
    for pid in $(pgrep -f "$TMP/" || true); do
        st=$(ps -o stat= -p "$pid" 2>/dev/null || true)
        case "$st" in ""|Z*) ;; *) left="$left $pid" ;; esac
    done
    [ -z "$left" ] || { ps -o pid,pgid,stat,args -p $(echo $left | tr ' ' ,) >&2; fail "leftover processes:$left"; }
}
