/* File views (MPI-4.1 section 14.3): MPI_File_set_view with its checks,
 * the filetype flattened once into pieces, and the mapping of the view's
 * data stream onto file offsets that every access, seek and byte offset
 * uses. A piece is a run of equal blocks (offset, stride, length, count),
 * as the datatype engine describes a type, so a vector of a million
 * elements is one piece, not a million. Non-native representations lay
 * the view out with the file's extents (dmpi_datarep_file_type). */
#include "io/io_internal.h"
#include "core/info.h"
#include "core/op.h"
#include <stdlib.h>
#include <string.h>

typedef io_piece_t io_run_t;
typedef struct io_view io_layout_t;

static const io_run_t *runs_of(const dmpi_file_t *f) { return f->view->pieces; }

/* Whether dt's data has non-negative, non-decreasing displacements. */
static bool monotone(const dmpi_dtype_t *dt)
{
    MPI_Aint last = 0;
    for (int i = 0; i < dt->nruns; i++) {
        const dmpi_run_t *r = &dt->runs[i];
        if (r->len == 0 || r->count == 0)
            continue;
        if (r->off < last || (r->count > 1 && r->stride < 0))
            return false;
        last = r->off + (MPI_Aint)(r->count - 1) * r->stride;
    }
    return true;
}

/* ---- type signatures ---------------------------------------------------------- */

/* An etype's signature: runs of n predefined elements of one type. */
typedef struct sig {
    MPI_Datatype *t;
    size_t *n;
    int len, cap;
    int i;                       /* matching: the run reached, and the elements of it passed */
    size_t k;
} sig_t;

static int sig_add(void *ctx, dmpi_dtype_t *b, MPI_Aint disp, size_t n)
{
    sig_t *s = ctx;
    (void)disp;
    if (s->len > 0 && s->t[s->len - 1] == b->handle) {
        s->n[s->len - 1] += n;
        return 0;
    }
    if (s->len == s->cap) {
        int cap = s->cap ? 2 * s->cap : 8;
        MPI_Datatype *t = realloc(s->t, (size_t)cap * sizeof *t);
        size_t *m = t ? realloc(s->n, (size_t)cap * sizeof *m) : NULL;
        if (t)
            s->t = t;
        if (!m)
            return 1;
        s->n = m;
        s->cap = cap;
    }
    s->t[s->len] = b->handle;
    s->n[s->len++] = n;
    return 0;
}

/* Predefined types that hold the same kind of value in the same bytes
 * match: MPI_LONG and MPI_LONG_LONG (and MPI_INT64_T, and their unsigned
 * twins) are one 8-byte integer to a file. Programs (and languages
 * binding MPI) name one C type by several MPI types; like point-to-point,
 * I/O does not tell them apart. The kind is what the reductions accept:
 * integers take SUM and BAND, floating point SUM and MAX, complex SUM only,
 * logicals and bytes neither SUM nor MAX. */
static bool same_basic(MPI_Datatype a, MPI_Datatype b)
{
    if (a == b)
        return true;
    const dmpi_dtype_t *x = dmpi_dtype_get(a), *y = dmpi_dtype_get(b);
    if (!x || !y || x->size != y->size || x->nbasic != 1 || y->nbasic != 1)
        return false;
    static const int kinds[] = {DMPI_OP_SUM, DMPI_OP_BAND, DMPI_OP_MAX, DMPI_OP_LAND};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (!dmpi_op_kernel(kinds[i], a) != !dmpi_op_kernel(kinds[i], b))
            return false;
    return true;
}

static int sig_match(void *ctx, dmpi_dtype_t *b, MPI_Aint disp, size_t n)
{
    sig_t *s = ctx;
    (void)disp;
    while (n > 0) {
        if (!same_basic(b->handle, s->t[s->i]))
            return 1;
        size_t m = s->n[s->i] - s->k < n ? s->n[s->i] - s->k : n;
        n -= m;
        if ((s->k += m) == s->n[s->i]) {
            s->k = 0;
            s->i = (s->i + 1) % s->len;
        }
    }
    return 0;
}

/* Bytes and packed data: they match any data, as in ROMIO. */
static bool untyped(const dmpi_dtype_t *t) { return t->basic == MPI_BYTE || t->basic == MPI_PACKED; }

