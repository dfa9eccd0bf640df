#!/usr/bin/env bash
# The multi-host tests of ctest: makes hosts of network namespaces
# (tests/netns/hosts), runs part of the MPI test suite across them, and
# removes the hosts. Skipped (not failed) where namespaces cannot be made.
#   suite_test.sh BUILD_DIR dmpi    our mpiexec (a proxy per host): point-to-
#                                   point, communicators, collectives, one-sided at
#                                   3 hosts x 2 ranks, then 1 rank per host
#   suite_test.sh BUILD_DIR hydra   MPICH's Hydra: a few programs, 2 per host
set -u
build=$(cd "$1" && pwd)
which=${2:-dmpi}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
case $which in
dmpi)
    launcher=$here/mpiexec-dmpi
    export DMPI_MPIEXEC=$build/bin/mpiexec
    wide='^(pingpong|ordering|anysource|probe|cancel|ssend|truncate|dtype_p2p|comm|intercomm|coll_barrier|coll_bcast|coll_allreduce|coll_alltoallv|coll_reduce_scatter|coll_node|rma_put_get|rma_acc|rma_win|rma_shared) [0-9]+$'
    narrow='^(pingpong|anysource|coll_allreduce|coll_alltoallv) [0-9]+$'
    ;;
hydra)
    command -v mpiexec.mpich >/dev/null || { echo "skipped: no mpiexec.mpich (Debian's mpich)"; exit 0; }
    launcher=$here/mpiexec-hydra
    wide='^(pingpong 2|anysource 3|coll_allreduce 4|coll_node 4)$'
    narrow=
    ;;
*)
    echo "usage: $0 BUILD_DIR dmpi|hydra" >&2
    exit 2
    ;;
esac
trap '"$here/hosts" down' EXIT
hosts_up 3
fails=0
echo "== $which: 2 ranks per host (3 hosts, blocks of 2)"
DMPI_NETNS_PPN=2 "$here/run_suite.sh" "$launcher" "$build" "$wide" || fails=1
if [ -n "$narrow" ]; then
    echo "== $which: 1 rank per host, round robin"
    DMPI_NETNS_PPN=1 "$here/run_suite.sh" "$launcher" "$build" "$narrow" || fails=1
fi
[ $fails -eq 0 ] && echo "1 passed, 0 failed"
exit $fails
