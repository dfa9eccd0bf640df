/*
 * status_set: MPI_Status_set_elements(_x) and MPI_Status_set_cancelled.
 *
 * A status set to k elements of a type must answer MPI_Get_elements(_x) = k
 * and MPI_Get_count = k / (elements per item) when that divides, else
 * MPI_UNDEFINED, for predefined types, a pair type, a contiguous type and a
 * struct of mixed fields, for every k up to a few items; it must answer
 * exactly what a real receive of the same elements answers (a message sent
 * around the ring, received into a derived type); counts beyond INT_MAX
 * show up in the _x forms only; setting the count keeps the cancelled flag
 * and setting the flag keeps the count; errors: negative count
 * (MPI_ERR_COUNT), MPI_DATATYPE_NULL (MPI_ERR_TYPE), a NULL or
 * MPI_STATUS_IGNORE status (MPI_ERR_ARG).
 *
 * MPICH 4.0 reads the count of MPI_Status_set_elements as whole items of
 * the type, not as basic elements (it stores count * size bytes), so the
 * checks on derived and pair types are skipped under MPICH.
 */
#include "mtest.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static void expect_counts(const MPI_Status *st, MPI_Datatype t, MPI_Count elems, int count, const char *what)
{
    int n = -12345;
    MPI_Count x = -12345;
    MTEST_RC(MPI_Get_elements_x(st, t, &x));
    MTEST_CHECK(x == elems, "%s: Get_elements_x %lld, want %lld", what, (long long)x, (long long)elems);
    MTEST_RC(MPI_Get_elements(st, t, &n));
    int want = elems > INT_MAX ? MPI_UNDEFINED : (int)elems;
    MTEST_CHECK(n == want, "%s: Get_elements %d, want %d", what, n, want);
    n = -12345;
    MTEST_RC(MPI_Get_count(st, t, &n));
    MTEST_CHECK(n == count, "%s: Get_count %d, want %d", what, n, count);
}

/* Sets k elements of t (per = basic elements in one item) and checks the answers. */
static void sweep(MPI_Datatype t, int per, int kmax, const char *name)
{
    char what[128];
    for (int k = 0; k <= kmax; k++) {
        MPI_Status st;
        mtest_status_garbage(&st);
        snprintf(what, sizeof what, "%s, %d elements", name, k);
        MTEST_RC(MPI_Status_set_elements(&st, t, k));
        expect_counts(&st, t, k, k % per ? MPI_UNDEFINED : k / per, what);
        mtest_status_garbage(&st);
        MTEST_RC(MPI_Status_set_elements_x(&st, t, (MPI_Count)k));
        expect_counts(&st, t, k, k % per ? MPI_UNDEFINED : k / per, what);
        mtest_status_garbage(&st);
        MTEST_RC(MPI_Status_set_elements_c(&st, t, (MPI_Count)k));
        expect_counts(&st, t, k, k % per ? MPI_UNDEFINED : k / per, what);
    }
}

static void test_predefined(void)
{
    MPI_Status st;
    sweep(MPI_INT, 1, 9, "MPI_INT");
    sweep(MPI_DOUBLE, 1, 9, "MPI_DOUBLE");
    sweep(MPI_CHAR, 1, 9, "MPI_CHAR");
    /* the bytes behind it: 5 ints are 20 bytes */
    MTEST_RC(MPI_Status_set_elements(&st, MPI_INT, 5));
    int n = -1;
    MTEST_RC(MPI_Get_count(&st, MPI_BYTE, &n));
    MTEST_CHECK(n == 20, "5 MPI_INT: Get_count(MPI_BYTE) %d, want 20", n);
    MTEST_RC(MPI_Get_count(&st, MPI_SHORT, &n));
    MTEST_CHECK(n == 10, "5 MPI_INT: Get_count(MPI_SHORT) %d, want 10", n);
    MTEST_RC(MPI_Get_count(&st, MPI_DOUBLE, &n));
    MTEST_CHECK(n == MPI_UNDEFINED, "5 MPI_INT: Get_count(MPI_DOUBLE) %d, want MPI_UNDEFINED", n);

    /* more elements than an int holds: only the _x forms can say */
    MPI_Count big = (MPI_Count)3 << 30;
    MTEST_RC(MPI_Status_set_elements_x(&st, MPI_INT, big));
    expect_counts(&st, MPI_INT, big, MPI_UNDEFINED, "3 Gi MPI_INT");
    mtest_status_garbage(&st);
    MTEST_RC(MPI_Status_set_elements_c(&st, MPI_INT, big));
    expect_counts(&st, MPI_INT, big, MPI_UNDEFINED, "3 Gi MPI_INT (_c)");
    MPI_Count x = 0;
    MTEST_RC(MPI_Get_elements_x(&st, MPI_SHORT, &x));
    MTEST_CHECK(x == 2 * big, "3 Gi MPI_INT as MPI_SHORT: %lld elements", (long long)x);
}

