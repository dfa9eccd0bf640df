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
        g8 = g7;
        MPI_Group_free(&g8);
        MPI_Group_free(&g1);
        MPI_Comm_free(&half);
        MPI_Comm_free(&dup);
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
