/* SPDX-License-Identifier: MIT */
/*
 * search.c — the exact serial core: negamax, fail-soft alpha-beta, PVS and MTD(f).
 *
 * The contract (docs/contract.md). For a window (alpha, beta), a returned value v and the
 * true depth-limited negamax value V of the node:
 *     alpha < v < beta  =>  V == v
 *     v <= alpha        =>  V <= v      (failed low: v is an upper bound)
 *     v >= beta         =>  V >= v      (failed high: v is a lower bound)
 * Every function below keeps it, for any window, including null windows (beta = alpha+1).
 * Fail-soft: the value may lie outside the window, and then it is the tightest bound the
 * search proved, which MTD(f) and the table use.
 *
 * State. A searcher (search.h) is owned by one thread. Its per-ply stacks (states, move
 * lists, the triangular PV) are allocated once, by cutoff_searcher_init; nothing is
 * allocated while searching. The shared state it touches: the table (lock-free, tt.c);
 * the engine's control (stop and halt flags, read with relaxed loads every POLL_NODES
 * nodes — a stale read only delays the stop by one poll — and the shared node count,
 * added to with one fetch-and-add per poll); and what its driver shares: the nodes above
 * its work whose cut-off flags it reads at every node (cutoff_above_t), and whatever the
 * driver's hook in the move loop touches (cutoff_younger_fn, driver.h). Its counters
 * (count, and the profiler's per-type arrays) are plain fields written only by its own
 * thread, read by the engine once the search is over.
 *
 * Nodes, leaves. Every position the search visits is one node, the root included. A leaf
 * is a node scored without looking at its moves: a terminal position or the horizon.
 * Table cut-offs and the game's range (its bounds hook: a window outside the range the
 * game gives for the node's value returns the range's end, out_of_bounds) are never taken
 * at the root, so a search always names a best move. Such nodes are counted, not leaves.
 *
 * A halted search (cutoff_search_halted: a limit, the stop flag, a broken game, or a cut-off
 * in a shared node above the thread's work) returns HALTED from every node it leaves, and
 * its values mean nothing. HALTED lies below every value, so the parent, which negates it,
 * sees a value above any beta: a halted child always lands in the move loop's cut-off
 * branch, and that branch is the one place where the loop looks at the halt (the serial
 * loop's only check after a move that could have halted). A halt that comes after a
 * child returned a value of its own (another thread cut a node above meanwhile) is seen
 * at the next node's entry; the value it came with was searched to the end and is sound.
 * The drivers' hooks look at cutoff_search_halted themselves after every move.
 *
 * Instances (s->instance, decided when the search starts). A bare search: no table, no
 * pruning, no extensions, a game without repetitions or extra turns (its side hook) and no
 * driver's hook in the move loop; a lean one: the same with a table (the solvers' search:
 * Connect Four's, any exact search of a game without repetitions under the serial driver
 * or lazy SMP); a hooked one: a lean one with a driver's hook (the same searches under
 * YBW, ABDADA or DTS). The node's body (node_body) is compiled for any search
 * (search_node), and for a bare, a lean and a hooked one twice each: alpha-beta and PVS
 * (bare_alphabeta, bare_pvs, lean_alphabeta, lean_pvs, hook_alphabeta, hook_pvs); a
 * bare, lean or hooked node with no depth left is a leaf, and takes the node's first
 * steps alone (bare_horizon: a leaf never reaches the table). A search stays in its
 * instance from the root down (child_search); in a bare, lean or hooked one the tests of the
 * features that are off, and the algorithm, are constants and vanish. All instances are
 * the same code, so they visit the same nodes in the same order: a plain one only
 * skips tests whose outcome is known before the search starts.
 *
 * Enhanced transposition cut-offs (config.etc_min_depth, etc_body): from that depth on, a
 * node that the table did not settle looks up its children before searching any, and fails
 * high on one whose entry (or terminal value) already proves it. A step of the node in
 * every instance, between the ordering and the move loop, taken only where the game has no
 * repetitions (a child's entry says nothing of a path that repeats).
 *
 * A broken game. Every move count from the game is checked (one unsigned compare): a
 * count outside 1 .. max_moves from gen_moves (0 included: a non-terminal state has a
 * move, a pass being one) or outside 0 .. max_moves from gen_noisy, and every value that
 * scores a node (bad_value: terminal's and evaluate's outside cutoff.h's range), is
 * recorded as the searcher's fault, aborts its search and raises the control's halt for
 * the others (game_broken); the engine reports it. No value computed on the way out is
 * used.
 *
 * The solve mode (limits.solve). s->horizon counts contacts with the horizon: leaves at
 * the depth or ply limit, repetitions, null-move cut-offs, table answers that entries
 * exact to the end do not settle alone, and (under a driver that shares a node) the
 * other threads' contacts in the moves they searched for it, added by the driver. A
 * node compares the count at its entry and at its store: unchanged, its value holds at
 * every depth and is stored at CUTOFF_TT_DEPTH_END. Counting is unconditional
 * (an add at a leaf); only the store and the table answer look at s->solve. An answer
 * from the game's range is no contact: the range holds at every depth.
 */
#include "core/search.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic.h"
#include "base/platform.h"

enum {
	POLL_NODES = 1024,
	PV_SHORT = 8,            /* a line copied as a block of fixed size (pv_update) */
	HALTED = -CUTOFF_INF - 1 /* what a halted search returns (above) */
};

int cutoff_searcher_init(cutoff_searcher_t *s, const cutoff_game_t *game, cutoff_tt_t *tt,
                         cutoff_control_t *ctl, int index, const cutoff_config_t *cfg)
{
	memset(s, 0, sizeof(*s));
	s->game = game;
	s->tt = tt;
	s->ctl = ctl;
	s->index = index;
	s->ordering = cfg->ordering;
	s->pruning = cfg->pruning;
	s->tt_cutoffs = cfg->tt_cutoffs;
	s->tt_min_depth = cfg->tt_min_depth;
	s->etc_min_depth =
		cfg->etc_min_depth && tt && cfg->tt_cutoffs && !game->reversible && !game->side
			? cfg->etc_min_depth
			: INT_MAX;
	s->rep_step = game->side ? 1 : 2;
	s->quiescence = (cfg->extensions & CUTOFF_EXTEND_QUIESCENCE) && game->gen_noisy;
	s->check_extension = (cfg->extensions & CUTOFF_EXTEND_CHECKS) && game->in_check;
	/* A game that writes more moves than max_moves breaks its contract, and the search
	 * says so (generate); the slack after the last list keeps such writes, up to
	 * CUTOFF_MAX_MOVES of them, inside the searcher's own memory until it does. */
	const size_t plies = (size_t)cutoff_config_plies(cfg);
	size_t lists = plies * (size_t)game->max_moves + CUTOFF_MAX_MOVES;
	s->max_ply = (int)plies;
	s->state_stride =
		(game->state_size + _Alignof(max_align_t) - 1) & ~(_Alignof(max_align_t) - 1);
	s->states = malloc((plies + 1) * s->state_stride);
	s->moves = malloc(lists * sizeof(*s->moves));
	s->hints = malloc(lists * sizeof(*s->hints));
	s->scores = malloc((size_t)game->max_moves * sizeof(*s->scores));
	/* zeroed, as the searcher is: a driver may read a row no search of this thread
	 * wrote yet (cutoff_searcher_adopt_path reads the owner's rep_floor) */
	s->rep_floor = calloc(plies + 1, sizeof(*s->rep_floor));
	s->keys = calloc(CUTOFF_MAX_PLAYED + plies + 1, sizeof(*s->keys));
	s->in_check = calloc(plies + 1, sizeof(*s->in_check));
	s->null_move = calloc(plies + 1, sizeof(*s->null_move));
	s->killers = calloc(plies + 1, sizeof(*s->killers));
	s->pv_length = calloc(plies + 1, sizeof(*s->pv_length));
	s->pv_rows = calloc((plies + 1) * plies, sizeof(*s->pv_rows));
	if (!s->states || !s->moves || !s->hints || !s->scores || !s->rep_floor || !s->keys ||
	    !s->in_check || !s->null_move || !s->killers || !s->pv_length || !s->pv_rows) {
		cutoff_searcher_destroy(s);
		return CUTOFF_ENOMEM;
	}
	return CUTOFF_OK;
}

