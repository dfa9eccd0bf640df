/* coll/big_block.c: a block of more elements than a message's int count
 * holds becomes one element of a type made for it. The limit is INT_MAX in
 * the library; here it is small (1, 3, 7), so that every path (exact runs,
 * runs and a remainder) is tried on small buffers: the made type must hold
 * the same bytes in the same order as count elements of the original, for
 * types with gaps, a negative lower bound and a resized extent, and pack
 * and unpack alike. */
#include "coll/big_block.h"
#include "core/dtype_ops.h"
#include "unit.h"

static dmpi_dtype_t *mk(int comb, int ni, const int *ints, int na, const MPI_Aint *aints, MPI_Datatype inner)
{
    dmpi_dtype_t *t = NULL;
    if (dmpi_dtype_create(comb, ni, ints, na, aints, 1, &inner, &t) != MPI_SUCCESS)
        return NULL;
    dmpi_dtype_commit(t);
    return t;
}

enum { MEM = 1 << 16, BASE = 4096 };

static void one_type(const char *name, dmpi_dtype_t *dt)
{
    static unsigned char src[MEM], a[MEM], b[MEM], back1[MEM], back2[MEM];
    for (size_t i = 0; i < MEM; i++)
        src[i] = (unsigned char)(i * 131 + 7);
    static const size_t limits[] = {1, 3, 7};
    int bad = 0, cases = 0;
    for (size_t l = 0; l < sizeof limits / sizeof *limits; l++)
        for (size_t count = 0; count <= 50; count++) {
            size_t n;
            dmpi_dtype_t *as;
            cases++;
            if (dmpi_big_block(count, dt, limits[l], &n, &as) != MPI_SUCCESS) {
                NOTE(bad, "%s limit %zu count %zu: failed", name, limits[l], count);
                continue;
            }
            if (count <= limits[l]) {
                if (as != dt || n != count)
                    NOTE(bad, "%s limit %zu count %zu: changed although within the limit", name, limits[l], count);
                continue;
            }
            size_t bytes = count * dt->size;
            if (n != 1 || as == dt || !as->committed || as->size != bytes) {
                NOTE(bad, "%s limit %zu count %zu: n %zu, size %zu of %zu", name, limits[l], count, n, as->size,
                     bytes);
            } else {
                dmpi_dtype_pack(dt, count, src + BASE, a);
                dmpi_dtype_pack(as, 1, src + BASE, b);
                memset(back1, 0, sizeof back1);
                memset(back2, 0, sizeof back2);
                dmpi_dtype_unpack(dt, count, a, back1 + BASE, bytes);
                dmpi_dtype_unpack(as, 1, a, back2 + BASE, bytes);
                if (memcmp(a, b, bytes) || memcmp(back1, back2, MEM))
                    NOTE(bad, "%s limit %zu count %zu: other bytes than count elements", name, limits[l], count);
            }
            dmpi_dtype_release(as);
        }
    CHECK(bad == 0, "%s: %d of %d cases wrong", name, bad, cases);
}

int main(void)
{
    unit_watchdog(60);
    one_type("MPI_INT", dmpi_dtype_get(MPI_INT));
    int v[3] = {3, 2, 5};
    dmpi_dtype_t *vec = mk(MPI_COMBINER_VECTOR, 3, v, 0, NULL, MPI_INT);
    one_type("vector(3, 2, 5) of MPI_INT", vec);
    MPI_Aint bounds[2] = {-8, 24};
    dmpi_dtype_t *res = mk(MPI_COMBINER_RESIZED, 0, NULL, 2, bounds, vec->handle);
    one_type("the vector resized to lb -8, extent 24", res);
    MPI_Aint shrink[2] = {4, 12};
    dmpi_dtype_t *tight = mk(MPI_COMBINER_RESIZED, 0, NULL, 2, shrink, MPI_DOUBLE);
    one_type("MPI_DOUBLE resized to lb 4, extent 12", tight);
    dmpi_dtype_release(tight);
    dmpi_dtype_release(res);
    dmpi_dtype_release(vec);
    return unit_summary("test_big_block");
}