bool io_made_of(const dmpi_dtype_t *et, const dmpi_dtype_t *t)
{
    if (t->size == 0)
        return true;
    if (et->size == 0 || t->size % et->size != 0)
        return false;
    if (untyped(et) || untyped(t))
        return true;
    if (et->basic != MPI_DATATYPE_NULL && t->basic != MPI_DATATYPE_NULL)
        return same_basic(et->basic, t->basic);
    sig_t s = {0};
    bool ok = dmpi_dtype_walk(et, 1, sig_add, &s) == 0 && s.len > 0 && dmpi_dtype_walk(t, 1, sig_match, &s) == 0 &&
              s.i == 0 && s.k == 0;
    free(s.t);
    free(s.n);
    return ok;
}

/* The layout of filetype ft (already in the file's extents); esize the etype's size there. */
static int layout_make(const char *fn, const dmpi_dtype_t *ft, MPI_Offset esize, bool converts, io_layout_t **out)
{
    io_layout_t *l = calloc(1, sizeof *l);
    io_run_t *runs = malloc((size_t)(ft->nruns > 0 ? ft->nruns : 1) * sizeof *runs);
    if (!l || !runs) {
        free(l);
        free(runs);
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory for the view", fn);
    }
    int n = 0;
    MPI_Offset before = 0;
    for (int i = 0; i < ft->nruns; i++) {
        const dmpi_run_t *r = &ft->runs[i];
        if (r->len == 0 || r->count == 0)
            continue;
        io_run_t x = {r->off, r->stride, (MPI_Offset)r->len, (MPI_Offset)r->count, before};
        if (x.count > 1 && x.stride == x.len) {     /* blocks that touch: one block */
            x.len *= x.count;
            x.count = 1;
        }
        if (x.count == 1)
            x.stride = x.len;
        io_run_t *p = n > 0 ? &runs[n - 1] : NULL;
        if (p && p->count == 1 && x.count == 1 && p->off + p->len == x.off)
            p->len += x.len, p->stride = p->len;      /* continues the last run */
        else
            runs[n++] = x;
        before += (MPI_Offset)r->len * (MPI_Offset)r->count;
    }
    l->blocks = 0;
    for (int i = 0; i < n; i++)
        l->blocks += runs[i].count;
    if (l->blocks == 0)
        l->blocks = 1;
    l->pieces = runs;
    l->npieces = n;
    l->tile_size = before;
    l->tile_extent = ft->extent;
    l->esize = esize;
    l->converts = converts;
    l->contig = n == 1 && runs[0].count == 1 && runs[0].off == 0 && runs[0].len == ft->extent;
    *out = l;
    return MPI_SUCCESS;
}

static void layout_free(struct io_view *v)
{
    if (!v)
        return;
    free(v->pieces);
    free(v);
}

void io_view_free(dmpi_file_t *f)
{
    layout_free(f->view);
    f->view = NULL;
    if (f->etype)
        dmpi_dtype_release(f->etype);
    if (f->ftype)
        dmpi_dtype_release(f->ftype);
    f->etype = f->ftype = NULL;
}

int io_view_default(dmpi_file_t *f)
{
    io_layout_t *l;
    dmpi_dtype_t *byte = dmpi_dtype_get(MPI_BYTE);
    int err = layout_make("MPI_File_open", byte, 1, false, &l);
    if (err != MPI_SUCCESS)
        return err;
    f->view = l;
    f->disp = 0;
    f->etype = f->ftype = byte;
    dmpi_dtype_retain(byte);
    dmpi_dtype_retain(byte);
    f->rep = dmpi_datarep_find("native");
    return MPI_SUCCESS;
}

/* ---- the mapping ------------------------------------------------------------ */

