/* MPI-IO (MPI-4.1 chapter 14): files opened collectively over a
 * communicator, views, data access at explicit offsets, through the
 * individual and the shared file pointer, collective and split forms, data
 * representations. The api/ layer checks handles, counts, datatypes and
 * buffers, then calls one function here; what only the file's state can tell
 * (the access mode, a view's position, a split collective in progress) is
 * checked here and returned as an error code whose message names the call.
 *
 * Every file holds a private duplicate of the communicator it was opened on:
 * the library's own agreements (open, close, set_view, set_size, ordered
 * access, the shared file pointer) travel on it and never meet the user's
 * messages. Data moves with pread/pwrite (preadv/pwritev through the view's
 * pieces) on a descriptor each rank opens itself, so any file system that
 * every rank of the job sees works, and a rank's access never waits for
 * another rank's unless the call is collective. */
#ifndef DMPI_IO_H
#define DMPI_IO_H

#include "core/dmpi.h"
#include "p2p/request.h"

struct dmpi_info;
struct dmpi_group;
struct io_view;
struct io_shared;
struct dmpi_datarep;

/* MPI_File is a pointer to this (include/mpi.h: struct dmpi_file_s). */
typedef struct dmpi_file_s {
    int fd;
    int amode;                   /* MPI_MODE_* as opened */
    char *path;                  /* the file name given to MPI_File_open, without a "ufs:" prefix */
    dmpi_comm_t *comm;           /* the private duplicate; its group is the file's */
    MPI_Errhandler errhandler;
    struct dmpi_info *hints;     /* the info keys the file keeps (io/file_info.c) */
    bool atomic;                 /* MPI_File_set_atomicity */
    /* the view (io/view.c) */
    MPI_Offset disp;
    dmpi_dtype_t *etype, *ftype; /* held references */
    const struct dmpi_datarep *rep;
    struct io_view *view;        /* the filetype as (file offset, length) pieces */
    MPI_Offset fp;               /* the individual file pointer, in etypes of the view */
    struct io_shared *shared;    /* the shared file pointer (io/shared_fp.c) */
    /* a split collective in progress (MPI_File_*_all_begin / _ordered_begin) */
    struct {
        const char *begin;       /* the begin call's name; NULL if none in progress */
        const void *buf;
        MPI_Status status;
    } split;
    int index;                   /* the Fortran handle (io/file_table.c); 0 is MPI_FILE_NULL */
} dmpi_file_t;

/* ---- the table of open files (io/file_table.c) ----------------------------
 * NULL if h is not an open file (never dereferences h: MPI_FILE_NULL and
 * garbage give NULL alike). */
dmpi_file_t *dmpi_file_get(MPI_File h);
MPI_Fint dmpi_file_c2f(MPI_File h);            /* 0 for MPI_FILE_NULL or a file that is not open */
MPI_File dmpi_file_f2c(MPI_Fint i);            /* MPI_FILE_NULL if no open file has that index */

/* The handler of MPI_FILE_NULL: the one MPI_File_open starts a file with
 * and the one errors of calls without an open file go to (MPI_ERRORS_RETURN
 * until the program sets another). */
MPI_Errhandler dmpi_file_default_errhandler(void);
void dmpi_file_set_default_errhandler(MPI_Errhandler e);   /* takes over a reference */

/* ---- open, close, delete (io/file_open.c) ---------------------------------
 * Collective over comm (the caller's communicator; an intercommunicator is
 * the api layer's MPI_ERR_COMM). Every rank returns the same error class
 * when any rank fails: MPI_ERR_AMODE, MPI_ERR_NO_SUCH_FILE, MPI_ERR_FILE_EXISTS,
 * MPI_ERR_ACCESS, MPI_ERR_NO_SPACE, MPI_ERR_QUOTA, MPI_ERR_READ_ONLY,
 * MPI_ERR_BAD_FILE, MPI_ERR_NOT_SAME (amode differs between ranks), MPI_ERR_IO. */
int dmpi_file_open(dmpi_comm_t *comm, const char *filename, int amode, struct dmpi_info *info, dmpi_file_t **out);
/* Collective; frees f (also when it fails) and deletes the file of
 * MPI_MODE_DELETE_ON_CLOSE once every rank has closed it. */
int dmpi_file_close(dmpi_file_t *f);
/* MPI_ERR_NO_SUCH_FILE, MPI_ERR_FILE_IN_USE (never: POSIX allows it), MPI_ERR_ACCESS, MPI_ERR_IO. */
int dmpi_file_delete(const char *filename, struct dmpi_info *info);

