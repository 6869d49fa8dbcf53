/*
 * tt.h — the shared transposition table. Its functions are public (cutoff.h, section 5);
 * this header is where the core includes them from. Layout, replacement rule and the
 * memory-ordering argument open tt.c.
 */
#ifndef CUTOFF_TT_H
#define CUTOFF_TT_H

#include "cutoff.h"

/* Like cutoff_tt_new, with the memory placed through an already loaded hwloc topology
 * (a hwloc_topology_t, which must outlive the table), or plain memory when it is NULL. */
cutoff_tt_t *cutoff_tt_create(void *topology, size_t mb, unsigned flags, int *err);

#endif /* CUTOFF_TT_H */
