#!/bin/sh
# check_header.sh INCLUDE_DIR [CC [CXX]]
#
# Compiles (without linking) header_c.c as every strict C standard from C99
# on and header_cxx.cpp as every C++ standard from C++98 on that the
# compilers accept, each with -Wall -Wextra -Werror -pedantic. Any warning
# or error from include/mpi.h fails the check. Standards a compiler does not
# know are skipped. Exit status: 0 if every compile succeeded.
set -u

here=$(cd "$(dirname "$0")" && pwd)
inc=${1:?usage: check_header.sh INCLUDE_DIR [CC [CXX]]}
cc=${2:-${CC:-cc}}
cxx=${3:-${CXX:-c++}}
flags="-O2 -Wall -Wextra -Werror -pedantic"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmpi-abi-header.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=0
fail=0
# compile LANGUAGE COMPILER STD SOURCE
compile() {
    lang=$1 comp=$2 std=$3 src=$4
    # Does the compiler know this standard at all?
    if ! echo 'int dmpi_probe;' | $comp -x "$lang" -std="$std" -fsyntax-only - 2>/dev/null; then
        echo "skip  $comp -std=$std (not supported)"
        return
    fi
    if $comp -x "$lang" -std="$std" $flags -I"$inc" -I"$here" -c "$src" \
            -o "$tmp/out.o" >"$tmp/log" 2>&1; then
        echo "ok    $comp -std=$std $flags $(basename "$src")"
        pass=$((pass + 1))
    else
        echo "FAIL  $comp -std=$std $flags $(basename "$src")"
        sed 's/^/      /' "$tmp/log"
        fail=$((fail + 1))
    fi
}

for std in c99 c11 c17 c2x; do
    compile c "$cc" "$std" "$here/header_c.c"
done
for std in c++98 c++11 c++14 c++17 c++20; do
    compile c++ "$cxx" "$std" "$here/header_cxx.cpp"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
