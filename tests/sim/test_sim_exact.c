/* SPDX-License-Identifier: MIT */
/*
 * test_sim_exact.c — exactness of every driver on virtual threads (issue 15, item 6): the
 * simulated library (the library's own sources compiled with CUTOFF_SIM) run at 1, 2, 7,
 * 16, 64, 128 and 256 virtual threads, every driver of the registry at each count (the
 * serial one too: its extra threads return at once; at 128 and 256, YBW's booking, late
 * join and helpful masters meet the most idle threads, issue 27), on exact searches only (a
 * depth, no node or time limit, the full window), under the default cost model and the
 * clock schedule.
 *
 * Oracles. Random trees (the rtree game): plain negamax over the game interface, at the
 * search's depth (test_contract.c's ten lines), and the serial search on one virtual
 * thread, which must agree with it; then every search must answer that value, bound exact,
 * at the depth asked, with a best move of the root whose own value (negamax of the child)
 * is the root's. Cases: full-depth searches of independent and incremental trees, and
 * depth-limited searches of deeper incremental and independent trees (the horizon's
 * evaluation, not the leaves', is what is exact), with iterative deepening and without,
 * for alpha-beta, PVS and MTD(f) with a table, and PVS without one.
 * Connect Four: positions whose scores are known, solved to the end by
 * cutoff_connect4_solve with every driver and count (with `cutoff solve`'s ordering and
 * enhanced transposition cut-offs): the score must be the known one,
 * and the best column must be legal and achieve it (the child, solved by the serial
 * engine, is worth -score). The known scores: Pons' test sets, the first 8 lines of
 * Test_L3_R1 and the first 4 of Test_L2_R1 (a few hundred nodes each), read from
 * CUTOFF_DATA_DIR/connect4 at run time ("skipped: data not found" without them); and,
 * always, "4455" (18, README's worked example) and six random endgames of 16 empty cells
 * (seeded playouts), scored by the serial engine on one virtual thread.
 *
 * Usage: test_sim_exact [--threads N,N,...] (other counts; valgrind runs 1,2,7).
 */
#include "test_sim_util.h"

static const int default_counts[] = { 1, 2, 7, 16, 64, 128, 256 };
enum {
	MAX_COUNTS = 16
};
static int counts[MAX_COUNTS], ncounts;

static const char *algo_name[] = { "minimax", "alphabeta", "pvs", "mtdf" };

/* The engines' settings: algorithm and table. */
static const struct {
	cutoff_algo_t algo;
	size_t mb;
} setups[] = {
	{ CUTOFF_ALGO_ALPHABETA, 1 },
	{ CUTOFF_ALGO_PVS, 1 },
	{ CUTOFF_ALGO_MTDF, 1 },
	{ CUTOFF_ALGO_PVS, 0 },
};
enum {
	NSETUPS = sizeof setups / sizeof setups[0]
};

/* ---------------------------------------------------------------------------------------
 * Random trees
 * ------------------------------------------------------------------------------------- */

typedef struct tree_case {
	int branching, tree_depth;
	cutoff_rtree_model_t model;
	int depth;    /* the search's */
	bool iterate; /* iterative deepening, or one search at `depth` */
	int roots;    /* root seeds 1 .. roots (offset by the case's index) */
} tree_case_t;

static const tree_case_t tree_cases[] = {
	{ 5, 7, CUTOFF_RTREE_IID, 7, true, 2 },           /* to the leaves */
	{ 5, 7, CUTOFF_RTREE_INCREMENTAL, 7, true, 2 },   /* to the leaves */
	{ 4, 10, CUTOFF_RTREE_INCREMENTAL, 7, true, 2 },  /* short of them */
	{ 4, 10, CUTOFF_RTREE_INCREMENTAL, 6, false, 1 }, /* short of them, one search */
	{ 6, 8, CUTOFF_RTREE_IID, 5, false, 1 },          /* short of them, one search */
};
enum {
	NTREES = sizeof tree_cases / sizeof tree_cases[0],
	MAX_ROOTS = 2
};

static cutoff_rtree_t *trees[NTREES];
static cutoff_rtree_state_t roots[NTREES][MAX_ROOTS];
static int32_t truths[NTREES][MAX_ROOTS];

/* The trees, their roots, and the oracle's values; the serial search on one virtual
 * thread must give them (it is the oracle the issue names: checked here against negamax). */
