/* Inside io/: the view's flattened filetype, the shared file pointer, and
 * the helpers every file of the layer uses (collective agreement on errors,
 * errno to MPI error class, the file table's bookkeeping).
 *
 * Positions: a view's data stream is the sequence of its etypes; position p
 * (in etypes) is stream byte p * esize, where esize is the etype's size in
 * the file's data representation. Stream bytes map onto the file through
 * the filetype's pieces, repeated every tile_extent bytes after disp. */
#ifndef DMPI_IO_INTERNAL_H
#define DMPI_IO_INTERNAL_H

#include "io/io.h"

/* A piece of a filetype's data: count blocks of len bytes, the first at off
 * from the filetype's origin, each next one stride further (stride == len
 * when count is 1); before: stream bytes of the tile before it. */
typedef struct io_piece {
    MPI_Offset off, stride, len, count, before;
} io_piece_t;

struct io_view {
    int npieces;
    io_piece_t *pieces;          /* in typemap order (non-decreasing offsets), none empty */
    MPI_Offset tile_size;        /* stream bytes in one filetype */
    MPI_Offset tile_extent;      /* the filetype's extent in the file */
    MPI_Offset esize;            /* the etype's size in the file */
    MPI_Offset blocks;           /* blocks in one filetype (at least 1): tile_size / blocks is their mean size */
    bool contig;                 /* one piece at 0 as long as the extent: stream byte s is disp + s */
    bool converts;               /* the representation converts data (dmpi_datarep_converts) */
    unsigned flags;              /* IO_NO_LOCKS, IO_NO_RMW: what the file showed it cannot do (kept by set_view) */
};
enum { IO_NO_LOCKS = 1, IO_NO_RMW = 2 };

/* ---- view.c ---------------------------------------------------------------- */
/* The default view (disp 0, etype = filetype = MPI_BYTE, "native"). */
int io_view_default(dmpi_file_t *f);
void io_view_free(dmpi_file_t *f);
/* File offset of stream byte s (s within the data: the byte's own offset). */
MPI_Offset io_view_offset(const dmpi_file_t *f, MPI_Offset s);
/* Stream bytes of the view that lie before file offset end (the file size). */
MPI_Offset io_view_bytes_before(const dmpi_file_t *f, MPI_Offset end);

/* Whether t's type signature is a whole number of et's (MPI_BYTE and
 * MPI_PACKED on either side match any data). */
bool io_made_of(const dmpi_dtype_t *et, const dmpi_dtype_t *t);

/* Walks the file ranges of a run of stream bytes, merging ranges that touch. */
typedef struct io_seg_iter {
    const dmpi_file_t *f;
    MPI_Offset tile;             /* the current tile */
    int piece;
    MPI_Offset in;               /* bytes of the piece already walked */
} io_seg_iter_t;
void io_seg_start(io_seg_iter_t *it, const dmpi_file_t *f, MPI_Offset s);
/* The next file range of at most max stream bytes: *off, returns its length. */
MPI_Offset io_seg_next(io_seg_iter_t *it, MPI_Offset max, MPI_Offset *off);

/* ---- shared_fp.c ----------------------------------------------------------- */
/* Collective: makes the window (rank 0 holds the pointer, set to initial). */
int io_shared_open(dmpi_file_t *f, MPI_Offset initial);
int io_shared_close(dmpi_file_t *f);             /* collective */
void io_shared_forget(dmpi_file_t *f);           /* MPI_Finalize: no communication */
/* *old gets the pointer, which grows by n. */
int io_shared_fetch_add(const char *fn, dmpi_file_t *f, MPI_Offset n, MPI_Offset *old);
int io_shared_read(const char *fn, dmpi_file_t *f, MPI_Offset *v);
/* Sets the pointer (called by rank 0 only, inside a collective). */
int io_shared_write(const char *fn, dmpi_file_t *f, MPI_Offset v);
/* Collective, ordered access: *start gets this rank's position for n etypes
 * (the ranks before it in rank order go first); the pointer grows by the total. */
int io_shared_ordered(const char *fn, dmpi_file_t *f, MPI_Offset n, MPI_Offset *start);

/* ---- agree.c --------------------------------------------------------------- */
/* Collective over c: every rank passes its own error code (MPI_SUCCESS or
 * not) and n >= 0 values v[] that are max-reduced in place. Returns, on
 * every rank, MPI_SUCCESS if no rank failed, else an error of the highest
 * class any rank had (this rank's own code if it had that class). */
int io_agree(const char *fn, dmpi_comm_t *c, int mine, int64_t *v, int n);
/* For io_agree's values: v[i] = x and v[i + 1] = -x on every rank; after
 * the agreement, true if every rank passed the same x. */
static inline void io_same_put(int64_t *v, int64_t x)
{
    v[0] = x;
    v[1] = -x;
}
static inline bool io_same_ok(const int64_t *v) { return v[0] == -v[1]; }
/* The error class for a failed system call (errno e), as a code whose
 * message names fn, what the call did, and the path or the reason. */
int io_errno(const char *fn, const char *what, const char *path, int e);

/* ---- file_table.c ---------------------------------------------------------- */
int io_table_add(dmpi_file_t *f);                /* gives f its Fortran index */
void io_table_remove(dmpi_file_t *f);
/* file_open.c: frees f and everything it holds, closing its descriptor;
 * no communication (the shared pointer must be closed or forgotten first). */
void io_file_free(dmpi_file_t *f);

/* ---- file_info.c ----------------------------------------------------------- */
/* The hints kept at open (file_perm and filename among them). */
int io_info_open(dmpi_file_t *f, struct dmpi_info *info);
/* The file_perm hint: the mode bits a created file gets. */
unsigned io_info_perm(const struct dmpi_info *info);

/* ---- access.c -------------------------------------------------------------- */
/* Checks that f allows the access (amode, positioning) and that dt is made
 * of whole etypes. */
int io_access_check(const char *fn, dmpi_file_t *f, int how, MPI_Offset offset, MPI_Count count, dmpi_dtype_t *dt);
/* The access after io_access_check passed (or failed: err, for the collective
 * steps of ordered access); *bytes gets the status' byte count. */
int io_access_run(const char *fn, dmpi_file_t *f, int how, MPI_Offset offset, void *buf, MPI_Count count,
                  dmpi_dtype_t *dt, int err, size_t *bytes);

/* Maximum of buffers and batches the engine uses. */
#define IO_CHUNK ((size_t)4 << 20)

#endif
