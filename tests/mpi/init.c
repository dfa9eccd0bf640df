/*
 * init: the environment functions.
 *
 *   usage: init [none|single|funneled|serialized|multiple]
 *
 * "none" (the default) starts MPI with MPI_Init, the others with
 * MPI_Init_thread at that level (one level per run).  Checks:
 *  - MPI_Initialized / MPI_Finalized before MPI_Init (0, 0), after (1, 0)
 *    and after MPI_Finalize (1, 1);
 *  - MPI_Init_thread: provided is a valid level, not above the one asked
 *    for (MPI allows a higher one; dmpi promises the level asked for when it
 *    supports it, and MPICH does the same), MPI_Query_thread gives the same
 *    level, MPI_Is_thread_main is true in the main thread and false in
 *    another thread (levels serialized and multiple);
 *  - MPI_Get_version gives the header's MPI_VERSION/MPI_SUBVERSION (4.1
 *    under dmpi), before MPI_Init and after MPI_Finalize too;
 *    MPI_Get_library_version gives a non-empty string;
 *  - MPI_Get_processor_name gives a non-empty name of the length it says;
 *  - MPI_Wtime does not go backwards and measures a 50 ms sleep;
 *    MPI_Wtick is positive;
 *  - MPI_Type_size of every predefined C datatype equals the size of the C
 *    type (for the pair types: the sum of the two members, without
 *    padding).
 * Checks made after MPI_Finalize cannot be counted in the global report:
 * a rank that finds a problem there prints it and exits non-zero, and
 * rank 0 prints "No Errors" only if its own late checks pass too.
 */
#include "mtest.h"

#include <complex.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static void check_version(const char *when)
{
    int v = -1, sv = -1;
    int rc = MPI_Get_version(&v, &sv);
    MTEST_CHECK(rc == MPI_SUCCESS, "%s: MPI_Get_version returned %d", when, rc);
    MTEST_CHECK(v == MPI_VERSION && sv == MPI_SUBVERSION, "%s: MPI_Get_version gives %d.%d, "
                "the header says %d.%d", when, v, sv, MPI_VERSION, MPI_SUBVERSION);
#ifdef DMPI_VERSION
    MTEST_CHECK(v == 4 && sv == 1, "%s: MPI_Get_version gives %d.%d, dmpi implements 4.1",
                when, v, sv);
#endif
    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1];
    int len = -1;
    memset(lib, 0, sizeof lib);
    rc = MPI_Get_library_version(lib, &len);
    /* resultlen is the number of printable characters; Open MPI 4.1 counts
     * the terminating NUL as well */
    int slen = (int)strlen(lib) + (MTEST_OMPI_DEVIATION ? 1 : 0);
    MTEST_CHECK(rc == MPI_SUCCESS && len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING &&
                slen == len, "%s: MPI_Get_library_version rc %d, len %d, strlen %zu", when,
                rc, len, strlen(lib));
}

static void check_flags(int init_expect, int fin_expect, const char *when)
{
    int flag = -1;
    MPI_Initialized(&flag);
    MTEST_CHECK(flag == init_expect, "%s: MPI_Initialized gives %d, expected %d", when, flag,
                init_expect);
    flag = -1;
    MPI_Finalized(&flag);
    MTEST_CHECK(flag == fin_expect, "%s: MPI_Finalized gives %d, expected %d", when, flag,
                fin_expect);
}

struct thread_result {
    int is_main;
    int level;
};

static void *other_thread(void *arg)
{
    struct thread_result *res = arg;
    res->is_main = -1;
    res->level = -1;
    MPI_Is_thread_main(&res->is_main);
    MPI_Query_thread(&res->level);
    return NULL;
}

struct typeinfo {
    MPI_Datatype type;
    const char *name;
    size_t size;
};

#define T(type, ctype) {type, #type, sizeof(ctype)}