static void trees_make(void)
{
	cutoff_sim_t *sim = sim_start(NULL, CUTOFF_SIM_CLOCK, 1);
	int wrong = 0, n = 0;
	for (int t = 0; t < NTREES; t++) {
		const tree_case_t *c = &tree_cases[t];
		cutoff_rtree_params_t p;
		cutoff_rtree_params_default(&p);
		p.branching = c->branching;
		p.depth = c->tree_depth;
		p.model = c->model;
		if (c->model == CUTOFF_RTREE_INCREMENTAL) {
			p.value_min = -20;
			p.value_max = 20;
		}
		trees[t] = cutoff_rtree_new(&p, NULL);
		CHECK(trees[t] != NULL, "random tree %d", t);
		if (!trees[t])
			exit(check_report());
		const cutoff_game_t *g = cutoff_rtree_game(trees[t]);
		cutoff_config_t cfg = sim_config(CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_PVS, 1);
		cutoff_engine_t *e = sim_engine(g, &cfg);
		for (int k = 0; k < c->roots; k++) {
			cutoff_rtree_root(trees[t], (uint64_t)(100 * t + k + 1), &roots[t][k]);
			truths[t][k] = oracle_negamax(g, &roots[t][k], c->depth);
			cutoff_result_t r;
			int rc = e ? sim_search(e, &roots[t][k], c->depth, c->iterate, &r) : -1;
			const char *why =
				sim_rtree_wrong(g, &roots[t][k], c->depth, truths[t][k], rc, &r);
			n++;
			if (why) {
				wrong++;
				printf("  tree %d root %d: the serial search gave %s (%d, "
				       "negamax %d)\n",
				       t, k, why, (int)r.value, (int)truths[t][k]);
			}
		}
		cutoff_engine_free(e);
	}
	sim_stop(sim);
	CHECK(wrong == 0, "the serial search agrees with negamax on %d of %d random roots",
	      n - wrong, n);
	printf("random trees: %d roots, the serial search on 1 virtual thread agrees with "
	       "negamax on %d\n",
	       n, n - wrong);
}

/* Every case of random trees at `threads` virtual threads with `driver`. */
static void trees_run(cutoff_driver_t driver, int threads, int *runs, int *wrong)
{
	for (int t = 0; t < NTREES; t++) {
		const tree_case_t *c = &tree_cases[t];
		const cutoff_game_t *g = cutoff_rtree_game(trees[t]);
		for (int s = 0; s < NSETUPS; s++) {
			cutoff_config_t cfg =
				sim_config(driver, threads, setups[s].algo, setups[s].mb);
			cutoff_engine_t *e = sim_engine(g, &cfg);
			for (int k = 0; e && k < c->roots; k++) {
				cutoff_result_t r;
				int rc = sim_search(e, &roots[t][k], c->depth, c->iterate, &r);
				const char *why = sim_rtree_wrong(g, &roots[t][k], c->depth,
				                                  truths[t][k], rc, &r);
				(*runs)++;
				if (why && ++*wrong <= 10)
					printf("  %s x%d, %s table %zu MiB, tree %d (b %d, "
					       "depth %d of %d, %s, %s), root %d: %s: value %d "
					       "(bound %d, depth %d, move %d), serial %d\n",
					       cutoff_driver_name(driver), threads,
					       algo_name[setups[s].algo], setups[s].mb, t,
					       c->branching, c->depth, c->tree_depth,
					       c->model == CUTOFF_RTREE_IID ? "iid" : "incremental",
					       c->iterate ? "iterated" : "one search", k, why,
					       (int)r.value, (int)r.bound, r.depth,
					       (int)r.best_move, (int)truths[t][k]);
			}
			cutoff_engine_free(e);
		}
	}
}

/* ---------------------------------------------------------------------------------------
 * Connect Four
 * ------------------------------------------------------------------------------------- */

enum {
	C4_MAX = 32,
	C4_RANDOM = 6,       /* random endgames, */
	C4_RANDOM_EMPTY = 16 /* of this many empty cells */
};

typedef struct c4_case {
	cutoff_connect4_state_t st;
	int score;
	char where[48];
} c4_case_t;

static c4_case_t c4[C4_MAX];
static int nc4;

