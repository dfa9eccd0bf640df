/* Error codes and their messages (core/errors.c):
 *   - every class is a valid code of itself, with a class text;
 *   - dmpi_err(cls, ...) returns a code of that class, <= MPI_ERR_LASTCODE,
 *     distinct from the class, whose string is the formatted message;
 *   - a message longer than MPI_MAX_ERROR_STRING is cut, NUL-terminated;
 *   - once the ring of stored messages has moved on, an old code falls back
 *     to its class text, and never shows another error's message;
 *   - after millions of errors (the sequence number wraps) codes stay valid;
 *   - invalid codes (negative, above LASTCODE, unassigned class) give -1 and
 *     NULL; MPI_ERR_LASTCODE is a class of itself;
 *   - so do codes dmpi_err never returned: a sequence number not handed out
 *     yet (123456 is class 64 with sequence number 964), or a real code with
 *     its class bits changed. */
#include "core/dmpi.h"
#include "unit.h"
#include <limits.h>
#include <string.h>

#define LAST_CLASS MPI_ERR_ERRHANDLER          /* the highest class in mpi.h */
#ifdef MPI_T_ERR_NOT_ACCESSIBLE
#define CLASS_79 1
#else
#define CLASS_79 0                             /* 79 is MPI_T_ERR_NOT_ACCESSIBLE, of MPI_T */
#endif

static bool class_assigned(int c) { return c >= 0 && c <= LAST_CLASS && c != 54 && (c != 79 || CLASS_79); }

static void test_classes(void)
{
    int bad = 0;
    for (int c = 0; c <= 127; c++) {
        int got = dmpi_err_class_of(c);
        const char *s = dmpi_err_string_of(c);
        if (class_assigned(c)) {
            if (got != c || !s || !*s)
                NOTE(bad, "class %d: class_of %d, string %s", c, got, s ? s : "NULL");
        } else if (got != -1 || s != NULL) {
            NOTE(bad, "unassigned class %d: class_of %d, string %s", c, got, s ? s : "NULL");
        }
    }
    CHECK(bad == 0, "%d classes wrong", bad);
    CHECK(strcmp(dmpi_err_string_of(MPI_SUCCESS), "no error") == 0, "MPI_SUCCESS text: %s",
          dmpi_err_string_of(MPI_SUCCESS));
    CHECK(strstr(dmpi_err_string_of(MPI_ERR_TRUNCATE), "truncat") != NULL, "MPI_ERR_TRUNCATE text: %s",
          dmpi_err_string_of(MPI_ERR_TRUNCATE));
    /* Two classes never share a text: a user could not tell them apart. */
    int dup = 0;
    for (int a = 0; a <= LAST_CLASS; a++)
        for (int b = a + 1; b <= LAST_CLASS; b++)
            if (class_assigned(a) && class_assigned(b) &&
                strcmp(dmpi_err_string_of(a), dmpi_err_string_of(b)) == 0)
                NOTE(dup, "classes %d and %d share the text '%s'", a, b, dmpi_err_string_of(a));
    CHECK(dup == 0, "%d pairs of classes share a text", dup);
}

static void test_invalid(void)
{
    static const int codes[] = {-1, -2, INT_MIN, MPI_ERR_LASTCODE + 1, INT_MAX, 54, 81, 127,
                                (5 << 7) | 54, (5 << 7) | 100, (1 << 29) | 127};
    int bad = 0;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (dmpi_err_class_of(codes[i]) != -1 || dmpi_err_string_of(codes[i]) != NULL)
            NOTE(bad, "invalid code %d (%#x): class_of %d", codes[i], (unsigned)codes[i],
                 dmpi_err_class_of(codes[i]));
    CHECK(bad == 0, "%d invalid codes accepted", bad);
    /* Run before any dmpi_err: no sequence number is handed out yet. */
    static const int unissued[] = {123456, (1 << 7) | MPI_ERR_ARG, (964 << 7) | MPI_T_ERR_INVALID_HANDLE,
                                   ((MPI_ERR_LASTCODE >> 7) << 7) | MPI_ERR_ARG, MPI_ERR_LASTCODE - 1};
    bad = 0;
    for (size_t i = 0; i < sizeof unissued / sizeof unissued[0]; i++)
        if (dmpi_err_class_of(unissued[i]) != -1 || dmpi_err_string_of(unissued[i]) != NULL)
            NOTE(bad, "code %d (%#x) was never returned by dmpi_err, but class_of gives %d", unissued[i],
                 (unsigned)unissued[i], dmpi_err_class_of(unissued[i]));
    CHECK(bad == 0, "%d codes that were never handed out are accepted", bad);
    /* The standard lists MPI_ERR_LASTCODE among the classes. */
    CHECK(dmpi_err_class_of(MPI_ERR_LASTCODE) == MPI_ERR_LASTCODE && dmpi_err_string_of(MPI_ERR_LASTCODE) &&
          *dmpi_err_string_of(MPI_ERR_LASTCODE), "MPI_ERR_LASTCODE gives class %d",
          dmpi_err_class_of(MPI_ERR_LASTCODE));
}