void cutoff_searcher_destroy(cutoff_searcher_t *s)
{
	free(s->states);
	free(s->moves);
	free(s->hints);
	free(s->scores);
	free(s->rep_floor);
	free(s->keys);
	free(s->in_check);
	free(s->null_move);
	free(s->killers);
	free(s->pv_length);
	free(s->pv_rows);
	s->scores = NULL;
	s->states = NULL;
	s->moves = NULL;
	s->hints = NULL;
	s->rep_floor = NULL;
	s->keys = NULL;
	s->in_check = s->null_move = NULL;
	s->killers = NULL;
	s->pv_length = NULL;
	s->pv_rows = NULL;
}

static inline void *state_at(const cutoff_searcher_t *s, int ply)
{
	return s->states + (size_t)ply * s->state_stride;
}

void *cutoff_searcher_state(const cutoff_searcher_t *s, int ply) { return state_at(s, ply); }

static inline cutoff_move_t *moves_at(const cutoff_searcher_t *s, int ply)
{
	return s->moves + (size_t)ply * (size_t)s->game->max_moves;
}

static inline int32_t *hints_at(const cutoff_searcher_t *s, int ply)
{
	return s->hints + (size_t)ply * (size_t)s->game->max_moves;
}

/* The instance a search runs in (above): bare or lean when no feature but the table is on. */
static cutoff_instance_t instance_of(const cutoff_searcher_t *s)
{
	if (s->pruning || s->check_extension || s->quiescence || s->game->reversible ||
	    s->game->side || (s->younger && !s->tt))
		return CUTOFF_INSTANCE_ANY;
	if (s->younger)
		return CUTOFF_INSTANCE_HOOK;
	return s->tt ? CUTOFF_INSTANCE_LEAN : CUTOFF_INSTANCE_BARE;
}

void cutoff_searcher_start(cutoff_searcher_t *s, const void *root, const uint64_t *played,
                           int played_length, bool solve)
{
	if (root)
		memcpy(state_at(s, 0), root, s->game->state_size);
	if (played_length > CUTOFF_MAX_PLAYED) {
		played += played_length - CUTOFF_MAX_PLAYED;
		played_length = CUTOFF_MAX_PLAYED;
	}
	s->played_length = s->game->reversible && played ? played_length : 0;
	if (s->played_length > 0)
		memcpy(s->keys, played, (size_t)s->played_length * sizeof(uint64_t));
	s->rep_floor[0] = 0;
	s->null_move[0] = false;
	memset(&s->count, 0, sizeof(s->count));
	memset(s->typed, 0, sizeof(s->typed));
	memset(s->uncut, 0, sizeof(s->uncut));
	memset(s->cuts, 0, sizeof(s->cuts));
	memset(s->first_cuts, 0, sizeof(s->first_cuts));
	memset(&s->prof, 0, sizeof(s->prof));
	s->above = NULL;
	cutoff_search_recheck(s);
	s->polled_nodes = 0;
	s->poll = 1;
	s->aborted = false;
	s->solve = solve;
	s->instance = instance_of(s);
	s->fault = (cutoff_fault_t){ NULL, 0, 0, false };
	s->horizon = 0;
	s->pv_length[0] = 0;
	for (int i = 0; i <= s->max_ply; i++)
		s->killers[i][0] = s->killers[i][1] = CUTOFF_MOVE_NONE;
	if (s->ordering & CUTOFF_ORDER_HISTORY) /* its only reader (order_moves) */
		for (int side = 0; side < 2; side++)
			for (int i = 0; i < CUTOFF_HISTORY_SIZE; i++)
				s->history[side][i] >>= 1;
}

void cutoff_searcher_fold(cutoff_searcher_t *s)
{
	if (!CUTOFF_PROFILING)
		return;
	cutoff_counters_t *c = &s->count;
	c->nodes_pv = s->typed[CUTOFF_NODE_PV];
	c->nodes_cut = s->typed[CUTOFF_NODE_CUT];
	c->nodes_all = s->typed[CUTOFF_NODE_ALL];
	c->cut_nodes_wrong = s->uncut[CUTOFF_NODE_CUT];
	c->all_nodes_wrong = s->cuts[CUTOFF_NODE_ALL];
	c->cut_node_cutoffs = s->cuts[CUTOFF_NODE_CUT];
	c->cut_node_first_cutoffs = s->first_cuts[CUTOFF_NODE_CUT];
}

void cutoff_searcher_forget(cutoff_searcher_t *s) { memset(s->history, 0, sizeof(s->history)); }

void cutoff_searcher_adopt_path(cutoff_searcher_t *s, const cutoff_searcher_t *owner, int ply,
                                int own_ply)
{
	/* The keys up to own_ply are this thread's own path already, and helpers of its own
	 * split point may be reading them: they are not written again. */
	int from = owner->rep_floor[ply];
	if (own_ply >= 0 && from <= owner->played_length + own_ply)
		from = owner->played_length + own_ply + 1;
	if (from <= owner->played_length + ply)
		memcpy(&s->keys[from], &owner->keys[from],
		       (size_t)(owner->played_length + ply + 1 - from) * sizeof(uint64_t));
	s->rep_floor[ply] = owner->rep_floor[ply];
	s->in_check[ply] = owner->in_check[ply];
	s->null_move[ply] = owner->null_move[ply];
}

/* Looks at the control (stop, halt, the shared node count) and the clock; sets the
 * next poll distance. */
static bool poll_limits(cutoff_searcher_t *s)
{
	cutoff_control_t *ctl = s->ctl;
	uint64_t fresh = s->count.nodes - s->polled_nodes;
	uint64_t total = cutoff_u64_faa(&ctl->nodes, fresh) + fresh;
	s->polled_nodes = s->count.nodes;
	s->poll = POLL_NODES;
	if (ctl->poll && s->index == 0)
		ctl->poll(ctl->poll_user, ctl->engine, total);
	if (cutoff_int_load_relaxed(&ctl->stop) || cutoff_int_load_relaxed(&ctl->halt))
		return s->aborted = true;
	if (ctl->node_limit) {
		if (total >= ctl->node_limit)
			return s->aborted = true;
		/* Poll again before the threads together could pass the limit. */
		uint64_t share = (ctl->node_limit - total) / (uint64_t)ctl->threads;
		if (share < POLL_NODES)
			s->poll = share > 0 ? (unsigned)share : 1;
	}
	if (ctl->deadline_ns && cutoff_now_ns() >= ctl->deadline_ns)
		return s->aborted = true;
	return false;
}

/* The game broke its contract at `ply` (cutoff_fault_t): the first fault is kept, this
 * search ends, and the halt flag ends the other threads' searches at their next poll. */
static void game_broken(cutoff_searcher_t *s, int ply, const char *callback, int count, bool value)
{
	if (!s->fault.callback)
		s->fault = (cutoff_fault_t){ callback, count, ply, value };
	cutoff_int_store_relaxed(&s->ctl->halt, 1);
	s->aborted = true;
}

/* True when `v`, what the game's terminal (`terminal`) or evaluate said at `ply`, is
 * outside the range cutoff.h allows (cutoff_value_allowed). The game then broke its
 * contract (game_broken). Asked of every value that scores a
 * node (a leaf's, quiescence's stand pat and terminal children, enhanced transposition
 * cut-offs' terminal children, the root's), not of null-move pruning's static value, which
 * is only compared with beta; one unsigned compare where the value is in range. */
static inline bool bad_value(cutoff_searcher_t *s, int ply, bool terminal, int32_t v)
{
	if (__builtin_expect(cutoff_value_allowed(v, terminal), 1))
		return false;
	game_broken(s, ply, terminal ? "terminal" : "evaluate", v, true);
	return true;
}

bool cutoff_search_halted(cutoff_searcher_t *s)
{
	if (s->aborted)
		return true;
	if (!s->above)
		return false;
	if (!s->cut_news)
		return cutoff_cut_above(s->above);
	/* The count read before the walk: a cut raised after it moves it again. Acquire:
	 * the cut flags set before the count was raised are seen by the walk. */
	int news = cutoff_int_load_acquire(s->cut_news);
	if (news == s->cut_seen)
		return false;
	if (cutoff_cut_above(s->above))
		return true;
	s->cut_seen = news;
	return false;
}

/* Counts a node; true when the search must stop now. */
static inline bool enter_node(cutoff_searcher_t *s, int ply)
{
	s->pv_length[ply] = 0;
	if (cutoff_search_halted(s))
		return true;
	if (--s->poll == 0 && poll_limits(s))
		return true;
	s->count.nodes++;
	cutoff_charge(CUTOFF_CHARGE_NODE);
	if ((uint64_t)ply > s->count.seldepth)
		s->count.seldepth = (uint64_t)ply;
	return false;
}

