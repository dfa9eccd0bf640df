/*
 * hw_info: MPI-4.1's MPI_Get_hw_resource_info.
 *
 * Each call returns a new info object (distinct handles, each freed by the
 * caller) whose key "mpi_hw_resource_type" names the hardware resource
 * types the library knows; each of them, given to MPI_Comm_split_type with
 * MPI_COMM_TYPE_HW_GUIDED under the same key, splits MPI_COMM_WORLD (for
 * "mpi_shared_memory": the same groups as MPI_COMM_TYPE_SHARED, so the two
 * communicators are congruent). The object is an ordinary info object (a
 * key can be added). hw_info NULL is MPI_ERR_ARG.
 */
#include "mtest.h"

#include <string.h>

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    MTEST_RC(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MPI_Info a = MPI_INFO_NULL, b = MPI_INFO_NULL;
    MTEST_RC(MPI_Get_hw_resource_info(&a));
    MTEST_RC(PMPI_Get_hw_resource_info(&b));
    MTEST_CHECK(a != MPI_INFO_NULL && b != MPI_INFO_NULL && a != b, "two calls gave %#x and %#x", (unsigned)a,
                (unsigned)b);
    char value[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0, nkeys = 0;
    MTEST_RC(MPI_Info_get_nkeys(a, &nkeys));
    MTEST_RC(MPI_Info_get(a, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, value, &flag));
    MTEST_CHECK(nkeys >= 1 && flag && strstr(value, "mpi_shared_memory") != NULL,
                "hw info: %d keys, mpi_hw_resource_type %s'%s'", nkeys, flag ? "" : "(absent) ", value);

    /* the resource type named there splits as MPI_COMM_TYPE_SHARED does */
    MPI_Comm shared, guided;
    MTEST_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared));
    MTEST_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, a, &guided));
    int result = -1;
    if (MTEST_CHECK(guided != MPI_COMM_NULL, "HW_GUIDED split with the hw info gave MPI_COMM_NULL")) {
        MTEST_RC(MPI_Comm_compare(shared, guided, &result));
        MTEST_CHECK(result == MPI_CONGRUENT, "HW_GUIDED and SHARED communicators compare as %d", result);
        MTEST_RC(MPI_Comm_free(&guided));
    }
    /* MPI-4.1's RESOURCE_GUIDED takes the same key; unknown values and no
     * info give MPI_COMM_NULL */
    MTEST_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, a, &guided));
    if (MTEST_CHECK(guided != MPI_COMM_NULL, "RESOURCE_GUIDED split with the hw info gave MPI_COMM_NULL")) {
        MTEST_RC(MPI_Comm_compare(shared, guided, &result));
        MTEST_CHECK(result == MPI_CONGRUENT, "RESOURCE_GUIDED and SHARED communicators compare as %d", result);
        MTEST_RC(MPI_Comm_free(&guided));
    }
    MTEST_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, MPI_INFO_NULL, &guided));
    MTEST_CHECK(guided == MPI_COMM_NULL, "RESOURCE_GUIDED without info gave a communicator");
    MPI_Info odd;
    MTEST_RC(MPI_Info_create(&odd));
    MTEST_RC(MPI_Info_set(odd, "mpi_hw_resource_type", "no-such-resource"));
    MTEST_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, odd, &guided));
    MTEST_CHECK(guided == MPI_COMM_NULL, "RESOURCE_GUIDED with an unknown resource gave a communicator");
    MTEST_RC(MPI_Info_free(&odd));
    MTEST_RC(MPI_Comm_free(&shared));

    MTEST_RC(MPI_Info_set(b, "extra", "1"));
    MTEST_RC(MPI_Info_get_nkeys(b, &nkeys));
    MTEST_CHECK(nkeys >= 2, "hw info with a key added has %d keys", nkeys);
    MTEST_RC(MPI_Info_free(&a));
    MTEST_RC(MPI_Info_free(&b));
    MTEST_CHECK(a == MPI_INFO_NULL && b == MPI_INFO_NULL, "Info_free did not null the handles");
    mtest_check_class(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG, "Get_hw_resource_info(NULL)");
    return mtest_finalize();
}
