/* MPI_T performance variables: counters, levels and high-water marks the
 * code keeps (core/pvar.h, the collectives' choices), read as
 * MPI_UNSIGNED_LONG_LONG through handles in sessions. The code's numbers are
 * never reset: a counter handle keeps the counter's value at its last start
 * (base) and what it counted before (acc), so sessions and handles never
 * disturb each other. High-water marks are the exception, since only the
 * code sees each rise: a reset lowers the code's mark to the current level,
 * after folding its old value into every other handle of the variable. */
#include "core/mpit_internal.h"
#include "core/pvar.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pvar {
    char name[64];
    const char *desc;
    int category, verbosity, var_class;
    bool continuous;
    const uint64_t *value;
    uint64_t *hwm;
} pvar_t;

#define MAX_PVARS 256
static pvar_t pvars[MAX_PVARS];
static int npvars;

struct MPIR_T_pvar_handle_s {
    int index;
    bool started;
    uint64_t base, acc;
    struct MPIR_T_pvar_handle_s *next;
};

struct MPIR_T_pvar_session_s {
    struct MPIR_T_pvar_handle_s *handles;
    struct MPIR_T_pvar_session_s *next;
};

static struct MPIR_T_pvar_session_s *sessions;

/* MPI_T_PVAR_ALL_HANDLES: an address no handle has. */
static struct MPIR_T_pvar_handle_s all_handles;
struct MPIR_T_pvar_handle_s *const MPI_T_PVAR_ALL_HANDLES = &all_handles;   /* exported: mpi.h */

int dmpi_mpit_pvar_add(const dmpi_pvar_source_t *src)
{
    MPIT_LOCKED;
    if (npvars == MAX_PVARS)
        return -1;
    pvar_t *v = &pvars[npvars++];
    snprintf(v->name, sizeof v->name, "%s", src->name);
    v->desc = src->desc;
    v->category = dmpi_mpit_category_of(src->category);
    v->verbosity = src->verbosity;
    v->var_class = src->var_class;
    v->continuous = src->continuous;
    v->value = src->value;
    v->hwm = src->hwm;
    return 0;
}

static void add(const char *name, const char *desc, const char *category, int var_class, const uint64_t *value,
                uint64_t *hwm)
{
    dmpi_pvar_source_t s = {.name = name, .desc = desc, .category = category, .verbosity = MPI_T_VERBOSITY_USER_BASIC,
                            .var_class = var_class, .continuous = var_class != MPI_T_PVAR_CLASS_COUNTER,
                            .value = value, .hwm = hwm};
    dmpi_mpit_pvar_add(&s);
}

void dmpi_mpit_add_core_pvars(void)
{
    static const char *tports[] = {[DMPI_PV_SELF] = "self", [DMPI_PV_SHM] = "shm", [DMPI_PV_TCP] = "tcp"};
    for (int t = 0; t < DMPI_PV_NTPORTS; t++) {
        dmpi_pv_tport_t *c = &dmpi_pv.tport[t];
        char name[64];
        snprintf(name, sizeof name, "%s_msgs_sent", tports[t]);
        add(name, "messages sent through this transport", tports[t], MPI_T_PVAR_CLASS_COUNTER, &c->msgs_sent, NULL);
        snprintf(name, sizeof name, "%s_bytes_sent", tports[t]);
        add(name, "bytes of the messages sent through this transport", tports[t], MPI_T_PVAR_CLASS_COUNTER,
            &c->bytes_sent, NULL);
        snprintf(name, sizeof name, "%s_msgs_recvd", tports[t]);
        add(name, "messages that arrived through this transport (matched or not yet)", tports[t],
            MPI_T_PVAR_CLASS_COUNTER, &c->msgs_recvd, NULL);
        snprintf(name, sizeof name, "%s_bytes_recvd", tports[t]);
        add(name, "bytes of the messages that arrived through this transport", tports[t], MPI_T_PVAR_CLASS_COUNTER,
            &c->bytes_recvd, NULL);
    }
    add("unexpected_queue_length", "messages that arrived before a receive matched them, not yet received",
        "p2p", MPI_T_PVAR_CLASS_LEVEL, &dmpi_pv.unexp_len, NULL);
    add("unexpected_queue_hwm", "the most messages the unexpected queues held at once", "p2p",
        MPI_T_PVAR_CLASS_HIGHWATERMARK, &dmpi_pv.unexp_len, &dmpi_pv.unexp_hwm);
    add("posted_queue_length", "receives posted and not yet matched by a message", "p2p", MPI_T_PVAR_CLASS_LEVEL,
        &dmpi_pv.posted_len, NULL);
    add("cma_fallbacks", "single copies (process_vm_readv/writev) that failed: the data then went through the "
        "shared-memory queue", "shm", MPI_T_PVAR_CLASS_COUNTER, &dmpi_pv.cma_fallbacks, NULL);
    add("rma_puts", "MPI_Put and MPI_Rput calls", "rma", MPI_T_PVAR_CLASS_COUNTER, &dmpi_pv.rma_puts, NULL);
    add("rma_gets", "MPI_Get and MPI_Rget calls", "rma", MPI_T_PVAR_CLASS_COUNTER, &dmpi_pv.rma_gets, NULL);
    add("rma_accumulates", "MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op and their request forms", "rma",
        MPI_T_PVAR_CLASS_COUNTER, &dmpi_pv.rma_accs, NULL);
    add("rma_compare_and_swaps", "MPI_Compare_and_swap calls", "rma", MPI_T_PVAR_CLASS_COUNTER, &dmpi_pv.rma_cas,
        NULL);
}

