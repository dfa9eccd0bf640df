#!/bin/sh
# A restrictive umask must not stop the job: the node segment is created
# with mode 0600 and set to it again with fchmod, whatever the umask took
# away. Runs as an unprivileged user (root opens any file) with umask 0377,
# which would leave the segment read-only for its own owner.
# usage: umask.sh BUILD_DIR
set -u
build=$1
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
    echo "skipped: needs root (to switch to an unprivileged user) and setpriv"; exit 0
fi
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups sh -c '
      umask 0377
      exec env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
          "$1/bin/mpiexec" -n 3 --timeout 120 "$1/tests/mpi/pingpong" 64K' sh "$build" 2>&1)
rc=$?
echo "$out" | tail -3
[ $rc -eq 0 ] && echo "$out" | grep -q "No Errors" || { echo "FAIL: exit status $rc under umask 0377"; exit 1; }
echo "1 passed, 0 failed"
