#!/bin/bash
# PMI spawn (MPI_Comm_spawn's request): the children are a job of their
# own (size, key space with the parents' preput key, barrier), a spawned
# rank that fails ends the whole run within a second, naming it, with
# nothing left behind, and a program that cannot run is refused with a
# reason instead of starting anything.
. "$(dirname "$0")/lib.sh"

# 3 children with their own key space and barrier (kvs rounds among them)
run "$MPIEXEC" -n 2 "$CLIENT" spawn 3 "$CLIENT" spawned </dev/null
expect_rc 0
expect_out "spawn ok"
for r in 0 1 2; do
    expect_out "child rank=$r size=3 spawned=1 port=none kvsname=.*-s1$"
    expect_out "rank $r: ok 1 rounds of 3"
done

# a spawned rank exiting with status 3 ends everything
run "$MPIEXEC" -n 2 "$CLIENT" spawn 2 "$CLIENT" exit 3 1 </dev/null
expect_rc 3
expect_err "mpiexec: rank 1 of spawned job 1 (pid [0-9]*) exited with status 3; terminating the job"
[ "$(count_err_lines '^mpiexec:')" = 1 ] || fail "expected exactly one mpiexec line"
expect_faster 2500
no_leftovers

# a spawned rank killed while the parents sleep
run "$MPIEXEC" -n 1 sh -c "\"$CLIENT\" spawn 1 \"$CLIENT\" kill 0 && sleep 30" </dev/null
expect_rc 137
expect_err "rank 0 of spawned job 1 (pid [0-9]*) was killed by signal 9"
expect_faster 5000
no_leftovers

# a program that does not exist: refused, the run goes on
run "$MPIEXEC" -n 1 "$CLIENT" spawn 2 /nonexistent/dmpi-no-such-program </dev/null
expect_rc 0
expect_out "spawn failed: cannot execute '/nonexistent/dmpi-no-such-program'"
run "$MPIEXEC" -n 1 "$CLIENT" spawn 1 dmpi-no-such-program-in-path </dev/null
expect_rc 0
expect_out "spawn failed: cannot find program 'dmpi-no-such-program-in-path'"

# a singleton (no mpiexec) cannot spawn, and says so at once
run "$CLIENT" spawn 1 "$CLIENT" spawned </dev/null
expect_rc 0
expect_out "spawn failed: no process manager"
expect_faster 2000

# universe size: the processors mpiexec may use (at least the ranks)
run "$MPIEXEC" -n 1 "$CLIENT" info </dev/null
cpus=$(nproc)
[ "$cpus" -gt 1 ] && { expect_out "usize=$cpus "; }
run "$MPIEXEC" -n $((cpus + 1)) "$CLIENT" info </dev/null
expect_out "usize=$((cpus + 1)) "
pass "spawned jobs: own key space, failures end the run, refusals explained"
