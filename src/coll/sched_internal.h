/* Inside a schedule (coll/sched.c): its steps and rounds, for the engine
 * and for tests/unit/test_coll_algos.c, which builds every algorithm's
 * schedules for p ranks in one process and runs them against each other
 * without starting them. Nothing else should look in here. */
#ifndef DMPI_SCHED_INTERNAL_H
#define DMPI_SCHED_INTERNAL_H

#include "coll/sched.h"
#include "core/op.h"

/* STEP_PACK: a copy run when its round starts, before the sends (the
 * packed data of a message sent in pieces, sched.c). */
enum { STEP_SEND, STEP_RECV, STEP_REDUCE, STEP_COPY, STEP_PACK };

typedef struct scratch {
    void *p;
    size_t cap;
} scratch_t;
#define SMALL_STEPS 8

typedef struct step {
    uint8_t kind;
    bool local;                  /* on the intercommunicator's local group (dmpi_sched_local) */
    int peer;
    const void *src;
    void *dst;
    size_t count, dcount;
    dmpi_dtype_t *dt, *ddt;
    dmpi_op_t *op;
    dmpi_request_t *req;
} step_t;

struct dmpi_sched {
    dmpi_comm_t view;            /* the communicator on its collective context */
    int tag;
    step_t *steps;
    int nsteps, cap;
    int *round_end;              /* steps [round_end[k-1], round_end[k]) form round k */
    int nrounds, rcap;
    int round;                   /* the current round */
    bool started;                /* its communication is under way */
    struct scratch *tmps;
    int ntmps, tcap;
    int err;
    const char *name;            /* the MPI call, for messages ("MPI_Allreduce") */
    const int *map;              /* while set: peers of sends and receives are its indices (dmpi_sched_map) */
    bool local;                  /* while set: sends and receives go to the local group (dmpi_sched_local) */
    dmpi_comm_t lview;           /* an intercommunicator's local group, on its collective context */
    dmpi_request_t *req;
    bool kept;                   /* a persistent collective's: run again at each start (dmpi_sched_restart) */
    bool packs;                  /* has STEP_PACK steps */
    struct dmpi_sched *next, *prev;
    /* most schedules are small: their steps and rounds need no allocation */
    step_t small_steps[SMALL_STEPS];
    int small_rounds[SMALL_STEPS];
};

/* Ends the last round if steps were added after the last dmpi_sched_round
 * (what starting a schedule does first). */
int dmpi_sched_close_rounds(dmpi_sched_t *s);
/* Runs the local steps (reductions, copies) of round k, in order; an error
 * is kept in s->err. */
void dmpi_sched_local_steps(dmpi_sched_t *s, int k);

#endif
