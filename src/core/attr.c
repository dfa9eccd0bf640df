#include "core/attr.h"
#include "core/objtable.h"
#include <stdlib.h>

/* Keyvals: MPICH-style direct handles of object type keyval. */
typedef struct keyval {
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
    int refcount;                /* the user's handle and every attribute using it */
    bool freed;                  /* MPI_Comm_free_keyval was called */
} keyval_t;

static dmpi_objtable_t keyvals = {.base = 0xa4000000u};

static keyval_t *keyval_get(int k) { return dmpi_obj_get(&keyvals, (uint32_t)k); }

bool dmpi_keyval_valid(int k)
{
    keyval_t *kv = keyval_get(k);
    return kv && !kv->freed;
}

bool dmpi_keyval_predefined(int k)
{
    return k == MPI_TAG_UB || k == MPI_HOST || k == MPI_IO || k == MPI_WTIME_IS_GLOBAL ||
           k == MPI_UNIVERSE_SIZE || k == MPI_LASTUSEDCODE || k == MPI_APPNUM;
}

int dmpi_keyval_create(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del, void *extra,
                       int *keyval)
{
    keyval_t *k = malloc(sizeof *k);
    uint32_t h = k ? dmpi_obj_add(&keyvals, k) : 0;
    if (!h) {
        free(k);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Comm_create_keyval: out of memory");
    }
    *k = (keyval_t){copy, del, extra, 1, false};
    *keyval = (int)h;
    return MPI_SUCCESS;
}

static void keyval_release(int handle)
{
    keyval_t *k = keyval_get(handle);
    if (k && --k->refcount == 0) {
        dmpi_obj_remove(&keyvals, (uint32_t)handle);
        free(k);
    }
}

/* The handle becomes invalid for new uses; attributes keep the keyval alive
 * (their delete callbacks still run). */
int dmpi_keyval_free(int *keyval)
{
    keyval_get(*keyval)->freed = true;
    keyval_release(*keyval);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static dmpi_attr_t **find(dmpi_comm_t *c, int keyval)
{
    dmpi_attr_t **p = (dmpi_attr_t **)&c->attrs;
    while (*p && (*p)->keyval != keyval)
        p = &(*p)->next;
    return p;
}

static int call_delete(dmpi_comm_t *c, dmpi_attr_t *a)
{
    keyval_t *k = keyval_get(a->keyval);
    if (k && k->del) {
        int err = k->del(c->handle, a->keyval, a->value, k->extra);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

int dmpi_attr_set(dmpi_comm_t *c, int keyval, void *value)
{
    dmpi_attr_t **p = find(c, keyval);
    if (*p) {
        int err = call_delete(c, *p);    /* the old value goes first */
        if (err != MPI_SUCCESS)
            return err;
        (*p)->value = value;
        return MPI_SUCCESS;
    }
    dmpi_attr_t *a = malloc(sizeof *a);
    if (!a)
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Comm_set_attr: out of memory");
    *a = (dmpi_attr_t){NULL, keyval, value};
    *p = a;
    keyval_get(keyval)->refcount++;
    return MPI_SUCCESS;
}

/* Values of the predefined attributes: pointers to ints, as MPI says. */
static int *predefined_value(int keyval)
{
    static int tag_ub, host, io, wtime_global, universe, lastcode, appnum;
    switch (keyval) {
    case MPI_TAG_UB: tag_ub = 0x7fffffff; return &tag_ub;
    case MPI_HOST: host = MPI_PROC_NULL; return &host;
    case MPI_IO: io = MPI_ANY_SOURCE; return &io;             /* every rank can do I/O */
    case MPI_WTIME_IS_GLOBAL: wtime_global = 0; return &wtime_global;
    case MPI_UNIVERSE_SIZE: universe = dmpi_world.universe_size; return &universe;
    case MPI_LASTUSEDCODE: lastcode = 78; return &lastcode;  /* the highest predefined class */
    case MPI_APPNUM: appnum = dmpi_world.appnum; return &appnum;
    }
    return NULL;
}

int dmpi_attr_get(dmpi_comm_t *c, int keyval, void **value, int *flag)
{
    if (dmpi_keyval_predefined(keyval)) {
        *value = predefined_value(keyval);
        *flag = 1;
        return MPI_SUCCESS;
    }
    dmpi_attr_t *a = *find(c, keyval);
    *flag = a != NULL;
    if (a)
        *value = a->value;
    return MPI_SUCCESS;
}

int dmpi_attr_delete(dmpi_comm_t *c, int keyval)
{
    dmpi_attr_t **p = find(c, keyval), *a = *p;
    if (!a)
        return MPI_SUCCESS;         /* nothing cached: nothing to delete (as MPICH) */
    int err = call_delete(c, a);
    if (err != MPI_SUCCESS)
        return err;
    *p = a->next;
    keyval_release(keyval);
    free(a);
    return MPI_SUCCESS;
}

int dmpi_attr_copy_all(dmpi_comm_t *old, dmpi_comm_t *new_comm)
{
    for (dmpi_attr_t *a = old->attrs; a; a = a->next) {
        keyval_t *k = keyval_get(a->keyval);
        if (!k || !k->copy)
            continue;               /* MPI_COMM_NULL_COPY_FN */
        void *out = NULL;
        int flag = 0;
        int err = k->copy(old->handle, a->keyval, k->extra, a->value, &out, &flag);
        if (err != MPI_SUCCESS)
            return err;
        if (flag && (err = dmpi_attr_set(new_comm, a->keyval, out)) != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

int dmpi_attr_delete_all(dmpi_comm_t *c)
{
    while (c->attrs) {
        dmpi_attr_t *a = c->attrs;
        int err = dmpi_attr_delete(c, a->keyval);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

void dmpi_keyval_finalize(void)
{
    for (int i = 0; i < keyvals.cap; i++)
        free(keyvals.slot[i]);
    dmpi_obj_clear(&keyvals);
}

/* MPI_COMM_DUP_FN: the copy gets the same value. The MPICH ABI names this
 * function MPIR_Dup_fn, so programs built against MPICH's header find it. */
int MPIR_Dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) DMPI_EXPORT;
int MPIR_Dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
