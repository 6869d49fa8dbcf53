/* SPDX-License-Identifier: MIT */
/*
 * Exactness of the parallel drivers, every one of the registry after the serial one (lazy
 * SMP, YBW and ABDADA today; a driver added there is tested here with no edit): on exact
 * searches each returns exactly the serial value at 1, 2, 3, 4, 8 and 16 threads (more
 * threads than cores on purpose: races show up when threads are preempted at any point),
 * over repeated runs, with the table off and on, for alpha-beta, PVS and MTD(f) (lazy SMP
 * at the final depth, on random trees: no transpositions, and helpers never search deeper
 * than asked). Also tic-tac-toe (real transpositions) through every parallel driver, and
 * the contract through every parallel driver with random windows and depths. And many
 * threads on few cores: every parallel driver at 32 and 64 threads, on random trees
 * against negamax and on Connect Four endgames solved to the end against the serial
 * engine (YBW's booking, late join and helpful masters race most there).
 *
 * cutoff-test-labels: concurrent
 */
#include <hwloc.h>
#include <stdlib.h>

#include "base/topo.h"
#include "check.h"
#include "cutoff_games.h"
#include "random.h"

static hwloc_topology_t topology;

static uint64_t rng = 7;
static uint64_t rnd(void) { return splitmix64(&rng); }
static int rnd_int(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

static cutoff_engine_t *make(const cutoff_game_t *g, cutoff_driver_t driver, int threads,
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
	cfg.ybw_split_after = 1 + threads % 3; /* 1, 2 or 3 moves alone before a split */
	/* YBW's other choices, a few thread counts each (the defaults elsewhere) */
	cfg.ybw_late_join = threads % 5 != 3;
	cfg.ybw_split_nodes = (cutoff_ybw_split_nodes_t)(threads % 7 == 2 ? threads % 3 : 0);
	cfg.dts_split_nodes = cfg.ybw_split_nodes;
	cfg.ybw_max_splits = threads % 4 == 1 ? 1 + threads % 3 : CUTOFF_MAX_PLY;
	/* lazy SMP's vote at 2, 3, 6, 8 and 32 threads: never taken in these searches, which
	 * run to their final depth, and they must stay exact */
	cfg.lazysmp_vote = threads % 3 != 1;
	int err;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	if (!e)
		printf("engine: %s\n", cutoff_strerror(err));
	return e;
}

static int32_t search(cutoff_engine_t *e, const void *root, int depth, bool iterate, int32_t alpha,
                      int32_t beta, cutoff_result_t *r)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = depth;
	lim.iterate = iterate;
	lim.alpha = alpha;
	lim.beta = beta;
	cutoff_engine_clear(e);
	int rc = cutoff_engine_search(e, root, &lim, r, NULL, NULL);
	return rc == 0 ? r->value : -99999;
}

static const char *algo_name[] = { "minimax", "alphabeta", "pvs", "mtdf" };

/* Random trees searched to their full depth: every driver, thread count, algorithm and
 * table setting gives the tree's true value, and the best move's value is that value. */
static void exact_trees(void)
{
	static const int thread_counts[] = { 1, 2, 3, 4, 8, 16 };
	for (int model = 0; model < 2; model++) {
		cutoff_rtree_params_t p;
		cutoff_rtree_params_default(&p);
		p.branching = 5;
		p.depth = 7;
		p.model = (cutoff_rtree_model_t)model;
		cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
		const cutoff_game_t *g = cutoff_rtree_game(tree);
		int runs = 0, wrong = 0;
		for (int d = CUTOFF_DRIVER_LAZYSMP; d < cutoff_driver_count(); d++)
			for (size_t ti = 0; ti < sizeof(thread_counts) / sizeof(int); ti++)
				for (int algo = CUTOFF_ALGO_ALPHABETA; algo <= CUTOFF_ALGO_MTDF;
				     algo++)
					for (int mb = 0; mb <= 1; mb++) {
						if (algo == CUTOFF_ALGO_MTDF && mb == 0)
							continue; /* MTD(f) without a table: slow, not different */
						cutoff_engine_t *e = make(
							g, (cutoff_driver_t)d, thread_counts[ti],
							(cutoff_algo_t)algo, (size_t)mb);
						for (int seed = 1; seed <= 4; seed++) {
							cutoff_rtree_state_t root;
							cutoff_result_t r;
							cutoff_rtree_root(
								tree,
								(uint64_t)(seed + 100 * model),
								&root);
							int32_t truth =
								cutoff_rtree_value(tree, &root);
							int32_t v = search(
								e, &root, p.depth, seed % 2 == 0,
								-CUTOFF_INF, CUTOFF_INF, &r);
							runs++;
							if (v != truth ||
							    r.bound != CUTOFF_BOUND_EXACT) {
								wrong++;
								printf("  %s %d threads %s table "
								       "%d model %d seed %d: %d, "
								       "true %d\n",
								       cutoff_driver_name(
									       (cutoff_driver_t)d),
								       thread_counts[ti],
								       algo_name[algo], mb, model,
								       seed, (int)v, (int)truth);
							}
						}
						cutoff_engine_free(e);
					}
		printf("exact trees (%s): %d runs, %d wrong\n", model ? "incremental" : "iid", runs,
		       wrong);
		CHECK(wrong == 0, "every driver returns the true value on %s trees",
		      model ? "incremental" : "iid");
		cutoff_rtree_free(tree);
	}
}

