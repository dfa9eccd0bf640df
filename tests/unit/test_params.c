/* The table of tunables (core/params.c):
 *   - with no DMPI_* variables every parameter has its documented default,
 *     and the table lists each with a name, default and doc line;
 *   - sizes take K/M/G suffixes (either case); integers, seconds and the
 *     SHM_PATH names (auto, eager, copy, cma; any case) are read;
 *   - an invalid value makes dmpi_params_load return -1 after a message that
 *     names the variable and the value, for every parameter;
 *   - values that would not fit (a size overflowing 64 bits through its
 *     suffix, an integer beyond int) are invalid too, not silently wrapped;
 *   - every load starts from the defaults again. */
#include "core/params.h"
#include "unit.h"
#include <stdbool.h>
#include <string.h>
#include <strings.h>

extern char **environ;

/* Runs dmpi_params_load with stderr caught in `msg`. */
static int load_quiet(char *msg, size_t len)
{
    fflush(stderr);
    FILE *f = tmpfile();
    int saved = dup(2);
    if (!f || saved < 0) {
        fprintf(stderr, "cannot redirect stderr\n");
        exit(2);
    }
    dup2(fileno(f), 2);
    int rc = dmpi_params_load();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    size_t n = fread(msg, 1, len - 1, f);
    msg[n] = 0;
    fclose(f);
    return rc;
}

static void clear_env(void)
{
    /* unsetenv changes environ: start over after each removal */
    for (bool again = true; again;) {
        again = false;
        for (char **e = environ; *e; e++)
            if (strncmp(*e, "DMPI_", 5) == 0) {
                char name[256];
                size_t n = strcspn(*e, "=");
                if (n >= sizeof name)
                    n = sizeof name - 1;
                memcpy(name, *e, n);
                name[n] = 0;
                unsetenv(name);
                again = true;
                break;
            }
    }
}

/* Sets one variable (the others unset) and loads. */
static int load_with(const char *var, const char *value, char *msg, size_t len)
{
    clear_env();
    setenv(var, value, 1);
    return load_quiet(msg, len);
}

static int find_param(const char *want, char *cur, size_t curlen)
{
    const char *name, *dflt, *doc;
    for (int i = 0; dmpi_param_describe(i, &name, &dflt, &doc, cur, curlen); i++)
        if (strcmp(name, want) == 0)
            return i;
    return -1;
}

static void test_defaults(void)
{
    char msg[1024], cur[64];
    clear_env();
    CHECK(load_quiet(msg, sizeof msg) == 0 && msg[0] == 0, "load without variables failed or printed '%s'", msg);
    CHECK(dmpi_params.ring_size == 0 && dmpi_params.frag_size == 0, "RING_SIZE/FRAG_SIZE default not 0 (auto)");
    CHECK(dmpi_params.shm_path == DMPI_PATH_AUTO, "SHM_PATH default %d, want auto", dmpi_params.shm_path);
    CHECK(dmpi_params.verbose == 0, "VERBOSE default not 0");
    CHECK(dmpi_params.hang_timeout == 300, "HANG_TIMEOUT default %g, want 300 s", dmpi_params.hang_timeout);
    CHECK(dmpi_params.eager_limit > 0 && dmpi_params.cma_min > 0 && dmpi_params.spin_count > 0,
          "EAGER_LIMIT %zu, CMA_MIN %zu, SPIN_COUNT %d: want positive defaults", dmpi_params.eager_limit,
          dmpi_params.cma_min, dmpi_params.spin_count);

    /* The table: each entry named, documented, and its current value
     * (after a load without variables) is its default. */
    const char *name, *dflt, *doc;
    int n = 0, bad = 0;
    for (int i = 0; dmpi_param_describe(i, &name, &dflt, &doc, cur, sizeof cur); i++, n++) {
        if (!name || !*name || !dflt || !*dflt || !doc || strlen(doc) < 10)
            NOTE(bad, "entry %d: missing name, default or doc", i);
        else if (strcmp(cur, dflt) != 0)
            NOTE(bad, "%s: current value '%s' after loading defaults, default '%s'", name, cur, dflt);
        for (int j = 0; j < i; j++) {
            const char *n2, *d2, *doc2;
            char c2[64];
            dmpi_param_describe(j, &n2, &d2, &doc2, c2, sizeof c2);
            if (name && n2 && strcmp(name, n2) == 0)
                NOTE(bad, "two entries named %s", name);
        }
    }
    CHECK(bad == 0, "%d problems in the parameter table", bad);
    static const char *const expected[] = {"EAGER_LIMIT", "CMA_MIN", "RING_SIZE", "FRAG_SIZE",
                                           "SHM_PATH", "SPIN_COUNT", "HANG_TIMEOUT", "VERBOSE"};
    int missing = 0;
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        if (find_param(expected[i], cur, sizeof cur) < 0)
            NOTE(missing, "no parameter %s", expected[i]);
    CHECK(missing == 0 && n >= 8, "%d parameters missing from a table of %d", missing, n);
    CHECK(!dmpi_param_describe(n, &name, &dflt, &doc, cur, sizeof cur) &&
          !dmpi_param_describe(-1, &name, &dflt, &doc, cur, sizeof cur), "describe past the ends");
}

