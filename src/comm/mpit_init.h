/* MPI_T_init_thread with every layer's variables (comm/mpit_init.c). */
#ifndef DMPI_COMM_MPIT_INIT_H
#define DMPI_COMM_MPIT_INIT_H

int dmpi_tools_init_thread(int required, int *provided);

#endif
