# Sourced by the ctest scripts of tests/netns (with $here set to this
# directory). hosts_up N makes N namespace hosts, or ends the script:
# "skipped" and status 0 where namespaces cannot be made, a failure
# otherwise. The caller's EXIT trap takes the hosts down.
hosts_up() {
    local out rc
    out=$("$here/hosts" up "$1")
    rc=$?
    echo "$out"
    [ $rc -eq 3 ] && exit 0
    [ $rc -eq 0 ] || { echo "FAIL: hosts up: status $rc"; exit 1; }
}
