#include "tport/smsc/cma.h"
#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

static volatile uint64_t probe_word;

uint64_t dmpi_cma_probe_value(pid_t pid) { return 0x636d612d70726f62ull ^ (uint64_t)pid; }

uint64_t dmpi_cma_probe_addr(void)
{
    probe_word = dmpi_cma_probe_value(getpid());
    return (uint64_t)(uintptr_t)&probe_word;
}

bool dmpi_cma_verify(pid_t pid, uint64_t probe_addr)
{
    uint64_t v = 0;
    return dmpi_cma_read(pid, &v, probe_addr, sizeof v) == 0 && v == dmpi_cma_probe_value(pid);
}

int dmpi_cma_read(pid_t pid, void *dst, uint64_t addr, size_t n)
{
    char *d = dst;
    while (n > 0) {
        /* One call moves at most about 2 GiB; loop for the rest. */
        struct iovec local = {d, n}, remote = {(void *)(uintptr_t)addr, n};
        ssize_t got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (got == 0)
            return EFAULT;
        d += got;
        addr += (uint64_t)got;
        n -= (size_t)got;
    }
    return 0;
}

int dmpi_cma_write(pid_t pid, uint64_t addr, const void *src, size_t n)
{
    const char *s = src;
    while (n > 0) {
        struct iovec local = {(void *)s, n}, remote = {(void *)(uintptr_t)addr, n};
        ssize_t put = process_vm_writev(pid, &local, 1, &remote, 1, 0);
        if (put < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (put == 0)
            return EFAULT;
        s += put;
        addr += (uint64_t)put;
        n -= (size_t)put;
    }
    return 0;
}