/* A game's win or loss (+-CUTOFF_WIN) becomes a win or loss at distance `ply`. */
static inline int32_t terminal_value(int32_t v, int ply)
{
	if (v >= CUTOFF_WIN_MIN)
		return v - ply;
	if (v <= -CUTOFF_WIN_MIN)
		return v + ply;
	return v;
}

/*
 * Extra turns (the game's side hook). Negamax negates a child's value because the move
 * passed the turn to the other side; when the game says the same side moves again, the
 * child's value is the parent's as it is, and the child is searched with the parent's own
 * window. turn_passes tells which from the two states (always true in a plain search, bare
 * or lean, which a game with the hook never runs in: instance_of). for_parent turns a
 * child's value into its parent's: negated, or kept, a halted child's HALTED then turned
 * into -HALTED, so that the parent's move loop takes it to its cut-off branch as a negated
 * one does (HALTED, above). same_side_type: the expected type of a child that the same side
 * moves in, the negamax child's type with CUT and ALL swapped (a node expected to cut
 * expects its child to fail high, now from the same side's view).
 */
static inline bool turn_passes(const cutoff_game_t *g, const void *here, const void *child,
                               const bool plain)
{
	return plain || !g->side || g->side(g->ctx, child) != g->side(g->ctx, here);
}

static inline int32_t for_parent(int32_t v, bool passes)
{
	return passes ? -v : v == HALTED ? -HALTED : v;
}

static inline cutoff_node_type_t same_side_type(cutoff_node_type_t t)
{
	return t == CUTOFF_NODE_PV ? t : t == CUTOFF_NODE_CUT ? CUTOFF_NODE_ALL : CUTOFF_NODE_CUT;
}

/*
 * Repetitions (the game's `reversible` hook): writes the node's key into the path and
 * looks for it 2, 4, ... plies back (every ply back in a game with extra turns, whose
 * side to move does not alternate: s->rep_step; equal keys there mean the same position,
 * the side to move included), as far as the last irreversible move and never across a
 * null move. The root itself is never scored as a repetition.
 */
static inline bool repetition(cutoff_searcher_t *s, int ply)
{
	const cutoff_game_t *g = s->game;
	const void *st = state_at(s, ply);
	int here = s->played_length + ply;
	s->keys[here] = g->key(g->ctx, st);
	if (ply == 0)
		return false;
	s->rep_floor[ply] = s->null_move[ply] ? here : s->rep_floor[ply - 1];
	int lowest = here - g->reversible(g->ctx, st);
	if (lowest < s->rep_floor[ply])
		lowest = s->rep_floor[ply];
	for (int i = here - s->rep_step; i >= lowest; i -= s->rep_step)
		if (s->keys[i] == s->keys[here])
			return true;
	return false;
}

static int32_t quiesce(cutoff_searcher_t *s, int ply, int32_t alpha, int32_t beta);

/*
 * True when the node at `ply` (its state: st) is scored without its moves: a terminal
 * position, a repetition, or the horizon — where quiescence (when on) searches the noisy
 * moves within (alpha, beta), and the static evaluation scores it otherwise. `plain`: the
 * search is bare or lean (above), with neither repetitions nor quiescence. The node's
 * state comes as an argument, as it does to every step of a node: worked out once, since
 * after each call into the game the searcher's fields that locate it are loaded again.
 */
static inline __attribute__((always_inline)) bool is_leaf(cutoff_searcher_t *s, int ply,
                                                          const void *st, int depth, int32_t alpha,
                                                          int32_t beta, int32_t *value,
                                                          const bool plain)
{
	const cutoff_game_t *g = s->game;
	if (g->terminal(g->ctx, st, value)) {
		s->count.leaves++;
		*value = bad_value(s, ply, true, *value) ? HALTED : terminal_value(*value, ply);
		return true;
	}
	if (!plain && g->reversible && repetition(s, ply)) {
		s->count.leaves++;
		s->count.repetitions++;
		s->horizon++; /* a draw by the path, not by the position */
		*value = 0;
		return true;
	}
	if (depth <= 0 || ply >= s->max_ply - 1) {
		s->horizon++;
		if (!plain && s->quiescence && ply < s->max_ply - 1) {
			*value = quiesce(s, ply, alpha, beta);
		} else {
			s->count.leaves++;
			*value = g->evaluate(g->ctx, st);
			if (bad_value(s, ply, false, *value))
				*value = HALTED;
		}
		return true;
	}
	return false;
}

/* A node's first steps, the same in every instance: counted (and typed, for the profiler);
 * true with *value when the node ends there, halted (HALTED) or a leaf (is_leaf). */
static inline __attribute__((always_inline)) bool
node_start(cutoff_searcher_t *s, int ply, const void *st, int depth, cutoff_node_type_t type,
           int32_t alpha, int32_t beta, int32_t *value, const bool plain)
{
	if (enter_node(s, ply)) {
		*value = HALTED;
		return true;
	}
	if (CUTOFF_PROFILING)
		s->typed[type]++;
	return is_leaf(s, ply, st, depth, alpha, beta, value, plain);
}

/* Orders moves[0..n) stably by descending key, carrying the hints along. */
static void sort_moves(cutoff_move_t *m, int32_t *h, int64_t *key, int n)
{
	for (int i = 1; i < n; i++) {
		cutoff_move_t mv = m[i];
		int32_t hv = h ? h[i] : 0;
		int64_t kv = key[i];
		int j = i;
		for (; j > 0 && key[j - 1] < kv; j--) {
			m[j] = m[j - 1];
			if (h)
				h[j] = h[j - 1];
			key[j] = key[j - 1];
		}
		m[j] = mv;
		if (h)
			h[j] = hv;
		key[j] = kv;
	}
}

/*
 * Quiescence at a horizon node (already entered, not terminal): stand pat on the static
 * value, then the noisy moves, best hint first, fail-soft; a node in check (the game's
 * in_check) stands on nothing and searches every evasion. With the infinite window of
 * minimax nothing is cut, which makes it the reference for the same definition.
 */
static int32_t quiesce(cutoff_searcher_t *s, int ply, int32_t alpha, int32_t beta)
{
	const cutoff_game_t *g = s->game;
	const void *st = state_at(s, ply);
	/* In check there is no standing pat: every evasion is searched. */
	bool evade = g->in_check && ply < s->max_ply - 2 && g->in_check(g->ctx, st);
	int32_t best = evade ? -CUTOFF_INF : g->evaluate(g->ctx, st);
	if (!evade && bad_value(s, ply, false, best))
		return HALTED;
	s->count.leaves += !evade;
	if (best >= beta || ply >= s->max_ply - 2)
		return best;
	int32_t a = alpha > best ? alpha : best;
	cutoff_move_t *m = moves_at(s, ply);
	int32_t *h = hints_at(s, ply);
	int n = evade ? g->gen_moves(g->ctx, st, m, h) : g->gen_noisy(g->ctx, st, m, h);
	/* One compare each: an evasion list must have a move (a position in check without
	 * one is mate, which `terminal` reports), a noisy list may be empty. */
	if (evade ? (unsigned)n - 1u >= (unsigned)g->max_moves
	          : (unsigned)n > (unsigned)g->max_moves) {
		game_broken(s, ply, evade ? "gen_moves" : "gen_noisy", n, false);
		return HALTED;
	}
	if (s->ordering & CUTOFF_ORDER_HINTS) {
		for (int i = 0; i < n; i++)
			s->scores[i] = h[i];
		sort_moves(m, NULL, s->scores, n);
	}
	for (int i = 0; i < n; i++) {
		int32_t v;
		g->play(g->ctx, st, m[i], state_at(s, ply + 1));
		if (enter_node(s, ply + 1))
			return HALTED;
		s->count.qnodes++;
		const bool passes = turn_passes(g, st, state_at(s, ply + 1), false);
		if (g->terminal(g->ctx, state_at(s, ply + 1), &v)) {
			s->count.leaves++;
			if (bad_value(s, ply + 1, true, v))
				return HALTED;
			v = for_parent(terminal_value(v, ply + 1), passes);
		} else {
			v = passes ? -quiesce(s, ply + 1, -beta, -a)
			           : for_parent(quiesce(s, ply + 1, a, beta), false);
		}
		if (cutoff_search_halted(s))
			return HALTED;
		if (v > best) {
			best = v;
			if (v >= beta)
				break;
			if (v > a)
				a = v;
		}
	}
	return best;
}

static inline uint32_t history_slot(cutoff_move_t m)
{
	return (uint32_t)(m * 2654435761u) >> (32 - 12);
}

_Static_assert(CUTOFF_HISTORY_SIZE == 1 << 12, "history_slot makes 12-bit indices");

