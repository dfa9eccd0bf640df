#!/bin/sh
# A rank that becomes non-dumpable after MPI_Init: single copies to and from
# it fail although the start-up check passed; every large message must still
# arrive (tests/mpi/cma_undumpable.c), on the default path, with split copies
# from 4 KiB, without split copies, and with single copy forced. Runs as an
# unprivileged user (root may read any process).
# usage: cma_undumpable.sh BUILD_DIR
set -u
build=$1
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
    echo "skipped: needs root (to switch to an unprivileged user) and setpriv"; exit 0
fi
fails=0 runs=0
for who in 0 1; do
    for env in "DMPI_SHM_PATH=auto" "DMPI_CMA_SPLIT_MIN=4096" "DMPI_CMA_SPLIT_MIN=0" "DMPI_SHM_PATH=cma"; do
        runs=$((runs + 1))
        out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
              env DMPI_VERBOSE=1 $env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
              "$build/bin/mpiexec" -n 2 --timeout 120 "$build/tests/mpi/cma_undumpable" $who 2>&1)
        rc=$?
        if [ $rc -ne 0 ] || ! echo "$out" | grep -q "No Errors"; then
            echo "FAIL: rank $who non-dumpable, $env: exit status $rc"
            echo "$out" | tail -8 | sed 's/^/    | /'
            fails=$((fails + 1))
        elif ! echo "$out" | grep -q "cross-memory copy with local rank .* failed"; then
            echo "FAIL: rank $who non-dumpable, $env: no single copy failed, so the fallback was not tested"
            fails=$((fails + 1))
        else
            echo "ok: rank $who non-dumpable, $env"
        fi
    done
done
echo "$((runs - fails)) passed, $fails failed"
[ $fails -eq 0 ]
