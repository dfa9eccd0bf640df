/* The data representations (MPI-4.1 section 14.5): the built-in "native",
 * "internal" (native bytes here) and "external32", and the ones the program
 * registers with MPI_Register_datarep(_c). The registry is process-wide and
 * lives until MPI_Finalize (the standard has no call to remove one). What a
 * predefined type takes in the file under each representation is answered
 * here: external32's fixed sizes (core/dtype_external32.c), or a user
 * representation's extent function, called once per predefined type and
 * cached. The api layer holds the library lock around every call. */
#include "io/datarep_internal.h"
#include "core/dtype_external32.h"
#include <stdlib.h>
#include <string.h>

enum { REP_USER = 0, REP_NATIVE = 1, REP_INTERNAL = 2, REP_EXTERNAL32 = 3 };

/* The extent function's answer for one predefined type. */
typedef struct cached {
    MPI_Datatype type;
    MPI_Aint ext;
} cached_t;

/* A representation as the registry holds it; pub is what io.h shows. */
typedef struct rep {
    dmpi_datarep_t pub;
    cached_t *cache;
    int ncache, capcache;
    struct rep *next;
} rep_t;

static rep_t builtin[] = {
    {.pub = {.name = "native", .builtin = REP_NATIVE}},
    {.pub = {.name = "internal", .builtin = REP_INTERNAL}},
    {.pub = {.name = "external32", .builtin = REP_EXTERNAL32}},
};
#define NBUILTIN (sizeof builtin / sizeof builtin[0])

static rep_t *user_reps;         /* newest first */

/* Only this file makes representations, so a const one is ours to change. */
static rep_t *rep_of(const dmpi_datarep_t *r) { return (rep_t *)(uintptr_t)r; }

const dmpi_datarep_t *dmpi_datarep_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < NBUILTIN; i++)
        if (!strcmp(builtin[i].pub.name, name))
            return &builtin[i].pub;
    for (rep_t *r = user_reps; r; r = r->next)
        if (!strcmp(r->pub.name, name))
            return &r->pub;
    return NULL;
}

int dmpi_datarep_register(const char *name, MPI_Datarep_conversion_function *read,
                          MPI_Datarep_conversion_function *write, MPI_Datarep_conversion_function_c *read_c,
                          MPI_Datarep_conversion_function_c *write_c, MPI_Datarep_extent_function *extent,
                          void *extra_state)
{
    const char *fn = read_c || write_c ? "MPI_Register_datarep_c" : "MPI_Register_datarep";
    size_t len = name ? strlen(name) : 0;
    if (len == 0)
        return dmpi_err(MPI_ERR_ARG, "%s: the name of the data representation is empty", fn);
    if (len >= MPI_MAX_DATAREP_STRING)
        return dmpi_err(MPI_ERR_ARG, "%s: the name of the data representation has %zu characters; at most %d are "
                        "allowed (MPI_MAX_DATAREP_STRING - 1)", fn, len, MPI_MAX_DATAREP_STRING - 1);
    if (!extent)
        return dmpi_err(MPI_ERR_ARG, "%s: the extent function dtype_file_extent_fn is NULL", fn);
    if (dmpi_datarep_find(name))
        return dmpi_err(MPI_ERR_DUP_DATAREP, "%s: the data representation \"%s\" is already defined", fn, name);
    rep_t *r = calloc(1, sizeof *r);
    if (!r)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    memcpy(r->pub.name, name, len + 1);
    r->pub.read = read;
    r->pub.write = write;
    r->pub.read_c = read_c;
    r->pub.write_c = write_c;
    r->pub.extent = extent;
    r->pub.extra_state = extra_state;
    r->pub.builtin = REP_USER;
    r->next = user_reps;
    user_reps = r;
    return MPI_SUCCESS;
}

void dmpi_datarep_finalize(void)
{
    while (user_reps) {
        rep_t *r = user_reps;
        user_reps = r->next;
        free(r->cache);
        free(r);
    }
}

bool dmpi_datarep_converts(const dmpi_datarep_t *rep)
{
    if (rep->builtin == REP_EXTERNAL32)
        return true;
    return rep->builtin == REP_USER && (rep->read || rep->write || rep->read_c || rep->write_c);
}

bool dmpi_datarep_native_layout(const dmpi_datarep_t *rep)
{
    return rep->builtin == REP_NATIVE || rep->builtin == REP_INTERNAL;
}

