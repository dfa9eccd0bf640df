/* MPI_Comm_join between pairs of ranks of a node (its local ranks 0-1,
 * 2-3, ...) over a TCP connection they make themselves on the loopback: sizes of the
 * intercommunicator, traffic both ways checked byte for byte (eager and
 * rendezvous sizes), a broadcast across it, Comm_disconnect, and the socket
 * still usable by the program afterwards. Errors: a negative descriptor
 * (MPI_ERR_ARG). An odd rank out only checks the errors. */
#include "mtest.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BIG (1 << 20)

/* The pair's connected socket: the lower rank listens, the higher connects. */
static int pair_socket(MPI_Comm node, int me, int partner)
{
    int fd = -1;
    if (me < partner) {
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr = {.s_addr = htonl(INADDR_LOOPBACK)}};
        socklen_t len = sizeof sa;
        int l = socket(AF_INET, SOCK_STREAM, 0);
        MTEST_CHECK(l >= 0 && bind(l, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(l, 1) == 0 &&
                        getsockname(l, (struct sockaddr *)&sa, &len) == 0,
                    "cannot listen on the loopback");
        MPI_Send(&sa.sin_port, sizeof sa.sin_port, MPI_BYTE, partner, 1, node);
        fd = accept(l, NULL, NULL);
        close(l);
    } else {
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr = {.s_addr = htonl(INADDR_LOOPBACK)}};
        MPI_Recv(&sa.sin_port, sizeof sa.sin_port, MPI_BYTE, partner, 1, node, MPI_STATUS_IGNORE);
        fd = socket(AF_INET, SOCK_STREAM, 0);
        MTEST_CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "cannot connect on the loopback");
    }
    return fd;
}

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MPI_Comm ic = MPI_COMM_NULL;
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Comm_join(-1, &ic), cls = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    MTEST_CHECK(cls == MPI_ERR_ARG && ic == MPI_COMM_NULL, "Comm_join(-1): class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* pairs within a node: the loopback reaches only there */
    MPI_Comm node;
    int me, nsize;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &me);
    MPI_Comm_size(node, &nsize);
    int partner = me ^ 1;
    if (partner < nsize) {
        int fd = pair_socket(node, me, partner);
        MTEST_RC(MPI_Comm_join(fd, &ic));
        int size = 0, rsize = 0, rank = -1, inter = 0;
        MPI_Comm_test_inter(ic, &inter);
        MPI_Comm_size(ic, &size);
        MPI_Comm_remote_size(ic, &rsize);
        MPI_Comm_rank(ic, &rank);
        MTEST_CHECK(inter && size == 1 && rsize == 1 && rank == 0, "join: inter %d, size %d, remote %d, rank %d",
                    inter, size, rsize, rank);
        char *out = malloc(BIG), *in = malloc(BIG);
        int n[2] = {100, BIG};
        for (int k = 0; k < 2; k++) {
            MPI_Request rq;
            MPI_Status st;
            mtest_fill(out, (size_t)n[k], me, k);
            mtest_poison(in, (size_t)n[k], partner, k);
            MTEST_RC(MPI_Isend(out, n[k], MPI_BYTE, 0, 3 + k, ic, &rq));
            MTEST_RC(MPI_Recv(in, n[k], MPI_BYTE, 0, 3 + k, ic, &st));
            MTEST_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            mtest_check_status(&st, 0, 3 + k, MPI_BYTE, n[k], "receive through the joined communicator");
            mtest_check_data(in, (size_t)n[k], partner, k, "data from the joined partner");
        }
        free(out);
        free(in);
        int word = me;
        MTEST_RC(MPI_Bcast(&word, 1, MPI_INT, me < partner ? MPI_ROOT : 0, ic));
        if (me > partner)
            MTEST_CHECK(word == partner, "broadcast across the join gave %d", word);
        MTEST_RC(MPI_Comm_disconnect(&ic));
        /* the socket is the program's again: one byte each way */
        char b = (char)me, got = -1;
        MTEST_CHECK(write(fd, &b, 1) == 1 && read(fd, &got, 1) == 1 && got == (char)partner,
                    "the socket after Comm_join: got %d", got);
        close(fd);
    }
    MPI_Comm_free(&node);
    return mtest_finalize();
}
