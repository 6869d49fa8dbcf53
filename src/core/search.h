/* SPDX-License-Identifier: MIT */
/*
 * search.h — the search core (internal): one searcher runs negamax, fail-soft alpha-beta,
 * PVS or MTD(f) over a game, with its own stacks, counters and principal variation. A
 * searcher is owned by exactly one thread while it searches. What it shares: the table
 * (tt.h), the engine's search control (below) and what its driver shares through the
 * driver's hook in the move loop (cutoff_younger_fn) and the nodes above its work
 * (cutoff_above_t) — all read and written through atomic.h.
 */
#ifndef CUTOFF_SEARCH_H
#define CUTOFF_SEARCH_H

#include <stddef.h>

#include "base/atomic.h"
#include "base/platform.h"
#include "core/share.h"
#include "core/tt.h"
#include "cutoff.h"

enum {
	CUTOFF_HISTORY_SIZE = 4096
};

/* The profiler (CMake option CUTOFF_PROFILE, on by default). Its code is written as plain
 * `if (CUTOFF_PROFILING)` so that both builds compile every line; when off, the compiler
 * drops it. */
#ifndef CUTOFF_PROFILE
#define CUTOFF_PROFILE 1
#endif
enum {
	CUTOFF_PROFILING = CUTOFF_PROFILE != 0
};

/* A node's expected type (Knuth and Moore), passed down the search as an argument. */
typedef enum cutoff_node_type {
	CUTOFF_NODE_PV = 0,
	CUTOFF_NODE_CUT = 1,
	CUTOFF_NODE_ALL = 2
} cutoff_node_type_t;

/* The expected type of the child searched as move `index` (0: the eldest) of a node of
 * type `t`: PV -> PV for the eldest, CUT for the others; CUT -> ALL; ALL -> CUT. */
static inline cutoff_node_type_t cutoff_child_type(cutoff_node_type_t t, int index)
{
	if (t == CUTOFF_NODE_PV)
		return index == 0 ? CUTOFF_NODE_PV : CUTOFF_NODE_CUT;
	return t == CUTOFF_NODE_CUT ? CUTOFF_NODE_ALL : CUTOFF_NODE_CUT;
}

/* The compiled instance of the node a search runs in (search.c): any search; a bare one
 * (no table, pruning, extensions, repetitions or driver's hook); a lean one (the same with
 * a table); a hooked one (a lean one with a driver's hook in the move loop). */
typedef enum cutoff_instance {
	CUTOFF_INSTANCE_ANY = 0,
	CUTOFF_INSTANCE_BARE = 1,
	CUTOFF_INSTANCE_LEAN = 2,
	CUTOFF_INSTANCE_HOOK = 3
} cutoff_instance_t;

/*
 * A thread's clock of transitions (the profiler): nanoseconds of CLOCK_MONOTONIC, read
 * only where a thread starts or stops waiting. Written only by its own thread, read by the
 * engine after the search (the pool orders the two).
 */
typedef struct cutoff_prof_clock {
	uint64_t start_ns, end_ns; /* the thread's time in the search job */
	uint64_t idle_ns, split_wait_ns, lock_ns;
	int depth_reached;
} cutoff_prof_clock_t;

/*
 * A node above a thread's work that other threads share (a driver's split point begins
 * with one). When its `cut` is set, every search below it is void: the thread
 * looks at the chain at every node (cutoff_search_halted), or only when the driver's
 * count of cuts moved (searcher.cut_news). `parent` is the next shared
 * node up, or NULL; the chain is read-only while the thread works below it, `cut` is
 * atomic (relaxed: a late read only costs some wasted nodes).
 */
typedef struct cutoff_above {
	const struct cutoff_above *parent;
	int cut;
} cutoff_above_t;

static inline bool cutoff_cut_above(const cutoff_above_t *a)
{
	for (; a; a = a->parent)
		if (cutoff_int_load_relaxed(&a->cut))
			return true;
	return false;
}

struct cutoff_searcher;

/*
 * A node's move loop as the driver's hook sees it, from move `from` on (searcher.younger_from:
 * 1 once the eldest, moves[0], has been searched without reaching beta; 0 before any
 * move): the window (alpha raised by the moves searched so far), the best so far
 * (-CUTOFF_INF and moves[0] when none was searched), the ordered moves (on the searcher's
 * stack at `ply`, with their hints or NULL), the position's key, and the nodes the moves
 * before `from` took (an estimate of a younger move's subtree).
 */
