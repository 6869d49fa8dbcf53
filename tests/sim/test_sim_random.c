/* SPDX-License-Identifier: MIT */
/*
 * test_sim_random.c — exactness under random schedules (issue 15, item 4): the simulator's
 * CUTOFF_SIM_RANDOM schedule picks the next virtual thread by a seeded random choice at
 * every shared-memory access, so each seed is another interleaving of the same code, many
 * of which two real cores would rarely produce, and every one of them replays exactly.
 *
 * A case is drawn from its seed alone: a thread count among 2, 3, 4, 8, 16, 32 and 64, a
 * small random tree (branching 2..5, depth 3..12, at most 16384 leaves,
 * independent or incremental values), a root, a search depth (to the leaves, or short of
 * them), iterative deepening or one search, alpha-beta, PVS or MTD(f), a table or none
 * (MTD(f) always has one), the drivers' options (YBW's split depth, moves searched alone
 * and helpers; ABDADA's variant and depth; lazy SMP's skipping and vote), and whether
 * table writes are delayed (the cost model's tt_visible). Each parallel driver of the
 * registry then searches it on a fresh simulator with the random schedule and that seed,
 * and must answer the depth-limited negamax value (test_sim_util.h: bound exact, the depth
 * asked, a best move that keeps the value), which the serial search on one virtual thread
 * must give too.
 *
 * A failure prints the case (seed, threads, driver, tree, search) and the command that
 * replays it alone; so does a deadlock (every virtual thread asleep), through the
 * simulator's deadlock hook, before it aborts.
 *
 * Usage: test_sim_random [--seeds K] [--first S] [--seed S] [--verbose]
 *   the K seeds S, S+1, ... (default 1000 from 1); --seed S: that seed alone.
 * tests/CMakeLists.txt also registers a longer sweep, test_sim_random_long (slow).
 */
#include <inttypes.h>

#include "test_sim_util.h"

static const int thread_counts[] = { 2, 3, 4, 8, 16, 32, 64 };
static const char *algo_name[] = { "minimax", "alphabeta", "pvs", "mtdf" };

typedef struct rcase {
	uint64_t seed;
	int threads;
	cutoff_rtree_params_t tree;
	uint64_t root_seed;
	int depth;
	bool iterate;
	cutoff_algo_t algo;
	size_t mb;
	int ybw_min_split, ybw_split_after, ybw_max_helpers;
	cutoff_abdada_variant_t abdada_variant;
	int abdada_min_depth;
	bool lazysmp_skip;
	uint64_t tt_visible; /* ps */
	bool lazysmp_vote;
} rcase_t;

static int draw(uint64_t *rng, int lo, int hi)
{
	return lo + (int)(splitmix64(rng) % (uint64_t)(hi - lo + 1));
}

static rcase_t case_of(uint64_t seed)
{
	static const int max_depth[] = { 0, 0, 12, 8, 7, 6 }; /* by branching: few leaves */
	uint64_t rng = seed * UINT64_C(0x9e3779b97f4a7c15) + 1;
	rcase_t c;
	memset(&c, 0, sizeof(c));
	c.seed = seed;
	c.threads = thread_counts[draw(&rng, 0, sizeof thread_counts / sizeof(int) - 1)];
	cutoff_rtree_params_default(&c.tree);
	c.tree.branching = draw(&rng, 2, 5);
	c.tree.depth = draw(&rng, 3, max_depth[c.tree.branching]);
	c.tree.model = (cutoff_rtree_model_t)draw(&rng, 0, 1);
	if (c.tree.model == CUTOFF_RTREE_INCREMENTAL) {
		c.tree.value_min = -draw(&rng, 3, 20);
		c.tree.value_max = draw(&rng, 3, 20);
	}
	c.root_seed = splitmix64(&rng);
	c.depth = draw(&rng, 0, 1) ? c.tree.depth : draw(&rng, 2, c.tree.depth);
	c.iterate = draw(&rng, 0, 1);
	c.algo = (cutoff_algo_t)draw(&rng, CUTOFF_ALGO_ALPHABETA, CUTOFF_ALGO_MTDF);
	c.mb = c.algo == CUTOFF_ALGO_MTDF ? 1 : (size_t)draw(&rng, 0, 1);
	c.ybw_min_split = draw(&rng, 1, 3);
	c.ybw_split_after = draw(&rng, 1, 3);
	c.ybw_max_helpers = draw(&rng, 1, 8);
	c.abdada_variant = (cutoff_abdada_variant_t)draw(&rng, 0, 1);
	c.abdada_min_depth = draw(&rng, 1, 3);
	c.lazysmp_skip = draw(&rng, 0, 1);
	static const uint64_t visible[] = { 0, 0, 100000, 1000000 }; /* 0, 0, 100 ns, 1 us */
	c.tt_visible = visible[draw(&rng, 0, 3)];
	c.lazysmp_vote = draw(&rng, 0, 1); /* last: the draws above keep their seeds' cases */
	return c;
}

