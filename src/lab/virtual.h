/* SPDX-License-Identifier: MIT */
/*
 * virtual.h — the sweep of `cutoff bench` on virtual threads, for `cutoff sim` in
 * cutoff-sim (virtual.c, built into that program only): the command gives its usage, its
 * own options' table (written into a bench_virtual_opts_t) and the line; the lab does the
 * rest.
 */
#ifndef CUTOFF_LAB_VIRTUAL_H
#define CUTOFF_LAB_VIRTUAL_H

#include <stdint.h>

#include "lab/types.h" /* bench_error_t */

/* `cutoff sim`'s own options. */
typedef struct bench_virtual_opts {
	const char *model_path; /* --cost-model FILE, or NULL: the built-in model */
	int schedule;           /* --schedule: an index of bench_schedule_names */
	uint64_t seed;          /* --seed; repeat r runs with seed + r - 1 */
	int64_t jobs;           /* --jobs; 0: not given (the CPUs of the affinity mask) */
} bench_virtual_opts_t;

/* The schedules, indexed by cutoff_sim_schedule_t: "clock", "random"; NULL-terminated. */
extern const char *const bench_schedule_names[];

/* The sweep `cmd` on virtual threads: bench_main (bench.h) with `extra` parsed beside the
 * bench's options into *o, then every run simulated. Returns the process exit status; a
 * failure's lines are in *err for the command to print, as bench_main's. */
struct cli_opt;
int bench_sim_main(const char *cmd, const char *usage, int argc, char **argv,
                   const struct cli_opt *extra, int nextra, const bench_virtual_opts_t *o,
                   bench_error_t *err);

#endif /* CUTOFF_LAB_VIRTUAL_H */