static inline bool wants_hints(const cutoff_searcher_t *s)
{
	return (s->ordering & CUTOFF_ORDER_HINTS) || (s->pruning & CUTOFF_PRUNE_LMR);
}

/*
 * order_moves without killers and history, the solvers' ordering: the order the keys
 * below give, in fewer steps. When `sort` (the hints order the moves, so h is not NULL),
 * a stable insertion sort by descending hint, carrying the hints along; then the table's
 * move, when it is among them, moved to the front (h, when not NULL, follows): the others
 * keep their order, as they would behind its key of INT64_MAX.
 */
static inline void order_by_hints(cutoff_move_t *m, bool sort, int32_t *h, int n,
                                  cutoff_move_t tt_move)
{
	if (sort) {
		for (int i = 1; i < n; i++) {
			cutoff_move_t mv = m[i];
			int32_t hv = h[i];
			int j = i;
			for (; j > 0 && h[j - 1] < hv; j--) {
				m[j] = m[j - 1];
				h[j] = h[j - 1];
			}
			m[j] = mv;
			h[j] = hv;
		}
	}
	if (tt_move == CUTOFF_MOVE_NONE || m[0] == tt_move)
		return;
	for (int i = 1; i < n; i++) {
		if (m[i] != tt_move)
			continue;
		int32_t hv = h ? h[i] : 0;
		for (int j = i; j > 0; j--) {
			m[j] = m[j - 1];
			if (h)
				h[j] = h[j - 1];
		}
		m[0] = tt_move;
		if (h)
			h[0] = hv;
		return;
	}
}

/*
 * Orders the n >= 2 moves at `ply` (config.ordering with killers or history): the table's
 * move first, then by the game's hint (h), the killers, the history score; a stable
 * insertion sort, so that equal keys keep the game's order.
 */
static void order_moves(cutoff_searcher_t *s, int ply, cutoff_move_t *m, int32_t *h,
                        cutoff_move_t tt_move, int n)
{
	const unsigned ord = s->ordering;
	int64_t *key = s->scores;
	const cutoff_move_t *killer = s->killers[ply];
	const uint32_t *history = s->history[ply & 1];
	bool sorted = true;
	for (int i = 0; i < n; i++) {
		int64_t k = 0;
		if ((ord & CUTOFF_ORDER_TT) && m[i] == tt_move)
			k = INT64_MAX;
		else {
			if (ord & CUTOFF_ORDER_HINTS)
				k = (int64_t)h[i] *
				    ((int64_t)1 << 32); /* not <<: hints may be negative */
			if ((ord & CUTOFF_ORDER_KILLERS) && m[i] == killer[0])
				k += 1 << 30;
			else if ((ord & CUTOFF_ORDER_KILLERS) && m[i] == killer[1])
				k += 1 << 29;
			if (ord & CUTOFF_ORDER_HISTORY)
				k += history[history_slot(m[i])];
		}
		key[i] = k;
		sorted = sorted && (i == 0 || k <= key[i - 1]);
	}
	if (!sorted)
		sort_moves(m, h, key, n);
}

/*
 * Generates the moves at `ply` with their hints into h (NULL when neither ordering nor
 * reductions use them: wants_hints) and orders them (order_moves, or order_by_hints when
 * neither killers nor history take part); with CUTOFF_ORDER_NONE they stay in the game's
 * order. Returns 0 when the game broke its contract (game_broken: the search is then
 * halted). Inline: at the search's cheapest nodes the call cost more than the
 * generation's own checks.
 */
static inline int generate(cutoff_searcher_t *s, int ply, const void *st, cutoff_move_t *m,
                           cutoff_move_t tt_move, int32_t *h)
{
	const cutoff_game_t *g = s->game;
	int n = g->gen_moves(g->ctx, st, m, h);
	/* One compare for both broken promises: a count above max_moves (the lists hold no
	 * more), and 0 or less in a state `terminal` said is not over (a pass is a move). */
	if ((unsigned)n - 1u >= (unsigned)g->max_moves) {
		game_broken(s, ply, "gen_moves", n, false);
		return 0;
	}
	const unsigned ord = s->ordering;
	if (ord == CUTOFF_ORDER_NONE || n < 2)
		return n;
	if (ord & (CUTOFF_ORDER_KILLERS | CUTOFF_ORDER_HISTORY))
		order_moves(s, ply, m, h, tt_move, n);
	else /* the solvers' ordering, in place */
		order_by_hints(m, ord & CUTOFF_ORDER_HINTS, h, n,
		               (ord & CUTOFF_ORDER_TT) ? tt_move : CUTOFF_MOVE_NONE);
	return n;
}

/* A move that cut off at `ply` becomes its first killer, and gains history. */
static void reward(cutoff_searcher_t *s, int ply, int depth, cutoff_move_t move)
{
	cutoff_move_t *killer = s->killers[ply];
	if (killer[0] != move) {
		killer[1] = killer[0];
		killer[0] = move;
	}
	uint32_t *slot = &s->history[ply & 1][history_slot(move)];
	*slot += (uint32_t)(depth * depth);
	if (*slot > 1u << 28) /* keep history below the killers' weight */
		for (int i = 0; i < CUTOFF_HISTORY_SIZE; i++)
			s->history[ply & 1][i] >>= 1;
}

int cutoff_pv_join(cutoff_move_t *dst, cutoff_move_t move, const cutoff_move_t *src, int n,
                   int max_ply)
{
	if (n > max_ply - 1)
		n = max_ply - 1;
	dst[0] = move;
	memmove(&dst[1], src, (size_t)n * sizeof(cutoff_move_t));
	return n + 1;
}

/* The node at `ply` has a new best move: its line becomes the move and the child's line.
 * An empty line (the child was a leaf: most of them) is not copied at all, one of up to
 * PV_SHORT moves as a block of that fixed size, a few instructions instead of a call; what
 * comes along past its end is never read (readers stop at pv_length) and stays inside the
 * two rows, which never overlap. */
static inline void pv_update(cutoff_searcher_t *s, int ply, cutoff_move_t move)
{
	cutoff_move_t *dst = cutoff_searcher_pv(s, ply);
	const cutoff_move_t *src = cutoff_searcher_pv(s, ply + 1);
	int n = s->pv_length[ply + 1];
	if (n > s->max_ply - 1)
		n = s->max_ply - 1;
	dst[0] = move;
	if (n > PV_SHORT)
		memcpy(&dst[1], src, (size_t)n * sizeof(cutoff_move_t));
	else if (n > 0)
		memcpy(&dst[1], src, PV_SHORT * sizeof(cutoff_move_t));
	s->pv_length[ply] = n + 1;
}

static inline __attribute__((always_inline)) void count_cutoff(cutoff_searcher_t *s, int ply,
                                                               int depth, cutoff_node_type_t type,
                                                               int i, cutoff_move_t move)
{
	s->count.cutoffs++;
	s->count.first_move_cutoffs += i == 0;
	if (CUTOFF_PROFILING) {
		s->cuts[type]++;
		s->first_cuts[type] += i == 0;
	}
	if (s->ordering & (CUTOFF_ORDER_KILLERS | CUTOFF_ORDER_HISTORY))
		reward(s, ply, depth, move);
}

/* True with *value when the bounds of `hit` settle a node searched with (alpha, beta). */
static inline bool tt_settles(const cutoff_tt_hit_t *hit, int32_t alpha, int32_t beta,
                              int32_t *value)
{
	if (hit->lower >= beta || hit->lower == hit->upper)
		*value = hit->lower;
	else if (hit->upper <= alpha)
		*value = hit->upper;
	else
		return false;
	return true;
}

/* True with *value when the range the game gives for the node's value (its `bounds` hook)
 * lies outside the window: upper <= alpha fails low with upper, lower >= beta fails high
 * with lower. Both bounds hold at every depth, so the answer is no contact with the
 * horizon. Before the table's probe: the range costs a few instructions, the probe a
 * cache miss. */
static inline bool out_of_bounds(cutoff_searcher_t *s, const void *st, int32_t alpha, int32_t beta,
                                 int32_t *value)
{
	const cutoff_game_t *g = s->game;
	int32_t lower, upper;
	g->bounds(g->ctx, st, &lower, &upper);
	if (upper <= alpha)
		*value = upper;
	else if (lower >= beta)
		*value = lower;
	else
		return false;
	s->count.bound_cutoffs++;
	return true;
}