/* The contract through every parallel driver, at depths short of the leaves and random
 * windows, against the serial engine's exact value (itself checked by test_contract): each
 * must equal the serial answer exactly (lazy SMP at the final depth: it never searches
 * deeper than asked, and random trees have no transpositions). */
static void contract(void)
{
	int cases = 0, violations = 0;
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 4;
	p.depth = 8;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	cutoff_engine_t *serial = make(g, CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_MINIMAX, 0);
	for (int d = CUTOFF_DRIVER_LAZYSMP; d < cutoff_driver_count(); d++)
		for (int threads = 2; threads <= 6; threads += 4)
			for (int algo = CUTOFF_ALGO_ALPHABETA; algo <= CUTOFF_ALGO_MTDF; algo++) {
				cutoff_engine_t *e = make(g, (cutoff_driver_t)d, threads,
				                          (cutoff_algo_t)algo, 1);
				for (int k = 0; k < 60; k++) {
					cutoff_rtree_state_t root;
					cutoff_result_t r, ref;
					cutoff_rtree_root(tree, rnd(), &root);
					int depth = rnd_int(1, 7);
					int32_t a = rnd_int(-60, 40), b = a + rnd_int(1, 60);
					if (rnd_int(0, 3) == 0) {
						a = -CUTOFF_INF;
						b = CUTOFF_INF;
					}
					int32_t V = search(serial, &root, depth, false, -CUTOFF_INF,
					                   CUTOFF_INF, &ref);
					int32_t v =
						search(e, &root, depth, rnd_int(0, 1), a, b, &r);
					bool ok = v > a && v < b ? V == v
					          : v <= a       ? V <= v
					                         : V >= v;
					cases++;
					if (!ok) {
						violations++;
						printf("  %s %d threads %s depth %d window "
						       "(%d,%d): %d, true %d\n",
						       cutoff_driver_name((cutoff_driver_t)d),
						       threads, algo_name[algo], depth, (int)a,
						       (int)b, (int)v, (int)V);
					}
				}
				cutoff_engine_free(e);
			}
	printf("contract through the drivers: %d cases, %d violations\n", cases, violations);
	CHECK(violations == 0, "the contract holds through every parallel driver");
	cutoff_engine_free(serial);
	cutoff_rtree_free(tree);
}

/* Tic-tac-toe: real transpositions. Every parallel driver, the table off and on: the game
 * value and a move that keeps it. */
static void ttt(void)
{
	int wrong = 0, runs = 0;
	cutoff_ttt_state_t board;
	cutoff_ttt_parse("x...o....", &board);
	for (int d = CUTOFF_DRIVER_LAZYSMP; d < cutoff_driver_count(); d++)
		for (int threads = 1; threads <= 16; threads *= 2)
			for (int mb = 0; mb <= 1; mb++) {
				cutoff_engine_t *e = make(cutoff_ttt_game(), (cutoff_driver_t)d,
				                          threads, CUTOFF_ALGO_PVS, (size_t)mb);
				for (int k = 0; k < 3; k++) {
					cutoff_result_t r;
					int32_t v = search(e, &board, 7, k == 1, -CUTOFF_INF,
					                   CUTOFF_INF, &r);
					runs++;
					wrong += v != 0 || r.best_move >= 9;
				}
				cutoff_engine_free(e);
			}
	printf("tic-tac-toe through every parallel driver: %d runs, %d wrong\n", runs, wrong);
	CHECK(wrong == 0, "tic-tac-toe value 0 through every parallel driver at 1..16 threads");
}

/* A seeded random playout of Connect Four to `empty` empty cells that is not over and not
 * known without a search; false when the playout ended first. */