static void describe(const rcase_t *c, const char *driver, char *buf, size_t n)
{
	snprintf(buf, n,
	         "seed %" PRIu64 ": %s x%d; tree b %d depth %d %s (steps %d..%d) root %" PRIu64
	         "; search depth %d %s, %s, table %zu MiB; ybw min-split %d split-after %d "
	         "max-helpers %d; abdada %s min-depth %d; lazysmp skip %d vote %d; tt_visible "
	         "%" PRIu64 " ps; replay: test_sim_random --seed %" PRIu64,
	         c->seed, driver, c->threads, c->tree.branching, c->tree.depth,
	         c->tree.model == CUTOFF_RTREE_IID ? "iid" : "incremental", (int)c->tree.value_min,
	         (int)c->tree.value_max, c->root_seed, c->depth,
	         c->iterate ? "iterated" : "one search", algo_name[c->algo], c->mb,
	         c->ybw_min_split, c->ybw_split_after, c->ybw_max_helpers,
	         c->abdada_variant == CUTOFF_ABDADA_CLASSIC ? "classic" : "simplified",
	         c->abdada_min_depth, (int)c->lazysmp_skip, (int)c->lazysmp_vote, c->tt_visible,
	         c->seed);
}

/* The deadlock hook: says which case it was, then aborts (it must not return). */
static void on_deadlock(const char *what, void *arg)
{
	printf("FAIL: %s\n  in %s\n", what, (const char *)arg);
	fflush(stdout);
	abort();
}

static cutoff_config_t config_of(const rcase_t *c, cutoff_driver_t driver, int threads)
{
	cutoff_config_t cfg = sim_config(driver, threads, c->algo, c->mb);
	cfg.ybw_min_split_depth = c->ybw_min_split;
	cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
	cfg.dts_min_split_nodes = 1;
	cfg.ybw_split_after = c->ybw_split_after;
	cfg.dts_fibers = 2 + (int)(c->seed % 3); /* 2: owners often find no fiber free */
	cfg.ybw_max_helpers = c->ybw_max_helpers;
	cfg.abdada_variant = c->abdada_variant;
	cfg.abdada_min_depth = c->abdada_min_depth;
	cfg.lazysmp_skip = c->lazysmp_skip;
	cfg.lazysmp_vote = c->lazysmp_vote;
	return cfg;
}

static int runs, wrong;
static bool verbose;

/* The case of `seed` with every parallel driver; its serial value first. */
static void one_seed(uint64_t seed)
{
	rcase_t c = case_of(seed);
	char what[512];
	cutoff_rtree_t *tree = cutoff_rtree_new(&c.tree, NULL);
	if (!tree) {
		CHECK(false, "seed %" PRIu64 ": the random tree was refused", seed);
		return;
	}
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	cutoff_rtree_state_t root;
	cutoff_rtree_root(tree, c.root_seed, &root);
	int32_t truth = oracle_negamax(g, &root, c.depth);

	cutoff_sim_model_t model;
	cutoff_sim_model_default(&model);
	model.tt_visible = c.tt_visible;
	static cutoff_result_t r;

	cutoff_sim_t *sim = sim_start(&model, CUTOFF_SIM_CLOCK, seed);
	describe(&c, "serial", what, sizeof(what));
	cutoff_sim_on_deadlock(sim, on_deadlock, what);
	cutoff_config_t cfg = config_of(&c, CUTOFF_DRIVER_SERIAL, 1);
	cutoff_engine_t *e = sim_engine(g, &cfg);
	int rc = e ? sim_search(e, &root, c.depth, c.iterate, &r) : CUTOFF_ENOMEM;
	const char *why = sim_rtree_wrong(g, &root, c.depth, truth, rc, &r);
	CHECK(!why, "the serial search gave %s: %d, negamax %d; %s", why, (int)r.value, (int)truth,
	      what);
	cutoff_engine_free(e);
	sim_stop(sim);

	for (int d = 0; d < cutoff_driver_count(); d++) {
		cutoff_driver_t driver = (cutoff_driver_t)d;
		if (driver == CUTOFF_DRIVER_SERIAL)
			continue;
		describe(&c, cutoff_driver_name(driver), what, sizeof(what));
		if (verbose)
			printf("%s\n", what);
		sim = sim_start(&model, CUTOFF_SIM_RANDOM, seed);
		cutoff_sim_on_deadlock(sim, on_deadlock, what);
		cfg = config_of(&c, driver, c.threads);
		e = sim_engine(g, &cfg);
		rc = e ? sim_search(e, &root, c.depth, c.iterate, &r) : CUTOFF_ENOMEM;
		why = sim_rtree_wrong(g, &root, c.depth, truth, rc, &r);
		runs++;
		if (why) {
			wrong++;
			printf("FAIL: %s: value %d (bound %d, depth %d, move %d), serial "
			       "%d\n  in %s\n",
			       why, (int)r.value, (int)r.bound, r.depth, (int)r.best_move,
			       (int)truth, what);
		}
		cutoff_engine_free(e);
		sim_stop(sim);
	}
	cutoff_rtree_free(tree);
}

int main(int argc, char **argv)
{
	uint64_t first = 1, seeds = 1000;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
			seeds = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--first") && i + 1 < argc) {
			first = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			first = strtoull(argv[++i], NULL, 10);
			seeds = 1;
		} else if (!strcmp(argv[i], "--verbose")) {
			verbose = true;
		} else {
			fprintf(stderr,
			        "usage: %s [--seeds K] [--first S] [--seed S] [--verbose]\n",
			        argv[0]);
			return 2;
		}
	}
	sim_topology_load();
	for (uint64_t s = first; s < first + seeds; s++)
		one_seed(s);
	CHECK(wrong == 0, "%d of %d searches under random schedules wrong", wrong, runs);
	printf("random schedules: seeds %" PRIu64 "..%" PRIu64 ", %d searches of the parallel "
	       "drivers at 2 to 64 virtual threads, %d wrong\n",
	       first, first + seeds - 1, runs, wrong);
	sim_topology_free();
	return check_report();
}
