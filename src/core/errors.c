/* Error codes and their messages. A code is its class in the low 7 bits,
 * plus (above them) the sequence number of a message kept in a small ring,
 * so MPI_Error_string can say what exactly went wrong; MPI_Error_class
 * strips it again. Codes stay below MPI_ERR_LASTCODE.
 *
 * A code is valid if it is a class, or if dmpi_err returned it: its sequence
 * number has been handed out, and (for the last RECENT ones, whose classes
 * are kept) handed out with this class. So MPI_Error_class(123456) is an
 * error, not class 64, and so is a real code with its class bits changed.
 *
 * Classes and codes the program adds (MPI_Add_error_class, _code) lie above
 * MPI_ERR_LASTCODE: value MPI_ERR_LASTCODE + 1 + i is entry i of a table
 * that remembers its class and its string. Entries are never reused, so a
 * removed value stays invalid. */
#include "core/dmpi.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAST_CLASS 80
#define CLASS_BITS 7
#define NSLOTS 64
/* The class each of the last RECENT sequence numbers was issued with. */
#define RECENT (1 << 16)
/* Sequence numbers run 1 .. SEQ_MAX and around: below MPI_ERR_LASTCODE's
 * (a class), and a multiple of RECENT, so seq % RECENT runs on unbroken
 * across the wrap. */
#define SEQ_MAX (((MPI_ERR_LASTCODE >> CLASS_BITS) - 1) & ~(RECENT - 1))

static const char *const class_text[LAST_CLASS + 1] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer",
    [MPI_ERR_COUNT] = "invalid count argument",
    [MPI_ERR_TYPE] = "invalid datatype",
    [MPI_ERR_TAG] = "invalid tag",
    [MPI_ERR_COMM] = "invalid communicator",
    [MPI_ERR_RANK] = "invalid rank",
    [MPI_ERR_ROOT] = "invalid root",
    [MPI_ERR_GROUP] = "invalid group",
    [MPI_ERR_OP] = "invalid operation",
    [MPI_ERR_TOPOLOGY] = "invalid topology",
    [MPI_ERR_DIMS] = "invalid dimension argument",
    [MPI_ERR_ARG] = "invalid argument",
    [MPI_ERR_UNKNOWN] = "unknown error",
    [MPI_ERR_TRUNCATE] = "message truncated",
    [MPI_ERR_OTHER] = "other error",
    [MPI_ERR_INTERN] = "internal error",
    [MPI_ERR_IN_STATUS] = "error code is in status",
    [MPI_ERR_PENDING] = "pending request",
    [MPI_ERR_REQUEST] = "invalid request",
    [MPI_ERR_ACCESS] = "permission denied",
    [MPI_ERR_AMODE] = "invalid file access mode",
    [MPI_ERR_BAD_FILE] = "invalid file name",
    [MPI_ERR_CONVERSION] = "data conversion error",
    [MPI_ERR_DUP_DATAREP] = "data representation already defined",
    [MPI_ERR_FILE_EXISTS] = "file exists",
    [MPI_ERR_FILE_IN_USE] = "file in use",
    [MPI_ERR_FILE] = "invalid file handle",
    [MPI_ERR_INFO] = "invalid info object",
    [MPI_ERR_INFO_KEY] = "invalid info key",
    [MPI_ERR_INFO_VALUE] = "invalid info value",
    [MPI_ERR_INFO_NOKEY] = "info key not defined",
    [MPI_ERR_IO] = "I/O error",
    [MPI_ERR_NAME] = "invalid service name",
    [MPI_ERR_NO_MEM] = "out of memory",
    [MPI_ERR_NOT_SAME] = "collective arguments not the same on all processes",
    [MPI_ERR_NO_SPACE] = "no space left",
    [MPI_ERR_NO_SUCH_FILE] = "no such file",
    [MPI_ERR_PORT] = "invalid port name",
    [MPI_ERR_QUOTA] = "quota exceeded",
    [MPI_ERR_READ_ONLY] = "read-only file or file system",
    [MPI_ERR_SERVICE] = "invalid service",
    [MPI_ERR_SPAWN] = "could not spawn processes",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "unsupported operation",
    [MPI_ERR_WIN] = "invalid window",
    [MPI_ERR_BASE] = "invalid base address",
    [MPI_ERR_LOCKTYPE] = "invalid lock type",
    [MPI_ERR_KEYVAL] = "invalid attribute key",
    [MPI_ERR_RMA_CONFLICT] = "conflicting accesses to a window",
    [MPI_ERR_RMA_SYNC] = "wrong synchronization of RMA calls",
    [MPI_ERR_SIZE] = "invalid size argument",
    [MPI_ERR_DISP] = "invalid displacement argument",
    [MPI_ERR_ASSERT] = "invalid assert argument",
    [MPI_ERR_RMA_RANGE] = "target memory outside the window",
    [MPI_ERR_RMA_ATTACH] = "memory cannot be attached",
    [MPI_ERR_RMA_SHARED] = "memory cannot be shared",
    [MPI_ERR_RMA_FLAVOR] = "wrong window flavor",
    [MPI_T_ERR_MEMORY] = "out of memory (tool interface)",
    [MPI_T_ERR_NOT_INITIALIZED] = "tool interface not initialized",
    [MPI_T_ERR_CANNOT_INIT] = "tool interface cannot be initialized",
    [MPI_T_ERR_INVALID_INDEX] = "invalid index (tool interface)",
    [MPI_T_ERR_INVALID_ITEM] = "invalid item (tool interface)",
    [MPI_T_ERR_INVALID_HANDLE] = "invalid handle (tool interface)",
    [MPI_T_ERR_OUT_OF_HANDLES] = "no more handles (tool interface)",
    [MPI_T_ERR_OUT_OF_SESSIONS] = "no more sessions (tool interface)",
    [MPI_T_ERR_INVALID_SESSION] = "invalid session (tool interface)",
    [MPI_T_ERR_CVAR_SET_NOT_NOW] = "control variable cannot be set now",
    [MPI_T_ERR_CVAR_SET_NEVER] = "control variable cannot be set",
    [MPI_T_ERR_PVAR_NO_STARTSTOP] = "performance variable cannot be started or stopped",
    [MPI_T_ERR_PVAR_NO_WRITE] = "performance variable cannot be written",
    [MPI_T_ERR_PVAR_NO_ATOMIC] = "performance variable cannot be read and written atomically",
    [MPI_T_ERR_INVALID_NAME] = "invalid name (tool interface)",
    [MPI_T_ERR_INVALID] = "invalid use of the tool interface",
    [MPI_ERR_SESSION] = "invalid session",
    [MPI_ERR_PROC_ABORTED] = "communication with an aborted process",
    [MPI_ERR_VALUE_TOO_LARGE] = "value too large to store",
    [MPI_T_ERR_NOT_SUPPORTED] = "not supported (tool interface)",
    [MPI_ERR_ERRHANDLER] = "invalid error handler",
};

