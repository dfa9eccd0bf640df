#!/bin/sh
# compare_with_mpich.sh INCLUDE_DIR [MPICH_INCLUDE_DIR] [CC]
#
# Compares dmpi's include/mpi.h with an installed MPICH header (Debian's
# libmpich-dev: /usr/include/x86_64-linux-gnu/mpich) in four ways:
#   1. values: dump_constants.c is built against each header and the two
#      outputs (every constant, type size, type and MPI_Status offset listed
#      in constants.def) must be identical;
#   2. coverage: every MPI_ constant name MPICH's header defines is either in
#      constants.def or listed below as deliberately left out;
#   3. no extras: every MPI_ macro our header defines exists in MPICH's;
#   4. prototypes: MPICH's own declaration of each function our header
#      declares is compiled after our header, so any difference in return or
#      parameter types (const included) is a "conflicting types" error; and
#      every MPI_ function has its PMPI_ twin. MPI-4.1's MPI_Remove_error_*
#      are compared with MPICH 4.0's MPIX_Delete_error_*. MPI-IO's functions
#      are MPICH's mpio.h's; its callback types (file error handler, data
#      representation functions) are repeated after ours, which must agree.
# MPI-4.1 names the installed MPICH lacks are taken from mpich42_newer.h
# (MPICH 4.2's declarations and values) in steps 3 and 4.
# Exits 0 with "skipped: MPICH header not installed" when there is no MPICH
# header to compare with.
set -u

here=$(cd "$(dirname "$0")" && pwd)
inc=${1:?usage: compare_with_mpich.sh INCLUDE_DIR [MPICH_INCLUDE_DIR] [CC]}
mpich=${2:-${MPICH_INCLUDE:-/usr/include/x86_64-linux-gnu/mpich}}
cc=${3:-${CC:-cc}}

if [ ! -f "$mpich/mpi.h" ] || [ ! -f "$mpich/mpi_proto.h" ]; then
    echo "skipped: MPICH header not installed (looked in $mpich)"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmpi-abi-compare.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=0
fail=0
ok()  { echo "ok    $1"; pass=$((pass + 1)); }
bad() { echo "FAIL  $1"; fail=$((fail + 1)); }

# ---- 1. values ---------------------------------------------------------------
if ! $cc -std=c11 -Wall -Wextra -Werror -I"$inc" -o "$tmp/dump_dmpi" \
        "$here/dump_constants.c" 2>"$tmp/log"; then
    cat "$tmp/log"
    bad "build dump_constants against dmpi's header"
elif ! $cc -std=c11 -I"$mpich" -o "$tmp/dump_mpich" "$here/dump_constants.c" 2>"$tmp/log"; then
    cat "$tmp/log"
    bad "build dump_constants against MPICH's header"
else
    "$tmp/dump_dmpi" >"$tmp/dmpi.txt"
    "$tmp/dump_mpich" >"$tmp/mpich.txt"
    n=$(wc -l <"$tmp/dmpi.txt")
    if diff -u "$tmp/mpich.txt" "$tmp/dmpi.txt" >"$tmp/diff"; then
        ok "values: all $n entries equal MPICH's"
    else
        sed 's/^/      /' "$tmp/diff"
        bad "values: dmpi (+) differs from MPICH (-)"
    fi
fi

# ---- 2. coverage -------------------------------------------------------------
# MPICH names deliberately not in dmpi's header, and why:
#   MPI_INCLUDED                       include guard, not a constant
#   MPI_FILE_DEFINED MPI_OFFSET_TYPEDEF MPI_AINT_FMT_*_SPEC
#                                      MPICH/ROMIO build internals, not MPI
#   MPI_STATUS MPI_T_                  words inside MPICH's comments
#   MPI_*_NULL_COPY_FN MPI_*_NULL_DELETE_FN MPI_*DUP_FN
#                                      attribute callbacks; added with
#                                      attribute caching (the DUP ones need
#                                      a library function)
#   MPI_T_(VERBOSITY|BIND|SCOPE|PVAR_CLASS)_INVALID
#                                      MPICH's own zero values, not MPI's
left_out='^(MPI_INCLUDED|MPI_FILE_DEFINED|MPI_OFFSET_TYPEDEF|MPI_AINT_FMT_(DEC|HEX)_SPEC|MPI_STATUS|MPI_T_|MPI_F_STATUSES_IGNORE|MPI_F_STATUS_IGNORE|MPI_F08_STATUSES_IGNORE|MPI_F08_STATUS_IGNORE|MPI_([A-Z]+_)?NULL_(COPY|DELETE)_FN|MPI_([A-Z]+_)?DUP_FN|MPI_T_(VERBOSITY|BIND|SCOPE|PVAR_CLASS)_INVALID)$'
cat "$mpich/mpi.h" "$mpich/mpio.h" 2>/dev/null | sed 's,/\*.*\*/,,g' |
    grep -oE '\bMPI_[A-Z][A-Z0-9_]*\b' | sort -u >"$tmp/mpich_names"
grep -oE '\bMPI_[A-Za-z0-9_]+\b' "$here/constants.def" "$here/constants41.def" | sed 's/^[^:]*://' |
    sort -u >"$tmp/our_names"
comm -23 "$tmp/mpich_names" "$tmp/our_names" | grep -vE "$left_out" >"$tmp/missing"
if [ -s "$tmp/missing" ]; then
    sed 's/^/      missing: /' "$tmp/missing"
    bad "coverage: MPICH constants neither in constants.def nor left out on purpose"
