/* SPDX-License-Identifier: MIT */
/*
 * test_sim_solve.c — parallel solves must say they are solved, under the simulator's
 * random schedules (issue 25, item 2; test_solve_stress.c hunts the same on real threads).
 *
 * The simulator's CUTOFF_SIM_RANDOM schedule switches virtual threads at random at every
 * shared-memory access, so a store of one thread falls between two reads of another far
 * more often than two real cores make it happen, and each seed replays exactly. A case is
 * drawn from its seed: a game with passes (cutoff_pgame, 7 to 11 cells: transpositions and
 * lines of different lengths) or a random tree whose leaves end the game, a thread count
 * among 2, 3, 4, 8, 16, 32 and 64, one search to the end (depth 0) or iterative deepening,
 * a table of 1 MiB. Each parallel driver of the registry solves it (limits.solve), then
 * solves it again warm on the table the first left: both must return the oracle's value,
 * bound exact, and say solved. Before the fix of search.c's tt_lookup (one read of the
 * bucket for both of its questions) 20 of seeds 1..1000 came back right but unsolved (37
 * solves of 6,000), 6 of them among the default 300 (the first: 74); after it, none.
 * tests/CMakeLists.txt registers a longer sweep too, test_sim_solve_long (slow).
 *
 * Usage: test_sim_solve [--seeds K] [--first S] [--seed S]: the K seeds S, S+1, ...
 * (default 300 from 1); --seed S: that seed alone, the replay of a failure.
 */
#include <inttypes.h>

#include "test_sim_util.h"

static const int thread_counts[] = { 2, 3, 4, 8, 16, 32, 64 };

typedef struct scase {
	uint64_t seed;
	int threads;
	bool pgame; /* else a random tree */
	cutoff_pgame_params_t pg;
	cutoff_rtree_params_t tree;
	uint64_t root_seed;
	bool iterate;
	cutoff_abdada_variant_t abdada_variant;
} scase_t;

static int draw(uint64_t *rng, int lo, int hi)
{
	return lo + (int)(splitmix64(rng) % (uint64_t)(hi - lo + 1));
}

static scase_t case_of(uint64_t seed)
{
	static const int max_depth[] = { 0, 0, 11, 8, 6, 5 }; /* by branching: few leaves */
	uint64_t rng = seed * UINT64_C(0x9e3779b97f4a7c15) + 7;
	scase_t c;
	memset(&c, 0, sizeof(c));
	c.seed = seed;
	c.threads = thread_counts[draw(&rng, 0, sizeof thread_counts / sizeof(int) - 1)];
	c.pgame = draw(&rng, 0, 2) != 0;
	cutoff_pgame_params_default(&c.pg);
	c.pg.cells = draw(&rng, 7, 11);
	c.pg.legal = draw(&rng, 30, 90);
	c.pg.score = draw(&rng, 1, 64);
	c.pg.seed = splitmix64(&rng);
	cutoff_rtree_params_default(&c.tree);
	c.tree.branching = draw(&rng, 2, 5);
	c.tree.depth = draw(&rng, 3, max_depth[c.tree.branching]);
	c.tree.model = (cutoff_rtree_model_t)draw(&rng, 0, 1);
	c.root_seed = splitmix64(&rng);
	c.iterate = draw(&rng, 0, 1);
	c.abdada_variant = (cutoff_abdada_variant_t)draw(&rng, 0, 1);
	return c;
}

static void describe(const scase_t *c, const char *driver, char *buf, size_t n)
{
	if (c->pgame)
		snprintf(buf, n,
		         "seed %" PRIu64
		         ": %s x%d; pgame %d cells legal %d%% score %d seed %" PRIu64
		         "; %s; replay: test_sim_solve --seed %" PRIu64,
		         c->seed, driver, c->threads, c->pg.cells, c->pg.legal, (int)c->pg.score,
		         c->pg.seed, c->iterate ? "iterated" : "one search", c->seed);
	else
		snprintf(buf, n,
		         "seed %" PRIu64 ": %s x%d; tree b %d depth %d %s root %" PRIu64
		         "; %s; replay: test_sim_solve --seed %" PRIu64,
		         c->seed, driver, c->threads, c->tree.branching, c->tree.depth,
		         c->tree.model == CUTOFF_RTREE_IID ? "iid" : "incremental", c->root_seed,
		         c->iterate ? "iterated" : "one search", c->seed);
}

