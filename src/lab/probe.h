/* SPDX-License-Identifier: MIT */
/*
 * probe.h — the machine's ceilings, measured before each repeat of the sweep (probe.c):
 * a compute loop, shared-array reads and writes at each table size, per-CPU latency.
 */
#ifndef CUTOFF_LAB_PROBE_H
#define CUTOFF_LAB_PROBE_H

#include "lab/types.h"

/* Plans the probes' CPUs and makes their arrays, one per table size the run's workloads
 * use, and the per-repeat figures. False after one line of error on failure; bench_probe_free()
 * frees what was made in either case. */
/* No probes (`cutoff sim`: the times are virtual): the ceilings are NAN, "n/a". */
bool bench_probe_none(bench_t *b);
bool bench_probe_setup(bench_t *b);
/* Measures every ceiling before repeat `rep` (from 1), with the time it took. */
void bench_probe_repeat(bench_t *b, int rep);
void bench_probe_free(bench_t *b);
/* The median, minimum and maximum of v[0], v[stride], .. v[(n - 1) * stride], leaving out
 * NAN; false when none is left. */
bool bench_spread(const double *v, int n, int stride, double *median, double *min, double *max);
/* The median, minimum and maximum of the ceiling measured for counts[c]; false when none. */
bool bench_ceiling(const bench_t *b, int c, double *median, double *min, double *max);
/* The memory probes at workload wk's table size, or NULL (no table, or not probed). */
const bench_mem_t *bench_mem_of(const bench_t *b, int wk);

#endif /* CUTOFF_LAB_PROBE_H */
