#!/usr/bin/env bash
# The ssh test of ctest (netns.ssh): our mpiexec's default launcher, plain
# ssh, against a real sshd on each of 3 namespace hosts (tests/netns/hosts).
# Everything ssh needs is made in a private directory (host key, client key,
# authorized_keys, sshd_config per host, ssh_config, known_hosts): nothing
# in ~/.ssh or /etc/ssh is read or written. mpiexec takes ssh from PATH,
# so an "ssh" first in PATH runs the real one with our ssh_config, as a
# user with an ssh setup of their own would do. Checks:
#  - ranks on the hosts they were given, with mpiexec's working directory
#    and environment (LD_LIBRARY_PATH too), also for an mpiexec whose path
#    the remote shell must unquote;
#  - MPI programs across the hosts;
#  - the launcher's tests (tests/launcher), each job over ssh;
#  - a host without sshd, and an ssh that dies while its ranks run: the job
#    fails soon, naming the host, and leaves nothing behind;
#  - the link heartbeat (DMPI_MPIEXEC_LINK_TIMEOUT): a quiet job longer than
#    several beats ends normally; a host whose network link goes down while
#    its ranks run (ssh notices nothing) ends the job within the timeout,
#    naming the host, and its proxy and ranks leave by themselves;
#  - at the end no process of the test is left on any host.
# Skipped (not failed) where namespaces cannot be made or sshd is missing.
# usage: ssh_test.sh BUILD_DIR
set -u
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sshd=/usr/sbin/sshd
real_ssh=$(command -v ssh || echo ssh)
for c in "$sshd" ssh-keygen "$real_ssh"; do
    command -v "$c" >/dev/null || { echo "skipped: no $c (Debian's openssh-server, openssh-client)"; exit 0; }
done
nhosts=3
net=10.213.0
tmp=$(mktemp -d /tmp/dmpi-ssh-test.XXXXXX)

