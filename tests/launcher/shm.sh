#!/bin/bash
# Whatever the job leaves in /dev/shm under its name is removed at exit,
# also after a failure.
. "$(dirname "$0")/lib.sh"

[ -d /dev/shm ] || { echo "SKIP: no /dev/shm"; exit 77; }
run "$MPIEXEC" -n 2 "$CLIENT" shm </dev/null
expect_rc 0
[ "$(wc -l <"$TMP/out")" = 2 ] || fail "ranks did not report their files"
while read -r f; do
    case "$f" in /dev/shm/dmpi-dmpi-*) ;; *) fail "unexpected name $f" ;; esac
    [ ! -e "$f" ] || fail "$f left behind"
done <"$TMP/out"

run "$MPIEXEC" -n 2 sh -c "$CLIENT shm; exit 3" </dev/null
expect_rc 3
while read -r f; do
    [ ! -e "$f" ] || fail "$f left behind after a failure"
done <"$TMP/out"
pass "shared memory cleaned"
