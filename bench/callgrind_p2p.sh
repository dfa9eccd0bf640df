#!/usr/bin/env bash
# Instructions per 8-byte MPI_Send + MPI_Recv pair on rank 0, counted by
# callgrind inside those two calls only (exact and repeatable, unlike time).
#   bench/callgrind_p2p.sh [build dir] [iterations] [thread level 0..3] [ranks] [barrier|recv]
# With more than 2 ranks, ranks 2.. wait (polling) in MPI_Barrier or in an
# MPI_Recv from rank 0 while ranks 0 and 1 ping-pong: on an oversubscribed
# machine, e.g. 8 ranks on 2 cores, that shows what the node's size costs.
# With MPICC/MPIEXEC set, measures another MPI the same way (e.g.
# MPICC=mpicc.mpich MPIEXEC=mpiexec.mpich).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
n=${2:-1000}
level=${3:-0}
np=${4:-2}
idle=${5:-barrier}
mpicc=${MPICC:-$build/bin/mpicc}
mpiexec=${MPIEXEC:-$build/bin/mpiexec}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mpicc" -O2 "$here/callgrind_p2p.c" -o "$tmp/cg"
extra=()
case "$mpiexec" in *openmpi*|*mpirun*) extra=(--allow-run-as-root --oversubscribe) ;; esac
# Only rank 0 runs under callgrind: rank 1 answers at full speed, so the
# reply is in the ring long before rank 0's receive and that receive never
# spins. The least of three runs guards against a loaded machine.
cat > "$tmp/rank.sh" <<EOS
#!/bin/sh
rank=\${PMI_RANK:-\${OMPI_COMM_WORLD_RANK:-\$PMI_RANK}}
if [ "\$rank" = 0 ]; then
    exec valgrind --tool=callgrind --toggle-collect=PMPI_Send --toggle-collect=PMPI_Recv \\
        --toggle-collect=MPI_Send --toggle-collect=MPI_Recv --callgrind-out-file="$tmp/out.\$\$" "\$@" 2>/dev/null
fi
exec "\$@"
EOS
chmod +x "$tmp/rank.sh"
counts=""
for run in 1 2 3; do
    rm -f "$tmp"/out.*
    "$mpiexec" "${extra[@]}" -n "$np" "$tmp/rank.sh" "$tmp/cg" "$n" "$level" "$idle"
    counts="$counts $(awk '/^summary:/ {print $2}' "$tmp"/out.*)"
done
min=$(for t in $counts; do echo "$t"; done | sort -n | head -1)
awk -v t="$min" -v n="$n" -v np="$np" -v c="$counts" 'BEGIN { printf "%.1f instructions per 8-byte send+receive (rank 0 of %d, %d iterations, least of 3 runs:%s)\n", t / n, np, n, c }'
