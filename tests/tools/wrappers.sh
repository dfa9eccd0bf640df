#!/bin/sh
# mpicc/mpicxx: -show, compile only, link only, both in one step, C++, and
# an installed copy (cmake --install) whose wrappers point at the prefix.
# usage: wrappers.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
bin=$build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
check() {   # check "what" command...
    what=$1; shift
    if "$@" >"$tmp/out" 2>&1; then passes=$((passes + 1)); else
        fails=$((fails + 1)); echo "FAIL: $what"; sed 's/^/    /' "$tmp/out"; fi
}
runs_hello() {  # runs_hello EXE: 2 ranks print their greeting and the token line
    "$bin/mpiexec" -n 2 "$1" >"$tmp/run" 2>&1 && grep -q "came back as 1" "$tmp/run" &&
        [ "$(grep -c '^hello from rank' "$tmp/run")" -eq 2 ]
}

check "-show names the compiler, include dir and libmpi" \
    sh -c "'$bin/mpicc' -show x.c | grep -q -- '-I$src/include' && '$bin/mpicc' -show x.c | grep -q -- '-lmpi'"
check "-show with -c has no link flags" sh -c "! '$bin/mpicc' -show -c x.c | grep -q -- '-lmpi'"
check "DMPI_CC picks the compiler" sh -c "DMPI_CC=my-cc '$bin/mpicc' -show x.c | grep -q '^my-cc '"
check "compile only" "$bin/mpicc" -c "$src/examples/hello.c" -o "$tmp/hello.o"
check "link only" "$bin/mpicc" "$tmp/hello.o" -o "$tmp/hello_linked"
check "linked program runs (rpath, no LD_LIBRARY_PATH)" runs_hello "$tmp/hello_linked"
check "compile and link in one step" "$bin/mpicc" -O2 "$src/examples/hello.c" -o "$tmp/hello_one"
check "one-step program runs" runs_hello "$tmp/hello_one"
cat >"$tmp/hello.cpp" <<'CPP'
#include <mpi.h>
#include <iostream>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int token = rank;
    MPI_Sendrecv_replace(&token, 1, MPI_INT, rank ^ 1, 0, rank ^ 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (token != (rank ^ 1)) { std::cerr << "bad token\n"; return 1; }
    std::cout << "c++ rank " << rank << " ok\n";
    MPI_Finalize();
}
CPP
check "mpicxx builds C++" "$bin/mpicxx" -O2 "$tmp/hello.cpp" -o "$tmp/hello_cxx"
check "C++ program runs" sh -c "'$bin/mpiexec' -n 2 '$tmp/hello_cxx' | grep -c 'ok' | grep -q 2"

# Installed copy: the wrapper must find the installed header and library.
check "cmake --install to a prefix" cmake --install "$build" --prefix "$tmp/prefix"
check "installed mpicc points at the prefix" sh -c "'$tmp/prefix/bin/mpicc' -show x.c | grep -q -- '-I$tmp/prefix/include'"
check "installed mpicc builds" "$tmp/prefix/bin/mpicc" "$src/examples/hello.c" -o "$tmp/hello_inst"
check "installed mpiexec runs it" sh -c "'$tmp/prefix/bin/mpiexec' -n 2 '$tmp/hello_inst' | grep -q 'came back as 1'"
check "installed mpirun is mpiexec" test -x "$tmp/prefix/bin/mpirun"
check "installed dmpi_info runs" "$tmp/prefix/bin/dmpi_info"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
