#!/usr/bin/env bash
# oversubscribed.sh MPIEXEC BINDIR
#
# Whether the ranks of a node count as oversubscribed (their waits then
# yield the core), seen in the DMPI_VERBOSE=2 line of local rank 0: it is
# the union of the ranks' CPU affinities against the number of ranks, so
#   - 2 ranks bound each to a CPU of its own (taskset) are not,
#   - 2 ranks both bound to CPU 0 are,
#   - more ranks than the machine's CPUs, unbound, are,
#   - as many ranks as CPUs, unbound, are not.
# Built from tests/mpi/init.c into BINDIR.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 MPIEXEC BINDIR" >&2
    exit 2
fi
mpiexec=$1
prog=$(cd "$2" && pwd -P)/init
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fails=0
cpus=$(nproc)

# A wrapper that binds the rank it starts to CPU $1 (or to its rank's CPU
# when $1 is "own").
cat >"$out/bind" <<'EOS'
#!/bin/sh
cpu=$1
shift
[ "$cpu" = own ] && cpu=$PMI_RANK
exec taskset -c "$cpu" "$@"
EOS
chmod +x "$out/bind"

check() { # np expected-word command...
    local np=$1 want=$2
    shift 2
    DMPI_VERBOSE=2 timeout 60 "$mpiexec" -n "$np" "$@" >"$out/log" 2>&1
    local status=$?
    local line
    line=$(grep "node: $np ranks on" "$out/log")
    if [ $status -ne 0 ] || ! grep -q "): $want" <<<"$line"; then
        echo "FAIL: -n $np $*: status $status, expected '$want', got: ${line:-no line}"
        sed 's/^/    | /' "$out/log" | head -10
        fails=$((fails + 1))
    fi
}

if [ "$cpus" -ge 2 ]; then
    check 2 "not oversubscribed" "$out/bind" own "$prog"
fi
check 2 "oversubscribed" "$out/bind" 0 "$prog"
check $((cpus + 1)) "oversubscribed" "$prog"
check "$cpus" "not oversubscribed" "$prog"
[ "$cpus" -ge 2 ] || echo "note: one CPU, the own-CPU case was skipped"
[ $fails -eq 0 ] && echo "oversubscribed: all cases passed"
exit $((fails > 0))