static cutoff_engine_t *c4_engine(cutoff_driver_t driver, int threads)
{
	cutoff_config_t cfg = sim_config(driver, threads, CUTOFF_ALGO_PVS, 4);
	cfg.ordering = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS; /* as cutoff solve, */
	cfg.etc_min_depth = 10;                              /* its default */
	return sim_engine(cutoff_connect4_game(), &cfg);
}

/* Lines [from, to] (1-based) of CUTOFF_DATA_DIR/connect4/<name>; false when missing. */
static bool c4_read(const char *dir, const char *name, int from, int to)
{
	char path[1024], line[256];
	snprintf(path, sizeof(path), "%s/connect4/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	for (int no = 1; no <= to && fgets(line, sizeof(line), f); no++) {
		char moves[128];
		int score;
		if (no < from)
			continue;
		if (nc4 >= C4_MAX || sscanf(line, "%127s %d", moves, &score) != 2 ||
		    cutoff_connect4_parse(moves, &c4[nc4].st, NULL, 0) != 0) {
			CHECK(false, "%s line %d is not '<moves> <score>'", name, no);
			continue;
		}
		c4[nc4].score = score;
		snprintf(c4[nc4].where, sizeof(c4[nc4].where), "%s:%d", name, no);
		nc4++;
	}
	fclose(f);
	return true;
}

/* A seeded random playout to C4_RANDOM_EMPTY empty cells that is not over, and whose value
 * is not known without a search; false when the playout ended first. */
static bool c4_random_endgame(uint64_t *rng, cutoff_connect4_state_t *st)
{
	cutoff_connect4_start(st);
	while (st->stones < CUTOFF_CONNECT4_CELLS - C4_RANDOM_EMPTY) {
		if (st->known)
			return false;
		int col = (int)(splitmix64(rng) % CUTOFF_CONNECT4_WIDTH), tries = 0;
		while (cutoff_connect4_play(st, col) != 0 && tries++ < CUTOFF_CONNECT4_WIDTH)
			col = (col + 1) % CUTOFF_CONNECT4_WIDTH;
		if (tries > CUTOFF_CONNECT4_WIDTH)
			return false;
	}
	return !st->known;
}

/* The sample: the data's lines when present, "4455", and random endgames scored by the
 * serial engine on one virtual thread. */
static void c4_make(void)
{
	const char *dir = getenv("CUTOFF_DATA_DIR");
	if (dir && c4_read(dir, "Test_L3_R1", 1, 8) && c4_read(dir, "Test_L2_R1", 1, 4))
		printf("connect four: %d positions of Pons' test sets\n", nc4);
	else
		printf("connect four: test sets: skipped: data not found "
		       "(CUTOFF_DATA_DIR/connect4)\n");

	cutoff_connect4_parse("4455", &c4[nc4].st, NULL, 0);
	c4[nc4].score = 18;
	snprintf(c4[nc4].where, sizeof(c4[nc4].where), "4455 (README)");
	nc4++;

	cutoff_sim_t *sim = sim_start(NULL, CUTOFF_SIM_CLOCK, 1);
	cutoff_engine_t *e = c4_engine(CUTOFF_DRIVER_SERIAL, 1);
	uint64_t rng = 15;
	for (int made = 0, tries = 0; e && made < C4_RANDOM && tries < 1000; tries++) {
		cutoff_connect4_state_t st;
		if (!c4_random_endgame(&rng, &st))
			continue;
		cutoff_connect4_solution_t s;
		cutoff_engine_clear(e);
		if (cutoff_connect4_solve(e, &st, false, CUTOFF_CONNECT4_BISECT, &s) != 0 ||
		    s.stopped)
			continue;
		c4[nc4].st = st;
		c4[nc4].score = s.score;
		snprintf(c4[nc4].where, sizeof(c4[nc4].where), "random endgame %d", made + 1);
		nc4++;
		made++;
	}
	cutoff_engine_free(e);
	sim_stop(sim);
	CHECK(nc4 >= 1 + C4_RANDOM, "connect four: %d positions in the sample", nc4);
}

/* The best column achieves the score: legal, and the child is worth -score (solved by
 * `serial`). */
static bool c4_move_ok(cutoff_engine_t *serial, const c4_case_t *c, int column)
{
	cutoff_connect4_state_t t = c->st;
	if (column < 0 || cutoff_connect4_play(&t, column) != 0)
		return false;
	cutoff_connect4_solution_t child;
	cutoff_engine_clear(serial);
	if (cutoff_connect4_solve(serial, &t, false, CUTOFF_CONNECT4_BISECT, &child) != 0)
		return false;
	return child.score == -c->score;
}

