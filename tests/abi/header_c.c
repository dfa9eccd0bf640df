/* header_c: an ordinary MPI program, compiled (never linked or run) by
 * check_header.sh under strict C standards with
 * -Wall -Wextra -Werror -pedantic. It calls every function the header
 * declares, through both MPI_ and PMPI_ names, the way applications do
 * (special constants, const buffers, status arrays), so a wrong prototype,
 * a missing declaration or a warning in the header fails the check. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

static void on_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

/* User reduction functions of both kinds: inoutvec[i] += invec[i]. */
static void add_ints(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    int i;
    (void)datatype;
    for (i = 0; i < *len; i++)
        ((int *)inoutvec)[i] += ((const int *)invec)[i];
}

static void add_ints_c(void *invec, void *inoutvec, MPI_Count *len, MPI_Datatype *datatype)
{
    MPI_Count i;
    (void)datatype;
    for (i = 0; i < *len; i++)
        ((int *)inoutvec)[i] += ((const int *)invec)[i];
}

/* Point-to-point between ranks 0 and 1 of MPI_COMM_WORLD. */
static int exchange(int rank, int size)
{
    const int out[4] = {1, 2, 3, 4};
    int in[4];
    int count, flag, index, outcount, indices[2], cancelled;
    MPI_Status status, statuses[2];
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Message msg = MPI_MESSAGE_NULL;
    int peer = size > 1 ? 1 - rank : MPI_PROC_NULL;
    void *bbuf;
    int bsize;
    char *attached = (char *)malloc(1024 + MPI_BSEND_OVERHEAD);

    if (rank > 1)
        return MPI_SUCCESS;

    MPI_Send(out, 4, MPI_INT, peer, 0, MPI_COMM_WORLD);
    MPI_Recv(in, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    printf("from %d tag %d error %d count %d\n", status.MPI_SOURCE, status.MPI_TAG,
           status.MPI_ERROR, count);

    MPI_Isend(out, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(in, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, statuses);
    MPI_Ssend(out, 4, MPI_INT, peer, 2, MPI_COMM_WORLD);
    MPI_Issend(out, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &reqs[0]);
    MPI_Rsend(out, 4, MPI_INT, peer, 3, MPI_COMM_WORLD);
    MPI_Irsend(out, 4, MPI_INT, peer, 3, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitany(2, reqs, &index, &status);
    MPI_Waitsome(2, reqs, &outcount, indices, MPI_STATUSES_IGNORE);

    MPI_Buffer_attach(attached, 1024 + MPI_BSEND_OVERHEAD);
    MPI_Bsend(out, 4, MPI_INT, peer, 4, MPI_COMM_WORLD);
    MPI_Ibsend(out, 4, MPI_INT, peer, 4, MPI_COMM_WORLD, &reqs[0]);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    MPI_Buffer_detach(&bbuf, &bsize);
    free(attached);

    MPI_Sendrecv(out, 4, MPI_INT, peer, 5, in, 4, MPI_INT, peer, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv_replace(in, 4, MPI_INT, peer, 6, peer, 6, MPI_COMM_WORLD, &status);
    MPI_Isendrecv(out, 4, MPI_INT, peer, 7, in, 4, MPI_INT, peer, 7, MPI_COMM_WORLD,
                  &reqs[0]);
    MPI_Isendrecv_replace(in, 4, MPI_INT, peer, 8, peer, 8, MPI_COMM_WORLD, &reqs[1]);
    MPI_Test(&reqs[0], &flag, &status);
    MPI_Testany(2, reqs, &index, &flag, MPI_STATUS_IGNORE);
    MPI_Testsome(2, reqs, &outcount, indices, statuses);
    MPI_Testall(2, reqs, &flag, MPI_STATUSES_IGNORE);

    MPI_Probe(peer, 9, MPI_COMM_WORLD, &status);
    MPI_Iprobe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Mprobe(peer, 9, MPI_COMM_WORLD, &msg, &status);
    MPI_Mrecv(in, 4, MPI_INT, &msg, &status);
    MPI_Improbe(peer, 10, MPI_COMM_WORLD, &flag, &msg, &status);
    MPI_Imrecv(in, 4, MPI_INT, &msg, &reqs[0]);
    MPI_Request_get_status(reqs[0], &flag, &status);
    MPI_Cancel(&reqs[0]);
    MPI_Wait(&reqs[0], &status);
    MPI_Test_cancelled(&status, &cancelled);

    MPI_Send_init(out, 4, MPI_INT, peer, 11, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(in, 4, MPI_INT, peer, 11, MPI_COMM_WORLD, &reqs[1]);
    MPI_Startall(2, reqs);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Bsend_init(out, 4, MPI_INT, peer, 12, MPI_COMM_WORLD, &reqs[0]);
    MPI_Request_free(&reqs[0]);
    MPI_Ssend_init(out, 4, MPI_INT, peer, 12, MPI_COMM_WORLD, &reqs[0]);
    MPI_Request_free(&reqs[0]);
    MPI_Rsend_init(out, 4, MPI_INT, peer, 12, MPI_COMM_WORLD, &reqs[0]);
    MPI_Start(&reqs[0]);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    MPI_Request_free(&reqs[0]);
    return MPI_SUCCESS;
}

/* The neighborhood collectives, every form (not static: the file is only compiled). */
void neighbor_calls(MPI_Comm g);
void neighbor_calls(MPI_Comm g)
{
    int v[2] = {1, 2}, w[2], one[2] = {1, 1}, zero[2] = {0, 0};
    MPI_Count cone[2] = {1, 1};
    MPI_Aint az[2] = {0, 0};
    MPI_Datatype t[2] = {MPI_INT, MPI_INT};
    MPI_Request rq[30];
    MPI_Neighbor_allgather(v, 1, MPI_INT, w, 1, MPI_INT, g);
    MPI_Neighbor_allgather_c(v, 1, MPI_INT, w, 1, MPI_INT, g);
    MPI_Ineighbor_allgather(v, 1, MPI_INT, w, 1, MPI_INT, g, &rq[0]);
    MPI_Ineighbor_allgather_c(v, 1, MPI_INT, w, 1, MPI_INT, g, &rq[1]);
    MPI_Neighbor_allgather_init(v, 1, MPI_INT, w, 1, MPI_INT, g, MPI_INFO_NULL, &rq[2]);
    MPI_Neighbor_allgather_init_c(v, 1, MPI_INT, w, 1, MPI_INT, g, MPI_INFO_NULL, &rq[3]);
    MPI_Neighbor_allgatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, g);
    MPI_Neighbor_allgatherv_c(v, 1, MPI_INT, w, cone, az, MPI_INT, g);
    MPI_Ineighbor_allgatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, g, &rq[4]);
    MPI_Ineighbor_allgatherv_c(v, 1, MPI_INT, w, cone, az, MPI_INT, g, &rq[5]);
    MPI_Neighbor_allgatherv_init(v, 1, MPI_INT, w, one, zero, MPI_INT, g, MPI_INFO_NULL, &rq[6]);
    MPI_Neighbor_allgatherv_init_c(v, 1, MPI_INT, w, cone, az, MPI_INT, g, MPI_INFO_NULL, &rq[7]);
    MPI_Neighbor_alltoall(v, 1, MPI_INT, w, 1, MPI_INT, g);
    MPI_Neighbor_alltoall_c(v, 1, MPI_INT, w, 1, MPI_INT, g);
    MPI_Ineighbor_alltoall(v, 1, MPI_INT, w, 1, MPI_INT, g, &rq[8]);
    MPI_Ineighbor_alltoall_c(v, 1, MPI_INT, w, 1, MPI_INT, g, &rq[9]);
    MPI_Neighbor_alltoall_init(v, 1, MPI_INT, w, 1, MPI_INT, g, MPI_INFO_NULL, &rq[10]);
    MPI_Neighbor_alltoall_init_c(v, 1, MPI_INT, w, 1, MPI_INT, g, MPI_INFO_NULL, &rq[11]);
    MPI_Neighbor_alltoallv(v, one, zero, MPI_INT, w, one, zero, MPI_INT, g);
    MPI_Neighbor_alltoallv_c(v, cone, az, MPI_INT, w, cone, az, MPI_INT, g);
    MPI_Ineighbor_alltoallv(v, one, zero, MPI_INT, w, one, zero, MPI_INT, g, &rq[12]);
    MPI_Ineighbor_alltoallv_c(v, cone, az, MPI_INT, w, cone, az, MPI_INT, g, &rq[13]);
    MPI_Neighbor_alltoallv_init(v, one, zero, MPI_INT, w, one, zero, MPI_INT, g, MPI_INFO_NULL, &rq[14]);
    MPI_Neighbor_alltoallv_init_c(v, cone, az, MPI_INT, w, cone, az, MPI_INT, g, MPI_INFO_NULL, &rq[15]);
    MPI_Neighbor_alltoallw(v, one, az, t, w, one, az, t, g);
    MPI_Neighbor_alltoallw_c(v, cone, az, t, w, cone, az, t, g);
    MPI_Ineighbor_alltoallw(v, one, az, t, w, one, az, t, g, &rq[16]);
    MPI_Ineighbor_alltoallw_c(v, cone, az, t, w, cone, az, t, g, &rq[17]);
    MPI_Neighbor_alltoallw_init(v, one, az, t, w, one, az, t, g, MPI_INFO_NULL, &rq[18]);
    MPI_Neighbor_alltoallw_init_c(v, cone, az, t, w, cone, az, t, g, MPI_INFO_NULL, &rq[19]);
    PMPI_Neighbor_allgather(v, 1, MPI_INT, w, 1, MPI_INT, g);
    PMPI_Neighbor_allgather_c(v, 1, MPI_INT, w, 1, MPI_INT, g);
    PMPI_Ineighbor_allgather(v, 1, MPI_INT, w, 1, MPI_INT, g, &rq[0]);
    PMPI_Ineighbor_allgather_c(v, 1, MPI_INT, w, 1, MPI_INT, g, &rq[1]);
    PMPI_Neighbor_allgather_init(v, 1, MPI_INT, w, 1, MPI_INT, g, MPI_INFO_NULL, &rq[2]);
    PMPI_Neighbor_allgather_init_c(v, 1, MPI_INT, w, 1, MPI_INT, g, MPI_INFO_NULL, &rq[3]);
    PMPI_Neighbor_allgatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, g);
    PMPI_Neighbor_allgatherv_c(v, 1, MPI_INT, w, cone, az, MPI_INT, g);
    PMPI_Ineighbor_allgatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, g, &rq[4]);
    PMPI_Ineighbor_allgatherv_c(v, 1, MPI_INT, w, cone, az, MPI_INT, g, &rq[5]);
    PMPI_Neighbor_allgatherv_init(v, 1, MPI_INT, w, one, zero, MPI_INT, g, MPI_INFO_NULL, &rq[6]);
    PMPI_Neighbor_allgatherv_init_c(v, 1, MPI_INT, w, cone, az, MPI_INT, g, MPI_INFO_NULL, &rq[7]);
    PMPI_Neighbor_alltoall(v, 1, MPI_INT, w, 1, MPI_INT, g);
    PMPI_Neighbor_alltoall_c(v, 1, MPI_INT, w, 1, MPI_INT, g);
    PMPI_Ineighbor_alltoall(v, 1, MPI_INT, w, 1, MPI_INT, g, &rq[8]);
    PMPI_Ineighbor_alltoall_c(v, 1, MPI_INT, w, 1, MPI_INT, g, &rq[9]);
    PMPI_Neighbor_alltoall_init(v, 1, MPI_INT, w, 1, MPI_INT, g, MPI_INFO_NULL, &rq[10]);
    PMPI_Neighbor_alltoall_init_c(v, 1, MPI_INT, w, 1, MPI_INT, g, MPI_INFO_NULL, &rq[11]);
    PMPI_Neighbor_alltoallv(v, one, zero, MPI_INT, w, one, zero, MPI_INT, g);
    PMPI_Neighbor_alltoallv_c(v, cone, az, MPI_INT, w, cone, az, MPI_INT, g);
    PMPI_Ineighbor_alltoallv(v, one, zero, MPI_INT, w, one, zero, MPI_INT, g, &rq[12]);
    PMPI_Ineighbor_alltoallv_c(v, cone, az, MPI_INT, w, cone, az, MPI_INT, g, &rq[13]);
    PMPI_Neighbor_alltoallv_init(v, one, zero, MPI_INT, w, one, zero, MPI_INT, g, MPI_INFO_NULL, &rq[14]);
    PMPI_Neighbor_alltoallv_init_c(v, cone, az, MPI_INT, w, cone, az, MPI_INT, g, MPI_INFO_NULL, &rq[15]);
    PMPI_Neighbor_alltoallw(v, one, az, t, w, one, az, t, g);
    PMPI_Neighbor_alltoallw_c(v, cone, az, t, w, cone, az, t, g);
    PMPI_Ineighbor_alltoallw(v, one, az, t, w, one, az, t, g, &rq[16]);
    PMPI_Ineighbor_alltoallw_c(v, cone, az, t, w, cone, az, t, g, &rq[17]);
    PMPI_Neighbor_alltoallw_init(v, one, az, t, w, one, az, t, g, MPI_INFO_NULL, &rq[18]);
    PMPI_Neighbor_alltoallw_init_c(v, cone, az, t, w, cone, az, t, g, MPI_INFO_NULL, &rq[19]);
}

/* MPI-IO: every function, written once and expanded for both prefixes
 * (P is MPI_ or PMPI_), with the callbacks of data representations and
 * file error handlers (not static: the file is only compiled). */
static void on_file_error(MPI_File *file, int *code, ...)
{
    (void)file;
    (void)code;
}

static int convert(void *userbuf, MPI_Datatype datatype, int count, void *filebuf, MPI_Offset position,
                   void *extra_state)
{
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra_state;
    return MPI_SUCCESS;
}

static int convert_c(void *userbuf, MPI_Datatype datatype, MPI_Count count, void *filebuf, MPI_Offset position,
                     void *extra_state)
{
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra_state;
    return MPI_SUCCESS;
}

static int file_extent(MPI_Datatype datatype, MPI_Aint *file_extent, void *extra_state)
{
    (void)datatype, (void)extra_state;
    *file_extent = 4;
    return MPI_SUCCESS;
}

#define IO_CALLS(P)                                                                                               \
    do {                                                                                                          \
        P##File_open(MPI_COMM_WORLD, "io.dat", MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);              \
        P##File_set_size(fh, 0);                                                                                  \
        P##File_preallocate(fh, 16);                                                                              \
        P##File_get_size(fh, &off);                                                                               \
        P##File_get_group(fh, &group);                                                                            \
        P##File_get_amode(fh, &amode);                                                                            \
        P##File_set_info(fh, MPI_INFO_NULL);                                                                      \
        P##File_get_info(fh, &info);                                                                              \
        P##File_set_atomicity(fh, 1);                                                                             \
        P##File_get_atomicity(fh, &flag);                                                                         \
        P##File_sync(fh);                                                                                         \
        P##File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);                                       \
        P##File_get_view(fh, &off, &etype, &ftype, rep);                                                          \
        P##File_get_type_extent(fh, MPI_INT, &extent);                                                            \
        P##File_get_type_extent_c(fh, MPI_INT, &cextent);                                                         \
        P##File_seek(fh, 0, MPI_SEEK_SET);                                                                        \
        P##File_get_position(fh, &off);                                                                           \
        P##File_get_byte_offset(fh, 1, &off);                                                                     \
        P##File_seek_shared(fh, 0, MPI_SEEK_END);                                                                 \
        P##File_get_position_shared(fh, &off);                                                                    \
        P##File_read_at(fh, 0, v, 1, MPI_INT, &st);                                                               \
        P##File_read_at_c(fh, 0, v, 1, MPI_INT, MPI_STATUS_IGNORE);                                               \
        P##File_read_at_all(fh, 0, v, 1, MPI_INT, &st);                                                           \
        P##File_read_at_all_c(fh, 0, v, 1, MPI_INT, &st);                                                         \
        P##File_write_at(fh, 0, one, 1, MPI_INT, &st);                                                            \
        P##File_write_at_c(fh, 0, one, 1, MPI_INT, &st);                                                          \
        P##File_write_at_all(fh, 0, one, 1, MPI_INT, &st);                                                        \
        P##File_write_at_all_c(fh, 0, one, 1, MPI_INT, &st);                                                      \
        P##File_iread_at(fh, 0, v, 1, MPI_INT, &rq[0]);                                                           \
        P##File_iread_at_c(fh, 0, v, 1, MPI_INT, &rq[1]);                                                         \
        P##File_iread_at_all(fh, 0, v, 1, MPI_INT, &rq[2]);                                                       \
        P##File_iread_at_all_c(fh, 0, v, 1, MPI_INT, &rq[3]);                                                     \
        P##File_iwrite_at(fh, 0, one, 1, MPI_INT, &rq[4]);                                                        \
        P##File_iwrite_at_c(fh, 0, one, 1, MPI_INT, &rq[5]);                                                      \
        P##File_iwrite_at_all(fh, 0, one, 1, MPI_INT, &rq[6]);                                                    \
        P##File_iwrite_at_all_c(fh, 0, one, 1, MPI_INT, &rq[7]);                                                  \
        P##File_read(fh, v, 1, MPI_INT, &st);                                                                     \
        P##File_read_c(fh, v, 1, MPI_INT, &st);                                                                   \
        P##File_read_all(fh, v, 1, MPI_INT, &st);                                                                 \
        P##File_read_all_c(fh, v, 1, MPI_INT, &st);                                                               \
        P##File_write(fh, one, 1, MPI_INT, &st);                                                                  \
        P##File_write_c(fh, one, 1, MPI_INT, &st);                                                                \
        P##File_write_all(fh, one, 1, MPI_INT, &st);                                                              \
        P##File_write_all_c(fh, one, 1, MPI_INT, &st);                                                            \
        P##File_iread(fh, v, 1, MPI_INT, &rq[8]);                                                                 \
        P##File_iread_c(fh, v, 1, MPI_INT, &rq[9]);                                                               \
        P##File_iread_all(fh, v, 1, MPI_INT, &rq[10]);                                                            \
        P##File_iread_all_c(fh, v, 1, MPI_INT, &rq[11]);                                                          \
        P##File_iwrite(fh, one, 1, MPI_INT, &rq[12]);                                                             \
        P##File_iwrite_c(fh, one, 1, MPI_INT, &rq[13]);                                                           \
        P##File_iwrite_all(fh, one, 1, MPI_INT, &rq[14]);                                                         \
        P##File_iwrite_all_c(fh, one, 1, MPI_INT, &rq[15]);                                                       \
        P##File_read_shared(fh, v, 1, MPI_INT, &st);                                                              \
        P##File_read_shared_c(fh, v, 1, MPI_INT, &st);                                                            \
        P##File_write_shared(fh, one, 1, MPI_INT, &st);                                                           \
        P##File_write_shared_c(fh, one, 1, MPI_INT, &st);                                                         \
        P##File_iread_shared(fh, v, 1, MPI_INT, &rq[16]);                                                         \
        P##File_iread_shared_c(fh, v, 1, MPI_INT, &rq[17]);                                                       \
        P##File_iwrite_shared(fh, one, 1, MPI_INT, &rq[18]);                                                      \
        P##File_iwrite_shared_c(fh, one, 1, MPI_INT, &rq[19]);                                                    \
        P##File_read_ordered(fh, v, 1, MPI_INT, &st);                                                             \
        P##File_read_ordered_c(fh, v, 1, MPI_INT, &st);                                                           \
        P##File_write_ordered(fh, one, 1, MPI_INT, &st);                                                          \
        P##File_write_ordered_c(fh, one, 1, MPI_INT, &st);                                                        \
        P##Waitall(20, rq, MPI_STATUSES_IGNORE);                                                                  \
        P##File_read_at_all_begin(fh, 0, v, 1, MPI_INT);                                                          \
        P##File_read_at_all_end(fh, v, &st);                                                                      \
        P##File_read_at_all_begin_c(fh, 0, v, 1, MPI_INT);                                                        \
        P##File_read_at_all_end(fh, v, MPI_STATUS_IGNORE);                                                        \
        P##File_write_at_all_begin(fh, 0, one, 1, MPI_INT);                                                       \
        P##File_write_at_all_end(fh, one, &st);                                                                   \
        P##File_write_at_all_begin_c(fh, 0, one, 1, MPI_INT);                                                     \
        P##File_write_at_all_end(fh, one, &st);                                                                   \
        P##File_read_all_begin(fh, v, 1, MPI_INT);                                                                \
        P##File_read_all_end(fh, v, &st);                                                                         \
        P##File_read_all_begin_c(fh, v, 1, MPI_INT);                                                              \
        P##File_read_all_end(fh, v, &st);                                                                         \
        P##File_write_all_begin(fh, one, 1, MPI_INT);                                                             \
        P##File_write_all_end(fh, one, &st);                                                                      \
        P##File_write_all_begin_c(fh, one, 1, MPI_INT);                                                           \
        P##File_write_all_end(fh, one, &st);                                                                      \
        P##File_read_ordered_begin(fh, v, 1, MPI_INT);                                                            \
        P##File_read_ordered_end(fh, v, &st);                                                                     \
        P##File_read_ordered_begin_c(fh, v, 1, MPI_INT);                                                          \
        P##File_read_ordered_end(fh, v, &st);                                                                     \
        P##File_write_ordered_begin(fh, one, 1, MPI_INT);                                                         \
        P##File_write_ordered_end(fh, one, &st);                                                                  \
        P##File_write_ordered_begin_c(fh, one, 1, MPI_INT);                                                       \
        P##File_write_ordered_end(fh, one, &st);                                                                  \
        P##File_create_errhandler(on_file_error, &eh);                                                            \
        P##File_set_errhandler(fh, eh);                                                                           \
        P##File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);                                                 \
        P##File_get_errhandler(fh, &eh);                                                                          \
        P##File_call_errhandler(fh, MPI_ERR_IO);                                                                  \
        P##Errhandler_free(&eh);                                                                                  \
        fint = P##File_c2f(fh);                                                                                   \
        fh = P##File_f2c(fint);                                                                                   \
        P##File_close(&fh);                                                                                       \
        P##File_delete("io.dat", MPI_INFO_NULL);                                                                  \
        P##Register_datarep("rep", convert, convert, file_extent, NULL);                                          \
        P##Register_datarep("rep0", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, file_extent, NULL);           \
        P##Register_datarep_c("rep_c", convert_c, convert_c, file_extent, NULL);                                  \
        P##Register_datarep_c("rep0_c", MPI_CONVERSION_FN_NULL_C, MPI_CONVERSION_FN_NULL_C, file_extent, NULL);   \
    } while (0)

void io_calls(void)
{
    MPI_File fh = MPI_FILE_NULL;
    MPI_Offset off;
    MPI_Group group;
    MPI_Info info;
    MPI_Datatype etype, ftype;
    MPI_Aint extent;
    MPI_Count cextent;
    MPI_Status st;
    MPI_Request rq[20];
    MPI_Errhandler eh;
    MPI_Fint fint;
    char rep[MPI_MAX_DATAREP_STRING];
    int amode, flag, v[1];
    const int one[1] = {1};
    IO_CALLS(MPI_);
    IO_CALLS(PMPI_);
    (void)off, (void)group, (void)info, (void)etype, (void)ftype, (void)extent, (void)cextent, (void)amode;
    (void)flag, (void)fint;
}

int main(int argc, char **argv)
{
    int provided, flag, rank, size, len, version, subversion, cls, tsize;
    char name[MPI_MAX_PROCESSOR_NAME];
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    char err[MPI_MAX_ERROR_STRING];
    MPI_Errhandler eh;
    double t0;

    MPI_Initialized(&flag);
    if (argc > 1)
        MPI_Init(&argc, &argv);
    else
        MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Query_thread(&provided);
    MPI_Is_thread_main(&flag);
    t0 = MPI_Wtime();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    MPI_Get_version(&version, &subversion);
    MPI_Get_library_version(lib, &len);
    MPI_Pcontrol(1);
    MPI_Pcontrol(2, "phase", 3);

    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Errhandler_free(&eh);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_OTHER);
    MPI_Error_string(MPI_ERR_TRUNCATE, err, &len);
    MPI_Error_class(MPI_ERR_TRUNCATE, &cls);
    MPI_Type_size(MPI_DOUBLE, &tsize);
    {
        MPI_Datatype t[10], parts[2] = {MPI_INT, MPI_DOUBLE}, got[2];
        const int bls[2] = {1, 2}, displs[2] = {0, 3};
        const MPI_Aint adispls[2] = {0, 8};
        int ints[4], ni, na, nd, comb, tkv, tflag, pos = 0, psize, n;
        MPI_Aint lb, ext, addr, aints[2];
        MPI_Count clb, cext, csize;
        char tname[MPI_MAX_OBJECT_NAME], packed[64];
        MPI_Status tst;
        void *tval;
        MPI_Type_contiguous(2, MPI_INT, &t[0]);
        MPI_Type_vector(2, 1, 2, MPI_INT, &t[1]);
        MPI_Type_create_hvector(2, 1, 16, MPI_INT, &t[2]);
        MPI_Type_indexed(2, bls, displs, MPI_INT, &t[3]);
        MPI_Type_create_hindexed(2, bls, adispls, MPI_INT, &t[4]);
        MPI_Type_create_indexed_block(2, 1, displs, MPI_INT, &t[5]);
        MPI_Type_create_hindexed_block(2, 1, adispls, MPI_INT, &t[6]);
        MPI_Type_create_struct(2, bls, adispls, parts, &t[7]);
        MPI_Type_create_resized(t[7], 0, 32, &t[8]);
        MPI_Type_dup(t[8], &t[9]);
        MPI_Type_commit(&t[9]);
        MPI_Type_set_name(t[9], "t9");
        MPI_Type_get_name(t[9], tname, &len);
        MPI_Type_size_x(t[9], &csize);
        MPI_Type_get_extent(t[9], &lb, &ext);
        MPI_Type_get_extent_x(t[9], &clb, &cext);
        MPI_Type_get_true_extent(t[9], &lb, &ext);
        MPI_Type_get_true_extent_x(t[9], &clb, &cext);
        MPI_Type_get_envelope(t[7], &ni, &na, &nd, &comb);
        MPI_Type_get_contents(t[7], 4, 2, 2, ints, aints, got);
        MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &got[0]);
        MPI_Get_address(packed, &addr);
        addr = MPI_Aint_diff(MPI_Aint_add(addr, 8), addr);
        MPI_Pack_size(1, t[9], MPI_COMM_WORLD, &psize);
        MPI_Pack(ints, 2, MPI_INT, packed, (int)sizeof packed, &pos, MPI_COMM_WORLD);
        pos = 0;
        MPI_Unpack(packed, (int)sizeof packed, &pos, ints, 2, MPI_INT, MPI_COMM_WORLD);
        MPI_Sendrecv(ints, 2, MPI_INT, 0, 0, ints, 2, MPI_INT, 0, 0, MPI_COMM_SELF, &tst);
        MPI_Get_elements(&tst, MPI_INT, &n);
        MPI_Get_elements_x(&tst, MPI_INT, &csize);
        MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &tkv, NULL);
        MPI_Type_set_attr(t[9], tkv, &n);
        MPI_Type_get_attr(t[9], tkv, &tval, &tflag);
        MPI_Type_delete_attr(t[9], tkv);
        MPI_Type_free_keyval(&tkv);
        (void)MPI_TYPE_NULL_COPY_FN;
        for (n = 0; n < 10; n++)
            MPI_Type_free(&t[n]);
    }
    {
        const int dims[2] = {4, 4}, sub[2] = {2, 2}, starts[2] = {1, 1};
        const int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        const int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[2] = {1, 1};
        const double values[2] = {1.0, 2.0};
        double back[2];
        char packed[16];
        MPI_Aint xsize, pos = 0;
        MPI_Datatype sa, da;
        MPI_Type_create_subarray(2, dims, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &sa);
        MPI_Type_create_darray(1, 0, 2, dims, distribs, dargs, psizes, MPI_ORDER_FORTRAN, MPI_INT, &da);
        MPI_Pack_external_size("external32", 2, MPI_DOUBLE, &xsize);
        MPI_Pack_external("external32", values, 2, MPI_DOUBLE, packed, 16, &pos);
        pos = 0;
        MPI_Unpack_external("external32", packed, 16, &pos, back, 2, MPI_DOUBLE);
    }

    {
        MPI_Comm dup, half, sub, sub2;
        MPI_Group world_group, g1, g2, g3, g4, g5, g6, g7, g8;
        int ranks[1] = {0}, out[1], ranges[1][3] = {{0, 0, 1}}, cmp, gsize, grank;
        char cname[MPI_MAX_OBJECT_NAME];
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_split(dup, rank % 2, rank, &half);
        MPI_Comm_group(dup, &world_group);
        MPI_Group_size(world_group, &gsize);
        MPI_Group_rank(world_group, &grank);
        MPI_Group_incl(world_group, 1, ranks, &g1);
        MPI_Group_excl(world_group, 1, ranks, &g2);
        MPI_Group_range_incl(world_group, 1, ranges, &g3);
        MPI_Group_range_excl(world_group, 1, ranges, &g4);
        MPI_Group_union(g1, g2, &g5);
        MPI_Group_intersection(g1, g5, &g6);
        MPI_Group_difference(g5, g1, &g7);
        MPI_Group_translate_ranks(g1, 1, ranks, world_group, out);
        MPI_Group_compare(g5, world_group, &cmp);
        MPI_Comm_create(dup, g1, &sub);
        MPI_Comm_create_group(dup, g3, 7, &sub2);
        MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp);
        MPI_Comm_set_name(dup, "dup");
        MPI_Comm_get_name(dup, cname, &len);
        {
            MPI_Comm inter, merged;
            MPI_Group rgroup;
            int isinter, rsize;
            MPI_Intercomm_create(half, 0, dup, rank % 2 ? 0 : 1, 9, &inter);
            MPI_Comm_test_inter(inter, &isinter);
            MPI_Comm_remote_size(inter, &rsize);
            MPI_Comm_remote_group(inter, &rgroup);
            MPI_Intercomm_merge(inter, rank % 2, &merged);
            MPI_Group_free(&rgroup);
            MPI_Comm_free(&merged);
            MPI_Comm_free(&inter);
        }
        {
            int kv, *tag_ub, flag2;
            MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL);
            MPI_Comm_set_attr(dup, kv, &cmp);
            MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag2);
            MPI_Comm_delete_attr(dup, kv);
            MPI_Comm_free_keyval(&kv);
            (void)MPI_COMM_NULL_COPY_FN;
        }
        {
            MPI_Info info, info2;
            char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
            int vlen, nkeys, iflag, blen = (int)sizeof val;
            MPI_Info_create(&info);
            MPI_Info_set(info, "k", "v");
            MPI_Info_get(info, "k", MPI_MAX_INFO_VAL, val, &iflag);
            MPI_Info_get_string(info, "k", &blen, val, &iflag);
            MPI_Info_get_valuelen(info, "k", &vlen, &iflag);
            MPI_Info_get_nkeys(info, &nkeys);
            MPI_Info_get_nthkey(info, 0, key);
            MPI_Info_dup(info, &info2);
            {
                MPI_Comm node, dup2;
                MPI_Info used;
                MPI_Comm_split_type(dup, MPI_COMM_TYPE_SHARED, 0, info, &node);
                MPI_Comm_dup_with_info(dup, info, &dup2);
                MPI_Comm_set_info(dup2, info2);
                MPI_Comm_get_info(dup2, &used);
                MPI_Info_free(&used);
            }
            MPI_Info_delete(info2, "k");
            MPI_Info_free(&info2);
            MPI_Info_free(&info);
        }
        {
            int tdims[2] = {0, 0}, tper[2] = {1, 0}, tco[2], trem[2] = {1, 0}, tr, ts, td, tnd, tidx[1] = {0};
            int tsrc[1] = {0}, tw[1] = {1}, tdeg[1] = {1}, tin, tout, twt;
            MPI_Comm cart, row, graph, dg, dg2;
            MPI_Dims_create(gsize, 2, tdims);
            MPI_Cart_create(dup, 2, tdims, tper, 0, &cart);
            MPI_Cart_map(dup, 2, tdims, tper, &tr);
            MPI_Cartdim_get(cart, &tnd);
            MPI_Cart_get(cart, 2, tdims, tper, tco);
            MPI_Cart_rank(cart, tco, &tr);
            MPI_Cart_coords(cart, tr, 2, tco);
            MPI_Cart_shift(cart, 0, 1, &ts, &td);
            MPI_Cart_sub(cart, trem, &row);
            MPI_Topo_test(cart, &tr);
            MPI_Graph_create(dup, 1, tidx, NULL, 0, &graph);
            MPI_Graph_map(dup, 1, tidx, NULL, &tr);
            MPI_Graphdims_get(graph, &tnd, &tr);
            MPI_Graph_get(graph, 1, 0, tidx, NULL);
            MPI_Graph_neighbors_count(graph, 0, &tr);
            MPI_Graph_neighbors(graph, 0, 0, NULL);
            MPI_Dist_graph_create_adjacent(dup, 1, tsrc, MPI_UNWEIGHTED, 1, tsrc, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                           &dg);
            MPI_Dist_graph_create(dup, 1, tsrc, tdeg, tsrc, tw, MPI_INFO_NULL, 1, &dg2);
            MPI_Dist_graph_neighbors_count(dg2, &tin, &tout, &twt);
            MPI_Dist_graph_neighbors(dg2, 1, tsrc, tw, 1, tsrc, MPI_UNWEIGHTED);
            MPI_Comm_free(&dg2);
            MPI_Comm_free(&dg);
            MPI_Comm_free(&row);
            MPI_Comm_free(&cart);
        }
        g8 = g7;
        MPI_Group_free(&g8);
        MPI_Group_free(&g1);
        MPI_Comm_free(&half);
        MPI_Comm_free(&dup);
    }

    {
        MPI_Op op, opc;
        int in[2] = {1, 2}, inout[2] = {3, 4}, commute;
        MPI_Op_create(add_ints, 1, &op);
        MPI_Op_create_c(add_ints_c, 0, &opc);
        MPI_Op_commutative(op, &commute);
        MPI_Reduce_local(in, inout, 2, MPI_INT, op);
        MPI_Reduce_local_c(in, inout, 2, MPI_INT, MPI_SUM);
        MPI_Op_free(&op);
        MPI_Op_free(&opc);
    }

    {
        /* Broadcast and reductions */
        const int one[1] = {1};
        int v[1] = {1}, w[1], counts[1] = {1};
        MPI_Request rq[7];
        MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_SELF);
        MPI_Ibcast(v, 1, MPI_INT, 0, MPI_COMM_SELF, &rq[0]);
        MPI_Reduce(one, w, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_SELF);
        MPI_Ireduce(MPI_IN_PLACE, w, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_SELF, &rq[1]);
        MPI_Allreduce(one, w, 1, MPI_INT, MPI_MAX, MPI_COMM_SELF);
        MPI_Iallreduce(MPI_IN_PLACE, w, 1, MPI_INT, MPI_MAX, MPI_COMM_SELF, &rq[2]);
        MPI_Reduce_scatter(one, w, counts, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        MPI_Ireduce_scatter(one, w, counts, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq[3]);
        MPI_Reduce_scatter_block(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        MPI_Ireduce_scatter_block(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq[4]);
        MPI_Scan(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        MPI_Iscan(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq[5]);
        MPI_Exscan(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        MPI_Iexscan(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq[6]);
        MPI_Waitall(7, rq, MPI_STATUSES_IGNORE);
        PMPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_SELF);
        PMPI_Ibcast(v, 1, MPI_INT, 0, MPI_COMM_SELF, &rq[0]);
        PMPI_Reduce(one, w, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_SELF);
        PMPI_Ireduce(one, w, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_SELF, &rq[1]);
        PMPI_Allreduce(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        PMPI_Iallreduce(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq[2]);
        PMPI_Reduce_scatter(one, w, counts, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        PMPI_Ireduce_scatter(one, w, counts, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq[3]);
        PMPI_Reduce_scatter_block(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        PMPI_Ireduce_scatter_block(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq[4]);
        PMPI_Scan(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        PMPI_Iscan(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq[5]);
        PMPI_Exscan(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        PMPI_Iexscan(one, w, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &rq[6]);
        MPI_Waitall(7, rq, MPI_STATUSES_IGNORE);
    }

    {
        /* Barrier and data movement */
        int v[1] = {1}, w[1], one[1] = {1}, zero[1] = {0};
        MPI_Datatype t[1] = {MPI_INT};
        MPI_Request rq[10];
        MPI_Ibarrier(MPI_COMM_SELF, &rq[0]);
        MPI_Gather(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF);
        MPI_Igather(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF, &rq[1]);
        MPI_Gatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, 0, MPI_COMM_SELF);
        MPI_Igatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, 0, MPI_COMM_SELF, &rq[2]);
        MPI_Scatter(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF);
        MPI_Iscatter(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF, &rq[3]);
        MPI_Scatterv(v, one, zero, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF);
        MPI_Iscatterv(v, one, zero, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF, &rq[4]);
        MPI_Allgather(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF);
        MPI_Iallgather(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF, &rq[5]);
        MPI_Allgatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_SELF);
        MPI_Iallgatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_SELF, &rq[6]);
        MPI_Alltoall(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF);
        MPI_Ialltoall(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF, &rq[7]);
        MPI_Alltoallv(v, one, zero, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_SELF);
        MPI_Ialltoallv(v, one, zero, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_SELF, &rq[8]);
        MPI_Alltoallw(v, one, zero, t, w, one, zero, t, MPI_COMM_SELF);
        MPI_Ialltoallw(v, one, zero, t, w, one, zero, t, MPI_COMM_SELF, &rq[9]);
        MPI_Waitall(10, rq, MPI_STATUSES_IGNORE);
        PMPI_Ibarrier(MPI_COMM_SELF, &rq[0]);
        PMPI_Gather(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF);
        PMPI_Igather(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF, &rq[1]);
        PMPI_Gatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, 0, MPI_COMM_SELF);
        PMPI_Igatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, 0, MPI_COMM_SELF, &rq[2]);
        PMPI_Scatter(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF);
        PMPI_Iscatter(v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF, &rq[3]);
        PMPI_Scatterv(v, one, zero, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF);
        PMPI_Iscatterv(v, one, zero, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_SELF, &rq[4]);
        PMPI_Allgather(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF);
        PMPI_Iallgather(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF, &rq[5]);
        PMPI_Allgatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_SELF);
        PMPI_Iallgatherv(v, 1, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_SELF, &rq[6]);
        PMPI_Alltoall(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF);
        PMPI_Ialltoall(v, 1, MPI_INT, w, 1, MPI_INT, MPI_COMM_SELF, &rq[7]);
        PMPI_Alltoallv(v, one, zero, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_SELF);
        PMPI_Ialltoallv(v, one, zero, MPI_INT, w, one, zero, MPI_INT, MPI_COMM_SELF, &rq[8]);
        PMPI_Alltoallw(v, one, zero, t, w, one, zero, t, MPI_COMM_SELF);
        PMPI_Ialltoallw(v, one, zero, t, w, one, zero, t, MPI_COMM_SELF, &rq[9]);
        MPI_Waitall(10, rq, MPI_STATUSES_IGNORE);
    }

    exchange(rank, size);

    /* The profiling names are callable too. */
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Send(&rank, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    PMPI_Recv(&rank, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    PMPI_Barrier(MPI_COMM_WORLD);
    (void)PMPI_Wtick();

    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d of %d on %s, MPI %d.%d, %.3f s (tick %g)\n", rank, size, name,
           version, subversion, MPI_Wtime() - t0, MPI_Wtick());
    if (size < 1)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Finalize();
    MPI_Finalized(&flag);
    return 0;
}
