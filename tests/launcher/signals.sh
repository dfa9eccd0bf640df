#!/bin/bash
# Signals to mpiexec reach the ranks; the status is 128+signal.
. "$(dirname "$0")/lib.sh"

# SIGINT: the ranks see SIGINT themselves (they report it), then go.
cat >"$TMP/trapper.sh" <<'EOS'
trap 'echo "rank $PMI_RANK got INT"; exit 0' INT
: >"$1/ready.$PMI_RANK"
while :; do sleep 0.05; done
EOS
"$MPIEXEC" --timeout 20 -n 2 bash "$TMP/trapper.sh" "$TMP" </dev/null >"$TMP/out" 2>"$TMP/err" &
pid=$!
# until both have set their trap (a job started through ssh needs a while)
for _ in $(seq 200); do
    [ -e "$TMP/ready.0" ] && [ -e "$TMP/ready.1" ] && break
    sleep 0.05
done
kill -INT $pid
wait $pid
RC=$?
expect_rc 130
expect_err "received signal 2"
[ "$(grep -c 'got INT' "$TMP/out")" = 2 ] || fail "ranks did not get SIGINT"
no_leftovers

# SIGHUP, with ranks that ignore it: SIGKILL follows within a second.
"$MPIEXEC" --timeout 20 -n 2 sh -c "trap '' HUP TERM; exec $CLIENT sleep 60" </dev/null >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 0.5
t0=$(now_ms)
kill -HUP $pid
wait $pid
RC=$?
ELAPSED=$(( $(now_ms) - t0 ))
expect_rc 129
expect_faster 1500
no_leftovers
pass "signal forwarding"
