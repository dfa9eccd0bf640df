#!/usr/bin/env bash
# The Slurm test of ctest (netns.slurm): makes 2 hosts of network namespaces
# (tests/netns/hosts), a Slurm cluster on them (tests/netns/slurm), checks
# that dmpi learns its nodes from Slurm's PMI-2 (PMI_process_mapping) and
# that MPI_Abort ends the job, runs a part of the MPI test suite under
# srun --mpi=pmi2 at 2 hosts x 2 ranks, and removes cluster and hosts.
# Skipped (not failed) where namespaces cannot be made or Slurm is missing.
# usage: slurm_test.sh BUILD_DIR
set -u
build=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
for c in srun slurmctld slurmd munged; do
    command -v $c >/dev/null || { echo "skipped: no $c (Debian's slurm-wlm and munge)"; exit 0; }
done
export SLURM_CONF=/tmp/dmpi-slurm/slurm.conf
trap '"$here/slurm" down; "$here/hosts" down' EXIT
hosts_up 2
out=$("$here/slurm" up)
rc=$?
echo "$out"
[ $rc -eq 3 ] && exit 0
[ $rc -eq 0 ] || { echo "FAIL: slurm up: status $rc"; exit 1; }
fails=0
fail() {
    echo "FAIL: $*"
    fails=1
}

echo "== nodes from PMI_process_mapping"
# 3 ranks in blocks of 2: ranks 0,1 on the first host, 2 on the second
out=$(DMPI_VERBOSE=1 timeout 60 "$here/srun-pmi2" -n 3 "$build/tests/mpi/init" 2>&1)
echo "$out" | grep -q "dmpi\[0\]: 3 ranks on 2 nodes" || fail "3 ranks do not find 2 nodes: $out"
echo "$out" | grep -q "^No Errors" || fail "init under srun: $out"
out=$(timeout 60 "$here/srun-pmi2" -n 3 "$build/tests/launcher/launcher_pmi_client" kvs 2 2>&1)
[ "$(echo "$out" | grep -c 'ok 2 rounds of 3')" -eq 3 ] || fail "PMI-2 key space: $out"

echo "== MPI_Abort ends the job"
start=$(date +%s%N)
out=$(timeout 60 "$here/srun-pmi2" -n 4 "$build/tests/mpi/abort" 2>&1)
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
echo "srun exit status $rc after $ms ms"
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "MPI_Abort under srun: exit status $rc: $out"
[ $ms -lt 20000 ] || fail "MPI_Abort under srun took $ms ms"

echo "== part of the suite at 2 hosts x 2 ranks (cluster up, checks done after ${SECONDS} s)"
plain='^(pingpong 4 -- 8M|(ordering|anysource|probe|ssend|comm|intercomm|coll_barrier|coll_bcast|coll_allreduce|coll_alltoallv|coll_node) 4( -- [0-9]+)?)$'
DMPI_NETNS_PPN=2 "$here/run_suite.sh" "$here/srun-pmi2" "$build" "$plain" || fails=1
echo "== ${SECONDS} s in all before slurm down and hosts down"
[ $fails -eq 0 ] && echo "1 passed, 0 failed"
exit $fails
