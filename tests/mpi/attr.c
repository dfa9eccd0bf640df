/*
 * attr: attributes on communicators.  The predefined attributes of
 * MPI_COMM_WORLD (MPI_TAG_UB at least 32767 and usable as a tag, MPI_HOST,
 * MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_APPNUM, MPI_UNIVERSE_SIZE); user keyvals
 * with copy callbacks run by Comm_dup (nested dups three deep, a callback
 * that declines to copy, MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN) and delete
 * callbacks run by Comm_delete_attr, by replacing a value, by Comm_free and
 * for MPI_COMM_SELF by MPI_Finalize (newest first); freed keyvals (still
 * naming the attributes that use them); a failing copy callback (the dup
 * fails, newcomm is MPI_COMM_NULL); error classes.
 */
#include "mtest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int copies, deletes, self_deletes;

/* Copies the value plus one, so each generation of dups can be told apart. */
static int copy_plus_one(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)old;
    (void)kv;
    MTEST_CHECK(extra == &copies, "copy callback: wrong extra_state");
    copies++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_declines(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)kv, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int kv, void *val, void *extra)
{
    (void)comm, (void)kv, (void)val, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes newest first: the values
 * they had, in the order their callbacks ran. */
static intptr_t self_order[3];

static int self_delete(MPI_Comm comm, int kv, void *val, void *extra)
{
    (void)kv, (void)extra;
    if (comm == MPI_COMM_SELF && self_deletes < 3)
        self_order[self_deletes] = (intptr_t)val;
    self_deletes++;
    return MPI_SUCCESS;
}

static int copy_fails(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)kv, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_ERR_OTHER;
}

static void test_predefined(void)
{
    int *v, flag;
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
    if (MTEST_CHECK(flag && *v >= 32767, "MPI_TAG_UB: flag %d", flag)) {
        int x = 1, y = 0, rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MTEST_RC(MPI_Sendrecv(&x, 1, MPI_INT, rank, *v, &y, 1, MPI_INT, rank, *v, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
        MTEST_CHECK(y == 1, "a message with tag MPI_TAG_UB did not arrive");
    }
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &v, &flag));
    MTEST_CHECK(flag && (*v == MPI_PROC_NULL || *v >= 0), "MPI_HOST: flag %d", flag);
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &v, &flag));
    MTEST_CHECK(flag && (*v == MPI_ANY_SOURCE || *v == MPI_PROC_NULL || *v >= 0), "MPI_IO: flag %d", flag);
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag));
    MTEST_CHECK(!flag || *v == 0 || *v == 1, "MPI_WTIME_IS_GLOBAL = %d", flag ? *v : -1);
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &v, &flag));
    MTEST_CHECK(!flag || *v == 0, "MPI_APPNUM = %d", flag ? *v : -1);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag));
    MTEST_CHECK(!flag || *v >= size, "MPI_UNIVERSE_SIZE = %d with %d ranks", flag ? *v : -1, size);
}

/* A keyval the program freed still names the attributes that use it: get
 * and delete work (and run the callback) until the last one is gone; then
 * the keyval is invalid. */
static void test_freed_keyval(void)
{
    int kv, saved;
    void *v;
    int flag;
    MPI_Comm d;
    MTEST_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &kv, NULL));
    saved = kv;
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
    MTEST_RC(MPI_Comm_set_attr(d, kv, (void *)(intptr_t)77));
    MTEST_RC(MPI_Comm_free_keyval(&kv));
    MTEST_RC(MPI_Comm_get_attr(d, saved, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 77, "get_attr with a freed keyval in use: flag %d", flag);
    deletes = 0;
    MTEST_RC(MPI_Comm_delete_attr(d, saved));
    MTEST_CHECK(deletes == 1, "delete_attr with a freed keyval in use ran %d delete callbacks", deletes);
    mtest_check_class_at(__FILE__, __LINE__, MPI_Comm_get_attr(d, saved, &v, &flag), MPI_ERR_KEYVAL,
                         "get_attr with a freed keyval whose last attribute is gone");
    mtest_check_class_at(__FILE__, __LINE__, MPI_Comm_set_attr(d, saved, NULL), MPI_ERR_KEYVAL,
                         "set_attr with a freed keyval");
    MTEST_RC(MPI_Comm_free(&d));
}

/* A copy callback that fails makes the dup fail with its error, and the
 * new handle MPI_COMM_NULL (nothing is made). */
static void test_copy_error(void)
{
    int kv;
    MPI_Comm d = MPI_COMM_SELF;
    MPI_Info info;
    MTEST_RC(MPI_Comm_create_keyval(copy_fails, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    MTEST_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, (void *)(intptr_t)5));
    mtest_check_class_at(__FILE__, __LINE__, MPI_Comm_dup(MPI_COMM_WORLD, &d), MPI_ERR_OTHER,
                         "Comm_dup whose copy callback fails");
    MTEST_CHECK(d == MPI_COMM_NULL, "a failed Comm_dup left newcomm 0x%x, not MPI_COMM_NULL", (unsigned)d);
    d = MPI_COMM_SELF;
    MPI_Info_create(&info);
    mtest_check_class_at(__FILE__, __LINE__, MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &d), MPI_ERR_OTHER,
                         "Comm_dup_with_info whose copy callback fails");
    MTEST_CHECK(d == MPI_COMM_NULL, "a failed Comm_dup_with_info left newcomm 0x%x", (unsigned)d);
    MPI_Info_free(&info);
    MTEST_RC(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
    MTEST_RC(MPI_Comm_free_keyval(&kv));
}

