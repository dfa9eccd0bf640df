/*
 * type_attr: attributes on datatypes.
 *   - copy callbacks run by Type_dup (three generations, MPI_TYPE_DUP_FN,
 *     MPI_TYPE_NULL_COPY_FN, a callback that declines, one that fails);
 *   - delete callbacks run by Type_delete_attr, by replacing a value and by
 *     Type_free, with the type's handle and the value; a failing delete
 *     callback fails the call;
 *   - a type still held by a type built from it keeps its attributes after
 *     Type_free (reachable through Type_get_contents); the delete callback
 *     runs when the type really goes, with a handle that still works;
 *   - attributes on predefined types; a freed keyval still serves the
 *     attributes that use it;
 *   - datatype and communicator keyvals share one table but do not mix:
 *     MPI_ERR_KEYVAL either way, and for MPI_KEYVAL_INVALID and MPI_TAG_UB.
 */
#include "mtest.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CLASS(rc, cls, what) mtest_check_class_at(__FILE__, __LINE__, (rc), (cls), "%s", (what))

static int copies, deletes, fail_delete, fail_copy;
static MPI_Datatype last_deleted_type;
static intptr_t last_deleted_value;
static int size_seen_by_delete;

/* Copies the value plus one, so each generation of dups can be told apart. */
static int copy_plus_one(MPI_Datatype old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)kv;
    MTEST_CHECK(extra == &copies, "copy callback: wrong extra_state");
    copies++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_declines(MPI_Datatype old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)kv, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

static int copy_may_fail(MPI_Datatype old, int kv, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)kv, (void)extra;
    if (fail_copy)
        return MPI_ERR_OTHER;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Datatype t, int kv, void *val, void *extra)
{
    (void)kv, (void)extra;
    deletes++;
    last_deleted_type = t;
    last_deleted_value = (intptr_t)val;
    if (fail_delete)
        return MPI_ERR_OTHER;
    /* the handle is still a valid datatype while its attributes go */
    if (MPI_Type_size(t, &size_seen_by_delete) != MPI_SUCCESS)
        size_seen_by_delete = -1;
    return MPI_SUCCESS;
}

