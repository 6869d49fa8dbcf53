/* SPDX-License-Identifier: MIT */
/*
 * abdada.c — ABDADA: every thread iterates from the root, and defers the moves another
 * thread is searching.
 *
 * The idea (Weill 1996). Threads that search the same tree over one table repeat each
 * other's work when they search the same subtree at the same time: neither can use the
 * other's result, which is not in the table yet. ABDADA marks what a thread is searching;
 * a thread that comes to a move (a younger one; the eldest only at a null-window node,
 * below) that another thread has marked leaves it for later and searches its node's other
 * moves first. When it comes back, the other thread has usually stored the move's value, and
 * the table answers it at once. Every thread runs iterative deepening from the root (the
 * threads are equals, as under lazy SMP, without skipping); the first to complete the
 * final depth ends the search, and the answer is iterate.c's pick.
 *
 * The two variants (config.abdada_variant, cutoff.h):
 *   classic     Weill's: the mark is on the position the move leads to (a transposition
 *               reached another way is busy too), a count of the threads inside it, so it
 *               stays busy until the last one leaves; every move is marked, the eldest
 *               too (Weill's nodes mark themselves on entry). The first pass skips busy
 *               moves, the second searches the skipped ones whether busy or not. The
 *               look and the mark are one compare-and-swap, so two threads in lockstep
 *               are let through one at a time. Learning the child's key costs a play of
 *               the move (the search plays it again).
 *   simplified  Kerrigan's (2017): the mark is on the move (a hash of the position's key
 *               and the move), one slot that the last thread to mark it owns and clears,
 *               with plain loads and stores (a race loses at most one deferral); only
 *               younger moves are marked and deferred, and deferred moves are searched
 *               after the others.
 * In both, moves are marked and checked only where at least config.abdada_min_depth
 * plies remain (the hook's depth: every mark is one more random access to memory, a
 * cache miss as dear as a table probe; by default, 0, 6 under 16 threads and 4 from 16
 * on, min_depth below), and a mark is made around the move's search by
 * the thread at the parent node, through the move loop's hook (search.h; from the eldest
 * for classic, after it for simplified): search.c stays free of per-node driver calls.
 * The classic variant defers an eldest move only at a null-window node, whose window no
 * move changes (there the order decides only how soon a cut-off comes), so a node with
 * an open window still searches its eldest first and never searches a younger move
 * without the eldest's bound. The second pass marks without looking (a count more, or
 * the slot taken over). It takes the deferred moves in their order, but with 16 threads
 * or more at a node not expected to cut, where it starts from a place of each thread's
 * own (second_pass_start): threads that all come back to the same busy moves at once
 * spread over them instead of following one another through them in step.
 *
 * What it costs alone (one thread, nothing to defer): most where nodes are cheapest, as
 * in Connect Four solves, and the less the higher the minimum depth; within the noise on
 * chess and random trees (docs/connect4.md, "The drivers on the hard lines, ABDADA
 * included").
 *
 * Why a side table. A table entry has no spare bit for "being searched": every bit of its
 * data word is used (value, bound, depth, move, generation) and its check word covers
 * them (tt.c). The marks therefore live in a side table of 2^config.abdada_table_bits
 * 8-byte slots made with the engine, indexed by the mark's key:
 *   classic     (key's upper 48 bits) << 16 | count: free when count is 0; a mark of
 *               another position in a slot with a count > 0 is not made (a collision).
 *   simplified  the move's hash (never 0) or 0: a mark overwrites another's (a collision;
 *               the other thread's clear then finds the slot not its own and leaves it).
 *
 * Invariants.
 *   - A mark never reaches a value: it decides only the order in which a node's moves
 *     are searched. Every value still comes from cutoff_search_move with the node's
 *     current window, so each node keeps the serial search's contract, and any completed
 *     root search answers exactly where the serial search is exact.
 *   - Every deferred move is searched, unless the node cuts off first (then no move
 *     after the cut matters, as in the serial loop) or the search is halted. A move is
 *     deferred at most once: the second pass does not look.
 *   - Marks are cleared on every exit path: a thread clears its mark right after the
 *     move's search returns, whether it returned a value, a cut-off or an abort (stop,
 *     limit, halt), before anything else. A collision or a full count leaves the move
 *     unmarked, never marked twice.
 *   - Shared state: the side table's slots only, through atomic.h (relaxed loads,
 *     compare-and-swap; a stale read only defers a move that is free, or searches one that
 *     is busy). Each thread's deferred lists are its own. Nothing is allocated during a
 *     search.
 *
 * Its counters are listed below (ABDADA_COUNTERS), counted in every build.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic.h"
#include "drivers/driver.h"

/* ABDADA's counters (driver.h): one line each; every report lists them. */
#define ABDADA_COUNTERS(X)                                                                         \
	X(ABDADA_DEFERRED, "deferred", "moves", false,                                             \
	  "younger moves put off because another thread was searching them")                       \
	X(ABDADA_DEFERRED_TT, "deferred_tt", "moves", false,                                       \
	  "of those, revisited and answered by the table at once (the child's one node, a table "  \
	  "cut-off)")                                                                              \
	X(ABDADA_DEFERRED_BUSY, "deferred_busy", "moves", false,                                   \
	  "of those, still busy when revisited (searched all the same, beside the other thread)")  \
	X(ABDADA_SECOND_PASSES, "second_passes", "nodes", false,                                   \
	  "nodes that came back to deferred moves")                                                \
	X(ABDADA_BUSY_COLLISIONS, "busy_collisions", "marks", false,                               \
	  "marks that met another position's in their slot of the side table (classic: not "       \
	  "made; simplified: the other's overwritten)")
