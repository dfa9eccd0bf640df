/* Status conversion between C, Fortran (an array of MPI_F_STATUS_SIZE
 * INTEGERs) and Fortran 2008 (MPI_F08_status), MPI-4.0 19.3.5. All three
 * are the same five ints in this ABI, so a conversion is a copy; what it
 * checks is that neither side is an "ignore" value or NULL, which the
 * standard makes erroneous (MPI_ERR_ARG, through MPI_COMM_WORLD's handler
 * as no object is involved). Usable before MPI_Init and after
 * MPI_Finalize: they touch no library state. */
#include "api/api.h"
#include <string.h>

_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint) &&
                   sizeof(MPI_F08_status) == sizeof(MPI_Status) &&
                   offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
                   offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
                   offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint) &&
                   offsetof(MPI_F08_status, MPI_ERROR) == offsetof(MPI_Status, MPI_ERROR),
               "the three status layouts are one");

/* The "ignore" values: distinct objects of the library, never written. */
static MPI_Fint f_ignore[MPI_F_STATUS_SIZE], f_ignores[MPI_F_STATUS_SIZE];
static MPI_F08_status f08_ignore, f08_ignores;
MPI_Fint *MPI_F_STATUS_IGNORE = f_ignore;
MPI_Fint *MPI_F_STATUSES_IGNORE = f_ignores;
MPI_F08_status *MPI_F08_STATUS_IGNORE = &f08_ignore;
MPI_F08_status *MPI_F08_STATUSES_IGNORE = &f08_ignores;

DMPI_ALIAS(Status_c2f)
DMPI_ALIAS(Status_f2c)
DMPI_ALIAS(Status_c2f08)
DMPI_ALIAS(Status_f082c)
DMPI_ALIAS(Status_f2f08)
DMPI_ALIAS(Status_f082f)

enum side { C, F, F08 };

static int check_side(const char *fn, const void *p, enum side s, const char *what)
{
    static const char *const ignore[][2] = {{"MPI_STATUS_IGNORE", "MPI_STATUSES_IGNORE"},
                                            {"MPI_F_STATUS_IGNORE", "MPI_F_STATUSES_IGNORE"},
                                            {"MPI_F08_STATUS_IGNORE", "MPI_F08_STATUSES_IGNORE"}};
    const void *one = s == C ? (const void *)MPI_STATUS_IGNORE
                      : s == F ? (const void *)MPI_F_STATUS_IGNORE
                               : (const void *)MPI_F08_STATUS_IGNORE;
    const void *many = s == C ? (const void *)MPI_STATUSES_IGNORE
                       : s == F ? (const void *)MPI_F_STATUSES_IGNORE
                                : (const void *)MPI_F08_STATUSES_IGNORE;
    if (!p)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is NULL", fn, what);
    if (p == one || p == many)
        return dmpi_err(MPI_ERR_ARG, "%s: %s is %s, which holds no status", fn, what, ignore[s][p == many]);
    return MPI_SUCCESS;
}

static int convert(const char *fn, const void *in, enum side from, const char *in_name, void *out, enum side to,
                   const char *out_name)
{
    int err;
    if ((err = check_side(fn, in, from, in_name)) || (err = check_side(fn, out, to, out_name)))
        return dmpi_api_error(NULL, fn, err);
    memmove(out, in, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    DMPI_API_ENTER;
    return convert("MPI_Status_c2f", c_status, C, "c_status", f_status, F, "f_status");
}

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    DMPI_API_ENTER;
    return convert("MPI_Status_f2c", f_status, F, "f_status", c_status, C, "c_status");
}

int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    DMPI_API_ENTER;
    return convert("MPI_Status_c2f08", c_status, C, "c_status", f08_status, F08, "f08_status");
}

int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    DMPI_API_ENTER;
    return convert("MPI_Status_f082c", f08_status, F08, "f08_status", c_status, C, "c_status");
}

int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    DMPI_API_ENTER;
    return convert("MPI_Status_f2f08", f_status, F, "f_status", f08_status, F08, "f08_status");
}

int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    DMPI_API_ENTER;
    return convert("MPI_Status_f082f", f08_status, F08, "f08_status", f_status, F, "f_status");
}
