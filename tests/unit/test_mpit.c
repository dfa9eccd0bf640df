/* MPI_T's control variables and dmpi_info list one table (core/params.c):
 *   - `dmpi_info --params` (its path is the argument) and
 *     MPI_T_cvar_get_num/get_info list the same parameters in the same order,
 *     named DMPI_<NAME> alike;
 *   - for each, the current value dmpi_info prints is the value
 *     MPI_T_cvar_read gives (in dmpi_info's notation; a choice by its
 *     enumeration item's name), the group column is the MPI_T category that
 *     lists the variable, and the set column matches the MPI_T scope;
 *   - with DMPI_SPIN_COUNT=250 and DMPI_SHM_PATH=cma in the environment,
 *     both show those values;
 *   - a value written through MPI_T is kept by a later load of the
 *     environment (what MPI_Init does after MPI_T_init_thread). */
#include "core/mpit.h"
#include "core/params.h"
#include "unit.h"

#define MAXV 128

typedef struct {
    char name[64], cur[128], group[32], set[16];
} listed_t;

/* The rows of `dmpi_info --params`. */
static int run_dmpi_info(const char *path, listed_t *rows)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' --params", path);
    FILE *f = popen(cmd, "r");
    if (!f)
        return -1;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < MAXV) {
        if (strncmp(line, "DMPI_", 5) != 0)
            continue;
        char dflt[128], tok[128], lo[128], hi[128];
        listed_t *r = &rows[n];
        int used = 0, k;
        if (sscanf(line, "%63s %127s %127s %127s%n", r->name, dflt, r->cur, tok, &used) != 4)
            continue;
        k = used;
        if (!strcmp(tok, "-")) {
            /* no range */
        } else if (sscanf(line + k, " .. %127s%n", hi, &used) == 1) {
            k += used;
        } else {
            (void)lo;
            continue;
        }
        if (sscanf(line + k, "%31s %15s", r->group, r->set) != 2)
            continue;
        n++;
    }
    return pclose(f) == 0 ? n : -1;
}

/* A control variable's value in dmpi_info's notation. */
static void mpit_value(int i, char *out, size_t len)
{
    MPI_Datatype dt;
    MPI_T_enum en;
    MPI_T_cvar_handle h;
    int count;
    union {
        int i;
        unsigned long ul;
        double d;
        char s[256];
    } v;
    memset(&v, 0, sizeof v);
    dmpi_mpit_cvar_get_info(i, NULL, NULL, NULL, &dt, &en, NULL, NULL, NULL, NULL);
    dmpi_mpit_cvar_handle_alloc(i, NULL, &h, &count);
    dmpi_mpit_cvar_read(h, &v);
    dmpi_mpit_cvar_handle_free(&h);
    if (en != MPI_T_ENUM_NULL) {
        int vlen = (int)len, value;
        dmpi_mpit_enum_get_item(en, v.i, &value, out, &vlen);
    } else if (dt == MPI_INT) {
        snprintf(out, len, "%d", v.i);
    } else if (dt == MPI_UNSIGNED_LONG) {
        snprintf(out, len, "%lu", v.ul);
    } else if (dt == MPI_DOUBLE) {
        snprintf(out, len, "%g", v.d);
    } else {
        snprintf(out, len, "%s", v.s);
    }
}

static const char *category_listing(int i)
{
    static char name[64];
    int ncat, idx[MAXV], n;
    dmpi_mpit_category_get_num(&ncat);
    for (int c = 0; c < ncat; c++) {
        dmpi_mpit_category_get_info(c, NULL, NULL, NULL, NULL, &n, NULL, NULL);
        dmpi_mpit_category_members(c, DMPI_CAT_CVARS, MAXV, idx, NULL);
        for (int k = 0; k < n && k < MAXV; k++)
            if (idx[k] == i) {
                int len = sizeof name;
                dmpi_mpit_category_get_info(c, name, &len, NULL, NULL, NULL, NULL, NULL);
                return name;
            }
    }
    return "(none)";
}