/* The run holding stream byte r of a tile (0 <= r < tile_size). */
static int run_at(const io_run_t *runs, int n, MPI_Offset r)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (runs[mid].before <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

MPI_Offset io_view_offset(const dmpi_file_t *f, MPI_Offset s)
{
    const struct io_view *v = f->view;
    if (v->contig)
        return f->disp + s;
    if (v->tile_size == 0)
        return f->disp;
    MPI_Offset tile = s / v->tile_size, r = s % v->tile_size;
    const io_run_t *x = &runs_of(f)[run_at(runs_of(f), v->npieces, r)];
    MPI_Offset b = r - x->before;
    return f->disp + tile * v->tile_extent + x->off + b / x->len * x->stride + b % x->len;
}

MPI_Offset io_view_bytes_before(const dmpi_file_t *f, MPI_Offset end)
{
    const struct io_view *v = f->view;
    MPI_Offset b = end - f->disp;
    if (b <= 0 || v->tile_size == 0)
        return 0;
    if (v->contig)
        return b;
    MPI_Offset tiles = v->tile_extent > 0 ? b / v->tile_extent : 0, rem = b - tiles * v->tile_extent;
    MPI_Offset bytes = tiles * v->tile_size;
    const io_run_t *runs = runs_of(f);
    for (int i = 0; i < v->npieces; i++) {
        const io_run_t *x = &runs[i];
        if (rem <= x->off)
            break;
        MPI_Offset nb = x->count;            /* blocks that start before rem */
        if (x->stride > 0 && (rem - x->off + x->stride - 1) / x->stride < nb)
            nb = (rem - x->off + x->stride - 1) / x->stride;
        MPI_Offset last = rem - (x->off + (nb - 1) * x->stride);
        bytes += (nb - 1) * x->len + (last < x->len ? last : x->len);
    }
    return bytes;
}

void io_seg_start(io_seg_iter_t *it, const dmpi_file_t *f, MPI_Offset s)
{
    const struct io_view *v = f->view;
    it->f = f;
    if (v->contig || v->tile_size == 0) {
        it->tile = 0;
        it->piece = 0;
        it->in = s;
        return;
    }
    MPI_Offset r = s % v->tile_size;
    it->tile = s / v->tile_size;
    it->piece = run_at(runs_of(f), v->npieces, r);
    it->in = r - runs_of(f)[it->piece].before;     /* bytes into the run */
}

MPI_Offset io_seg_next(io_seg_iter_t *it, MPI_Offset max, MPI_Offset *off)
{
    const dmpi_file_t *f = it->f;
    const struct io_view *v = f->view;
    if (v->contig) {
        *off = f->disp + it->in;
        it->in += max;
        return max;
    }
    const io_run_t *runs = runs_of(f);
    MPI_Offset got = 0, at = 0;
    while (got < max) {
        const io_run_t *x = &runs[it->piece];
        MPI_Offset blk = it->in / x->len, in = it->in % x->len;
        MPI_Offset o = f->disp + it->tile * v->tile_extent + x->off + blk * x->stride + in;
        MPI_Offset n = x->len - in;
        if (n > max - got)
            n = max - got;
        if (got == 0)
            at = o;
        else if (o != at + got)
            break;                             /* not contiguous with what we have */
        got += n;
        it->in += n;
        if (it->in == x->len * x->count) {
            it->in = 0;
            if (++it->piece == v->npieces) {
                it->piece = 0;
                it->tile++;
            }
        }
    }
    *off = at;
    return got;
}

/* ---- MPI_File_set_view ------------------------------------------------------- */

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* This rank's checks and the new layout. */
static int prepare(const char *fn, dmpi_file_t *f, MPI_Offset disp, dmpi_dtype_t *etype, dmpi_dtype_t *ftype,
                   const dmpi_datarep_t *rep, const char *datarep, io_layout_t **out)
{
    if (!rep)
        return dmpi_err(MPI_ERR_UNSUPPORTED_DATAREP, "%s: no data representation is called \"%s\"", fn, datarep);
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        if (!(f->amode & MPI_MODE_SEQUENTIAL))
            return dmpi_err(MPI_ERR_ARG, "%s: MPI_DISPLACEMENT_CURRENT needs a file opened with "
                            "MPI_MODE_SEQUENTIAL", fn);
    } else if (disp < 0) {
        return dmpi_err(MPI_ERR_ARG, "%s: disp %ld is negative", fn, (long)disp);
    }
    if (etype->size == 0)
        return dmpi_err(MPI_ERR_TYPE, "%s: etype %s holds no data", fn, dmpi_dtype_desc(etype));
    if (!monotone(etype))
        return dmpi_err(MPI_ERR_TYPE, "%s: etype %s has negative or decreasing displacements", fn,
                        dmpi_dtype_desc(etype));
    if (!monotone(ftype))
        return dmpi_err(MPI_ERR_TYPE, "%s: filetype %s has negative or decreasing displacements", fn,
                        dmpi_dtype_desc(ftype));
    if (!io_made_of(etype, ftype))
        return dmpi_err(MPI_ERR_TYPE, "%s: filetype %s is not made of etypes %s (%zu bytes of data, etype %zu)", fn,
                        dmpi_dtype_desc(ftype), dmpi_dtype_desc(etype), ftype->size, etype->size);
    if (ftype->size > 0 && ftype->extent <= 0)
        return dmpi_err(MPI_ERR_TYPE, "%s: filetype %s has extent %ld", fn, dmpi_dtype_desc(ftype),
                        (long)ftype->extent);
    dmpi_dtype_t *fe = NULL, *ff = NULL;
    int err = dmpi_datarep_file_type(fn, rep, etype, &fe);
    if (err == MPI_SUCCESS)
        err = dmpi_datarep_file_type(fn, rep, ftype, &ff);
    if (err == MPI_SUCCESS) {
        if (ff->size > 0 && ff->extent <= 0)
            err = dmpi_err(MPI_ERR_TYPE, "%s: filetype %s has extent %ld in \"%s\"", fn, dmpi_dtype_desc(ftype),
                           (long)ff->extent, rep->name);
        else
            err = layout_make(fn, ff, (MPI_Offset)fe->size, dmpi_datarep_converts(rep), out);
    }
    if (fe)
        dmpi_dtype_release(fe);
    if (ff)
        dmpi_dtype_release(ff);
    return err;
}