static void c4_run(cutoff_driver_t driver, int threads, int *runs, int *wrong)
{
	cutoff_engine_t *e = c4_engine(driver, threads);
	cutoff_engine_t *serial = c4_engine(CUTOFF_DRIVER_SERIAL, 1);
	for (int i = 0; e && serial && i < nc4; i++) {
		cutoff_connect4_solution_t s;
		cutoff_engine_clear(e);
		int rc = cutoff_connect4_solve(e, &c4[i].st, false, (i + threads) % 2, &s);
		const char *why = NULL;
		if (rc != 0)
			why = cutoff_strerror(rc);
		else if (s.stopped)
			why = "a solve that stopped";
		else if (s.score != c4[i].score)
			why = "a score that is not the known one";
		else if (!c4_move_ok(serial, &c4[i], s.best_column))
			why = "a best column that does not achieve the score";
		(*runs)++;
		if (why && ++*wrong <= 10)
			printf("  %s x%d, connect four %s: %s: score %d, best column %d, "
			       "known %d\n",
			       cutoff_driver_name(driver), threads, c4[i].where, why, s.score,
			       s.best_column, c4[i].score);
	}
	cutoff_engine_free(serial);
	cutoff_engine_free(e);
}

/* Every case with `driver` at `threads` virtual threads, in a fresh simulator (a failure
 * replays alone). */
static void run_count(cutoff_driver_t driver, int threads)
{
	cutoff_sim_t *sim = sim_start(NULL, CUTOFF_SIM_CLOCK, 1);
	int tree_runs = 0, tree_wrong = 0, c4_runs = 0, c4_wrong = 0;
	trees_run(driver, threads, &tree_runs, &tree_wrong);
	c4_run(driver, threads, &c4_runs, &c4_wrong);
	cutoff_sim_stats_t st;
	cutoff_sim_stats(sim, &st);
	sim_stop(sim);
	CHECK(tree_wrong == 0, "%s x%d: %d of %d random-tree searches wrong",
	      cutoff_driver_name(driver), threads, tree_wrong, tree_runs);
	CHECK(c4_wrong == 0, "%s x%d: %d of %d connect four solves wrong",
	      cutoff_driver_name(driver), threads, c4_wrong, c4_runs);
	printf("%-8s x%-2d: %d random-tree searches, %d connect four solves, %d wrong (%llu "
	       "jobs, %llu switches)\n",
	       cutoff_driver_name(driver), threads, tree_runs, c4_runs, tree_wrong + c4_wrong,
	       (unsigned long long)st.jobs, (unsigned long long)st.switches);
}

/* --threads LIST: the counts to run instead of 1,2,7,16,64,128,256 (valgrind runs a few). */
static bool parse_args(int argc, char **argv)
{
	ncounts = 0;
	if (argc == 1) {
		for (size_t i = 0; i < sizeof default_counts / sizeof(int); i++)
			counts[ncounts++] = default_counts[i];
		return true;
	}
	if (argc != 3 || strcmp(argv[1], "--threads"))
		return false;
	for (char *p = argv[2], *end; *p && ncounts < MAX_COUNTS; p = *end ? end + 1 : end) {
		long n = strtol(p, &end, 10);
		if (end == p || n < 1 || n > CUTOFF_MAX_THREADS || (*end && *end != ','))
			return false;
		counts[ncounts++] = (int)n;
	}
	return ncounts > 0;
}

int main(int argc, char **argv)
{
	if (!parse_args(argc, argv)) {
		fprintf(stderr, "usage: %s [--threads N,N,...]\n", argv[0]);
		return 2;
	}
	sim_topology_load();
	trees_make();
	c4_make();
	int ndrivers = cutoff_driver_count();
	CHECK(ndrivers >= 4, "the registry has %d drivers", ndrivers);
	for (int d = 0; d < ndrivers; d++)
		for (int k = 0; k < ncounts; k++)
			run_count((cutoff_driver_t)d, counts[k]);
	for (int t = 0; t < NTREES; t++)
		cutoff_rtree_free(trees[t]);
	sim_topology_free();
	return check_report();
}
