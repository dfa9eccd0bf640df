#!/bin/sh
# DMPI_* parameters out of range or malformed stop MPI_Init with a message
# naming the variable, the value and the accepted range, and the job fails;
# values at the ends of a range run; dmpi_info lists every numeric range.
# usage: params_env.sh BUILD_DIR
set -u
build=$1
mpiexec=$build/bin/mpiexec prog=$build/tests/mpi/pingpong info=$build/bin/dmpi_info
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }

# refused VAR=VALUE TEXT: the job fails and its output contains TEXT
refused() {
    out=$(env "$1" "$mpiexec" --timeout 60 -n 2 "$prog" 1k 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        no "$1 was accepted (exit status 0)"
    elif ! printf '%s\n' "$out" | grep -qF -- "$2"; then
        no "$1: output lacks \"$2\":"; printf '%s\n' "$out" | sed 's/^/    /'
    elif ! printf '%s\n' "$out" | grep -qF "MPI_Init"; then
        no "$1: MPI_Init did not report the failure:"; printf '%s\n' "$out" | sed 's/^/    /'
    else
        ok
    fi
}
refused DMPI_SPIN_COUNT=-1 "dmpi: DMPI_SPIN_COUNT=-1 is out of range (1 .. 1000000000)"
refused DMPI_SPIN_COUNT=0 "DMPI_SPIN_COUNT=0 is out of range"
refused DMPI_SPIN_COUNT=12abc "DMPI_SPIN_COUNT='12abc' is not valid"
refused DMPI_VERBOSE=3 "DMPI_VERBOSE=3 is out of range (0 .. 2)"
refused DMPI_EAGER_LIMIT=2G "DMPI_EAGER_LIMIT=2G is out of range (0 .. 1G)"
refused DMPI_RING_SIZE=-1 "DMPI_RING_SIZE=-1 is out of range"
refused DMPI_HANG_TIMEOUT=nan "DMPI_HANG_TIMEOUT='nan' is not valid"
refused DMPI_ALLTOALLV_WINDOW=0 "DMPI_ALLTOALLV_WINDOW=0 is out of range"
refused DMPI_YIELD=sometimes "DMPI_YIELD=sometimes: expected auto, always or never"

# the ends of ranges run
for setting in DMPI_SPIN_COUNT=1 DMPI_SPIN_COUNT=1000000000 DMPI_VERBOSE=2 DMPI_EAGER_LIMIT=0 \
               DMPI_RING_SIZE=4097 DMPI_FRAG_SIZE=512M DMPI_HANG_TIMEOUT=0 DMPI_YIELD=always \
               DMPI_YIELD=never; do
    out=$(env "$setting" "$mpiexec" --timeout 60 -n 2 "$prog" 64k 2>&1)
    if [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q "No Errors"; then ok; else
        no "$setting did not run:"; printf '%s\n' "$out" | tail -5 | sed 's/^/    /'; fi
done

# dmpi_info: a range column, refusing the same values
out=$("$info" --params 2>&1)
if printf '%s\n' "$out" | grep '^DMPI_SPIN_COUNT ' | grep -qF "1 .. 1000000000"; then ok; else
    no "dmpi_info does not list SPIN_COUNT's range:"; printf '%s\n' "$out" | sed 's/^/    /'; fi
for v in EAGER_LIMIT CMA_MIN RING_SIZE FRAG_SIZE SPIN_COUNT HANG_TIMEOUT ALLTOALLV_WINDOW VERBOSE; do
    printf '%s\n' "$out" | grep "^DMPI_$v " | grep -q " \.\. " || no "dmpi_info lists no range for DMPI_$v"
done
out=$(DMPI_SPIN_COUNT=-1 "$info" --params 2>&1)
if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -qF "DMPI_SPIN_COUNT=-1 is out of range"; then ok; else
    no "dmpi_info accepted DMPI_SPIN_COUNT=-1"; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
