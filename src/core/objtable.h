/* A table of objects behind MPICH-style "direct" handles: base | index.
 * Used by every object kind that users create (groups, communicators, ...). */
#ifndef DMPI_OBJTABLE_H
#define DMPI_OBJTABLE_H

#include <stdint.h>

typedef struct dmpi_objtable {
    uint32_t base;               /* kind and object-type bits of the handle */
    void **slot;
    int cap, *free_list, nfree, used;
} dmpi_objtable_t;

/* Stores obj; returns its handle, or 0 when out of memory. */
uint32_t dmpi_obj_add(dmpi_objtable_t *t, void *obj);
void *dmpi_obj_get(const dmpi_objtable_t *t, uint32_t handle);   /* NULL if not live */
void dmpi_obj_remove(dmpi_objtable_t *t, uint32_t handle);
void dmpi_obj_clear(dmpi_objtable_t *t);                           /* forgets every slot */

#endif
