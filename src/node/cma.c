#include "node/cma.h"
#include "core/dmpi.h"
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

/* One call moves at most about 2 GiB; loop for the rest. */
static int cma_copy(pid_t pid, char *local, uint64_t remote, size_t n, bool write)
{
    while (n > 0) {
        struct iovec l = {local, n}, r = {(void *)(uintptr_t)remote, n};
        ssize_t done = write ? process_vm_writev(pid, &l, 1, &r, 1, 0) : process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (done < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (done == 0)
            return EFAULT;
        local += done;
        remote += (uint64_t)done;
        n -= (size_t)done;
    }
    return 0;
}

int dmpi_cma_read(pid_t pid, void *dst, uint64_t addr, size_t n)
{
    return cma_copy(pid, dst, addr, n, false);
}

int dmpi_cma_write(pid_t pid, uint64_t addr, const void *src, size_t n)
{
    return cma_copy(pid, (char *)src, addr, n, true);
}

/* Pieces per side and system call; the kernel takes up to IOV_MAX. */
#define CMA_IOV 256

/* Moves bytes [first, first + n) of the packed stream between a local and
 * a remote typed buffer, in as many pieces as the two layouts need. */
static int cma_typed(pid_t pid, const dmpi_dtype_t *ldt, void *lbase, const dmpi_dtype_t *rdt, uint64_t rbase,
                     size_t first, size_t n, bool write)
{
    struct iovec l[CMA_IOV], r[CMA_IOV];
    while (n > 0) {
        size_t lc, rc;
        int nl = dmpi_dtype_iov(ldt, lbase, first, n, l, CMA_IOV, &lc);
        int nr = dmpi_dtype_iov(rdt, (const void *)(uintptr_t)rbase, first, lc, r, CMA_IOV, &rc);
        if (rc < lc)            /* the remote side needs more pieces: cut the local list to match */
            nl = dmpi_dtype_iov(ldt, lbase, first, rc, l, CMA_IOV, &lc);
        ssize_t done = write ? process_vm_writev(pid, l, (unsigned long)nl, r, (unsigned long)nr, 0)
                             : process_vm_readv(pid, l, (unsigned long)nl, r, (unsigned long)nr, 0);
        if (done < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (done == 0)
            return EFAULT;
        first += (size_t)done;
        n -= (size_t)done;
    }
    return 0;
}

int dmpi_cma_read_typed(pid_t pid, const dmpi_dtype_t *ldt, void *lbase, const dmpi_dtype_t *rdt, uint64_t rbase,
                        size_t first, size_t n)
{
    return cma_typed(pid, ldt, lbase, rdt, rbase, first, n, false);
}

int dmpi_cma_write_typed(pid_t pid, const dmpi_dtype_t *ldt, const void *lbase, const dmpi_dtype_t *rdt,
                         uint64_t rbase, size_t first, size_t n)
{
    return cma_typed(pid, ldt, (void *)lbase, rdt, rbase, first, n, true);
}
