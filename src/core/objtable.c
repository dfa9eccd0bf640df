#include "core/objtable.h"
#include <stdlib.h>

#define INDEX_MASK 0x03ffffffu

uint32_t dmpi_obj_add(dmpi_objtable_t *t, void *obj)
{
    if (t->nfree == 0) {
        int cap = t->cap ? t->cap * 2 : 64;
        void **s = realloc(t->slot, (size_t)cap * sizeof *s);
        int *f = s ? realloc(t->free_list, (size_t)cap * sizeof *f) : NULL;
        if (!s || !f) {
            if (s)
                t->slot = s;
            return 0;
        }
        t->slot = s;
        t->free_list = f;
        for (int i = cap - 1; i >= t->cap; i--) {
            t->slot[i] = NULL;
            t->free_list[t->nfree++] = i;
        }
        t->cap = cap;
    }
    int i = t->free_list[--t->nfree];
    t->slot[i] = obj;
    t->used++;
    return t->base | (uint32_t)i;
}

void *dmpi_obj_get(const dmpi_objtable_t *t, uint32_t handle)
{
    uint32_t i = handle & INDEX_MASK;
    if ((handle & ~INDEX_MASK) != t->base || i >= (uint32_t)t->cap)
        return NULL;
    return t->slot[i];
}

void dmpi_obj_remove(dmpi_objtable_t *t, uint32_t handle)
{
    uint32_t i = handle & INDEX_MASK;
    if (dmpi_obj_get(t, handle)) {
        t->slot[i] = NULL;
        t->free_list[t->nfree++] = (int)i;
        t->used--;
    }
}

void dmpi_obj_clear(dmpi_objtable_t *t)
{
    free(t->slot);
    free(t->free_list);
    t->slot = NULL;
    t->free_list = NULL;
    t->cap = t->nfree = t->used = 0;
}
