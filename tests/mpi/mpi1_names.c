/*
 * mpi1_names: the MPI-1 names the MPICH ABI keeps, each against its MPI-2
 * form.
 *   MPI_Address                  = MPI_Get_address, for stack, heap, static and NULL
 *   MPI_Type_extent/_lb/_ub      = MPI_Type_get_extent's extent, lb and lb + extent,
 *                                  for predefined, vector, resized (negative lb), struct
 *   MPI_Type_hvector/_hindexed/_struct = the create_ forms: size, bounds, true
 *                                  bounds, envelope, contents, and the packed bytes of
 *                                  the same buffer; a message sent with one and
 *                                  received with the other
 *   MPI_Keyval_create/_free, MPI_Attr_put/_get/_delete = the Comm_ forms: values
 *                                  seen both ways, copy callbacks at Comm_dup
 *                                  (MPI_DUP_FN, MPI_NULL_COPY_FN, a user function),
 *                                  delete callbacks at Attr_delete, replacement and
 *                                  Comm_free, predefined MPI_TAG_UB
 *   MPI_Errhandler_create/_set/_get = the Comm_ forms: the handler is called by
 *                                  MPI_Comm_call_errhandler, get returns what was set
 * and, with MPI_ERRORS_RETURN, the old names fail with the class of the new
 * form, and their messages name the old call.
 */
#include "mtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int static_var;

static void expect_same_class(int rc_old, int rc_new, const char *old_name)
{
    int c_old = -1, c_new = -2;
    MPI_Error_class(rc_old, &c_old);
    MPI_Error_class(rc_new, &c_new);
    MTEST_CHECK(rc_old != MPI_SUCCESS && c_old == c_new, "%s: class %d (%s), the MPI-2 form gives %d (%s)", old_name,
                c_old, mtest_class_name(c_old), c_new, mtest_class_name(c_new));
    if (!MTEST_MPICH_DEVIATION && rc_old != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc_old, msg, &len);
        MTEST_CHECK(strstr(msg, old_name) != NULL, "%s: the message does not name it: '%s'", old_name, msg);
    }
}

static void test_address(void)
{
    int local;
    double *heap = malloc(sizeof *heap);
    void *where[4] = {&local, heap, &static_var, NULL};
    for (int i = 0; i < 4; i++) {
        MPI_Aint a = -1, b = -2;
        MTEST_RC(MPI_Address(where[i], &a));
        MTEST_RC(MPI_Get_address(where[i], &b));
        MTEST_CHECK(a == b, "location %d: MPI_Address %ld, MPI_Get_address %ld", i, (long)a, (long)b);
    }
    free(heap);
}

static void compare_bounds(MPI_Datatype t, const char *name)
{
    MPI_Aint lb, extent, e = -1, l = -1, u = -1;
    MTEST_RC(MPI_Type_get_extent(t, &lb, &extent));
    MTEST_RC(MPI_Type_extent(t, &e));
    MTEST_RC(MPI_Type_lb(t, &l));
    MTEST_RC(MPI_Type_ub(t, &u));
    MTEST_CHECK(e == extent && l == lb && u == lb + extent, "%s: extent/lb/ub %ld %ld %ld, get_extent lb %ld extent %ld",
                name, (long)e, (long)l, (long)u, (long)lb, (long)extent);
}

/* Same envelope and contents; derived types inside compared the same way. */
static void compare_contents(MPI_Datatype a, MPI_Datatype b, const char *name)
{
    int ni[2], na[2], nt[2], comb[2];
    MTEST_RC(MPI_Type_get_envelope(a, &ni[0], &na[0], &nt[0], &comb[0]));
    MTEST_RC(MPI_Type_get_envelope(b, &ni[1], &na[1], &nt[1], &comb[1]));
    if (!MTEST_CHECK(ni[0] == ni[1] && na[0] == na[1] && nt[0] == nt[1] && comb[0] == comb[1],
                     "%s: envelopes (%d %d %d %d) and (%d %d %d %d)", name, ni[0], na[0], nt[0], comb[0], ni[1], na[1],
                     nt[1], comb[1]) ||
        comb[0] == MPI_COMBINER_NAMED || ni[0] > 16 || na[0] > 16 || nt[0] > 16)
        return;
    int ia[16], ib[16];
    MPI_Aint aa[16], ab[16];
    MPI_Datatype ta[16], tb[16];
    MTEST_RC(MPI_Type_get_contents(a, ni[0], na[0], nt[0], ia, aa, ta));
    MTEST_RC(MPI_Type_get_contents(b, ni[1], na[1], nt[1], ib, ab, tb));
    MTEST_CHECK(!memcmp(ia, ib, (size_t)ni[0] * sizeof ia[0]) && !memcmp(aa, ab, (size_t)na[0] * sizeof aa[0]),
                "%s: contents differ", name);
    for (int i = 0; i < nt[0]; i++) {
        int x, y, z, c;
        MPI_Type_get_envelope(ta[i], &x, &y, &z, &c);
        if (c == MPI_COMBINER_NAMED) {
            MTEST_CHECK(ta[i] == tb[i], "%s: type %d of the contents differs", name, i);
            continue;
        }
        compare_contents(ta[i], tb[i], name);
        MPI_Type_free(&ta[i]);      /* derived types from get_contents are the caller's */
        MPI_Type_free(&tb[i]);
    }
}