static void test_codes_carry_messages(void)
{
    int bad = 0;
    for (int c = 1; c <= LAST_CLASS; c++) {
        if (!class_assigned(c))
            continue;
        int code = dmpi_err(c, "MPI_Test_%d: argument %s is wrong", c, "x");
        char want[64];
        snprintf(want, sizeof want, "MPI_Test_%d: argument x is wrong", c);
        const char *s = dmpi_err_string_of(code);
        if (code <= 0 || code >= MPI_ERR_LASTCODE || code == c || dmpi_err_class_of(code) != c || !s ||
            strcmp(s, want) != 0)
            NOTE(bad, "class %d: code %d, class_of %d, string '%s'", c, code, dmpi_err_class_of(code),
                 s ? s : "NULL");
    }
    CHECK(bad == 0, "%d classes did not make a code that carries its message", bad);

    /* Codes made one after another differ, and each keeps its own message. */
    int a = dmpi_err(MPI_ERR_RANK, "MPI_Send: invalid destination rank %d (MPI_COMM_WORLD has %d ranks)", 5, 4);
    int b = dmpi_err(MPI_ERR_RANK, "MPI_Recv: invalid source rank %d", 9);
    CHECK(a != b && dmpi_err_class_of(a) == MPI_ERR_RANK && dmpi_err_class_of(b) == MPI_ERR_RANK,
          "two rank errors: %d %d", a, b);
    CHECK(strcmp(dmpi_err_string_of(a), "MPI_Send: invalid destination rank 5 (MPI_COMM_WORLD has 4 ranks)") == 0 &&
          strcmp(dmpi_err_string_of(b), "MPI_Recv: invalid source rank 9") == 0,
          "messages: '%s' / '%s'", dmpi_err_string_of(a), dmpi_err_string_of(b));

    /* A message too long for MPI_MAX_ERROR_STRING is cut and terminated. */
    static char longer[3 * MPI_MAX_ERROR_STRING];
    memset(longer, 'z', sizeof longer - 1);
    int c = dmpi_err(MPI_ERR_ARG, "%s", longer);
    const char *s = dmpi_err_string_of(c);
    CHECK(s && strlen(s) == MPI_MAX_ERROR_STRING - 1 && s[0] == 'z', "a long message is %zu bytes",
          s ? strlen(s) : 0);
    c = dmpi_err(MPI_ERR_OTHER, "%s", "");
    CHECK(dmpi_err_class_of(c) == MPI_ERR_OTHER && dmpi_err_string_of(c) && dmpi_err_string_of(c)[0] == 0,
          "an empty message");

    /* A real code with other class bits, or the next code before it is made,
     * is not a code. */
    int forged = (a & ~127) | MPI_ERR_TAG, next = ((c >> 7) + 1) << 7 | MPI_ERR_ARG;
    CHECK(dmpi_err_class_of(forged) == -1 && dmpi_err_string_of(forged) == NULL,
          "code %#x of class MPI_ERR_RANK with its class bits changed to MPI_ERR_TAG gives class %d",
          (unsigned)a, dmpi_err_class_of(forged));
    CHECK(dmpi_err_class_of(next) == -1, "the code after the newest one (%#x) gives class %d", (unsigned)next,
          dmpi_err_class_of(next));
    int made = dmpi_err(MPI_ERR_ARG, "now it exists");
    CHECK(made == next && dmpi_err_class_of(next) == MPI_ERR_ARG, "code %#x made after %#x, class %d", made,
          (unsigned)c, dmpi_err_class_of(next));
}

