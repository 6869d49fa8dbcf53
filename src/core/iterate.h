/* SPDX-License-Identifier: MIT */
/*
 * iterate.h — iterative deepening, aspiration windows and the rules that end a search
 * (internal), shared by every driver. Invariants at the top of iterate.c.
 */
#ifndef CUTOFF_ITERATE_H
#define CUTOFF_ITERATE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/search.h"
#include "cutoff.h"

/*
 * One search as the drivers' jobs see it: written by the engine before the pool starts
 * the threads, read-only during the search (the searchers, results and control excepted,
 * whose owners search.h and engine.c name).
 */
typedef struct cutoff_job {
	const cutoff_config_t *cfg;
	const cutoff_limits_t *lim;
	cutoff_searcher_t *searchers; /* searchers[i] belongs to thread i */
	cutoff_result_t *results;     /* results[i] is written by thread i */
	cutoff_control_t *control;
	void *driver;        /* the driver's state */
	uint64_t t0;         /* the search's start, cutoff_now_ns() */
	cutoff_info_fn info; /* called by thread 0 after each iteration but the last */
	void *info_user;
} cutoff_job_t;

/* True when thread `index` skips iteration `depth` of a search to `final_depth`; `index` is
 * config.thread_base plus the engine's own thread index. */
typedef bool (*cutoff_skip_fn)(int index, int depth, int final_depth);

/*
 * Iterative deepening by thread `index` into results[index] (or one search at the final
 * depth when limits.iterate is false): each iteration through an aspiration window when
 * configured, until the final depth, a proven mate or (limits.solve) an iteration that
 * never met the horizon. `skips` (NULL: none) leaves iterations out; with `halt_at_end`
 * the thread that completes its last iteration ends every other thread's search (the
 * control's halt). Only thread 0 calls the info callback.
 */
void cutoff_iterate(const cutoff_job_t *job, int index, cutoff_skip_fn skips, bool halt_at_end);

/* The deepest iteration a search may run: limits.depth, or with solve and depth 0 as deep
 * as the engine goes. */
int cutoff_final_depth(const cutoff_limits_t *lim, int max_ply);

/* True when an iteration at `depth` has proven its value for good (iterate.c). */
bool cutoff_mate_proven(const cutoff_config_t *cfg, int32_t value, cutoff_bound_t bound, int depth);

/*
 * Of the job's results (one per thread of job->cfg->threads) of threads that each ran
 * their own iterative deepening, the one to report: a value solved to the end of the game
 * first; else a proven win, the shortest, and of equally short ones the deepest; otherwise
 * the deepest completed iteration; on equal depth the lowest thread index (the main thread
 * first). Reads only the results.
 */
int cutoff_pick_deepest(const cutoff_job_t *job);

/*
 * Stockfish's vote among threads (iterate.c gives the whole rule): when a limit or a stop
 * ended the search before any thread completed its last iteration (and it is not a solve),
 * the thread whose best move has the most votes, each thread voting with (value - lowest
 * value + a constant) x depth; a proven win first, a proven loss never by votes. Any other
 * search: cutoff_pick_deepest. Reads the job's configuration, limits and results;
 * allocates nothing.
 */
int cutoff_pick_vote(const cutoff_job_t *job);

/* a - b for every counter but seldepth, which stays a's (a maximum). */
cutoff_counters_t cutoff_counters_minus(const cutoff_counters_t *a, const cutoff_counters_t *b);

#endif /* CUTOFF_ITERATE_H */
