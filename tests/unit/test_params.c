/* The table of tunables (core/params.c):
 *   - with no DMPI_* variables every parameter has its documented default,
 *     and the table lists each with a name, default and doc line;
 *   - sizes take K/M/G suffixes (either case); integers, seconds and the
 *     SHM_PATH names (auto, eager, copy, cma; any case) are read;
 *   - an invalid value makes dmpi_params_load return -1 after a message that
 *     names the variable and the value, for every parameter;
 *   - values that would not fit (a size overflowing 64 bits through its
 *     suffix, an integer beyond int) are invalid too, not silently wrapped;
 *   - every numeric parameter has a range in the table that holds its
 *     default; its ends are accepted, a value just outside either end is
 *     refused with "dmpi: DMPI_X=v is out of range (min .. max)", and so are
 *     trailing garbage ("12abc"), blanks and non-numbers;
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
    dmpi_param_info_t p;
    for (int i = 0; dmpi_param_describe(i, &p); i++)
        if (strcmp(p.name, want) == 0) {
            snprintf(cur, curlen, "%s", p.cur);
            return i;
        }
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
    dmpi_param_info_t p, p2;
    int n = 0, bad = 0;
    for (int i = 0; dmpi_param_describe(i, &p); i++, n++) {
        if (!p.name || !*p.name || !p.dflt || !*p.dflt || !p.doc || strlen(p.doc) < 10)
            NOTE(bad, "entry %d: missing name, default or doc", i);
        else if (strcmp(p.cur, p.dflt) != 0)
            NOTE(bad, "%s: current value '%s' after loading defaults, default '%s'", p.name, p.cur, p.dflt);
        for (int j = 0; j < i; j++) {
            dmpi_param_describe(j, &p2);
            if (p.name && p2.name && strcmp(p.name, p2.name) == 0)
                NOTE(bad, "two entries named %s", p.name);
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
    CHECK(!dmpi_param_describe(n, &p) && !dmpi_param_describe(-1, &p), "describe past the ends");
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
    /* CMA_MIN is a threshold: it takes every size */
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int rc = load_with("DMPI_CMA_MIN", ok[i].text, msg, sizeof msg);
        if (rc != 0 || dmpi_params.cma_min != ok[i].want)
            NOTE(bad, "CMA_MIN=%s: rc %d, value %zu, want %zu", ok[i].text, rc, dmpi_params.cma_min, ok[i].want);
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
    static const char *const overflow[] = {"17179869184G", "18446744073709551615K", "18014398509481984M",
                                           "18446744073709551616", "99999999999999999999999"};
    bad = 0;
    for (size_t i = 0; i < sizeof overflow / sizeof overflow[0]; i++) {
        int rc = load_with("DMPI_CMA_MIN", overflow[i], msg, sizeof msg);
        if (rc != -1)
            NOTE(bad, "CMA_MIN=%s accepted as %zu", overflow[i], dmpi_params.cma_min);
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
    static const char *const bad_ints[] = {"", "ten", "10x", "1.5", "2k", "12abc", " 5", "+5", "5 ", "0x10", "-"};
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
    static const char *const bad_secs[] = {"-1", "", "soon", "5s", "nan", "inf", "-inf", "0x10", " 5", "1e999",
                                           "2e9", "-0.5"};
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
    dmpi_param_info_t p;
    char msg[1024], var[80];
    int bad = 0;
    for (int i = 0; dmpi_param_describe(i, &p); i++) {
        snprintf(var, sizeof var, "DMPI_%s", p.name);
        if (load_with(var, "not-a-value!", msg, sizeof msg) != -1 || !strstr(msg, var) ||
            !strstr(msg, "not-a-value!"))
            NOTE(bad, "%s=not-a-value! accepted or message '%s'", var, msg);
        if (p.min && (load_with(var, "12abc", msg, sizeof msg) != -1 || !strstr(msg, var) || !strstr(msg, "12abc")))
            NOTE(bad, "%s=12abc (trailing garbage) accepted or message '%s'", var, msg);
    }
    CHECK(bad == 0, "%d parameters accept garbage", bad);
}

/* The value of a range end as written in the table ("1G", "1000000000",
 * "1e9"); sizes and integers exactly. */
static long double table_value(const char *s)
{
    char *end;
    long double v = strtold(s, &end);
    if (strchr(s, 'e'))
        return v;
    v = (long double)strtoull(s, &end, 10);
    if (*end == 'K') v *= 1 << 10;
    if (*end == 'M') v *= 1 << 20;
    if (*end == 'G') v *= 1 << 30;
    return v;
}

/* Sets var=text; expects it accepted with current value want, or refused
 * as out of range with the exact message. */
