/* MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups: only
 * the members of the groups call, with no parent communicator. They agree
 * on context pairs as MPI_Comm_create_group does, over a temporary view of
 * the group, on a hidden communicator of every process made at start-up
 * (pair 2, taken by every rank before anything else can take it), so the
 * traffic never meets that of a user communicator. The string tag becomes
 * the tag of that traffic: a 29-bit hash of it, times 4, plus what the
 * message is for (0: a communicator's agreement, 1: an intercommunicator's
 * local group, 2: its leaders). Concurrent creations on overlapping groups
 * must have different string tags (MPI says so); two such tags that hash
 * alike (one pair in 2^29) would mix their messages. */
#include "comm/comm.h"
#include "coll/table.h"
#include "core/group.h"
#include <string.h>

#define FROM_GROUP_PAIR 2

enum { TAG_COMM, TAG_LOCAL, TAG_LEADERS };

static dmpi_comm_t *base;

int dmpi_from_group_init(void)
{
    dmpi_comm_t *world = dmpi_comm_get(MPI_COMM_WORLD);
    dmpi_group_retain(world->group);
    int err = dmpi_comm_make(world, world->group, FROM_GROUP_PAIR, true, &base);
    if (err != MPI_SUCCESS) {
        dmpi_group_release(world->group);
        return err;
    }
    base->errhandler = MPI_ERRORS_RETURN;     /* not retained: predefined */
    strcpy(base->name, "the communicator of MPI_Comm_create_from_group");
    dmpi_coll_comm_init(base);
    return MPI_SUCCESS;
}

void dmpi_from_group_finalize(void)
{
    if (base)
        dmpi_comm_free(base);
    base = NULL;
}

/* FNV-1a of the string, folded to 29 bits. */
static int tag_of(const char *stringtag, int purpose)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)stringtag; *p; p++)
        h = (h ^ *p) * 16777619u;
    h = (h ^ (h >> 29)) & 0x1fffffffu;
    return (int)(h * 4u) + purpose;
}

/* The new communicator derives from the session g derives from (its
 * buffered sends use that session's buffer), as do those made from it. */
int dmpi_comm_from_group(dmpi_group_t *g, const char *stringtag, dmpi_comm_t **out)
{
    int err = dmpi_comm_create_group(base, g, tag_of(stringtag, TAG_COMM), out);
    if (err == MPI_SUCCESS && *out)
        dmpi_comm_set_session(*out, g->session);
    return err;
}

int dmpi_intercomm_from_groups(dmpi_group_t *lg, int local_leader, dmpi_group_t *rg, int remote_leader,
                               const char *stringtag, dmpi_comm_t **out)
{
    dmpi_comm_t *local;
    *out = NULL;
    int err = dmpi_comm_create_group(base, lg, tag_of(stringtag, TAG_LOCAL), &local);
    if (err != MPI_SUCCESS)
        return err;
    if (rg->size == 0)
        err = dmpi_intercomm_alone(local, out);
    else
        err = dmpi_intercomm_create(local, local_leader, base, rg->world[remote_leader],
                                    tag_of(stringtag, TAG_LEADERS), MPI_SUCCESS, out);
    dmpi_comm_free(local);
    if (err == MPI_SUCCESS && *out)
        dmpi_comm_set_session(*out, lg->session);
    return err;
}
