/* SPDX-License-Identifier: MIT */
/*
 * ceiling.h — the machine's ceilings as `cutoff bench` reports them, and the ceiling that
 * applies to each workload's rows (ceiling.c).
 */
#ifndef CUTOFF_LAB_CEILING_H
#define CUTOFF_LAB_CEILING_H

#include "lab/types.h"

/* Every figure of the probes, in the text header, in results.json (an
 * array "probes" in the object being written) and in ceilings.csv. */
struct json_writer;
void bench_ceiling_print(const bench_t *b, FILE *out);
/* Each workload's shares and each row's ceiling, bound and speed-up over it (after the
 * rows are derived), and the lines under a workload's table that say how. */
void bench_ceiling_derive(bench_t *b);
void bench_ceiling_print_workload(const bench_t *b, int wk, FILE *out);
/* "compute", "reads", "writes" for a row's ceiling_bound; NULL for -1. */
const char *bench_bound_name(int bound);
void bench_ceiling_json(const bench_t *b, struct json_writer *j);
bool bench_ceiling_csv(const bench_t *b, const char *path);

#endif /* CUTOFF_LAB_CEILING_H */
