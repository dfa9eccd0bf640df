/* The memory domain of this process, read from sysfs: a CPU's NUMA node is
 * the nodeN entry under /sys/devices/system/cpu/cpuK/, its socket is
 * topology/physical_package_id. */
#include "node/topo.h"
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int numa_of_cpu(int cpu)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d", cpu);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int node = -1;
    for (struct dirent *e; (e = readdir(d));)
        if (strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' && e->d_name[4] <= '9') {
            node = atoi(e->d_name + 4);
            break;
        }
    closedir(d);
    return node;
}

static int socket_of_cpu(int cpu)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
    FILE *f = fopen(path, "r");
    int s = -1;
    if (f) {
        if (fscanf(f, "%d", &s) != 1)
            s = -1;
        fclose(f);
    }
    return s;
}

/* The one domain all CPUs of the mask share under f, or -1. */
static int common_domain(const cpu_set_t *set, int (*f)(int))
{
    int dom = -2;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, set))
            continue;
        int d = f(cpu);
        if (d < 0 || (dom != -2 && d != dom))
            return -1;
        dom = d;
    }
    return dom < 0 ? -1 : dom;
}

int dmpi_node_domain_of_self(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    int d = common_domain(&set, numa_of_cpu);
    return d >= 0 ? d : common_domain(&set, socket_of_cpu);
}
