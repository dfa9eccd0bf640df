#!/usr/bin/env python3
"""Compares the functions mpi.h declares with MPI-4.1's list and with what
libmpi exports.

  tests/api/check_api.py include/mpi.h build/lib/libmpi.so

Fails (exit 1) when a function of MPI-4.1 is not declared by mpi.h (the I/O
chapter, MPI_File_* and MPI_Register_datarep, included, like every other),
when a declared function has no implementation (MPI_X or PMPI_X declared
but not a defined, exported symbol of the library), or when the header's
MPI_ and PMPI_ blocks differ."""
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DECL = re.compile(r"^\s*(?:[A-Za-z_][\w\s\*]*?)\b(P?MPI_[A-Za-z0-9_]+)\s*\(", re.M)


def declared(header):
    text = header.read_text()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))
    names = set(DECL.findall(text))
    # typedef'd callback types look like declarations: (MPI_User_function)(...)
    typedefs = set(re.findall(r"typedef[^;]*?\(\s*\*?\s*(MPI_\w+)\s*\)", text))
    names -= typedefs
    return {n for n in names if n.startswith("MPI_")}, {n[1:] for n in names if n.startswith("PMPI_")}


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", str(lib)], check=True, capture_output=True,
                         text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if len(line.split()) >= 3}


def main():
    header, lib = Path(sys.argv[1]), Path(sys.argv[2])
    mpi, pmpi = declared(header)
    syms = exported(lib)
    errors = []
    for n in sorted(mpi ^ pmpi):
        errors.append(f"{n}: declared as {'MPI_' if n in mpi else 'PMPI_'} only")
    for n in sorted(mpi | pmpi):
        for s in (n, "P" + n):
            if s not in syms:
                errors.append(f"{s}: declared in mpi.h, not exported by {lib.name}")
    standard = [line.strip() for line in (HERE / "mpi-4.1-functions.txt").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    missing = [n for n in standard if n not in mpi]
    extra = sorted(n for n in mpi if n not in standard)
    print(f"MPI-4.1 C functions: {len(standard)}; declared by mpi.h: {len(standard) - len(missing)}")
    for n in missing:
        errors.append(f"{n}: a function of MPI-4.1 that mpi.h does not declare")
    if extra:
        print(f"declared, not in MPI-4.1 (removed, or dmpi's own): {' '.join(extra)}")
    for e in errors:
        print(f"ERROR: {e}")
    if errors:
        return 1
    print("No Errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
