/*
 * big: messages of more than 2 GiB.
 *
 *  - rank 0 sends 2^28 + 5 MPI_DOUBLEs (2 GiB + 40 bytes) to rank 1 with
 *    MPI_Send / MPI_Recv;
 *  - rank 1 sends 2^27 + 3 MPI_C_DOUBLE_COMPLEX (2 GiB + 48 bytes) back
 *    with MPI_Isend / MPI_Irecv.
 * The data is checked completely against the pattern (mtest_fill), the
 * status with MPI_Get_count in elements; MPI_Get_count in bytes does not
 * fit in an int and must give MPI_UNDEFINED.
 *
 * Meant for exactly 2 processes (4 GiB of memory); other ranks only take
 * part in the final report.  With one process the test does nothing.
 */
#include "mtest.h"

#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    mtest_init(&argc, &argv);
    const int me = mtest_rank;
    const int n_double = (1 << 28) + 5;
    const int n_complex = (1 << 27) + 3;
    const size_t bytes_double = (size_t)n_double * sizeof(double);
    const size_t bytes_complex = (size_t)n_complex * sizeof(double _Complex);
    const size_t cap = bytes_complex > bytes_double ? bytes_complex : bytes_double;
    MPI_Status st;
    MPI_Request r;
    int c;

    if (mtest_size < 2) {
        printf("big: needs 2 processes, nothing to do\n");
        return mtest_finalize();
    }
    if (me <= 1) {
        unsigned char *buf = mtest_malloc(cap + MTEST_GUARD);
        double t0 = MPI_Wtime();
        if (me == 0) {
            mtest_fill(buf, bytes_double, me, 1);
            MPI_Send(buf, n_double, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
        } else {
            memset(buf, 0, bytes_double);
            mtest_guard_set(buf + bytes_double);
            MPI_Recv(buf, n_double, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &st);
            mtest_check_status(&st, 0, 5, MPI_DOUBLE, n_double, "2 GiB + 40 bytes of doubles");
            c = 0;
            MPI_Get_count(&st, MPI_BYTE, &c);
            MTEST_CHECK(c == MPI_UNDEFINED, "MPI_Get_count(MPI_BYTE) of %zu bytes gives %d, "
                        "expected MPI_UNDEFINED", bytes_double, c);
            mtest_check_data(buf, bytes_double, 0, 1, "2 GiB + 40 bytes of doubles");
            mtest_guard_check(buf + bytes_double, "2 GiB + 40 bytes of doubles");
        }
        double t1 = MPI_Wtime();

        /* the other way round, nonblocking */
        if (me == 1) {
            mtest_fill(buf, bytes_complex, me, 2);
            MPI_Isend(buf, n_complex, MPI_C_DOUBLE_COMPLEX, 0, 6, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, &st);
        } else {
            memset(buf, 0, bytes_complex);
            mtest_guard_set(buf + bytes_complex);
            MPI_Irecv(buf, n_complex, MPI_C_DOUBLE_COMPLEX, 1, 6, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, &st);
            mtest_check_status(&st, 1, 6, MPI_C_DOUBLE_COMPLEX, n_complex,
                               "2 GiB + 48 bytes of double complex");
            mtest_check_status(&st, 1, 6, MPI_DOUBLE, 2 * n_complex,
                               "2 GiB + 48 bytes of double complex, counted in doubles");
            mtest_check_data(buf, bytes_complex, 1, 2, "2 GiB + 48 bytes of double complex");
            mtest_guard_check(buf + bytes_complex, "2 GiB + 48 bytes of double complex");
        }
        if (getenv("MTEST_VERBOSE"))
            printf("[rank %d] %.2f s + %.2f s\n", me, t1 - t0, MPI_Wtime() - t1);
        free(buf);
    }
    return mtest_finalize();
}
