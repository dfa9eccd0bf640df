#!/usr/bin/env bash
# run_mpi_test.sh MPIEXEC NPROCS PROGRAM [VAR=VALUE ...] [-- args...]
#
# Runs one multi-process test program and passes only if the launcher's
# exit status is 0 AND the output contains a "No Errors" line.  Prints the
# command and, on failure, the reason and the output.
#
# With dmpi's launcher the command is
#     MPIEXEC --timeout T -n NPROCS [-genv VAR VALUE ...] PROGRAM args
# To validate the tests with other MPI implementations the launcher flavour
# is taken from the launcher's name (or from MPITEST_LAUNCHER=dmpi|mpich|
# openmpi):
#     *mpich*, *hydra*        MPICH's Hydra: -genv VAR VALUE, the time limit
#                             through MPIEXEC_TIMEOUT (Hydra 4.0 has no
#                             --timeout option)
#     *openmpi*, *orterun*    Open MPI: -x VAR=VALUE, --timeout,
#                             --allow-run-as-root --oversubscribe
# Environment: MPITEST_TIMEOUT (seconds, default 120) is the launcher's time
# limit; the whole run is also killed 30 s after that in case the launcher
# itself hangs.  MPITEST_VERBOSE=1 prints the output of passing runs too.

set -u

if [ $# -lt 3 ]; then
    echo "usage: $0 MPIEXEC NPROCS PROGRAM [VAR=VALUE ...] [-- args...]" >&2
    exit 2
fi
mpiexec=$1
nprocs=$2
program=$3
shift 3

envs=()
args=()
while [ $# -gt 0 ]; do
    case $1 in
    --)
        shift
        args=("$@")
        break
        ;;
    [A-Za-z_]*=*)
        envs+=("$1")
        shift
        ;;
    *)
        echo "$0: unexpected argument '$1' (environment settings are VAR=VALUE, program" \
             "arguments come after --)" >&2
        exit 2
        ;;
    esac
done

timeout=${MPITEST_TIMEOUT:-120}
flavor=${MPITEST_LAUNCHER:-}
if [ -z "$flavor" ]; then
    case $(basename "$mpiexec") in
    *mpich* | *hydra*) flavor=mpich ;;
    *openmpi* | *orterun* | *ompi*) flavor=openmpi ;;
    *) flavor=dmpi ;;
    esac
fi

cmd=()
case $flavor in
dmpi)
    cmd=("$mpiexec" --timeout "$timeout" -n "$nprocs")
    for e in ${envs[@]+"${envs[@]}"}; do
        cmd+=(-genv "${e%%=*}" "${e#*=}")
    done
    ;;
mpich)
    cmd=(env "MPIEXEC_TIMEOUT=$timeout" "$mpiexec" -n "$nprocs")
    for e in ${envs[@]+"${envs[@]}"}; do
        cmd+=(-genv "${e%%=*}" "${e#*=}")
    done
    ;;
openmpi)
    cmd=("$mpiexec" --allow-run-as-root --oversubscribe --timeout "$timeout" -n "$nprocs")
    for e in ${envs[@]+"${envs[@]}"}; do
        cmd+=(-x "$e")
    done
    ;;
*)
    echo "$0: unknown launcher flavour '$flavor'" >&2
    exit 2
    ;;
esac
cmd+=("$program" ${args[@]+"${args[@]}"})

echo "run: ${cmd[*]}"
start=$(date +%s.%N)
output=$(timeout -k 5 $((timeout + 30)) "${cmd[@]}" 2>&1 < /dev/null)
status=$?
end=$(date +%s.%N)
elapsed=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')

reason=
if [ $status -ne 0 ]; then
    reason="exit status $status"
    [ $status -eq 124 ] && reason="$reason (killed after $((timeout + 30)) s)"
fi
if ! printf '%s\n' "$output" | grep -q '^ *No Errors *$'; then
    reason="${reason:+$reason, }no \"No Errors\" in the output"
fi

if [ -z "$reason" ]; then
    echo "PASS ($elapsed s)"
    if [ "${MPITEST_VERBOSE:-0}" != 0 ]; then
        printf '%s\n' "$output"
    fi
    exit 0
fi

echo "FAIL ($elapsed s): $reason"
echo "----- output -----"
lines=$(printf '%s\n' "$output" | wc -l)
printf '%s\n' "$output" | head -n 400
if [ "$lines" -gt 400 ]; then
    echo "... ($((lines - 400)) more lines)"
fi
echo "------------------"
exit 1
