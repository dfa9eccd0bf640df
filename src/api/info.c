/* Info objects. */
#include "api/api.h"
#include "core/info.h"
#include <string.h>

DMPI_ALIAS(Info_create)
DMPI_ALIAS(Info_set)
DMPI_ALIAS(Info_get)
DMPI_ALIAS(Info_get_string)
DMPI_ALIAS(Info_get_valuelen)
DMPI_ALIAS(Info_get_nkeys)
DMPI_ALIAS(Info_get_nthkey)
DMPI_ALIAS(Info_delete)
DMPI_ALIAS(Info_dup)
DMPI_ALIAS(Info_free)
DMPI_ALIAS(Info_create_env)

static int check_info(const char *fn, MPI_Info h, bool writable, dmpi_info_t **info)
{
    if (!(*info = dmpi_info_get(h)))
        return dmpi_err(MPI_ERR_INFO, "%s: invalid info object 0x%x%s", fn, (unsigned)h,
                        h == MPI_INFO_NULL ? " (MPI_INFO_NULL)" : "");
    if (writable && h == MPI_INFO_ENV)
        return dmpi_err(MPI_ERR_INFO, "%s: MPI_INFO_ENV cannot be changed", fn);
    return MPI_SUCCESS;
}

static int check_key(const char *fn, const char *key)
{
    if (!key)
        return dmpi_err(MPI_ERR_INFO_KEY, "%s: key is NULL", fn);
    size_t n = strlen(key);
    if (n == 0 || n > MPI_MAX_INFO_KEY)
        return dmpi_err(MPI_ERR_INFO_KEY, "%s: a key must have 1 to %d characters, this one has %zu", fn,
                        MPI_MAX_INFO_KEY, n);
    return MPI_SUCCESS;
}

int PMPI_Info_create(MPI_Info *info)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_create";
    int err;
    if ((err = dmpi_check_ptr(fn, info, "info")) || (err = dmpi_info_create(info)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_set";
    dmpi_info_t *i;
    int err;
    if ((err = check_info(fn, info, true, &i)) || (err = check_key(fn, key)))
        return dmpi_api_error(NULL, fn, err);
    if (!value || strlen(value) > MPI_MAX_INFO_VAL)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_INFO_VALUE, "%s: the value for '%s' is %s", fn, key,
                                                 value ? "longer than MPI_MAX_INFO_VAL" : "NULL"));
    if ((err = dmpi_info_set(i, key, value)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_get";
    dmpi_info_t *i;
    int err;
    if ((err = check_info(fn, info, false, &i)) || (err = check_key(fn, key)) ||
        (err = dmpi_check_ptr(fn, flag, "flag")) || (err = dmpi_check_ptr(fn, value, "value")))
        return dmpi_api_error(NULL, fn, err);
    if (valuelen < 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: negative valuelen %d", fn, valuelen));
    const char *v = dmpi_info_lookup(i, key);
    *flag = v != NULL;
    if (v) {                         /* at most valuelen characters, then the NUL */
        size_t n = strlen(v) < (size_t)valuelen ? strlen(v) : (size_t)valuelen;
        memcpy(value, v, n);
        value[n] = 0;
    }
    return MPI_SUCCESS;
}

int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_get_string";
    dmpi_info_t *i;
    int err;
    if ((err = check_info(fn, info, false, &i)) || (err = check_key(fn, key)) ||
        (err = dmpi_check_ptr(fn, buflen, "buflen")) || (err = dmpi_check_ptr(fn, flag, "flag")))
        return dmpi_api_error(NULL, fn, err);
    const char *v = dmpi_info_lookup(i, key);
    *flag = v != NULL;
    if (!v)
        return MPI_SUCCESS;
    int need = (int)strlen(v) + 1;
    if (*buflen > 0) {               /* as much as fits, always NUL-terminated */
        if (!value)
            return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: value is NULL", fn));
        int n = need <= *buflen ? need - 1 : *buflen - 1;
        memcpy(value, v, (size_t)n);
        value[n] = 0;
    }
    *buflen = need;
    return MPI_SUCCESS;
}

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_get_valuelen";
    dmpi_info_t *i;
    int err;
    if ((err = check_info(fn, info, false, &i)) || (err = check_key(fn, key)) ||
        (err = dmpi_check_ptr(fn, valuelen, "valuelen")) || (err = dmpi_check_ptr(fn, flag, "flag")))
        return dmpi_api_error(NULL, fn, err);
    const char *v = dmpi_info_lookup(i, key);
    *flag = v != NULL;
    if (v)
        *valuelen = (int)strlen(v);
    return MPI_SUCCESS;
}

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_get_nkeys";
    dmpi_info_t *i;
    int err;
    if ((err = check_info(fn, info, false, &i)) || (err = dmpi_check_ptr(fn, nkeys, "nkeys")))
        return dmpi_api_error(NULL, fn, err);
    *nkeys = i->nkeys;
    return MPI_SUCCESS;
}

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_get_nthkey";
    dmpi_info_t *i;
    int err;
    if ((err = check_info(fn, info, false, &i)) || (err = dmpi_check_ptr(fn, key, "key")))
        return dmpi_api_error(NULL, fn, err);
    if (n < 0 || n >= i->nkeys)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: n = %d, but the info object has %d keys", fn, n,
                                                 i->nkeys));
    strcpy(key, dmpi_info_nthkey(i, n));
    return MPI_SUCCESS;
}

int PMPI_Info_delete(MPI_Info info, const char *key)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_delete";
    dmpi_info_t *i;
    int err;
    if ((err = check_info(fn, info, true, &i)) || (err = check_key(fn, key)) || (err = dmpi_info_delete(i, key)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_dup";
    dmpi_info_t *i;
    int err;
    if ((err = check_info(fn, info, false, &i)) || (err = dmpi_check_ptr(fn, newinfo, "newinfo")) ||
        (err = dmpi_info_dup(i, newinfo)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Info_free(MPI_Info *info)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_free";
    dmpi_info_t *i;
    int err;
    if ((err = dmpi_check_ptr(fn, info, "info")) || (err = check_info(fn, *info, true, &i)))
        return dmpi_api_error(NULL, fn, err);
    dmpi_info_free(i);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

/* Like MPI_Info_create, callable before MPI_Init and after MPI_Finalize. */
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Info_create_env";
    int err;
    if ((err = dmpi_check_ptr(fn, info, "info")))
        return dmpi_api_error(NULL, fn, err);
    if (argc < 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: negative argc %d", fn, argc));
    if ((err = dmpi_info_create_env(argc, argv, info)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}