/* The table's verdict before searching a node: true with *value when its bounds settle
 * the node for this window (never at the root); *move is the table's move or NONE.
 *
 * In the solve mode an answer that does not hold at every depth is a contact with the
 * horizon: one that the entries exact to the end do not settle by themselves. Both
 * answers come from one read of the bucket (cutoff_tt_probe_by's `end`). Why that
 * matters: call a node full when its depth is at least the length of its longest line, so
 * that no leaf below it meets the depth limit. A full node meets the horizon only through
 * a table answer from an entry deep enough but not exact to the end, and such an entry
 * was stored by a full node that met the horizon: by induction over the stores, none
 * exists, and a search whose root is full is solved. A second look at the bucket breaks
 * the induction: another thread's write between the reads takes away the end entry that
 * settled the node (seen under the simulator: an entry caught half rewritten, which reads
 * as torn and is skipped; an exact value of a shallower search, which replaces an end
 * bound; an eviction), the node then counts a contact, stores its value as not exact to
 * the end at a full depth, and that entry makes every later search through it, a warm
 * re-search of the same root included, unsolved. */
static inline bool tt_lookup(cutoff_searcher_t *s, int ply, int depth, int32_t alpha, int32_t beta,
                             uint64_t key, int32_t *value, cutoff_move_t *move)
{
	cutoff_tt_hit_t hit, end;
	int writer;
	s->count.tt_probes++;
	bool found =
		cutoff_tt_probe_by(s->tt, key, depth, ply, &hit, s->solve ? &end : NULL, &writer);
	*move = hit.move;
	if (!found)
		return false;
	s->count.tt_hits++;
	if (CUTOFF_PROFILING)
		s->count.tt_hits_other += writer >= 0 && writer != s->index;
	if (CUTOFF_PROFILING)
		s->count.tt_hits_shared += writer == CUTOFF_TT_IMPORTED;
	if (ply == 0 || !s->tt_cutoffs || !tt_settles(&hit, alpha, beta, value))
		return false;
	if (s->solve && !tt_settles(&end, alpha, beta, value))
		s->horizon++;
	s->count.tt_cutoffs++;
	return true;
}

/* Stores a node's result. In the solve mode, a subtree that never met the horizon (the
 * count is still `horizon` as it was when the node was entered) stores its value as exact
 * to the end of the game. */
static inline void tt_record(cutoff_searcher_t *s, int ply, int depth, int32_t alpha, int32_t beta,
                             uint64_t key, int32_t best, cutoff_move_t move, uint64_t horizon)
{
	if (s->solve && s->horizon == horizon)
		depth = CUTOFF_TT_DEPTH_END;
	cutoff_bound_t b = best >= beta    ? CUTOFF_BOUND_LOWER
	                   : best <= alpha ? CUTOFF_BOUND_UPPER
	                                   : CUTOFF_BOUND_EXACT;
	if (b == CUTOFF_BOUND_UPPER)
		move = CUTOFF_MOVE_NONE;
	cutoff_tt_stored_t stored =
		cutoff_tt_store_by(s->tt, key, depth, ply, b, best, move, s->index);
	if (s->share && depth >= cutoff_int_load_relaxed(&s->ctl->export_depth))
		cutoff_share_push(s->share, key, depth, b, cutoff_tt_value_to_node(best, ply),
		                  move);
	s->count.tt_stores++;
	s->count.tt_stores_same += stored == CUTOFF_TT_SAME;
}

/* Plays `move` from the state at ply (here) into ply + 1 (child: the two are
 * state_at(s, ply) and state_at(s, ply + 1), which a move loop works out once) and returns
 * the depth left for the child: one ply less, or as much when the move gives check and
 * checks are extended (never in a plain search, bare or lean, which has no null moves
 * either). */
static inline int descend(cutoff_searcher_t *s, int ply, const void *here, void *child, int depth,
                          cutoff_move_t move, const bool plain)
{
	const cutoff_game_t *g = s->game;
	g->play(g->ctx, here, move, child);
	if (plain)
		return depth - 1;
	s->null_move[ply + 1] = false;
	if (s->check_extension && g->in_check(g->ctx, child))
		return depth;
	return depth - 1;
}

/*
 * Enhanced transposition cut-offs (config.etc_min_depth; Plaat, Schaeffer, Pijls and de
 * Bruin, 1996). Before a node searches a move, each child is played (or, with the game's
 * key_after, only the eldest: below) and the table asked about it at the depth the child
 * would be searched to: a child whose entry bounds its value by u from above proves that
 * the node's value is at least -u, and when -u >= beta the node fails high with -u at
 * once; so does a terminal child worth that much. True with *value and *move then. One
 * pass plays the children (or computes their keys) and prefetches their buckets, a second
 * probes them (their upper bounds alone: cutoff_tt_probe_upper), so that the probes'
 * cache misses overlap (and the searches that follow find the buckets cached). Only the
 * first 64 moves are looked at (a bit each in two masks); their keys go into s->scores,
 * which no caller holds once the moves are ordered. The children are played into the
 * child slot, where the move loop plays the one it searches again, but the eldest when
 * it was the only one played (*eldest_played). In the solve mode, an answer that the
 * entries exact to the end do not give by themselves is a contact with the horizon, as in
 * tt_lookup. Compiled twice, for a plain search and any other (etc_cuts_plain,
 * etc_cuts_any), neither inlined: most nodes never get here, and the recursion's frame
 * stays small.
 */
static inline __attribute__((always_inline)) bool etc_body(cutoff_searcher_t *s, int ply, int depth,
                                                           int32_t beta, const void *here,
                                                           void *child, const cutoff_move_t *m,
                                                           int n, const bool plain, int32_t *value,
                                                           cutoff_move_t *move, bool *eldest_played)
{
	const cutoff_game_t *g = s->game;
	uint64_t *keys = (uint64_t *)s->scores;
	uint64_t asked = 0, extended = 0;
	if (n > 64)
		n = 64;
	/* With the game's key_after, only the eldest child (the likeliest to cut, a win at
	 * once among them) is played, to see whether it ends the game; the others are looked
	 * up by key at depth - 1, unplayed (a terminal one among them is found by the move
	 * loop). Not when checks are extended: a child's depth needs the child. */
	const bool by_key = g->key_after && (plain || !s->check_extension);
	*eldest_played = by_key; /* and, unextended, at depth - 1 */
	for (int i = 0; i < n; i++) {
		int32_t v;
		int d;
		if (by_key && i > 0) {
			d = depth - 1;
			if (d < 1 || d < s->tt_min_depth)
				break;
			keys[i] = g->key_after(g->ctx, here, m[i]);
		} else {
			d = descend(s, ply, here, child, depth, m[i], plain);
			if (g->terminal(g->ctx, child, &v)) {
				if (bad_value(s, ply + 1, true, v)) {
					*value = HALTED;
					return true;
				}
				v = -terminal_value(v, ply + 1);
				if (v >= beta) {
					*value = v;
					*move = m[i];
					s->count.etc_cutoffs++;
					return true;
				}
				continue;
			}
			if (d < 1 || d < s->tt_min_depth)
				continue; /* a leaf, or a node that does not store: no entry */
			keys[i] = g->key(g->ctx, child);
		}
		cutoff_tt_prefetch(s->tt, keys[i]);
		asked |= UINT64_C(1) << i;
		extended |= (uint64_t)(d == depth) << i;
	}
	for (int i = 0; i < n; i++) {
		int32_t upper, end_upper;
		if (!(asked >> i & 1))
			continue;
		int d = depth - 1 + (int)(extended >> i & 1);
		s->count.tt_probes++;
		s->count.etc_probes++;
		if (!cutoff_tt_probe_upper(s->tt, keys[i], d, ply + 1, &upper,
		                           s->solve ? &end_upper : NULL))
			continue;
		s->count.tt_hits++;
		if (-upper < beta)
			continue;
		if (s->solve && -end_upper < beta)
			s->horizon++;
		*value = -upper;
		*move = m[i];
		s->count.etc_cutoffs++;
		return true;
	}
	return false;
}

static __attribute__((noinline)) bool etc_cuts_plain(cutoff_searcher_t *s, int ply, int depth,
                                                     int32_t beta, const void *here, void *child,
                                                     const cutoff_move_t *m, int n, int32_t *value,
                                                     cutoff_move_t *move, bool *eldest_played)
{
	return etc_body(s, ply, depth, beta, here, child, m, n, true, value, move, eldest_played);
}

static __attribute__((noinline)) bool etc_cuts_any(cutoff_searcher_t *s, int ply, int depth,
                                                   int32_t beta, const void *here, void *child,
                                                   const cutoff_move_t *m, int n, int32_t *value,
                                                   cutoff_move_t *move, bool *eldest_played)
{
	return etc_body(s, ply, depth, beta, here, child, m, n, false, value, move, eldest_played);
}

