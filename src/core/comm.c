/* Communicators. So far the two predefined ones; the table and handle
 * scheme leave room for user communicators (direct handles 0x84000000|i). */
#include "core/dmpi.h"
#include "core/errhandler.h"
#include <string.h>

/* Context ids: two per communicator, ctx for point-to-point and ctx + 1 for
 * collectives, so collective traffic never matches user receives. */
enum { CTX_WORLD = 0, CTX_SELF = 2 };

dmpi_comm_t dmpi_comm_world_obj;
#define comm_world dmpi_comm_world_obj
static dmpi_comm_t comm_self;
static int self_world_rank[1];

dmpi_comm_t *dmpi_comm_get_slow(MPI_Comm h)
{
    if (h == MPI_COMM_WORLD)
        return comm_world.refcount ? &comm_world : NULL;
    if (h == MPI_COMM_SELF)
        return comm_self.refcount ? &comm_self : NULL;
    return NULL;
}

int dmpi_comm_init_builtins(void)
{
    comm_world = (dmpi_comm_t){.handle = MPI_COMM_WORLD, .ctx = CTX_WORLD, .rank = dmpi_world.rank,
                               .size = dmpi_world.size, .world_of = NULL,
                               .errhandler = MPI_ERRORS_ARE_FATAL, .refcount = 1};
    strcpy(comm_world.name, "MPI_COMM_WORLD");
    self_world_rank[0] = dmpi_world.rank;
    comm_self = (dmpi_comm_t){.handle = MPI_COMM_SELF, .ctx = CTX_SELF, .rank = 0, .size = 1,
                              .world_of = self_world_rank, .errhandler = MPI_ERRORS_ARE_FATAL,
                              .refcount = 1};
    strcpy(comm_self.name, "MPI_COMM_SELF");
    return 0;
}

void dmpi_comm_finalize(void)
{
    dmpi_errhandler_release(comm_world.errhandler);
    dmpi_errhandler_release(comm_self.errhandler);
    comm_world.refcount = comm_self.refcount = 0;
}
