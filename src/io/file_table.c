/* The table of open files: MPI_File is a pointer, so a handle is trusted
 * only once it is found here (MPI_FILE_NULL and garbage give NULL alike,
 * never a dereference). A file's slot number is its Fortran handle
 * (MPI_File_c2f); 0 is MPI_FILE_NULL. Also the error handler of
 * MPI_FILE_NULL, which new files start with. */
#include "io/io_internal.h"
#include "core/errhandler.h"
#include <stdlib.h>

static dmpi_file_t **slots;      /* slots[i]: the file with Fortran handle i, or NULL */
static int nslots, highest;      /* allocated, and the highest slot in use */
static MPI_Errhandler default_eh = MPI_ERRORS_RETURN;

dmpi_file_t *dmpi_file_get(MPI_File h)
{
    if (!h)
        return NULL;
    for (int i = 1; i <= highest; i++)
        if (slots[i] == (dmpi_file_t *)h)
            return slots[i];
    return NULL;
}

MPI_Fint dmpi_file_c2f(MPI_File h)
{
    dmpi_file_t *f = dmpi_file_get(h);
    return f ? (MPI_Fint)f->index : 0;
}

MPI_File dmpi_file_f2c(MPI_Fint i)
{
    if (i <= 0 || i > highest)
        return MPI_FILE_NULL;
    return (MPI_File)slots[i];
}

int io_table_add(dmpi_file_t *f)
{
    int i = 1;
    while (i < nslots && slots[i])
        i++;
    if (i >= nslots) {
        int n = nslots ? 2 * nslots : 16;
        dmpi_file_t **s = realloc(slots, (size_t)n * sizeof *s);
        if (!s)
            return dmpi_err(MPI_ERR_NO_MEM, "MPI_File_open: out of memory for the file table");
        for (int k = nslots; k < n; k++)
            s[k] = NULL;
        slots = s;
        nslots = n;
    }
    slots[i] = f;
    f->index = i;
    if (i > highest)
        highest = i;
    return MPI_SUCCESS;
}

void io_table_remove(dmpi_file_t *f)
{
    if (f->index <= 0 || f->index >= nslots || slots[f->index] != f)
        return;
    slots[f->index] = NULL;
    f->index = 0;
    while (highest > 0 && !slots[highest])
        highest--;
}

MPI_Errhandler dmpi_file_default_errhandler(void) { return default_eh; }

void dmpi_file_set_default_errhandler(MPI_Errhandler e)
{
    MPI_Errhandler old = default_eh;
    default_eh = e;
    dmpi_errhandler_release(old);
}

/* MPI_Finalize: files the program left open are closed here, each rank on
 * its own (no communication: the job is ending). Their windows go with the
 * one-sided layer's finalize, which comes later. Then the registered data
 * representations go. */
void dmpi_io_finalize(void)
{
    for (int i = highest; i > 0; i--)
        if (slots[i]) {
            io_shared_forget(slots[i]);
            io_file_free(slots[i]);
        }
    free(slots);
    slots = NULL;
    nslots = highest = 0;
    dmpi_errhandler_release(default_eh);
    default_eh = MPI_ERRORS_RETURN;
    dmpi_datarep_finalize();
}
