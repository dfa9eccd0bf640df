/* The channel between mpiexec and a host's proxy: frames of a 12-byte
 * header (payload length, type, rank; network byte order) and a payload,
 * over the launcher's standard input and output (ssh forwards them, so no
 * port is opened and nobody else can connect). Both ends queue what the
 * other side is not ready to take, so neither blocks on a full pipe.
 *
 * A host cut off from the network (cable, partition) closes nothing: ssh's
 * connection just hangs. So a link quiet for a while carries a beat, and a
 * side that hears nothing for the link timeout takes the other for gone. */
#include "mpiexec.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER 12
#define MAX_PAYLOAD (64u << 20)       /* a larger length means a corrupt stream */
#define READ_CHUNK 65536

void mpx_link_init(struct mpx_link *l, int in_fd, int out_fd)
{
    memset(l, 0, sizeof *l);
    l->in_fd = in_fd;
    l->out_fd = out_fd;
    l->last_sent = l->last_heard = mpx_now();
    mpx_set_nonblock(in_fd);
    if (out_fd != in_fd)
        mpx_set_nonblock(out_fd);
}

int mpx_link_open(const struct mpx_link *l)
{
    return l->in_fd >= 0;
}

size_t mpx_link_queued(const struct mpx_link *l)
{
    return l->out_len - l->out_off;
}

void mpx_link_close(struct mpx_link *l)
{
    if (l->out_fd >= 0 && l->out_fd != l->in_fd)
        close(l->out_fd);
    if (l->in_fd >= 0)
        close(l->in_fd);
    l->in_fd = l->out_fd = -1;
    free(l->in);
    free(l->out);
    l->in = l->out = NULL;
    l->in_off = l->in_len = l->in_cap = 0;
    l->out_off = l->out_len = l->out_cap = 0;
}

static void put_u32(char *p, uint32_t v)
{
    v = htonl(v);
    memcpy(p, &v, 4);
}

static uint32_t get_u32(const char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return ntohl(v);
}

int mpx_link_flush(struct mpx_link *l)
{
    while (l->out_fd >= 0 && l->out_off < l->out_len) {
        ssize_t n = write(l->out_fd, l->out + l->out_off, l->out_len - l->out_off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return 0;
            l->out_off = l->out_len = 0;       /* the peer is gone: reading will tell */
            return -1;
        }
        l->out_off += (size_t)n;
    }
    l->out_off = l->out_len = 0;
    return 0;
}

void mpx_link_send(struct mpx_link *l, int type, int rank, const void *data, size_t len)
{
    if (l->out_fd < 0)
        return;
    if (l->out_off > 0 && l->out_off == l->out_len)
        l->out_off = l->out_len = 0;
    if (l->out_len + HEADER + len > l->out_cap) {
        if (l->out_off > 0) {                  /* reclaim the written part first */
            memmove(l->out, l->out + l->out_off, l->out_len - l->out_off);
            l->out_len -= l->out_off;
            l->out_off = 0;
        }
        size_t need = l->out_len + HEADER + len;
        if (need > l->out_cap) {
            l->out_cap = need > 2 * l->out_cap ? need : 2 * l->out_cap;
            l->out = mpx_xrealloc(l->out, l->out_cap);
        }
    }
    char *h = l->out + l->out_len;
    put_u32(h, (uint32_t)len);
    put_u32(h + 4, (uint32_t)type);
    put_u32(h + 8, (uint32_t)rank);
    if (len)
        memcpy(h + HEADER, data, len);
    l->out_len += HEADER + len;
    l->last_sent = mpx_now();
    mpx_link_flush(l);
}

int mpx_link_read(struct mpx_link *l)
{
    if (l->in_fd < 0)
        return 0;
    if (l->in_off > 0) {                       /* drop the frames already taken */
        memmove(l->in, l->in + l->in_off, l->in_len - l->in_off);
        l->in_len -= l->in_off;
        l->in_off = 0;
    }
    if (l->in_cap - l->in_len < READ_CHUNK) {
        l->in_cap = l->in_len + 2 * READ_CHUNK;
        l->in = mpx_xrealloc(l->in, l->in_cap);
    }
    for (;;) {
        ssize_t n = read(l->in_fd, l->in + l->in_len, l->in_cap - l->in_len);
        if (n > 0) {
            l->in_len += (size_t)n;
            l->last_heard = mpx_now();
            return 1;
        }
        if (n == 0)
            return 0;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return 1;
        return -1;
    }
}

int mpx_link_next(struct mpx_link *l, struct mpx_frame *f)
{
    size_t avail = l->in_len - l->in_off;
    if (avail < HEADER)
        return 0;
    const char *h = l->in + l->in_off;
    uint32_t len = get_u32(h);
    if (len > MAX_PAYLOAD)
        return -1;
    if (avail < HEADER + (size_t)len) {
        if (l->in_cap < l->in_off + HEADER + (size_t)len + READ_CHUNK) {   /* room for the whole frame */
            l->in_cap = l->in_off + HEADER + (size_t)len + READ_CHUNK;
            l->in = mpx_xrealloc(l->in, l->in_cap);
        }
        return 0;
    }
    f->type = (int)get_u32(h + 4);
    f->rank = (int)(int32_t)get_u32(h + 8);
    f->data = h + HEADER;
    f->len = len;
    l->in_off += HEADER + (size_t)len;
    return 1;
}

long mpx_frame_long(const struct mpx_frame *f)
{
    char buf[32];
    if (f->len == 0 || f->len >= sizeof buf)
        return -1;
    memcpy(buf, f->data, f->len);
    buf[f->len] = '\0';
    char *end;
    long v = strtol(buf, &end, 10);
    return *end || v < 0 ? -1 : v;
}

double mpx_beat_interval(double timeout)
{
    return timeout <= 0 ? 0 : timeout / 4 < 1.0 ? timeout / 4 : 1.0;
}

double mpx_link_beat(struct mpx_link *l, double interval, double now)
{
    if (l->out_fd < 0 || interval <= 0)
        return -1;
    if (now - l->last_sent >= interval)     /* any frame will do: only a quiet link beats */
        mpx_link_send(l, MPX_F_BEAT, 0, NULL, 0);
    return l->last_sent + interval;
}
