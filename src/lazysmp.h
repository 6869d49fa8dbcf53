/*
 * lazysmp.h — the lazy SMP driver's two rules (internal): which iterations a helper
 * skips, and which thread's answer the search reports. The threads themselves run the
 * engine's iterative deepening (engine.c); they share nothing but the table.
 */
#ifndef CUTOFF_LAZYSMP_H
#define CUTOFF_LAZYSMP_H

#include <stdbool.h>

#include "cutoff.h"

/* True when thread `index` (0 = the main thread, which never skips) skips iteration
 * `depth` of a search to `final_depth` (the final one is never skipped). */
bool cutoff_lazysmp_skips(int index, int depth, int final_depth);

/* The thread whose answer the search reports, of `threads` results (one per thread). */
int cutoff_lazysmp_pick(const cutoff_result_t *results, int threads);

#endif /* CUTOFF_LAZYSMP_H */
