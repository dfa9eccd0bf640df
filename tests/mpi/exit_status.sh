#!/usr/bin/env bash
# exit_status.sh MPIEXEC BINDIR
#
# Launcher behaviour when a job ends badly.  For each program (built from
# tests/mpi/{exit3,sigkill,abort,fatal}.c into BINDIR) and a few process
# counts it checks that
#   - mpiexec returns the expected exit status:
#       exit3    rank 1 calls exit(3)                        -> 3
#       sigkill  rank 1 raises SIGKILL                       -> 137 (128 + 9)
#       abort    rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7)   -> 7
#       fatal    rank 1 MPI_Send to rank 4242 with the default error
#                handler                                     -> non-zero, and
#                the output names MPI_Send, the value 4242 and "rank"
#     (the other ranks are blocked in MPI_Recv meanwhile);
#   - mpiexec returns promptly (within 10 s) and no process of the program
#     is left 2 s later;
#   - /dev/shm holds no dmpi-* entry that was not there before.
# The /dev/shm comparison assumes no other dmpi job runs at the same time
# (CTest runs this test with RUN_SERIAL).
#
# With another MPI's launcher (name containing mpich/hydra/openmpi, or
# MPITEST_LAUNCHER=mpich|openmpi) the exact statuses are dmpi's promises,
# not theirs: any non-zero status is accepted and the difference is
# printed.  (MPICH 4.0's Hydra returns 9 for the SIGKILL case and 6 for the
# fatal error.)

set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 MPIEXEC BINDIR" >&2
    exit 2
fi
mpiexec=$1
bindir=$(cd "$2" && pwd -P)

flavor=${MPITEST_LAUNCHER:-}
if [ -z "$flavor" ]; then
    case $(basename "$mpiexec") in
    *mpich* | *hydra*) flavor=mpich ;;
    *openmpi* | *orterun* | *ompi*) flavor=openmpi ;;
    *) flavor=dmpi ;;
    esac
fi

launch_cmd() { # nprocs program -> cmd array
    case $flavor in
    dmpi) cmd=("$mpiexec" --timeout 60 -n "$1" "$2") ;;
    mpich) cmd=(env MPIEXEC_TIMEOUT=60 "$mpiexec" -n "$1" "$2") ;;
    openmpi) cmd=("$mpiexec" --allow-run-as-root --oversubscribe --timeout 60 -n "$1" "$2") ;;
    *) echo "$0: unknown launcher flavour '$flavor'" >&2; exit 2 ;;
    esac
}

shm_entries() {
    ls -1 /dev/shm 2>/dev/null | grep '^dmpi-' | sort
}

# processes still running the program: same name and same executable
# (zombies, already dead, have no executable link)
leftover() { # program-path
    local name pid
    name=$(basename "$1" | cut -c1-15)
    for pid in $(pgrep -x "$name"); do
        [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$1" ] && echo "$pid"
    done
}

failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

run_case() { # program nprocs expected-status ("nonzero" for any)
    local prog=$1 np=$2 expect=$3
    local path=$bindir/$prog
    if [ ! -x "$path" ]; then
        fail "$prog: $path not found"
        return
    fi
    local before after output status start end elapsed
    before=$(shm_entries)
    start=$(date +%s.%N)
    local cmd
    launch_cmd "$np" "$path"
    output=$(timeout -k 5 90 "${cmd[@]}" 2>&1 < /dev/null)
    status=$?
    end=$(date +%s.%N)
    elapsed=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')
    echo "== $prog, $np processes: exit status $status after $elapsed s"

    local bad=0
    if [ "$expect" = nonzero ]; then
        [ $status -ne 0 ] || { fail "$prog np$np: exit status 0, expected non-zero"; bad=1; }
    elif [ $status -ne "$expect" ]; then
        if [ $flavor != dmpi ] && [ $status -ne 0 ]; then
            echo "   note: $flavor's launcher returns $status, dmpi's must return $expect"
        else
            fail "$prog np$np: exit status $status, expected $expect"
            bad=1
        fi
    fi
    if awk -v t="$elapsed" 'BEGIN { exit !(t > 10) }'; then
        fail "$prog np$np: mpiexec took $elapsed s to return"
        bad=1
    fi

    # no process of the job is left (give it 2 s)
    local left=
    for _ in $(seq 20); do
        left=$(leftover "$path")
        [ -z "$left" ] && break
        sleep 0.1
    done
    if [ -n "$left" ]; then
        fail "$prog np$np: processes left 2 s after mpiexec returned: $(echo $left)"
        ps -o pid,stat,etime,args -p "$(echo $left | tr ' ' ',')" 2>/dev/null
        bad=1
        # clean up after the failed launcher: only this job's processes
        for pid in $left; do kill -9 "$pid" 2>/dev/null; done
    fi

    after=$(shm_entries)
    local new
    new=$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | grep -v '^$')
    if [ -n "$new" ]; then
        fail "$prog np$np: left in /dev/shm: $(echo $new)"
        bad=1
    fi

    if [ "$prog" = fatal ]; then
        local o
        for o in MPI_Send 4242; do
            printf '%s\n' "$output" | grep -q -- "$o" ||
                { fail "fatal np$np: the error message does not mention '$o'"; bad=1; }
        done
        printf '%s\n' "$output" | grep -qi 'rank' ||
            { fail "fatal np$np: the error message does not mention the rank"; bad=1; }
    fi
    if [ $bad -ne 0 ]; then
        echo "----- output -----"
        printf '%s\n' "$output" | head -n 60
        echo "------------------"
    fi
}

for np in 2 4; do
    run_case exit3 $np 3
    run_case sigkill $np 137
    run_case abort $np 7
    run_case fatal $np nonzero
done
run_case exit3 1 3
run_case abort 1 7

if [ $failures -ne 0 ]; then
    echo "exit_status: $failures failures"
    exit 1
fi
echo "exit_status: all passed"
echo "No Errors"
exit 0