else
    ok "coverage: every MPICH constant is checked or deliberately left out"
fi

# ---- 3. no extras ------------------------------------------------------------
# (names MPICH has only from 4.1 on, in constants41.def, mpi41_protos.h and
# mpich42_newer.h, count as MPICH's)
newer="$here/mpich42_newer.h"
cat "$mpich/mpi.h" "$mpich/mpio.h" "$mpich/mpi_proto.h" "$here/constants41.def" "$here/mpi41_protos.h" \
    "$newer" 2>/dev/null |
    grep -oE '\bP?MPI_[A-Za-z0-9_]+\b' | sort -u >"$tmp/mpich_all"
sed -n 's/^#[[:space:]]*define[[:space:]]\{1,\}\(P\{0,1\}MPI_[A-Za-z0-9_]*\).*/\1/p' "$inc/mpi.h" |
    sort -u >"$tmp/our_macros"
comm -23 "$tmp/our_macros" "$tmp/mpich_all" >"$tmp/extra"
if [ -s "$tmp/extra" ]; then
    sed 's/^/      not in MPICH: /' "$tmp/extra"
    bad "no extras: dmpi defines MPI_ macros MPICH does not have"
else
    ok "no extras: every MPI_ macro of dmpi's header exists in MPICH's"
fi

# ---- 4. prototypes -----------------------------------------------------------
sed -n 's/^\(int\|double\)[[:space:]]\{1,\}\(P\{0,1\}MPI_[A-Za-z0-9_]*\)(.*/\2/p' "$inc/mpi.h" |
    sort -u >"$tmp/our_funcs"
grep '^MPI_' "$tmp/our_funcs" | sed 's/^/P/' | sort >"$tmp/want_pmpi"
grep '^PMPI_' "$tmp/our_funcs" | sort >"$tmp/have_pmpi"
if diff "$tmp/want_pmpi" "$tmp/have_pmpi" >"$tmp/diff"; then
    ok "profiling: each of $(wc -l <"$tmp/want_pmpi") MPI_ functions has its PMPI_ twin"
else
    sed 's/^/      /' "$tmp/diff"
    bad "profiling: MPI_ and PMPI_ declarations differ (< missing PMPI_, > PMPI_ only)"
fi

# One MPICH declaration per line, then pick ours out of it. MPI-4.1
# functions MPICH 4.0 lacks are compared with mpi41_protos.h and
# mpich42_newer.h: newer MPICH's declarations of them.
# MPI-IO's functions are in MPICH's mpio.h (ROMIO's), whose nonblocking
# forms name the request type MPIO_Request: MPI_Request there.
grep -v '^#' "$newer" | cat "$mpich/mpi_proto.h" "$mpich/mpio.h" "$here/mpi41_protos.h" - | tr '\n' ' ' |
    tr ';' '\n' >"$tmp/proto_lines"
{
    echo '#include <mpi.h>'
    echo '#define MPICH_API_PUBLIC'
    echo '#define ROMIO_API_PUBLIC'
    echo '#define MPIO_Request MPI_Request'
    echo '#define MPICH_ATTR_POINTER_WITH_TYPE_TAG(buffer_idx, type_idx)'
    grep '^#define' "$newer"     # the same value, or a redefinition error
    # the callback types of MPI-IO, repeated: C11 allows a typedef again only
    # for the same type
    cb='MPI_File_errhandler_f(unction|n)|MPI_Datarep_(conversion_function(_c)?|extent_function)'
    cat "$mpich/mpi.h" "$mpich/mpio.h" | tr '\n' ' ' | tr ';' '\n' |
        grep -oE "typedef[^{}]*($cb)\\b.*" |
        sed 's/$/;/'
} >"$tmp/protos.c"
: >"$tmp/not_in_mpich"
# MPI-4.1 functions that MPICH 4.0 has only as MPIX_ extensions with the same
# parameters: checked against those, under the standard's name.
mpix_name() {
    echo "$1" | sed -E 's/^(P?)MPI_Remove_error_(class|code|string)$/\1MPIX_Delete_error_\2/'
}
while read -r f; do
    line=$(grep -E "(^|[^A-Za-z0-9_])$f[[:space:]]*\(" "$tmp/proto_lines" | head -n 1)
    x=$(mpix_name "$f")
    if [ -z "$line" ] && [ "$x" != "$f" ]; then
        line=$(grep -E "(^|[^A-Za-z0-9_])$x[[:space:]]*\(" "$tmp/proto_lines" | head -n 1 |
               sed -E "s/(^|[^A-Za-z0-9_])$x([[:space:]]*\()/\1$f\2/")
    fi
    if [ -z "$line" ]; then
        echo "$f" >>"$tmp/not_in_mpich"
        continue
    fi
    echo "$line" | sed -E "s/.*(^|[^A-Za-z0-9_])(int|double)([[:space:]]+$f[[:space:]]*\()/\2\3/; s/\$/;/" \
        >>"$tmp/protos.c"
done <"$tmp/our_funcs"
if [ -s "$tmp/not_in_mpich" ]; then
    sed 's/^/      not declared by MPICH: /' "$tmp/not_in_mpich"
    bad "prototypes: dmpi declares functions MPICH does not"
fi
if $cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$inc" "$tmp/protos.c" >"$tmp/log" 2>&1; then
    ok "prototypes: all $(wc -l <"$tmp/our_funcs") declarations agree with MPICH's"
else
    sed 's/^/      /' "$tmp/log"
    bad "prototypes: some declarations differ from MPICH's"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
