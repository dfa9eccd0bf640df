/* Keyvals and cached attributes, for every kind of object (see attr.h). */
#include "core/attr.h"
#include "core/objtable.h"
#include <stdlib.h>

/* Keyvals: MPICH-style direct handles of object type keyval. */
typedef struct keyval {
    dmpi_attr_kind_t kind;       /* the kind of object it was made for */
    dmpi_attr_copy_fn *copy;
    dmpi_attr_delete_fn *del;
    void *extra;
    int refcount;                /* the user's handle and every attribute using it */
    bool freed;                  /* MPI_X_free_keyval was called */
} keyval_t;

static dmpi_objtable_t keyvals = {.base = 0xa4000000u};

static const char *const kind_objects[DMPI_ATTR_KINDS] = {"communicators", "datatypes", "windows"};
static const char *const kind_prefix[DMPI_ATTR_KINDS] = {"MPI_Comm", "MPI_Type", "MPI_Win"};

static keyval_t *keyval_get(int k) { return dmpi_obj_get(&keyvals, (uint32_t)k); }

dmpi_attr_kind_t dmpi_keyval_predefined_kind(int k)
{
    if (k == MPI_TAG_UB || k == MPI_HOST || k == MPI_IO || k == MPI_WTIME_IS_GLOBAL || k == MPI_UNIVERSE_SIZE ||
        k == MPI_LASTUSEDCODE || k == MPI_APPNUM)
        return DMPI_ATTR_COMM;
    if (k == MPI_WIN_BASE || k == MPI_WIN_SIZE || k == MPI_WIN_DISP_UNIT || k == MPI_WIN_CREATE_FLAVOR ||
        k == MPI_WIN_MODEL)
        return DMPI_ATTR_WIN;
    return DMPI_ATTR_KINDS;
}

bool dmpi_keyval_predefined(int k) { return dmpi_keyval_predefined_kind(k) != DMPI_ATTR_KINDS; }

int dmpi_keyval_check(const char *fn, int keyval, dmpi_attr_kind_t kind, bool predefined_ok)
{
    keyval_t *k = keyval_get(keyval);
    unsigned u = (unsigned)keyval;
    if (k && !k->freed && k->kind == kind)
        return MPI_SUCCESS;
    dmpi_attr_kind_t pk = dmpi_keyval_predefined_kind(keyval);
    if (pk != DMPI_ATTR_KINDS) {
        if (kind == pk && predefined_ok)
            return MPI_SUCCESS;
        if (kind == pk)
            return dmpi_err(MPI_ERR_KEYVAL, "%s: keyval 0x%x is predefined and cannot be changed", fn, u);
        return dmpi_err(MPI_ERR_KEYVAL, "%s: keyval 0x%x is predefined for %s, not for %s", fn, u,
                        kind_objects[pk], kind_objects[kind]);
    }
    if (k && !k->freed)
        return dmpi_err(MPI_ERR_KEYVAL, "%s: keyval 0x%x was created for %s, not for %s", fn, u,
                        kind_objects[k->kind], kind_objects[kind]);
    return dmpi_err(MPI_ERR_KEYVAL, "%s: invalid keyval 0x%x%s", fn, u,
                    keyval == MPI_KEYVAL_INVALID ? " (MPI_KEYVAL_INVALID)" : k ? " (already freed)" : "");
}

int dmpi_keyval_check_held(const char *fn, int keyval, dmpi_attr_kind_t kind, bool predefined_ok)
{
    keyval_t *k = keyval_get(keyval);
    if (k && k->freed && k->kind == kind)
        return MPI_SUCCESS;
    return dmpi_keyval_check(fn, keyval, kind, predefined_ok);
}