#define ABDADA_COUNTER(id, ...) CUTOFF_DRIVER_COUNTER_INFO(CUTOFF_DRIVER_ABDADA, __VA_ARGS__)
enum {
	ABDADA_COUNTERS(CUTOFF_DRIVER_COUNTER_ENUM) ABDADA_NCOUNTERS
};
static const cutoff_counter_info_t abdada_counters[] = { ABDADA_COUNTERS(ABDADA_COUNTER) };

enum {
	COUNT_BITS = 16,
	COUNT_MAX = (1 << COUNT_BITS) - 1
};

/* From this many threads on, the second pass spreads them (second_pass_start) and the
 * hook's default depth is MIN_DEPTH_MANY instead of MIN_DEPTH_FEW (min_depth). */
enum {
	MANY_THREADS = 16,
	MIN_DEPTH_FEW = 6,
	MIN_DEPTH_MANY = 4
};

typedef struct abdada {
	cutoff_abdada_variant_t variant;
	int shift;          /* 64 - log2(slots) */
	uint64_t *slots;    /* the marks, 64-byte aligned */
	uint16_t *deferred; /* per thread max_ply lists of max_moves move indices */
	int max_moves;
	int plies;   /* the engine's ply limit: rows of deferred per thread */
	bool spread; /* MANY_THREADS or more: second_pass_start spreads the threads */
	const cutoff_game_t *game;
} abdada_t;

/* splitmix64's finaliser: every bit of x moves about half of the result's. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 29;
	return x;
}

/* The mark's key of moves[i] at the node: the child's position (classic) or the move's
 * hash (simplified), never 0. The classic variant plays the move onto the next ply of the
 * searcher's stack to learn the child's key (the search plays it there again). */
static uint64_t mark_key(const abdada_t *a, cutoff_searcher_t *s, const cutoff_node_t *node, int i)
{
	if (a->variant == CUTOFF_ABDADA_CLASSIC) {
		const cutoff_game_t *g = a->game;
		void *child = cutoff_searcher_state(s, node->ply + 1);
		g->play(g->ctx, cutoff_searcher_state(s, node->ply), node->moves[i], child);
		return g->key(g->ctx, child) | 1u;
	}
	return mix(node->key ^ ((uint64_t)node->moves[i] + 1) * 0x9e3779b97f4a7c15u) | 1u;
}