static bool c4_endgame(int empty, cutoff_connect4_state_t *st)
{
	cutoff_connect4_start(st);
	while (st->stones < CUTOFF_CONNECT4_CELLS - empty) {
		if (st->known)
			return false;
		int col = rnd_int(0, CUTOFF_CONNECT4_WIDTH - 1), tries = 0;
		while (cutoff_connect4_play(st, col) != 0 && tries++ < CUTOFF_CONNECT4_WIDTH)
			col = (col + 1) % CUTOFF_CONNECT4_WIDTH;
		if (tries > CUTOFF_CONNECT4_WIDTH)
			return false;
	}
	return !st->known;
}

/* Many threads on few cores (preempted at every point; the idle threads outnumber the
 * work): every parallel driver at 32 and 64 threads. Random trees searched to their
 * leaves, iid and incremental, with alpha-beta, PVS and MTD(f), the table off and on,
 * against negamax (cutoff_rtree_value); Connect Four endgames of 14 empty cells solved to
 * the end (weak and strong, both methods), against the serial engine's score. */
static void many_threads(void)
{
	static const int thread_counts[] = { 32, 64 };
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 5;
	p.depth = 7;
	cutoff_rtree_t *trees[2];
	for (int model = 0; model < 2; model++) {
		p.model = (cutoff_rtree_model_t)model;
		trees[model] = cutoff_rtree_new(&p, NULL);
	}
	cutoff_connect4_state_t c4[4];
	cutoff_connect4_solution_t want[4];
	cutoff_engine_t *serial =
		make(cutoff_connect4_game(), CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_PVS, 4);
	for (int i = 0; i < 4; i++) {
		while (!c4_endgame(14, &c4[i]))
			;
		cutoff_connect4_solve(serial, &c4[i], i % 2, i / 2, &want[i]);
	}
	cutoff_engine_free(serial);
	int runs = 0, wrong = 0;
	for (int d = CUTOFF_DRIVER_LAZYSMP; d < cutoff_driver_count(); d++)
		for (size_t ti = 0; ti < sizeof(thread_counts) / sizeof(int); ti++) {
			const int threads = thread_counts[ti];
			const char *name = cutoff_driver_name((cutoff_driver_t)d);
			for (int algo = CUTOFF_ALGO_ALPHABETA; algo <= CUTOFF_ALGO_MTDF; algo++)
				for (int model = 0; model < 2; model++) {
					const cutoff_game_t *g = cutoff_rtree_game(trees[model]);
					cutoff_engine_t *e = make(
						g, (cutoff_driver_t)d, threads, (cutoff_algo_t)algo,
						(size_t)(algo != CUTOFF_ALGO_ALPHABETA));
					for (int seed = 1; e && seed <= 2; seed++) {
						cutoff_rtree_state_t root;
						cutoff_result_t r;
						cutoff_rtree_root(trees[model],
						                  (uint64_t)(seed + 300), &root);
						int32_t truth =
							cutoff_rtree_value(trees[model], &root);
						int32_t v = search(e, &root, p.depth, seed == 2,
						                   -CUTOFF_INF, CUTOFF_INF, &r);
						runs++;
						if (v != truth && ++wrong <= 10)
							printf("  %s %d threads %s model %d seed "
							       "%d: "
							       "%d, true %d\n",
							       name, threads, algo_name[algo],
							       model, seed, (int)v, (int)truth);
					}
					cutoff_engine_free(e);
				}
			cutoff_engine_t *e = make(cutoff_connect4_game(), (cutoff_driver_t)d,
			                          threads, CUTOFF_ALGO_PVS, 4);
			for (int i = 0; e && i < 4; i++) {
				cutoff_connect4_solution_t s;
				cutoff_engine_clear(e);
				int rc = cutoff_connect4_solve(e, &c4[i], i % 2, i / 2, &s);
				runs++;
				if ((rc != 0 || s.score != want[i].score) && ++wrong <= 10)
					printf("  %s %d threads connect four endgame %d: rc %d, "
					       "score %d, serial %d\n",
					       name, threads, i, rc, s.score, want[i].score);
			}
			cutoff_engine_free(e);
		}
	printf("many threads (32, 64): %d searches and solves, %d wrong\n", runs, wrong);
	CHECK(runs > 0 && wrong == 0,
	      "every parallel driver at 32 and 64 threads: the true value and the serial score");
	for (int model = 0; model < 2; model++)
		cutoff_rtree_free(trees[model]);
}

int main(void)
{
	cutoff_topology_load((void **)&topology); /* quiet where sysfs is missing */
	exact_trees();
	contract();
	ttt();
	many_threads();
	cutoff_topology_free(topology);
	return check_report();
}
