/* SPDX-License-Identifier: MIT */
/*
 * test_solve_stress.c — parallel solves must say they are solved (issue 25, item 2).
 *
 * A solve (limits.solve) whose root value never met the horizon reports result.solved;
 * an embedder loops "until solved" on it. The serial search always said so; the parallel
 * drivers sometimes returned the right value unsolved, and a warm re-search on the same
 * table stayed unsolved: a table answer read the bucket twice (search.c, tt_lookup), and
 * another thread's store between the reads made a full-depth node count a contact with
 * the horizon, whose entry, stored as not exact to the end, then poisoned every search
 * through it. This test hunts for that on real threads, oversubscribed, where the
 * threads' timing decides: small tables (1 MiB, so entries are replaced often), games
 * with transpositions and lines of different lengths.
 *
 * Cases, drawn from a fixed seed:
 *   - random games with passes (cutoff_pgame, a model of an Othello endgame) of 9 to 13
 *     cells, against their memoized oracle (exact value and longest line);
 *   - random trees (IID and incremental values) whose leaves end the game, against the
 *     brute-force negamax;
 *   - Connect Four positions of a seeded random playout with 12 to 16 empty cells, against
 *     the serial driver's solve (test_solve and test_connect4_sets check that one).
 * Each is solved with each parallel driver of the registry (ABDADA in both variants) at
 * 2, 3, 4, 8 and 16 threads, by one search to the end (depth 0, no iterations: as a
 * solver asks) and by iterative deepening, and then once more warm, on the table the first
 * left. Every search must return the exact value, bound exact, solved.
 *
 * Usage: test_solve_stress [--searches N] [--seed S]: stop after at least N parallel
 * searches (default 12000; 2000 under a sanitizer). tests/CMakeLists.txt registers a
 * longer run too, test_solve_stress_long (slow).
 *
 * cutoff-test-labels: concurrent
 * cutoff-test-timeout: 1200
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cutoff_games.h"
#include "oracle.h"
#include "random.h"
#include "sanitizer.h"

static const int thread_counts[] = { 2, 3, 4, 8, 16 };

/* What a case's searches must answer, and how to name the case in a failure. */
typedef struct want {
	int32_t value;
	char what[160];
} want_t;

static uint64_t searches, unsolved, wrong;

static int draw(uint64_t *rng, int lo, int hi)
{
	return lo + (int)(splitmix64(rng) % (uint64_t)(hi - lo + 1));
}

/* One driver setting: the driver and, for ABDADA, the variant. */
typedef struct setting {
	cutoff_driver_t driver;
	int abdada_variant; /* -1: not ABDADA */
} setting_t;

static int settings_of(setting_t *out)
{
	int n = 0;
	for (int d = 0; d < cutoff_driver_count(); d++) {
		if (d == CUTOFF_DRIVER_SERIAL)
			continue;
		if (d == CUTOFF_DRIVER_ABDADA) {
			out[n++] = (setting_t){ (cutoff_driver_t)d, CUTOFF_ABDADA_CLASSIC };
			out[n++] = (setting_t){ (cutoff_driver_t)d, CUTOFF_ABDADA_SIMPLIFIED };
		} else {
			out[n++] = (setting_t){ (cutoff_driver_t)d, -1 };
		}
	}
	return n;
}

static const char *setting_name(const setting_t *s)
{
	if (s->abdada_variant == CUTOFF_ABDADA_CLASSIC)
		return "abdada classic";
	if (s->abdada_variant == CUTOFF_ABDADA_SIMPLIFIED)
		return "abdada simplified";
	return cutoff_driver_name(s->driver);
}

/* One search, checked: exact value, bound exact, solved. */
static void check_search(cutoff_engine_t *e, const void *root, bool iterate, const want_t *w,
                         const setting_t *s, int threads, const char *pass)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.solve = true;
	lim.iterate = iterate;
	cutoff_result_t r;
	int rc = cutoff_engine_search(e, root, &lim, &r, NULL, NULL);
	searches++;
	bool right = rc == 0 && r.value == w->value && r.bound == CUTOFF_BOUND_EXACT;
	wrong += !right;
	unsolved += right && !r.solved;
	CHECK(right && r.solved,
	      "%s, %s x%d, %s, %s: rc %d value %d (want %d) bound %d solved %d depth %d", w->what,
	      setting_name(s), threads, iterate ? "iterated" : "one search", pass, rc, (int)r.value,
	      (int)w->value, (int)r.bound, r.solved, r.depth);
}

/* A case's root under one driver setting and thread count: a cold solve then a warm one
 * on the same table, by one search to the end or by iterative deepening. */
static void solve_case(const cutoff_game_t *g, const void *root, const want_t *w,
                       const setting_t *s, int threads, bool iterate, unsigned ordering)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = s->driver;
	cfg.threads = threads;
	cfg.tt_mb = 1;
	cfg.algo = CUTOFF_ALGO_PVS;
	if (ordering)
		cfg.ordering = ordering;
	if (s->abdada_variant >= 0) {
		cfg.abdada_variant = (cutoff_abdada_variant_t)s->abdada_variant;
		cfg.abdada_min_depth = 2; /* marks where these small trees have work */
	}
	int err;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	CHECK(e != NULL, "engine %s x%d: %s", setting_name(s), threads, cutoff_strerror(err));
	if (!e)
		return;
	check_search(e, root, iterate, w, s, threads, "cold");
	check_search(e, root, iterate, w, s, threads, "warm");
	cutoff_engine_free(e);
}

