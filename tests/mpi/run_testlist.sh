#!/usr/bin/env bash
# run_testlist.sh [-c MPICC] [-o BUILDDIR] [-f REGEX] [-n] MPIEXEC
#
# Builds the tests/mpi programs with an MPI compiler wrapper and runs the
# lines of tests/mpi/testlist through tests/run_mpi_test.sh, one after the
# other, without CMake: the way to check the tests themselves against
# another MPI implementation, e.g.
#
#     tests/mpi/run_testlist.sh -c mpicc.mpich mpiexec.mpich
#     tests/mpi/run_testlist.sh -c mpicc.openmpi -f 'pingpong|probe' mpirun.openmpi
#
#   -c MPICC     compiler wrapper (default: mpicc)
#   -o BUILDDIR  where the programs go (default: a new temporary directory)
#   -f REGEX     only the tests whose name (as CTest names them, e.g.
#                pingpong_np2_cma) matches the extended regular expression;
#                exit_status runs when it matches too
#   -n           do not build, use the programs already in BUILDDIR
# Prints one line per test and a summary; exits non-zero if any test failed.

set -u
here=$(cd "$(dirname "$0")" && pwd)
runner=$here/../run_mpi_test.sh

mpicc=mpicc
builddir=
filter=
build=1
while getopts c:o:f:n opt; do
    case $opt in
    c) mpicc=$OPTARG ;;
    o) builddir=$OPTARG ;;
    f) filter=$OPTARG ;;
    n) build=0 ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ]; then
    sed -n '2,20p' "$0" >&2
    exit 2
fi
mpiexec=$1
[ -n "$builddir" ] || builddir=$(mktemp -d /tmp/mpitests.XXXXXX)
mkdir -p "$builddir"

if [ $build -eq 1 ]; then
    echo "building into $builddir with $mpicc"
    for src in "$here"/*.c; do
        prog=$(basename "$src" .c)
        [ "$prog" = mtest ] && continue
        if ! $mpicc -O2 -g -std=gnu11 -Wall -Wextra -Wno-stringop-overflow -pthread \
            -I"$here" -o "$builddir/$prog" "$src" "$here/mtest.c"; then
            echo "build of $prog failed" >&2
            exit 1
        fi
    done
fi

pass=0
fail=0
failed=()
while read -r line; do
    line=${line%%#*}
    read -r -a words <<< "$line"
    [ ${#words[@]} -ge 2 ] || continue
    prog=${words[0]}
    np=${words[1]}
    name="${prog}_np${np}"
    in_args=0
    for w in "${words[@]:2}"; do
        if [ $in_args -eq 1 ]; then
            name="${name}_$w"
        elif [ "$w" = -- ]; then
            in_args=1
        else
            name="${name}_${w#*=}"
        fi
    done
    name=$(printf '%s' "$name" | tr -c 'A-Za-z0-9_' '_')
    if [ -n "$filter" ] && ! [[ $name =~ $filter ]]; then
        continue
    fi
    log=$builddir/$name.log
    bash "$runner" "$mpiexec" "$np" "$builddir/$prog" "${words[@]:2}" > "$log" 2>&1
    status=$?
    result=$(grep -E '^(PASS|FAIL)' "$log" | head -n 1)
    printf '%-32s %s\n' "$name" "$result"
    if [ $status -eq 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        failed+=("$name")
    fi
done < "$here/testlist"

if [ -z "$filter" ] || [[ exit_status =~ $filter ]]; then
    log=$builddir/exit_status.log
    if bash "$here/exit_status.sh" "$mpiexec" "$builddir" > "$log" 2>&1; then
        printf '%-32s %s\n' exit_status PASS
        pass=$((pass + 1))
    else
        printf '%-32s %s\n' exit_status FAIL
        fail=$((fail + 1))
        failed+=(exit_status)
    fi
fi

echo "$pass passed, $fail failed (logs in $builddir)"
if [ $fail -ne 0 ]; then
    echo "failed: ${failed[*]}"
    exit 1
fi
exit 0
