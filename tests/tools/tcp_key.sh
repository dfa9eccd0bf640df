#!/bin/sh
# A connection to a rank's TCP port without the job's key is refused, said
# under DMPI_VERBOSE, and the job goes on: while the ranks of a
# wait_for_file job (DMPI_TRANSPORT=tcp) wait in MPI, two strangers connect
# to each rank's port, one sending a hello with a wrong key, one sending
# nothing and closing; then the file lets the job end. It must pass, and
# report both refusals on both ranks.
# usage: tcp_key.sh BUILD_DIR
set -u
build=$1
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 0; }
log=$(mktemp)
go=$(mktemp -u)
trap 'rm -f "$log" "$go"' EXIT
DMPI_TRANSPORT=tcp DMPI_VERBOSE=2 "$build/bin/mpiexec" -n 2 "$build/tests/mpi/wait_for_file" "$go" >"$log" 2>&1 &
job=$!
python3 - "$log" <<'PY'
import re, socket, struct, sys, time
log = sys.argv[1]
addrs = []
for _ in range(3000):                # the ranks print where they listen at start-up
    addrs = re.findall(r"tcp: rank \d+ listens on ([0-9.]+):(\d+)", open(log).read())
    if len(addrs) == 2:
        break
    time.sleep(0.01)
if len(addrs) != 2:
    sys.exit("FAIL: the ranks did not say where they listen")
for host, port in addrs:
    s = socket.create_connection((host, int(port)))
    # the hello's layout with a key of zeros: magic, key, rank 0, size 2
    s.sendall(struct.pack("<Q16siI", 0x31504354494d5044, bytes(16), 0, 2))
    s.settimeout(5)
    try:
        got = s.recv(16)
    except OSError:
        got = b""
    if got:
        sys.exit("FAIL: a hello with a wrong key got an answer")
    s.close()
    s = socket.create_connection((host, int(port)))
    s.close()
for _ in range(3000):                # both ranks have seen both strangers off
    if open(log).read().count("refused a connection") == 4:
        break
    time.sleep(0.01)
PY
py=$?
touch "$go"
wait $job
rc=$?
tail -3 "$log"
[ $py -eq 0 ] || exit 1
[ $rc -eq 0 ] || { echo "FAIL: the job ended with status $rc"; exit 1; }
grep -q "No Errors" "$log" || { echo "FAIL: the job did not pass"; exit 1; }
[ "$(grep -c 'refused a connection: no valid key' "$log")" -eq 2 ] ||
    { echo "FAIL: the wrong keys were not both reported"; exit 1; }
[ "$(grep -c 'refused a connection: closed before its hello' "$log")" -eq 2 ] ||
    { echo "FAIL: the silent connections were not both reported"; exit 1; }
echo "1 passed, 0 failed"
