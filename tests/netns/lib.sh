# Sourced by the ctest scripts of tests/netns (with $here set to this
# directory), before they do anything else.
#
# One user of the namespace hosts at a time: the script runs again under
# flock on /tmp/dmpi-netns.lock (the lock others take too, e.g.
# bench/compare --hosts); set DMPI_NETNS_LOCKED=1 when you hold it already.
if [ -z "${DMPI_NETNS_LOCKED:-}" ] && command -v flock >/dev/null; then
    DMPI_NETNS_LOCKED=1 exec flock -o -w 900 /tmp/dmpi-netns.lock bash "$0" "$@"
fi

# hosts_up N makes N namespace hosts, or ends the script: "skipped" and
# status 0 where namespaces cannot be made, a failure otherwise. The
# caller's EXIT trap takes the hosts down.
hosts_up() {
    local out rc
    out=$("$here/hosts" up "$1")
    rc=$?
    echo "$out"
    [ $rc -eq 3 ] && exit 0
    [ $rc -eq 0 ] || { echo "FAIL: hosts up: status $rc"; exit 1; }
}

# launcher_tests MPIEXEC BUILD_DIR: the launcher's test scripts
# (tests/launcher) with whatever DMPI_TEST_HOSTS the caller exported; says
# which failed and returns their number (0: all passed).
launcher_tests() {
    local t fails=0
    for t in exit_code signal_kill abort tag_output stdin env timeout orphans kvs errors signals shm; do
        if ! bash "$here/../launcher/$t.sh" "$1" "$2/tests/launcher/launcher_pmi_client"; then
            echo "FAIL: launcher test $t"
            fails=$((fails + 1))
        fi
    done
    return $fails
}