static void test_sizes(void)
{
    static const struct { const char *text; size_t want; } ok[] = {
        {"0", 0}, {"4096", 4096}, {"007", 7}, {"64k", 64 << 10}, {"64K", 64 << 10}, {"2m", 2 << 20},
        {"3M", 3 << 20}, {"1g", 1 << 30}, {"2G", (size_t)2 << 30}, {"16777215G", (size_t)16777215 << 30},
        {"18446744073709551615", (size_t)-1},
    };
    char msg[1024];
    int bad = 0;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int rc = load_with("DMPI_EAGER_LIMIT", ok[i].text, msg, sizeof msg);
        if (rc != 0 || dmpi_params.eager_limit != ok[i].want)
            NOTE(bad, "EAGER_LIMIT=%s: rc %d, value %zu, want %zu", ok[i].text, rc, dmpi_params.eager_limit,
                 ok[i].want);
    }
    CHECK(bad == 0, "%d valid sizes misread", bad);

    static const char *const invalid[] = {"", "abc", "-5", "12x", "1.5K", "16KB", "0x10", "k", "5 ", "K5",
                                          "99999999999999999999", "1e6"};
    bad = 0;
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        int rc = load_with("DMPI_RING_SIZE", invalid[i], msg, sizeof msg);
        if (rc != -1 || !strstr(msg, "DMPI_RING_SIZE") || !strstr(msg, invalid[i]))
            NOTE(bad, "RING_SIZE='%s': rc %d (value %zu), message '%s'", invalid[i], rc, dmpi_params.ring_size, msg);
    }
    CHECK(bad == 0, "%d invalid sizes accepted or rejected without naming the variable and value", bad);

    /* Values that do not fit must not wrap around into something small. */
    static const char *const overflow[] = {"17179869184G", "18446744073709551615K", "18014398509481984M"};
    bad = 0;
    for (size_t i = 0; i < sizeof overflow / sizeof overflow[0]; i++) {
        int rc = load_with("DMPI_EAGER_LIMIT", overflow[i], msg, sizeof msg);
        if (rc != -1)
            NOTE(bad, "EAGER_LIMIT=%s accepted as %zu", overflow[i], dmpi_params.eager_limit);
    }
    CHECK(bad == 0, "%d sizes overflowing through their suffix were accepted (wrapped)", bad);
    int rc = load_with("DMPI_FRAG_SIZE", " -5", msg, sizeof msg);
    CHECK(rc == -1, "FRAG_SIZE=' -5' (a blank, then a minus) accepted as %zu", dmpi_params.frag_size);
}

static void test_ints_and_seconds(void)
{
    char msg[1024];
    CHECK(load_with("DMPI_SPIN_COUNT", "1000", msg, sizeof msg) == 0 && dmpi_params.spin_count == 1000,
          "SPIN_COUNT=1000 read as %d", dmpi_params.spin_count);
    CHECK(load_with("DMPI_VERBOSE", "2", msg, sizeof msg) == 0 && dmpi_params.verbose == 2, "VERBOSE=2");
    static const char *const bad_ints[] = {"", "ten", "10x", "1.5", "2k"};
    int bad = 0;
    for (size_t i = 0; i < sizeof bad_ints / sizeof bad_ints[0]; i++)
        if (load_with("DMPI_SPIN_COUNT", bad_ints[i], msg, sizeof msg) != -1 || !strstr(msg, "DMPI_SPIN_COUNT"))
            NOTE(bad, "SPIN_COUNT='%s' accepted (%d)", bad_ints[i], dmpi_params.spin_count);
    CHECK(bad == 0, "%d invalid integers accepted", bad);
    int rc = load_with("DMPI_SPIN_COUNT", "4294967396", msg, sizeof msg);
    CHECK(rc == -1, "SPIN_COUNT=4294967396 (beyond int) accepted as %d", dmpi_params.spin_count);

    CHECK(load_with("DMPI_HANG_TIMEOUT", "2.5", msg, sizeof msg) == 0 && dmpi_params.hang_timeout == 2.5,
          "HANG_TIMEOUT=2.5 read as %g", dmpi_params.hang_timeout);
    CHECK(load_with("DMPI_HANG_TIMEOUT", "1e3", msg, sizeof msg) == 0 && dmpi_params.hang_timeout == 1000,
          "HANG_TIMEOUT=1e3 read as %g", dmpi_params.hang_timeout);
    static const char *const bad_secs[] = {"-1", "", "soon", "5s"};
    bad = 0;
    for (size_t i = 0; i < sizeof bad_secs / sizeof bad_secs[0]; i++)
        if (load_with("DMPI_HANG_TIMEOUT", bad_secs[i], msg, sizeof msg) != -1 || !strstr(msg, "DMPI_HANG_TIMEOUT"))
            NOTE(bad, "HANG_TIMEOUT='%s' accepted (%g)", bad_secs[i], dmpi_params.hang_timeout);
    CHECK(bad == 0, "%d invalid timeouts accepted", bad);
}

