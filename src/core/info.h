/* Info objects: ordered lists of (key, value) strings. */
#ifndef DMPI_INFO_H
#define DMPI_INFO_H

#include "core/dmpi.h"

typedef struct dmpi_info_entry {
    struct dmpi_info_entry *next;
    char *key, *value;
} dmpi_info_entry_t;

typedef struct dmpi_info {
    MPI_Info handle;
    int nkeys;
    dmpi_info_entry_t *head;     /* in the order the keys were first set */
} dmpi_info_t;

dmpi_info_t *dmpi_info_get(MPI_Info h);               /* NULL if invalid; MPI_INFO_ENV is valid */
int dmpi_info_create(MPI_Info *out);
int dmpi_info_set(dmpi_info_t *info, const char *key, const char *value);
const char *dmpi_info_lookup(const dmpi_info_t *info, const char *key);   /* NULL if absent */
int dmpi_info_delete(dmpi_info_t *info, const char *key);  /* MPI_ERR_INFO_NOKEY if absent */
const char *dmpi_info_nthkey(const dmpi_info_t *info, int n);
int dmpi_info_dup(const dmpi_info_t *info, MPI_Info *out);
void dmpi_info_free(dmpi_info_t *info);
dmpi_info_t *dmpi_info_private(void);             /* empty, without a handle; NULL if out of memory */
/* A private copy with no handle (NULL for NULL): what communicators keep. */
dmpi_info_t *dmpi_info_copy(const dmpi_info_t *info);
void dmpi_info_drop(dmpi_info_t *copy);
int dmpi_info_init_env(int thread_level);
/* A new info object with MPI_INFO_ENV's keys; argc/argv as given to main,
 * or 0/NULL (MPI_Info_create_env, at any time). */
int dmpi_info_create_env(int argc, char *argv[], MPI_Info *out);
void dmpi_info_finalize(void);
/* A new info object describing the hardware of this process
 * (MPI_Get_hw_resource_info, core/info_hw.c). */
int dmpi_info_create_hw(MPI_Info *out);

#endif
