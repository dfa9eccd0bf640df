#!/usr/bin/env bash
# tests/mpi4py/run.sh: build mpi4py against dmpi and run mpi4py's own test
# suite with dmpi's mpiexec at 1, 2 and 3 processes.  A developer's tool,
# not part of CI (a full run takes tens of minutes).  See README.md here.
#
# usage: tests/mpi4py/run.sh [options] [-- main.py args...]
#
#   -b, --build-dir DIR   dmpi's build folder (bin/mpicc, bin/mpiexec);
#                         default $DMPI_BUILD_DIR or <repo>/build
#   -w, --work-dir DIR    where the sdist, the venv and the logs go;
#                         default $MPI4PY_WORK_DIR or <build-dir>/mpi4py
#   -n, --np "1 2 3"      process counts to run, in order (default "1 2 3")
#   -t, --timeout SECS    mpiexec --timeout for each run (default 900)
#   --rebuild             build mpi4py again even if it looks up to date
#   --clean               remove the unpacked source and venv first
#   --no-numpy            don't install NumPy (the array tests then use
#                         only Python's array module)
#   --build-only          stop after building mpi4py
#   --no-exclude          run also the tests listed in exclude.txt here
#                         (tests that hang with dmpi; left out by default)
#   -h, --help            show this help
#
# Everything after "--" goes to test/main.py, e.g.
#   tests/mpi4py/run.sh -n 2 -- -v test_status
#   tests/mpi4py/run.sh -- -e 'test_(spawn|dynproc)' -x testIsend
# (-v verbose, -k/-x include/exclude test-name substrings, -i/-e include/
# exclude module-name regexes, -f stop at the first failure; see
# "python test/main.py --help" in the unpacked source.)  MPI4PY_TEST_ARGS,
# if set, is split on spaces and put before them.
#
# Logs: <work-dir>/logs/np<N>.log, and np<N>.summary.md (summarize.py: the
# failing and hanging tests with their reasons, the skip reasons);
# <work-dir>/build.log, and missing.txt (the MPI names mpi4py's configure
# step did not find).  Exit status 0 only if every run exited 0.

set -euo pipefail

MPI4PY_VERSION=4.1.2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

build_dir=${DMPI_BUILD_DIR:-$root/build}
work_dir=${MPI4PY_WORK_DIR:-}
nps="1 2 3"
timeout=900
rebuild=no
clean=no
numpy=yes
build_only=no
exclude=yes
extra=()
if [ -n "${MPI4PY_TEST_ARGS:-}" ]; then
    read -r -a extra <<<"$MPI4PY_TEST_ARGS"
fi

usage() { sed -n '2,/^$/{s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        -b | --build-dir) build_dir=$2; shift 2 ;;
        -w | --work-dir) work_dir=$2; shift 2 ;;
        -n | --np) nps=$2; shift 2 ;;
        -t | --timeout) timeout=$2; shift 2 ;;
        --rebuild) rebuild=yes; shift ;;
        --clean) clean=yes; rebuild=yes; shift ;;
        --no-numpy) numpy=no; shift ;;
        --build-only) build_only=yes; shift ;;
        --no-exclude) exclude=no; shift ;;
        -h | --help) usage; exit 0 ;;
        --) shift; extra+=("$@"); break ;;
        *) echo "run.sh: unknown option $1 (main.py args go after --)" >&2; exit 2 ;;
    esac
done

build_dir=$(cd "$build_dir" && pwd)
work_dir=${work_dir:-$build_dir/mpi4py}
mpicc=$build_dir/bin/mpicc
mpiexec=$build_dir/bin/mpiexec
for f in "$mpicc" "$mpiexec"; do
    [ -x "$f" ] || { echo "run.sh: $f not found: build dmpi first" >&2; exit 2; }
done

mkdir -p "$work_dir"
work_dir=$(cd "$work_dir" && pwd)
src=$work_dir/mpi4py-$MPI4PY_VERSION
venv=$work_dir/venv
logs=$work_dir/logs
py=$venv/bin/python
stamp=$work_dir/.built

log() { echo "== run.sh: $*"; }

if [ "$clean" = yes ]; then
    log "removing $src and $venv"
    rm -rf "$src" "$venv" "$stamp"
fi

# 1. The sdist, from PyPI.
tarball=$work_dir/mpi4py-$MPI4PY_VERSION.tar.gz
if [ ! -f "$tarball" ]; then
    log "downloading the mpi4py $MPI4PY_VERSION sdist"
    python3 -m pip download --no-binary :all: --no-deps \
        -d "$work_dir" "mpi4py==$MPI4PY_VERSION"
