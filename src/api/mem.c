/* MPI_Alloc_mem and MPI_Free_mem (core/mem.c). Of the info keys, MPI-4.1's
 * "mpi_minimum_memory_alignment" is honoured (a power of two; blocks are
 * aligned to 64 bytes anyway); others are ignored, as hints may be. */
#include "api/api.h"
#include "core/info.h"
#include <stdlib.h>

/* The alignment the info object asks for, or 0. */
static size_t alignment_hint(const dmpi_info_t *info)
{
    const char *v = info ? dmpi_info_lookup(info, "mpi_minimum_memory_alignment") : NULL;
    if (!v)
        return 0;
    char *end;
    unsigned long long a = strtoull(v, &end, 10);
    if (*end || a == 0 || (a & (a - 1)) || a > ((unsigned long long)1 << 30))
        return 0;                   /* not a power of two we can honour: a hint to ignore */
    return (size_t)a;
}

DMPI_ALIAS(Alloc_mem)
DMPI_ALIAS(Free_mem)

/* baseptr is a void * that really points to the caller's pointer. */
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Alloc_mem";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_ptr(fn, baseptr, "baseptr")))
        return dmpi_api_error(NULL, fn, err);
    if (size < 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: negative size %ld", fn, (long)size));
    dmpi_info_t *i = NULL;
    if (info != MPI_INFO_NULL && !(i = dmpi_info_get(info)))
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_INFO, "%s: invalid info object 0x%x", fn, (unsigned)info));
    void *p;
    if ((err = dmpi_mem_alloc(size, alignment_hint(i), &p)))
        return dmpi_api_error(NULL, fn, err);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

int PMPI_Free_mem(void *base)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Free_mem";
    int err;
    if ((err = dmpi_check_init(fn)))
        return dmpi_api_error(NULL, fn, err);
    if (base && dmpi_mem_free(base) != 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_BASE, "%s: %p was not allocated by MPI_Alloc_mem (or is "
                                                 "already freed)", fn, base));
    return MPI_SUCCESS;
}
