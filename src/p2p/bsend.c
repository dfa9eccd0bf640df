/* Buffered sends. Each message in flight holds a region of the attached
 * buffer (a small header, then the packed data); regions are kept in address
 * order and placed first-fit. The header is far below MPI_BSEND_OVERHEAD. */
#include "p2p/bsend.h"
#include "p2p/p2p.h"
#include <string.h>


typedef struct region {
    struct region *next;
    size_t size;                 /* header and data, rounded up */
    char data[] __attribute__((aligned(16)));
} region_t;

static char *base;
static size_t cap;
static region_t *used;           /* in address order */

#define ROUND16(n) (((n) + 15) & ~(size_t)15)

int dmpi_buffer_attach(void *buf, size_t size)
{
    if (base)
        return dmpi_err(MPI_ERR_BUFFER, "MPI_Buffer_attach: a buffer is already attached (detach it first)");
    base = (char *)buf;
    cap = size;
    used = NULL;
    return MPI_SUCCESS;
}

static bool nothing_in_flight(void *arg)
{
    (void)arg;
    return used == NULL;
}

size_t dmpi_buffer_attached_size(void) { return base ? cap : 0; }

int dmpi_buffer_detach(void *addr_out, size_t *size_out)
{
    if (!base) {
        *(void **)addr_out = NULL;
        *size_out = 0;
        return MPI_SUCCESS;
    }
    dmpi_progress_until(nothing_in_flight, NULL);
    *(void **)addr_out = base;
    *size_out = cap;
    base = NULL;
    cap = 0;
    return MPI_SUCCESS;
}

static region_t *place(size_t need)
{
    char *start = base + ((16 - ((uintptr_t)base & 15)) & 15);
    char *end = base + cap;
    char *cursor = start;
    region_t **link = &used;
    for (region_t *r = used; r; link = &r->next, r = r->next) {
        if ((size_t)((char *)r - cursor) >= need)
            break;
        cursor = (char *)r + r->size;
    }
    if (cursor > end || (size_t)(end - cursor) < need)
        return NULL;
    region_t *n = (region_t *)cursor;
    n->size = need;
    n->next = *link;
    *link = n;
    return n;
}

static region_t *alloc_region(size_t bytes)
{
    size_t need = ROUND16(sizeof(region_t) + bytes);
    region_t *r = place(need);
    /* Space held by messages still in flight frees as they complete. */
    for (int tries = 0; !r && used && tries < 10000; tries++) {
        dmpi_progress();
        r = place(need);
    }
    return r;
}

void dmpi_bsend_release(void *region)
{
    for (region_t **link = &used; *link; link = &(*link)->next)
        if (*link == region) {
            *link = ((region_t *)region)->next;
            return;
        }
}

int dmpi_bsend(const void *buf, MPI_Count count, dmpi_dtype_t *dt, int dest, int tag, dmpi_comm_t *c)
{
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    size_t bytes = (size_t)count * dt->size;
    region_t *r = base ? alloc_region(bytes) : NULL;
    if (!r)
        return dmpi_err(MPI_ERR_BUFFER,
                        "buffered send of %zu bytes does not fit in the attached buffer (%zu bytes%s); "
                        "attach a larger one, counting MPI_BSEND_OVERHEAD per message",
                        bytes, cap, base ? "" : ": none attached");
    dmpi_dtype_pack(dt, (size_t)count, buf, r->data);
    dmpi_request_t *s = dmpi_req_alloc(DMPI_REQ_SEND);
    if (!s) {
        dmpi_bsend_release(r);
        return dmpi_err(MPI_ERR_NO_MEM, "out of request objects");
    }
    dmpi_send_fill(s, r->data, 0, dmpi_dtype_get(MPI_BYTE), dest, tag, c, DMPI_MODE_STANDARD);
    s->bsend_region = r;         /* released, and s freed, when the send completes */
    s->free_on_done = 1;
    return dmpi_start_send_bytes(s, bytes);
}

int dmpi_bsend_start(dmpi_request_t *p)
{
    int err = dmpi_bsend(p->ubuf, p->ucount, p->dt, p->rank, p->tag, p->comm);
    p->st_error = MPI_SUCCESS;
    dmpi_req_complete(p);        /* complete once the data sits in the buffer */
    return err;
}

void dmpi_bsend_finalize(void)
{
    if (used)
        dmpi_progress_until(nothing_in_flight, NULL);
}
