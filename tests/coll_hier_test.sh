#!/usr/bin/env bash
# The collectives that run in two levels on communicators spanning nodes
# (src/coll/hier.c), checked by their tests on jobs whose ranks our mpiexec
# places on hosts of its own naming (--launcher fork: every host is this
# machine, but a node of its own to the job, talking TCP to the others):
# 3 nodes of 3, 1 and 4 ranks (an odd number of node heads, a node of one),
# and 2 nodes of 2 and 3. Subcommunicators of the tests (odd/even splits)
# interleave the nodes.
# usage: coll_hier_test.sh BUILD_DIR
set -u
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
launcher=$(mktemp)
trap 'rm -f "$launcher"' EXIT
# Only the lines whose jobs reach a node of 3 or more and a second node
# (np >= 4, and >= 5 on a:2,b:3): below that every collective runs flat.
all='coll_barrier|coll_bcast|coll_reduce|coll_allreduce|coll_mixed_order|coll_free_early|comm|comm_idup|persistent'
rooted='coll_barrier|coll_bcast|coll_reduce|coll_allreduce'
fails=0
for run in "a:3,b:1,c:4 ^($all) ([4-9]|[1-9][0-9])( |\$)" "a:2,b:3 ^($rooted) ([5-9]|[1-9][0-9])( |\$)"; do
    read -r hosts tests <<<"$run"
    printf '#!/bin/sh\nexec "%s" --launcher fork --hosts %s -genv DMPI_YIELD always "$@"\n' \
        "$build/bin/mpiexec" "$hosts" >"$launcher"
    chmod +x "$launcher"
    echo "== hosts $hosts"
    bash "$src/tests/netns/run_suite.sh" "$launcher" "$build" "$tests" || fails=$((fails + 1))
done
[ $fails -eq 0 ]
