/* The node's shared segment (layout in node/segment.h). */
#include "node/segment.h"
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

node_seg_hdr_t *dmpi_node_seg;
static size_t seg_bytes;
static size_t reserved = (sizeof(node_seg_hdr_t) + 4095) & ~(size_t)4095;   /* grows with reservations */
static bool ranks_placed;

static size_t page_up(size_t n) { return (n + 4095) & ~(size_t)4095; }

/* The rank control blocks come first; they depend on the node's size. */
static void place_ranks(void)
{
    if (ranks_placed)
        return;
    reserved = page_up(sizeof(node_seg_hdr_t) + (size_t)dmpi_world.local_size * sizeof(node_rank_ctl_t));
    ranks_placed = true;
}

size_t dmpi_node_reserve(size_t bytes)
{
    place_ranks();
    size_t at = reserved;
    reserved += page_up(bytes);
    return at;
}

static void segment_name(char *out, size_t len)
{
    /* The launcher removes every /dev/shm/dmpi-<kvsname>* when a job ends. */
    snprintf(out, len, "/dmpi-%s-node%d", dmpi_pmi_kvsname(), dmpi_world.node_id);
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

static node_seg_hdr_t *create(const char *name, size_t bytes, int local_size)
{
    if (check_free_space(bytes) != 0)
        return NULL;
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        fprintf(stderr, "dmpi: cannot create shared memory %s: %s\n", name, strerror(errno));
        return NULL;
    }
    /* The mode asked for above is cut by the umask: say it again, so that a
     * restrictive umask cannot keep the other ranks out. */
    int err = fchmod(fd, 0600) != 0 ? errno : 0;
    if (!err)
        err = ftruncate(fd, (off_t)bytes) != 0 ? errno : posix_fallocate(fd, 0, (off_t)bytes);
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
    node_seg_hdr_t *h = p;
    h->local_size = (uint32_t)local_size;
    h->total_size = bytes;
    h->magic = NODE_SEG_MAGIC;
    return h;
}

static node_seg_hdr_t *attach(const char *name, size_t bytes)
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
    node_seg_hdr_t *h = p;
    if (h->magic != NODE_SEG_MAGIC || h->total_size != bytes) {
        fprintf(stderr, "dmpi: shared memory %s has an unexpected layout\n", name);
        munmap(p, bytes);
        return NULL;
    }
    return h;
}

static void segment_unlink(void)
{
    char name[300];
    segment_name(name, sizeof name);
    shm_unlink(name);
}

int dmpi_node_segment_open(void)
{
    int local_rank = dmpi_world.local_rank, local_size = dmpi_world.local_size;
    char name[300], ok_key[48];
    segment_name(name, sizeof name);
    snprintf(ok_key, sizeof ok_key, "dmpi-shm-ok-%d", dmpi_world.node_id);
    place_ranks();
    seg_bytes = reserved;
    node_seg_hdr_t *seg = NULL;
    if (local_rank == 0) {
        seg = create(name, seg_bytes, local_size);
        /* Everyone learns whether creation worked, so no rank waits forever. */
        if (dmpi_pmi_put(ok_key, seg ? "1" : "0") != 0)
            return -1;
    }
    if (dmpi_pmi_barrier() != 0)
        return -1;
    char val[8] = "0";
    if (dmpi_pmi_get(ok_key, val, sizeof val) != 0 || val[0] != '1') {
        if (seg)
            munmap(seg, seg_bytes);
        return -1;
    }
    if (local_rank != 0 && !(seg = attach(name, seg_bytes)))
        return -1;
    dmpi_node_seg = seg;
    atomic_fetch_add(&seg->attached, 1);
    if (dmpi_pmi_barrier() != 0)
        return -1;
    if (local_rank == 0)
        segment_unlink();           /* every rank has it mapped now */
    if (atomic_load(&seg->attached) != (uint32_t)local_size) {
        fprintf(stderr, "dmpi: not every rank on the node mapped the shared memory\n");
        return -1;
    }
    return 0;
}

void dmpi_node_segment_close(void)
{
    if (dmpi_node_seg)
        munmap(dmpi_node_seg, seg_bytes);
    dmpi_node_seg = NULL;
    ranks_placed = false;
    reserved = page_up(sizeof(node_seg_hdr_t));
}
