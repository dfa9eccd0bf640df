/* Attributes cached on communicators, datatypes and windows, and the
 * keyvals that name them. One keyval table serves every kind of object; a
 * keyval remembers the kind it was made for, and using it on another kind
 * is MPI_ERR_KEYVAL. The predefined keys of communicators (MPI_TAG_UB,
 * MPI_HOST, ...) are answered from the world state, not stored; those of
 * windows (MPI_WIN_BASE, ...) by the api layer from the window itself,
 * which core does not know.
 *
 * The attribute functions take the object itself (dmpi_comm_t * or
 * dmpi_dtype_t *): a _Generic picks its kind, handle and list. A window
 * passes its owner, made by dmpi_attr_owner_win, to the _on functions. */
#ifndef DMPI_ATTR_H
#define DMPI_ATTR_H

#include "core/dmpi.h"

typedef struct dmpi_attr {
    struct dmpi_attr *next;
    int keyval;
    void *value;
} dmpi_attr_t;

typedef enum dmpi_attr_kind { DMPI_ATTR_COMM, DMPI_ATTR_TYPE, DMPI_ATTR_WIN, DMPI_ATTR_KINDS } dmpi_attr_kind_t;

/* The callbacks of every kind. MPI_Comm, MPI_Datatype and MPI_Win are all
 * int, so MPI_Comm_copy_attr_function, MPI_Type_copy_attr_function and
 * MPI_Win_copy_attr_function are this very type (and the delete functions
 * the other). */
typedef int dmpi_attr_copy_fn(int handle, int keyval, void *extra, void *in, void *out, int *flag);
typedef int dmpi_attr_delete_fn(int handle, int keyval, void *value, void *extra);

/* An object that carries attributes. */
typedef struct dmpi_attr_owner {
    dmpi_attr_kind_t kind;
    int handle;
    dmpi_attr_t **list;
} dmpi_attr_owner_t;

static inline dmpi_attr_owner_t dmpi_attr_owner_comm(dmpi_comm_t *c)
{
    return (dmpi_attr_owner_t){DMPI_ATTR_COMM, c->handle, &c->attrs};
}
static inline dmpi_attr_owner_t dmpi_attr_owner_type(dmpi_dtype_t *t)
{
    return (dmpi_attr_owner_t){DMPI_ATTR_TYPE, t->handle, &t->attrs};
}
/* A window (rma/rma.h, above core): its handle and attribute list. */
static inline dmpi_attr_owner_t dmpi_attr_owner_win(int handle, dmpi_attr_t **list)
{
    return (dmpi_attr_owner_t){DMPI_ATTR_WIN, handle, list};
}
#define dmpi_attr_owner(obj) \
    _Generic((obj), dmpi_comm_t *: dmpi_attr_owner_comm, dmpi_dtype_t *: dmpi_attr_owner_type)(obj)

/* Keyvals. */
int dmpi_keyval_create(dmpi_attr_kind_t kind, dmpi_attr_copy_fn *copy, dmpi_attr_delete_fn *del, void *extra,
                       int *keyval);
int dmpi_keyval_free(int *keyval);
/* MPI_SUCCESS if keyval is a live keyval made for kind (or, with
 * predefined_ok, a predefined one of that kind); otherwise MPI_ERR_KEYVAL
 * with a message naming fn. */
int dmpi_keyval_check(const char *fn, int keyval, dmpi_attr_kind_t kind, bool predefined_ok);
/* The same for getting and deleting an attribute: a keyval the program
 * freed still names the attributes that use it, until the last one goes. */
int dmpi_keyval_check_held(const char *fn, int keyval, dmpi_attr_kind_t kind, bool predefined_ok);
bool dmpi_keyval_predefined(int keyval);
/* The kind a predefined keyval belongs to (MPI_TAG_UB: communicators,
 * MPI_WIN_BASE: windows); DMPI_ATTR_KINDS if keyval is not predefined. */
dmpi_attr_kind_t dmpi_keyval_predefined_kind(int keyval);
void dmpi_keyval_finalize(void);

/* Attributes, for an owner made by dmpi_attr_owner(). */
int dmpi_attr_set_on(dmpi_attr_owner_t o, int keyval, void *value);
int dmpi_attr_get_on(dmpi_attr_owner_t o, int keyval, void **value, int *flag);
int dmpi_attr_delete_on(dmpi_attr_owner_t o, int keyval);
/* Runs the copy callbacks of old's attributes onto new (Comm_dup, Type_dup). */
int dmpi_attr_copy_all_on(dmpi_attr_owner_t old, dmpi_attr_owner_t new_obj);
/* Runs every delete callback and drops the attributes (the object goes). */
int dmpi_attr_delete_all_on(dmpi_attr_owner_t o);

#define dmpi_attr_set(obj, keyval, value) dmpi_attr_set_on(dmpi_attr_owner(obj), keyval, value)
#define dmpi_attr_get(obj, keyval, value, flag) dmpi_attr_get_on(dmpi_attr_owner(obj), keyval, value, flag)
#define dmpi_attr_delete(obj, keyval) dmpi_attr_delete_on(dmpi_attr_owner(obj), keyval)
#define dmpi_attr_copy_all(old, new_obj) dmpi_attr_copy_all_on(dmpi_attr_owner(old), dmpi_attr_owner(new_obj))
#define dmpi_attr_delete_all(obj) dmpi_attr_delete_all_on(dmpi_attr_owner(obj))

#endif
