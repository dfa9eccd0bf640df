#!/bin/sh
# Where cross-memory attach is not permitted, the start-up check notices (and
# says so under DMPI_VERBOSE), and large messages take the copy path: every
# byte still arrives. Runs as an unprivileged user (root may read any
# process), with every rank made non-dumpable.
# usage: cma_fallback.sh BUILD_DIR NODUMP_LIB
set -u
build=$1 nodump=$2
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
    echo "skipped: needs root (to switch to an unprivileged user) and setpriv"; exit 0
fi
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
      env DMPI_VERBOSE=1 DMPI_SHM_PATH=cma LD_PRELOAD="$nodump" \
          ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
      "$build/bin/mpiexec" -n 2 "$build/tests/mpi/pingpong" 4M 2>&1)
rc=$?
echo "$out" | tail -4
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc"; exit 1; }
echo "$out" | grep -q "No Errors" || { echo "FAIL: pingpong did not pass"; exit 1; }
echo "$out" | grep -q "cross-memory attach is not permitted" ||
    { echo "FAIL: the fallback was not reported under DMPI_VERBOSE"; exit 1; }
echo "1 passed, 0 failed"
