#!/usr/bin/env python3
"""Summarize a log of mpi4py's test/main.py -v run under mpiexec --tag-output.

usage: summarize.py LOG [LOG...]

For each log prints, per rank, the unittest totals; then every test that
failed, errored or never finished (a hang, when the run was killed), with
the ranks it happened on and a one-line reason (the last line of its
traceback); then the skip reasons by count.  Lines look like
"[R] testName (module.Class.testName) ... ok"; untagged logs (one rank) are
read as rank 0.
"""

import collections
import re
import sys

TAG = re.compile(r"^\[(\d+)\] ?(.*)$")
START = re.compile(r"^(\w+) \(([\w.]+)\)(?: \.\.\. (.*))?$")
RESULT = re.compile(r"^(ok|FAIL|ERROR|expected failure|unexpected success|skipped (.*))$")
HEAD = re.compile(r"^(FAIL|ERROR): (\w+) \(([\w.]+)\)")
RAN = re.compile(r"^Ran (\d+) tests? in")
FINAL = re.compile(r"^(OK|FAILED)(?: \((.*)\))?$")


def short_id(test_id):
    # unittest prints "module.Class.method"; loader failures print
    # "unittest.loader._FailedTest.module".
    return test_id.replace("unittest.loader._FailedTest.", "import ")


def parse(path):
    ranks = collections.defaultdict(lambda: {
        "current": None, "results": {}, "ran": None, "final": None,
        "blocks": {}, "block": None, "prev": "",
    })
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            m = TAG.match(line)
            rank, text = (int(m.group(1)), m.group(2)) if m else (0, line)
            st = ranks[rank]
            # Traceback blocks after the run: "=====", "ERROR: t (id)",
            # "-----", text, up to the next "=====" or the "Ran" line's
            # "-----".
            if text.startswith("=" * 20):
                st["block"] = None
                st["prev"] = text
                continue
            h = HEAD.match(text)
            if h and st["prev"].startswith("=" * 20):
                st["block"] = []
                st["blocks"][h.group(3)] = (h.group(1), st["block"])
                st["prev"] = text
                continue
            st["prev"] = text
            if RAN.match(text):
                st["ran"] = int(RAN.match(text).group(1))
                st["block"] = None
                continue
            if st["block"] is not None:
                st["block"].append(text)
                continue
            fm = FINAL.match(text)
            if fm:
                st["final"] = text
                continue
            sm = START.match(text)
            if sm and sm.group(2).endswith(sm.group(1)):
                st["current"] = sm.group(2)
                rest = sm.group(3)
                if rest:
                    rm = RESULT.match(rest.strip())
                    if rm:
                        st["results"][st["current"]] = rest.strip()
                        st["current"] = None
                continue
            if st["current"]:
                # A result after output the test printed in between.
                for piece in (text.strip(), text.split(" ... ")[-1].strip()):
                    if RESULT.match(piece):
                        st["results"][st["current"]] = piece
                        st["current"] = None
                        break
    return ranks


FRAME = re.compile(r'^\s+File "([^"]*)", line (\d+), in (\S+)')


def reason(block):
    """The exception lines of a traceback (chained ones joined by " -> "),
    each with the function it was raised in when that is mpi4py's own."""
    chain = []
    frame = None
    for l in block:
        m = FRAME.match(l)
        if m:
            frame = m
            continue
        if not l or l[0].isspace() or l.startswith("-" * 20):
            continue
        if l.startswith(("Traceback ", "During handling", "The above exception")):
            continue
        where = ""
        if frame and not frame.group(1).endswith(".py"):
            where = " in " + frame.group(3).replace("mpi4py.MPI.", "")
        elif frame and chain == [] and l.strip() in ("NotImplementedError",):
            where = " in " + frame.group(3)
        chain.append(l.strip()[:240] + where)
        frame = None
    return " -> ".join(chain) if chain else "(no traceback)"


def summarize(path):
    ranks = parse(path)
    out = [f"## {path}", ""]
    if not ranks:
        out.append("(empty log)")
        return out
    out.append("| rank | ran | result |")
    out.append("| --- | --- | --- |")
    for r in sorted(ranks):
        st = ranks[r]
        out.append(f"| {r} | {st['ran'] if st['ran'] is not None else '-'} "
                   f"| {st['final'] or 'no result line (killed or crashed)'} |")
    out.append("")
    bad = collections.OrderedDict()  # test id -> {kind, ranks, reason}
    skips = collections.Counter()
    for r in sorted(ranks):
        st = ranks[r]
        for tid, res in st["results"].items():
            if res.startswith("skipped"):
                if r == 0:
                    skips[res[len("skipped "):]] += 1
            elif res in ("FAIL", "ERROR", "unexpected success"):
                e = bad.setdefault(tid, {"kind": res, "ranks": [], "reasons": []})
                e["ranks"].append(r)
        for tid, (kind, block) in st["blocks"].items():
            e = bad.setdefault(tid, {"kind": kind, "ranks": [], "reasons": []})
            if r not in e["ranks"]:
                e["ranks"].append(r)
            why = reason(block)
            if why not in e["reasons"]:
                e["reasons"].append(why)
        if st["current"]:
            e = bad.setdefault(st["current"], {"kind": "HANG", "ranks": [], "reasons": []})
            e["kind"] = "HANG"
            e["ranks"].append(r)
            e["reasons"].append("started, never finished (run killed)")
    kinds = collections.Counter(e["kind"] for e in bad.values())
    out.append("Distinct tests not passing: " + (", ".join(
        f"{k} {n}" for k, n in sorted(kinds.items())) or "none"))
    out.append("")
    # The same reasons together, most tests first (object addresses and
    # long messages cut so that like reasons meet).
    groups = collections.OrderedDict()
    for tid, e in bad.items():
        why = re.sub(r"0x[0-9a-f]+", "0x...", " | ".join(e["reasons"]))[:160]
        groups.setdefault((e["kind"] if e["kind"] == "HANG" else "", why), []).append(tid)
    out.append("By reason (tests):")
    out.append("")
    for (kind, why), tids in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        mods = sorted({t.split(".")[0] for t in tids})
        out.append(f"- {len(tids):3d} {kind + ' ' if kind else ''}{why} ({', '.join(mods)})")
    out.append("")
    out.append("Each test:")
    out.append("")
    for tid, e in bad.items():
        rk = ",".join(map(str, sorted(e["ranks"])))
        out.append(f"- {e['kind']} {short_id(tid)} [ranks {rk}]: "
                   + " | ".join(e["reasons"] or ["(no traceback)"]))
    out.append("")
    out.append(f"Skips on rank 0: {sum(skips.values())}")
    for why, n in skips.most_common():
        out.append(f"- {n:4d} {why}")
    out.append("")
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in argv[1:]:
        print("\n".join(summarize(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
