/* A tiny PMI-1 client for the launcher tests: the library's own PMI code
 * (src/pmi/pmi.c is compiled into this program) driven by a mode word.
 *
 *   pmi_client kvs [ROUNDS]      put/barrier/get exchange among all ranks, ROUNDS times
 *   pmi_client info              print rank, size, appnum, universe size, kvsname, local rank/size
 *   pmi_client exit CODE R       rank R exits with CODE (after init), the others sleep
 *   pmi_client kill R            rank R kills itself with SIGKILL, the others sleep
 *   pmi_client abort CODE R      rank R calls dmpi_pmi_abort(CODE), the others sleep
 *   pmi_client nofinalize R      rank R exits 0 without finalize, the others sleep
 *   pmi_client sleep SECS        init, sleep, finalize
 *   pmi_client pieces N          write N lines, each in three write() calls
 *   pmi_client shm               create /dev/shm/dmpi-<kvsname>-test and leave it behind
 *   pmi_client badkey            check that invalid keys and values are refused
 * Every mode prints "rank R: ok" on success (except the sleepers). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "pmi/pmi.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size, appnum;

static void die(const char *what)
{
    fprintf(stderr, "pmi_client rank %d: %s failed\n", rank, what);
    exit(99);
}

static void finalize_and_exit(void)
{
    if (dmpi_pmi_finalize() != 0)
        die("finalize");
    exit(0);
}

static void sleep_forever(void)
{
    for (;;)
        pause();
}

static int mode_kvs(int rounds)
{
    char key[DMPI_PMI_KEY_MAX], val[DMPI_PMI_VAL_MAX], want[DMPI_PMI_VAL_MAX];
    for (int round = 0; round < rounds; round++) {
        snprintf(key, sizeof key, "key-%d-%d", round, rank);
        snprintf(val, sizeof val, "value=%d:%d:%s", round, rank, dmpi_pmi_kvsname());
        if (dmpi_pmi_put(key, val) != 0)
            die("put");
        if (dmpi_pmi_barrier() != 0)
            die("barrier");
        for (int i = 0; i < size; i++) {
            int peer = (rank + i) % size;
            snprintf(key, sizeof key, "key-%d-%d", round, peer);
            snprintf(want, sizeof want, "value=%d:%d:%s", round, peer, dmpi_pmi_kvsname());
            if (dmpi_pmi_get(key, val, sizeof val) != 0)
                die("get");
            if (strcmp(val, want) != 0) {
                fprintf(stderr, "rank %d: got '%s' for %s, want '%s'\n", rank, val, key, want);
                exit(98);
            }
        }
    }
    /* An absent key is reported as such, quietly with try_get. */
    if (dmpi_pmi_try_get("no-such-key", val, sizeof val) != 1)
        die("try_get of an absent key");
    /* A long value survives the round trip. */
    memset(val, 'v', DMPI_PMI_VAL_MAX - 1);
    val[DMPI_PMI_VAL_MAX - 1] = '\0';
    snprintf(key, sizeof key, "long-%d", rank);
    if (dmpi_pmi_put(key, val) != 0 || dmpi_pmi_barrier() != 0)
        die("long put");
    snprintf(key, sizeof key, "long-%d", (rank + 1) % size);
    if (dmpi_pmi_get(key, want, sizeof want) != 0 || strcmp(val, want) != 0)
        die("long get");
    if (dmpi_pmi_barrier() != 0)
        die("final barrier");
    printf("rank %d: ok %d rounds of %d\n", rank, rounds, size);
    return 0;
}

static int mode_badkey(void)
{
    char val[16];
    if (dmpi_pmi_put("has space", "x") != -1 || dmpi_pmi_put("k", "has space") != -1 ||
        dmpi_pmi_put("", "x") != -1 || dmpi_pmi_put("a=b", "x") != -1)
        die("refusing bad keys");
    char longkey[DMPI_PMI_KEY_MAX + 1];
    memset(longkey, 'k', DMPI_PMI_KEY_MAX);
    longkey[DMPI_PMI_KEY_MAX] = '\0';
    if (dmpi_pmi_put(longkey, "x") != -1)
        die("refusing a long key");
    if (dmpi_pmi_put("short", "0123456789abcdef") != 0 || dmpi_pmi_barrier() != 0)
        die("put");
    if (dmpi_pmi_get("short", val, sizeof val) != -1)
        die("refusing a value too long for the buffer");
    printf("rank %d: ok\n", rank);
    return 0;
}