/* ---- file manipulation (io/file_ops.c) ------------------------------------
 * set_size, preallocate, set_atomicity and sync are collective; the api
 * layer checked size >= 0. set_size, preallocate: MPI_ERR_NOT_SAME if the
 * ranks give different sizes; MPI_ERR_ACCESS on a file opened read-only or
 * MPI_MODE_SEQUENTIAL. */
int dmpi_file_set_size(dmpi_file_t *f, MPI_Offset size);
int dmpi_file_preallocate(dmpi_file_t *f, MPI_Offset size);
int dmpi_file_get_size(dmpi_file_t *f, MPI_Offset *size);
int dmpi_file_set_atomicity(dmpi_file_t *f, bool atomic);
int dmpi_file_sync(dmpi_file_t *f);
/* Info: set keeps the keys the file understands; get returns a new info
 * object with every key and its current value. */
int dmpi_file_set_info(dmpi_file_t *f, struct dmpi_info *info);
int dmpi_file_get_info(dmpi_file_t *f, struct dmpi_info **out);

/* ---- views (io/view.c) ----------------------------------------------------
 * Collective. The api layer checked that both types are valid and
 * committed; here: disp >= 0 or MPI_DISPLACEMENT_CURRENT (only with
 * MPI_MODE_SEQUENTIAL), etype and filetype of non-negative, monotonically
 * non-decreasing displacements, filetype built of etypes (MPI_ERR_TYPE),
 * datarep registered (MPI_ERR_UNSUPPORTED_DATAREP), the same etype size and
 * datarep on every rank (MPI_ERR_NOT_SAME). Resets both file pointers to 0. */
int dmpi_file_set_view(dmpi_file_t *f, MPI_Offset disp, dmpi_dtype_t *etype, dmpi_dtype_t *ftype,
                       const char *datarep, struct dmpi_info *info);
/* The byte offset in the file of position off (in etypes) of the view. */
int dmpi_file_byte_offset(dmpi_file_t *f, MPI_Offset off, MPI_Offset *disp);
/* The extent of dt in the file's data representation. */
int dmpi_file_type_extent(dmpi_file_t *f, dmpi_dtype_t *dt, MPI_Count *extent);

/* ---- positioning (io/position.c) ------------------------------------------
 * whence MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END (else MPI_ERR_ARG);
 * a resulting position below 0 is MPI_ERR_ARG. seek_shared is collective
 * (MPI_ERR_NOT_SAME if the ranks' arguments differ). MPI_MODE_SEQUENTIAL
 * files allow neither the individual pointer's calls
 * (MPI_ERR_UNSUPPORTED_OPERATION) nor a shared seek other than to the end. */
int dmpi_file_seek(dmpi_file_t *f, MPI_Offset off, int whence);
int dmpi_file_get_position(dmpi_file_t *f, MPI_Offset *off);
int dmpi_file_seek_shared(dmpi_file_t *f, MPI_Offset off, int whence);
int dmpi_file_get_position_shared(dmpi_file_t *f, MPI_Offset *off);

/* ---- data access (io/access.c) --------------------------------------------
 * One function serves the 4 positionings x read/write x independent,
 * collective. buf holds count elements of dt (checked by the api layer);
 * offset is used by DMPI_IO_AT only, in etypes of the view. Errors:
 * MPI_ERR_ACCESS (read on MPI_MODE_WRONLY, write on MPI_MODE_RDONLY),
 * MPI_ERR_UNSUPPORTED_OPERATION (explicit offsets or the individual pointer
 * on MPI_MODE_SEQUENTIAL), MPI_ERR_TYPE (dt's type signature is not made of
 * whole etypes), MPI_ERR_ARG (offset < 0), MPI_ERR_IO, MPI_ERR_NO_SPACE,
 * MPI_ERR_QUOTA, MPI_ERR_CONVERSION. status (may be NULL) gets the elements
 * read or written: a read that meets the end of the file reads less, which
 * is not an error. Collective forms (DMPI_IO_COLL) must be called by every
 * rank, and DMPI_IO_ORDERED is always collective. */
enum {
    DMPI_IO_AT = 0,              /* explicit offset */
    DMPI_IO_INDIVIDUAL = 1,      /* the individual file pointer */
    DMPI_IO_SHARED = 2,          /* the shared file pointer */
    DMPI_IO_ORDERED = 3,         /* the shared file pointer, in rank order (collective) */
    DMPI_IO_POS_MASK = 3,
    DMPI_IO_WRITE = 4,
    DMPI_IO_COLL = 8,
};
int dmpi_file_access(const char *fn, dmpi_file_t *f, int how, MPI_Offset offset, void *buf, MPI_Count count,
                     dmpi_dtype_t *dt, MPI_Status *status);

