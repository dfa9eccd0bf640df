/* Choice of algorithm per collective. */
#include "coll/coll.h"

int dmpi_coll_barrier(dmpi_comm_t *c)
{
    return dmpi_barrier_dissemination(c);
}