/* Two types that must be the same in every respect we can ask about. */
static void compare_types(MPI_Datatype a, MPI_Datatype b, const char *name)
{
    int sa, sb;
    MPI_Aint la, ea, lb, eb, tla, tea, tlb, teb;
    MTEST_RC(MPI_Type_size(a, &sa));
    MTEST_RC(MPI_Type_size(b, &sb));
    MTEST_RC(MPI_Type_get_extent(a, &la, &ea));
    MTEST_RC(MPI_Type_get_extent(b, &lb, &eb));
    MTEST_RC(MPI_Type_get_true_extent(a, &tla, &tea));
    MTEST_RC(MPI_Type_get_true_extent(b, &tlb, &teb));
    MTEST_CHECK(sa == sb && la == lb && ea == eb && tla == tlb && tea == teb,
                "%s: size %d/%d lb %ld/%ld extent %ld/%ld true lb %ld/%ld true extent %ld/%ld", name, sa, sb, (long)la,
                (long)lb, (long)ea, (long)eb, (long)tla, (long)tlb, (long)tea, (long)teb);
    compare_contents(a, b, name);
    /* the same bytes packed from one buffer (types whose data starts at 0 or later) */
    if (tla < 0)
        return;
    MPI_Aint span = tla + tea + 64;
    char *buf = malloc((size_t)span), *pa = malloc((size_t)sa + 1), *pb = malloc((size_t)sa + 1);
    mtest_fill(buf, (size_t)span, 0, 7);
    int posa = 0, posb = 0;
    MTEST_RC(MPI_Pack(buf, 1, a, pa, sa + 1, &posa, MPI_COMM_WORLD));
    MTEST_RC(MPI_Pack(buf, 1, b, pb, sa + 1, &posb, MPI_COMM_WORLD));
    MTEST_CHECK(posa == posb && posa == sa && !memcmp(pa, pb, (size_t)sa), "%s: packed bytes differ", name);
    free(buf);
    free(pa);
    free(pb);
}

