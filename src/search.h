/*
 * search.h — the serial search core (internal): one searcher runs negamax, fail-soft
 * alpha-beta, PVS or MTD(f) over a game, with its own stacks, counters and principal
 * variation. A searcher is owned by exactly one thread while it searches; the only state
 * it shares is the table (tt.h) and the engine's stop flag, read through atomic.h.
 */
#ifndef CUTOFF_SEARCH_H
#define CUTOFF_SEARCH_H

#include "cutoff.h"
#include "tt.h"

enum { CUTOFF_HISTORY_SIZE = 4096 };

typedef struct cutoff_searcher {
	/* set when the engine is made, read-only afterwards */
	const cutoff_game_t *game;
	cutoff_tt_t *tt;        /* NULL: search without a table */
	const int *stop;        /* the engine's stop flag: nonzero means stop now */
	unsigned char *states;  /* (CUTOFF_MAX_PLY + 1) states, one per ply, each at a
	                           multiple of state_stride (aligned like max_align_t) */
	size_t state_stride;
	cutoff_move_t *moves;   /* CUTOFF_MAX_PLY lists of game->max_moves moves */
	int32_t *hints;         /* hints for those moves */

	unsigned ordering;      /* CUTOFF_ORDER_* bits */
	int64_t *scores;        /* max_moves ordering keys, scratch for one node at a time */

	/* set at the start of each search */
	uint64_t node_limit;    /* 0: none */
	uint64_t deadline_ns;   /* 0: none; CLOCK_MONOTONIC */
	unsigned poll;          /* nodes until the next look at the stop flag and the clock */
	bool aborted;           /* a limit or the stop flag ended this search */

	cutoff_counters_t count;
	cutoff_move_t killers[CUTOFF_MAX_PLY + 1][2];
	uint32_t history[2][CUTOFF_HISTORY_SIZE]; /* by ply parity and a hash of the move */
	int pv_length[CUTOFF_MAX_PLY + 1];
	cutoff_move_t pv[CUTOFF_MAX_PLY + 1][CUTOFF_MAX_PLY];
} cutoff_searcher_t;

/* Allocates the stacks of a searcher for `game`. Returns 0 or CUTOFF_ENOMEM. */
int cutoff_searcher_init(cutoff_searcher_t *s, const cutoff_game_t *game, cutoff_tt_t *tt,
                         const int *stop, unsigned ordering);
void cutoff_searcher_destroy(cutoff_searcher_t *s);

/* Prepares for a new search from `root` under the given limits: resets counters and
 * killers, and halves the history scores (they fade over searches). */
void cutoff_searcher_start(cutoff_searcher_t *s, const void *root, uint64_t node_limit,
                           uint64_t deadline_ns);

/* Forgets what ordering learnt (history scores). Only while not searching. */
void cutoff_searcher_forget(cutoff_searcher_t *s);

/*
 * One search of the root (already on the searcher's stack) to `depth` with `algo` and the
 * window (alpha, beta). Writes the fail-soft value, its bound for that window, and the best
 * move (into s->pv[0]). Returns false when the search was aborted (a limit, the stop
 * flag); the outputs are then meaningless.
 */
bool cutoff_search_root(cutoff_searcher_t *s, cutoff_algo_t algo, int depth, int32_t alpha,
                        int32_t beta, int32_t guess, int32_t *value, cutoff_bound_t *bound);

/* The monotonic clock in nanoseconds. */
uint64_t cutoff_now_ns(void);

#endif /* CUTOFF_SEARCH_H */
