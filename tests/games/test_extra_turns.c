/* SPDX-License-Identifier: MIT */
/*
 * Games where a player may move again (the game's side hook, cutoff.h): the bank game of
 * extra_turns.h, where taking a cell of even value keeps the turn, searched against its
 * brute-force oracle.
 *
 * 1. The contract. Random cases: 4 to 9 cells, plain scores or wins by distance, with
 *    quiescence (gen_noisy) or without, a position a few random moves in, a search depth
 *    from 1 to past the end, a random window (full, null, narrow, open on either side),
 *    iterative deepening (with narrow aspiration windows) or one search; every algorithm,
 *    without a table and with one (cleared per case). For the value v and the oracle's V:
 *    alpha < v < beta => V == v, v <= alpha => V <= v, v >= beta => V >= v, the bound saying
 *    which; an exact value's best move must reach it.
 * 2. Exactness of every driver at 1, 2, 3, 4, 8, 16 and 64 real threads (more than this
 *    machine's CPUs: oversubscribed), YBW and ABDADA splitting and marking from 2 plies:
 *    depth-limited searches of 10 cells and solves of 9 (to the end, `solved`), every
 *    algorithm but minimax; the value must be the oracle's and the best move reach it.
 * 3. Repetitions with extra turns: a walk on a ring of 5 cells (a move steps 1 or 2 on;
 *    landing on an even cell keeps the turn; every move reversible), where positions repeat
 *    at odd distances as well as even ones; without a table (its values would depend on the
 *    path), every algorithm at depths 1 to 9 against an oracle that scores a position
 *    already on the path a draw. Null-move pruning and late move reductions on the bank
 *    game (speculative: no oracle) must answer every search without a fault.
 * 4. A naive adapter fails: the same game without its side hook (every move passes the
 *    turn, which is what an author who forgot it gets) must disagree with the oracle on
 *    some position, so that the checks above can see a side that is not honoured.
 *
 * Usage: test_extra_turns [cases] [seed]
 * cutoff-test-labels: concurrent
 * cutoff-test-timeout: 900
 */
#include <stdlib.h>

#include "base/topo.h"
#include "check.h"
#include "extra_turns.h"

static void *topology;
static uint64_t rng_state;

static int rnd_int(int lo, int hi)
{
	return lo + (int)(splitmix64(&rng_state) % (uint64_t)(hi - lo + 1));
}

static void random_window(int32_t *alpha, int32_t *beta)
{
	int32_t a = rnd_int(-40, 40);
	switch (rnd_int(0, 4)) {
	case 0:
		*alpha = -CUTOFF_INF, *beta = CUTOFF_INF;
		return;
	case 1:
		*alpha = a, *beta = a + 1;
		return;
	case 2:
		*alpha = a, *beta = CUTOFF_INF;
		return;
	case 3:
		*alpha = -CUTOFF_INF, *beta = a;
		return;
	default:
		*alpha = a, *beta = a + rnd_int(2, 30);
		return;
	}
}

static const char *const algo_names[] = { "minimax", "alphabeta", "pvs", "mtdf" };

static cutoff_engine_t *engine(const cutoff_game_t *g, cutoff_driver_t driver, int threads,
                               cutoff_algo_t algo, size_t mb)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = driver;
	cfg.threads = threads;
	cfg.algo = algo;
	cfg.tt_mb = mb;
	cfg.topology = topology;
	cfg.ybw_min_split_depth = 2;
	cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
	cfg.dts_min_split_nodes = 1;
	cfg.abdada_min_depth = 2;
	cfg.etc_min_depth = 2; /* asked for; the side hook turns it off (cutoff.h) */
	int err = 0;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	CHECK(e != NULL, "engine %s x%d: %s", cutoff_driver_name(driver), threads,
	      cutoff_strerror(err));
	return e;
}

typedef struct tally {
	int cases, inside, low, high, violations, bounds, moves;
} tally_t;