static void test_derived(void)
{
    if (MTEST_MPICH_DEVIATION)
        return;
    MPI_Datatype three, st_type, pair = MPI_DOUBLE_INT;
    MTEST_RC(MPI_Type_contiguous(3, MPI_INT, &three));
    MTEST_RC(MPI_Type_commit(&three));
    sweep(three, 3, 10, "contiguous(3, MPI_INT)");

    /* struct { int; double[2]; char[3] } with padding: 6 basic elements */
    int bl[3] = {1, 2, 3};
    MPI_Aint disp[3] = {0, 8, 24};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MTEST_RC(MPI_Type_create_struct(3, bl, disp, types, &st_type));
    MTEST_RC(MPI_Type_commit(&st_type));
    sweep(st_type, 6, 19, "struct{int, double[2], char[3]}");
    /* 8 elements = one struct and an int and a double: 4 + 16 + 3 + 4 + 8 bytes */
    MPI_Status st;
    int n = -1;
    MTEST_RC(MPI_Status_set_elements(&st, st_type, 8));
    MTEST_RC(MPI_Get_count(&st, MPI_BYTE, &n));
    MTEST_CHECK(n == 35, "8 elements of the struct are %d bytes, want 35", n);

    sweep(pair, 2, 7, "MPI_DOUBLE_INT");
    MTEST_RC(MPI_Status_set_elements(&st, pair, 3));     /* one pair (12 bytes) and a double */
    MTEST_RC(MPI_Get_count(&st, MPI_BYTE, &n));
    MTEST_CHECK(n == 20, "3 elements of MPI_DOUBLE_INT are %d bytes, want 20", n);

    /* vector of the struct: elements run on across blocks */
    MPI_Datatype vec;
    MTEST_RC(MPI_Type_vector(2, 2, 3, st_type, &vec));
    MTEST_RC(MPI_Type_commit(&vec));
    sweep(vec, 24, 50, "vector(2, 2, 3, struct)");
    MTEST_RC(MPI_Type_free(&vec));
    MTEST_RC(MPI_Type_free(&three));
    MTEST_RC(MPI_Type_free(&st_type));
}

/* A real message of 7 ints received as contiguous(3, MPI_INT) items, and a
 * status set to the same 7 elements, must answer alike. */
static void test_like_receive(void)
{
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    int out[7], in[9];
    for (int i = 0; i < 7; i++)
        out[i] = 100 * mtest_rank + i;
    MPI_Datatype three;
    MTEST_RC(MPI_Type_contiguous(3, MPI_INT, &three));
    MTEST_RC(MPI_Type_commit(&three));
    MPI_Request rq;
    MPI_Status got, set;
    MTEST_RC(MPI_Irecv(in, 3, three, left, 5, MPI_COMM_WORLD, &rq));
    MTEST_RC(MPI_Send(out, 7, MPI_INT, right, 5, MPI_COMM_WORLD));
    MTEST_RC(MPI_Wait(&rq, &got));
    MTEST_CHECK(in[6] == 100 * left + 6, "ring message: in[6] = %d", in[6]);
    mtest_status_garbage(&set);
    MTEST_RC(MPI_Status_set_elements(&set, MPI_INT, 7));
    MPI_Datatype ts[3] = {MPI_INT, MPI_BYTE, three};
    for (int i = 0; i < 3; i++) {
        if (MTEST_MPICH_DEVIATION && i == 2)
            break;
        int a = -1, b = -2, c = -3, d = -4;
        MTEST_RC(MPI_Get_count(&got, ts[i], &a));
        MTEST_RC(MPI_Get_count(&set, ts[i], &b));
        MTEST_RC(MPI_Get_elements(&got, ts[i], &c));
        MTEST_RC(MPI_Get_elements(&set, ts[i], &d));
        MTEST_CHECK(a == b && c == d, "type %d: received status says count %d elements %d, set one %d and %d", i,
                    a, c, b, d);
    }
    if (!MTEST_MPICH_DEVIATION) {
        MTEST_RC(MPI_Status_set_elements(&set, three, 7));  /* 7 ints, counted in the derived type */
        expect_counts(&set, three, 7, MPI_UNDEFINED, "7 ints as contiguous(3)");
    }
    MTEST_RC(MPI_Type_free(&three));
}

