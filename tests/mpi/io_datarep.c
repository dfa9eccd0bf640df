/*
 * io_datarep: data representations of MPI-IO (MPI-4.1 section 14.5) end to
 * end, every rank writing its own interleaved blocks of one shared file:
 *   - a user representation "dmpi-test-swap" storing every int and double
 *     byte-swapped (its conversion functions walk the datatype they are given,
 *     tiled from userbuf, from item `position`; a noncontiguous memory type);
 *     the file's raw bytes checked byte for byte with POSIX reads, read back
 *     through the representation, statuses counted in ints;
 *   - "external32": big-endian bytes on disk, checked byte for byte, ints and
 *     doubles; MPI_File_get_type_extent of MPI_LONG is 4 bytes there;
 *   - structs {int, double} in memory (C padding) written under an MPI_BYTE
 *     view: each item in its file form back to back, for every
 *     representation, MPI_Get_count and MPI_Get_elements after the accesses;
 *   - a representation registered with MPI_CONVERSION_FN_NULL: native bytes;
 *   - "dmpi-test-i64": ints widened to 8 big-endian bytes in the file (its
 *     extent function says 8): the view's vector filetype is laid out with
 *     the file extents (strides scale, the displacement is given in file
 *     bytes from MPI_File_get_type_extent);
 *   - MPI_ERR_DUP_DATAREP on re-registration (also of "external32"),
 *     MPI_ERR_UNSUPPORTED_DATAREP for MPI_File_set_view with an unknown name,
 *     MPI_ERR_CONVERSION when a conversion function fails;
 *   - MPI_File_get_type_extent under each representation, and the extent
 *     function getting its extra_state.
 * The file lives in $TMPDIR (or /tmp) under a unique name and is deleted.
 */
#include "mtest.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 8                      /* ints or doubles per rank */

static int rank, size;

/* MPICH 4.0 (ROMIO) implements no user representation: MPI_Register_datarep
 * with conversion functions fails ("Read and Write datarep conversions are
 * currently not supported"), and MPI_File_set_view refuses every name but
 * its built-in ones ("Only native data representation currently
 * supported"), MPI_CONVERSION_FN_NULL ones included. Under MPICH only
 * native, external32 and the registry's errors are checked. */
#define USER_REPS (!MTEST_MPICH_DEVIATION)
static char path[1024];
static MPI_File fh;

/* ---- the predefined items of a datatype (for the conversion functions) ---- */

typedef struct item {
    MPI_Aint disp;
    int size;                    /* 4: an int, 8: a double */
} item_t;

/* Appends the items of one element of t at base; returns the new count. */
static int flatten(MPI_Datatype t, MPI_Aint base, item_t *out, int max, int n)
{
    int ni, na, nt, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nt, &comb);
    if (comb == MPI_COMBINER_NAMED) {
        int sz;
        MPI_Type_size(t, &sz);
        if (n < max)
            out[n] = (item_t){base, sz};
        return n + 1;
    }
    int ints[16];
    MPI_Aint aints[8];
    MPI_Datatype types[8];
    if (ni > 16 || na > 8 || nt > 8)
        return max + 1;
    MPI_Type_get_contents(t, ni, na, nt, ints, aints, types);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(types[0], &lb, &ext);
    switch (comb) {
    case MPI_COMBINER_CONTIGUOUS:
        for (int k = 0; k < ints[0]; k++)
            n = flatten(types[0], base + k * ext, out, max, n);
        break;
    case MPI_COMBINER_VECTOR:
        for (int b = 0; b < ints[0]; b++)
            for (int k = 0; k < ints[1]; k++)
                n = flatten(types[0], base + ((MPI_Aint)b * ints[2] + k) * ext, out, max, n);
        break;
    case MPI_COMBINER_STRUCT:
        for (int b = 0; b < ints[0]; b++) {
            MPI_Aint bl, be;
            MPI_Type_get_extent(types[b], &bl, &be);
            for (int k = 0; k < ints[1 + b]; k++)
                n = flatten(types[b], base + aints[b] + k * be, out, max, n);
        }
        break;
    default:                     /* DUP, RESIZED */
        n = flatten(types[0], base, out, max, n);
        break;
    }
    for (int i = 0; i < nt; i++) {
        MPI_Type_get_envelope(types[i], &ni, &na, &nt, &comb);
        if (comb != MPI_COMBINER_NAMED)
            MPI_Type_free(&types[i]);
    }
    return n;
}

