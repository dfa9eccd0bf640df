#!/bin/sh
# Where a rank may not open its peers' MPI_Alloc_mem blocks through /proc
# (while single copy works), messages named by their block come through
# the queue instead, the sender is told to stop naming blocks, and every
# byte still arrives; the refusal is reported under DMPI_VERBOSE.
# usage: map_fallback.sh BUILD_DIR NOMAP_LIB
set -u
build=$1 nomap=$2
out=$(env DMPI_VERBOSE=1 LD_PRELOAD="$nomap" \
          ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
      "$build/bin/mpiexec" -n 3 "$build/tests/mpi/alloc_mem_p2p" 1M 2>&1)
rc=$?
echo "$out" | tail -4
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc"; exit 1; }
echo "$out" | grep -q "No Errors" || { echo "FAIL: alloc_mem_p2p did not pass"; exit 1; }
echo "$out" | grep -q "cannot map block" ||
    { echo "FAIL: the refusal was not reported under DMPI_VERBOSE"; exit 1; }
echo "1 passed, 0 failed"
