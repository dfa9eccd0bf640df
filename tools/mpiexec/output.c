/* Forwarding of the ranks' stdout and stderr to ours, and of our stdin to
 * rank 0.
 *
 * Output is forwarded a line at a time, so that lines of different ranks do
 * not interleave mid-line. Without --tag-output an unterminated line (a
 * prompt) is forwarded anyway once it has waited MPX_PARTIAL_FLUSH seconds;
 * with --tag-output each line gets a "[rank] " prefix and waits for its
 * newline (or the end of the stream). Either way a line longer than
 * MAX_PARTIAL bytes is forwarded in pieces. */
#include "mpiexec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_CHUNK 65536
#define MAX_PARTIAL 65536
#define MAX_READS_PER_CALL 16   /* keep one chatty rank from starving the others */

void mpx_stream_init(struct mpx_stream *s, int fd, int dest)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
    s->dest = dest;
    s->at_line_start = 1;
    if (fd >= 0)
        mpx_set_nonblock(fd);
}

static void beat_proxies(void *job)
{
    mpx_remote_beats(job, mpx_now());
}

/* Our stdout can block for long (a pager waiting for its user): the
 * proxies must hear from us meanwhile, or they would take us for gone, so
 * SIGALRM interrupts the write for their beats. */
static void put_out(struct mpx_job *job, int dest, const char *data, size_t len)
{
    if (job->out_broken[dest] || len == 0)
        return;
    double interval = job->nproxies ? mpx_beat_interval(job->opt->link_timeout) : 0;
    if (interval > 0)
        mpx_signals_interrupt_every(interval);
    if (mpx_write_all(dest, data, len, interval > 0 ? beat_proxies : NULL, job) != 0)
        job->out_broken[dest] = 1;    /* EPIPE and friends: nobody is listening */
    if (interval > 0)
        mpx_signals_interrupt_every(0);
}

/* Forwards data, putting the rank's tag in front of every line start. */
static void emit(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s, const char *data, size_t len)
{
    if (len == 0)
        return;
    if (!job->opt->tag_output) {
        put_out(job, s->dest, data, len);
        s->at_line_start = data[len - 1] == '\n';
        return;
    }
    char tag[32];
    int taglen = snprintf(tag, sizeof tag, "[%d] ", r->rank);
    size_t nlines = 1;
    for (size_t i = 0; i < len; i++)
        nlines += data[i] == '\n';
    char *out = mpx_xmalloc(len + nlines * (size_t)taglen);
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (s->at_line_start) {
            memcpy(out + o, tag, (size_t)taglen);
            o += (size_t)taglen;
            s->at_line_start = 0;
        }
        out[o++] = data[i];
        if (data[i] == '\n')
            s->at_line_start = 1;
    }
    put_out(job, s->dest, out, o);   /* one write: the lines stay whole */
    free(out);
}

void mpx_stream_close(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s)
{
    emit(job, r, s, s->buf, s->len);
    s->len = 0;
    if (job->opt->tag_output && !s->at_line_start) {
        put_out(job, s->dest, "\n", 1);
        s->at_line_start = 1;
    }
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    free(s->buf);
    s->buf = NULL;
    s->cap = 0;
}

/* s->buf holds old bytes (no newline among them) and then added new ones:
 * forward every complete line, keep the rest. */
static void forward_lines(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s, size_t old)
{
    size_t last_nl = s->len;                   /* the new bytes only: the old had none */
    for (size_t i = s->len; i > old; i--) {
        if (s->buf[i - 1] == '\n') {
            last_nl = i - 1;
            break;
        }
    }
    if (last_nl < s->len) {
        size_t done = last_nl + 1;
        emit(job, r, s, s->buf, done);
        s->len -= done;
        memmove(s->buf, s->buf + done, s->len);
        s->pending_since = mpx_now();
    } else if (old == 0) {
        s->pending_since = mpx_now();
    }
    if (s->len >= MAX_PARTIAL) {
        emit(job, r, s, s->buf, s->len);
        s->len = 0;
    }
}

void mpx_stream_readable(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s)
{
    for (int iter = 0; iter < MAX_READS_PER_CALL && s->fd >= 0; iter++) {
        if (s->cap - s->len < READ_CHUNK) {
            s->cap = s->len + READ_CHUNK;
            s->buf = mpx_xrealloc(s->buf, s->cap);
        }
        ssize_t n = read(s->fd, s->buf + s->len, s->cap - s->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {                          /* EOF (or a broken pipe): done with it */
            mpx_stream_close(job, r, s);
            return;
        }
        size_t old = s->len;
        s->len += (size_t)n;
        forward_lines(job, r, s, old);
    }
}

void mpx_stream_input(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s,
                      const char *data, size_t len)
{
    while (len > 0) {
        size_t take = len < MAX_PARTIAL ? len : MAX_PARTIAL;
        if (s->cap - s->len < take) {
            s->cap = s->len + take;
            s->buf = mpx_xrealloc(s->buf, s->cap);
        }
        memcpy(s->buf + s->len, data, take);
        size_t old = s->len;
        s->len += take;
        forward_lines(job, r, s, old);
        data += take;
        len -= take;
    }
}

void mpx_stream_flush(struct mpx_job *job, struct mpx_rank *r, struct mpx_stream *s, double now, int force)
{
    if (s->len == 0)
        return;
    if (force || (!job->opt->tag_output && now >= s->pending_since + MPX_PARTIAL_FLUSH)) {
        emit(job, r, s, s->buf, s->len);
        s->len = 0;
    }
}

double mpx_stream_deadline(const struct mpx_job *job, const struct mpx_stream *s)
{
    if (job->opt->tag_output)                  /* tagged lines are only ever forwarded whole */
        return -1;
    return s->len > 0 ? s->pending_since + MPX_PARTIAL_FLUSH : -1;
}

/* ---------------------------------------------------------------- stdin */

void mpx_stdin_close(struct mpx_job *job)
{
    if (job->stdin_dst >= 0)
        close(job->stdin_dst);
    job->stdin_dst = -1;
    job->stdin_src = -1;
    job->stdin_proxy = NULL;
    job->stdin_len = job->stdin_off = 0;
}

void mpx_stdin_writable(struct mpx_job *job)
{
    while (job->stdin_dst >= 0 && job->stdin_off < job->stdin_len) {
        ssize_t n = write(job->stdin_dst, job->stdin_buf + job->stdin_off, job->stdin_len - job->stdin_off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return;                        /* poll tells us when rank 0 has read */
            mpx_stdin_close(job);              /* rank 0 closed its stdin or exited */
            return;
        }
        job->stdin_off += (size_t)n;
    }
    job->stdin_len = job->stdin_off = 0;
    if (job->stdin_src < 0)                    /* our stdin ended earlier */
        mpx_stdin_close(job);
}

void mpx_stdin_readable(struct mpx_job *job)
{
    if (job->stdin_src < 0 || job->stdin_len > 0)
        return;
    ssize_t n;
    do
        n = read(job->stdin_src, job->stdin_buf, sizeof job->stdin_buf);
    while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return;
    if (n <= 0) {                              /* EOF (or EIO: lost the terminal) */
        mpx_remote_send_stdin(job, NULL, 0);   /* (if rank 0 runs elsewhere) */
        mpx_stdin_close(job);                  /* rank 0 sees EOF */
        return;
    }
    if (job->stdin_proxy) {
        mpx_remote_send_stdin(job, job->stdin_buf, (size_t)n);
        return;
    }
    job->stdin_len = (size_t)n;
    job->stdin_off = 0;
    mpx_stdin_writable(job);
}
