/* Algorithm: node-level barrier. Each rank raises its arrival flag (the
 * seq of its post for this phase). With one group every rank waits for all
 * the others' flags: half a cache-line round trip at two ranks. With
 * several groups (NUMA domains, or more than max(8, sqrt n) ranks) a
 * leader waits for its group, raises `up`, waits for the other leaders'
 * `up`, and raises `down`, which releases its group.
 * Cost: flat, n - 1 flag reads per rank; two levels, about 2 (g + m)
 * flag transfers for g groups of m ranks. */
#include "coll/node/node_coll.h"

static void wait_arrival(nc_state_t *s, int r, uint64_t t)
{
    nc_wait_ge(s, &nc_post(s, r, t)->seq, t, "arrival", r);
}

int nc_barrier(nc_state_t *s)
{
    uint64_t t = nc_next(s);
    nc_rank_t *me = nc_rank(s, s->me);
    /* Only seq is written: a reader of phase t - 2's data sees it unchanged. */
    atomic_store_explicit(&nc_post(s, s->me, t)->seq, t, memory_order_release);
    if (s->ngroups == 1) {
        for (int r = 0; r < s->n; r++)
            if (r != s->me)
                wait_arrival(s, r, t);
    } else {
        int lead = s->leader[s->group_of[s->me]];
        if (lead == s->me) {
            for (int i = 0; i < s->nmembers; i++)
                wait_arrival(s, s->members[i], t);
            atomic_store_explicit(&me->up, t, memory_order_release);
            for (int g = 0; g < s->ngroups; g++)
                if (s->leader[g] != s->me)
                    nc_wait_ge(s, &nc_rank(s, s->leader[g])->up, t, "group arrival", s->leader[g]);
            atomic_store_explicit(&me->down, t, memory_order_release);
        } else {
            nc_wait_ge(s, &nc_rank(s, lead)->down, t, "group release", lead);
        }
    }
    nc_set_done(s, t);
    return MPI_SUCCESS;
}
