#!/usr/bin/env bash
# The multi-host test of ctest (netns.hydra): makes hosts of network
# namespaces (tests/netns/hosts), runs a part of the MPI test suite across
# them under MPICH's Hydra (point-to-point, communicators and collectives,
# plain runs) at 2 hosts x 2 ranks, then at 3 hosts x 1 rank, and removes
# the hosts. Skipped (not failed) where namespaces cannot be made.
# usage: suite_test.sh BUILD_DIR
set -u
build=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v mpiexec.mpich >/dev/null || { echo "skipped: no mpiexec.mpich (Debian's mpich)"; exit 0; }
plain='^(pingpong|ordering|anysource|probe|cancel|ssend|truncate|dtype_p2p|comm|intercomm|coll_barrier|coll_bcast|coll_allreduce|coll_alltoallv|coll_reduce_scatter|coll_node) [0-9]+$'
trap '"$here/hosts" down' EXIT
out=$("$here/hosts" up 3)
rc=$?
echo "$out"
[ $rc -eq 3 ] && exit 0
[ $rc -eq 0 ] || { echo "FAIL: hosts up: status $rc"; exit 1; }
fails=0
echo "== 2 ranks per host (3 hosts, blocks of 2)"
DMPI_NETNS_PPN=2 "$here/run_suite.sh" "$here/mpiexec-hydra" "$build" "$plain" || fails=1
echo "== 1 rank per host, round robin"
DMPI_NETNS_PPN=1 "$here/run_suite.sh" "$here/mpiexec-hydra" "$build" '^(pingpong|anysource|coll_allreduce|coll_alltoallv|comm) [0-9]+$' || fails=1
[ $fails -eq 0 ] && echo "1 passed, 0 failed"
exit $fails