static void on_deadlock(const char *what, void *arg)
{
	printf("FAIL: %s\n  in %s\n", what, (const char *)arg);
	fflush(stdout);
	abort();
}

static int runs, unsolved, wrong;

/* A solve of `root` on engine e: right (value, bound exact) and solved? */
static void solve(cutoff_engine_t *e, const void *root, const scase_t *c, int32_t truth,
                  const char *pass, const char *what)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.solve = true;
	lim.iterate = c->iterate;
	cutoff_result_t r;
	int rc = cutoff_engine_search(e, root, &lim, &r, NULL, NULL);
	bool right = rc == 0 && r.value == truth && r.bound == CUTOFF_BOUND_EXACT;
	runs++;
	wrong += !right;
	unsolved += right && !r.solved;
	CHECK(right && r.solved, "%s solve: rc %d value %d (oracle %d) bound %d solved %d\n  in %s",
	      pass, rc, (int)r.value, (int)truth, (int)r.bound, r.solved, what);
}

static void one_seed(uint64_t seed)
{
	scase_t c = case_of(seed);
	cutoff_pgame_t *pg = NULL;
	cutoff_rtree_t *tree = NULL;
	const cutoff_game_t *g;
	cutoff_pgame_state_t pg_root;
	cutoff_rtree_state_t tree_root;
	const void *root;
	int32_t truth;
	if (c.pgame) {
		pg = cutoff_pgame_new(&c.pg, NULL);
		g = cutoff_pgame_game(pg);
		cutoff_pgame_root(pg, &pg_root);
		CHECK(cutoff_pgame_solve(pg, &pg_root, &truth, NULL) == 0, "pgame oracle");
		root = &pg_root;
	} else {
		tree = cutoff_rtree_new(&c.tree, NULL);
		g = cutoff_rtree_game(tree);
		cutoff_rtree_root(tree, c.root_seed, &tree_root);
		truth = oracle_negamax(g, &tree_root, c.tree.depth);
		root = &tree_root;
	}
	cutoff_sim_model_t model;
	cutoff_sim_model_default(&model);
	char what[320];
	for (int d = 0; d < cutoff_driver_count(); d++) {
		cutoff_driver_t driver = (cutoff_driver_t)d;
		if (driver == CUTOFF_DRIVER_SERIAL)
			continue;
		describe(&c, cutoff_driver_name(driver), what, sizeof(what));
		cutoff_sim_t *sim = sim_start(&model, CUTOFF_SIM_RANDOM, seed);
		cutoff_sim_on_deadlock(sim, on_deadlock, what);
		cutoff_config_t cfg = sim_config(driver, c.threads, CUTOFF_ALGO_PVS, 1);
		cfg.abdada_variant = c.abdada_variant;
		cfg.abdada_min_depth = 2;
		cutoff_engine_t *e = sim_engine(g, &cfg);
		if (e) {
			solve(e, root, &c, truth, "cold", what);
			solve(e, root, &c, truth, "warm", what);
		}
		cutoff_engine_free(e);
		sim_stop(sim);
	}
	cutoff_pgame_free(pg);
	cutoff_rtree_free(tree);
}

int main(int argc, char **argv)
{
	uint64_t first = 1, seeds = 300;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
			seeds = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--first") && i + 1 < argc) {
			first = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			first = strtoull(argv[++i], NULL, 10);
			seeds = 1;
		} else {
			fprintf(stderr, "usage: %s [--seeds K] [--first S] [--seed S]\n", argv[0]);
			return 2;
		}
	}
	sim_topology_load();
	for (uint64_t s = first; s < first + seeds; s++)
		one_seed(s);
	sim_topology_free();
	printf("%d parallel solves under random schedules (seeds %" PRIu64 "..%" PRIu64
	       ", cold and warm): %d right but unsolved, %d wrong\n",
	       runs, first, first + seeds - 1, unsolved, wrong);
	return check_report();
}