static void test_user(void)
{
    int kv, kv_dup, kv_null, kv_no, flag;
    void *v;
    MTEST_RC(MPI_Comm_create_keyval(copy_plus_one, count_delete, &kv, &copies));
    MTEST_RC(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv_dup, NULL));
    MTEST_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &kv_null, NULL));
    MTEST_RC(MPI_Comm_create_keyval(copy_declines, count_delete, &kv_no, NULL));

    MPI_Comm a;
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    MTEST_RC(MPI_Comm_get_attr(a, kv, &v, &flag));
    MTEST_CHECK(!flag, "an attribute that was never set is found");
    MTEST_RC(MPI_Comm_set_attr(a, kv, (void *)(intptr_t)10));
    MTEST_RC(MPI_Comm_set_attr(a, kv_dup, (void *)(intptr_t)20));
    MTEST_RC(MPI_Comm_set_attr(a, kv_null, (void *)(intptr_t)30));
    MTEST_RC(MPI_Comm_set_attr(a, kv_no, (void *)(intptr_t)40));

    /* three generations of dups */
    MPI_Comm b, c, d;
    MTEST_RC(MPI_Comm_dup(a, &b));
    MTEST_RC(MPI_Comm_dup(b, &c));
    MTEST_RC(MPI_Comm_dup(c, &d));
    MTEST_CHECK(copies == 3, "copy callback ran %d times, want 3", copies);
    MTEST_RC(MPI_Comm_get_attr(d, kv, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 13, "third dup: value %ld, want 13", (long)(intptr_t)v);
    MTEST_RC(MPI_Comm_get_attr(d, kv_dup, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 20, "MPI_COMM_DUP_FN: value %ld, want 20", (long)(intptr_t)v);
    MTEST_RC(MPI_Comm_get_attr(d, kv_null, &v, &flag));
    MTEST_CHECK(!flag, "MPI_COMM_NULL_COPY_FN copied the attribute");
    MTEST_RC(MPI_Comm_get_attr(d, kv_no, &v, &flag));
    MTEST_CHECK(!flag, "a copy callback that set flag = 0 still copied");

    /* deletes: replacing, deleting, freeing */
    deletes = 0;
    MTEST_RC(MPI_Comm_set_attr(a, kv, (void *)(intptr_t)11));
    MTEST_CHECK(deletes == 1, "replacing a value ran the delete callback %d times", deletes);
    MTEST_RC(MPI_Comm_delete_attr(a, kv_null));
    MTEST_CHECK(deletes == 2, "Comm_delete_attr ran the delete callback %d times in all", deletes);
    MTEST_RC(MPI_Comm_get_attr(a, kv_null, &v, &flag));
    MTEST_CHECK(!flag, "a deleted attribute is still found");
    MTEST_RC(MPI_Comm_free(&a));     /* kv and kv_no have delete callbacks */
    MTEST_CHECK(deletes == 4, "Comm_free ran %d delete callbacks in all, want 4", deletes);

    /* a freed keyval keeps working for the attributes it has */
    MTEST_RC(MPI_Comm_free_keyval(&kv));
    MTEST_CHECK(kv == MPI_KEYVAL_INVALID, "Comm_free_keyval did not set MPI_KEYVAL_INVALID");
    deletes = 0;
    MTEST_RC(MPI_Comm_free(&d));
    MTEST_CHECK(deletes == 1, "freeing a comm whose keyval was freed ran %d delete callbacks", deletes);
    MPI_Comm_free(&c);
    MPI_Comm_free(&b);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_freed_keyval();
    test_copy_error();
    mtest_check_class_at(__FILE__, __LINE__, MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, NULL),
                         MPI_ERR_KEYVAL, "set_attr with MPI_KEYVAL_INVALID");
    mtest_check_class_at(__FILE__, __LINE__, MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL,
                         "set_attr of MPI_TAG_UB");
    /* deleting what is not there is not an error: the standard names none */
    MTEST_RC(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv_dup));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free_keyval(&kv_dup);
    MPI_Comm_free_keyval(&kv_null);
    MPI_Comm_free_keyval(&kv_no);
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    test_predefined();
    test_user();
    /* delete callbacks of MPI_COMM_SELF run inside MPI_Finalize: checked
     * by the exit status below, after mtest_finalize printed its report */
    int kv[3];
    for (int i = 0; i < 3; i++)
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &kv[i], NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, kv[1], (void *)(intptr_t)4242);   /* set in the order 2, 1, 3 */
    MPI_Comm_set_attr(MPI_COMM_SELF, kv[0], (void *)(intptr_t)4241);
    MPI_Comm_set_attr(MPI_COMM_SELF, kv[2], (void *)(intptr_t)4243);
    int rc = mtest_finalize();
    if (self_deletes != 3) {
        fprintf(stderr, "MPI_Finalize ran the MPI_COMM_SELF delete callbacks %d times, want 3\n", self_deletes);
        return 1;
    }
    if (self_order[0] != 4243 || self_order[1] != 4241 || self_order[2] != 4242) {
        fprintf(stderr, "MPI_Finalize deleted MPI_COMM_SELF's attributes in the order %ld %ld %ld, want "
                        "4243 4241 4242 (the reverse of their setting)\n",
                (long)self_order[0], (long)self_order[1], (long)self_order[2]);
        return 1;
    }
    return rc;
}