static struct {
    int seq;
    char text[MPI_MAX_ERROR_STRING];
} slots[NSLOTS];
static int next_seq = 1;
static bool wrapped;            /* every sequence number has been handed out */
static unsigned char recent_class[RECENT];

int dmpi_err(int cls, const char *fmt, ...)
{
    int seq = next_seq;
    if (next_seq == SEQ_MAX) {
        next_seq = 1;
        wrapped = true;
    } else {
        next_seq++;
    }
    recent_class[seq % RECENT] = (unsigned char)cls;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(slots[seq % NSLOTS].text, MPI_MAX_ERROR_STRING, fmt, ap);
    va_end(ap);
    slots[seq % NSLOTS].seq = seq;
    return (seq << CLASS_BITS) | cls;
}

/* ---- classes and codes added by the program ---------------------------- */

#define USER_FIRST (MPI_ERR_LASTCODE + 1)

static struct user_code {
    int cls;                     /* the value itself for a class; 0 once removed */
    char *text;                  /* MPI_Add_error_string's, or NULL */
} *user;
static int nuser, user_cap;

static struct user_code *user_entry(int code)
{
    if (code < USER_FIRST || code - USER_FIRST >= nuser)
        return NULL;
    struct user_code *u = &user[code - USER_FIRST];
    return u->cls ? u : NULL;
}

static int user_add(int cls, int *out)
{
    if (nuser == INT32_MAX - USER_FIRST)
        return dmpi_err(MPI_ERR_OTHER, "no error codes left to add (%d added)", nuser);
    if (nuser == user_cap) {
        int cap = user_cap ? 2 * user_cap : 16;
        if (cap > INT32_MAX - USER_FIRST)
            cap = INT32_MAX - USER_FIRST;
        struct user_code *n = realloc(user, (size_t)cap * sizeof *n);
        if (!n)
            return dmpi_err(MPI_ERR_NO_MEM, "out of memory for a new error code");
        user = n;
        user_cap = cap;
    }
    int value = USER_FIRST + nuser;
    user[nuser++] = (struct user_code){cls ? cls : value, NULL};
    *out = value;
    return MPI_SUCCESS;
}

int dmpi_err_add_class(int *cls) { return user_add(0, cls); }

