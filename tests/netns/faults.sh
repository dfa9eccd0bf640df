#!/usr/bin/env bash
# Faults across hosts (ctest netns.faults): on 2 namespace hosts x 2 ranks,
# started by our mpiexec, a job moving messages of up to 1 MiB between all
# ranks (stress) loses, in the middle of its traffic,
#   1. a rank (SIGKILL),
#   2. the proxy of a host (SIGKILL),
#   3. the link between the hosts (ip link set ... down), with
#      DMPI_TCP_TIMEOUT=2;
# each time the job must end with a line naming what was lost, within a
# bound, leaving no process and nothing in /dev/shm on any host.
# usage: faults.sh BUILD_DIR   (skipped where namespaces cannot be made)
set -u
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
export DMPI_MPIEXEC=$build/bin/mpiexec
tmp=$(mktemp -d /tmp/dmpi-faults.XXXXXX)
cp "$build/tests/mpi/stress" "$tmp/stress"     # a private name: pgrep finds only ours
trap '"$here/hosts" down >/dev/null; rm -rf "$tmp"' EXIT
hosts_up 2

fails=0
fail() { echo "FAIL [$case]: $*"; sed 's/^/    /' "$tmp/err" | tail -n 5; fails=$((fails + 1)); }
now_ms() { date +%s%3N; }

# start_job: the job in the background, waits until its 4 ranks run.
start_job() {
    "$here/mpiexec-dmpi" -n 4 "$tmp/stress" 1000000 7 1M >"$tmp/out" 2>"$tmp/err" &
    job=$!
    for _ in $(seq 200); do
        [ "$(pgrep -f "$tmp/stress" | wc -l)" -ge 4 ] && break
        sleep 0.05
    done
    sleep 1                                   # well into its traffic
}

# end_job LIMIT_MS PATTERN: the job ends within LIMIT_MS of the fault, with
# a non-zero status and PATTERN on stderr, leaving nothing behind.
end_job() {
    wait $job
    local st=$? took=$(( $(now_ms) - t0 ))
    [ $st -ne 0 ] || fail "exit status 0"
    grep -q -- "$2" "$tmp/err" || fail "stderr lacks '$2'"
    [ $took -le "$1" ] || fail "took $took ms, limit $1 ms"
    sleep 0.3
    local left
    left=$(pgrep -f "$tmp/stress")
    [ -z "$left" ] || { fail "left running: $left"; pkill -KILL -f "$tmp/stress"; }
    ls /dev/shm | grep -q "^dmpi-dmpi-$job-" && fail "left in /dev/shm: $(ls /dev/shm | grep "^dmpi-dmpi-$job-")"
    echo "$case: ended in $took ms (status $st): $(grep -m1 "$2" "$tmp/err")"
}

case="rank killed"
start_job
victim=$(pgrep -f "$tmp/stress" | tail -n 1)
t0=$(now_ms)
kill -KILL "$victim"
end_job 2000 "mpiexec: rank [0-9] (pid $victim on dmpi-h[12]) was killed by signal 9"

case="proxy killed"
start_job
proxy=$(pgrep -f -- "$DMPI_MPIEXEC --proxy" | tail -n 1)
t0=$(now_ms)
kill -KILL "$proxy"
end_job 2000 "mpiexec: lost host dmpi-h[12] (2 ranks): its proxy was killed by signal 9"

case="link down"
export DMPI_TCP_TIMEOUT=2
start_job
t0=$(now_ms)
ip link set dmpi-v2 down
end_job 8000 "tcp: rank [0-9] lost its connection to rank [0-9] while [a-z]* (no answer within DMPI_TCP_TIMEOUT)"
ip link set dmpi-v2 up

[ $fails -eq 0 ] && echo "3 faults, each ended the job" && exit 0
exit 1