static void try_value(const dmpi_param_info_t *p, const char *text, bool ok, int *bad)
{
    char var[80], msg[1024], want_msg[256], cur[64];
    snprintf(var, sizeof var, "DMPI_%s", p->name);
    int rc = load_with(var, text, msg, sizeof msg);
    if (ok) {
        find_param(p->name, cur, sizeof cur);
        if (rc != 0 || table_value(cur) != table_value(text))
            NOTE(*bad, "%s=%s: rc %d, value %s, message '%s'", var, text, rc, cur, msg);
        return;
    }
    snprintf(want_msg, sizeof want_msg, "dmpi: %s=%s is out of range (%s .. %s)\n", var, text, p->min, p->max);
    if (rc != -1 || strcmp(msg, want_msg) != 0)
        NOTE(*bad, "%s=%s: rc %d, message '%s', want '%s'", var, text, rc, msg, want_msg);
}

static void test_ranges(void)
{
    dmpi_param_info_t p;
    int bad = 0, numeric = 0;
    for (int i = 0; dmpi_param_describe(i, &p); i++) {
        if (!p.min != !p.max) {
            NOTE(bad, "%s: a minimum without a maximum or the other way round", p.name);
            continue;
        }
        if (!p.min)
            continue;
        numeric++;
        long double lo = table_value(p.min), hi = table_value(p.max), d = table_value(p.dflt);
        if (!(lo <= d && d <= hi))
            NOTE(bad, "%s: default %s outside its range %s .. %s", p.name, p.dflt, p.min, p.max);
        char below[64], above[64];
        bool is_int = !strchr(p.max, 'e');
        if (is_int) {
            snprintf(below, sizeof below, "%.0Lf", lo - 1);
            snprintf(above, sizeof above, "%.0Lf", hi + 1);
        } else {
            snprintf(below, sizeof below, "%.0Lf", lo - 1);
            snprintf(above, sizeof above, "%.0Lf", hi * 2);
        }
        char lo_text[64], hi_text[64];
        snprintf(lo_text, sizeof lo_text, "%.0Lf", lo);
        snprintf(hi_text, sizeof hi_text, "%.0Lf", hi);
        try_value(&p, p.min, true, &bad);
        try_value(&p, p.max, true, &bad);
        try_value(&p, lo_text, true, &bad);
        try_value(&p, hi_text, true, &bad);
        try_value(&p, below, false, &bad);
        try_value(&p, above, false, &bad);
    }
    CHECK(bad == 0, "%d range problems", bad);
    CHECK(numeric >= 8, "only %d parameters have ranges", numeric);

    /* the example from the brief: SPIN_COUNT=-1 meant a rank never yields */
    char msg[1024];
    int rc = load_with("DMPI_SPIN_COUNT", "-1", msg, sizeof msg);
    CHECK(rc == -1 && strcmp(msg, "dmpi: DMPI_SPIN_COUNT=-1 is out of range (1 .. 1000000000)\n") == 0,
          "SPIN_COUNT=-1: rc %d, message '%s'", rc, msg);
    rc = load_with("DMPI_SPIN_COUNT", "0", msg, sizeof msg);
    CHECK(rc == -1 && strstr(msg, "out of range"), "SPIN_COUNT=0: rc %d, message '%s'", rc, msg);
    rc = load_with("DMPI_VERBOSE", "3", msg, sizeof msg);
    CHECK(rc == -1 && strstr(msg, "DMPI_VERBOSE=3 is out of range (0 .. 2)"), "VERBOSE=3: rc %d, message '%s'",
          rc, msg);
    rc = load_with("DMPI_EAGER_LIMIT", "2G", msg, sizeof msg);
    CHECK(rc == -1 && strstr(msg, "DMPI_EAGER_LIMIT=2G is out of range (0 .. 1G)"),
          "EAGER_LIMIT=2G: rc %d, message '%s'", rc, msg);
    rc = load_with("DMPI_RING_SIZE", "-4096", msg, sizeof msg);
    CHECK(rc == -1 && strstr(msg, "out of range"), "RING_SIZE=-4096: rc %d, message '%s'", rc, msg);
    rc = load_with("DMPI_ALLTOALLV_WINDOW", "0", msg, sizeof msg);
    CHECK(rc == -1 && strstr(msg, "out of range"), "ALLTOALLV_WINDOW=0: rc %d, message '%s'", rc, msg);
    rc = load_with("DMPI_SPIN_COUNT", "12abc", msg, sizeof msg);
    CHECK(rc == -1 && strstr(msg, "DMPI_SPIN_COUNT='12abc' is not valid"), "SPIN_COUNT=12abc: rc %d, message '%s'",
          rc, msg);
    /* the accepted range of a parameter that is not a number: none */
    int i = find_param("SHM_PATH", (char[64]){0}, 64);
    CHECK(i >= 0 && dmpi_param_describe(i, &p) && !p.min && !p.max, "SHM_PATH has a numeric range");
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
    RUN(test_ranges);
    RUN(test_reload);
    return unit_summary("test_params");
}
