#!/usr/bin/env python3
"""Writes mpi-4.1-functions.txt, the list of MPI-4.1's C functions, from the
MPI Forum's machine-readable API description (apis.json of the Forum's
pympistandard package, which describes MPI 4.0) plus the functions MPI 4.1
added (MPI-4.1, Annex B.1), which that file does not have yet.

  tests/api/make_function_list.py path/to/apis.json > tests/api/mpi-4.1-functions.txt

A procedure with a parameter of a POLY* kind has a large-count form, named
with the suffix _c. Callbacks (typedefs) and predefined callback functions
(MPI_COMM_DUP_FN, ...) are not functions of the library's interface here;
Fortran-only procedures are left out."""
import json
import sys

# MPI-4.1 additions; (name, has a _c form)
ADDED_IN_4_1 = [
    ("MPI_Comm_attach_buffer", True), ("MPI_Comm_detach_buffer", True),
    ("MPI_Comm_flush_buffer", False), ("MPI_Comm_iflush_buffer", False),
    ("MPI_Session_attach_buffer", True), ("MPI_Session_detach_buffer", True),
    ("MPI_Session_flush_buffer", False), ("MPI_Session_iflush_buffer", False),
    ("MPI_Buffer_flush", False), ("MPI_Buffer_iflush", False),
    ("MPI_Get_hw_resource_info", False),
    ("MPI_Remove_error_class", False), ("MPI_Remove_error_code", False), ("MPI_Remove_error_string", False),
    ("MPI_Request_get_status_all", False), ("MPI_Request_get_status_any", False),
    ("MPI_Request_get_status_some", False),
    ("MPI_Status_get_error", False), ("MPI_Status_get_source", False), ("MPI_Status_get_tag", False),
    ("MPI_Status_set_error", False), ("MPI_Status_set_source", False), ("MPI_Status_set_tag", False),
    ("MPI_Type_get_value_index", False),
]
# Large-count forms the 4.0 data lacks but 4.1 has (an erratum of 4.0)
ADDED_LARGE = ["MPI_Status_set_elements_c"]


def main():
    apis = json.load(open(sys.argv[1]))
    out = set()
    for proc in apis.values():
        attrs = proc["attributes"]
        if not attrs["c_expressible"] or attrs["callback"] or attrs["predefined_function"]:
            continue
        out.add(proc["name"])
        if any(p["kind"].startswith("POLY") for p in proc["parameters"]):
            out.add(proc["name"] + "_c")
    for name, large in ADDED_IN_4_1:
        out.add(name)
        if large:
            out.add(name + "_c")
    out.update(ADDED_LARGE)
    print("# MPI-4.1 C functions, one per line (written by tests/api/make_function_list.py)")
    for name in sorted(out):
        print(name)


if __name__ == "__main__":
    main()
