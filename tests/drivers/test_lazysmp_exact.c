/* SPDX-License-Identifier: MIT */
/*
 * Exactness of the drivers whose every thread iterates from the root (lazy SMP without and
 * with its vote, and ABDADA in both variants, its busy marks at every depth and from depth
 * 3) on single-depth searches (limits.iterate = false, as every Connect Four solve runs
 * them): every thread then starts the final depth at once, the first to complete it ends
 * the search, and its answer is reported, whichever thread it is. Checked
 * at 2, 3 and 8 threads (8 is more than the cores on purpose: a preempted main thread lets
 * a helper answer), with the table, for alpha-beta, PVS and MTD(f):
 *   - random trees searched to the leaves with the full window: the tree's true value,
 *     bound exact, and the best move keeps it;
 *   - random trees with null windows (t - 1, t) at depths short of the leaves: the answer to
 *     "value >= t?" equals the serial engine's, and the fail-soft value is a bound on the
 *     right side of the serial exact value (the contract);
 *   - tic-tac-toe from the empty board (transpositions): value 0 and a legal move.
 * It also counts how often a helper's answer was the one reported (informational: which
 * thread finishes first is up to the scheduler).
 *
 * cutoff-test-labels: concurrent
 */
#include <hwloc.h>

#include "base/topo.h"
#include "check.h"
#include "cutoff_games.h"
#include "random.h"

static hwloc_topology_t topology;

static uint64_t rng = 11;
static uint64_t rnd(void) { return splitmix64(&rng); }
static int rnd_int(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

static const int thread_counts[] = { 2, 3, 8 };

/* The drivers under test: lazy SMP without and with its vote (which a completed search
 * never takes), then ABDADA's variants and minimum depths. */
typedef struct setup {
	cutoff_driver_t driver;
	cutoff_abdada_variant_t variant;
	int min_depth;
	bool vote;
	const char *name;
} setup_t;

static const setup_t setups[] = {
	{ CUTOFF_DRIVER_LAZYSMP, CUTOFF_ABDADA_CLASSIC, 3, false, "lazysmp" },
	{ CUTOFF_DRIVER_LAZYSMP, CUTOFF_ABDADA_CLASSIC, 3, true, "lazysmp vote" },
	{ CUTOFF_DRIVER_ABDADA, CUTOFF_ABDADA_CLASSIC, 1, false, "abdada classic d1" },
	{ CUTOFF_DRIVER_ABDADA, CUTOFF_ABDADA_SIMPLIFIED, 3, false, "abdada simplified d3" },
};
enum {
	SETUPS = sizeof setups / sizeof setups[0]
};
static const setup_t *setup = &setups[0];
static const char *algo_name[] = { "minimax", "alphabeta", "pvs", "mtdf" };
static int helper_answers, searches;

static cutoff_engine_t *make(const cutoff_game_t *g, cutoff_driver_t driver, int threads,
                             cutoff_algo_t algo)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = driver;
	cfg.abdada_variant = setup->variant;
	cfg.abdada_min_depth = setup->min_depth;
	cfg.lazysmp_vote = setup->vote;
	cfg.threads = threads;
	cfg.algo = algo;
	cfg.tt_mb = 1;
	cfg.topology = topology;
	int err;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	CHECK(e != NULL, "engine (%d threads, %s): %s", threads, algo_name[algo],
	      cutoff_strerror(err));
	return e;
}

/* One single-depth search on a cleared table; -99999 when it failed. Under lazy SMP it
 * counts a helper's answer: thread 0 did not complete the depth, so another thread's result
 * was taken. */
static int32_t search(cutoff_engine_t *e, const void *root, int depth, int32_t alpha, int32_t beta,
                      cutoff_result_t *r)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = depth;
	lim.iterate = false;
	lim.alpha = alpha;
	lim.beta = beta;
	lim.guess = beta < CUTOFF_INF ? beta : 0; /* MTD(f): one pass at a null window */
	cutoff_engine_clear(e);
	if (cutoff_engine_search(e, root, &lim, r, NULL, NULL) != 0)
		return -99999;
	cutoff_config_t cfg;
	cutoff_profile_t p;
	if (cutoff_engine_config(e, &cfg) != 0 || cfg.driver == CUTOFF_DRIVER_SERIAL)
		return r->value;
	searches++;
	if (cutoff_profile_available() && cutoff_engine_thread_profile(e, 0, &p) == 0 &&
	    p.depth_completed < depth)
		helper_answers++;
	return r->value;
}