static void test_types(void)
{
    compare_bounds(MPI_INT, "MPI_INT");
    compare_bounds(MPI_DOUBLE_INT, "MPI_DOUBLE_INT");

    MPI_Datatype o, n, r;
    /* hvector of doubles, 3 blocks of 2, 40 bytes apart */
    MTEST_RC(MPI_Type_hvector(3, 2, 40, MPI_DOUBLE, &o));
    MTEST_RC(MPI_Type_create_hvector(3, 2, 40, MPI_DOUBLE, &n));
    MTEST_RC(MPI_Type_commit(&o));
    MTEST_RC(MPI_Type_commit(&n));
    compare_types(o, n, "hvector");
    compare_bounds(o, "hvector");
    MTEST_RC(MPI_Type_create_resized(o, -16, 200, &r));
    MTEST_RC(MPI_Type_commit(&r));
    compare_bounds(r, "resized hvector (lb -16)");
    MTEST_RC(MPI_Type_free(&r));
    MTEST_RC(MPI_Type_free(&n));

    /* hindexed of ints, with a negative displacement */
    int bl[3] = {2, 1, 3};
    MPI_Aint disp[3] = {24, -8, 64};
    MPI_Datatype h_o, h_n;
    MTEST_RC(MPI_Type_hindexed(3, bl, disp, MPI_INT, &h_o));
    MTEST_RC(MPI_Type_create_hindexed(3, bl, disp, MPI_INT, &h_n));
    MTEST_RC(MPI_Type_commit(&h_o));
    MTEST_RC(MPI_Type_commit(&h_n));
    MPI_Datatype sh_o, sh_n;        /* shifted so that packing from a buffer start is in bounds */
    MPI_Aint shift[1] = {8};
    int one[1] = {1};
    MTEST_RC(MPI_Type_create_hindexed(1, one, shift, h_o, &sh_o));
    MTEST_RC(MPI_Type_create_hindexed(1, one, shift, h_n, &sh_n));
    MTEST_RC(MPI_Type_commit(&sh_o));
    MTEST_RC(MPI_Type_commit(&sh_n));
    compare_types(h_o, h_n, "hindexed (envelope)");
    compare_types(sh_o, sh_n, "hindexed");
    compare_bounds(h_o, "hindexed");
    MTEST_RC(MPI_Type_free(&sh_o));
    MTEST_RC(MPI_Type_free(&sh_n));
    MTEST_RC(MPI_Type_free(&h_n));

    /* struct of an int, the hvector above and 3 chars */
    int sbl[3] = {1, 1, 3};
    MPI_Aint sdisp[3] = {0, 8, 300};
    MPI_Datatype stypes[3] = {MPI_INT, o, MPI_CHAR}, s_o, s_n;
    MTEST_RC(MPI_Type_struct(3, sbl, sdisp, stypes, &s_o));
    MTEST_RC(MPI_Type_create_struct(3, sbl, sdisp, stypes, &s_n));
    MTEST_RC(MPI_Type_commit(&s_o));
    MTEST_RC(MPI_Type_commit(&s_n));
    compare_types(s_o, s_n, "struct");
    compare_bounds(s_o, "struct");

    /* sent with the old one, received with the new one */
    int right = (mtest_rank + 1) % mtest_size, left = (mtest_rank + mtest_size - 1) % mtest_size;
    MPI_Aint lb, ext;
    MPI_Type_get_extent(s_o, &lb, &ext);
    size_t span = (size_t)ext * 2;
    char *out = malloc(span), *in = malloc(span), *ref = malloc(span);
    mtest_fill(out, span, mtest_rank, 1);
    memset(in, 0, span);
    MPI_Request rq;
    MTEST_RC(MPI_Irecv(in, 2, s_n, left, 4, MPI_COMM_WORLD, &rq));
    MTEST_RC(MPI_Send(out, 2, s_o, right, 4, MPI_COMM_WORLD));
    MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    /* what should have arrived: the sender's bytes inside the type map, zero elsewhere */
    mtest_fill(ref, span, left, 1);
    char *mask = calloc(1, span), *tmp = malloc(span);
    int pos = 0, sz;
    MPI_Type_size(s_n, &sz);
    char *packed = malloc((size_t)sz * 2);
    memset(tmp, 1, span);
    MPI_Pack(tmp, 2, s_n, packed, sz * 2, &pos, MPI_COMM_WORLD);
    pos = 0;
    MPI_Unpack(packed, sz * 2, &pos, mask, 2, s_n, MPI_COMM_WORLD);
    int bad = 0;
    for (size_t i = 0; i < span; i++)
        if (in[i] != (mask[i] ? ref[i] : 0))
            bad++;
    MTEST_CHECK(bad == 0, "struct message: %d bytes wrong", bad);
    free(out);
    free(in);
    free(ref);
    free(mask);
    free(tmp);
    free(packed);
    MTEST_RC(MPI_Type_free(&s_o));
    MTEST_RC(MPI_Type_free(&s_n));
    MTEST_RC(MPI_Type_free(&h_o));
    MTEST_RC(MPI_Type_free(&o));
}

static int ncopy, ndelete, last_deleted;

static int copy_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    ncopy++;
    *(void **)out = (char *)in + *(int *)extra;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    ndelete++;
    last_deleted = (int)(intptr_t)value;
    return MPI_SUCCESS;
}

