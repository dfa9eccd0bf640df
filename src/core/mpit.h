/* The tool information interface (MPI_T, MPI-4.0 chapter 15): control
 * variables (the parameter table, core/params.c), performance variables
 * (counters of core/pvar.h and others registered at the first
 * MPI_T_init_thread), their categories, enumerations, and the events
 * interface (dmpi has no event sources). Every function returns
 * MPI_SUCCESS or an MPI_T_ERR_* code, as the standard says, never through
 * an error handler; each takes MPI_T's own lock, so MPI_T is thread safe
 * before MPI_Init and after MPI_Finalize too. */
#ifndef DMPI_MPIT_H
#define DMPI_MPIT_H

#include "mpi.h"
#include <stdbool.h>
#include <stdint.h>

/* ---- start and end (reference counted) ----------------------------------- */

/* Counts one more MPI_T_init_thread. The first of the process registers
 * core's variables, then calls more() (under MPI_T's lock) to register
 * those of the layers above. */
int dmpi_mpit_init_thread(int required, int *provided, void (*more)(void));
int dmpi_mpit_finalize(void);

/* ---- what the layers register at the first init ------------------------------ */

/* A performance variable over a counter or level the code keeps (read as
 * MPI_UNSIGNED_LONG_LONG). A MPI_T_PVAR_CLASS_HIGHWATERMARK variable reads
 * hwm, which the code raises as level rises; a reset lowers it to level.
 * name is copied. Returns 0, or -1 if the table is full. */
typedef struct dmpi_pvar_source {
    const char *name, *desc, *category;
    int verbosity, var_class;
    bool continuous;                   /* always counting: no start/stop */
    const uint64_t *value;             /* counter or level */
    uint64_t *hwm;                     /* HIGHWATERMARK only */
} dmpi_pvar_source_t;
int dmpi_mpit_pvar_add(const dmpi_pvar_source_t *src);

/* A check of a control variable's new value beyond its own syntax and
 * range (the collectives' algorithm names): 0 if the value is acceptable. */
typedef int (*dmpi_cvar_check_fn)(const char *param, const char *value);
void dmpi_mpit_set_cvar_check(dmpi_cvar_check_fn check);

/* ---- the calls, with MPI's arguments ---------------------------------------------- */

int dmpi_mpit_enum_get_info(MPI_T_enum e, int *num, char *name, int *name_len);
int dmpi_mpit_enum_get_item(MPI_T_enum e, int indx, int *value, char *name, int *name_len);

int dmpi_mpit_cvar_get_num(int *num);
int dmpi_mpit_cvar_get_info(int i, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                            MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope);
int dmpi_mpit_cvar_get_index(const char *name, int *i);
int dmpi_mpit_cvar_handle_alloc(int i, void *obj, MPI_T_cvar_handle *h, int *count);
int dmpi_mpit_cvar_handle_free(MPI_T_cvar_handle *h);
int dmpi_mpit_cvar_read(MPI_T_cvar_handle h, void *buf);
int dmpi_mpit_cvar_write(MPI_T_cvar_handle h, const void *buf);

int dmpi_mpit_pvar_get_num(int *num);
int dmpi_mpit_pvar_get_info(int i, char *name, int *name_len, int *verbosity, int *var_class,
                            MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
                            int *readonly, int *continuous, int *atomic);
int dmpi_mpit_pvar_get_index(const char *name, int var_class, int *i);
int dmpi_mpit_pvar_session_create(MPI_T_pvar_session *s);
int dmpi_mpit_pvar_session_free(MPI_T_pvar_session *s);
int dmpi_mpit_pvar_handle_alloc(MPI_T_pvar_session s, int i, void *obj, MPI_T_pvar_handle *h, int *count);
int dmpi_mpit_pvar_handle_free(MPI_T_pvar_session s, MPI_T_pvar_handle *h);
enum { DMPI_PVAR_START, DMPI_PVAR_STOP, DMPI_PVAR_RESET };
int dmpi_mpit_pvar_control(MPI_T_pvar_session s, MPI_T_pvar_handle h, int what);
/* Reads (buf), writes (value) and resets (reset) one handle. */
int dmpi_mpit_pvar_access(MPI_T_pvar_session s, MPI_T_pvar_handle h, void *buf, const void *value, bool reset);

int dmpi_mpit_category_get_num(int *num);
int dmpi_mpit_category_get_info(int c, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                                int *num_pvars, int *num_categories);
int dmpi_mpit_category_get_index(const char *name, int *c);
enum { DMPI_CAT_CVARS, DMPI_CAT_PVARS, DMPI_CAT_CATEGORIES, DMPI_CAT_EVENTS };
/* The first len indices of one kind of member of category c, and how many there are (num, may be NULL). */
int dmpi_mpit_category_members(int c, int kind, int len, int indices[], int *num);
int dmpi_mpit_category_changed(int *update_number);

/* Sources and events: there are none, so every index and every handle is
 * invalid; the calls check what they can of the rest. */
int dmpi_mpit_check_ready(void);
int dmpi_mpit_source_get_num(int *num);
int dmpi_mpit_event_get_num(int *num);
int dmpi_mpit_no_such_index(int i);
int dmpi_mpit_get_index_none(const char *name, int *i);
int dmpi_mpit_no_such_handle(const void *h);

#endif
