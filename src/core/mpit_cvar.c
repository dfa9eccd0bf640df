/* MPI_T control variables: the entries of the parameter table
 * (core/params.c), named as their environment variables (DMPI_EAGER_LIMIT),
 * so that dmpi_info and MPI_T list one table. Parameters read once at
 * MPI_Init have scope MPI_T_SCOPE_CONSTANT and cannot be written; those read
 * at every use can, by this process alone (MPI_T_SCOPE_LOCAL) or by all
 * processes alike (MPI_T_SCOPE_ALL_EQ). A parameter with a few named
 * choices has an enumeration. */
#include "core/mpit_internal.h"
#include "core/params.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct MPIR_T_enum_s {
    int param;                         /* the parameter whose choices it names */
    char name[DMPI_PARAM_NAME_MAX];    /* the parameter's name in lower case */
};

struct MPIR_T_cvar_handle_s {
    int index;
    struct MPIR_T_cvar_handle_s *next;
};

#define MAX_ENUMS 8
static struct MPIR_T_enum_s enums[MAX_ENUMS];
static int nenums = -1;                /* found at first use */
static struct MPIR_T_cvar_handle_s *handles;
static dmpi_cvar_check_fn cvar_check;

void dmpi_mpit_set_cvar_check(dmpi_cvar_check_fn check)
{
    MPIT_LOCKED;
    cvar_check = check;
}

static int ncvars(void)
{
    dmpi_param_info_t p;
    int n = 0;
    while (dmpi_param_describe(n, &p))
        n++;
    return n;
}

static void find_enums(void)
{
    if (nenums >= 0)
        return;
    nenums = 0;
    dmpi_param_info_t p;
    for (int i = 0; dmpi_param_describe(i, &p) && nenums < MAX_ENUMS; i++)
        if (p.kind == DMPI_PARAM_CHOICE) {
            struct MPIR_T_enum_s *e = &enums[nenums++];
            e->param = i;
            size_t k;
            for (k = 0; p.name[k] && k + 1 < sizeof e->name; k++)
                e->name[k] = (char)(p.name[k] >= 'A' && p.name[k] <= 'Z' ? p.name[k] - 'A' + 'a' : p.name[k]);
            e->name[k] = 0;
        }
}

static MPI_T_enum enum_of(int param)
{
    find_enums();
    for (int e = 0; e < nenums; e++)
        if (enums[e].param == param)
            return &enums[e];
    return MPI_T_ENUM_NULL;
}

/* ---- enumerations -------------------------------------------------------- */

static bool valid_enum(MPI_T_enum e)
{
    find_enums();
    for (int i = 0; i < nenums; i++)
        if (e == &enums[i])
            return true;
    return false;
}

static int nchoices(const struct MPIR_T_enum_s *e)
{
    int n = 0;
    while (dmpi_param_choice(e->param, n))
        n++;
    return n;
}

int dmpi_mpit_enum_get_info(MPI_T_enum e, int *num, char *name, int *name_len)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!valid_enum(e))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!num)
        return MPI_T_ERR_INVALID;
    *num = nchoices(e);
    dmpi_mpit_put_string(e->name, name, name_len);
    return MPI_SUCCESS;
}

int dmpi_mpit_enum_get_item(MPI_T_enum e, int indx, int *value, char *name, int *name_len)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!valid_enum(e))
        return MPI_T_ERR_INVALID_HANDLE;
    if (indx < 0 || indx >= nchoices(e))
        return MPI_T_ERR_INVALID_INDEX;
    if (!value)
        return MPI_T_ERR_INVALID;
    *value = indx;                     /* the parameter holds the choice's number */
    dmpi_mpit_put_string(dmpi_param_choice(e->param, indx), name, name_len);
    return MPI_SUCCESS;
}

/* ---- the variables ----------------------------------------------------------- */

static MPI_Datatype type_of(int kind)
{
    switch (kind) {
    case DMPI_PARAM_SIZE: return MPI_UNSIGNED_LONG;    /* size_t */
    case DMPI_PARAM_DOUBLE: return MPI_DOUBLE;
    case DMPI_PARAM_INT:
    case DMPI_PARAM_CHOICE: return MPI_INT;
    default: return MPI_CHAR;
    }
}

/* Elements of a value: one number, or the string's buffer with its NUL. */
static int count_of(int kind)
{
    switch (kind) {
    case DMPI_PARAM_NAME: return DMPI_PARAM_NAME_MAX;
    case DMPI_PARAM_TEXT: return DMPI_PARAM_TEXT_MAX;
    default: return 1;
    }
}

static int scope_of(int when)
{
    switch (when) {
    case DMPI_PARAM_LOCAL: return MPI_T_SCOPE_LOCAL;
    case DMPI_PARAM_ALL_EQ: return MPI_T_SCOPE_ALL_EQ;
    default: return MPI_T_SCOPE_CONSTANT;
    }
}

