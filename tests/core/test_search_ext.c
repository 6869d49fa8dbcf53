/* SPDX-License-Identifier: MIT */
/*
 * The search beyond the plain fixed-depth tree: quiescence and repetitions (exact, each
 * against an oracle of the same definition written here), and the speculative pruning
 * (null move, late move reductions), tested apart from the exact core: on, it must still
 * complete, name legal moves, repeat itself, and read fewer nodes; off, it must change
 * nothing. And the game's bounds hook, against the true values.
 *
 * cutoff-test-labels: concurrent
 */
#include <stdlib.h>
#include <string.h>

#include "base/topo.h"
#include "check.h"
#include "cutoff_games.h"
#include "random.h"

static void *topology;
static uint64_t rng = 99;

static uint64_t rnd(void) { return splitmix64(&rng); }
static int rnd_int(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

/* The quiescence oracle: negamax to `depth`, then stand pat or a noisy move, recursively,
 * with nothing cut. */
static int32_t oracle_q(const cutoff_game_t *g, const cutoff_rtree_state_t *st, int depth)
{
	int32_t v;
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	cutoff_rtree_state_t child;
	if (g->terminal(g->ctx, st, &v))
		return v;
	int n;
	int32_t best;
	if (depth <= 0) {
		best = g->evaluate(g->ctx, st);
		n = g->gen_noisy(g->ctx, st, moves, NULL);
	} else {
		best = -CUTOFF_INF;
		n = g->gen_moves(g->ctx, st, moves, NULL);
	}
	for (int i = 0; i < n; i++) {
		g->play(g->ctx, st, moves[i], &child);
		int32_t c = -oracle_q(g, &child, depth - 1);
		if (c > best)
			best = c;
	}
	return best;
}

static cutoff_engine_t *make(const cutoff_game_t *g, cutoff_driver_t driver, int threads,
                             cutoff_algo_t algo, size_t mb, unsigned pruning)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = driver;
	cfg.threads = threads;
	cfg.algo = algo;
	cfg.tt_mb = mb;
	cfg.pruning = pruning;
	cfg.topology = topology;
	cfg.ybw_min_split_depth = 2;
	cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
	cfg.dts_min_split_nodes = 1;
	return cutoff_engine_new(g, &cfg, NULL);
}

static void quiescence(void)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 4;
	p.depth = 9;
	p.model = CUTOFF_RTREE_INCREMENTAL;
	p.value_min = -20;
	p.value_max = 20;
	p.noisy_step = 10;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	int cases = 0, violations = 0, qnodes = 0;
	static const cutoff_driver_t drivers[] = { CUTOFF_DRIVER_SERIAL, CUTOFF_DRIVER_YBW,
		                                   CUTOFF_DRIVER_LAZYSMP };
	for (int d = 0; d < 3; d++)
		for (int algo = CUTOFF_ALGO_MINIMAX; algo <= CUTOFF_ALGO_MTDF; algo++)
			for (int mb = 0; mb <= 1; mb++) {
				int threads = drivers[d] == CUTOFF_DRIVER_SERIAL ? 1 : 3;
				cutoff_engine_t *e = make(g, drivers[d], threads,
				                          (cutoff_algo_t)algo, (size_t)mb, 0);
				for (int k = 0; k < 40; k++) {
					cutoff_rtree_state_t root;
					cutoff_rtree_root(tree, rnd(), &root);
					cutoff_limits_t lim;
					cutoff_limits_default(&lim);
					lim.depth = rnd_int(1, 5);
					lim.iterate = rnd_int(0, 1);
					if (drivers[d] == CUTOFF_DRIVER_SERIAL &&
					    rnd_int(0, 2) > 0) {
						lim.alpha = rnd_int(-60, 40);
						lim.beta = lim.alpha + rnd_int(1, 40);
					}
					cutoff_result_t r;
					cutoff_engine_clear(e);
					int rc = cutoff_engine_search(e, &root, &lim, &r, NULL,
					                              NULL);
					int32_t V = oracle_q(g, &root, lim.depth), v = r.value;
					bool ok = rc == 0 && (v > lim.alpha && v < lim.beta ? V == v
					                      : v <= lim.alpha              ? V <= v
					                                       : V >= v);
					cases++;
					qnodes += r.counters.qnodes > 0;
					if (!ok && ++violations <= 5)
						printf("  driver %d algo %d table %d depth %d "
						       "window (%d,%d): %d, "
						       "oracle %d\n",
						       drivers[d], algo, mb, lim.depth,
						       (int)lim.alpha, (int)lim.beta, (int)v,
						       (int)V);
				}
				cutoff_engine_free(e);
			}
	printf("quiescence: %d cases, %d violations, %d with quiescence nodes\n", cases, violations,
	       qnodes);
	CHECK(violations == 0, "quiescence keeps the contract against its oracle, every driver");
	CHECK(qnodes > cases / 2, "quiescence was exercised");
	cutoff_rtree_free(tree);
}