static void test_copy_delete(void)
{
    int kv, kv_dup, kv_null, kv_no, flag;
    void *v;
    MTEST_RC(MPI_Type_create_keyval(copy_plus_one, count_delete, &kv, &copies));
    MTEST_RC(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kv_dup, NULL));
    MTEST_RC(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_delete, &kv_null, NULL));
    MTEST_RC(MPI_Type_create_keyval(copy_declines, count_delete, &kv_no, NULL));

    MPI_Datatype a, b, c, d;
    MPI_Type_vector(3, 1, 2, MPI_INT, &a);
    MTEST_RC(MPI_Type_get_attr(a, kv, &v, &flag));
    MTEST_CHECK(!flag, "an attribute that was never set is found");
    MTEST_RC(MPI_Type_set_attr(a, kv, (void *)(intptr_t)10));
    MTEST_RC(MPI_Type_set_attr(a, kv_dup, (void *)(intptr_t)20));
    MTEST_RC(MPI_Type_set_attr(a, kv_null, (void *)(intptr_t)30));
    MTEST_RC(MPI_Type_set_attr(a, kv_no, (void *)(intptr_t)40));
    MTEST_RC(MPI_Type_get_attr(a, kv_null, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 30, "get_attr: flag %d value %ld, want 30", flag, (long)(intptr_t)v);

    /* three generations of dups */
    MTEST_RC(MPI_Type_dup(a, &b));
    MTEST_RC(MPI_Type_dup(b, &c));
    MTEST_RC(MPI_Type_dup(c, &d));
    MTEST_CHECK(copies == 3, "copy callback ran %d times, want 3", copies);
    MTEST_RC(MPI_Type_get_attr(d, kv, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 13, "third dup: value %ld, want 13", (long)(intptr_t)v);
    MTEST_RC(MPI_Type_get_attr(d, kv_dup, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 20, "MPI_TYPE_DUP_FN: value %ld, want 20", (long)(intptr_t)v);
    MTEST_RC(MPI_Type_get_attr(d, kv_null, &v, &flag));
    MTEST_CHECK(!flag, "MPI_TYPE_NULL_COPY_FN copied the attribute");
    MTEST_RC(MPI_Type_get_attr(d, kv_no, &v, &flag));
    MTEST_CHECK(!flag, "a copy callback that set flag = 0 still copied");
    MTEST_RC(MPI_Type_get_attr(a, kv, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 10, "the original's value changed to %ld", (long)(intptr_t)v);

    /* each dup holds the type it was made from: free from the last one */
    deletes = 0;
    MTEST_RC(MPI_Type_free(&d));
    MTEST_CHECK(deletes == 1 && last_deleted_value == 13, "freeing the third dup: %d delete callbacks, value %ld",
                deletes, (long)last_deleted_value);
    MTEST_RC(MPI_Type_free(&c));
    MTEST_RC(MPI_Type_free(&b));
    MTEST_CHECK(deletes == 3 && last_deleted_value == 11, "freeing the dups: %d delete callbacks, last value %ld",
                deletes, (long)last_deleted_value);

    /* deletes: replacing, deleting, freeing */
    deletes = 0;
    MTEST_RC(MPI_Type_set_attr(a, kv, (void *)(intptr_t)11));
    MTEST_CHECK(deletes == 1 && last_deleted_type == a && last_deleted_value == 10,
                "replacing a value: %d delete callbacks, value %ld", deletes, (long)last_deleted_value);
    MTEST_RC(MPI_Type_delete_attr(a, kv_null));
    MTEST_CHECK(deletes == 2 && last_deleted_value == 30, "Type_delete_attr: %d delete callbacks in all, value %ld",
                deletes, (long)last_deleted_value);
    MTEST_RC(MPI_Type_get_attr(a, kv_null, &v, &flag));
    MTEST_CHECK(!flag, "a deleted attribute is still found");
    MTEST_RC(MPI_Type_delete_attr(a, kv_null));     /* nothing there: nothing to do */
    MTEST_CHECK(deletes == 2, "deleting an absent attribute ran a delete callback");
    MTEST_RC(MPI_Type_free(&a));     /* kv and kv_no have delete callbacks */
    MTEST_CHECK(deletes == 4, "Type_free ran %d delete callbacks in all, want 4", deletes);
    MTEST_CHECK(a == MPI_DATATYPE_NULL, "Type_free did not set MPI_DATATYPE_NULL");

    /* a freed keyval keeps working for the attributes it has */
    MPI_Type_contiguous(2, MPI_INT, &a);
    MTEST_RC(MPI_Type_set_attr(a, kv, (void *)(intptr_t)50));
    MTEST_RC(MPI_Type_free_keyval(&kv));
    MTEST_CHECK(kv == MPI_KEYVAL_INVALID, "Type_free_keyval did not set MPI_KEYVAL_INVALID");
    deletes = 0;
    MTEST_RC(MPI_Type_free(&a));
    MTEST_CHECK(deletes == 1 && last_deleted_value == 50,
                "freeing a type whose keyval was freed: %d delete callbacks, value %ld", deletes,
                (long)last_deleted_value);
    MPI_Type_free_keyval(&kv_dup);
    MPI_Type_free_keyval(&kv_null);
    MPI_Type_free_keyval(&kv_no);
}

/* Callbacks that fail make the call that ran them fail. */
static void test_failing_callbacks(void)
{
    int kv, flag;
    void *v;
    MPI_Datatype a, b = MPI_DATATYPE_NULL;
    MTEST_RC(MPI_Type_create_keyval(copy_may_fail, count_delete, &kv, NULL));
    MPI_Type_contiguous(2, MPI_DOUBLE, &a);
    MTEST_RC(MPI_Type_set_attr(a, kv, (void *)(intptr_t)5));
    fail_copy = 1;
    MTEST_CHECK(MPI_Type_dup(a, &b) != MPI_SUCCESS, "Type_dup succeeded though the copy callback failed");
    MTEST_CHECK(b == MPI_DATATYPE_NULL, "a failed Type_dup left newtype 0x%x, not MPI_DATATYPE_NULL", (unsigned)b);
    fail_copy = 0;
    fail_delete = 1;
    MTEST_CHECK(MPI_Type_delete_attr(a, kv) != MPI_SUCCESS, "Type_delete_attr succeeded, the callback failed");
    fail_delete = 0;
    MTEST_RC(MPI_Type_get_attr(a, kv, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 5, "a failed delete removed the attribute");
    deletes = 0;
    MTEST_RC(MPI_Type_free(&a));
    MTEST_CHECK(deletes == 1, "Type_free ran %d delete callbacks, want 1", deletes);
    MPI_Type_free_keyval(&kv);
}

/* A type built from another holds it: the inner type's attributes live on
 * until it is really destroyed. */
static void test_held(void)
{
    int kv, flag;
    void *v;
    MTEST_RC(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_delete, &kv, NULL));
    MPI_Datatype inner, outer, inner_handle;
    MPI_Type_vector(2, 2, 3, MPI_SHORT, &inner);
    inner_handle = inner;
    MTEST_RC(MPI_Type_set_attr(inner, kv, (void *)(intptr_t)42));
    MPI_Type_contiguous(3, inner, &outer);
    deletes = 0;
    MTEST_RC(MPI_Type_free(&inner));
    MTEST_CHECK(deletes == 0, "the delete callback ran while a type built from it still holds the type");

    int ci[1];
    MPI_Aint ca[1];
    MPI_Datatype ct[1];
    MTEST_RC(MPI_Type_get_contents(outer, 1, 0, 1, ci, ca, ct));
    MTEST_RC(MPI_Type_get_attr(ct[0], kv, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 42, "the held type's attribute: flag %d value %ld", flag, (long)(intptr_t)v);
    MTEST_RC(MPI_Type_free(&ct[0]));
    MTEST_CHECK(deletes == 0, "freeing the handle from get_contents ran the delete callback");

    size_seen_by_delete = -7;
    MTEST_RC(MPI_Type_free(&outer));
    MTEST_CHECK(deletes == 1 && last_deleted_value == 42 && last_deleted_type == inner_handle,
                "freeing the outer type: %d delete callbacks, value %ld, type 0x%x (want 0x%x)", deletes,
                (long)last_deleted_value, (unsigned)last_deleted_type, (unsigned)inner_handle);
    MTEST_CHECK(size_seen_by_delete == 8, "the delete callback found a type of size %d, want 8",
                size_seen_by_delete);
    MPI_Type_free_keyval(&kv);
}

static void test_predefined(void)
{
    int kv, flag;
    void *v;
    MTEST_RC(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_delete, &kv, NULL));
    MTEST_RC(MPI_Type_set_attr(MPI_DOUBLE, kv, (void *)(intptr_t)77));
    MTEST_RC(MPI_Type_get_attr(MPI_DOUBLE, kv, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 77, "attribute on MPI_DOUBLE: flag %d value %ld", flag, (long)(intptr_t)v);
    MTEST_RC(MPI_Type_get_attr(MPI_FLOAT, kv, &v, &flag));
    MTEST_CHECK(!flag, "an attribute set on MPI_DOUBLE is found on MPI_FLOAT");
    MPI_Datatype d;
    MTEST_RC(MPI_Type_dup(MPI_DOUBLE, &d));
    MTEST_RC(MPI_Type_get_attr(d, kv, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 77, "dup of MPI_DOUBLE: flag %d value %ld", flag, (long)(intptr_t)v);
    deletes = 0;
    MTEST_RC(MPI_Type_free(&d));
    MTEST_CHECK(deletes == 1, "freeing the dup ran %d delete callbacks", deletes);
    MTEST_RC(MPI_Type_delete_attr(MPI_DOUBLE, kv));
    MTEST_CHECK(deletes == 2 && last_deleted_type == MPI_DOUBLE, "delete_attr on MPI_DOUBLE: %d callbacks", deletes);
    MTEST_RC(MPI_Type_get_attr(MPI_DOUBLE, kv, &v, &flag));
    MTEST_CHECK(!flag, "a deleted attribute of MPI_DOUBLE is still found");
    MPI_Type_free_keyval(&kv);

    /* a freed keyval still names its attributes: get and delete work until
     * the last one is gone */
    MPI_Datatype t;
    int saved;
    MTEST_RC(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_delete, &kv, NULL));
    saved = kv;
    MPI_Type_contiguous(3, MPI_INT, &t);
    MTEST_RC(MPI_Type_set_attr(t, kv, (void *)(intptr_t)9));
    MTEST_RC(MPI_Type_free_keyval(&kv));
    MTEST_RC(MPI_Type_get_attr(t, saved, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 9, "get_attr with a freed keyval in use: flag %d", flag);
    deletes = 0;
    MTEST_RC(MPI_Type_delete_attr(t, saved));
    MTEST_CHECK(deletes == 1, "delete_attr with a freed keyval in use ran %d delete callbacks", deletes);
    CLASS(MPI_Type_get_attr(t, saved, &v, &flag), MPI_ERR_KEYVAL, "get_attr after the last attribute went");
    MPI_Type_free(&t);
}

static void test_kinds(void)
{
    int tkv[4], ckv[4], flag;
    void *v;
    /* interleaved keyvals of both kinds in the one table */
    for (int i = 0; i < 4; i++) {
        MTEST_RC(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkv[i], NULL));
        MTEST_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckv[i], NULL));
    }
    MPI_Datatype t;
    MPI_Type_contiguous(4, MPI_CHAR, &t);
    for (int i = 0; i < 4; i++) {
        MTEST_RC(MPI_Type_set_attr(t, tkv[i], (void *)(intptr_t)(100 + i)));
        MTEST_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, ckv[i], (void *)(intptr_t)(200 + i)));
    }
    for (int i = 0; i < 4; i++) {
        MTEST_RC(MPI_Type_get_attr(t, tkv[i], &v, &flag));
        MTEST_CHECK(flag && (intptr_t)v == 100 + i, "type keyval %d: value %ld", i, (long)(intptr_t)v);
        MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, ckv[i], &v, &flag));
        MTEST_CHECK(flag && (intptr_t)v == 200 + i, "comm keyval %d: value %ld", i, (long)(intptr_t)v);
    }
    /* a keyval works only on the kind of object it was made for */
    CLASS(MPI_Type_set_attr(t, ckv[0], NULL), MPI_ERR_KEYVAL, "Type_set_attr with a communicator keyval");
    CLASS(MPI_Type_get_attr(t, ckv[1], &v, &flag), MPI_ERR_KEYVAL, "Type_get_attr with a communicator keyval");
    CLASS(MPI_Type_delete_attr(t, ckv[2]), MPI_ERR_KEYVAL, "Type_delete_attr with a communicator keyval");
    CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, tkv[0], NULL), MPI_ERR_KEYVAL, "Comm_set_attr with a datatype keyval");
    CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, tkv[1], &v, &flag), MPI_ERR_KEYVAL, "Comm_get_attr, datatype keyval");
    CLASS(MPI_Type_free_keyval(&ckv[3]), MPI_ERR_KEYVAL, "Type_free_keyval of a communicator keyval");
    CLASS(MPI_Comm_free_keyval(&tkv[3]), MPI_ERR_KEYVAL, "Comm_free_keyval of a datatype keyval");
    CLASS(MPI_Type_set_attr(t, MPI_KEYVAL_INVALID, NULL), MPI_ERR_KEYVAL, "Type_set_attr with MPI_KEYVAL_INVALID");
    CLASS(MPI_Type_get_attr(t, MPI_TAG_UB, &v, &flag), MPI_ERR_KEYVAL, "Type_get_attr with MPI_TAG_UB");
    CLASS(MPI_Type_set_attr(MPI_DATATYPE_NULL, tkv[0], NULL), MPI_ERR_TYPE, "Type_set_attr on MPI_DATATYPE_NULL");
    int gone = tkv[0];
    MPI_Type_free_keyval(&tkv[0]);    /* t still has an attribute with it */
    /* a freed keyval still names the attributes that use it */
    MTEST_RC(MPI_Type_get_attr(t, gone, &v, &flag));
    MTEST_CHECK(flag, "Type_get_attr with a freed keyval in use found nothing");
    CLASS(MPI_Type_free_keyval(&tkv[0]), MPI_ERR_KEYVAL, "Type_free_keyval of MPI_KEYVAL_INVALID");
    MPI_Type_free(&t);
    for (int i = 0; i < 4; i++) {
        MPI_Comm_delete_attr(MPI_COMM_WORLD, ckv[i]);
        MPI_Comm_free_keyval(&ckv[i]);
        if (i > 0)
            MPI_Type_free_keyval(&tkv[i]);
    }
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    test_copy_delete();
    test_failing_callbacks();
    test_held();
    test_predefined();
    test_kinds();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return mtest_finalize();
}