int dmpi_mpit_cvar_get_num(int *num)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!num)
        return MPI_T_ERR_INVALID;
    *num = ncvars();
    return MPI_SUCCESS;
}

int dmpi_mpit_cvar_get_info(int i, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                            MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    MPIT_LOCKED;
    MPIT_READY();
    dmpi_param_info_t p;
    if (!dmpi_param_describe(i, &p))
        return MPI_T_ERR_INVALID_INDEX;
    char full[DMPI_PARAM_NAME_MAX + 8];
    snprintf(full, sizeof full, "DMPI_%s", p.name);
    dmpi_mpit_put_string(full, name, name_len);
    dmpi_mpit_put_string(p.doc, desc, desc_len);
    if (verbosity)
        *verbosity = p.when != DMPI_PARAM_AT_INIT ? MPI_T_VERBOSITY_USER_BASIC : MPI_T_VERBOSITY_TUNER_BASIC;
    if (datatype)
        *datatype = type_of(p.kind);
    if (enumtype)
        *enumtype = enum_of(i);
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope)
        *scope = scope_of(p.when);
    return MPI_SUCCESS;
}

int dmpi_mpit_cvar_get_index(const char *name, int *index)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!name || !index)
        return MPI_T_ERR_INVALID;
    dmpi_param_info_t p;
    for (int i = 0; dmpi_param_describe(i, &p); i++)
        if (!strncmp(name, "DMPI_", 5) && !strcmp(name + 5, p.name)) {
            *index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

int dmpi_mpit_cvar_handle_alloc(int i, void *obj, MPI_T_cvar_handle *h, int *count)
{
    (void)obj;                         /* every control variable is bound to no object */
    MPIT_LOCKED;
    MPIT_READY();
    dmpi_param_info_t p;
    if (!dmpi_param_describe(i, &p))
        return MPI_T_ERR_INVALID_INDEX;
    if (!h || !count)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_cvar_handle_s *c = malloc(sizeof *c);
    if (!c)
        return MPI_T_ERR_MEMORY;
    c->index = i;
    c->next = handles;
    handles = c;
    *h = c;
    *count = count_of(p.kind);
    return MPI_SUCCESS;
}

/* The handle's place in the list of live handles, NULL if it is none. */
static struct MPIR_T_cvar_handle_s **find_handle(MPI_T_cvar_handle h)
{
    for (struct MPIR_T_cvar_handle_s **at = &handles; *at; at = &(*at)->next)
        if (*at == h)
            return at;
    return NULL;
}

int dmpi_mpit_cvar_handle_free(MPI_T_cvar_handle *h)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!h)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_cvar_handle_s **at = find_handle(*h);
    if (!at)
        return MPI_T_ERR_INVALID_HANDLE;
    *at = (*h)->next;
    free(*h);
    *h = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

void dmpi_mpit_cvar_release_all(void)
{
    while (handles) {
        struct MPIR_T_cvar_handle_s *next = handles->next;
        free(handles);
        handles = next;
    }
}

static size_t value_bytes(int kind)
{
    switch (kind) {
    case DMPI_PARAM_SIZE: return sizeof(size_t);
    case DMPI_PARAM_DOUBLE: return sizeof(double);
    case DMPI_PARAM_INT:
    case DMPI_PARAM_CHOICE: return sizeof(int);
    default: return (size_t)count_of(kind);
    }
}

int dmpi_mpit_cvar_read(MPI_T_cvar_handle h, void *buf)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!find_handle(h))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    dmpi_param_info_t p;
    dmpi_param_describe(h->index, &p);
    if (p.kind == DMPI_PARAM_NAME || p.kind == DMPI_PARAM_TEXT)
        strcpy(buf, dmpi_param_value(h->index));
    else
        memcpy(buf, dmpi_param_value(h->index), value_bytes(p.kind));
    return MPI_SUCCESS;
}

int dmpi_mpit_cvar_write(MPI_T_cvar_handle h, const void *buf)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!find_handle(h))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    dmpi_param_info_t p;
    dmpi_param_describe(h->index, &p);
    if (p.when == DMPI_PARAM_AT_INIT)
        return MPI_T_ERR_CVAR_SET_NEVER;   /* read once at MPI_Init, in effect until the end */
    bool text = p.kind == DMPI_PARAM_NAME || p.kind == DMPI_PARAM_TEXT;
    if (text && (strnlen(buf, value_bytes(p.kind)) == value_bytes(p.kind) ||
                 (cvar_check && cvar_check(p.name, buf) != 0)))
        return MPI_T_ERR_INVALID;
    return dmpi_param_set(h->index, buf) == 0 ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}