int dmpi_file_set_view(dmpi_file_t *f, MPI_Offset disp, dmpi_dtype_t *etype, dmpi_dtype_t *ftype,
                       const char *datarep, struct dmpi_info *info)
{
    static const char fn[] = "MPI_File_set_view";
    const dmpi_datarep_t *rep = dmpi_datarep_find(datarep);
    io_layout_t *l = NULL;
    int mine = prepare(fn, f, disp, etype, ftype, rep, datarep, &l);
    int64_t v[5];
    io_same_put(v, (int64_t)etype->size);
    io_same_put(v + 2, rep ? name_hash(rep->name) : 0);
    v[4] = INT64_MIN;
    if (disp == MPI_DISPLACEMENT_CURRENT && f->comm->rank == 0 && mine == MPI_SUCCESS) {
        /* the shared pointer, as a byte offset in the view it was kept in */
        MPI_Offset pos;
        if ((mine = io_shared_read(fn, f, &pos)) == MPI_SUCCESS)
            v[4] = io_view_offset(f, pos * f->view->esize);
    }
    int err = io_agree(fn, f->comm, mine, v, 5);
    if (err == MPI_SUCCESS && (!io_same_ok(v) || !io_same_ok(v + 2)))
        err = dmpi_err(MPI_ERR_NOT_SAME, "%s: the ranks passed etypes of different sizes or different data "
                       "representations", fn);
    if (err != MPI_SUCCESS) {
        layout_free(l);
        return err;
    }
    l->flags = f->view->flags;
    io_view_free(f);
    dmpi_dtype_retain(etype);
    dmpi_dtype_retain(ftype);
    f->etype = etype;
    f->ftype = ftype;
    f->view = l;
    f->rep = rep;
    f->disp = disp == MPI_DISPLACEMENT_CURRENT ? v[4] : disp;
    f->fp = 0;
    /* the shared pointer goes to 0 before anyone may use it again */
    mine = f->comm->rank == 0 ? io_shared_write(fn, f, 0) : MPI_SUCCESS;
    err = io_agree(fn, f->comm, mine, NULL, 0);
    if (err == MPI_SUCCESS && info)
        err = dmpi_file_set_info(f, info);
    return err;
}

int dmpi_file_byte_offset(dmpi_file_t *f, MPI_Offset off, MPI_Offset *disp)
{
    if (off < 0)
        return dmpi_err(MPI_ERR_ARG, "MPI_File_get_byte_offset: offset %ld is negative", (long)off);
    if (off > INT64_MAX / f->view->esize)
        return dmpi_err(MPI_ERR_ARG, "MPI_File_get_byte_offset: offset %ld is beyond any file", (long)off);
    *disp = io_view_offset(f, off * f->view->esize);
    return MPI_SUCCESS;
}

int dmpi_file_type_extent(dmpi_file_t *f, dmpi_dtype_t *dt, MPI_Count *extent)
{
    MPI_Aint ext;
    int err = dmpi_datarep_extent("MPI_File_get_type_extent", f->rep, dt, &ext);
    if (err == MPI_SUCCESS)
        *extent = ext;
    return err;
}