int dmpi_err_add_code(const char *fn, int cls, int *code)
{
    struct user_code *u = user_entry(cls);
    if (u && u->cls != cls)
        return dmpi_err(MPI_ERR_ARG, "%s: %d is an error code, not an error class", fn, cls);
    if (!u && (cls <= MPI_SUCCESS || cls >= MPI_ERR_LASTCODE || dmpi_err_class_of(cls) != cls))
        return dmpi_err(MPI_ERR_ARG, "%s: %d is not an error class%s", fn, cls,
                        cls == MPI_SUCCESS ? " (MPI_SUCCESS cannot have error codes)" : "");
    return user_add(cls, code);
}

int dmpi_err_add_string(const char *fn, int code, const char *text)
{
    struct user_code *u = user_entry(code);
    if (!u)
        return dmpi_err(MPI_ERR_ARG, "%s: %d is not an error class or code added by the program%s", fn, code,
                        code >= 0 && code <= MPI_ERR_LASTCODE ? " (predefined strings cannot be changed)" : "");
    size_t n = strlen(text);
    if (n >= MPI_MAX_ERROR_STRING)
        return dmpi_err(MPI_ERR_ARG, "%s: the string has %zu characters, more than MPI_MAX_ERROR_STRING - 1 = %d",
                        fn, n, MPI_MAX_ERROR_STRING - 1);
    char *t = strdup(text);
    if (!t)
        return dmpi_err(MPI_ERR_NO_MEM, "%s: out of memory", fn);
    free(u->text);
    u->text = t;
    return MPI_SUCCESS;
}

int dmpi_err_remove(const char *fn, int code, dmpi_err_part_t what)
{
    static const char *const names[] = {"error class", "error code", "error class or code"};
    struct user_code *u = user_entry(code);
    bool is_class = u && u->cls == code;
    if (!u || (what == DMPI_ERR_CLASS && !is_class) || (what == DMPI_ERR_CODE && is_class))
        return dmpi_err(MPI_ERR_ARG, "%s: %d is not an %s added by the program%s", fn, code, names[what],
                        u ? (is_class ? " (it is a class)" : " (it is a code)") : "");
    /* MPI-4.1 9.5: a string goes before its code or class, a class's codes
     * before the class; removing a string that is not there is erroneous */
    if (what == DMPI_ERR_STRING && !u->text)
        return dmpi_err(MPI_ERR_ARG, "%s: %d has no error string to remove", fn, code);
    if (what != DMPI_ERR_STRING && u->text)
        return dmpi_err(MPI_ERR_ARG, "%s: %s %d still has an error string; remove it first with "
                                     "MPI_Remove_error_string", fn, names[what], code);
    if (what == DMPI_ERR_CLASS)
        for (int i = 0; i < nuser; i++)
            if (user[i].cls == code && USER_FIRST + i != code)
                return dmpi_err(MPI_ERR_ARG, "%s: error class %d still has error code %d; remove the codes first",
                                fn, code, USER_FIRST + i);
    free(u->text);
    u->text = NULL;
    if (what != DMPI_ERR_STRING)
        u->cls = 0;
    return MPI_SUCCESS;
}

int dmpi_err_last_used(void)
{
    for (int i = nuser - 1; i >= 0; i--)
        if (user[i].cls)
            return USER_FIRST + i;
    return MPI_ERR_LASTCODE;
}

/* ---- lookups ------------------------------------------------------------- */

int dmpi_err_class_of(int code)
{
    if (code == MPI_ERR_LASTCODE)
        return code;                /* listed among the classes by the standard */
    if (code > MPI_ERR_LASTCODE) {
        struct user_code *u = user_entry(code);
        return u ? u->cls : -1;
    }
    if (code < 0)
        return -1;
    int cls = code & ((1 << CLASS_BITS) - 1);
    if (cls > LAST_CLASS || !class_text[cls])
        return -1;
    int seq = code >> CLASS_BITS;
    if (seq == 0)
        return cls;
    if (seq > SEQ_MAX || (!wrapped && seq >= next_seq))
        return -1;                  /* never handed out */
    int age = next_seq > seq ? next_seq - seq : next_seq - seq + SEQ_MAX;   /* 1 for the newest */
    if (age <= RECENT && recent_class[seq % RECENT] != cls)
        return -1;                  /* handed out with another class */
    return cls;
}

const char *dmpi_err_string_of(int code)
{
    int cls = dmpi_err_class_of(code);
    if (cls < 0)
        return NULL;
    if (cls == MPI_ERR_LASTCODE)
        return "last error code";
    if (code > MPI_ERR_LASTCODE) {  /* added by the program: its string, if it has one */
        const char *t = user_entry(code)->text;
        return t ? t : "";
    }
    int seq = code >> CLASS_BITS;
    if (seq && slots[seq % NSLOTS].seq == seq)
        return slots[seq % NSLOTS].text;
    return class_text[cls];
}