static void test_old_messages(void)
{
    enum { OLD = 200 };
    static int codes[OLD];
    static char texts[OLD][32];
    for (int i = 0; i < OLD; i++) {
        snprintf(texts[i], sizeof texts[i], "error number %d", i);
        codes[i] = dmpi_err(i % 2 ? MPI_ERR_COUNT : MPI_ERR_TAG, "%s", texts[i]);
    }
    /* Every code gives its own message or its class text, never another's. */
    int wrong = 0, kept = 0, first_kept = -1;
    for (int i = 0; i < OLD; i++) {
        const char *s = dmpi_err_string_of(codes[i]);
        int cls = i % 2 ? MPI_ERR_COUNT : MPI_ERR_TAG;
        if (s && strcmp(s, texts[i]) == 0) {
            kept++;
            if (first_kept < 0)
                first_kept = i;
        } else if (!s || strcmp(s, dmpi_err_string_of(cls)) != 0) {
            NOTE(wrong, "code %d of error %d shows '%s'", codes[i], i, s ? s : "NULL");
        }
    }
    CHECK(wrong == 0, "%d old codes showed a message that is not theirs", wrong);
    CHECK(kept >= 16, "only %d of the last %d messages are kept", kept, OLD);
    CHECK(kept < OLD && first_kept > 0, "no message ever falls back (kept %d)", kept);
    /* The kept ones are the newest. */
    int gap = 0;
    for (int i = first_kept; i < OLD; i++)
        if (strcmp(dmpi_err_string_of(codes[i]), texts[i]) != 0)
            NOTE(gap, "error %d lost its message though %d (older) kept it", i, first_kept);
    CHECK(gap == 0, "kept messages are not the newest ones");
    CHECK(strcmp(dmpi_err_string_of(codes[0]), dmpi_err_string_of(MPI_ERR_TAG)) == 0,
          "the oldest code does not fall back to the class text: %s", dmpi_err_string_of(codes[0]));
}

/* Enough errors that the sequence number wraps around (MPI_ERR_LASTCODE
 * leaves 23 bits for it): every code stays valid and keeps its class. */
static void test_sequence_wrap(void)
{
    long n = (long)(MPI_ERR_LASTCODE >> 7) + 1000;
    int bad = 0, prev = -1, repeats = 0;
    for (long i = 0; i < n; i++) {
        int cls = 1 + (int)(i % 50);
        if (!class_assigned(cls))
            cls = MPI_ERR_OTHER;
        int code = dmpi_err(cls, "e");
        if (code <= 0 || code >= MPI_ERR_LASTCODE || dmpi_err_class_of(code) != cls)
            NOTE(bad, "error %ld: code %d class_of %d want %d", i, code, dmpi_err_class_of(code), cls);
        repeats += code == prev;
        prev = code;
    }
    CHECK(bad == 0, "%d of %ld codes invalid after wrapping", bad, n);
    /* After the wrap every sequence number has been handed out; the recent
     * ones still must carry their own class. */
    int last = dmpi_err(MPI_ERR_GROUP, "last");
    CHECK(dmpi_err_class_of((last & ~127) | MPI_ERR_GROUP) == MPI_ERR_GROUP &&
          dmpi_err_class_of((last & ~127) | MPI_ERR_TAG) == -1,
          "after the wrap, code %#x with its class changed is accepted", (unsigned)last);
    CHECK(repeats == 0, "consecutive errors gave the same code %d times", repeats);
    int code = dmpi_err(MPI_ERR_COMM, "after the wrap %d", 7);
    CHECK(dmpi_err_class_of(code) == MPI_ERR_COMM && strcmp(dmpi_err_string_of(code), "after the wrap 7") == 0,
          "message after the wrap: '%s'", dmpi_err_string_of(code));
}

int main(void)
{
    unit_watchdog(60);
    RUN(test_classes);
    RUN(test_invalid);
    RUN(test_codes_carry_messages);
    RUN(test_old_messages);
    RUN(test_sequence_wrap);
    return unit_summary("test_errors");
}