/* Plain negamax: every move, no window, no table. The reference. */
static int32_t negamax(cutoff_searcher_t *s, int ply, int depth)
{
	int32_t v;
	if (enter_node(s, ply))
		return 0;
	const void *here = state_at(s, ply);
	if (is_leaf(s, ply, here, depth, -CUTOFF_INF, CUTOFF_INF, &v, false))
		return v;
	cutoff_move_t *m = moves_at(s, ply);
	int n = generate(s, ply, here, m, CUTOFF_MOVE_NONE,
	                 wants_hints(s) ? hints_at(s, ply) : NULL);
	if (n == 0)
		return 0; /* the game broke its contract: halted */
	int32_t best = -CUTOFF_INF;
	for (int i = 0; i < n; i++) {
		int d = descend(s, ply, here, state_at(s, ply + 1), depth, m[i], false);
		v = for_parent(negamax(s, ply + 1, d),
		               turn_passes(s->game, here, state_at(s, ply + 1), false));
		if (cutoff_search_halted(s))
			return 0;
		if (v > best) {
			best = v;
			pv_update(s, ply, m[i]);
		}
	}
	return best;
}

static int32_t search_node(cutoff_searcher_t *s, cutoff_algo_t algo, int ply, int depth,
                           cutoff_node_type_t type, int32_t alpha, int32_t beta);
static int32_t bare_horizon(cutoff_searcher_t *s, int ply, cutoff_node_type_t type);
static int32_t bare_alphabeta(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                              int32_t alpha, int32_t beta);
static int32_t bare_pvs(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                        int32_t alpha, int32_t beta);
static int32_t lean_alphabeta(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                              int32_t alpha, int32_t beta);
static int32_t lean_pvs(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                        int32_t alpha, int32_t beta);
static int32_t hook_alphabeta(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                              int32_t alpha, int32_t beta);
static int32_t hook_pvs(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                        int32_t alpha, int32_t beta);

/* A child's search, in the instance of the node's own: a bare or lean search's instances
 * take the algorithm as a constant too (one argument less a node, and none on the stack),
 * and their nodes at the horizon have one of their own (bare_horizon). */
static inline int32_t child_search(cutoff_searcher_t *s, cutoff_algo_t algo, int ply, int depth,
                                   cutoff_node_type_t type, int32_t alpha, int32_t beta,
                                   const cutoff_instance_t inst)
{
	algo = algo == CUTOFF_ALGO_PVS ? CUTOFF_ALGO_PVS : CUTOFF_ALGO_ALPHABETA;
	if (inst == CUTOFF_INSTANCE_ANY)
		return search_node(s, algo, ply, depth, type, alpha, beta);
	if (depth <= 0)
		return bare_horizon(s, ply, type);
	if (inst == CUTOFF_INSTANCE_LEAN)
		return algo == CUTOFF_ALGO_PVS ? lean_pvs(s, ply, depth, type, alpha, beta)
		                               : lean_alphabeta(s, ply, depth, type, alpha, beta);
	if (inst == CUTOFF_INSTANCE_HOOK)
		return algo == CUTOFF_ALGO_PVS ? hook_pvs(s, ply, depth, type, alpha, beta)
		                               : hook_alphabeta(s, ply, depth, type, alpha, beta);
	return algo == CUTOFF_ALGO_PVS ? bare_pvs(s, ply, depth, type, alpha, beta)
	                               : bare_alphabeta(s, ply, depth, type, alpha, beta);
}

/* A child's search for its parent (window (alpha, beta), the parent's): negamax's
 * negation of the child's search with (-beta, -alpha) when the move passed the turn,
 * else the child's own search with the same window (turn_passes, above). `type` is the
 * negamax child's expected type. */
static inline int32_t child_for_parent(cutoff_searcher_t *s, cutoff_algo_t algo, int ply, int depth,
                                       cutoff_node_type_t type, int32_t alpha, int32_t beta,
                                       bool passes, const cutoff_instance_t inst)
{
	if (passes)
		return -child_search(s, algo, ply + 1, depth, type, -beta, -alpha, inst);
	return for_parent(
		child_search(s, algo, ply + 1, depth, same_side_type(type), alpha, beta, inst),
		false);
}

/* The move of search.h's cutoff_search_move, given the node's state and its children's
 * slot (here, child_state: worked out once by the loop, not at every move). Its body is
 * inlined into the serial move loop, so that the loop's recursion is one call a node
 * instead of two (a call's prologue, epilogue and ten arguments cost more per node than
 * the move itself). `played`: the move's child is in child_state already, unextended
 * (etc_body played the eldest). */
static inline __attribute__((always_inline)) int32_t
search_move(cutoff_searcher_t *s, cutoff_algo_t algo, int ply, const void *here, void *child_state,
            int depth, cutoff_node_type_t type, cutoff_move_t move, int index, int32_t hint,
            int32_t a, int32_t beta, bool played, const cutoff_instance_t inst)
{
	const bool plain = inst != CUTOFF_INSTANCE_ANY;
	int32_t v;
	int child_depth =
		played ? depth - 1 : descend(s, ply, here, child_state, depth, move, plain);
	const cutoff_node_type_t child = cutoff_child_type(type, index);
	const bool passes = turn_passes(s->game, here, child_state, plain);

	/* Late move reduction: a late quiet move of a null-window node is first searched
	 * shallower with a null window, and searched at full depth only if it beats alpha.
	 * Not in PV nodes (an open window): reducing there missed quiet sacrifices such as
	 * WAC.001's Qg6, and WAC as a whole solved fewer positions (docs/measurements.md,
	 * "(j) Figures behind the code's choices", LMR). */
	if (!plain && (s->pruning & CUTOFF_PRUNE_LMR) && index >= 3 && depth >= 3 && hint <= 0 &&
	    beta - a == 1 && !s->in_check[ply] && child_depth == depth - 1) {
		int r = index >= 8 && depth >= 6 ? 2 : 1;
		s->count.reductions++;
		v = child_for_parent(s, algo, ply, child_depth - r, child, a, a + 1, passes, inst);
		if (cutoff_search_halted(s) || v <= a)
			return v;
		s->count.reduction_researches++;
	}
	if (algo != CUTOFF_ALGO_PVS || index == 0)
		return child_for_parent(s, algo, ply, child_depth, child, a, beta, passes, inst);
	v = child_for_parent(s, algo, ply, child_depth, child, a, a + 1, passes, inst);
	if (v > a && v < beta && !cutoff_search_halted(s)) {
		/* The probe proved v is a lower bound inside the window: find the exact
		 * value. The child's state is still on the stack. */
		s->count.researches++;
		v = child_for_parent(s, algo, ply, child_depth, CUTOFF_NODE_PV, a, beta, passes,
		                     inst);
	}
	return v;
}

int32_t cutoff_search_move(cutoff_searcher_t *s, cutoff_algo_t algo, int ply, int depth,
                           cutoff_node_type_t type, cutoff_move_t move, int index, int32_t hint,
                           int32_t a, int32_t beta)
{
	const void *here = state_at(s, ply);
	void *child = state_at(s, ply + 1);
	switch (s->instance) {
	case CUTOFF_INSTANCE_BARE:
		return search_move(s, algo, ply, here, child, depth, type, move, index, hint, a,
		                   beta, false, CUTOFF_INSTANCE_BARE);
	case CUTOFF_INSTANCE_LEAN:
		return search_move(s, algo, ply, here, child, depth, type, move, index, hint, a,
		                   beta, false, CUTOFF_INSTANCE_LEAN);
	case CUTOFF_INSTANCE_HOOK:
		return search_move(s, algo, ply, here, child, depth, type, move, index, hint, a,
		                   beta, false, CUTOFF_INSTANCE_HOOK);
	default:
		return search_move(s, algo, ply, here, child, depth, type, move, index, hint, a,
		                   beta, false, CUTOFF_INSTANCE_ANY);
	}
}

/*
 * Null-move pruning (config.pruning): at a null-window node with depth to spare, not in
 * check and not right after another null move, whose static value already reaches beta,
 * let the opponent move twice; if a reduced search still fails high, so would the node.
 * True with *value when it cuts off, or when the search was halted (*value HALTED). Wins
 * are not claimed from a null move.
 */
