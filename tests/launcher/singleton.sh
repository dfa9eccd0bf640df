#!/bin/bash
# Without a launcher the client is a singleton with a private key space.
. "$(dirname "$0")/lib.sh"

run "$CLIENT" info </dev/null
expect_rc 0
expect_out "^rank=0 size=1 appnum=0 usize=1 kvsname=singleton-[0-9]* singleton=1"
run "$CLIENT" kvs 2 </dev/null
expect_rc 0
expect_out "rank 0: ok 2 rounds of 1"
run "$CLIENT" badkey </dev/null
expect_rc 0

# A broken PMI_FD is an error with a message, not a hang.
PMI_FD=99 PMI_RANK=0 PMI_SIZE=1 run "$CLIENT" info </dev/null
expect_rc 99
expect_err "PMI_FD=99 is not an open file descriptor"
pass "singleton mode"
