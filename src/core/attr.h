/* Attributes cached on communicators, and the keyvals that name them.
 * The predefined keys (MPI_TAG_UB, MPI_HOST, ...) are answered from the
 * world state, not stored. */
#ifndef DMPI_ATTR_H
#define DMPI_ATTR_H

#include "core/dmpi.h"

typedef struct dmpi_attr {
    struct dmpi_attr *next;
    int keyval;
    void *value;
} dmpi_attr_t;

int dmpi_keyval_create(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del, void *extra,
                       int *keyval);
int dmpi_keyval_free(int *keyval);
bool dmpi_keyval_valid(int keyval);
bool dmpi_keyval_predefined(int keyval);

int dmpi_attr_set(dmpi_comm_t *c, int keyval, void *value);
int dmpi_attr_get(dmpi_comm_t *c, int keyval, void **value, int *flag);
int dmpi_attr_delete(dmpi_comm_t *c, int keyval);
/* MPI_Comm_dup: run the copy callbacks of old's attributes onto new. */
int dmpi_attr_copy_all(dmpi_comm_t *old, dmpi_comm_t *new_comm);
/* MPI_Comm_free and MPI_Finalize: run every delete callback, drop all. */
int dmpi_attr_delete_all(dmpi_comm_t *c);
void dmpi_keyval_finalize(void);

#endif