/*
 * A game with cycles, for repetitions: a token on a ring of RING squares; a move takes it
 * 1 or 2 squares on, or ends the game ("stop") scoring the square's value for the mover.
 * Nothing is irreversible, so any position met again on the path is a draw (0).
 */
enum {
	RING = 7
};
typedef struct ring_state {
	int pos, side;
} ring_state_t;

static const int32_t ring_value[RING] = { 3, -5, 2, -1, 4, -2, 1 };

static int ring_gen(const void *ctx, const void *st, cutoff_move_t *m, int32_t *h)
{
	(void)ctx;
	(void)st;
	for (int i = 0; i < 3; i++) {
		m[i] = (cutoff_move_t)i;
		if (h)
			h[i] = 0;
	}
	return 3;
}

static void ring_play(const void *ctx, const void *st, cutoff_move_t m, void *child)
{
	(void)ctx;
	const ring_state_t *s = st;
	ring_state_t *c = child;
	c->side = 1 - s->side;
	c->pos = m == 0 ? -1 - s->pos : (s->pos + (int)m) % RING; /* negative: stopped there */
}

static bool ring_terminal(const void *ctx, const void *st, int32_t *v)
{
	(void)ctx;
	const ring_state_t *s = st;
	if (s->pos >= 0)
		return false;
	*v = -ring_value[-1 - s->pos]; /* the value went to the player who stopped */
	return true;
}

/* Not 0, so that a repetition (0) and the horizon differ. */
static int32_t ring_eval(const void *ctx, const void *st)
{
	(void)ctx;
	const ring_state_t *s = st;
	return s->pos * 5 % RING - 3;
}

static uint64_t ring_key(const void *ctx, const void *st)
{
	(void)ctx;
	const ring_state_t *s = st;
	return (uint64_t)(s->pos + 100) * 2 + (uint64_t)s->side + 1;
}

static int ring_reversible(const void *ctx, const void *st)
{
	(void)ctx;
	(void)st;
	return 1000;
}

/* The repetition oracle: negamax over the path, a repeated position (same side to move)
 * scoring 0. */
static int32_t oracle_ring(const cutoff_game_t *g, const ring_state_t *st, int depth,
                           uint64_t *path, int n)
{
	int32_t v;
	if (g->terminal(g->ctx, st, &v))
		return v;
	uint64_t k = g->key(g->ctx, st);
	for (int i = n - 2; i >= 0; i -= 2)
		if (path[i] == k)
			return 0;
	if (depth == 0)
		return g->evaluate(g->ctx, st);
	path[n] = k;
	int32_t best = -CUTOFF_INF;
	for (cutoff_move_t m = 0; m < 3; m++) {
		ring_state_t c;
		g->play(g->ctx, st, m, &c);
		int32_t x = -oracle_ring(g, &c, depth - 1, path, n + 1);
		if (x > best)
			best = x;
	}
	return best;
}