/* The nonblocking forms: the access runs now; *req gets a request that is
 * already complete, with the status (and the error, reported by the wait
 * or test that completes it, as for any request). */
int dmpi_file_iaccess(const char *fn, dmpi_file_t *f, int how, MPI_Offset offset, void *buf, MPI_Count count,
                      dmpi_dtype_t *dt, dmpi_request_t **req);

/* Split collectives (io/split.c): begin runs the access and keeps its
 * status; end returns it. MPI_ERR_OTHER ("a split collective is in
 * progress") for a second begin before the end, and for an end without a
 * begin or with another call's end (begin names the begin call that end
 * closes). */
int dmpi_file_split_begin(const char *fn, dmpi_file_t *f, int how, MPI_Offset offset, void *buf, MPI_Count count,
                          dmpi_dtype_t *dt);
int dmpi_file_split_end(const char *fn, const char *begin, dmpi_file_t *f, const void *buf, MPI_Status *status);

/* ---- data representations (io/datarep.c) ---------------------------------
 * "native", "internal" (the same bytes as native here) and "external32"
 * are built in; MPI_Register_datarep adds more. */
typedef struct dmpi_datarep {
    char name[MPI_MAX_DATAREP_STRING];
    MPI_Datarep_conversion_function_c *read_c, *write_c;   /* NULL: the bytes are native */
    MPI_Datarep_conversion_function *read, *write;          /* the int forms, if registered by them */
    MPI_Datarep_extent_function *extent;                   /* NULL for the built-in ones */
    void *extra_state;
    int builtin;                 /* 0 user, 1 native, 2 internal, 3 external32 */
} dmpi_datarep_t;

/* NULL if no representation has that name. */
const dmpi_datarep_t *dmpi_datarep_find(const char *name);
/* MPI_ERR_DUP_DATAREP if the name is taken; the _c form passes read_c/write_c, the int form read/write. */
int dmpi_datarep_register(const char *name, MPI_Datarep_conversion_function *read,
                          MPI_Datarep_conversion_function *write, MPI_Datarep_conversion_function_c *read_c,
                          MPI_Datarep_conversion_function_c *write_c, MPI_Datarep_extent_function *extent,
                          void *extra_state);
/* Whether data in rep needs converting (not native, internal, or a user
 * representation registered with MPI_CONVERSION_FN_NULL). */
bool dmpi_datarep_converts(const dmpi_datarep_t *rep);
/* The extent in the file of dt in rep (the extent function's answer for
 * each predefined type, laid out as dt lays out its predefined types). */
int dmpi_datarep_extent(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *dt, MPI_Aint *extent);
/* Converts count elements of dt at ubuf to their file form (contiguous, in
 * the order of dt's typemap) at fbuf, and back. position is the element
 * index within the access, passed to user conversion functions.
 * MPI_ERR_CONVERSION if a user function fails. Elements of position are
 * the predefined data items of dt's typemap (MPI_Get_elements' count), dt
 * tiled from ubuf: a whole access is (buf, count, fbuf, 0); an access
 * converted in pieces passes the same ubuf each time, position = the items
 * before the piece, count * items of one dt = the piece's items. */
int dmpi_datarep_to_file(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *dt, const void *ubuf,
                         MPI_Count count, void *fbuf, MPI_Offset position);
int dmpi_datarep_from_file(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *dt, void *ubuf,
                           MPI_Count count, const void *fbuf, MPI_Offset position);
/* Bytes in the file of count elements of dt (the file form's size). */
int dmpi_datarep_size(const char *fn, const dmpi_datarep_t *rep, const dmpi_dtype_t *dt, MPI_Count count,
                      MPI_Count *bytes);

/* dt as the file lays it out in rep: rebuilt through its constructors with
 * every predefined type replaced by bytes of its file extent (so vector
 * strides in elements grow with it, byte displacements do not). *out is dt
 * itself, with a reference taken, when rep keeps native extents. */
int dmpi_datarep_file_type(const char *fn, const dmpi_datarep_t *rep, dmpi_dtype_t *dt, dmpi_dtype_t **out);
/* MPI_Finalize (dmpi_io_finalize): forgets the registered representations. */
void dmpi_datarep_finalize(void);

/* MPI_Finalize: closes every file the program left open (quietly) and
 * forgets the registered representations. */
void dmpi_io_finalize(void);

#endif