static const char *scope_word(int scope)
{
    return scope == MPI_T_SCOPE_CONSTANT ? "init"
           : scope == MPI_T_SCOPE_LOCAL  ? "local"
           : scope == MPI_T_SCOPE_ALL_EQ ? "all"
                                         : "?";
}

static void compare(const char *path, const char *when)
{
    static listed_t rows[MAXV];
    int nrows = run_dmpi_info(path, rows), ncvar = -1;
    dmpi_mpit_cvar_get_num(&ncvar);
    CHECK(nrows > 20 && nrows == ncvar, "%s: dmpi_info lists %d parameters, MPI_T %d control variables", when,
          nrows, ncvar);
    int bad = 0;
    for (int i = 0; i < nrows && i < ncvar; i++) {
        char name[64], value[256];
        int len = sizeof name, scope;
        dmpi_mpit_cvar_get_info(i, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, &scope);
        mpit_value(i, value, sizeof value);
        const char *cat = category_listing(i);
        if (strcmp(name, rows[i].name))
            NOTE(bad, "%s: row %d is %s in dmpi_info, %s in MPI_T", when, i, rows[i].name, name);
        else if (strcmp(value, rows[i].cur))
            NOTE(bad, "%s: %s is %s in dmpi_info, %s in MPI_T", when, name, rows[i].cur, value);
        else if (strcmp(cat, rows[i].group))
            NOTE(bad, "%s: %s is in group %s in dmpi_info, category %s in MPI_T", when, name, rows[i].group, cat);
        else if (strcmp(scope_word(scope), rows[i].set))
            NOTE(bad, "%s: %s is set at %s in dmpi_info, scope %d in MPI_T", when, name, rows[i].set, scope);
    }
    CHECK(bad == 0, "%s: %d parameters differ between dmpi_info and MPI_T", when, bad);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: unit_mpit PATH-OF-dmpi_info\n");
        return 2;
    }
    int provided;
    CHECK(dmpi_mpit_init_thread(MPI_THREAD_SINGLE, &provided, NULL) == MPI_SUCCESS, "MPI_T starts");
    compare(argv[1], "defaults");

    setenv("DMPI_SPIN_COUNT", "250", 1);
    setenv("DMPI_SHM_PATH", "cma", 1);
    CHECK(dmpi_params_load() == 0, "the environment loads");
    compare(argv[1], "from the environment");
    char v[64];
    int i;
    dmpi_mpit_cvar_get_index("DMPI_SPIN_COUNT", &i);
    mpit_value(i, v, sizeof v);
    CHECK(!strcmp(v, "250"), "DMPI_SPIN_COUNT=250 reads %s through MPI_T", v);
    dmpi_mpit_cvar_get_index("DMPI_SHM_PATH", &i);
    mpit_value(i, v, sizeof v);
    CHECK(!strcmp(v, "cma"), "DMPI_SHM_PATH=cma reads %s through MPI_T", v);

    /* written through MPI_T, then the environment loaded again */
    MPI_T_cvar_handle h;
    int count, spins = 4321;
    dmpi_mpit_cvar_get_index("DMPI_SPIN_COUNT", &i);
    dmpi_mpit_cvar_handle_alloc(i, NULL, &h, &count);
    CHECK(dmpi_mpit_cvar_write(h, &spins) == MPI_SUCCESS, "DMPI_SPIN_COUNT can be written");
    CHECK(dmpi_params_load() == 0, "the environment loads again");
    CHECK(dmpi_params.spin_count == 4321, "the written value is kept over the environment's 250: %d",
          dmpi_params.spin_count);
    dmpi_mpit_cvar_handle_free(&h);
    CHECK(dmpi_mpit_finalize() == MPI_SUCCESS, "MPI_T ends");
    return unit_summary("mpit");
}