static void test_cancelled(void)
{
    MPI_Status st;
    int flag = -1, n = -1;
    mtest_status_garbage(&st);
    MTEST_RC(MPI_Status_set_elements(&st, MPI_INT, 4));
    MTEST_RC(MPI_Status_set_cancelled(&st, 0));
    MTEST_RC(MPI_Test_cancelled(&st, &flag));
    MTEST_CHECK(flag == 0, "set_cancelled(0): Test_cancelled %d", flag);
    MTEST_RC(MPI_Status_set_cancelled(&st, 5));         /* any nonzero flag is true */
    MTEST_RC(MPI_Test_cancelled(&st, &flag));
    MTEST_CHECK(flag == 1, "set_cancelled(5): Test_cancelled %d", flag);
    MTEST_RC(MPI_Get_count(&st, MPI_INT, &n));
    MTEST_CHECK(n == 4, "set_cancelled changed the count to %d", n);
    MTEST_RC(MPI_Status_set_elements_x(&st, MPI_INT, ((MPI_Count)1 << 33) + 3));
    MTEST_RC(MPI_Test_cancelled(&st, &flag));
    MTEST_CHECK(flag == 1, "set_elements_x cleared the cancelled flag");
    MTEST_RC(MPI_Status_set_cancelled(&st, 0));
    MPI_Count x = 0;
    MTEST_RC(MPI_Get_elements_x(&st, MPI_INT, &x));
    MTEST_CHECK(x == ((MPI_Count)1 << 33) + 3, "set_cancelled(0) changed the count to %lld", (long long)x);
    MTEST_RC(MPI_Test_cancelled(&st, &flag));
    MTEST_CHECK(flag == 0, "set_cancelled(0) after 1: Test_cancelled %d", flag);
    /* the public fields are the caller's */
    st.MPI_SOURCE = 3;
    st.MPI_TAG = 77;
    st.MPI_ERROR = MPI_ERR_OTHER;
    MTEST_RC(MPI_Status_set_elements(&st, MPI_DOUBLE, 2));
    MTEST_RC(MPI_Status_set_cancelled(&st, 1));
    MTEST_CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 77 && st.MPI_ERROR == MPI_ERR_OTHER,
                "the public fields changed: source %d tag %d error %d", st.MPI_SOURCE, st.MPI_TAG, st.MPI_ERROR);
}

static void test_errors(void)
{
    MPI_Status st;
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    mtest_check_class(MPI_Status_set_elements(&st, MPI_INT, -1), MPI_ERR_COUNT, "set_elements count -1");
    mtest_check_class(MPI_Status_set_elements_x(&st, MPI_INT, -5), MPI_ERR_COUNT, "set_elements_x count -5");
    mtest_check_class(MPI_Status_set_elements(&st, MPI_DATATYPE_NULL, 1), MPI_ERR_TYPE,
                      "set_elements MPI_DATATYPE_NULL");
    if (!MTEST_MPICH_DEVIATION) {   /* MPICH 4.0 writes through these */
        mtest_check_class(MPI_Status_set_elements(NULL, MPI_INT, 1), MPI_ERR_ARG, "set_elements NULL status");
        mtest_check_class(MPI_Status_set_elements(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG,
                          "set_elements MPI_STATUS_IGNORE");
        mtest_check_class(MPI_Status_set_cancelled(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG,
                          "set_cancelled MPI_STATUS_IGNORE");
        mtest_check_class(MPI_Status_set_elements_x(&st, MPI_DOUBLE, (MPI_Count)1 << 61), MPI_ERR_COUNT,
                          "2^61 doubles do not fit a status");
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        int rc = MPI_Status_set_elements(&st, MPI_INT, -1);
        MPI_Error_string(rc, msg, &len);
        MTEST_CHECK(strstr(msg, "MPI_Status_set_elements") && strstr(msg, "count"),
                    "message does not name the call and the argument: '%s'", msg);
    }
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    test_predefined();
    test_derived();
    test_like_receive();
    test_cancelled();
    test_errors();
    return mtest_finalize();
}
