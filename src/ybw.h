/*
 * ybw.h — the Young Brothers Wait driver (internal). The locking order, the invariants
 * and the protocol open ybw.c.
 */
#ifndef CUTOFF_YBW_H
#define CUTOFF_YBW_H

#include "atomic.h"
#include "search.h"

/*
 * A split point: one node whose younger brothers are searched by several threads. Made
 * from its owner's per-thread pool, alive from cutoff_ybw_try_split until every helper has
 * left it.
 */
typedef struct cutoff_split {
	/* written by the owner before the split point is published; read-only afterwards */
	struct cutoff_split *parent; /* the split point the owner was working under, or NULL */
	const cutoff_searcher_t *owner; /* whose stack holds the node (path keys, in-check) */
	const int32_t *hints;        /* the moves' hints, or NULL */
	const void *state;           /* the node's state, on the owner's stack */
	const cutoff_move_t *moves;  /* the node's ordered moves, on the owner's stack */
	int n, ply, depth;
	cutoff_algo_t algo;
	cutoff_node_type_t type;     /* the node's expected type, for its children's */
	int32_t beta;

	/* under `lock` */
	cutoff_spinlock_t lock;
	int next;                  /* the next move to hand out */
	int32_t alpha;             /* the best value so far, or the node's alpha if higher */
	int32_t best;
	cutoff_move_t best_move;
	int best_index;            /* the position of best_move in moves[] */
	int pv_length;
	bool horizon;              /* the solve mode: a move's search met the horizon
	                              (searcher.horizon), so the node's value may not be stored
	                              as exact to the end */
	cutoff_move_t pv[CUTOFF_MAX_PLY];

	/* atomic */
	int cut;     /* a move reached beta: all work below stops (set under `lock`, read anywhere) */
	int helpers; /* booked helpers that have not left yet (the owner waits for 0) */
	int aborted; /* a thread left a move unfinished because the search was stopped: the
	                node's result is void, and its owner must stop too */
} cutoff_split_t;

typedef struct cutoff_ybw cutoff_ybw_t;

typedef struct cutoff_ybw_outcome {
	int32_t best;
	cutoff_move_t best_move;
	bool cut;
	int cut_index;
} cutoff_ybw_outcome_t;

/* True when `sp` or a split point above it has cut off: the work below is void. Called at
 * every node of a thread working under a split point; relaxed loads, a chain as long as
 * the nesting of split points. */
static inline bool cutoff_ybw_cut_above(const cutoff_split_t *sp)
{
	for (; sp; sp = sp->parent)
		if (cutoff_int_load_relaxed(&sp->cut))
			return true;
	return false;
}

/* The driver for `threads` searchers (searchers[i] belongs to thread i), at most
 * `max_helpers` helpers per split point. NULL when out of memory. */
cutoff_ybw_t *cutoff_ybw_new(int threads, cutoff_searcher_t *searchers, int max_helpers);
void cutoff_ybw_free(cutoff_ybw_t *ybw);

/* Before a search (no thread searching): every thread busy, no split point. */
void cutoff_ybw_begin(cutoff_ybw_t *ybw);

/* The search is over: helpers leave cutoff_ybw_idle_loop once their work is done. */
void cutoff_ybw_end(cutoff_ybw_t *ybw);

/* A helper thread's whole search: wait for split points, help, until cutoff_ybw_end. */
void cutoff_ybw_idle_loop(cutoff_ybw_t *ybw, int index);

/*
 * Called by a node's owner after its eldest move (moves[0]) was searched without a
 * cut-off: when idle threads can be booked, makes a split point for moves[1 .. n),
 * searches them with the helpers (the owner takes moves too, and once they are all handed
 * out helps its helpers' split points while it waits for them), and returns true with
 * the node's best value, move (and s->pv[ply]) and whether it cut off; `type` is the
 * node's expected type (handed to the helpers for the children). Returns false,
 * having done nothing, when no thread is idle: the caller goes on alone. `alpha` is the
 * node's current alpha, `best`/`best_move` what the eldest move gave.
 */
bool cutoff_ybw_try_split(cutoff_searcher_t *s, cutoff_algo_t algo, int ply, int depth,
                          cutoff_node_type_t type, int32_t alpha, int32_t beta, int32_t best,
                          cutoff_move_t best_move, const cutoff_move_t *moves, int n,
                          cutoff_ybw_outcome_t *out);

#endif /* CUTOFF_YBW_H */