static void write_str(const char *s)
{
    ssize_t n = write(1, s, strlen(s));
    (void)n;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "info";
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (dmpi_pmi_init(&rank, &size, &appnum) != 0)
        die("init");
    int target = -1;

    if (strcmp(mode, "kvs") == 0) {
        mode_kvs(argc > 2 ? atoi(argv[2]) : 1);
        finalize_and_exit();
    } else if (strcmp(mode, "badkey") == 0) {
        mode_badkey();
        finalize_and_exit();
    } else if (strcmp(mode, "info") == 0) {
        int usize = 0;
        if (dmpi_pmi_universe_size(&usize) != 0)
            die("universe_size");
        const char *lr = getenv("DMPI_LOCAL_RANK"), *ls = getenv("DMPI_LOCAL_SIZE");
        printf("rank=%d size=%d appnum=%d usize=%d kvsname=%s singleton=%d local_rank=%s local_size=%s\n",
               rank, size, appnum, usize, dmpi_pmi_kvsname(), dmpi_pmi_is_singleton(),
               lr ? lr : "-", ls ? ls : "-");
        finalize_and_exit();
    } else if (strcmp(mode, "mapping") == 0) {
        char map[1024];
        if (dmpi_pmi_get("PMI_process_mapping", map, sizeof map) != 0)
            die("get PMI_process_mapping");
        printf("rank=%d local=%s/%s mapping=%s\n", rank, getenv("DMPI_LOCAL_RANK"), getenv("DMPI_LOCAL_SIZE"), map);
        finalize_and_exit();
    } else if (strcmp(mode, "exit") == 0 && argc > 3) {
        target = atoi(argv[3]);
        if (rank == target)
            exit(atoi(argv[2]));
        sleep_forever();
    } else if (strcmp(mode, "kill") == 0 && argc > 2) {
        target = atoi(argv[2]);
        if (rank == target)
            raise(SIGKILL);
        sleep_forever();
    } else if (strcmp(mode, "abort") == 0 && argc > 3) {
        target = atoi(argv[3]);
        if (rank == target) {
            dmpi_pmi_abort(atoi(argv[2]), "test abort");
            die("abort returned");
        }
        sleep_forever();
    } else if (strcmp(mode, "nofinalize") == 0 && argc > 2) {
        target = atoi(argv[2]);
        if (rank == target)
            exit(0);
        sleep_forever();
    } else if (strcmp(mode, "sleep") == 0 && argc > 2) {
        sleep((unsigned)atoi(argv[2]));
        finalize_and_exit();
    } else if (strcmp(mode, "pieces") == 0 && argc > 2) {
        int n = atoi(argv[2]);
        char buf[64];
        for (int i = 0; i < n; i++) {
            write_str("line ");
            snprintf(buf, sizeof buf, "from %d", rank);
            write_str(buf);
            snprintf(buf, sizeof buf, " number %d\n", i);
            write_str(buf);
        }
        finalize_and_exit();
    } else if (strcmp(mode, "spawn") == 0 && argc > 3) {
        /* rank 0 spawns argv[2] processes of argv[3] argv[4]...; everyone finalizes */
        if (rank == 0) {
            char err[512];
            dmpi_pmi_spawn_t s = {argv[3], argv + 4, atoi(argv[2]), 0, NULL, NULL};
            if (dmpi_pmi_spawn(1, &s, "PARENT_ROOT_PORT_NAME", "none", err, sizeof err) == 0)
                printf("spawn ok\n");
            else
                printf("spawn failed: %s\n", err);
        }
        finalize_and_exit();
    } else if (strcmp(mode, "spawned") == 0) {
        const char *sp = getenv("PMI_SPAWNED");
        char port[64] = "";
        if (dmpi_pmi_get("PARENT_ROOT_PORT_NAME", port, sizeof port) != 0)
            die("get PARENT_ROOT_PORT_NAME");
        printf("child rank=%d size=%d spawned=%s port=%s kvsname=%s\n", rank, size, sp ? sp : "-", port,
               dmpi_pmi_kvsname());
        mode_kvs(1);
        finalize_and_exit();
    } else if (strcmp(mode, "shm") == 0) {
        char path[512];
        snprintf(path, sizeof path, "/dev/shm/dmpi-%s-test-%d", dmpi_pmi_kvsname(), rank);
        int fd = open(path, O_CREAT | O_RDWR, 0600);
        if (fd < 0)
            die("creating a /dev/shm entry");
        close(fd);
        printf("%s\n", path);
        finalize_and_exit();
    }
    fprintf(stderr, "pmi_client: unknown mode or missing arguments: %s\n", mode);
    return 2;
}
