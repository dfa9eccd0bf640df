#!/usr/bin/env bash
# The launcher's tests (tests/launcher) once more, each job spread over 3
# namespace hosts by our mpiexec (a proxy per host through
# /tmp/dmpi-netns/enter): exit codes, kill on failure, stdin to rank 0,
# tagged output, timeouts, signals, no leftovers, /dev/shm cleaned.
# usage: launcher_test.sh BUILD_DIR   (skipped where namespaces cannot be made)
set -u
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
trap '"$here/hosts" down >/dev/null' EXIT
hosts_up 3
export DMPI_TEST_HOSTS="--hostfile /tmp/dmpi-netns/hostfile --launcher-exec /tmp/dmpi-netns/enter"
launcher_tests "$build/bin/mpiexec" "$build"
fails=$?
echo "$fails failed"
[ $fails -eq 0 ]