/* One random case of the contract with `algo` and a table of `mb` MiB. */
static void contract_case(cutoff_algo_t algo, size_t mb, tally_t *t)
{
	bank_t b;
	bank_make(&b, rnd_int(4, 9), splitmix64(&rng_state), rnd_int(0, 1), rnd_int(0, 1) * 6);
	cutoff_game_t g = bank_game(&b);
	bank_state_t root = bank_walk(&b, splitmix64(&rng_state), rnd_int(0, 2));
	cutoff_engine_t *e = engine(&g, CUTOFF_DRIVER_SERIAL, 1, algo, mb);
	if (!e)
		return;
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = rnd_int(1, b.cells + 1);
	random_window(&lim.alpha, &lim.beta);
	lim.iterate = rnd_int(0, 1);
	cutoff_result_t r;
	int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
	int32_t truth = bank_negamax(&b, &root, lim.depth, 0, true);
	t->cases++;
	if (rc != 0) {
		t->violations++;
		printf("  %s: rc %d (%s)\n", algo_names[algo], rc, cutoff_engine_error(e));
		cutoff_engine_free(e);
		return;
	}
	int32_t v = r.value;
	bool ok = v <= lim.alpha ? truth <= v : v >= lim.beta ? truth >= v : truth == v;
	cutoff_bound_t want = v <= lim.alpha  ? CUTOFF_BOUND_UPPER
	                      : v >= lim.beta ? CUTOFF_BOUND_LOWER
	                                      : CUTOFF_BOUND_EXACT;
	t->inside += want == CUTOFF_BOUND_EXACT;
	t->low += want == CUTOFF_BOUND_UPPER;
	t->high += want == CUTOFF_BOUND_LOWER;
	if (!ok) {
		t->violations++;
		printf("  %s table %zu: %d cells, depth %d, window (%d, %d): value %d, oracle %d\n",
		       algo_names[algo], mb, b.cells, lim.depth, (int)lim.alpha, (int)lim.beta,
		       (int)v, (int)truth);
	}
	t->bounds += r.bound != want;
	if (ok && want == CUTOFF_BOUND_EXACT &&
	    bank_move_value(&b, &root, r.best_move, lim.depth, 0, true) != truth) {
		t->moves++;
		printf("  %s table %zu: the best move %u does not reach %d\n", algo_names[algo], mb,
		       (unsigned)r.best_move, (int)truth);
	}
	cutoff_engine_free(e);
}

static void contract(int cases)
{
	for (int algo = CUTOFF_ALGO_MINIMAX; algo <= CUTOFF_ALGO_MTDF; algo++)
		for (size_t mb = 0; mb <= 1; mb++) {
			if (algo == CUTOFF_ALGO_MINIMAX && mb)
				continue;
			tally_t t = { 0 };
			for (int i = 0; i < cases; i++)
				contract_case((cutoff_algo_t)algo, mb, &t);
			printf("%-9s table %s: %d cases (%d inside, %d low, %d high): %d "
			       "violations, "
			       "%d wrong bounds, %d wrong best moves\n",
			       algo_names[algo], mb ? "on " : "off", t.cases, t.inside, t.low,
			       t.high, t.violations, t.bounds, t.moves);
			CHECK(t.violations == 0 && t.bounds == 0 && t.moves == 0,
			      "%s table %zu: the contract holds with extra turns", algo_names[algo],
			      mb);
			CHECK(t.inside > 0 && t.low > 0 && t.high > 0,
			      "%s table %zu: every case of the contract was met", algo_names[algo],
			      mb);
		}
}

