/* The info keys of a file (MPI-4.1 section 14.2.8). Any key is accepted;
 * the file keeps the ones the standard reserves for files, with the values
 * given, and reports them with "filename" (the name it was opened with).
 * file_perm is the one that changes what happens: the mode bits of a file
 * MPI_File_open creates. The others describe layouts and access patterns
 * that the engine does not need to be told about; they are kept so that a
 * program reads back what it set. */
#include "io/io_internal.h"
#include "core/info.h"
#include <stdlib.h>
#include <string.h>

static const char *const kept[] = {
    "access_style", "collective_buffering", "cb_block_size", "cb_buffer_size", "cb_nodes",
    "chunked", "chunked_item", "chunked_size", "io_node_list", "nb_proc", "num_io_nodes",
    "striping_factor", "striping_unit",
};
#define NKEPT (int)(sizeof kept / sizeof kept[0])

static int no_mem(const char *fn) { return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the info hints", fn); }

static int keep(const char *fn, dmpi_file_t *f, struct dmpi_info *info)
{
    if (!info)
        return MPI_SUCCESS;
    for (int i = 0; i < NKEPT; i++) {
        const char *v = dmpi_info_lookup(info, kept[i]);
        if (v && dmpi_info_set(f->hints, kept[i], v) != MPI_SUCCESS)
            return no_mem(fn);
    }
    return MPI_SUCCESS;
}

unsigned io_info_perm(const struct dmpi_info *info)
{
    const char *v = info ? dmpi_info_lookup(info, "file_perm") : NULL;
    if (v) {
        char *end;
        unsigned long p = strtoul(v, &end, 8);
        if (end != v && *end == '\0' && p <= 07777)
            return (unsigned)p;
    }
    return 0666;                 /* less the umask, as open(2) does */
}

int io_info_open(dmpi_file_t *f, struct dmpi_info *info)
{
    static const char fn[] = "MPI_File_open";
    if (!(f->hints = dmpi_info_private()) || dmpi_info_set(f->hints, "filename", f->path) != MPI_SUCCESS)
        return no_mem(fn);
    const char *perm = info ? dmpi_info_lookup(info, "file_perm") : NULL;
    if (perm && dmpi_info_set(f->hints, "file_perm", perm) != MPI_SUCCESS)
        return no_mem(fn);
    return keep(fn, f, info);
}

int dmpi_file_set_info(dmpi_file_t *f, struct dmpi_info *info)
{
    return keep("MPI_File_set_info", f, info);
}

int dmpi_file_get_info(dmpi_file_t *f, struct dmpi_info **out)
{
    MPI_Info h;
    int err = dmpi_info_create(&h);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_info_t *info = dmpi_info_get(h);
    for (int i = 0; f->hints && i < f->hints->nkeys; i++) {
        const char *k = dmpi_info_nthkey(f->hints, i);
        if ((err = dmpi_info_set(info, k, dmpi_info_lookup(f->hints, k))) != MPI_SUCCESS) {
            dmpi_info_free(info);
            return err;
        }
    }
    *out = info;
    return MPI_SUCCESS;
}
