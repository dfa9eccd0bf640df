/* Small collectives that the library itself needs (communicator creation),
 * over point-to-point on a communicator's collective context. Binomial
 * trees: log2(n) steps, fine for the few hundred bytes they move. */
#include "coll/coll.h"
#include "p2p/p2p.h"
#include <stdlib.h>

static int send_words(dmpi_comm_t *v, int to, int tag, const void *buf, int bytes)
{
    return dmpi_send(buf, bytes, dmpi_dtype_get(MPI_BYTE), to, tag, v, DMPI_MODE_STANDARD);
}

static int recv_words(dmpi_comm_t *v, int from, int tag, void *buf, int bytes)
{
    return dmpi_recv(buf, bytes, dmpi_dtype_get(MPI_BYTE), from, tag, v, MPI_STATUS_IGNORE);
}

/* These address ranks of c's own group: an intercommunicator has none to give. */
static int inter_error(void)
{
    return dmpi_err(MPI_ERR_COMM, "collectives on intercommunicators are not supported yet");
}

/* Binomial reduce to members[0], then binomial broadcast from it. */
int dmpi_coll_band(dmpi_comm_t *c, const int *members, int n, int me, int tag, uint32_t *words, int nwords)
{
    if (dmpi_comm_is_inter(c))
        return inter_error();
    dmpi_comm_t v = dmpi_coll_view(c);
    int bytes = nwords * (int)sizeof *words, err = MPI_SUCCESS;
    uint32_t *in = malloc((size_t)bytes);
    if (!in)
        return dmpi_err(MPI_ERR_NO_MEM, "out of memory in a collective exchange");
    int mask = 1;
    for (; mask < n; mask <<= 1) {
        if (me & mask) {
            err = send_words(&v, members[me - mask], tag, words, bytes);
            break;
        }
        if (me + mask < n) {
            if ((err = recv_words(&v, members[me + mask], tag, in, bytes)) != MPI_SUCCESS)
                break;
            for (int i = 0; i < nwords; i++)
                words[i] &= in[i];
        }
    }
    /* Down the same tree: receive from the parent, pass on to the children. */
    if (err == MPI_SUCCESS && me > 0)
        err = recv_words(&v, members[me - (me & -me)], tag, words, bytes);
    for (mask = (me ? (me & -me) : 1 << 30) >> 1; err == MPI_SUCCESS && mask > 0; mask >>= 1)
        if (me + mask < n)
            err = send_words(&v, members[me + mask], tag, words, bytes);
    free(in);
    return err;
}

/* Linear gather to rank 0, then a binomial broadcast of the whole array. */
int dmpi_coll_allgather_ints(dmpi_comm_t *c, const int *mine, int k, int *all)
{
    if (dmpi_comm_is_inter(c))
        return inter_error();
    dmpi_comm_t v = dmpi_coll_view(c);
    int n = c->size, me = c->rank, bytes = k * (int)sizeof(int), err = MPI_SUCCESS;
    for (int i = 0; i < k; i++)
        all[me * k + i] = mine[i];
    if (me != 0)
        err = send_words(&v, 0, DMPI_TAG_GATHER, mine, bytes);
    else
        for (int r = 1; r < n && err == MPI_SUCCESS; r++)
            err = recv_words(&v, r, DMPI_TAG_GATHER, all + r * k, bytes);
    if (err == MPI_SUCCESS && me > 0)
        err = recv_words(&v, me - (me & -me), DMPI_TAG_BCAST, all, n * bytes);
    for (int mask = (me ? (me & -me) : 1 << 30) >> 1; err == MPI_SUCCESS && mask > 0; mask >>= 1)
        if (me + mask < n)
            err = send_words(&v, me + mask, DMPI_TAG_BCAST, all, n * bytes);
    return err;
}
