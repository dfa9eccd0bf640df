/* The performance counters (core/pvar.h). */
#include "core/pvar.h"

dmpi_pv_t dmpi_pv;
