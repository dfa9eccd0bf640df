#include "tport/shm/segment.h"
#include "core/dmpi.h"
#include "pmi/pmi.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static void segment_name(char *out, size_t len)
{
    /* The launcher removes every /dev/shm/dmpi-<kvsname>* when a job ends. */
    snprintf(out, len, "/dmpi-%s-node0", dmpi_pmi_kvsname());
}

static int check_free_space(size_t bytes)
{
    struct statvfs vfs;
    if (statvfs("/dev/shm", &vfs) != 0)
        return 0;   /* cannot tell; posix_fallocate below still catches it */
    unsigned long long avail = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
    if (avail < bytes) {
        fprintf(stderr,
                "dmpi: /dev/shm has %llu bytes free, but this job needs %zu bytes of shared memory "
                "for %d ranks on the node; enlarge /dev/shm (e.g. docker --shm-size) or set "
                "DMPI_RING_SIZE smaller\n", avail, bytes, dmpi_world.local_size);
        return -1;
    }
    return 0;
}

static shm_seg_hdr_t *create(const char *name, size_t bytes, int local_size, uint64_t ring_size)
{
    if (check_free_space(bytes) != 0)
        return NULL;
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        fprintf(stderr, "dmpi: cannot create shared memory %s: %s\n", name, strerror(errno));
        return NULL;
    }
    int err = ftruncate(fd, (off_t)bytes) != 0 ? errno : posix_fallocate(fd, 0, (off_t)bytes);
    if (err) {
        fprintf(stderr, "dmpi: cannot reserve %zu bytes of shared memory in /dev/shm: %s\n", bytes, strerror(err));
        close(fd);
        shm_unlink(name);
        return NULL;
    }
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        fprintf(stderr, "dmpi: cannot map shared memory: %s\n", strerror(errno));
        shm_unlink(name);
        return NULL;
    }
    shm_seg_hdr_t *h = p;
    h->local_size = (uint32_t)local_size;
    h->ring_size = ring_size;
    h->total_size = bytes;
    h->magic = SHM_MAGIC;
    return h;
}

static shm_seg_hdr_t *attach(const char *name, size_t bytes)
{
    int fd = shm_open(name, O_RDWR, 0600);
    if (fd < 0) {
        fprintf(stderr, "dmpi: cannot open shared memory %s: %s\n", name, strerror(errno));
        return NULL;
    }
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        fprintf(stderr, "dmpi: cannot map shared memory: %s\n", strerror(errno));
        return NULL;
    }
    shm_seg_hdr_t *h = p;
    if (h->magic != SHM_MAGIC || h->total_size != bytes) {
        fprintf(stderr, "dmpi: shared memory %s has an unexpected layout\n", name);
        munmap(p, bytes);
        return NULL;
    }
    return h;
}

shm_seg_hdr_t *dmpi_shm_segment_open(int local_rank, int local_size, uint64_t ring_size, size_t *bytes)
{
    char name[300];
    segment_name(name, sizeof name);
    *bytes = shm_segment_bytes((uint32_t)local_size, ring_size);
    shm_seg_hdr_t *seg = NULL;
    if (local_rank == 0) {
        seg = create(name, *bytes, local_size, ring_size);
        /* Everyone learns whether creation worked, so no rank waits forever. */
        if (dmpi_pmi_put("dmpi-shm-ok", seg ? "1" : "0") != 0)
            return NULL;
    }
    if (dmpi_pmi_barrier() != 0)
        return NULL;
    char val[8] = "0";
    if (dmpi_pmi_get("dmpi-shm-ok", val, sizeof val) != 0 || val[0] != '1') {
        if (seg)
            dmpi_shm_segment_close(seg, *bytes);
        return NULL;
    }
    if (local_rank != 0)
        seg = attach(name, *bytes);
    return seg;
}

void dmpi_shm_segment_unlink(void)
{
    char name[300];
    segment_name(name, sizeof name);
    shm_unlink(name);
}

void dmpi_shm_segment_close(shm_seg_hdr_t *seg, size_t bytes)
{
    if (seg)
        munmap(seg, bytes);
}