# Stops every host's sshd, then anything still in the hosts (only a failed
# check leaves something), then the hosts.
stop_sshd() {
    local f pid
    for f in "$tmp"/sshd.*.pid; do
        [ -e "$f" ] || continue
        pid=$(cat "$f")
        kill "$pid" 2>/dev/null
        rm -f "$f"
    done
}
cleanup() {
    local h pids k
    stop_sshd
    for k in $(seq "$nhosts"); do
        h=dmpi-h$k
        pids=$(ip netns pids "$h" 2>/dev/null)
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
    done
    "$here/hosts" down >/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# The processes in host $1's network namespace, but its sshd.
host_pids() {
    local sshd_pid
    sshd_pid=$(cat "$tmp/sshd.$1.pid" 2>/dev/null)
    ip netns pids "$1" 2>/dev/null | grep -vx "${sshd_pid:-none}"
}

# Waits up to 5 s for every host to be empty but for its sshd; prints what is left.
hosts_idle() {
    local i k left
    for i in $(seq 50); do
        left=""
        for k in $(seq "$nhosts"); do
            left="$left$(host_pids "dmpi-h$k")"
        done
        [ -z "$left" ] && return 0
        sleep 0.1
    done
    for k in $(seq "$nhosts"); do
        left=$(host_pids "dmpi-h$k")
        # shellcheck disable=SC2086
        [ -n "$left" ] && ps -o pid,stat,args -p $(echo $left | tr ' ' ,)
    done
    return 1
}

hosts_up $nhosts
mkdir -p /run/sshd            # sshd's privilege separation directory
chmod 755 /run/sshd

echo "== keys and configuration in $tmp"
ssh-keygen -q -t ed25519 -N '' -C dmpi-host -f "$tmp/host_ed25519" || { echo "FAIL: ssh-keygen"; exit 1; }
ssh-keygen -q -t ed25519 -N '' -C dmpi-client -f "$tmp/client_ed25519" || { echo "FAIL: ssh-keygen"; exit 1; }
cp "$tmp/client_ed25519.pub" "$tmp/authorized_keys"
: >"$tmp/known_hosts"
: >"$tmp/ssh_config"
for k in $(seq "$nhosts"); do
    h=dmpi-h$k
    addr=$net.$((10 + k))
    echo "$h,$addr $(cut -d' ' -f1,2 "$tmp/host_ed25519.pub")" >>"$tmp/known_hosts"
    cat >"$tmp/sshd_config.$h" <<EOF
ListenAddress $addr
HostKey $tmp/host_ed25519
AuthorizedKeysFile $tmp/authorized_keys
PidFile $tmp/sshd.$h.pid
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
PrintMotd no
PrintLastLog no
X11Forwarding no
AllowTcpForwarding no
MaxStartups 100
LogLevel INFO
EOF
    cat >>"$tmp/ssh_config" <<EOF
Host $h
    HostName $addr
    IdentityFile $tmp/client_ed25519
    IdentitiesOnly yes
    UserKnownHostsFile $tmp/known_hosts
    GlobalKnownHostsFile /dev/null
    StrictHostKeyChecking yes
    CheckHostIP no
    UpdateHostKeys no
    BatchMode yes
    ConnectTimeout 10
    ControlMaster no
    ControlPath none
    LogLevel ERROR
EOF
done
mkdir "$tmp/bin"
printf '#!/bin/sh\nexec %s -F %s "$@"\n' "$real_ssh" "$tmp/ssh_config" >"$tmp/bin/ssh"
chmod 755 "$tmp/bin/ssh"
export PATH="$tmp/bin:$PATH"

echo "== one sshd per host"
for k in $(seq "$nhosts"); do
    h=dmpi-h$k
    "$sshd" -t -f "$tmp/sshd_config.$h" || { echo "FAIL: sshd -t: $tmp/sshd_config.$h"; exit 1; }
    /tmp/dmpi-netns/enter "$h" "$sshd" -f "$tmp/sshd_config.$h" -E "$tmp/sshd.$h.log" ||
        { echo "FAIL: sshd on $h"; cat "$tmp/sshd.$h.log"; exit 1; }
done
for k in $(seq "$nhosts"); do
    h=dmpi-h$k
    ok=0
    for i in $(seq 50); do
        if [ "$(ssh "$h" uname -n </dev/null 2>"$tmp/err")" = "$h" ]; then
            ok=1
            break
        fi
        sleep 0.1
    done
    [ $ok -eq 1 ] || { echo "FAIL: ssh $h: $(cat "$tmp/err")"; cat "$tmp/sshd.$h.log"; exit 1; }
done
echo "ssh to $nhosts hosts works"

mpiexec=$build/bin/mpiexec
# as tests/netns/mpiexec-dmpi: the hosts share this machine's cores
yield=(-genv DMPI_YIELD "${DMPI_YIELD:-always}")
hosts4=(--hosts dmpi-h1:2,dmpi-h2:2)

echo "== ranks on their hosts, in mpiexec's directory, with its environment"
mkdir "$tmp/work"
expect=$(printf '%s\n' "0 dmpi-h1 $tmp/work /opt/dmpi-test-lib" "1 dmpi-h1 $tmp/work /opt/dmpi-test-lib" \
    "2 dmpi-h2 $tmp/work /opt/dmpi-test-lib" "3 dmpi-h2 $tmp/work /opt/dmpi-test-lib")
show='echo "$PMI_RANK $(uname -n) $(pwd) $LD_LIBRARY_PATH"'
out=$(cd "$tmp/work" && LD_LIBRARY_PATH=/opt/dmpi-test-lib timeout 60 "$mpiexec" "${hosts4[@]}" -n 4 \
    sh -c "$show" </dev/null 2>"$tmp/err")
rc=$?
[ $rc -eq 0 ] || fail "4 ranks over ssh: exit status $rc: $(cat "$tmp/err")"
[ "$(echo "$out" | sort)" = "$expect" ] || fail "ranks over ssh: expected
$expect
got
$out
$(cat "$tmp/err")"

# mpiexec starts a proxy by its own path, which the remote shell reads
odd="$tmp/dir with 'quotes' \$x"
mkdir -p "$odd"
cp "$mpiexec" "$odd/mpiexec"
out=$(timeout 60 "$odd/mpiexec" "${hosts4[@]}" -n 4 sh -c 'echo "$PMI_RANK $(uname -n)"' </dev/null 2>"$tmp/err")
rc=$?
[ $rc -eq 0 ] && [ "$(echo "$out" | sort | tr '\n' ' ')" = "0 dmpi-h1 1 dmpi-h1 2 dmpi-h2 3 dmpi-h2 " ] ||
    fail "mpiexec in '$odd': exit status $rc: $out $(cat "$tmp/err")"

echo "== MPI programs across 2 hosts"
out=$(DMPI_VERBOSE=1 timeout 120 "$mpiexec" "${hosts4[@]}" "${yield[@]}" -n 4 "$build/tests/mpi/init" 2>&1 </dev/null)
rc=$?
echo "$out" | grep -q "dmpi\[0\]: 4 ranks on 2 nodes" || fail "4 ranks do not find 2 nodes: $out"
[ $rc -eq 0 ] && echo "$out" | grep -q "^No Errors" || fail "init over ssh: exit status $rc: $out"
printf '#!/bin/sh\nexec %s %s %s "$@"\n' "$mpiexec" "${hosts4[*]}" "${yield[*]}" >"$tmp/mpiexec-ssh"
chmod 755 "$tmp/mpiexec-ssh"
plain='^(pingpong 4 -- 8M|ordering 4|coll_allreduce 4|coll_alltoallv 4|comm 4)$'
"$here/run_suite.sh" "$tmp/mpiexec-ssh" "$build" "$plain" || fail "MPI programs over ssh"

echo "== the launcher's tests over ssh, $nhosts hosts (checks so far took ${SECONDS} s)"
export DMPI_TEST_HOSTS="--hostfile /tmp/dmpi-netns/hostfile"
launcher_tests "$mpiexec" "$build" || fail "the launcher's tests over ssh"
unset DMPI_TEST_HOSTS
hosts_idle || fail "processes left on the hosts after the launcher's tests"

# A job with a private copy of the PMI client, so that pgrep finds its
# ranks, and of sleep, for what they start.
cp "$build/tests/launcher/launcher_pmi_client" "$tmp/ranks"
cp /bin/sleep "$tmp/sleeper"
job="$tmp/ranks shm; exec $tmp/sleeper 60"

# No process of a job of ours left here or on a host, nor its /dev/shm
# entries (named after mpiexec's pid $1).
nothing_left() {
    local left
    sleep 0.2
    left=$(pgrep -f "$tmp/(ranks|sleeper|ssh_config)")
    [ -z "$left" ] || { ps -o pid,stat,args -p "$(echo $left | tr ' ' ,)"; fail "$2: processes left: $left"; }
    hosts_idle || fail "$2: processes left on the hosts"
    left=$(ls /dev/shm | grep -e "dmpi-$1-")
    [ -z "$left" ] || fail "$2: left in /dev/shm: $left"
}

echo "== a host without sshd"
kill "$(cat "$tmp/sshd.dmpi-h3.pid")"
rm -f "$tmp/sshd.dmpi-h3.pid"
start=$(date +%s%N)
timeout 60 "$mpiexec" --hostfile /tmp/dmpi-netns/hostfile -n 6 sh -c "$job" </dev/null >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait $pid
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
echo "exit status $rc after $ms ms: $(cat "$tmp/err")"
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "a host without sshd: exit status $rc"
grep -q "^mpiexec: cannot start the proxy on host dmpi-h3: ssh exited with status 255" "$tmp/err" ||
    fail "a host without sshd: no line says why dmpi-h3 failed"
[ $ms -lt 30000 ] || fail "a host without sshd: the job took $ms ms"
nothing_left $pid "a host without sshd"

# lose_host WHAT PIDS MESSAGE: a job of 4 ranks on dmpi-h1 and dmpi-h2;
# once they run, WHAT (the processes PIDS prints) is killed; the job must
# end within 5 s with MESSAGE and leave nothing behind.
lose_host() {
    local what=$1 victims=$2 message=$3 pid rc i t0 ms f
    echo "== $what killed while the ranks run"
    timeout 60 "$mpiexec" "${hosts4[@]}" -n 4 sh -c "$job" </dev/null >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    for i in $(seq 100); do          # up to 10 s for all 4 ranks to have made their files
        [ "$(grep -c '^/dev/shm/' "$tmp/out")" -eq 4 ] && break
        sleep 0.1
    done
    [ "$(grep -c '^/dev/shm/' "$tmp/out")" -eq 4 ] || fail "$what: the ranks did not start: $(cat "$tmp/out" "$tmp/err")"
    t0=$(date +%s%N)
    # shellcheck disable=SC2046
    kill -KILL $($victims) || fail "$what: nothing to kill"
    wait $pid
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    echo "exit status $rc after $ms ms: $(cat "$tmp/err")"
    [ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "$what killed: exit status $rc"
    grep -q "^mpiexec: $message" "$tmp/err" || fail "$what killed: no line 'mpiexec: $message'"
    [ $ms -lt 5000 ] || fail "$what killed: the job took $ms ms to end"
    while read -r f; do
        [ ! -e "$f" ] || fail "$what killed: $f left behind"
    done < <(grep '^/dev/shm/' "$tmp/out")
    nothing_left $pid "$what killed"
}
ssh_to_h2() { pgrep -f "$tmp/ssh_config .*dmpi-h2 "; }
proxy_on_h2() { ip netns pids dmpi-h2 | grep -xF "$(pgrep -f -- "$mpiexec --proxy")"; }
lose_host "ssh to dmpi-h2" ssh_to_h2 "lost host dmpi-h2 (2 ranks): ssh was killed by signal 9 (Killed)"
lose_host "the proxy on dmpi-h2" proxy_on_h2 "lost host dmpi-h2 (2 ranks): ssh exited with status 255"

echo "== a quiet job of 10 s, DMPI_MPIEXEC_LINK_TIMEOUT=2"
out=$(DMPI_MPIEXEC_LINK_TIMEOUT=2 timeout 60 "$mpiexec" "${hosts4[@]}" -n 4 "$tmp/ranks" sleep 10 </dev/null 2>"$tmp/err")
rc=$?
[ $rc -eq 0 ] || fail "a quiet job of 10 s: exit status $rc: $(cat "$tmp/err")"
nothing_left "none" "a quiet job of 10 s"

# The job's processes on dmpi-h2: its proxy, and its ranks with what they run.
job_on_h2() {
    ip netns pids dmpi-h2 | grep -xF "$(pgrep -f -- "$tmp/(ranks|sleeper)|$mpiexec --proxy")"
}
echo "== dmpi-h2 cut off while the ranks run, DMPI_MPIEXEC_LINK_TIMEOUT=3"
DMPI_MPIEXEC_LINK_TIMEOUT=3 timeout 60 "$mpiexec" "${hosts4[@]}" -n 4 sh -c "$job" </dev/null >"$tmp/out" 2>"$tmp/err" &
pid=$!
for i in $(seq 100); do
    [ "$(grep -c '^/dev/shm/' "$tmp/out")" -eq 4 ] && break
    sleep 0.1
done
[ "$(grep -c '^/dev/shm/' "$tmp/out")" -eq 4 ] || fail "link down: the ranks did not start: $(cat "$tmp/out" "$tmp/err")"
t0=$(date +%s%N)
ip link set dmpi-v2 down
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
echo "exit status $rc after $ms ms: $(cat "$tmp/err")"
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "link down: exit status $rc"
grep -q "^mpiexec: lost host dmpi-h2 (2 ranks): no word from its proxy within 3 s (DMPI_MPIEXEC_LINK_TIMEOUT)" \
    "$tmp/err" || fail "link down: no line names dmpi-h2 and the timeout"
[ $ms -ge 2500 ] && [ $ms -lt 8000 ] || fail "link down: the job took $ms ms to end (timeout 3 s)"
for i in $(seq 100); do               # its proxy hears nothing either: it must leave
    [ -z "$(job_on_h2)" ] && break
    sleep 0.1
done
ms=$((($(date +%s%N) - t0) / 1000000))
left=$(job_on_h2)
if [ -n "$left" ]; then
    # shellcheck disable=SC2086
    ps -o pid,stat,args -p $(echo $left | tr ' ' ,)
    fail "link down: the job's processes left on dmpi-h2 ${ms} ms after the cut"
else
    echo "nothing of the job on dmpi-h2 ${ms} ms after the cut"
fi
while read -r f; do
    [ ! -e "$f" ] || fail "link down: $f left behind"
done < <(grep '^/dev/shm/' "$tmp/out")
left=$(ls /dev/shm | grep -e "dmpi-$pid-")
[ -z "$left" ] || fail "link down: left in /dev/shm: $left"
ip link set dmpi-v2 up
# dmpi-h2's sshd still holds the dead session until TCP gets through again
for i in $(seq 300); do
    [ -z "$(host_pids dmpi-h2)" ] && break
    sleep 0.1
done
ssh dmpi-h2 true </dev/null || fail "link down: no ssh to dmpi-h2 after the link came back"

echo "== nothing left on the hosts but sshd"
hosts_idle || fail "processes left on the hosts"
stop_sshd
for i in $(seq 50); do
    left=$(for k in $(seq "$nhosts"); do ip netns pids "dmpi-h$k"; done)
    [ -z "$left" ] && break
    sleep 0.1
done
[ -z "$left" ] || fail "sshd did not stop: $left"

echo "== ${SECONDS} s in all before hosts down"
[ $fails -eq 0 ] && echo "ssh: all checks passed"
exit $((fails != 0))
