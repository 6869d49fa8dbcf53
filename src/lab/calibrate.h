/* SPDX-License-Identifier: MIT */
/*
 * calibrate.h — this machine's cost model for the simulator, measured with real threads
 * (calibrate.c; the real `cutoff` only), for `cutoff sim --calibrate`.
 */
#ifndef CUTOFF_LAB_CALIBRATE_H
#define CUTOFF_LAB_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#include "lab/types.h" /* bench_error_t */
#include "sim/sim.h"

/* Every figure measured into *m (which starts as the built-in model: what is not measured
 * keeps its value), each printed on stdout as it comes with the load average; the node
 * costs of the workloads asked[] (indexed by BENCH_CHESS ..) over their first `positions`
 * positions (0: all). False with the error recorded in *err (types.h: the command prints
 * it as `cutoff sim: ...`). */
bool bench_calibrate(cutoff_sim_model_t *m, const bool *asked, int64_t positions,
                     bench_error_t *err);

#endif /* CUTOFF_LAB_CALIBRATE_H */