int dmpi_mpit_pvars_in(int c, int len, int indices[])
{
    int n = 0;
    for (int i = 0; i < npvars; i++)
        if (pvars[i].category == c) {
            if (n < len)
                indices[n] = i;
            n++;
        }
    return n;
}

/* ---- the table ---------------------------------------------------------------- */

static bool readonly(const pvar_t *v)
{
    return v->var_class == MPI_T_PVAR_CLASS_LEVEL;
}

int dmpi_mpit_pvar_get_num(int *num)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!num)
        return MPI_T_ERR_INVALID;
    *num = npvars;
    return MPI_SUCCESS;
}

int dmpi_mpit_pvar_get_info(int i, char *name, int *name_len, int *verbosity, int *var_class,
                            MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
                            int *ro, int *continuous, int *atomic)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (i < 0 || i >= npvars)
        return MPI_T_ERR_INVALID_INDEX;
    const pvar_t *v = &pvars[i];
    dmpi_mpit_put_string(v->name, name, name_len);
    dmpi_mpit_put_string(v->desc, desc, desc_len);
    if (verbosity)
        *verbosity = v->verbosity;
    if (var_class)
        *var_class = v->var_class;
    if (datatype)
        *datatype = MPI_UNSIGNED_LONG_LONG;
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (ro)
        *ro = readonly(v);
    if (continuous)
        *continuous = v->continuous;
    if (atomic)
        *atomic = 0;
    return MPI_SUCCESS;
}

int dmpi_mpit_pvar_get_index(const char *name, int var_class, int *index)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!name || !index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < npvars; i++)
        if (pvars[i].var_class == var_class && !strcmp(pvars[i].name, name)) {
            *index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

/* ---- sessions and handles -------------------------------------------------------- */

static struct MPIR_T_pvar_session_s **find_session(MPI_T_pvar_session s)
{
    for (struct MPIR_T_pvar_session_s **at = &sessions; *at; at = &(*at)->next)
        if (*at == s)
            return at;
    return NULL;
}

static struct MPIR_T_pvar_handle_s **find_handle(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    for (struct MPIR_T_pvar_handle_s **at = &s->handles; *at; at = &(*at)->next)
        if (*at == h)
            return at;
    return NULL;
}

/* Every other handle of variable i keeps the mark reached so far before
 * the code's mark is lowered to the level. */
static void lower_mark(int i)
{
    const pvar_t *v = &pvars[i];
    for (struct MPIR_T_pvar_session_s *s = sessions; s; s = s->next)
        for (struct MPIR_T_pvar_handle_s *h = s->handles; h; h = h->next)
            if (h->index == i && h->acc < *v->hwm)
                h->acc = *v->hwm;
    *v->hwm = *v->value;
}

/* Sets the handle's value to x (counters and marks; reset: 0 and the level). */
static void set_value(struct MPIR_T_pvar_handle_s *h, const uint64_t *x)
{
    const pvar_t *v = &pvars[h->index];
    if (v->var_class == MPI_T_PVAR_CLASS_HIGHWATERMARK) {
        lower_mark(h->index);
        h->acc = x ? *x : *v->value;
    } else {
        h->acc = x ? *x : 0;
        h->base = *v->value;
    }
}

static uint64_t value_of(const struct MPIR_T_pvar_handle_s *h)
{
    const pvar_t *v = &pvars[h->index];
    switch (v->var_class) {
    case MPI_T_PVAR_CLASS_LEVEL: return *v->value;
    case MPI_T_PVAR_CLASS_HIGHWATERMARK: return h->acc > *v->hwm ? h->acc : *v->hwm;
    default: return h->started ? h->acc + (*v->value - h->base) : h->acc;
    }
}

int dmpi_mpit_pvar_session_create(MPI_T_pvar_session *s)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!s)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_pvar_session_s *n = calloc(1, sizeof *n);
    if (!n)
        return MPI_T_ERR_MEMORY;
    n->next = sessions;
    sessions = n;
    *s = n;
    return MPI_SUCCESS;
}

