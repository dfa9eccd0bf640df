#!/bin/bash
# Jobs across hosts: placement from --hosts, --hostfile and -ppn, the node
# layout the ranks are told, the launcher's command line, and the loss of
# a host's proxy. The hosts are names only: every proxy starts on this
# machine (--launcher fork, or a stand-in for ssh through --launcher-exec).
. "$(dirname "$0")/lib.sh"

mapping_of() {   # rank -> "local=R/S mapping=M" lines, sorted by rank
    sed -n 's/^rank=\([0-9]*\) /\1 /p' "$TMP/out" | sort -n
}

# Slots fill in turn, in blocks: a:2,b:1,c:2 with 7 ranks -> a 0-3, b 4, c 5-6.
run "$MPIEXEC" --launcher fork --hosts a:2,b:1,c:2 -n 7 "$CLIENT" mapping </dev/null
expect_rc 0
want='0 local=0/4 mapping=(vector,(0,1,4),(1,1,1),(2,1,2))
1 local=1/4 mapping=(vector,(0,1,4),(1,1,1),(2,1,2))
2 local=2/4 mapping=(vector,(0,1,4),(1,1,1),(2,1,2))
3 local=3/4 mapping=(vector,(0,1,4),(1,1,1),(2,1,2))
4 local=0/1 mapping=(vector,(0,1,4),(1,1,1),(2,1,2))
5 local=0/2 mapping=(vector,(0,1,4),(1,1,1),(2,1,2))
6 local=1/2 mapping=(vector,(0,1,4),(1,1,1),(2,1,2))'
[ "$(mapping_of)" = "$want" ] || fail "placement of 7 ranks on a:2,b:1,c:2: $(mapping_of)"

# Without -n: one rank per slot. A host named twice adds up; -ppn overrides.
run "$MPIEXEC" --launcher fork --hosts a,b:2,a "$CLIENT" mapping </dev/null
expect_rc 0
[ "$(grep -c mapping='(vector,(0,1,2),(1,1,2))' "$TMP/out")" = 4 ] || fail "slots of a,b:2,a"
run "$MPIEXEC" --launcher fork --hosts a:5,b:5 -ppn 1 "$CLIENT" mapping </dev/null
expect_rc 0
[ "$(grep -c 'mapping=(vector,(0,1,1),(1,1,1))' "$TMP/out")" = 2 ] || fail "-ppn 1"

# A host file: comments, blank lines, "host slots=N", "host:N", "host".
cat >"$TMP/hostfile" <<'HF'
# two hosts and a half
h1 slots=2   # first

h2:1
h3
HF
run "$MPIEXEC" --launcher fork --hostfile "$TMP/hostfile" "$CLIENT" mapping </dev/null
expect_rc 0
[ "$(grep -c 'mapping=(vector,(0,1,2),(1,1,1),(2,1,1))' "$TMP/out")" = 4 ] || fail "host file"

# Bad host lists are usage errors, before anything starts.
run "$MPIEXEC" --launcher fork --hosts a:0 true </dev/null
expect_rc 2
expect_err "bad slot count in 'a:0'"
printf 'h1 slots=x\n' >"$TMP/badfile"
run "$MPIEXEC" --launcher fork --hostfile "$TMP/badfile" true </dev/null
expect_rc 2
expect_err "badfile:1: bad 'slots=x'"
run "$MPIEXEC" --hostfile "$TMP/none" true </dev/null
expect_rc 2
expect_err "cannot read the host file"
run "$MPIEXEC" --launcher exec --hosts a true </dev/null
expect_rc 2
expect_err "needs --launcher-exec"

# --launcher-exec: run as PROGRAM HOST COMMAND ARGS..., like ssh.
cat >"$TMP/fake-ssh" <<EOS
#!/bin/sh
echo "\$1" >>"$TMP/hosts-started"
host=\$1
shift
exec sh -c "\$*"
EOS
chmod +x "$TMP/fake-ssh"
run "$MPIEXEC" --launcher-exec "$TMP/fake-ssh" --hosts n1:1,n2:1 --tag-output sh -c 'echo "hi from $PMI_RANK"' </dev/null
expect_rc 0
expect_out '^\[0\] hi from 0$'
expect_out '^\[1\] hi from 1$'
[ "$(sort "$TMP/hosts-started" | tr '\n' ' ')" = "n1 n2 " ] || fail "launcher started: $(cat "$TMP/hosts-started")"

# A launcher that cannot start the proxy: the job fails fast, naming the host.
run "$MPIEXEC" --launcher-exec /bin/false --hosts n1:1,n2:1 "$CLIENT" sleep 30 </dev/null
expect_rc 1
expect_err "cannot start the proxy on host n[12]"
expect_faster 3000
no_leftovers

# A host's proxy killed while its ranks run: the job ends within a second,
# with one line naming the host, and nothing is left on any host.
"$MPIEXEC" --launcher fork --hosts a:2,b:2 "$CLIENT" sleep 60 </dev/null >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 100); do
    [ "$(pgrep -f "$TMP/pmi_client" | wc -l)" -ge 4 ] && break
    sleep 0.05
done
proxy=$(pgrep -P $pid -f -- '--proxy' | tail -n 1)
[ -n "$proxy" ] || fail "no proxy found"
t0=$(now_ms)
kill -KILL "$proxy"
wait $pid
RC=$?
ELAPSED=$(( $(now_ms) - t0 ))
expect_rc 1
expect_err "mpiexec: lost host b (2 ranks): its proxy was killed by signal 9 (Killed); terminating the job"
[ "$(count_err_lines '^mpiexec:')" = 1 ] || fail "expected exactly one mpiexec line"
expect_faster 1500
sleep 0.2
no_leftovers
pass "placement, host files, launchers, a lost host ended in ${ELAPSED} ms"