static void repetitions(void)
{
	cutoff_game_t g = {
		.name = "ring",
		.state_size = sizeof(ring_state_t),
		.max_moves = 3,
		.gen_moves = ring_gen,
		.play = ring_play,
		.evaluate = ring_eval,
		.terminal = ring_terminal,
		.key = ring_key,
		.reversible = ring_reversible,
	};
	int wrong = 0, runs = 0;
	uint64_t reps = 0;
	for (int algo = CUTOFF_ALGO_MINIMAX; algo <= CUTOFF_ALGO_PVS; algo++)
		for (int threads = 1; threads <= 4; threads += 3) {
			cutoff_engine_t *e =
				make(&g, threads > 1 ? CUTOFF_DRIVER_YBW : CUTOFF_DRIVER_SERIAL,
			             threads, (cutoff_algo_t)algo, 0, 0);
			for (int pos = 0; pos < RING; pos++)
				for (int depth = 1; depth <= 12; depth++) {
					ring_state_t root = { pos, 0 };
					uint64_t path[64];
					/* played before the root: another square, same side to
					 * move, two plies before the root, which the search may
					 * reach again */
					ring_state_t before = { (pos + 3) % RING, 0 };
					uint64_t played[2] = { ring_key(NULL, &before), 7777 };
					cutoff_limits_t lim;
					cutoff_limits_default(&lim);
					lim.depth = depth;
					lim.played = depth % 2 ? played : NULL;
					lim.played_length = depth % 2 ? 2 : 0;
					path[0] = played[0];
					path[1] = played[1];
					int base = depth % 2 ? 2 : 0;
					cutoff_result_t r;
					int rc = cutoff_engine_search(e, &root, &lim, &r, NULL,
					                              NULL);
					int32_t V = -CUTOFF_INF;
					path[base] = ring_key(NULL, &root);
					for (cutoff_move_t m = 0; m < 3; m++) {
						ring_state_t c;
						ring_play(NULL, &root, m, &c);
						int32_t x = -oracle_ring(&g, &c, depth - 1, path,
						                         base + 1);
						if (x > V)
							V = x;
					}
					runs++;
					reps += r.counters.repetitions;
					if (rc != 0 || r.value != V) {
						if (++wrong <= 5)
							printf("  algo %d threads %d pos %d depth "
							       "%d: %d, oracle %d\n",
							       algo, threads, pos, depth,
							       (int)r.value, (int)V);
					}
				}
			cutoff_engine_free(e);
		}
	printf("repetitions: %d searches, %d wrong, %llu repetitions scored\n", runs, wrong,
	       (unsigned long long)reps);
	CHECK(wrong == 0 && reps > 0,
	      "repetitions over the path and the played positions score as draws");
}

/* Null move and LMR: on, every search completes with a legal move, repeats itself on a
 * cleared engine, and reads fewer nodes than without; off, nothing changes. */
static void pruning(void)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 8;
	p.depth = 9;
	p.model = CUTOFF_RTREE_INCREMENTAL;
	p.null_moves = true;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	cutoff_engine_t *plain = make(g, CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_PVS, 16, 0);
	cutoff_engine_t *pruned =
		make(g, CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_PVS, 16, CUTOFF_PRUNE_ALL);
	uint64_t nodes_plain = 0, nodes_pruned = 0, nulls = 0, reductions = 0;
	int bad = 0;
	for (int k = 0; k < 6; k++) {
		cutoff_rtree_state_t root;
		cutoff_rtree_root(tree, (uint64_t)k + 1, &root);
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = 8;
		lim.iterate = true;
		cutoff_result_t a, b, c;
		cutoff_engine_clear(plain);
		cutoff_engine_clear(pruned);
		bad += cutoff_engine_search(plain, &root, &lim, &a, NULL, NULL) != 0;
		bad += cutoff_engine_search(pruned, &root, &lim, &b, NULL, NULL) != 0;
		cutoff_engine_clear(pruned);
		bad += cutoff_engine_search(pruned, &root, &lim, &c, NULL, NULL) != 0;
		bad += b.best_move >= (cutoff_move_t)p.branching;
		bad += b.value != c.value || b.counters.nodes != c.counters.nodes;
		bad += a.counters.null_cutoffs != 0 || a.counters.reductions != 0;
		nodes_plain += a.counters.nodes;
		nodes_pruned += b.counters.nodes;
		nulls += b.counters.null_cutoffs;
		reductions += b.counters.reductions;
	}
	printf("pruning: %llu nodes without, %llu with (%llu null-move cut-offs, %llu "
	       "reductions)\n",
	       (unsigned long long)nodes_plain, (unsigned long long)nodes_pruned,
	       (unsigned long long)nulls, (unsigned long long)reductions);
	CHECK(bad == 0, "pruned searches complete, repeat themselves, name legal moves");
	CHECK(nulls > 0 && reductions > 0 && nodes_pruned < nodes_plain,
	      "null move and LMR fire and save nodes");
	cutoff_engine_free(plain);
	cutoff_engine_free(pruned);
	cutoff_rtree_free(tree);
}

