#!/bin/sh
# A program compiled against MPICH's mpi.h (not ours) links with dmpi's
# libmpi and runs correctly under dmpi's mpiexec: the ABI in practice.
# usage: mpich_header_program.sh BUILD_DIR SOURCE_DIR MPICH_INCLUDE_DIR [EXTRA_CFLAGS]
set -u
build=$1 src=$2 mpich=$3 extra=${4:-}
if [ ! -f "$mpich/mpi.h" ]; then echo "skipped: MPICH header not installed"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lib=$build/lib
cc $extra -O2 -pthread -Wno-stringop-overflow -I"$mpich" -I"$src/tests/mpi" "$src/tests/mpi/pingpong.c" "$src/tests/mpi/mtest.c" \
    -L"$lib" -Wl,-rpath,"$lib" -lmpi -o "$tmp/pingpong" || exit 1
cc $extra -O2 -I"$mpich" "$src/examples/hello.c" -L"$lib" -Wl,-rpath,"$lib" -lmpi -o "$tmp/hello" || exit 1
"$build/bin/mpiexec" -n 2 "$tmp/hello" | grep -q "came back as 1" || { echo "FAIL: hello"; exit 1; }
out=$("$build/bin/mpiexec" -n 3 "$tmp/pingpong" 1M 2>&1)
echo "$out" | tail -3
echo "$out" | grep -q "No Errors"
