#!/usr/bin/env python3
"""Every MPI entry point (each PMPI_X defined in src/api/) opens with
DMPI_API_ENTER (or DMPI_API_FAST), the library lock of MPI_THREAD_MULTIPLE
(core/lock.h).

  tools/api_enter.py --check    lists definitions without it (exit 1 if any)
  tools/api_enter.py --fix      adds it where it is missing

Functions that touch no library state may do without: listed in EXEMPT."""
import re
import sys
from pathlib import Path

EXEMPT = {"Wtime", "Wtick", "Aint_add", "Aint_diff", "Initialized", "Finalized", "Get_version",
          "Get_library_version", "Query_thread", "Is_thread_main"}
# Handle conversions between C and Fortran are casts (api/handle_convert.c);
# not a file's, which reads the table of open files.
EXEMPT |= {f"{kind}_{way}" for kind in ("Comm", "Type", "Group", "Request", "Win", "Op", "Info",
                                        "Errhandler", "Message", "Session") for way in ("c2f", "f2c")}
DEF = re.compile(r"^[A-Za-z_][\w \*]*\bPMPI_(\w+)\(")


def scan(path, fix):
    lines = path.read_text().split("\n")
    missing = []
    i = 0
    while i < len(lines):
        m = DEF.match(lines[i])
        if not m or lines[i].rstrip().endswith(";"):
            i += 1
            continue
        name = m.group(1)
        j = i
        while j < len(lines) and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
            j += 1
        if j >= len(lines) or lines[j].rstrip().endswith(";") or name in EXEMPT:
            i = j + 1
            continue
        if lines[j].strip() != "{":          # a one-line body: exempt or to be rewritten by hand
            missing.append(f"{path}:{i + 1}: PMPI_{name} (body on one line)")
            i = j + 1
            continue
        if j + 1 < len(lines) and ("DMPI_API_ENTER" in lines[j + 1] or "DMPI_API_FAST" in lines[j + 1]):
            i = j + 2
            continue
        if fix:
            lines.insert(j + 1, "    DMPI_API_ENTER;")
        else:
            missing.append(f"{path}:{i + 1}: PMPI_{name}")
        i = j + 2
    if fix:
        text = "\n".join(lines)
        path.write_text(text)
    return missing


def main():
    fix = "--fix" in sys.argv
    root = Path(__file__).resolve().parent.parent / "src" / "api"
    missing = []
    for path in sorted(root.glob("*.c")):
        missing += scan(path, fix)
    for m in missing:
        print(m)
    if missing:
        print(f"{len(missing)} MPI entry points do not take the library lock (DMPI_API_ENTER)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