/* The slot of a mark: the high bits of the key times an odd constant, which depend on
 * every bit of the key (a game's key may vary little in its low bits: Connect Four's
 * positions that differ high on the board differ only in the key's high bits). */
static uint64_t *slot_of(const abdada_t *a, uint64_t key)
{
	return &a->slots[(key * 0x9e3779b97f4a7c15u) >> a->shift];
}

static uint64_t tag_of(uint64_t key) { return key & ~(uint64_t)COUNT_MAX; }

/* What marking a move found. */
typedef enum mark_result {
	MARKED,   /* marked: to be cleared after the move's search */
	UNMARKED, /* not marked (a collision, a full count): nothing to clear */
	BUSY      /* exclusive only: another thread has marked it, and it was left alone */
} mark_result_t;

/* True when a thread (another, or this one deeper on its own path) has marked `key`. */
static bool busy(const abdada_t *a, uint64_t key)
{
	uint64_t w = cutoff_u64_load_relaxed(slot_of(a, key));
	if (a->variant == CUTOFF_ABDADA_CLASSIC)
		return (w & COUNT_MAX) != 0 && tag_of(w) == tag_of(key);
	return w == key;
}

/*
 * Marks `key` as searched by this thread. Exclusive (a first pass): a mark found there
 * already means BUSY and nothing is written. Classic: the look and the mark are one
 * compare-and-swap, so that of two threads that come to the same move at the same moment,
 * in lockstep, exactly one searches it; simplified (Kerrigan's): a plain load, then a
 * plain store, which may let both through in that rare case. Not exclusive (the second
 * pass): marks whatever it finds.
 */
static mark_result_t mark(const abdada_t *a, cutoff_searcher_t *s, uint64_t key, bool exclusive)
{
	uint64_t *slot = slot_of(a, key);
	if (a->variant == CUTOFF_ABDADA_SIMPLIFIED) {
		uint64_t w = cutoff_u64_load_relaxed(slot);
		if (w == key) /* another thread's mark (or this one's, deeper on its path) */
			return exclusive ? BUSY : UNMARKED;
		s->driver_count[ABDADA_BUSY_COLLISIONS] += w != 0;
		cutoff_u64_store_relaxed(slot, key);
		return MARKED;
	}
	for (;;) {
		uint64_t w = cutoff_u64_load_relaxed(slot), count = w & COUNT_MAX;
		bool mine = count == 0 || tag_of(w) == tag_of(key);
		if (count != 0 && mine && exclusive)
			return BUSY;
		if (!mine || count == COUNT_MAX) {
			s->driver_count[ABDADA_BUSY_COLLISIONS] += !mine;
			return UNMARKED;
		}
		if (cutoff_u64_cas(slot, w, count ? w + 1 : tag_of(key) | 1u))
			return MARKED;
	}
}

/* Clears this thread's mark of `key`. */
static void unmark(const abdada_t *a, uint64_t key)
{
	uint64_t *slot = slot_of(a, key);
	if (a->variant == CUTOFF_ABDADA_SIMPLIFIED) {
		/* Only if it is still ours: another thread may have marked over it (a store
		 * between this load and the clear is lost with it: one missed deferral). */
		if (cutoff_u64_load_relaxed(slot) == key)
			cutoff_u64_store_relaxed(slot, 0);
		return;
	}
	for (;;) {
		uint64_t w = cutoff_u64_load_relaxed(slot);
		if (cutoff_u64_cas(slot, w, w - 1))
			return;
	}
}

/* A node's loop over its moves as it goes: the window, the best so far. */
typedef struct loop {
	int32_t alpha, best;
	cutoff_move_t best_move;
} loop_t;

/* Searches moves[i] of the node, its mark `key` cleared afterwards when `marked`, and
 * takes its value into the loop. True when the loop is over: the node cut off (*out says
 * by which move) or the search was halted. */