static bool null_move_cuts(cutoff_searcher_t *s, cutoff_algo_t algo, int ply, int depth,
                           cutoff_node_type_t type, int32_t alpha, int32_t beta, int32_t *value)
{
	const cutoff_game_t *g = s->game;
	const void *st = state_at(s, ply);
	if (!(s->pruning & CUTOFF_PRUNE_NULL_MOVE) || !g->play_null || ply == 0 ||
	    beta - alpha != 1 || depth < 3 || s->in_check[ply] || s->null_move[ply] ||
	    beta >= CUTOFF_WIN_MIN || beta <= -CUTOFF_WIN_MIN || g->evaluate(g->ctx, st) < beta)
		return false;
	if (!g->play_null(g->ctx, st, state_at(s, ply + 1)))
		return false;
	s->null_move[ply + 1] = true;
	int r = depth >= 7 ? 3 : 2;
	int32_t v = child_for_parent(
		s, algo, ply, depth - 1 - r, cutoff_child_type(type, 1), beta - 1, beta,
		turn_passes(g, st, state_at(s, ply + 1), false), CUTOFF_INSTANCE_ANY);
	if (v < beta)
		return false;
	if (cutoff_search_halted(s)) {
		*value = HALTED;
		return true;
	}
	s->count.null_cutoffs++;
	s->horizon++; /* speculative: the value holds for the reduced search only */
	*value = v >= CUTOFF_WIN_MIN ? beta : v;
	return true;
}

/*
 * The body of fail-soft alpha-beta and of PVS (they differ only in how a move after the
 * first is searched, cutoff_search_move). Once the eldest move is searched and has not cut
 * off, a parallel driver may take over the younger moves (the searcher's hook,
 * cutoff_younger_fn: to search them with other threads, or in another order), and hands
 * back the best value, move and PV.
 *
 * Long: the node's steps in the order of the contract's proof (docs/contract.md), the
 * hand-off to a driver in place; its pieces share a dozen locals, and it is inlined into
 * seven instances (search_node and the six plain ones, above) where a
 * call costs per node.
 */
static inline __attribute__((always_inline)) int32_t
node_body(cutoff_searcher_t *s, cutoff_algo_t algo, int ply, int depth, cutoff_node_type_t type,
          int32_t alpha, int32_t beta, const cutoff_instance_t inst)
{
	const bool plain = inst != CUTOFF_INSTANCE_ANY;
	const cutoff_game_t *g = s->game;
	int32_t v;
	uint64_t key = 0;
	cutoff_move_t tt_move = CUTOFF_MOVE_NONE;
	const uint64_t horizon = s->horizon;
	const void *here = state_at(s, ply);
	void *child = state_at(s, ply + 1);
	if (node_start(s, ply, here, depth, type, alpha, beta, &v, plain))
		return v;
	if (g->bounds && ply > 0 && out_of_bounds(s, here, alpha, beta, &v))
		return v;
	/* A lean search has a table; a bare one has none. */
	const bool use_tt =
		inst != CUTOFF_INSTANCE_BARE &&
		(inst == CUTOFF_INSTANCE_LEAN || inst == CUTOFF_INSTANCE_HOOK || s->tt) &&
		depth >= s->tt_min_depth;
	/* Only a hooked instance, or any, has a driver's hook. */
	const bool hooked = inst == CUTOFF_INSTANCE_ANY || inst == CUTOFF_INSTANCE_HOOK;
	if (use_tt) {
		key = !plain && g->reversible ? s->keys[s->played_length + ply]
		                              : g->key(g->ctx, here);
		if (tt_lookup(s, ply, depth, alpha, beta, key, &v, &tt_move))
			return v;
	}
	if (!plain) {
		s->in_check[ply] = g->in_check && (s->pruning || s->check_extension) &&
		                   g->in_check(g->ctx, here);
		if (null_move_cuts(s, algo, ply, depth, type, alpha, beta, &v))
			return v;
	}
	int32_t *h = wants_hints(s) ? hints_at(s, ply) : NULL;
	cutoff_move_t *m = moves_at(s, ply);
	int n = generate(s, ply, here, m, tt_move, h);
	if (n == 0)
		return HALTED; /* the game broke its contract */
	int32_t best = -CUTOFF_INF, a = alpha;
	cutoff_move_t best_move = m[0];
	bool eldest_played = false; /* the eldest child is in the child slot already (etc_body) */
	if (depth >= s->etc_min_depth && use_tt && ply > 0 &&
	    (plain ? etc_cuts_plain(s, ply, depth, beta, here, child, m, n, &best, &best_move,
	                            &eldest_played)
	           : etc_cuts_any(s, ply, depth, beta, here, child, m, n, &best, &best_move,
	                          &eldest_played))) {
		if (best == HALTED) /* a terminal child's value broke the contract */
			return HALTED;
		goto cut;
	}
	const uint64_t loop_nodes = s->count.nodes;
	for (int i = 0; i < n; i++) {
		if (hooked && i == s->younger_from && s->younger && depth >= s->younger_depth) {
			cutoff_younger_t out;
			const cutoff_node_t node = {
				.algo = algo,
				.ply = ply,
				.depth = depth,
				.type = type,
				.alpha = a,
				.beta = beta,
				.best = best,
				.best_move = best_move,
				.moves = m,
				.hints = h,
				.n = n,
				.from = i,
				.key = use_tt ? key : g->key(g->ctx, here),
				.searched = s->count.nodes - loop_nodes,
			};
			if (s->younger(s, &node, &out)) {
				if (cutoff_search_halted(s))
					return HALTED;
				best = out.best;
				best_move = out.best_move;
				if (out.cut) {
					count_cutoff(s, ply, depth, type, out.cut_index, best_move);
					goto cut;
				}
				break;
			}
		}
		v = search_move(s, algo, ply, here, child, depth, type, m[i], i, h ? h[i] : 0, a,
		                beta, i == 0 && eldest_played, inst);
		if (v > best) {
			if (v >= beta && cutoff_search_halted(s)) /* v is HALTED's negation */
				return HALTED;
			best = v;
			best_move = m[i];
			pv_update(s, ply, m[i]);
			if (v >= beta) {
				count_cutoff(s, ply, depth, type, i, m[i]);
				goto cut;
			}
			if (v > a)
				a = v;
		}
	}
	if (CUTOFF_PROFILING)
		s->uncut[type]++;
cut:
	if (use_tt)
		tt_record(s, ply, depth, alpha, beta, key, best, best_move, horizon);
	return best;
}

static int32_t search_node(cutoff_searcher_t *s, cutoff_algo_t algo, int ply, int depth,
                           cutoff_node_type_t type, int32_t alpha, int32_t beta)
{
	return node_body(s, algo, ply, depth, type, alpha, beta, CUTOFF_INSTANCE_ANY);
}

/* A bare or lean search's node at the horizon (no depth left), a leaf: node_body's first
 * steps, which end it before the table, in a function of their own, whose frame is a
 * fraction of the whole node's; most of a depth-limited search's nodes are these. The
 * window matters only to quiescence, which a bare or lean search has not. */
static int32_t bare_horizon(cutoff_searcher_t *s, int ply, cutoff_node_type_t type)
{
	int32_t v;
	/* at depth 0: true */
	node_start(s, ply, state_at(s, ply), 0, type, -CUTOFF_INF, CUTOFF_INF, &v, true);
	return v;
}

static int32_t bare_alphabeta(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                              int32_t alpha, int32_t beta)
{
	return node_body(s, CUTOFF_ALGO_ALPHABETA, ply, depth, type, alpha, beta,
	                 CUTOFF_INSTANCE_BARE);
}

static int32_t bare_pvs(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                        int32_t alpha, int32_t beta)
{
	return node_body(s, CUTOFF_ALGO_PVS, ply, depth, type, alpha, beta, CUTOFF_INSTANCE_BARE);
}

static int32_t lean_alphabeta(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                              int32_t alpha, int32_t beta)
{
	return node_body(s, CUTOFF_ALGO_ALPHABETA, ply, depth, type, alpha, beta,
	                 CUTOFF_INSTANCE_LEAN);
}

static int32_t lean_pvs(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                        int32_t alpha, int32_t beta)
{
	return node_body(s, CUTOFF_ALGO_PVS, ply, depth, type, alpha, beta, CUTOFF_INSTANCE_LEAN);
}

static int32_t hook_alphabeta(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                              int32_t alpha, int32_t beta)
{
	return node_body(s, CUTOFF_ALGO_ALPHABETA, ply, depth, type, alpha, beta,
	                 CUTOFF_INSTANCE_HOOK);
}

static int32_t hook_pvs(cutoff_searcher_t *s, int ply, int depth, cutoff_node_type_t type,
                        int32_t alpha, int32_t beta)
{
	return node_body(s, CUTOFF_ALGO_PVS, ply, depth, type, alpha, beta, CUTOFF_INSTANCE_HOOK);
}