/* Full window to the leaves: the true value, exact, and the best move keeps it. */
static void full_window(void)
{
	for (int model = 0; model < 2; model++) {
		cutoff_rtree_params_t p;
		cutoff_rtree_params_default(&p);
		p.branching = 6;
		p.depth = 8;
		p.model = (cutoff_rtree_model_t)model;
		cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
		const cutoff_game_t *g = cutoff_rtree_game(tree);
		int runs = 0, wrong = 0;
		for (size_t ti = 0; ti < sizeof(thread_counts) / sizeof(int); ti++)
			for (int algo = CUTOFF_ALGO_ALPHABETA; algo <= CUTOFF_ALGO_MTDF; algo++) {
				cutoff_engine_t *e = make(g, setup->driver, thread_counts[ti],
				                          (cutoff_algo_t)algo);
				for (int seed = 1; e && seed <= 6; seed++) {
					cutoff_rtree_state_t root, child;
					cutoff_result_t r;
					cutoff_rtree_root(tree, (uint64_t)(seed + 1000 * model),
					                  &root);
					int32_t truth = cutoff_rtree_value(tree, &root);
					int32_t v = search(e, &root, p.depth, -CUTOFF_INF,
					                   CUTOFF_INF, &r);
					g->play(g->ctx, &root, r.best_move, &child);
					bool ok = v == truth && r.bound == CUTOFF_BOUND_EXACT &&
					          !r.stopped && r.depth == p.depth &&
					          -cutoff_rtree_value(tree, &child) == truth;
					runs++;
					if (!ok) {
						wrong++;
						printf("  %d threads %s model %d seed %d: %d "
						       "(bound %d, "
						       "depth %d), true %d\n",
						       thread_counts[ti], algo_name[algo], model,
						       seed, (int)v, (int)r.bound, r.depth,
						       (int)truth);
					}
				}
				cutoff_engine_free(e);
			}
		printf("%s: full window, %s trees: %d single-depth searches at 2, 3, 8 threads, "
		       "%d wrong\n",
		       setup->name, model ? "incremental" : "iid", runs, wrong);
		CHECK(wrong == 0, "%s single-depth searches give the true value (%s trees)",
		      setup->name, model ? "incremental" : "iid");
		cutoff_rtree_free(tree);
	}
}

/* Null windows short of the leaves, as a solver asks them: the same answer as serial,
 * and the fail-soft value on the right side of the serial exact value. */
static void null_windows(void)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 5;
	p.depth = 9;
	p.model = CUTOFF_RTREE_INCREMENTAL;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	cutoff_engine_t *serial = make(g, CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_PVS);
	int cases = 0, wrong = 0;
	for (size_t ti = 0; ti < sizeof(thread_counts) / sizeof(int); ti++)
		for (int algo = CUTOFF_ALGO_ALPHABETA; algo <= CUTOFF_ALGO_MTDF; algo++) {
			cutoff_engine_t *e =
				make(g, setup->driver, thread_counts[ti], (cutoff_algo_t)algo);
			for (int k = 0; serial && e && k < 25; k++) {
				cutoff_rtree_state_t root;
				cutoff_result_t r, ref;
				cutoff_rtree_root(tree, rnd(), &root);
				int depth = rnd_int(5, p.depth);
				int32_t V =
					search(serial, &root, depth, -CUTOFF_INF, CUTOFF_INF, &ref);
				int32_t t = V + rnd_int(-20, 20);
				int32_t v = search(e, &root, depth, t - 1, t, &r);
				bool ok = V != -99999 && v != -99999 &&
				          (v >= t ? V >= t && V >= v : V < t && V <= v);
				cases++;
				if (!ok) {
					wrong++;
					printf("  %d threads %s depth %d window (%d,%d): %d, "
					       "serial "
					       "exact %d\n",
					       thread_counts[ti], algo_name[algo], depth,
					       (int)t - 1, (int)t, (int)v, (int)V);
				}
			}
			cutoff_engine_free(e);
		}
	printf("%s: null windows: %d single-depth searches at 2, 3, 8 threads, %d wrong\n",
	       setup->name, cases, wrong);
	CHECK(wrong == 0, "%s null-window single-depth searches answer as serial does",
	      setup->name);
	cutoff_engine_free(serial);
	cutoff_rtree_free(tree);
}

/* Tic-tac-toe from the empty board: transpositions through the shared table. */
static void ttt(void)
{
	cutoff_ttt_state_t board;
	int runs = 0, wrong = 0;
	cutoff_ttt_parse(".........", &board);
	for (size_t ti = 0; ti < sizeof(thread_counts) / sizeof(int); ti++) {
		cutoff_engine_t *e =
			make(cutoff_ttt_game(), setup->driver, thread_counts[ti], CUTOFF_ALGO_PVS);
		for (int k = 0; e && k < 4; k++) {
			cutoff_result_t r;
			int32_t v = search(e, &board, 9, -CUTOFF_INF, CUTOFF_INF, &r);
			runs++;
			wrong += v != 0 || r.bound != CUTOFF_BOUND_EXACT || r.best_move >= 9;
		}
		cutoff_engine_free(e);
	}
	printf("%s: tic-tac-toe: %d single-depth searches at 2, 3, 8 threads, %d wrong\n",
	       setup->name, runs, wrong);
	CHECK(wrong == 0, "tic-tac-toe is a draw through %s single-depth searches", setup->name);
}

int main(void)
{
	void *topo = NULL;
	if (cutoff_topology_load(&topo) == 0)
		topology = topo;
	for (int k = 0; k < SETUPS; k++) {
		setup = &setups[k];
		full_window();
		null_windows();
		ttt();
	}
	printf("a helper's answer was reported in %d of %d searches (informational)\n",
	       helper_answers, searches);
	if (topology)
		cutoff_topology_free(topology);
	return check_report();
}
