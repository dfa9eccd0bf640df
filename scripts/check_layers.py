#!/usr/bin/env python3
"""Fails if a file of a lower layer includes a higher layer's header.
(pmi/ is the lowest: a wire-protocol client that needs nothing of ours.)

The layers of src/, lowest first (docs/architecture.md): calls go only
downward; a lower layer reaches up only through callbacks and hooks, plus
the few upward headers listed in UPCALLS (the one way transports hand
what arrives to matching)."""
import re
import sys
from pathlib import Path

LAYERS = ["pmi", "core", "node", "tport", "p2p", "coll", "rma", "comm", "io", "api"]
# (includer's layer, included header): allowed although it points up.
UPCALLS = {
    ("tport", "p2p/deliver.h"),   # delivery into matching
    ("tport", "p2p/match.h"),     # the message a transport keeps for a match
    ("tport", "p2p/request.h"),   # the request a transport moves data for
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    top = rel.split("/")[0]
    return top if top in LAYERS else None


def main():
    src = Path(__file__).resolve().parent.parent / "src"
    bad = []
    for path in sorted(src.rglob("*.[ch]")):
        rel = path.relative_to(src).as_posix()
        mine = layer_of(rel)
        if mine is None:
            bad.append(f"src/{rel}: not in any layer ({', '.join(LAYERS)})")
            continue
        for no, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            theirs = layer_of(inc)
            if theirs is None:
                continue                     # mpi.h and system-like headers
            if LAYERS.index(theirs) > LAYERS.index(mine) and (mine, inc) not in UPCALLS:
                bad.append(f"src/{rel}:{no}: layer {mine} includes {inc} of the higher layer {theirs}")
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} include lines break the layering")
        return 1
    print(f"layering ok: {', '.join(LAYERS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
