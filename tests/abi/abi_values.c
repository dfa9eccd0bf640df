/* abi_values: checks include/mpi.h against the MPICH ABI values listed in
 * constants.def (literal numbers, written down independently of the
 * header). Needs no library: nothing here calls MPI or links to it.
 *
 * For each constant: the value, that it has type int (handles and integer
 * constants) or the expected pointer type, and that it is an integer
 * constant expression. For each type: its size and, for the integer types,
 * its exact C type. The MPI_Status layout field by field. Finally that the
 * header identifies itself as dmpi and as no other implementation.
 *
 * Prints each mismatch, then "N passed, N failed"; exits 1 on any failure.
 * With -v it also prints every check that passed. Built as C11 (_Generic). */
#include <mpi.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int passed, failed, verbose;

static void result(int ok, const char *what, long long got, long long want)
{
    if (ok) {
        passed++;
        if (verbose)
            printf("ok       %-45s %lld\n", what, got);
    } else {
        failed++;
        printf("MISMATCH %-45s got %lld (0x%llx), want %lld (0x%llx)\n", what, got,
               (unsigned long long)got, want, (unsigned long long)want);
    }
}

static void result_msg(int ok, const char *what, const char *why)
{
    if (ok) {
        passed++;
        if (verbose)
            printf("ok       %s\n", what);
    } else {
        failed++;
        printf("MISMATCH %s: %s\n", what, why);
    }
}

/* Every integer constant must be an integer constant expression (usable in
 * case labels and enumerators), as it is in MPICH's header. This fails to
 * compile otherwise. */
#define DMPI_ABI_INT(name, value) enum { dmpi_ice_##name = (int)(name) };
#include "constants.def"

static void check_ints(void)
{
    /* Values above INT_MAX in the list become negative ints, exactly as the
     * header's (MPI_Datatype) casts make them. */
#define DMPI_ABI_INT(name, value)                                                   \
    result((long long)(name) == (long long)(int)(value), #name, (long long)(name),  \
           (long long)(int)(value));                                                \
    result_msg(_Generic((name), int: 1, default: 0), #name " has type int",         \
               "wrong type");
#include "constants.def"
#define DMPI_ABI_ENUM(name, etype, value)                                           \
    result((long long)(name) == (long long)(value), #name, (long long)(name), (long long)(value));
#include "constants.def"
}

static void check_pointers(void)
{
#define DMPI_ABI_PTR(name, ctype, value)                                              \
    result((long long)(intptr_t)(name) == (long long)(value), #name,                  \
           (long long)(intptr_t)(name), (long long)(value));                          \
    result_msg(_Generic((name), ctype: 1, default: 0), #name " has type " #ctype,     \
               "wrong type");
#include "constants.def"

    /* Exported objects: only their declared type is checked; _Generic does
     * not evaluate its operand, so no symbol is referenced. */
#define DMPI_ABI_OBJECT(name, ctype)                                                  \
    result_msg(_Generic((name), ctype: 1, default: 0),                                \
               #name " is declared as an object of type " #ctype, "wrong type");
#include "constants.def"
}

static void check_types(void)
{
#define DMPI_ABI_SIZE(type, bytes)                                                    \
    result(sizeof(type) == (bytes), "sizeof(" #type ")", (long long)sizeof(type),     \
           (long long)(bytes));
#define DMPI_ABI_FIELD(type, field, off)                                              \
    result(offsetof(type, field) == (off), "offsetof(" #type ", " #field ")",          \
           (long long)offsetof(type, field), (long long)(off));
#define DMPI_ABI_TYPE(type, ctype)                                                    \
    result_msg(_Generic((type)0, ctype: 1, default: 0), #type " is " #ctype,          \
               "a different C type");
#include "constants.def"

    /* Signedness the integer types must have. */
    result_msg((MPI_Aint)-1 < 0, "MPI_Aint is signed", "unsigned");
    result_msg((MPI_Count)-1 < 0, "MPI_Count is signed", "unsigned");
    result_msg((MPI_Offset)-1 < 0, "MPI_Offset is signed", "unsigned");
    result_msg((MPI_Fint)-1 < 0, "MPI_Fint is signed", "unsigned");

    /* The error handler callback type and its MPI-2.0 alias. */
    {
        MPI_Comm_errhandler_function *f = NULL;
        MPI_Comm_errhandler_fn *g = f;
        result_msg(g == NULL, "MPI_Comm_errhandler_fn aliases MPI_Comm_errhandler_function",
                   "not compatible");
    }
}

/* The header names dmpi and no other implementation: tools that recognise a
 * known implementation by such macros would otherwise assume features dmpi
 * does not have. */
static void check_identity(void)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", DMPI_VERSION_MAJOR, DMPI_VERSION_MINOR,
             DMPI_VERSION_PATCH);
    result_msg(strcmp(DMPI_VERSION, want) == 0, "DMPI_VERSION matches its parts",
               DMPI_VERSION);
    result(DMPI_NUMVERSION ==
               DMPI_VERSION_MAJOR * 10000 + DMPI_VERSION_MINOR * 100 + DMPI_VERSION_PATCH,
           "DMPI_NUMVERSION", DMPI_NUMVERSION,
           DMPI_VERSION_MAJOR * 10000 + DMPI_VERSION_MINOR * 100 + DMPI_VERSION_PATCH);

#define FOREIGN(m) result_msg(0, "no foreign identification macro", #m " is defined")
    int foreign = failed;
#ifdef MPICH
    FOREIGN(MPICH);
#endif
#ifdef MPICH_NAME
    FOREIGN(MPICH_NAME);
#endif
#ifdef MPICH_VERSION
    FOREIGN(MPICH_VERSION);
#endif
#ifdef MPICH_NUMVERSION
    FOREIGN(MPICH_NUMVERSION);
#endif
#ifdef MPICH2
    FOREIGN(MPICH2);
#endif
#ifdef MPICH_HAS_C2F
    FOREIGN(MPICH_HAS_C2F);
#endif
#ifdef MPIIMPL_ADVERTISES_FEATURES
    FOREIGN(MPIIMPL_ADVERTISES_FEATURES);
#endif
#ifdef ROMIO_VERSION
    FOREIGN(ROMIO_VERSION);
#endif
#ifdef OPEN_MPI
    FOREIGN(OPEN_MPI);
#endif
#ifdef OMPI_MAJOR_VERSION
    FOREIGN(OMPI_MAJOR_VERSION);
#endif
#ifdef OMPI_MPI_H
    FOREIGN(OMPI_MPI_H);
#endif
#ifdef I_MPI_VERSION
    FOREIGN(I_MPI_VERSION);
#endif
#ifdef MVAPICH2_VERSION
    FOREIGN(MVAPICH2_VERSION);
#endif
#ifdef MVAPICH_VERSION
    FOREIGN(MVAPICH_VERSION);
#endif
#ifdef MSMPI_VER
    FOREIGN(MSMPI_VER);
#endif
#ifdef LAM_MPI
    FOREIGN(LAM_MPI);
#endif
#ifdef CRAY_MPICH_VERSION
    FOREIGN(CRAY_MPICH_VERSION);
#endif
    if (failed == foreign)
        result_msg(1, "no foreign identification macro", "");
#undef FOREIGN
}

int main(int argc, char **argv)
{
    verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    check_ints();
    check_pointers();
    check_types();
    check_identity();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
