#include "core/info.h"
#include "core/objtable.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void clear(dmpi_info_t *info);

static dmpi_objtable_t infos = {.base = 0x9c000000u};
static dmpi_info_t env_info = {.handle = MPI_INFO_ENV};

dmpi_info_t *dmpi_info_get(MPI_Info h)
{
    if (h == MPI_INFO_ENV)
        return &env_info;
    return dmpi_obj_get(&infos, (uint32_t)h);
}

int dmpi_info_create(MPI_Info *out)
{
    dmpi_info_t *i = calloc(1, sizeof *i);
    uint32_t h = i ? dmpi_obj_add(&infos, i) : 0;
    if (!h) {
        free(i);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Info_create: out of memory");
    }
    i->handle = (MPI_Info)h;
    *out = i->handle;
    return MPI_SUCCESS;
}

static dmpi_info_entry_t **find(dmpi_info_t *info, const char *key)
{
    dmpi_info_entry_t **p = &info->head;
    while (*p && strcmp((*p)->key, key) != 0)
        p = &(*p)->next;
    return p;
}

int dmpi_info_set(dmpi_info_t *info, const char *key, const char *value)
{
    dmpi_info_entry_t **p = find(info, key);
    char *v = strdup(value);
    if (!v)
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Info_set: out of memory");
    if (*p) {                        /* a new value for a key keeps its place */
        free((*p)->value);
        (*p)->value = v;
        return MPI_SUCCESS;
    }
    dmpi_info_entry_t *e = malloc(sizeof *e);
    if (!e || !(e->key = strdup(key))) {
        free(e);
        free(v);
        return dmpi_err(MPI_ERR_NO_MEM, "MPI_Info_set: out of memory");
    }
    e->value = v;
    e->next = NULL;
    *p = e;
    info->nkeys++;
    return MPI_SUCCESS;
}

const char *dmpi_info_lookup(const dmpi_info_t *info, const char *key)
{
    dmpi_info_entry_t *e = *find((dmpi_info_t *)info, key);
    return e ? e->value : NULL;
}

int dmpi_info_delete(dmpi_info_t *info, const char *key)
{
    dmpi_info_entry_t **p = find(info, key), *e = *p;
    if (!e)
        return dmpi_err(MPI_ERR_INFO_NOKEY, "MPI_Info_delete: key '%s' is not set", key);
    *p = e->next;
    free(e->key);
    free(e->value);
    free(e);
    info->nkeys--;
    return MPI_SUCCESS;
}

const char *dmpi_info_nthkey(const dmpi_info_t *info, int n)
{
    dmpi_info_entry_t *e = info->head;
    while (e && n-- > 0)
        e = e->next;
    return e ? e->key : NULL;
}

int dmpi_info_dup(const dmpi_info_t *info, MPI_Info *out)
{
    int err = dmpi_info_create(out);
    for (dmpi_info_entry_t *e = info->head; e && err == MPI_SUCCESS; e = e->next)
        err = dmpi_info_set(dmpi_info_get(*out), e->key, e->value);
    return err;
}

static void clear(dmpi_info_t *info)
{
    while (info->head)
        dmpi_info_delete(info, info->head->key);
}

void dmpi_info_free(dmpi_info_t *info)
{
    clear(info);
    dmpi_obj_remove(&infos, (uint32_t)info->handle);
    free(info);
}

dmpi_info_t *dmpi_info_private(void)
{
    dmpi_info_t *c = calloc(1, sizeof *c);
    if (c)
        c->handle = MPI_INFO_NULL;
    return c;
}

dmpi_info_t *dmpi_info_copy(const dmpi_info_t *info)
{
    if (!info)
        return NULL;
    dmpi_info_t *c = dmpi_info_private();
    if (!c)
        return NULL;
    for (dmpi_info_entry_t *e = info->head; e; e = e->next)
        if (dmpi_info_set(c, e->key, e->value) != MPI_SUCCESS) {
            dmpi_info_drop(c);
            return NULL;
        }
    return c;
}

void dmpi_info_drop(dmpi_info_t *copy)
{
    if (copy) {
        clear(copy);
        free(copy);
    }
}

/* The number of processes the launcher started, before MPI_Init: PMI_SIZE
 * when a PMI launcher is there, otherwise a singleton's 1. */
static int launch_size(void)
{
    const char *fd = getenv("PMI_FD"), *size = getenv("PMI_SIZE");
    if (!fd || !*fd || !size || !*size)
        return 1;
    char *end;
    long n = strtol(size, &end, 10);
    return *end || n < 1 || n > INT32_MAX ? 1 : (int)n;
}

/* The keys MPI reserves for how this process was started: command and argv
 * (from argc/argv, or when argv is NULL from /proc/self/cmdline), maxprocs,
 * host, wdir, and thread_level once MPI_Init has chosen it (thread_level < 0:
 * not known). */
static int fill_env(dmpi_info_t *info, int argc, char *argv[], int thread_level)
{
    char buf[4096], num[32];
    static const char *levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                   "MPI_THREAD_MULTIPLE"};
    int err = MPI_SUCCESS;
    if (argv && argc > 0) {
        if (argv[0])
            err = dmpi_info_set(info, "command", argv[0]);
        size_t n = 0;                /* the arguments, separated by spaces */
        buf[0] = 0;
        for (int i = 1; i < argc && argv[i] && n + 1 < sizeof buf; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i > 1 ? " " : "", argv[i]);
        if (!err && argc > 1)
            err = dmpi_info_set(info, "argv", buf);
    } else {
        FILE *f = fopen("/proc/self/cmdline", "r");
        if (f) {
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
            buf[n] = 0;
            err = dmpi_info_set(info, "command", buf);
            size_t first = strlen(buf) + 1;
            for (size_t i = first; i + 1 < n; i++)
                if (!buf[i])
                    buf[i] = ' ';
            if (!err && first < n)
                err = dmpi_info_set(info, "argv", buf + first);
        }
    }
    snprintf(num, sizeof num, "%d", dmpi_world.size > 0 ? dmpi_world.size : launch_size());
    if (!err)
        err = dmpi_info_set(info, "maxprocs", num);
    const char *host = dmpi_world.processor_name;
    if (!host[0] && gethostname(buf, sizeof buf - 1) == 0) {
        buf[sizeof buf - 1] = 0;
        host = buf;
    }
    if (!err && host[0])
        err = dmpi_info_set(info, "host", host);
    if (!err && getcwd(buf, sizeof buf))
        err = dmpi_info_set(info, "wdir", buf);
    if (!err && thread_level >= 0 && thread_level <= 3)
        err = dmpi_info_set(info, "thread_level", levels[thread_level]);
    return err;
}

/* MPI_INFO_ENV: how this process was started. */
int dmpi_info_init_env(int thread_level)
{
    return fill_env(&env_info, 0, NULL, thread_level);
}

int dmpi_info_create_env(int argc, char *argv[], MPI_Info *out)
{
    int err = dmpi_info_create(out);
    if (err != MPI_SUCCESS)
        return err;
    dmpi_info_t *info = dmpi_info_get(*out);
    err = fill_env(info, argc, argv, dmpi_world.state != DMPI_STATE_NONE ? dmpi_world.thread_level : -1);
    if (err != MPI_SUCCESS) {
        dmpi_info_free(info);
        *out = MPI_INFO_NULL;
    }
    return err;
}

void dmpi_info_finalize(void)
{
    for (int i = 0; i < infos.cap; i++)
        if (infos.slot[i]) {
            clear(infos.slot[i]);
            free(infos.slot[i]);
        }
    dmpi_obj_clear(&infos);
    clear(&env_info);
}
