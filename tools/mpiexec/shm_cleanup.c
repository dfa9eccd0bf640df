/* At exit, remove every /dev/shm entry the job may have left behind. The
 * library names its segments "dmpi-<kvsname>..." (and normally unlinks them
 * itself once all ranks attached); a crash can leave them, so we sweep.
 * POSIX semaphores live there as "sem.<name>". */
#include "mpiexec.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int has_prefix(const char *s, const char *prefix)
{
    return prefix[0] && strncmp(s, prefix, strlen(prefix)) == 0;
}

void mpx_shm_cleanup(const char *kvsname)
{
    char prefix[4][MPX_KVSNAME_MAX + 16];
    if (!kvsname || !*kvsname)
        return;
    snprintf(prefix[0], sizeof prefix[0], "dmpi-%s", kvsname);
    snprintf(prefix[1], sizeof prefix[1], "%s", kvsname);
    snprintf(prefix[2], sizeof prefix[2], "sem.dmpi-%s", kvsname);
    snprintf(prefix[3], sizeof prefix[3], "sem.%s", kvsname);

    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        for (int i = 0; i < 4; i++) {
            if (has_prefix(e->d_name, prefix[i])) {
                unlinkat(dirfd(d), e->d_name, 0);
                break;
            }
        }
    }
    closedir(d);
}
