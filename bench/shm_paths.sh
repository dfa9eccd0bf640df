#!/bin/sh
# Latency of each shared-memory path of dmpi, forced with DMPI_SHM_PATH, by
# size: the measurements behind the default thresholds (docs/protocols.md).
# Runs the paths interleaved, ROUNDS times, and prints the median per cell.
# usage: bench/shm_paths.sh [BUILD_DIR] [ROUNDS]
set -eu
build=${1:-build}
rounds=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/bin/mpicc" -O2 "$here/osu_pingpong.c" -o "$tmp/pp" 2>/dev/null
sizes=1024,2048,4096,8192,12288,16384,24576,32768,49152,65536,131072,262144,524288,1048576,2097152,4194304,8388608
paths="eager copy cma"
for r in $(seq "$rounds"); do
    for p in $paths; do
        DMPI_SHM_PATH=$p "$build/bin/mpiexec" -n 2 "$tmp/pp" -t lat -s $sizes | grep -v '^#' >"$tmp/$p.$r"
    done
done
printf "%10s" size; for p in $paths; do printf " %10s" "$p(us)"; done; echo
for s in $(echo $sizes | tr , ' '); do
    printf "%10s" "$s"
    for p in $paths; do
        cat "$tmp"/$p.* | awk -v s="$s" '$1 == s {print $2}' | sort -n |
            awk '{v[NR] = $1} END {printf " %10.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
    done
    echo
done