/* ---- the representations' functions ----------------------------------------- */

static void swap_bytes(const unsigned char *src, unsigned char *dst, int n)
{
    for (int b = 0; b < n; b++)
        dst[b] = src[n - 1 - b];
}

/* What the conversion functions saw, to check the standard's arguments. */
static int conv_calls, conv_bad;

/* Converts count items of the tiled datatype from item position: to the
 * file when write, back when not. wide: ints take 8 big-endian bytes. */
static int convert(void *userbuf, MPI_Datatype t, MPI_Count count, void *filebuf, MPI_Offset position, int write,
                   int wide)
{
    item_t items[64];
    int per = flatten(t, 0, items, 64, 0);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    conv_calls++;
    if (per <= 0 || per > 64 || position < 0 || count < 0) {
        conv_bad++;
        return MPI_ERR_OTHER;
    }
    unsigned char *f = filebuf;
    for (MPI_Count i = 0; i < count; i++) {
        MPI_Offset g = position + i;
        item_t it = items[g % per];
        unsigned char *u = (unsigned char *)userbuf + (g / per) * ext + it.disp;
        if (wide && it.size == 4) {          /* an int as 8 big-endian bytes */
            if (write) {
                long long v = *(int *)u;
                swap_bytes((unsigned char *)&v, f, 8);
            } else {
                long long v;
                swap_bytes(f, (unsigned char *)&v, 8);
                *(int *)u = (int)v;
            }
            f += 8;
            continue;
        }
        if (write)
            swap_bytes(u, f, it.size);
        else
            swap_bytes(f, u, it.size);
        f += it.size;
    }
    return MPI_SUCCESS;
}

static int swap_read(void *userbuf, MPI_Datatype t, int count, void *filebuf, MPI_Offset position, void *extra)
{
    (void)extra;
    return convert(userbuf, t, count, filebuf, position, 0, 0);
}

static int swap_write(void *userbuf, MPI_Datatype t, int count, void *filebuf, MPI_Offset position, void *extra)
{
    (void)extra;
    return convert(userbuf, t, count, filebuf, position, 1, 0);
}

static int i64_read(void *userbuf, MPI_Datatype t, int count, void *filebuf, MPI_Offset position, void *extra)
{
    (void)extra;
    return convert(userbuf, t, count, filebuf, position, 0, 1);
}

static int i64_write(void *userbuf, MPI_Datatype t, int count, void *filebuf, MPI_Offset position, void *extra)
{
    (void)extra;
    return convert(userbuf, t, count, filebuf, position, 1, 1);
}

static int failing(void *userbuf, MPI_Datatype t, int count, void *filebuf, MPI_Offset position, void *extra)
{
    (void)userbuf, (void)t, (void)count, (void)filebuf, (void)position, (void)extra;
    return MPI_ERR_OTHER;
}

static int extra_token, extent_bad;

static int native_extent(MPI_Datatype t, MPI_Aint *extent, void *extra)
{
    MPI_Aint lb;
    if (extra != &extra_token)
        extent_bad++;
    return MPI_Type_get_extent(t, &lb, extent);
}

static int i64_extent(MPI_Datatype t, MPI_Aint *extent, void *extra)
{
    MPI_Aint lb;
    if (extra != &extra_token)
        extent_bad++;
    MPI_Type_get_extent(t, &lb, extent);
    if (t == MPI_INT)
        *extent = 8;
    return MPI_SUCCESS;
}

/* ---- the file ----------------------------------------------------------------- */