/* Every driver and thread count on the same exact searches. */
static void drivers(void)
{
	static const int counts[] = { 1, 2, 3, 4, 8, 16, 64 };
	enum {
		POSITIONS = 3
	};
	bank_t deep[POSITIONS], solve[POSITIONS];
	bank_state_t roots[POSITIONS], start = { 0, 0, 0 };
	int32_t deep_truth[POSITIONS], solve_truth[POSITIONS];
	for (int k = 0; k < POSITIONS; k++) {
		bank_make(&deep[k], 10, 700 + (uint64_t)k, false, k == 2 ? 7 : 0);
		roots[k] = bank_walk(&deep[k], 900 + (uint64_t)k, k);
		deep_truth[k] = bank_negamax(&deep[k], &roots[k], 6, 0, true);
		bank_make(&solve[k], 9, 800 + (uint64_t)k, k != 1, 0);
		solve_truth[k] = bank_negamax(&solve[k], &start, 10, 0, true);
	}
	int searches = 0, wrong = 0;
	for (int d = 0; d < cutoff_driver_count(); d++)
		for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
			for (int algo = CUTOFF_ALGO_ALPHABETA; algo <= CUTOFF_ALGO_MTDF; algo++)
				for (int k = 0; k < POSITIONS; k++)
					for (int mode = 0; mode < 2; mode++) {
						const bank_t *b = mode ? &solve[k] : &deep[k];
						cutoff_game_t g = bank_game(b);
						cutoff_engine_t *e =
							engine(&g, (cutoff_driver_t)d, counts[c],
						               (cutoff_algo_t)algo, 1);
						if (!e)
							continue;
						cutoff_limits_t lim;
						cutoff_limits_default(&lim);
						lim.depth = mode ? 0 : 6;
						lim.solve = mode;
						lim.iterate = k != 0;
						const bank_state_t *root =
							mode ? &start : &roots[k];
						cutoff_result_t r;
						int rc = cutoff_engine_search(e, root, &lim, &r,
						                              NULL, NULL);
						const char *why = bank_wrong(b, root, 6, mode,
						                             mode ? solve_truth[k]
						                                  : deep_truth[k],
						                             rc, &r);
						searches++;
						if (why) {
							wrong++;
							printf("  %s x%d %s position %d %s: %s "
							       "(value %d, "
							       "oracle %d)\n",
							       cutoff_driver_name(
								       (cutoff_driver_t)d),
							       counts[c], algo_names[algo], k,
							       mode ? "solve" : "depth 6", why,
							       (int)r.value,
							       (int)(mode ? solve_truth[k]
							                  : deep_truth[k]));
						}
						cutoff_engine_free(e);
					}
	printf("drivers: %d exact searches at 1-64 threads, %d wrong\n", searches, wrong);
	CHECK(wrong == 0, "every driver at every thread count gives the oracle's value");
}

/* The ring walk: state (cell, side); values by cell, for the side to move. */
typedef struct ring_state {
	int32_t cell, side;
} ring_state_t;

static const int32_t ring_value[5] = { 3, -2, 5, -4, 1 };

static int ring_gen(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	(void)ctx;
	(void)state;
	moves[0] = 1, moves[1] = 2;
	if (hints)
		hints[0] = hints[1] = 0;
	return 2;
}

static void ring_play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	(void)ctx;
	const ring_state_t *st = state;
	ring_state_t *c = child;
	c->cell = (st->cell + (int32_t)move) % 5;
	c->side = c->cell % 2 == 0 ? st->side : 1 - st->side;
}

static int32_t ring_eval(const void *ctx, const void *state)
{
	(void)ctx;
	const ring_state_t *st = state;
	return st->side ? -ring_value[st->cell] : ring_value[st->cell];
}

static bool ring_terminal(const void *ctx, const void *state, int32_t *value)
{
	(void)ctx;
	(void)state;
	(void)value;
	return false;
}

static uint64_t ring_key(const void *ctx, const void *state)
{
	(void)ctx;
	const ring_state_t *st = state;
	return (uint64_t)(st->cell * 2 + st->side) * 0x9e3779b97f4a7c15u + 7;
}

static int ring_reversible(const void *ctx, const void *state)
{
	(void)ctx;
	(void)state;
	return 1000;
}

static int ring_side(const void *ctx, const void *state)
{
	(void)ctx;
	return ((const ring_state_t *)state)->side;
}

/* Negamax with repetitions: a position (not the root) whose key is on the path is 0. */
static int32_t ring_oracle(const ring_state_t *st, int depth, uint64_t *path, int ply)
{
	uint64_t k = ring_key(NULL, st);
	for (int q = 0; q < ply; q++)
		if (path[q] == k)
			return 0;
	if (depth == 0)
		return ring_eval(NULL, st);
	path[ply] = k;
	int32_t best = -CUTOFF_INF;
	for (cutoff_move_t m = 1; m <= 2; m++) {
		ring_state_t c;
		ring_play(NULL, st, m, &c);
		int32_t v = ring_oracle(&c, depth - 1, path, ply + 1);
		if (c.side != st->side)
			v = -v;
		if (v > best)
			best = v;
	}
	return best;
}