int dmpi_keyval_create(dmpi_attr_kind_t kind, dmpi_attr_copy_fn *copy, dmpi_attr_delete_fn *del, void *extra,
                       int *keyval)
{
    keyval_t *k = malloc(sizeof *k);
    uint32_t h = k ? dmpi_obj_add(&keyvals, k) : 0;
    if (!h) {
        free(k);
        return dmpi_err(MPI_ERR_NO_MEM, "%s_create_keyval: out of memory", kind_prefix[kind]);
    }
    *k = (keyval_t){kind, copy, del, extra, 1, false};
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

static dmpi_attr_t **find(dmpi_attr_owner_t o, int keyval)
{
    dmpi_attr_t **p = o.list;
    while (*p && (*p)->keyval != keyval)
        p = &(*p)->next;
    return p;
}

static int call_delete(dmpi_attr_owner_t o, const dmpi_attr_t *a)
{
    keyval_t *k = keyval_get(a->keyval);
    if (k && k->del)
        return k->del(o.handle, a->keyval, a->value, k->extra);
    return MPI_SUCCESS;
}

int dmpi_attr_set_on(dmpi_attr_owner_t o, int keyval, void *value)
{
    dmpi_attr_t *a = *find(o, keyval);
    if (a) {
        int err = call_delete(o, a);    /* the old value goes first */
        if (err != MPI_SUCCESS)
            return err;
        a->value = value;
        return MPI_SUCCESS;
    }
    if (!(a = malloc(sizeof *a)))
        return dmpi_err(MPI_ERR_NO_MEM, "%s_set_attr: out of memory", kind_prefix[o.kind]);
    *a = (dmpi_attr_t){NULL, keyval, value};
    *find(o, keyval) = a;               /* appended: copies keep the order */
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
    case MPI_LASTUSEDCODE: lastcode = dmpi_err_last_used(); return &lastcode;  /* >= MPI_ERR_LASTCODE */
    case MPI_APPNUM: appnum = dmpi_world.appnum; return &appnum;
    }
    return NULL;
}

int dmpi_attr_get_on(dmpi_attr_owner_t o, int keyval, void **value, int *flag)
{
    if (o.kind == DMPI_ATTR_COMM && dmpi_keyval_predefined_kind(keyval) == DMPI_ATTR_COMM) {
        *value = predefined_value(keyval);
        *flag = 1;
        return MPI_SUCCESS;
    }
    dmpi_attr_t *a = *find(o, keyval);
    *flag = a != NULL;
    if (a)
        *value = a->value;
    return MPI_SUCCESS;
}

int dmpi_attr_delete_on(dmpi_attr_owner_t o, int keyval)
{
    dmpi_attr_t *a = *find(o, keyval);
    if (!a)
        return MPI_SUCCESS;         /* nothing cached: nothing to delete (as MPICH) */
    int err = call_delete(o, a);
    if (err != MPI_SUCCESS)
        return err;
    /* Found again: the callback may have changed the list around it. */
    for (dmpi_attr_t **p = o.list; *p; p = &(*p)->next)
        if (*p == a) {
            *p = a->next;
            keyval_release(keyval);
            free(a);
            break;
        }
    return MPI_SUCCESS;
}

int dmpi_attr_copy_all_on(dmpi_attr_owner_t old, dmpi_attr_owner_t new_obj)
{
    for (dmpi_attr_t *a = *old.list; a; a = a->next) {
        keyval_t *k = keyval_get(a->keyval);
        if (!k || !k->copy)
            continue;               /* MPI_COMM_NULL_COPY_FN, MPI_TYPE_NULL_COPY_FN */
        void *out = NULL;
        int flag = 0;
        int err = k->copy(old.handle, a->keyval, k->extra, a->value, &out, &flag);
        if (err != MPI_SUCCESS)
            return err;
        if (flag && (err = dmpi_attr_set_on(new_obj, a->keyval, out)) != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

/* Newest first: MPI_Finalize must run MPI_COMM_SELF's delete callbacks in
 * the reverse order of their setting, and every other object goes the same
 * way. */
int dmpi_attr_delete_all_on(dmpi_attr_owner_t o)
{
    while (*o.list) {
        dmpi_attr_t *last = *o.list;
        while (last->next)
            last = last->next;
        int err = dmpi_attr_delete_on(o, last->keyval);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

/* Drops a list without callbacks (MPI_Finalize). */
static void drop_list(dmpi_attr_t **list)
{
    while (*list) {
        dmpi_attr_t *a = *list;
        *list = a->next;
        free(a);
    }
}

void dmpi_keyval_finalize(void)
{
    /* Predefined datatypes are never destroyed: their attributes go here. */
    for (int i = 0; i < DMPI_BUILTIN_TYPES; i++)
        drop_list(&dmpi_builtin_dtypes[i].attrs);
    static const MPI_Datatype pairs[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT,
                                         MPI_LONG_DOUBLE_INT};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        dmpi_dtype_t *t = dmpi_dtype_get(pairs[i]);
        if (t)
            drop_list(&t->attrs);
    }
    for (int i = 0; i < keyvals.cap; i++)
        free(keyvals.slot[i]);
    dmpi_obj_clear(&keyvals);
}

/* MPI_COMM_DUP_FN and MPI_TYPE_DUP_FN: the copy gets the same value. The
 * MPICH ABI names this function MPIR_Dup_fn, so programs built against
 * MPICH's header find it. */
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
