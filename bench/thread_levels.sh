#!/usr/bin/env bash
# 8-byte ping-pong latency and message rate at MPI_THREAD_SINGLE and at
# MPI_THREAD_MULTIPLE (one thread calling MPI), dmpi beside Open MPI and
# MPICH in one run: each round runs every (library, level) once, rounds
# interleaved; medians of the rounds. Ranks pinned to cores 0 and 1.
#   bench/thread_levels.sh [build dir] [rounds]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
rounds=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

declare -A cc=([dmpi]="$build/bin/mpicc" [openmpi]=mpicc.openmpi [mpich]=mpicc.mpich)
run() {   # library level program args...
    local lib=$1 level=$2
    shift 2
    local pin=(taskset -c 0,1)
    case $lib in
    dmpi) BENCH_THREAD_LEVEL=$level "$build/bin/mpiexec" -n 2 "${pin[@]}" "$@" ;;
    openmpi) mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to core -x BENCH_THREAD_LEVEL=$level \
                 -n 2 "$@" ;;
    mpich) mpiexec.mpich -bind-to core -genv BENCH_THREAD_LEVEL $level -n 2 "$@" ;;
    esac
}
libs=()
for lib in dmpi openmpi mpich; do
    if command -v "${cc[$lib]}" >/dev/null 2>&1; then
        "${cc[$lib]}" -O2 -I"$here" "$here/osu_pingpong.c" -o "$tmp/pp.$lib"
        "${cc[$lib]}" -O2 -I"$here" "$here/msgrate.c" -o "$tmp/mr.$lib"
        libs+=("$lib")
    fi
done
for r in $(seq "$rounds"); do
    for level in single multiple; do
        for lib in "${libs[@]}"; do
            lat=$(run "$lib" "$level" "$tmp/pp.$lib" -t lat -s 8 -i 20000 -x 2000 2>/dev/null |
                  awk '$1 == 8 && NF >= 2 {print $2; exit}')
            rate=$(run "$lib" "$level" "$tmp/mr.$lib" -r 3 -i 3000 2>/dev/null | awk '$1 == "window64" {print $2}')
            echo "$lib $level ${lat:-nan} ${rate:-nan}" >>"$tmp/results"
        done
    done
done
python3 - "$tmp/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    lib, level, lat, rate = line.split()
    rows.setdefault((lib, level), []).append((float(lat), float(rate)))
print("| library | thread level | 8 B latency (us, median) | 8 B msg rate, window 64 (M/s, median) | rounds |")
print("|---|---|---:|---:|---:|")
for (lib, level), v in sorted(rows.items(), key=lambda kv: (kv[0][1] != "single", kv[0][0])):
    lat = statistics.median(x[0] for x in v)
    rate = statistics.median(x[1] for x in v)
    print(f"| {lib} | {level} | {lat:.3f} | {rate:.2f} | {len(v)} |")
PY