/* The user's extent function for predefined type t, asked once. */
static int user_extent(const char *fn, rep_t *r, const dmpi_dtype_t *t, MPI_Aint *ext)
{
    for (int i = 0; i < r->ncache; i++)
        if (r->cache[i].type == t->handle) {
            *ext = r->cache[i].ext;
            return MPI_SUCCESS;
        }
    MPI_Aint e = -1;
    int rc = r->pub.extent(t->handle, &e, r->pub.extra_state);
    if (rc != MPI_SUCCESS)
        return dmpi_err(MPI_ERR_CONVERSION, "%s: the extent function of data representation \"%s\" returned error "
                        "%d for datatype %s", fn, r->pub.name, rc, dmpi_dtype_desc(t));
    if (e < 0)
        return dmpi_err(MPI_ERR_CONVERSION, "%s: the extent function of data representation \"%s\" gave the "
                        "negative extent %ld for datatype %s", fn, r->pub.name, (long)e, dmpi_dtype_desc(t));
    if (r->ncache == r->capcache) {
        int cap = r->capcache ? 2 * r->capcache : 16;
        cached_t *c = realloc(r->cache, (size_t)cap * sizeof *c);
        if (!c)
            return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
        r->cache = c;
        r->capcache = cap;
    }
    r->cache[r->ncache++] = (cached_t){t->handle, e};
    *ext = e;
    return MPI_SUCCESS;
}

int dmpi_datarep_item(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *t, MPI_Aint *ext,
                      MPI_Aint *size)
{
    int err;
    switch (rep->builtin) {
    case REP_EXTERNAL32:
        if ((err = dmpi_ext32_size(fn, t, 1, size)) != MPI_SUCCESS)
            return err;
        *ext = *size;
        return MPI_SUCCESS;
    case REP_USER:
        if ((err = user_extent(fn, rep_of(rep), t, ext)) != MPI_SUCCESS)
            return err;
        /* converted items lie back to back, byte aligned, ext bytes each;
         * native bytes keep their size inside the file extent */
        *size = dmpi_datarep_converts(rep) ? *ext : (MPI_Aint)t->size;
        return MPI_SUCCESS;
    default:
        *ext = t->extent;
        *size = (MPI_Aint)t->size;
        return MPI_SUCCESS;
    }
}

/* Sums the file bytes of a typemap's predefined items. */
typedef struct sum {
    const char *fn;
    const dmpi_datarep_t *rep;
    size_t bytes;
    int err;
} sum_t;

static int add_item(void *ctx, dmpi_dtype_t *t, MPI_Aint disp, size_t n)
{
    (void)disp;
    sum_t *s = ctx;
    MPI_Aint ext, size;
    if ((s->err = dmpi_datarep_item(s->fn, s->rep, t, &ext, &size)) != MPI_SUCCESS)
        return s->err;
    s->bytes += n * (size_t)size;
    return 0;
}

int dmpi_datarep_size(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *dt, MPI_Count count,
                      MPI_Count *bytes)
{
    if (rep->builtin == REP_EXTERNAL32) {
        MPI_Aint b;
        int err = dmpi_ext32_size(fn, dt, (size_t)count, &b);
        *bytes = b;
        return err;
    }
    if (!dmpi_datarep_converts(rep) || dt->size == 0) {
        *bytes = count * (MPI_Count)dt->size;   /* native bytes (the api layer checked the product) */
        return MPI_SUCCESS;
    }
    sum_t s = {fn, rep, 0, MPI_SUCCESS};
    if (dt->predefined)
        add_item(&s, (dmpi_dtype_t *)dt, 0, 1);
    else if (dt->basic != MPI_DATATYPE_NULL)    /* all one predefined type: no walk */
        add_item(&s, dmpi_dtype_get(dt->basic), 0, dt->size / dmpi_dtype_get(dt->basic)->size);
    else
        dmpi_dtype_walk(dt, 1, add_item, &s);
    if (s.err != MPI_SUCCESS)
        return s.err;
    if (s.bytes && (uint64_t)count > (uint64_t)INT64_MAX / s.bytes)
        return dmpi_err(MPI_ERR_COUNT, "%s: %lld elements of %zu bytes in data representation \"%s\" do not fit "
                        "in MPI_Count", fn, (long long)count, s.bytes, rep->name);
    *bytes = count * (MPI_Count)s.bytes;
    return MPI_SUCCESS;
}

int dmpi_datarep_extent(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *dt, MPI_Aint *extent)
{
    if (dmpi_datarep_native_layout(rep)) {
        *extent = dt->extent;
        return MPI_SUCCESS;
    }
    if (dt->predefined) {
        MPI_Aint size;
        return dmpi_datarep_item(fn, rep, dt, extent, &size);
    }
    dmpi_dtype_t *ft;
    int err = dmpi_datarep_file_type(fn, rep, (dmpi_dtype_t *)dt, &ft);
    if (err != MPI_SUCCESS)
        return err;
    *extent = ft->extent;
    dmpi_dtype_release(ft);
    return MPI_SUCCESS;
}