fi
if [ ! -d "$src" ]; then
    log "unpacking into $src"
    tar -xzf "$tarball" -C "$work_dir"
    rm -f "$stamp"
fi

# 2. A venv with mpi4py built by dmpi's mpicc (Cython and setuptools come
# from PyPI through pip's build isolation).
if [ ! -x "$py" ]; then
    log "creating the venv $venv"
    python3 -m venv "$venv"
    "$py" -m pip install -q --upgrade pip
    rm -f "$stamp"
fi
if [ "$numpy" = yes ] && ! "$py" -c 'import numpy' 2>/dev/null; then
    log "installing numpy"
    "$py" -m pip install -q numpy
fi
if [ "$numpy" = no ] && "$py" -c 'import numpy' 2>/dev/null; then
    log "removing numpy (--no-numpy)"
    "$py" -m pip uninstall -q -y numpy
fi

# Build again when mpi.h or mpicc changed since the last build.
if [ "$rebuild" = no ] && [ -f "$stamp" ] &&
    [ "$(cat "$stamp")" = "$mpicc" ] &&
    [ ! "$root/include/mpi.h" -nt "$stamp" ] && [ ! "$mpicc" -nt "$stamp" ]; then
    log "mpi4py already built against $mpicc (--rebuild to force)"
else
    log "building mpi4py with MPICC=$mpicc (log: $work_dir/build.log)"
    rm -rf "$src/build"
    if ! (cd "$src" && MPICC=$mpicc "$py" -m pip install -v --no-cache-dir \
        --force-reinstall --no-deps . >"$work_dir/build.log" 2>&1); then
        tail -40 "$work_dir/build.log"
        echo "run.sh: building mpi4py failed; see $work_dir/build.log" >&2
        exit 1
    fi
    echo "$mpicc" >"$stamp"
    # mpi4py's configure step lists the MPI names mpi.h/libmpi lack; it
    # builds stubs for them that raise NotImplementedError.
    grep "failed check for" "$work_dir/build.log" |
        sed "s/.*'\(.*\)'.*/\1/" >"$work_dir/missing.txt" || true
    log "$(wc -l <"$work_dir/missing.txt") MPI names missing (list: $work_dir/missing.txt)"
fi
"$py" - <<'EOF'
import mpi4py, mpi4py.MPI as M
print("== run.sh: mpi4py", mpi4py.__version__, "from", mpi4py.__path__[0])
print("== run.sh: MPI library:", M.Get_library_version().strip().splitlines()[0])
print("== run.sh: mpi4py config:", mpi4py.get_config())
EOF
[ "$build_only" = yes ] && exit 0

# 3. The suite: test/main.py from the unpacked source, run against the
# installed package (--no-builddir: never a stray build/ folder).
mkdir -p "$logs"
xargs=(--no-builddir)
if [ "$exclude" = yes ]; then
    # main.py's --xfile takes one substring a line, without comments.
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$here/exclude.txt" >"$work_dir/exclude.txt"
    xargs+=(--xfile "$work_dir/exclude.txt")
    log "leaving out $(paste -sd' ' "$work_dir/exclude.txt") (exclude.txt; --no-exclude runs them)"
fi
status=0
summary=()
for n in $nps; do
    logf=$logs/np$n.log
    log "mpiexec -n $n: test/main.py ${extra[*]:-} (log: $logf)"
    start=$SECONDS
    rc=0
    # -v: one line a test, which summarize.py reads; --tag-output keeps
    # the ranks' lines apart.
    (cd "$src/test" && "$mpiexec" --timeout "$timeout" --tag-output -n "$n" \
        "$py" main.py -v "${xargs[@]}" ${extra[@]+"${extra[@]}"}) >"$logf" 2>&1 || rc=$?
    secs=$((SECONDS - start))
    python3 "$here/summarize.py" "$logf" >"$logs/np$n.summary.md" || true
    # unittest's closing lines, one per rank.
    res=$(sed -n -E 's/^\[[0-9]+\] ((OK|FAILED)( \(.*\))?)$/\1/p' "$logf" | sort | uniq -c |
        sed 's/^ *//' | paste -sd';' - || true)
    [ $rc -eq 124 ] && res="TIMEOUT after ${timeout}s; $res"
    line="np$n: exit $rc in ${secs}s; ${res:-no result line} (ranks: count result)"
    summary+=("$line")
    log "$line"
    log "failing tests and reasons: $logs/np$n.summary.md"
    [ $rc -eq 0 ] || status=1
done

echo
log "summary"
for line in "${summary[@]}"; do echo "   $line"; done
exit $status