/* Fail-soft alpha-beta. */
static int32_t alphabeta(cutoff_searcher_t *s, int ply, int depth, int32_t alpha, int32_t beta)
{
	return child_search(s, CUTOFF_ALGO_ALPHABETA, ply, depth, CUTOFF_NODE_PV, alpha, beta,
	                    s->instance);
}

/* Principal variation search: the first move with the full window, the others with a
 * null window at the best value so far, searched again when they land inside. */
static int32_t pvs(cutoff_searcher_t *s, int ply, int depth, int32_t alpha, int32_t beta)
{
	return child_search(s, CUTOFF_ALGO_PVS, ply, depth, CUTOFF_NODE_PV, alpha, beta,
	                    s->instance);
}

/*
 * MTD(f): null-window alpha-beta passes that move a lower and an upper bound on the root
 * value towards each other, starting at `guess`, until they meet — or until one of them
 * settles the root window, which keeps the contract for any (alpha, beta). The best move is
 * the one of the last pass that failed high (it proved the lower bound); the table, which
 * keeps both bounds of a node, spares each pass most of the work of the one before.
 */
static bool mtdf(cutoff_searcher_t *s, int depth, int32_t alpha, int32_t beta, int32_t guess,
                 int32_t *value, cutoff_bound_t *bound)
{
	int32_t lower = -CUTOFF_INF, upper = CUTOFF_INF;
	int32_t g = guess;
	cutoff_move_t root_pv[CUTOFF_PLY_LIMIT];
	int root_pv_length = 0;

	if (g <= -CUTOFF_INF)
		g = -CUTOFF_INF + 1;
	if (g >= CUTOFF_INF)
		g = CUTOFF_INF - 1;
	while (lower < upper) {
		int32_t b = g == lower ? g + 1 : g;
		s->count.mtdf_passes++;
		g = alphabeta(s, 0, depth, b - 1, b);
		if (cutoff_search_halted(s))
			return false;
		if (g < b) {
			upper = g;
		} else {
			lower = g;
			root_pv_length = s->pv_length[0];
			memcpy(root_pv, cutoff_searcher_pv(s, 0),
			       (size_t)root_pv_length * sizeof(cutoff_move_t));
		}
		if (lower == upper)
			break;
		if (upper <= alpha) {
			*value = upper;
			*bound = CUTOFF_BOUND_UPPER;
			goto found;
		}
		if (lower >= beta) {
			*value = lower;
			*bound = CUTOFF_BOUND_LOWER;
			goto found;
		}
	}
	*value = lower;
	*bound = lower <= alpha  ? CUTOFF_BOUND_UPPER
	         : lower >= beta ? CUTOFF_BOUND_LOWER
	                         : CUTOFF_BOUND_EXACT;
found:
	if (root_pv_length > 0) {
		s->pv_length[0] = root_pv_length;
		memcpy(cutoff_searcher_pv(s, 0), root_pv,
		       (size_t)root_pv_length * sizeof(cutoff_move_t));
	}
	return true;
}

bool cutoff_search_root(cutoff_searcher_t *s, cutoff_algo_t algo, int depth, int32_t alpha,
                        int32_t beta, int32_t guess, int32_t *value, cutoff_bound_t *bound)
{
	int32_t v;
	switch (algo) {
	case CUTOFF_ALGO_MINIMAX:
		v = negamax(s, 0, depth);
		*value = v;
		*bound = CUTOFF_BOUND_EXACT;
		return !cutoff_search_halted(s);
	case CUTOFF_ALGO_MTDF:
		return mtdf(s, depth, alpha, beta, guess, value, bound);
	case CUTOFF_ALGO_ALPHABETA:
		v = alphabeta(s, 0, depth, alpha, beta);
		break;
	case CUTOFF_ALGO_PVS:
	default:
		v = pvs(s, 0, depth, alpha, beta);
		break;
	}
	if (cutoff_search_halted(s))
		return false;
	*value = v;
	*bound = v <= alpha  ? CUTOFF_BOUND_UPPER
	         : v >= beta ? CUTOFF_BOUND_LOWER
	                     : CUTOFF_BOUND_EXACT;
	return true;
}

/*
 * The principal variation of a solved root made a proof line (cutoff_search_prove_pv). A
 * PV is the line of best moves the search met, and a null-window search (MTD(f)'s passes,
 * PVS's probes) writes at a node that failed low the move of its highest upper bound, not
 * a move that reaches the node's value: such a line's first move is right and a later one
 * may not be. Here each move of the line is proved instead: at ply p, where the side to
 * move can reach `want` (the root's value seen from that side, exactly: it is the node's
 * value), a move whose child, searched with the null window (want - 1, want) from the
 * parent's side, comes back at least `want` reaches exactly `want`; the line's own move is
 * tried first, then the node's others in the order of the search, each search answered
 * mostly by the table the solve filled. A search that meets the horizon (s->horizon moves)
 * proves nothing. The line ends at a terminal position, at a repetition of a position on
 * it, at the ply limit, or where no move is proved (a limit or a stop halted the proof, or
 * the subtree could not be searched to the end): only the proved prefix is kept.
 *
 * Runs on searcher 0 after the threads' search is over, on the caller's thread: the
 * driver's hook is off meanwhile (no other thread takes part), and the searcher's counters
 * are kept as the search left them (the proof's nodes are returned apart).
 */
static bool prove_move(cutoff_searcher_t *s, int ply, cutoff_move_t move, int32_t want,
                       int32_t *next)
{
	const void *here = state_at(s, ply);
	void *child = state_at(s, ply + 1);
	uint64_t horizon = s->horizon;
	int32_t v =
		search_move(s, CUTOFF_ALGO_ALPHABETA, ply, here, child, s->max_ply - 1 - ply,
	                    CUTOFF_NODE_PV, move, 0, 0, want - 1, want, false, CUTOFF_INSTANCE_ANY);
	if (cutoff_search_halted(s) || s->horizon != horizon || v < want)
		return false;
	/* search_move left the child in its slot: the next ply's position */
	*next = turn_passes(s->game, here, child, false) ? -want : want;
	return true;
}

static bool on_line(const cutoff_searcher_t *s, int ply, uint64_t key, int step)
{
	for (int q = ply - step; q >= 0; q -= step)
		if (s->keys[s->played_length + q] == key)
			return true;
	return false;
}

int cutoff_search_prove_pv(cutoff_searcher_t *s, int32_t value, cutoff_move_t *pv, int length,
                           uint64_t *nodes)
{
	const cutoff_game_t *g = s->game;
	const cutoff_counters_t count = s->count;
	const cutoff_younger_fn younger = s->younger;
	const cutoff_instance_t instance = s->instance;
	int32_t want = value;
	int p = 0;
	s->younger = NULL;
	s->aborted = false;
	s->above = NULL;
	s->poll = 1;
	s->polled_nodes = s->count.nodes;
	for (; p < s->max_ply - 2; p++) {
		const void *here = state_at(s, p);
		int32_t v;
		if (g->terminal(g->ctx, here, &v))
			break;
		uint64_t key = g->key(g->ctx, here);
		if (on_line(s, p, key, s->rep_step))
			break; /* a cycle: no proof goes round it */
		s->keys[s->played_length + p] = key;
		s->rep_floor[p] = 0;
		s->null_move[p] = false;
		s->in_check[p] = false;
		cutoff_move_t *m = moves_at(s, p);
		int n = g->gen_moves(g->ctx, here, m, NULL);
		if ((unsigned)n - 1u >= (unsigned)g->max_moves)
			break;
		cutoff_move_t first = p < length ? pv[p] : CUTOFF_MOVE_NONE;
		int32_t next = 0;
		bool proved = false;
		for (int i = -1; i < n && !proved; i++) {
			cutoff_move_t move = i < 0 ? first : m[i];
			if (move == CUTOFF_MOVE_NONE || (i >= 0 && move == first))
				continue;
			if (i < 0) { /* the line's own move, only when it is a move here */
				int k = 0;
				while (k < n && m[k] != first)
					k++;
				if (k == n)
					continue;
			}
			proved = prove_move(s, p, move, want, &next);
			if (proved)
				pv[p] = move;
			/* the moves' list at ply p is the node's own: the child's search
			 * generated its moves one ply down, so m[] is intact */
		}
		if (!proved)
			break;
		want = next;
	}
	*nodes = s->count.nodes - count.nodes;
	s->count = count;
	s->younger = younger;
	s->instance = instance;
	return p;
}
