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
src=$(cd "$here/../launcher" && pwd)
trap '"$here/hosts" down >/dev/null' EXIT
hosts_up 3
export DMPI_TEST_HOSTS="--hostfile /tmp/dmpi-netns/hostfile --launcher-exec /tmp/dmpi-netns/enter"
fails=0
for t in exit_code signal_kill abort tag_output stdin env timeout orphans kvs errors signals shm; do
    if ! bash "$src/$t.sh" "$build/bin/mpiexec" "$build/tests/launcher/launcher_pmi_client"; then
        fails=$((fails + 1))
    fi
done
echo "$fails failed"
[ $fails -eq 0 ]