static void test_attributes(void)
{
    int k_user, k_dup, k_null, step = 1000, flag = -1;
    void *v = NULL;
    MTEST_RC(MPI_Keyval_create(copy_fn, delete_fn, &k_user, &step));
    MTEST_RC(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k_dup, NULL));
    MTEST_RC(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k_null, NULL));

    MTEST_RC(MPI_Attr_put(MPI_COMM_WORLD, k_user, (void *)(intptr_t)7));
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, k_user, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 7, "Attr_put 7, Comm_get_attr sees %ld (flag %d)", (long)(intptr_t)v, flag);
    MTEST_RC(MPI_Comm_set_attr(MPI_COMM_WORLD, k_dup, (void *)(intptr_t)8));
    MTEST_RC(MPI_Attr_get(MPI_COMM_WORLD, k_dup, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 8, "Comm_set_attr 8, Attr_get sees %ld (flag %d)", (long)(intptr_t)v, flag);
    MTEST_RC(MPI_Attr_put(MPI_COMM_WORLD, k_null, (void *)(intptr_t)9));
    MTEST_RC(MPI_Attr_put(MPI_COMM_WORLD, k_user, (void *)(intptr_t)10));    /* replaces: delete_fn(7) */
    MTEST_CHECK(ndelete == 1 && last_deleted == 7, "replacing: delete_fn %d times, last value %d", ndelete,
                last_deleted);

    MPI_Comm dup;
    MTEST_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MTEST_CHECK(ncopy == 1, "Comm_dup: copy_fn called %d times", ncopy);
    MTEST_RC(MPI_Attr_get(dup, k_user, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 1010, "dup: user copy gave %ld (flag %d), want 1010", (long)(intptr_t)v, flag);
    MTEST_RC(MPI_Attr_get(dup, k_dup, &v, &flag));
    MTEST_CHECK(flag && (intptr_t)v == 8, "dup: MPI_DUP_FN gave %ld (flag %d)", (long)(intptr_t)v, flag);
    MTEST_RC(MPI_Attr_get(dup, k_null, &v, &flag));
    MTEST_CHECK(!flag, "dup: MPI_NULL_COPY_FN copied the attribute");
    MTEST_RC(MPI_Comm_free(&dup));
    MTEST_CHECK(ndelete == 2 && last_deleted == 1010, "Comm_free: delete_fn %d times, last value %d", ndelete,
                last_deleted);

    MTEST_RC(MPI_Attr_delete(MPI_COMM_WORLD, k_user));
    MTEST_CHECK(ndelete == 3 && last_deleted == 10, "Attr_delete: delete_fn %d times, last value %d", ndelete,
                last_deleted);
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, k_user, &v, &flag));
    MTEST_CHECK(!flag, "the attribute is still there after Attr_delete");
    MTEST_RC(MPI_Comm_delete_attr(MPI_COMM_WORLD, k_dup));
    MTEST_RC(MPI_Attr_delete(MPI_COMM_WORLD, k_null));

    int *ub_old = NULL, *ub_new = NULL, f1 = 0, f2 = 0;
    MTEST_RC(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &ub_old, &f1));
    MTEST_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub_new, &f2));
    MTEST_CHECK(f1 && f2 && ub_old && ub_new && *ub_old == *ub_new && *ub_old >= 32767, "MPI_TAG_UB: %d / %d",
                ub_old ? *ub_old : -1, ub_new ? *ub_new : -1);

    MTEST_RC(MPI_Keyval_free(&k_user));
    MTEST_CHECK(k_user == MPI_KEYVAL_INVALID, "Keyval_free left the keyval %d", k_user);
    MTEST_RC(MPI_Comm_free_keyval(&k_dup));
    MTEST_RC(MPI_Keyval_free(&k_null));
}

static int handler_calls, handler_code;
static MPI_Comm handler_comm;
static void handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_comm = *comm;
}

static void test_errhandlers(void)
{
    MPI_Errhandler eh, got, prev;
    MTEST_RC(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &prev));
    MTEST_RC(MPI_Errhandler_create(handler, &eh));
    MTEST_RC(MPI_Errhandler_set(MPI_COMM_WORLD, eh));
    MTEST_RC(MPI_Errhandler_get(MPI_COMM_WORLD, &got));
    MTEST_CHECK(got == eh, "Errhandler_get gave 0x%x, set 0x%x", (unsigned)got, (unsigned)eh);
    MTEST_RC(MPI_Errhandler_free(&got));
    MTEST_RC(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG));
    MTEST_CHECK(handler_calls == 1 && handler_code == MPI_ERR_TAG && handler_comm == MPI_COMM_WORLD,
                "handler: %d calls, code %d", handler_calls, handler_code);
    /* a real error goes to it too */
    int x = 0, rc = MPI_Send(&x, 1, MPI_INT, mtest_size, 0, MPI_COMM_WORLD);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    MTEST_CHECK(handler_calls == 2 && cls == MPI_ERR_RANK, "bad rank: handler %d calls, class %d", handler_calls, cls);
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MTEST_RC(MPI_Errhandler_get(MPI_COMM_WORLD, &got));
    MTEST_CHECK(got == MPI_ERRORS_RETURN, "Errhandler_get after Comm_set_errhandler: 0x%x", (unsigned)got);
    MTEST_RC(MPI_Errhandler_free(&eh));
    MTEST_RC(MPI_Errhandler_free(&prev));
}