static void test_paths(void)
{
    static const struct { const char *text; int want; } ok[] = {
        {"auto", DMPI_PATH_AUTO}, {"eager", DMPI_PATH_EAGER}, {"copy", DMPI_PATH_COPY}, {"cma", DMPI_PATH_CMA},
        {"CMA", DMPI_PATH_CMA},   {"Eager", DMPI_PATH_EAGER}, {"AUTO", DMPI_PATH_AUTO},
    };
    char msg[1024], cur[64];
    int bad = 0;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int rc = load_with("DMPI_SHM_PATH", ok[i].text, msg, sizeof msg);
        int idx = find_param("SHM_PATH", cur, sizeof cur);
        if (rc != 0 || dmpi_params.shm_path != ok[i].want || idx < 0 || strcasecmp(cur, ok[i].text) != 0)
            NOTE(bad, "SHM_PATH=%s: rc %d, path %d (shown as '%s'), want %d", ok[i].text, rc, dmpi_params.shm_path,
                 cur, ok[i].want);
    }
    CHECK(bad == 0, "%d path names misread", bad);
    static const char *const invalid[] = {"", "fast", "cma ", "xpmem", "1"};
    bad = 0;
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++)
        if (load_with("DMPI_SHM_PATH", invalid[i], msg, sizeof msg) != -1 || !strstr(msg, "DMPI_SHM_PATH"))
            NOTE(bad, "SHM_PATH='%s' accepted (%d)", invalid[i], dmpi_params.shm_path);
    CHECK(bad == 0, "%d invalid path names accepted", bad);
}

/* Every parameter rejects garbage, naming itself. */
static void test_every_param_validates(void)
{
    const char *name, *dflt, *doc;
    char cur[64], msg[1024], var[80];
    int bad = 0;
    for (int i = 0; dmpi_param_describe(i, &name, &dflt, &doc, cur, sizeof cur); i++) {
        snprintf(var, sizeof var, "DMPI_%s", name);
        if (load_with(var, "not-a-value!", msg, sizeof msg) != -1 || !strstr(msg, var) ||
            !strstr(msg, "not-a-value!"))
            NOTE(bad, "%s=not-a-value! accepted or message '%s'", var, msg);
    }
    CHECK(bad == 0, "%d parameters accept garbage", bad);
}

/* A load starts from the defaults: nothing stays from an earlier load. */
static void test_reload(void)
{
    char msg[1024];
    clear_env();
    load_quiet(msg, sizeof msg);
    size_t eager = dmpi_params.eager_limit;
    int spin = dmpi_params.spin_count;
    clear_env();
    setenv("DMPI_EAGER_LIMIT", "1k", 1);
    setenv("DMPI_SPIN_COUNT", "7", 1);
    setenv("DMPI_SHM_PATH", "copy", 1);
    setenv("DMPI_RING_SIZE", "1M", 1);
    CHECK(load_quiet(msg, sizeof msg) == 0 && dmpi_params.eager_limit == 1024 && dmpi_params.spin_count == 7 &&
          dmpi_params.shm_path == DMPI_PATH_COPY && dmpi_params.ring_size == (1 << 20),
          "several variables at once");
    clear_env();
    CHECK(load_quiet(msg, sizeof msg) == 0 && dmpi_params.eager_limit == eager && dmpi_params.spin_count == spin &&
          dmpi_params.shm_path == DMPI_PATH_AUTO && dmpi_params.ring_size == 0,
          "values of an earlier load survive a load without variables");
    /* Unrelated DMPI_ variables are ignored. */
    setenv("DMPI_NOT_A_PARAMETER", "xyz", 1);
    CHECK(load_quiet(msg, sizeof msg) == 0, "an unknown DMPI_ variable made the load fail: %s", msg);
    clear_env();
}

int main(void)
{
    unit_watchdog(60);
    RUN(test_defaults);
    RUN(test_sizes);
    RUN(test_ints_and_seconds);
    RUN(test_paths);
    RUN(test_every_param_validates);
    RUN(test_reload);
    return unit_summary("test_params");
}