/* The bounds hook of a random tree searched to its leaves: its true value (to the
 * leaves, cutoff_rtree_value) widened by a slack of 0..3 that the node's hash draws, so
 * that some windows lie outside the range and most do not. */
static void tree_bounds(const void *ctx, const void *state, int32_t *lower, int32_t *upper)
{
	const cutoff_rtree_state_t *st = state;
	int32_t v = cutoff_rtree_value(ctx, st);
	*lower = v - (int32_t)(st->hash & 3);
	*upper = v + (int32_t)(st->hash >> 2 & 3);
}

/*
 * The bounds hook keeps the contract: random trees searched to their leaves with random
 * windows, by every driver and algorithm, with and without the table, against the true
 * value; the hook settles some nodes (bound_cutoffs) and never the root.
 */
static void bounds(void)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 4;
	p.depth = 7;
	p.value_min = -20;
	p.value_max = 20;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	cutoff_game_t g = *cutoff_rtree_game(tree);
	g.bounds = tree_bounds;
	int cases = 0, violations = 0, no_move = 0;
	uint64_t settled = 0;
	static const cutoff_driver_t drivers[] = { CUTOFF_DRIVER_SERIAL, CUTOFF_DRIVER_YBW,
		                                   CUTOFF_DRIVER_LAZYSMP, CUTOFF_DRIVER_ABDADA };
	for (int d = 0; d < 4; d++)
		for (int algo = CUTOFF_ALGO_ALPHABETA; algo <= CUTOFF_ALGO_MTDF; algo++)
			for (int mb = 0; mb <= 1; mb++) {
				int threads = drivers[d] == CUTOFF_DRIVER_SERIAL ? 1 : 3;
				cutoff_engine_t *e = make(&g, drivers[d], threads,
				                          (cutoff_algo_t)algo, (size_t)mb, 0);
				for (int k = 0; k < 30; k++) {
					cutoff_rtree_state_t root;
					cutoff_rtree_root(tree, rnd(), &root);
					cutoff_limits_t lim;
					cutoff_limits_default(&lim);
					lim.depth = p.depth;
					lim.iterate = rnd_int(0, 1);
					lim.alpha = rnd_int(-60, 40);
					lim.beta = lim.alpha + rnd_int(1, 40);
					cutoff_result_t r;
					int rc = cutoff_engine_search(e, &root, &lim, &r, NULL,
					                              NULL);
					int32_t truth = cutoff_rtree_value(tree, &root);
					int32_t v = r.value;
					bool ok = rc == 0 && (v <= lim.alpha  ? truth <= v
					                      : v >= lim.beta ? truth >= v
					                                      : truth == v);
					violations += !ok;
					no_move += rc == 0 && r.best_move == CUTOFF_MOVE_NONE;
					settled += r.counters.bound_cutoffs;
					cases++;
				}
				cutoff_engine_free(e);
			}
	CHECK(violations == 0, "bounds hook: %d of %d searches broke the contract", violations,
	      cases);
	CHECK(no_move == 0, "bounds hook: %d searches named no move", no_move);
	CHECK(settled > 0, "bounds hook: no node was settled by the range");
	printf("bounds hook: %d searches, %llu nodes settled by the range\n", cases,
	       (unsigned long long)settled);
	cutoff_rtree_free(tree);
}

int main(void)
{
	cutoff_topology_load(&topology);
	quiescence();
	repetitions();
	pruning();
	bounds();
	cutoff_topology_free(topology);
	return check_report();
}
