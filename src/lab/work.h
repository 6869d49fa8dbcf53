/* SPDX-License-Identifier: MIT */
/*
 * work.h — the workloads of `cutoff bench` and the measured runs over them (work.c):
 * loading the positions, one run of one setting, the quality runs at equal time, the
 * chess reference moves, and the two files that say what was searched.
 */
#ifndef CUTOFF_LAB_WORK_H
#define CUTOFF_LAB_WORK_H

#include "lab/types.h"

/* Loads the workload `kind` into b->res.work[kind] (positions, settings). `file` replaces the
 * default positions (NULL: the default); `positions` caps their number (0: all). Returns
 * CLI_EXIT_OK, or after one line of error (bench_fail) an exit status: CLI_EXIT_USAGE when the file
 * cannot be read (args.h), CLI_EXIT_FAIL for anything else. */
int bench_workload_load(bench_t *b, int kind, const char *file, int64_t positions,
                        int64_t chess_depth, int64_t rtree_branching, int64_t rtree_depth,
                        int64_t hash_mb);
void bench_workload_free(bench_workload_t *w);

/* What the workload `kind` takes when the command line does not say, for --help: its
 * positions without --positions (0: all it has; rtree: its trees), the positions it has
 * built in (rtree: 0) and its table in MiB without --hash (its game's row of
 * kit/games.c). */
typedef struct bench_workload_defaults {
	int positions, builtin;
	size_t tt_mb;
} bench_workload_defaults_t;
void bench_workload_defaults(int kind, bench_workload_defaults_t *d);

/* Fills *run for (workload, driver or Stockfish, threads, repeat) with its arrays (not
 * kept in b->res.runs: a simulated rank's own record); false when out of memory (then
 * nothing to free). bench_run_free frees the arrays. */
bool bench_run_alloc(const bench_t *b, bench_run_t *run, int workload, bool stockfish, int driver,
                     int threads, int repeat);

/* Makes a run record for (workload, driver or Stockfish, threads, repeat) with its
 * arrays, or NULL. */
bench_run_t *bench_run_new(bench_t *b, int workload, bool stockfish, int driver, int threads,
                           int repeat);

/* Measures one run (every position of the workload). False after one line of error on failure. */
bool bench_run(bench_t *b, bench_run_t *run);

/* Frees the arrays of a run record (not the record). */
void bench_run_free(bench_run_t *run);

/* Quality at equal time: each chess position at `ms` milliseconds, one setting. */
bool bench_quality_run(bench_t *b, int driver, int threads);

/* Chess reference moves: a serial search `extra` plies deeper than each position's depth,
 * for the positions that have none. */
bool bench_references(bench_t *b, int extra);

/* Writes the positions as they were used (depths, reference moves, Stockfish depths) in
 * the format --chess-file reads. */
bool bench_write_chess_file(const bench_t *b, const char *path);

/* Writes searches.txt: for every position of every workload, the `cutoff search` command
 * that repeats its search (serial driver, one thread; the same nodes, move and value). */
bool bench_write_searches(const bench_t *b, const char *path);

#endif /* CUTOFF_LAB_WORK_H */