static bool search_one(const abdada_t *a, cutoff_searcher_t *s, const cutoff_node_t *node, int i,
                       uint64_t key, bool marked, loop_t *l, cutoff_younger_t *out)
{
	const int ply = node->ply;
	int32_t v = cutoff_search_move(s, node->algo, ply, node->depth, node->type, node->moves[i],
	                               i, node->hints ? node->hints[i] : 0, l->alpha, node->beta);
	if (marked)
		unmark(a, key);
	if (cutoff_search_halted(s))
		return true;
	if (v > l->best) {
		l->best = v;
		l->best_move = node->moves[i];
		s->pv_length[ply] = cutoff_pv_join(cutoff_searcher_pv(s, ply), node->moves[i],
		                                   cutoff_searcher_pv(s, ply + 1),
		                                   s->pv_length[ply + 1], s->max_ply);
		if (v >= node->beta) {
			out->cut = true;
			out->cut_index = i;
			return true;
		}
		if (v > l->alpha)
			l->alpha = v;
	}
	return false;
}

/*
 * Where this thread starts its second pass among the node's `ndeferred` deferred moves.
 * With many threads (a->spread), at a node not expected to cut, every move is searched
 * (unless an unexpected cut-off comes first) and the order only decides who searches
 * what: the thread starts at a place drawn from its index and the node's key, so that
 * threads that come back to the node's busy moves at once spread over them, each to
 * find free moves deeper in its own (deferral goes on there), instead of all following
 * the first busy move's owner in step and then the second's (the node done by a crowd
 * at one thread's pace). Elsewhere the first: at a node expected to cut, the likeliest
 * to cut; and under MANY_THREADS, where a busy move seldom draws a crowd, the order's
 * cut-offs are worth more than the spread (Connect Four at 4 threads: 1.98 in order,
 * 1.86 spread; no gain on chess or random trees at 2 to 8).
 */
static int second_pass_start(const abdada_t *a, const cutoff_searcher_t *s,
                             const cutoff_node_t *node, int ndeferred)
{
	if (!a->spread || node->type == CUTOFF_NODE_CUT || ndeferred < 2)
		return 0;
	uint64_t h = mix(node->key ^ ((uint64_t)s->index + 1) * 0x9e3779b97f4a7c15u);
	return (int)(h % (uint64_t)ndeferred);
}

/* The move loop's hook (search.h): the node's moves from node->from on (the eldest too,
 * classic; the younger ones, simplified), busy ones deferred to a second pass. Always
 * takes the node over. */
static bool younger(cutoff_searcher_t *s, const cutoff_node_t *node, cutoff_younger_t *out)
{
	const abdada_t *a = s->driver;
	uint16_t *deferred =
		a->deferred +
		((size_t)s->index * (size_t)a->plies + (size_t)node->ply) * (size_t)a->max_moves;
	loop_t l = { node->alpha, node->best, node->best_move };
	int ndeferred = 0;
	bool over = false;

	out->cut = false;
	out->cut_index = 0;
	for (int i = node->from; i < node->n && !over; i++) {
		uint64_t key = mark_key(a, s, node, i);
		/* The eldest is deferred only at a null-window node, whose window no move
		 * changes: there the order decides only how soon a cut-off comes. */
		bool exclusive = i > 0 || node->beta - node->alpha == 1;
		mark_result_t m = mark(a, s, key, exclusive);
		if (m == BUSY) {
			deferred[ndeferred++] = (uint16_t)i;
			s->driver_count[ABDADA_DEFERRED]++;
			continue;
		}
		over = search_one(a, s, node, i, key, m == MARKED, &l, out);
	}
	if (!over && ndeferred > 0)
		s->driver_count[ABDADA_SECOND_PASSES]++;
	const int start = second_pass_start(a, s, node, ndeferred);
	for (int k = 0; k < ndeferred && !over; k++) {
		int i = deferred[(start + k) % ndeferred];
		uint64_t key = mark_key(a, s, node, i);
		s->driver_count[ABDADA_DEFERRED_BUSY] += busy(a, key);
		bool marked = mark(a, s, key, false) == MARKED;
		uint64_t nodes = s->count.nodes, answered = s->count.tt_cutoffs;
		over = search_one(a, s, node, i, key, marked, &l, out);
		s->driver_count[ABDADA_DEFERRED_TT] +=
			s->count.nodes - nodes == 1 && s->count.tt_cutoffs - answered == 1;
	}
	out->best = l.best;
	out->best_move = l.best_move;
	return true;
}