typedef struct cutoff_node {
	cutoff_algo_t algo;
	int ply, depth;
	cutoff_node_type_t type; /* the node's expected type, for its children's */
	int32_t alpha, beta;
	int32_t best;            /* the best value so far */
	cutoff_move_t best_move; /* its move (moves[0] when none was searched) */
	const cutoff_move_t *moves;
	const int32_t *hints;
	int n;
	int from; /* the first move the hook searches */
	uint64_t key;
	uint64_t searched; /* the nodes the moves before `from` took (the eldest's subtree) */
} cutoff_node_t;

/* What a hook that searched a node's moves from `from` on found: the best value and move
 * (node.best and node.best_move if none was better), and whether (and by which move, its
 * index in moves[]) the node cut off. The hook leaves the node's PV in s->pv[ply]. */
typedef struct cutoff_younger {
	int32_t best;
	cutoff_move_t best_move;
	bool cut;
	int cut_index;
} cutoff_younger_t;

/*
 * The driver's hook in the move loop (driver.h): called at a node with at least
 * searcher.younger_depth plies left when the loop comes to move searcher.younger_from
 * (1: after the eldest has not cut off; 0: before any move). It either searches every
 * move from there on (from .. n-1) itself, in its own way, with cutoff_search_move, and
 * returns true with *out; or returns false having searched nothing, and the serial loop
 * goes on. When cutoff_search_halted(s) is true afterwards, *out is meaningless.
 */
typedef bool (*cutoff_younger_fn)(struct cutoff_searcher *s, const cutoff_node_t *node,
                                  cutoff_younger_t *out);

/*
 * One search's shared control, owned by the engine. stop: written by
 * cutoff_engine_stop() from any thread; halt: written by a driver when the search is over
 * (one whose every thread iterates: a thread completed the last iteration), or by a
 * searcher that found the game breaking its contract (cutoff_fault_t); nodes: every
 * searcher adds its new nodes at each poll (fetch-and-add, off the hot path), so that a
 * node limit holds across threads; export_depth: written by cutoff_engine_export_depth
 * from any thread at any time (relaxed), read by each store of a thread with a share
 * ring (relaxed: a late read only exports a few entries by the old rule). The rest is
 * written before the search starts and read-only during it.
 */
typedef struct cutoff_control {
	int stop;
	int halt;
	uint64_t nodes;
	int export_depth;
	cutoff_poll_fn poll; /* limits.poll, called by thread 0 at its polls; NULL: none */
	void *poll_user;
	struct cutoff_engine *engine; /* passed to poll */
	uint64_t node_limit;          /* 0: none */
	uint64_t deadline_ns;         /* 0: none; CLOCK_MONOTONIC */
	int threads;                  /* searching threads, to share the node limit's slack */
} cutoff_control_t;

/*
 * A game that broke its contract at some node: a move count from gen_moves or gen_noisy
 * outside 0 .. max_moves, a state that terminal says is not over without a move, or a
 * value from terminal or evaluate outside the range cutoff.h allows. The
 * searcher that finds it records the first one here (callback NULL: none), ends its
 * search and halts the others; the engine reports it (CUTOFF_EGAME and a log line) once
 * the search is over.
 */
typedef struct cutoff_fault {
	const char *callback; /* "gen_moves", "gen_noisy", "terminal" or "evaluate" */
	int count;            /* what it returned: a move count, or a value (value) */
	int ply;              /* where */
	bool value;           /* count is a value outside the range the contract allows */
} cutoff_fault_t;

