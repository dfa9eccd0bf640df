#!/bin/bash
# No process outlives the job: not the ranks, not what they started, not
# even when mpiexec itself is killed.
. "$(dirname "$0")/lib.sh"

cp /bin/sleep "$TMP/sleeper"

# A failing rank while the others (and their children) sleep.
run "$MPIEXEC" -n 3 sh -c "$TMP/sleeper 60 & if [ \$PMI_RANK = 1 ]; then exit 4; fi; wait" </dev/null
expect_rc 4
expect_faster 1500
no_leftovers

# Ranks succeed but leave a background child holding stdout.
run "$MPIEXEC" -n 2 sh -c "$TMP/sleeper 60 & echo started" </dev/null
expect_rc 0
expect_faster 1500
[ "$(grep -c started "$TMP/out")" = 2 ] || fail "output lost"
no_leftovers

# mpiexec gets SIGTERM: forwarded, status 143.
"$MPIEXEC" --timeout 20 -n 3 "$CLIENT" sleep 60 </dev/null >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
RC=$?
expect_rc 143
expect_err "received signal 15"
sleep 0.2
no_leftovers

# mpiexec is SIGKILLed: the ranks die with it (parent-death signal).
"$MPIEXEC" --timeout 20 -n 3 "$CLIENT" sleep 60 </dev/null >"$TMP/out" 2>"$TMP/err" &
pid=$!
# until the 3 ranks run (a job started through ssh needs a while); "^"
# leaves out mpiexec, whose arguments name the client too
for _ in $(seq 200); do
    [ "$(pgrep -f "^$TMP/pmi_client" | wc -l)" -ge 3 ] && break
    sleep 0.05
done
[ "$(pgrep -f "^$TMP/pmi_client" | wc -l)" -ge 3 ] || fail "ranks did not start"
kill -KILL $pid
wait $pid 2>/dev/null
sleep 0.5
no_leftovers
pass "no leftover processes"
