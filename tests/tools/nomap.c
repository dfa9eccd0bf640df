/* Preloaded into a program to refuse it the file descriptors of other
 * processes: open("/proc/<pid>/fd/<n>") fails with EACCES, as a hardened
 * /proc would make it. Everything else is opened as usual. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>

static int refused(const char *path)
{
    return strncmp(path, "/proc/", 6) == 0 && strstr(path, "/fd/") != NULL;
}

static int pass_on(const char *name, const char *path, int flags, va_list ap)
{
    int (*next)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
    return next(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
    if (refused(path)) {
        errno = EACCES;
        return -1;
    }
    va_list ap;
    va_start(ap, flags);
    int fd = pass_on("open", path, flags, ap);
    va_end(ap);
    return fd;
}

int open64(const char *path, int flags, ...)
{
    if (refused(path)) {
        errno = EACCES;
        return -1;
    }
    va_list ap;
    va_start(ap, flags);
    int fd = pass_on("open64", path, flags, ap);
    va_end(ap);
    return fd;
}