static void check_type_sizes(void)
{
    const struct typeinfo types[] = {
        T(MPI_CHAR, char),
        T(MPI_SIGNED_CHAR, signed char),
        T(MPI_UNSIGNED_CHAR, unsigned char),
        T(MPI_BYTE, unsigned char),
        T(MPI_WCHAR, wchar_t),
        T(MPI_SHORT, short),
        T(MPI_UNSIGNED_SHORT, unsigned short),
        T(MPI_INT, int),
        T(MPI_UNSIGNED, unsigned),
        T(MPI_LONG, long),
        T(MPI_UNSIGNED_LONG, unsigned long),
        T(MPI_LONG_LONG_INT, long long),
        T(MPI_LONG_LONG, long long),
        T(MPI_UNSIGNED_LONG_LONG, unsigned long long),
        T(MPI_FLOAT, float),
        T(MPI_DOUBLE, double),
        T(MPI_LONG_DOUBLE, long double),
        T(MPI_C_BOOL, _Bool),
        T(MPI_INT8_T, int8_t),
        T(MPI_INT16_T, int16_t),
        T(MPI_INT32_T, int32_t),
        T(MPI_INT64_T, int64_t),
        T(MPI_UINT8_T, uint8_t),
        T(MPI_UINT16_T, uint16_t),
        T(MPI_UINT32_T, uint32_t),
        T(MPI_UINT64_T, uint64_t),
        T(MPI_C_COMPLEX, float _Complex),
        T(MPI_C_FLOAT_COMPLEX, float _Complex),
        T(MPI_C_DOUBLE_COMPLEX, double _Complex),
        T(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
        T(MPI_AINT, MPI_Aint),
        T(MPI_OFFSET, MPI_Offset),
        T(MPI_COUNT, MPI_Count),
        {MPI_PACKED, "MPI_PACKED", 1},
        /* pair types: the size counts the data, not the padding */
        {MPI_FLOAT_INT, "MPI_FLOAT_INT", sizeof(float) + sizeof(int)},
        {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", sizeof(double) + sizeof(int)},
        {MPI_LONG_INT, "MPI_LONG_INT", sizeof(long) + sizeof(int)},
        {MPI_2INT, "MPI_2INT", 2 * sizeof(int)},
        {MPI_SHORT_INT, "MPI_SHORT_INT", sizeof(short) + sizeof(int)},
        {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", sizeof(long double) + sizeof(int)},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        int sz = -1;
        int rc = MPI_Type_size(types[i].type, &sz);
        MTEST_CHECK(rc == MPI_SUCCESS && sz == (int)types[i].size, "MPI_Type_size(%s) = %d "
                    "(rc %d), expected %zu", types[i].name, sz, rc, types[i].size);
    }
}

int main(int argc, char **argv)
{
    const char *levelname = argc > 1 ? argv[1] : "none";
    static const char *names[] = {"single", "funneled", "serialized", "multiple"};
    static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED,
                                 MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
    int required = -1, provided = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(levelname, names[i]) == 0)
            required = levels[i];

    if (!(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED && MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
          MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE))
        mtest_fail("thread levels are not ordered");
    check_flags(0, 0, "before MPI_Init");
    check_version("before MPI_Init");

    if (required < 0) {
        MTEST_CHECK(strcmp(levelname, "none") == 0, "unknown level \"%s\"", levelname);
        MPI_Init(&argc, &argv);
    } else {
        int rc = MPI_Init_thread(&argc, &argv, required, &provided);
        MTEST_CHECK(rc == MPI_SUCCESS, "MPI_Init_thread returned %d", rc);
    }
    mtest_start();
    check_flags(1, 0, "after MPI_Init");

    int q = -1, is_main = -1;
    MPI_Query_thread(&q);
    MPI_Is_thread_main(&is_main);
    MTEST_CHECK(is_main == 1, "MPI_Is_thread_main in the main thread gives %d", is_main);
    MTEST_CHECK(q >= MPI_THREAD_SINGLE && q <= MPI_THREAD_MULTIPLE, "MPI_Query_thread gives "
                "%d", q);
    if (required >= 0) {
        MTEST_CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE,
                    "MPI_Init_thread(%s) provided %d", levelname, provided);
        MTEST_CHECK(provided <= required, "MPI_Init_thread(%s) provided %d, more than asked",
                    levelname, provided);
        MTEST_CHECK(q == provided, "MPI_Query_thread gives %d, MPI_Init_thread provided %d", q,
                    provided);
        if (provided >= MPI_THREAD_SERIALIZED) {
            /* another thread: not the main thread, same level (with
             * serialized, the main thread makes no MPI call meanwhile) */
            pthread_t th;
            struct thread_result res;
            if (pthread_create(&th, NULL, other_thread, &res) == 0) {
                pthread_join(th, NULL);
                MTEST_CHECK(res.is_main == 0, "MPI_Is_thread_main in another thread gives %d",
                            res.is_main);
                MTEST_CHECK(res.level == provided, "MPI_Query_thread in another thread gives "
                            "%d", res.level);
            }
        }
    }

    char name[MPI_MAX_PROCESSOR_NAME + 1];
    int len = -1;
    memset(name, 0, sizeof name);
    MPI_Get_processor_name(name, &len);
    MTEST_CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME && (int)strlen(name) == len,
                "MPI_Get_processor_name: len %d, strlen %zu", len, strlen(name));
    check_version("after MPI_Init");

    double tick = MPI_Wtick();
    MTEST_CHECK(tick > 0 && tick <= 1.0, "MPI_Wtick gives %g", tick);
    double prev = MPI_Wtime(), first = prev;
    for (int i = 0; i < 200000; i++) {
        double t = MPI_Wtime();
        if (!MTEST_CHECK(t >= prev, "MPI_Wtime went backwards: %.9f after %.9f", t, prev))
            break;
        prev = t;
    }
    MTEST_CHECK(prev - first < 10.0, "200000 MPI_Wtime calls took %.3f s", prev - first);
    double t0 = MPI_Wtime();
    mtest_sleep_ms(50);
    double dt = MPI_Wtime() - t0;
    MTEST_CHECK(dt >= 0.050 - tick && dt < 5.0, "a 50 ms sleep measured %.6f s by MPI_Wtime",
                dt);

    check_type_sizes();

    /* point-to-point works at this thread level */
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    int out = mtest_rank, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, right, 0, &in, 1, MPI_INT, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MTEST_CHECK(in == left, "ring exchange got %d", in);

    int total = mtest_global_errors();
    int before = mtest_error_count();
    MPI_Finalize();

    check_flags(1, 1, "after MPI_Finalize");
    check_version("after MPI_Finalize");
    int late = mtest_error_count() - before;
    if (mtest_rank == 0) {
        if (total == 0 && late == 0)
            printf("No Errors\n");
        else
            printf(" Found %d errors\n", total + late);
        fflush(stdout);
        return total != 0 || late != 0;
    }
    return mtest_error_count() != 0;
}