static void test_errors(void)
{
    MPI_Aint a;
    MPI_Datatype t;
    int bl[1] = {1}, neg[1] = {-1}, k, flag;
    MPI_Aint d[1] = {0};
    MPI_Datatype types[1] = {MPI_DATATYPE_NULL};
    void *v;
    MPI_Errhandler eh;
    /* MPI_ERRORS_RETURN is set on MPI_COMM_WORLD */
    expect_same_class(MPI_Type_extent(MPI_DATATYPE_NULL, &a), MPI_Type_get_extent(MPI_DATATYPE_NULL, &a, &a),
                      "MPI_Type_extent");
    expect_same_class(MPI_Type_lb(MPI_DATATYPE_NULL, &a), MPI_Type_get_extent(MPI_DATATYPE_NULL, &a, &a),
                      "MPI_Type_lb");
    expect_same_class(MPI_Type_ub(MPI_DATATYPE_NULL, &a), MPI_Type_get_extent(MPI_DATATYPE_NULL, &a, &a),
                      "MPI_Type_ub");
    expect_same_class(MPI_Type_hvector(-1, 1, 8, MPI_INT, &t), MPI_Type_create_hvector(-1, 1, 8, MPI_INT, &t),
                      "MPI_Type_hvector");
    expect_same_class(MPI_Type_hindexed(1, neg, d, MPI_INT, &t), MPI_Type_create_hindexed(1, neg, d, MPI_INT, &t),
                      "MPI_Type_hindexed");
    expect_same_class(MPI_Type_struct(1, bl, d, types, &t), MPI_Type_create_struct(1, bl, d, types, &t),
                      "MPI_Type_struct");
    expect_same_class(MPI_Attr_put(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, NULL),
                      MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, NULL), "MPI_Attr_put");
    expect_same_class(MPI_Attr_get(MPI_COMM_NULL, MPI_TAG_UB, &v, &flag),
                      MPI_Comm_get_attr(MPI_COMM_NULL, MPI_TAG_UB, &v, &flag), "MPI_Attr_get");
    expect_same_class(MPI_Attr_delete(MPI_COMM_WORLD, MPI_TAG_UB), MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB),
                      "MPI_Attr_delete");
    k = MPI_KEYVAL_INVALID;
    int k2 = MPI_KEYVAL_INVALID;
    expect_same_class(MPI_Keyval_free(&k), MPI_Comm_free_keyval(&k2), "MPI_Keyval_free");
    expect_same_class(MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL),
                      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), "MPI_Errhandler_set");
    expect_same_class(MPI_Errhandler_get(MPI_COMM_NULL, &eh), MPI_Comm_get_errhandler(MPI_COMM_NULL, &eh),
                      "MPI_Errhandler_get");
    if (!MTEST_MPICH_DEVIATION) {   /* MPICH 4.0 does not check these pointers */
        expect_same_class(MPI_Address(&k, NULL), MPI_Get_address(&k, NULL), "MPI_Address");
        expect_same_class(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, NULL, NULL),
                          MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL),
                          "MPI_Keyval_create");
        expect_same_class(MPI_Errhandler_create(handler, NULL), MPI_Comm_create_errhandler(handler, NULL),
                          "MPI_Errhandler_create");
        expect_same_class(MPI_Type_extent(MPI_INT, NULL), MPI_Type_get_extent(MPI_INT, &a, NULL),
                          "MPI_Type_extent");
    }
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    test_address();
    test_types();
    test_attributes();
    test_errhandlers();     /* leaves MPI_ERRORS_RETURN on MPI_COMM_WORLD */
    test_errors();
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    return mtest_finalize();
}