static void repetitions(void)
{
	cutoff_game_t g = {
		.name = "ring",
		.state_size = sizeof(ring_state_t),
		.max_moves = 2,
		.gen_moves = ring_gen,
		.play = ring_play,
		.evaluate = ring_eval,
		.terminal = ring_terminal,
		.key = ring_key,
		.reversible = ring_reversible,
		.side = ring_side,
	};
	int searches = 0, wrong = 0;
	for (int algo = CUTOFF_ALGO_MINIMAX; algo <= CUTOFF_ALGO_MTDF; algo++) {
		cutoff_engine_t *e = engine(&g, CUTOFF_DRIVER_SERIAL, 1, (cutoff_algo_t)algo, 0);
		if (!e)
			continue;
		for (int cell = 0; cell < 5; cell++)
			for (int depth = 1; depth <= 9; depth++) {
				ring_state_t root = { cell, cell % 2 };
				uint64_t path[16];
				int32_t truth = ring_oracle(&root, depth, path, 0);
				cutoff_limits_t lim;
				cutoff_limits_default(&lim);
				lim.depth = depth;
				cutoff_result_t r;
				int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
				searches++;
				if (rc != 0 || r.value != truth) {
					wrong++;
					printf("  ring %s cell %d depth %d: value %d, oracle %d\n",
					       algo_names[algo], cell, depth, (int)r.value,
					       (int)truth);
				}
			}
		cutoff_engine_free(e);
	}
	printf("repetitions with extra turns: %d searches, %d wrong\n", searches, wrong);
	CHECK(wrong == 0, "repetitions are found at odd distances too");

	/* Speculative pruning: no oracle, but every search answers without a fault. */
	int faults = 0;
	for (int k = 0; k < 6; k++) {
		bank_t b;
		bank_make(&b, 10, 50 + (uint64_t)k, k % 2, k % 3 ? 6 : 0);
		cutoff_game_t bg = bank_game(&b);
		cutoff_config_t cfg;
		cutoff_config_default(&cfg);
		cfg.pruning = CUTOFF_PRUNE_ALL;
		cfg.tt_mb = 1;
		cfg.driver = k < 3 ? CUTOFF_DRIVER_SERIAL : CUTOFF_DRIVER_YBW;
		cfg.threads = k < 3 ? 1 : 2;
		cfg.topology = topology;
		int err = 0;
		cutoff_engine_t *e = cutoff_engine_new(&bg, &cfg, &err);
		if (!e) {
			faults++;
			continue;
		}
		bank_state_t root = { 0, 0, 0 };
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = 8;
		lim.iterate = true;
		cutoff_result_t r;
		int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
		faults += rc != 0 || r.bound != CUTOFF_BOUND_EXACT || r.counters.null_cutoffs == 0;
		cutoff_engine_free(e);
	}
	CHECK(faults == 0,
	      "null moves and reductions with extra turns: %d of 6 searches failed, "
	      "or made no null-move cut-off",
	      faults);
}

/* Without the hook the same game is another game: the checks must see the difference. */
static void naive(void)
{
	int differ = 0;
	for (int k = 0; k < 20; k++) {
		bank_t b;
		bank_make(&b, 8, 1000 + (uint64_t)k, false, 0);
		cutoff_game_t g = bank_game(&b);
		g.side = NULL;
		cutoff_engine_t *e = engine(&g, CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_PVS, 1);
		if (!e)
			return;
		bank_state_t root = { 0, 0, 0 };
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.solve = true;
		cutoff_result_t r;
		cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
		differ += r.value != bank_negamax(&b, &root, 9, 0, true);
		cutoff_engine_free(e);
	}
	printf("without the side hook: %d of 20 solves differ from the oracle\n", differ);
	CHECK(differ > 0, "a naive adapter (no side hook) is seen to be wrong");
}

int main(int argc, char **argv)
{
	int cases = argc > 1 ? atoi(argv[1]) : 300;
	rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 20261206;
	cutoff_topology_load(&topology);
	printf("extra turns: %d random cases per algorithm and table, seed %llu\n", cases,
	       (unsigned long long)rng_state);
	contract(cases);
	drivers();
	repetitions();
	naive();
	cutoff_topology_free(topology);
	return check_report();
}