/* Every driver setting at a thread count drawn for the case, both ways of searching. */
static void solve_everywhere(uint64_t *rng, const cutoff_game_t *g, const void *root,
                             const want_t *w, unsigned ordering)
{
	setting_t settings[16];
	int n = settings_of(settings);
	int threads = thread_counts[draw(rng, 0, (int)(sizeof thread_counts / sizeof(int)) - 1)];
	for (int i = 0; i < n; i++)
		for (int iterate = 0; iterate <= 1; iterate++)
			solve_case(g, root, w, &settings[i], threads, iterate, ordering);
}

static void pgame_case(uint64_t *rng, int index)
{
	cutoff_pgame_params_t p;
	cutoff_pgame_params_default(&p);
	p.cells = draw(rng, 9, 13);
	p.legal = draw(rng, 30, 90);
	p.score = draw(rng, 1, 64);
	p.seed = splitmix64(rng);
	cutoff_pgame_t *game = cutoff_pgame_new(&p, NULL);
	CHECK(game != NULL, "pgame %d refused", index);
	if (!game)
		return;
	cutoff_pgame_state_t root;
	cutoff_pgame_root(game, &root);
	want_t w;
	int length;
	CHECK(cutoff_pgame_solve(game, &root, &w.value, &length) == 0, "pgame oracle");
	snprintf(w.what, sizeof w.what, "pgame %d (%d cells, legal %d%%, seed %" PRIu64 ")", index,
	         p.cells, p.legal, p.seed);
	solve_everywhere(rng, cutoff_pgame_game(game), &root, &w, 0);
	cutoff_pgame_free(game);
}

static void rtree_case(uint64_t *rng, int index)
{
	static const int max_depth[] = { 0, 0, 13, 9, 7, 6 }; /* by branching */
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = draw(rng, 2, 5);
	p.depth = draw(rng, 4, max_depth[p.branching]);
	p.model = (cutoff_rtree_model_t)draw(rng, 0, 1);
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	CHECK(tree != NULL, "rtree %d refused", index);
	if (!tree)
		return;
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	cutoff_rtree_state_t root;
	uint64_t seed = splitmix64(rng);
	cutoff_rtree_root(tree, seed, &root);
	want_t w;
	w.value = oracle_negamax(g, &root, p.depth);
	snprintf(w.what, sizeof w.what, "rtree %d (b %d, depth %d, %s, root %" PRIu64 ")", index,
	         p.branching, p.depth, p.model ? "incremental" : "iid", seed);
	solve_everywhere(rng, g, &root, &w, 0);
	cutoff_rtree_free(tree);
}

/* A position of a seeded random playout with `empty` cells left whose value the game does
 * not know without a search (not terminal: nobody wins at once, so the search has work).
 * False when the playout ended first or the position is terminal. */
static bool connect4_position(uint64_t *rng, int empty, cutoff_connect4_state_t *st, char *moves,
                              size_t len)
{
	cutoff_connect4_start(st);
	size_t k = 0;
	for (int ply = 0; ply < 42 - empty; ply++) {
		int col = draw(rng, 0, 6), tries = 0;
		while (cutoff_connect4_play(st, col) != 0) {
			if (++tries == 7 || k + 1 >= len)
				return false;
			col = (col + 1) % 7;
		}
		if (cutoff_connect4_has_four(st))
			return false;
		moves[k++] = (char)('1' + col);
	}
	moves[k] = '\0';
	const cutoff_game_t *g = cutoff_connect4_game();
	int32_t v;
	return !g->terminal(g->ctx, st, &v);
}

static void connect4_case(uint64_t *rng, int index)
{
	const cutoff_game_t *g = cutoff_connect4_game();
	const unsigned solver = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS; /* as cutoff solve */
	cutoff_connect4_state_t st;
	char moves[64];
	int empty = draw(rng, 12, 16);
	while (!connect4_position(rng, empty, &st, moves, sizeof moves))
		;
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.ordering = solver;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, NULL);
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.solve = true;
	cutoff_result_t r;
	want_t w;
	int rc = e ? cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) : CUTOFF_ENOMEM;
	cutoff_engine_free(e);
	CHECK(rc == 0 && r.solved && r.bound == CUTOFF_BOUND_EXACT,
	      "connect4 %s: the serial solve: rc %d solved %d", moves, rc, r.solved);
	if (rc != 0)
		return;
	w.value = r.value;
	snprintf(w.what, sizeof w.what, "connect4 %d (%s)", index, moves);
	solve_everywhere(rng, g, &st, &w, solver);
}

int main(int argc, char **argv)
{
	uint64_t rng = 20261203, want = UNDER_SANITIZER ? 2000 : 12000;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--searches") && i + 1 < argc) {
			want = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			rng = strtoull(argv[++i], NULL, 10);
		} else {
			fprintf(stderr, "usage: %s [--searches N] [--seed S]\n", argv[0]);
			return 2;
		}
	}
	int cases[3] = { 0, 0, 0 };
	for (int k = 0; searches < want; k++) {
		switch (k % 3) {
		case 0:
			pgame_case(&rng, cases[0]++);
			break;
		case 1:
			rtree_case(&rng, cases[1]++);
			break;
		default:
			connect4_case(&rng, cases[2]++);
			break;
		}
	}
	printf("%" PRIu64 " parallel solves (%d games with passes, %d random trees, %d Connect "
	       "Four positions; every parallel driver, 2-16 threads, cold and warm): %" PRIu64
	       " right but unsolved, %" PRIu64 " wrong\n",
	       searches, cases[0], cases[1], cases[2], unsolved, wrong);
	return check_report();
}