static void destroy(void *state)
{
	abdada_t *a = state;
	if (!a)
		return;
	free(a->slots);
	free(a->deferred);
	free(a);
}

/*
 * The hook's depth: config.abdada_min_depth, or with 0 (the default) one by the thread
 * count. Few threads have nodes enough to spread over where 6 plies remain, and there
 * the fewest marks cost least (6: the best of 3, 6 and 10 on chess at two real cores,
 * docs/connect4.md). Many threads need deferrable nodes deeper down, or those that meet
 * below the hook's depth search the same subtree in step: with 4, chess and random
 * trees run 1.4 to 2.1 times as fast at 64 and 256 threads as with 6, in the simulator
 * (docs/simulation.md, "Where each curve flattens"), and still win with every mark
 * charged as a cache miss.
 */
static int min_depth(const cutoff_config_t *cfg)
{
	if (cfg->abdada_min_depth > 0)
		return cfg->abdada_min_depth;
	return cfg->threads < MANY_THREADS ? MIN_DEPTH_FEW : MIN_DEPTH_MANY;
}

static int create(const cutoff_config_t *cfg, const cutoff_game_t *game,
                  cutoff_searcher_t *searchers, void **state)
{
	abdada_t *a = calloc(1, sizeof(*a));
	if (!a)
		return CUTOFF_ENOMEM;
	size_t slots = (size_t)1 << cfg->abdada_table_bits;
	a->variant = cfg->abdada_variant;
	a->shift = 64 - cfg->abdada_table_bits;
	a->max_moves = game->max_moves;
	a->plies = cutoff_config_plies(cfg);
	a->spread = cfg->threads >= MANY_THREADS;
	a->game = game;
	a->slots = aligned_alloc(64, slots * sizeof(uint64_t));
	a->deferred = malloc((size_t)cfg->threads * (size_t)a->plies * (size_t)game->max_moves *
	                     sizeof(*a->deferred));
	if (!a->slots || !a->deferred) {
		destroy(a);
		return CUTOFF_ENOMEM;
	}
	memset(a->slots, 0, slots * sizeof(uint64_t));
	for (int i = 0; i < cfg->threads; i++) {
		searchers[i].younger = younger;
		searchers[i].driver = a;
		searchers[i].younger_depth = min_depth(cfg);
		/* Classic: the eldest is marked too (Weill's nodes mark themselves);
		 * simplified: younger moves only (Kerrigan's). */
		searchers[i].younger_from = cfg->abdada_variant == CUTOFF_ABDADA_CLASSIC ? 0 : 1;
	}
	*state = a;
	return CUTOFF_OK;
}

/* Before a search. With asserts on (the sanitizer builds), checks that the last search
 * left no mark behind: every path out of a move's search clears its mark. */
static void begin(void *state)
{
	const abdada_t *a = state;
	(void)a;
#ifndef NDEBUG
	for (size_t i = 0; i < (size_t)1 << (64 - a->shift); i++)
		assert(a->variant == CUTOFF_ABDADA_SIMPLIFIED ? a->slots[i] == 0
		                                              : (a->slots[i] & COUNT_MAX) == 0);
#endif
}

/* Every thread iterates from the root, none skipping; the first to finish ends it. */
static void job(const cutoff_job_t *job, int index) { cutoff_iterate(job, index, NULL, true); }

const cutoff_driver_ops_t cutoff_driver_abdada_ops = {
	.name = "abdada",
	.description = "ABDADA: every thread iterates from the root, deferring moves "
		       "another thread is searching",
	.create = create,
	.destroy = destroy,
	.begin = begin,
	.job = job,
	.pick = cutoff_pick_deepest,
	.counters = abdada_counters,
	.ncounters = ABDADA_NCOUNTERS,
};