typedef struct cutoff_searcher {
	/* set when the engine is made, read-only afterwards */
	const cutoff_game_t *game;
	cutoff_tt_t *tt;       /* NULL: search without a table */
	cutoff_control_t *ctl; /* the engine's search control */
	int index;             /* the thread this searcher belongs to, 0 = the caller */
	int max_ply;           /* the engine's ply limit (cutoff_config_plies): plies 0 ..
	                           max_ply - 1 are searched, and every per-ply array below has
	                           max_ply + 1 rows */
	unsigned char *states; /* (max_ply + 1) states, one per ply, each at a
	                           multiple of state_stride (aligned like max_align_t) */
	size_t state_stride;
	cutoff_move_t *moves; /* max_ply lists of game->max_moves moves, and
	                           CUTOFF_MAX_MOVES of slack (cutoff_searcher_init) */
	int32_t *hints;       /* hints for those moves */

	unsigned ordering;      /* CUTOFF_ORDER_* bits */
	unsigned pruning;       /* CUTOFF_PRUNE_* bits */
	bool tt_cutoffs;        /* the table may answer a node (else: ordering only) */
	int tt_min_depth;       /* nodes with fewer plies left neither probe nor store */
	int etc_min_depth;      /* enhanced transposition cut-offs from this depth on: INT_MAX
	                           when config.etc_min_depth is 0, or there is no table, or the
	                           table may not answer, or the game has repetitions */
	cutoff_share_t *share;  /* this thread's export ring (share.h), or NULL: none */
	uint64_t *driver_count; /* the engine's driver's counters: its slots of count.driver[]
	                           (the registry's, driver.h), set by the engine */
	bool quiescence;        /* CUTOFF_EXTEND_QUIESCENCE and the game has gen_noisy */
	bool check_extension;   /* CUTOFF_EXTEND_CHECKS and the game has in_check */
	int64_t *scores;        /* max_moves ordering keys, scratch for one node at a time */

	/* the driver's, set when the engine is made (driver.h), read-only afterwards */
	cutoff_younger_fn younger; /* the hook in the move loop, or NULL: the serial loop */
	void *driver;              /* the driver's state, for the hook */
	int younger_depth;         /* the hook is called only with this many plies left or more */
	int younger_from;          /* ... when the loop comes to this move: 1 (after the eldest)
	                           or 0 (before it) */
	const int *cut_news;       /* or NULL: a count the driver raises (release) after a cut
	                           that a search below a shared node may not have seen; with
	                           it the chain above is walked only when the count moved */

	/* set at the start of each search */
	const cutoff_above_t *above; /* the innermost shared node above this thread's work,
	                                or NULL (a driver's split point) */
	int cut_seen;                /* *cut_news when the chain was last walked and found
	                                uncut (cutoff_search_recheck) */
	unsigned poll;               /* nodes until the next look at the control and the clock */
	uint64_t polled_nodes;       /* count.nodes at the last poll */
	bool aborted;                /* a limit, the stop flag or the driver ended this search */
	bool solve;                  /* cutoff_limits_t.solve: values that never met the horizon
	                           go into the table as exact to the end of the game */
	cutoff_instance_t instance;  /* which of the node's instances the search runs in
	                           (search.c) */
	cutoff_fault_t fault;        /* the game's first broken promise in this search */

	/* repetitions: keys[0 .. played_length) are the positions played before the root,
	 * keys[played_length + p] the key of the node at ply p (written on entry); a
	 * repetition at ply p is looked for among indices >= rep_floor[p] (a null move starts
	 * a new floor) */
	int played_length;
	int rep_step;    /* how far apart two plies with the same side to move can be: 2, or 1
	                 in a game with extra turns (its side hook) */
	int *rep_floor;  /* max_ply + 1 */
	uint64_t *keys;  /* CUTOFF_MAX_PLAYED + max_ply + 1 */
	bool *in_check;  /* the node at that ply, when the game can tell */
	bool *null_move; /* the node at that ply was reached by a null move */

	/* Written at every node by this thread alone, summed by the engine after the search:
	 * plain increments on a cache line of their own (the searcher is 64-byte aligned). */
	_Alignas(64) cutoff_counters_t count;
	/* Contacts with the horizon: leaves scored at the depth limit (or the ply limit),
	 * repetitions, null-move cut-offs and table answers that are not exact to the end,
	 * and split points whose helpers met one of those. A node whose subtree left this
	 * count unchanged has a value that holds at every depth (the solve mode). */
	uint64_t horizon;
	/* The profiler's per-node counts by expected type (cutoff_node_type_t), kept as arrays
	 * so that counting costs one indexed add; cutoff_searcher_fold turns them into
	 * count's fields. A node that cuts off adds to cuts only, one that searched every
	 * move to uncut only: cut_nodes_wrong needs no subtraction, and a cut-off no second
	 * add. */
	uint64_t typed[3];      /* nodes */
	uint64_t uncut[3];      /* interior nodes that searched every move without a cut-off */
	uint64_t cuts[3];       /* cut-offs */
	uint64_t first_cuts[3]; /* cut-offs by the first move */
	cutoff_prof_clock_t prof;
	cutoff_move_t (*killers)[2];              /* max_ply + 1 pairs */
	uint32_t history[2][CUTOFF_HISTORY_SIZE]; /* by ply parity and a hash of the move */
	int *pv_length;                           /* max_ply + 1 */
	cutoff_move_t *pv_rows; /* the triangular PV: max_ply + 1 rows of max_ply moves
	                            (cutoff_searcher_pv) */
} cutoff_searcher_t;

_Static_assert(_Alignof(cutoff_searcher_t) >= 64, "searchers do not share cache lines");
_Static_assert(offsetof(cutoff_searcher_t, count) % 64 == 0, "counters start a cache line");

/* True when `v` is a value the game may give (cutoff.h, section 1): |v| < CUTOFF_WIN_MIN,
 * or +-CUTOFF_WIN from terminal. One unsigned compare for an ordinary value. */
static inline bool cutoff_value_allowed(int32_t v, bool terminal)
{
	return (uint32_t)v + (uint32_t)(CUTOFF_WIN_MIN - 1) <=
	               2u * (uint32_t)(CUTOFF_WIN_MIN - 1) ||
	       (terminal && (v == CUTOFF_WIN || v == -CUTOFF_WIN));
}