static void open_file(void)
{
    MTEST_RC(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    MTEST_RC(MPI_File_set_size(fh, 0));
}

static void close_file(void)
{
    MTEST_RC(MPI_File_close(&fh));
}

/* The file's bytes [off, off + n) as they are on disk; returns the file's size. */
static long long raw(MPI_Offset off, void *buf, size_t n)
{
    struct stat sb;
    memset(buf, 0xee, n);
    int fd = open(path, O_RDONLY);
    ssize_t got = fd >= 0 ? pread(fd, buf, n, off) : -1;
    MTEST_CHECK(got == (ssize_t)n, "pread of %zu bytes at %lld gave %zd", n, (long long)off, got);
    long long fsize = fd >= 0 && fstat(fd, &sb) == 0 ? (long long)sb.st_size : -1;
    if (fd >= 0)
        close(fd);
    return fsize;
}

static int value(int r, int i) { return (i & 1 ? -1 : 1) * (0x01020304 * (r + 1) + i); }
static double dvalue(int r, int i) { return (r + 1) * 1000.5 + i * 0.25; }

/* Rank r's ints interleaved: blocks of 2, every 2 * size ints; in memory
 * every other int of a 2N-int array (a vector type). Written through rep
 * with file extent fext per int; bytes of the file checked by expect(). */
typedef void expect_fn(int v, unsigned char *want);

static void be4(int v, unsigned char *want) { swap_bytes((unsigned char *)&v, want, 4); }
static void ne4(int v, unsigned char *want) { memcpy(want, &v, 4); }
static void be8(int v, unsigned char *want)
{
    long long w = v;
    swap_bytes((unsigned char *)&w, want, 8);
}

static void ints_case(const char *rep, int fext, expect_fn *expect)
{
    MPI_Datatype ftype, mtype;
    MPI_Aint ext = -1;
    MPI_Status st;
    open_file();
    MPI_Type_vector(N / 2, 2, 2 * size, MPI_INT, &ftype);
    MPI_Type_commit(&ftype);
    MPI_Type_vector(N, 1, 2, MPI_INT, &mtype);
    MPI_Type_commit(&mtype);
    /* the view's displacement is in file bytes: this rank's first block */
    MTEST_RC(MPI_File_set_view(fh, 0, MPI_INT, ftype, rep, MPI_INFO_NULL));
    MTEST_RC(MPI_File_get_type_extent(fh, MPI_INT, &ext));
    MTEST_CHECK(ext == fext, "%s: file extent of MPI_INT %ld, want %d", rep, (long)ext, fext);
    MTEST_RC(MPI_File_set_view(fh, (MPI_Offset)rank * 2 * fext, MPI_INT, ftype, rep, MPI_INFO_NULL));
    char got_rep[MPI_MAX_DATAREP_STRING] = "";
    MPI_Offset disp;
    MPI_Datatype et, ft;
    MTEST_RC(MPI_File_get_view(fh, &disp, &et, &ft, got_rep));
    MTEST_CHECK(!strcmp(got_rep, rep), "get_view gives datarep \"%s\", want \"%s\"", got_rep, rep);
    if (ft != MPI_INT && ft != MPI_BYTE)
        MPI_Type_free(&ft);
    int buf[2 * N], back[2 * N];
    for (int i = 0; i < 2 * N; i++)
        buf[i] = i & 1 ? -7 : value(rank, i / 2);
    MTEST_RC(MPI_File_write_all(fh, buf, 1, mtype, &st));
    int cnt = -1;
    MPI_Get_count(&st, MPI_INT, &cnt);
    MTEST_CHECK(cnt == N, "%s: write_all counted %d ints, want %d", rep, cnt, N);
    MTEST_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_RC(MPI_File_sync(fh));

    /* every rank checks the whole file: size * N ints of fext bytes */
    size_t total = (size_t)size * N * (size_t)fext;
    unsigned char *file = malloc(total), want[8];
    long long fsize = raw(0, file, total);
    MTEST_CHECK(fsize == (long long)total, "%s: the file has %lld bytes, want %zu", rep, fsize, total);
    int bad = 0;
    for (int j = 0; j < size * N; j++) {
        int owner = (j / 2) % size, i = (j / (2 * size)) * 2 + j % 2;
        expect(value(owner, i), want);
        if (memcmp(file + (size_t)j * fext, want, (size_t)fext) && bad++ < 3)
            mtest_fail("%s: int %d of the file (rank %d's %d) has bytes %02x %02x %02x %02x ...", rep, j, owner, i,
                       file[j * fext], file[j * fext + 1], file[j * fext + 2], file[j * fext + 3]);
    }
    free(file);

    /* back through the representation, into every other int again */
    for (int i = 0; i < 2 * N; i++)
        back[i] = -7;
    MTEST_RC(MPI_File_read_at_all(fh, 0, back, 1, mtype, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    MTEST_CHECK(cnt == N, "%s: read_at_all counted %d ints, want %d", rep, cnt, N);
    MTEST_CHECK(!memcmp(back, buf, sizeof buf), "%s: read back differs (first %d, want %d)", rep, back[0], buf[0]);
    /* one int at a time from position 3 of the view */
    int one = 0;
    MTEST_RC(MPI_File_read_at(fh, 3, &one, 1, MPI_INT, &st));
    MTEST_CHECK(one == value(rank, 3), "%s: int 3 read back as %d, want %d", rep, one, value(rank, 3));
    MPI_Type_free(&ftype);
    MPI_Type_free(&mtype);
    close_file();
}

/* Doubles, each rank's N in one block, checked as swapped (be) or native bytes. */
static void doubles_case(const char *rep, int be)
{
    MPI_Status st;
    open_file();
    MTEST_RC(MPI_File_set_view(fh, (MPI_Offset)rank * N * 8, MPI_DOUBLE, MPI_DOUBLE, rep, MPI_INFO_NULL));
    double d[N], back[N];
    for (int i = 0; i < N; i++)
        d[i] = dvalue(rank, i);
    MTEST_RC(MPI_File_write_at_all(fh, 0, d, N, MPI_DOUBLE, &st));
    MTEST_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_RC(MPI_File_sync(fh));
    unsigned char got[N * 8], want[8];
    int peer = (rank + 1) % size;        /* a neighbour's block */
    raw((MPI_Offset)peer * N * 8, got, sizeof got);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double v = dvalue(peer, i);
        if (be)
            swap_bytes((unsigned char *)&v, want, 8);
        else
            memcpy(want, &v, 8);
        if (memcmp(got + 8 * i, want, 8) && bad++ < 3)
            mtest_fail("%s: double %d of rank %d differs on disk", rep, i, peer);
    }
    memset(back, 0, sizeof back);
    MTEST_RC(MPI_File_read_at_all(fh, 0, back, N, MPI_DOUBLE, &st));
    MTEST_CHECK(!memcmp(back, d, sizeof d), "%s: doubles read back differ", rep);
    int cnt = -1;
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    MTEST_CHECK(cnt == N, "%s: read_at_all counted %d doubles", rep, cnt);
    close_file();
}

/* Structs {int, double} (with C's padding in memory) under an MPI_BYTE
 * view: per bytes each in the file, the int's int_bytes then the double's
 * 8, big-endian (be) or native. */
struct rec {
    int i;
    double d;
};

static void struct_case(const char *rep, int int_bytes, int be)
{
    MPI_Datatype t;
    int bl[2] = {1, 1};
    MPI_Aint disps[2] = {offsetof(struct rec, i), offsetof(struct rec, d)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, disps, types, &t);
    MPI_Type_commit(&t);
    int per = int_bytes + 8;
    struct rec r[3], back[3];
    MPI_Status st;
    for (int k = 0; k < 3; k++)
        r[k] = (struct rec){value(rank, k), dvalue(rank, k)};
    open_file();
    MTEST_RC(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, rep, MPI_INFO_NULL));
    MTEST_RC(MPI_File_write_at_all(fh, (MPI_Offset)rank * 3 * per, r, 3, t, &st));
    int cnt = -1;
    MPI_Get_count(&st, t, &cnt);
    MTEST_CHECK(cnt == 3, "%s: struct write counted %d, want 3", rep, cnt);
    MTEST_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MTEST_RC(MPI_File_sync(fh));
    int peer = (rank + size - 1) % size;
    unsigned char got[3 * 16], want[16];
    raw((MPI_Offset)peer * 3 * per, got, (size_t)(3 * per));
    for (int k = 0; k < 3; k++) {
        int v = value(peer, k);
        double d = dvalue(peer, k);
        if (int_bytes == 8)
            be8(v, want);
        else if (be)
            be4(v, want);
        else
            ne4(v, want);
        if (be)
            swap_bytes((unsigned char *)&d, want + int_bytes, 8);
        else
            memcpy(want + int_bytes, &d, 8);
        MTEST_CHECK(!memcmp(got + k * per, want, (size_t)per), "%s: struct %d of rank %d differs on disk", rep, k,
                    peer);
    }
    memset(back, 0, sizeof back);
    MTEST_RC(MPI_File_read_at_all(fh, (MPI_Offset)rank * 3 * per, back, 3, t, &st));
    int ok = 1;
    for (int k = 0; k < 3; k++)
        ok &= back[k].i == r[k].i && back[k].d == r[k].d;
    MTEST_CHECK(ok, "%s: structs read back differ", rep);
    int elems = -1;
    MPI_Get_elements(&st, t, &elems);
    MTEST_CHECK(elems == 6, "%s: struct read counted %d elements, want 6", rep, elems);
    close_file();
    MPI_Type_free(&t);
}

/* MPI_File_get_type_extent of t under rep. */
static void extent_case(const char *rep, MPI_Datatype t, const char *tname, MPI_Aint want, int deviation)
{
    MPI_Aint ext = -1;
    MTEST_RC(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, rep, MPI_INFO_NULL));
    MTEST_RC(MPI_File_get_type_extent(fh, t, &ext));
    if (!deviation)
        MTEST_CHECK(ext == want, "%s: MPI_File_get_type_extent(%s) = %ld, want %ld", rep, tname, (long)ext,
                    (long)want);
}

