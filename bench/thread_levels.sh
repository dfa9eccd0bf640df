#!/usr/bin/env bash
# 8-byte ping-pong latency and message rate at MPI_THREAD_SINGLE and at
# MPI_THREAD_MULTIPLE (one thread calling MPI), dmpi beside Open MPI and
# MPICH in one run: each round runs every (library, level) once, rounds
# interleaved; medians of the rounds. Rank r runs under taskset -c r, for
# every library alike (Open MPI's own binding off).
#   bench/thread_levels.sh [build dir] [rounds]
# DMPI_BEFORE=<another dmpi build dir> adds it as "dmpi-before" (a change
# measured against the code before it, in the same run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
rounds=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

declare -A cc=([dmpi]="$build/bin/mpicc" [openmpi]=mpicc.openmpi [mpich]=mpicc.mpich)
[ -n "${DMPI_BEFORE:-}" ] && cc[dmpi-before]="$DMPI_BEFORE/bin/mpicc"
cat >"$tmp/pin.sh" <<'EOS'
#!/bin/sh
r=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-0}}
exec taskset -c "$r" "$@"
EOS
chmod +x "$tmp/pin.sh"
run() {   # library level program args...
    local lib=$1 level=$2
    shift 2
    case $lib in
    dmpi) BENCH_THREAD_LEVEL=$level "$build/bin/mpiexec" -n 2 "$tmp/pin.sh" "$@" ;;
    dmpi-before) BENCH_THREAD_LEVEL=$level "$DMPI_BEFORE/bin/mpiexec" -n 2 "$tmp/pin.sh" "$@" ;;
    openmpi) mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to none -x BENCH_THREAD_LEVEL=$level \
                 -n 2 "$tmp/pin.sh" "$@" ;;
    mpich) mpiexec.mpich -genv BENCH_THREAD_LEVEL $level -n 2 "$tmp/pin.sh" "$@" ;;
    esac
}
libs=()
for lib in dmpi dmpi-before openmpi mpich; do
    [ -n "${cc[$lib]:-}" ] || continue
    if command -v "${cc[$lib]}" >/dev/null 2>&1; then
        "${cc[$lib]}" -O2 -I"$here" "$here/osu_pingpong.c" -o "$tmp/pp.$lib" 2>/dev/null
        "${cc[$lib]}" -O2 -I"$here" "$here/msgrate.c" -o "$tmp/mr.$lib" 2>/dev/null
        libs+=("$lib")
    fi
done
for r in $(seq "$rounds"); do
    for level in single multiple; do
        for lib in "${libs[@]}"; do
            # a library that cannot give the level fails: nan
            lat=$(run "$lib" "$level" "$tmp/pp.$lib" -t lat -s 8 -i 20000 -x 2000 2>/dev/null |
                  awk '$1 == 8 && NF >= 2 {print $2; exit}' || true)
            rate=$(run "$lib" "$level" "$tmp/mr.$lib" -r 3 -i 3000 2>/dev/null |
                   awk '$1 == "window64" {print $2}' || true)
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
    if lat != lat:
        print(f"| {lib} | {level} | (not provided) | | {len(v)} |")
        continue
    print(f"| {lib} | {level} | {lat:.3f} | {rate:.2f} | {len(v)} |")
PY