/* Unlinks the session at `at` and frees it with its handles. */
static void free_session(struct MPIR_T_pvar_session_s **at)
{
    struct MPIR_T_pvar_session_s *s = *at;
    *at = s->next;
    for (struct MPIR_T_pvar_handle_s *h = s->handles, *n; h; h = n) {
        n = h->next;
        free(h);
    }
    free(s);
}

int dmpi_mpit_pvar_session_free(MPI_T_pvar_session *s)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!s)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_pvar_session_s **at = find_session(*s);
    if (!at)
        return MPI_T_ERR_INVALID_SESSION;
    free_session(at);
    *s = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

void dmpi_mpit_pvar_release_all(void)
{
    while (sessions)
        free_session(&sessions);
}


int dmpi_mpit_pvar_handle_alloc(MPI_T_pvar_session s, int i, void *obj, MPI_T_pvar_handle *h, int *count)
{
    (void)obj;                         /* every performance variable is bound to no object */
    MPIT_LOCKED;
    MPIT_READY();
    if (!find_session(s))
        return MPI_T_ERR_INVALID_SESSION;
    if (i < 0 || i >= npvars)
        return MPI_T_ERR_INVALID_INDEX;
    if (!h || !count)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_pvar_handle_s *n = calloc(1, sizeof *n);
    if (!n)
        return MPI_T_ERR_MEMORY;
    n->index = i;
    n->started = pvars[i].continuous;  /* a continuous variable counts from now on */
    set_value(n, NULL);
    n->next = s->handles;
    s->handles = n;
    *h = n;
    *count = 1;
    return MPI_SUCCESS;
}

int dmpi_mpit_pvar_handle_free(MPI_T_pvar_session s, MPI_T_pvar_handle *h)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!find_session(s))
        return MPI_T_ERR_INVALID_SESSION;
    if (!h)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_pvar_handle_s **at = find_handle(s, *h);
    if (!at)
        return MPI_T_ERR_INVALID_HANDLE;
    *at = (*h)->next;
    free(*h);
    *h = MPI_T_PVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

/* Start, stop or reset one handle; with `all` (MPI_T_PVAR_ALL_HANDLES) the
 * handles it does not apply to are passed over. */
static int control_one(struct MPIR_T_pvar_handle_s *h, int what, bool all)
{
    const pvar_t *v = &pvars[h->index];
    switch (what) {
    case DMPI_PVAR_START:
    case DMPI_PVAR_STOP:
        if (v->continuous)
            return all ? MPI_SUCCESS : MPI_T_ERR_PVAR_NO_STARTSTOP;
        if (what == DMPI_PVAR_START && !h->started) {
            h->base = *v->value;
            h->started = true;
        } else if (what == DMPI_PVAR_STOP && h->started) {
            h->acc += *v->value - h->base;
            h->started = false;
        }
        return MPI_SUCCESS;
    default:
        if (readonly(v))
            return all ? MPI_SUCCESS : MPI_T_ERR_PVAR_NO_WRITE;
        set_value(h, NULL);
        return MPI_SUCCESS;
    }
}

int dmpi_mpit_pvar_control(MPI_T_pvar_session s, MPI_T_pvar_handle h, int what)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!find_session(s))
        return MPI_T_ERR_INVALID_SESSION;
    if (h == MPI_T_PVAR_ALL_HANDLES) {
        for (struct MPIR_T_pvar_handle_s *x = s->handles; x; x = x->next)
            control_one(x, what, true);
        return MPI_SUCCESS;
    }
    if (!find_handle(s, h))
        return MPI_T_ERR_INVALID_HANDLE;
    return control_one(h, what, false);
}

int dmpi_mpit_pvar_access(MPI_T_pvar_session s, MPI_T_pvar_handle h, void *buf, const void *value, bool reset)
{
    MPIT_LOCKED;
    MPIT_READY();
    if (!find_session(s))
        return MPI_T_ERR_INVALID_SESSION;
    if (h == MPI_T_PVAR_ALL_HANDLES || !find_handle(s, h))
        return MPI_T_ERR_INVALID_HANDLE;   /* reading and writing take one handle */
    if ((buf == NULL && value == NULL) || (buf && value))
        return MPI_T_ERR_INVALID;
    const pvar_t *v = &pvars[h->index];
    if ((value || reset) && readonly(v))
        return MPI_T_ERR_PVAR_NO_WRITE;
    if (buf) {
        uint64_t x = value_of(h);
        memcpy(buf, &x, sizeof x);
    }
    if (value) {
        uint64_t x;
        memcpy(&x, value, sizeof x);
        set_value(h, &x);
    } else if (reset) {
        set_value(h, NULL);
    }
    return MPI_SUCCESS;
}