static void test_extents(void)
{
    MPI_Datatype vec, st;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int bl[2] = {1, 1};
    MPI_Aint disps[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, disps, types, &st);
    MPI_Type_commit(&st);
    open_file();
    extent_case("native", MPI_INT, "MPI_INT", 4, 0);
    extent_case("native", MPI_LONG, "MPI_LONG", (MPI_Aint)sizeof(long), 0);
    extent_case("native", vec, "vector(3, 2, 4) of MPI_INT", 40, 0);
    extent_case("internal", MPI_DOUBLE, "MPI_DOUBLE", 8, 0);
    extent_case("external32", MPI_INT, "MPI_INT", 4, 0);
    /* MPICH (ROMIO) gives MPI_LONG its native 8 bytes in external32; the
     * standard's table says 4 */
    extent_case("external32", MPI_LONG, "MPI_LONG", 4, MTEST_MPICH_DEVIATION);
    extent_case("external32", MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", 16, 0);
    extent_case("external32", MPI_SHORT, "MPI_SHORT", 2, 0);
    extent_case("external32", st, "struct {int at 0, double at 8}", 16, 0);
    if (USER_REPS) {
        extent_case("dmpi-test-swap", MPI_INT, "MPI_INT", 4, 0);
        extent_case("dmpi-test-swap", MPI_DOUBLE, "MPI_DOUBLE", 8, 0);
        extent_case("dmpi-test-null", MPI_INT, "MPI_INT", 4, 0);
        extent_case("dmpi-test-i64", MPI_INT, "MPI_INT", 8, 0);
        /* derived types: element strides scale with the file extents, byte
         * displacements do not (the struct's double stays at byte 8) */
        extent_case("dmpi-test-i64", vec, "vector(3, 2, 4) of MPI_INT", 80, 0);
        extent_case("dmpi-test-i64", st, "struct {int at 0, double at 8}", 16, 0);
    }
    close_file();
    MPI_Type_free(&vec);
    MPI_Type_free(&st);
    MTEST_CHECK(extent_bad == 0, "the extent function got the wrong extra_state %d times", extent_bad);
}

static void test_errors(void)
{
    int rc = MPI_Register_datarep("dmpi-test-null", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, native_extent,
                                  &extra_token);
    mtest_check_class(rc, MPI_ERR_DUP_DATAREP, "registering dmpi-test-null twice");
    if (USER_REPS) {
        rc = MPI_Register_datarep("dmpi-test-swap", swap_read, swap_write, native_extent, &extra_token);
        mtest_check_class(rc, MPI_ERR_DUP_DATAREP, "registering dmpi-test-swap twice");
    }
    rc = MPI_Register_datarep("external32", swap_read, swap_write, native_extent, &extra_token);
    if (!MTEST_MPICH_DEVIATION)     /* MPICH (ROMIO) lets a program register "external32" */
        mtest_check_class(rc, MPI_ERR_DUP_DATAREP, "registering external32");
    open_file();
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "dmpi-no-such-rep", MPI_INFO_NULL);
    mtest_check_class(rc, MPI_ERR_UNSUPPORTED_DATAREP, "set_view with an unknown data representation");
    if (USER_REPS) {                /* a failing conversion function */
        MTEST_RC(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "dmpi-test-fail", MPI_INFO_NULL));
        int v[4] = {1, 2, 3, 4};
        MPI_Status st;
        rc = MPI_File_write_at(fh, rank * 4, v, 4, MPI_INT, &st);
        mtest_check_class(rc, MPI_ERR_CONVERSION, "a write conversion function returning an error");
        /* data to read: written with POSIX, so the read really converts something */
        int fd = open(path, O_WRONLY);
        MTEST_CHECK(fd >= 0 && pwrite(fd, v, sizeof v, (off_t)rank * 16) == (ssize_t)sizeof v,
                    "pwrite into the file failed");
        if (fd >= 0)
            close(fd);
        MPI_Barrier(MPI_COMM_WORLD);
        rc = MPI_File_read_at(fh, rank * 4, v, 1, MPI_INT, &st);
        mtest_check_class(rc, MPI_ERR_CONVERSION, "a read conversion function returning an error");
    }
    close_file();
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/dmpi_io_datarep_%d_%ld", dir && *dir ? dir : "/tmp", (int)getpid(),
                 (long)MPI_Wtime());
    }
    MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);

    MTEST_RC(MPI_Register_datarep("dmpi-test-null", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, native_extent,
                                  &extra_token));
    if (USER_REPS) {
        MTEST_RC(MPI_Register_datarep("dmpi-test-swap", swap_read, swap_write, native_extent, &extra_token));
        MTEST_RC(MPI_Register_datarep("dmpi-test-i64", i64_read, i64_write, i64_extent, &extra_token));
        MTEST_RC(MPI_Register_datarep("dmpi-test-fail", failing, failing, native_extent, &extra_token));
    }

    ints_case("native", 4, ne4);
    ints_case("external32", 4, be4);
    doubles_case("external32", 1);
    struct_case("native", 4, 0);
    if (!MTEST_MPICH_DEVIATION)     /* MPICH 4.0 dies on an assertion in MPI_Pack_external_size here */
        struct_case("external32", 4, 1);
    if (USER_REPS) {
        ints_case("dmpi-test-swap", 4, be4);
        MTEST_CHECK(conv_calls > 0 && conv_bad == 0, "the swap conversion functions: %d calls, %d bad", conv_calls,
                    conv_bad);
        ints_case("dmpi-test-null", 4, ne4);
        ints_case("dmpi-test-i64", 8, be8);
        doubles_case("dmpi-test-swap", 1);
        doubles_case("dmpi-test-null", 0);
        struct_case("dmpi-test-swap", 4, 1);
        struct_case("dmpi-test-i64", 8, 1);
    }
    test_extents();
    test_errors();

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MTEST_RC(MPI_File_delete(path, MPI_INFO_NULL));
    return mtest_finalize();
}
