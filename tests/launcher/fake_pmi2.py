#!/usr/bin/env python3
"""A stand-in for Slurm's slurmstepd serving PMI-2 (mpi/pmi2), for the
launcher tests where Slurm is not installed.

    fake_pmi2.py N PROGRAM ARGS...

Starts N copies of PROGRAM, each with a socketpair end in PMI_FD and
PMI_RANK, PMI_SIZE, PMI_JOBID as srun --mpi=pmi2 sets them, and answers
the way Slurm does: the PMI-1 style init line with pmi_version=2, then
6-character length-prefixed "cmd=...;" messages (fullinit, job-getid,
info-getjobattr, kvs-put, kvs-fence, kvs-get, abort, finalize). Puts become
visible at the next fence that all ranks enter. Messages from one rank may
arrive split in pieces. Prints the programs' output through; exits with the
first non-zero exit status of a rank (or 0), and with 3 on a protocol error,
which it reports on stderr. FAKE_PMI2_MAPPING replaces the process mapping
(all ranks on one node)."""
import os
import selectors
import signal
import socket
import subprocess
import sys

JOBID = "4242.0"


def main():
    n = int(sys.argv[1])
    argv = sys.argv[2:]
    # all on one node, as Slurm writes it, unless FAKE_PMI2_MAPPING says otherwise
    mapping = os.environ.get("FAKE_PMI2_MAPPING", "(vector,(0,1,%d))" % n)
    socks, procs = [], []
    for rank in range(n):
        mine, theirs = socket.socketpair()
        env = dict(os.environ, PMI_FD=str(theirs.fileno()), PMI_RANK=str(rank), PMI_SIZE=str(n),
                   PMI_JOBID=JOBID, SLURM_PROCID=str(rank), SLURM_STEP_NUM_TASKS=str(n))
        procs.append(subprocess.Popen(argv, env=env, pass_fds=(theirs.fileno(),)))
        theirs.close()
        socks.append(mine)

    sel = selectors.DefaultSelector()
    buf = {r: b"" for r in range(n)}
    inited = set()
    kvs, pending, fenced = {}, {}, []
    open_ranks = set(range(n))
    for r, s in enumerate(socks):
        sel.register(s, selectors.EVENT_READ, r)

    def protocol_error(rank, what):
        print("fake_pmi2: rank %d: %s" % (rank, what), file=sys.stderr)
        for p in procs:
            p.kill()
        sys.exit(3)

    def send(rank, body):
        data = body.encode()
        socks[rank].sendall(b"%-6d" % len(data) + data)

    def handle(rank, body):
        fields = body.split(";")
        if fields[-1] != "":
            protocol_error(rank, "message not terminated by ';': %r" % body)
        kv = dict(f.split("=", 1) for f in fields[:-1])
        cmd = kv.get("cmd")
        if cmd == "fullinit":
            if kv.get("pmijobid") != JOBID or kv.get("pmirank") != str(rank) or "threaded" not in kv:
                protocol_error(rank, "bad fullinit %r" % body)
            send(rank, "cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=%d;size=%d;"
                       "appnum=-1;debugged=FALSE;pmiverbose=FALSE;" % (rank, n))
        elif cmd == "job-getid":
            send(rank, "cmd=job-getid-response;rc=0;jobid=%s;" % JOBID)
        elif cmd == "info-getjobattr":
            val = {"PMI_process_mapping": mapping, "universeSize": str(n)}.get(kv.get("key"))
            if val is None:
                protocol_error(rank, "asked for an attribute Slurm does not answer: %r" % body)
            send(rank, "cmd=info-getjobattr-response;rc=0;found=TRUE;value=%s;" % val)
        elif cmd == "kvs-put":
            pending[kv["key"]] = kv["value"]
            send(rank, "cmd=kvs-put-response;rc=0;")
        elif cmd == "kvs-fence":
            fenced.append(rank)
            if len(fenced) == len(open_ranks):
                kvs.update(pending)
                pending.clear()
                for r in fenced:
                    send(r, "cmd=kvs-fence-response;rc=0;")
                fenced.clear()
        elif cmd == "kvs-get":
            if kv.get("key") in kvs:
                send(rank, "cmd=kvs-get-response;rc=0;found=TRUE;value=%s;" % kvs[kv["key"]])
            else:
                send(rank, "cmd=kvs-get-response;rc=0;found=FALSE;")
        elif cmd == "finalize":
            send(rank, "cmd=finalize-response;rc=0;")
        elif cmd == "abort":
            print("fake_pmi2: rank %d aborts: %s" % (rank, kv.get("msg", "")), file=sys.stderr)
            for p in procs:
                p.send_signal(signal.SIGKILL)
        else:
            protocol_error(rank, "unknown command %r" % body)

    while open_ranks:
        events = sel.select(timeout=30)
        if not events:
            protocol_error(min(open_ranks), "nothing from any rank for 30 s")
        for key, _ in events:
            rank = key.data
            data = key.fileobj.recv(65536)
            if not data:
                sel.unregister(key.fileobj)
                open_ranks.discard(rank)
                continue
            buf[rank] += data
            while True:
                b = buf[rank]
                if rank not in inited:
                    if b"\n" not in b:
                        break
                    line, buf[rank] = b.split(b"\n", 1)
                    if line != b"cmd=init pmi_version=2 pmi_subversion=0":
                        protocol_error(rank, "bad init line %r" % line)
                    socks[rank].sendall(b"cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n")
                    inited.add(rank)
                    continue
                if len(b) < 6 or len(b) < 6 + int(b[:6]):
                    break
                length = int(b[:6])
                handle(rank, b[6:6 + length].decode())
                buf[rank] = b[6 + length:]
    status = 0
    for p in procs:
        rc = p.wait()
        if rc != 0 and status == 0:
            status = rc if rc > 0 else 128 - rc
    sys.exit(status)


if __name__ == "__main__":
    main()
