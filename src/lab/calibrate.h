/* SPDX-License-Identifier: MIT */
/*
 * calibrate.h — this machine's cost model for the simulator, measured with real threads
 * (calibrate.c; the real `cutoff` only), for `cutoff sim --calibrate`.
 */
#ifndef CUTOFF_LAB_CALIBRATE_H
#define CUTOFF_LAB_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim.h"

/* Every figure measured into *m (which starts as the built-in model: what is not measured
 * keeps its value), each printed on stdout as it comes with the load average; the node
 * costs of the workloads asked[] (indexed by BENCH_CHESS ..) over their first `positions`
 * positions (0: all). False after one line on stderr. */
bool bench_calibrate(cutoff_sim_model_t *m, const bool *asked, int64_t positions);

#endif /* CUTOFF_LAB_CALIBRATE_H */