/* The ply limit of an engine made with `cfg` (config.max_ply, 0 for CUTOFF_MAX_PLY). */
static inline int cutoff_config_plies(const cutoff_config_t *cfg)
{
	return cfg->max_ply ? cfg->max_ply : CUTOFF_MAX_PLY;
}

/* The principal variation's row of `ply` (max_ply moves). */
static inline cutoff_move_t *cutoff_searcher_pv(const cutoff_searcher_t *s, int ply)
{
	return s->pv_rows + (size_t)ply * (size_t)s->max_ply;
}

/* Allocates the stacks of a searcher for `game`. Returns 0 or CUTOFF_ENOMEM. */
int cutoff_searcher_init(cutoff_searcher_t *s, const cutoff_game_t *game, cutoff_tt_t *tt,
                         cutoff_control_t *ctl, int index, const cutoff_config_t *cfg);
void cutoff_searcher_destroy(cutoff_searcher_t *s);

/* Prepares for a new search from `root` (on the stack at ply 0): resets counters,
 * killers, the fault and the shared node above, and halves the history scores (they fade
 * over searches). `solve` is the solve mode (cutoff_limits_t.solve). */
void cutoff_searcher_start(cutoff_searcher_t *s, const void *root, const uint64_t *played,
                           int played_length, bool solve);

/* A thread joining another's node at `ply` (a helper at a split point) takes over the
 * owner's view of the path: the keys above the node (for repetitions) and whether the
 * node is in check. `own_ply` is the ply of a node the joining thread itself owns and
 * waits at (a helpful master), or -1: the path down to it is the thread's own already. */
void cutoff_searcher_adopt_path(cutoff_searcher_t *s, const cutoff_searcher_t *owner, int ply,
                                int own_ply);

/* Writes the profiler's per-type counts into s->count (nodes_pv .. cut_node_first_cutoffs):
 * called by the searcher's own thread, or by the engine after the search, before count is
 * read. */
void cutoff_searcher_fold(cutoff_searcher_t *s);

/* The state slot of `ply` on the searcher's stack. */
void *cutoff_searcher_state(const cutoff_searcher_t *s, int ply);

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

/*
 * A solved root's principal variation made a proof line: every move of it keeps the root's
 * value (search.c says how). The searcher's state at ply 0 must be the root, and the
 * search over (the caller's thread, every other thread idle; the control's halt cleared).
 * pv[0 .. length) is the search's line: rewritten in place where a move of it does not
 * keep the value, and the number of moves proved returned (the line ends there). *nodes:
 * the nodes the proof searched; the searcher's counters are left as the search left them.
 */
int cutoff_search_prove_pv(cutoff_searcher_t *s, int32_t value, cutoff_move_t *pv, int length,
                           uint64_t *nodes);

/*
 * Searches `move` from the node at `ply` (its state on s's stack) with the window
 * (a, beta) and returns its value for the side to move at `ply`: the one move of a node's
 * loop, shared by the serial loop and the drivers' hooks. `type` is the node's expected
 * type, `index` the move's place in the node's order (0: the eldest) and `hint` its
 * ordering hint (late quiet moves may be reduced, config.pruning). With PVS and index > 0
 * it probes with a null window at `a` first and searches again when the probe lands
 * inside; a move that gives check is extended (config.extensions).
 * The value is meaningless when cutoff_search_halted(s) is true afterwards.
 */
int32_t cutoff_search_move(cutoff_searcher_t *s, cutoff_algo_t algo, int ply, int depth,
                           cutoff_node_type_t type, cutoff_move_t move, int index, int32_t hint,
                           int32_t a, int32_t beta);

/* True when the work in hand is void: the search is over, or a shared node above this
 * thread's current node has cut off (cutoff_above_t). With cut_news, the chain is walked
 * only when the count moved since it was last found uncut. */
bool cutoff_search_halted(cutoff_searcher_t *s);

/* Makes the next cutoff_search_halted walk the chain: for a search that starts below a
 * shared node it did not see before (cut_seen describes another chain). */
static inline void cutoff_search_recheck(cutoff_searcher_t *s)
{
	if (s->cut_news)
		s->cut_seen = (int)((unsigned)cutoff_int_load_relaxed(s->cut_news) - 1u);
}

/* Copies `n` moves of PV from src after `move` into dst (dst[0] = move). Returns the
 * length. */
int cutoff_pv_join(cutoff_move_t *dst, cutoff_move_t move, const cutoff_move_t *src, int n,
                   int max_ply);

#endif /* CUTOFF_SEARCH_H */
