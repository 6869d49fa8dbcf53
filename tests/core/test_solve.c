/* SPDX-License-Identifier: MIT */
/*
 * The solve mode (cutoff_limits_t.solve) against an exact oracle, on a game with passes and
 * plain scores whose lines differ in length (cutoff_pgame: cells fill one a move, a side
 * without a legal cell passes, two passes end the game), and on Connect Four.
 *
 * For random games (seeds, sizes and densities of legal cells drawn from a fixed seed)
 * the oracle, a memoized negamax over every position, gives the exact value V and the
 * longest line L. Checked:
 *   - deepening with no depth (depth 0) stops solved, at a depth <= L, with V exact, for
 *     alpha-beta, PVS and MTD(f) with a table, and without a table;
 *   - every algorithm (minimax on the small games) keeps the contract for V on random
 *     windows, and says solved;
 *   - a single search to L is solved with V; a single search shallower than L that says
 *     solved has V (a value that met no horizon is the game's, whatever the depth); a
 *     single search with no depth is solved with V and reports as its depth the longest
 *     line it met (at most L), not CUTOFF_MAX_PLY - 1;
 *   - lazy SMP and YBW at 2, 4 and 8 threads (more threads than cores) give V, solved;
 *   - without solve nothing changes: the same search to L gives V, solved false;
 *   - the principal variation of a solved value, completed from the table, plays out to
 *     the end of the game and scores the root's value.
 * Connect Four: the weak solve of 3246313 (a loss for the side to move, as its pinned
 * search says) with no depth, window (-1, 1), is solved with a value <= -1.
 */
#include <string.h>

#include "check.h"
#include "cutoff_connect4.h"
#include "cutoff_games.h"
#include "random.h"

static const char *const algo_names[] = { "minimax", "alphabeta", "pvs", "mtdf" };

typedef struct setup {
	cutoff_algo_t algo;
	cutoff_driver_t driver;
	int threads;
	size_t tt_mb;
	unsigned ordering; /* 0: the default */
} setup_t;

static int search(const cutoff_game_t *g, const setup_t *su, const void *root,
                  const cutoff_limits_t *lim, cutoff_result_t *r)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	if (su->ordering)
		cfg.ordering = su->ordering;
	cfg.algo = su->algo;
	cfg.driver = su->driver;
	cfg.threads = su->threads;
	cfg.tt_mb = su->tt_mb;
	int err;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	if (!e)
		return err;
	int rc = cutoff_engine_search(e, root, lim, r, NULL, NULL);
	cutoff_engine_free(e);
	return rc;
}

static bool keeps_contract(int32_t v, int32_t alpha, int32_t beta, int32_t truth)
{
	if (v <= alpha)
		return truth <= v;
	if (v >= beta)
		return truth >= v;
	return truth == v;
}

/* True when `state` is not over and gen_moves lists `move` in it. */
static bool listed(const cutoff_game_t *g, const void *state, cutoff_move_t move)
{
	int32_t v;
	if (g->terminal(g->ctx, state, &v))
		return false;
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	int n = g->gen_moves(g->ctx, state, moves, NULL);
	for (int i = 0; i < n; i++)
		if (moves[i] == move)
			return true;
	return false;
}

/* A solved exact value's principal variation, completed from the table, plays out to
 * the end of the game, and the final score is the root's value. */
static void check_pv(const cutoff_game_t *g, const cutoff_pgame_state_t *root,
                     const cutoff_result_t *r, int index)
{
	cutoff_pgame_state_t st[2];
	int32_t v = 0;
	int p = 0;
	st[0] = *root;
	for (; p < r->pv_length; p++) {
		if (!listed(g, &st[p % 2], r->pv[p]))
			break;
		g->play(g->ctx, &st[p % 2], r->pv[p], &st[(p + 1) % 2]);
	}
	bool over = g->terminal(g->ctx, &st[p % 2], &v);
	CHECK(p == r->pv_length && over && (p % 2 ? -v : v) == r->value,
	      "game %d: the PV (%d moves, %d legal) ends the game with %d (root value %d)", index,
	      r->pv_length, p, (int)(p % 2 ? -v : v), (int)r->value);
}

/* One search with no depth (depth 0, not iterating), the solver's call: solved with V, and
 * the depth it reports is the longest line it met (counters.seldepth, at most L), which its
 * one iteration says too, not the CUTOFF_MAX_PLY - 1 it was allowed. */
static void one_search_no_depth(const cutoff_game_t *g, const cutoff_pgame_state_t *root,
                                int32_t truth, int length, int index)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.solve = true;
	setup_t su = { CUTOFF_ALGO_PVS, CUTOFF_DRIVER_SERIAL, 1, 4, 0 };
	cutoff_result_t r;
	int rc = search(g, &su, root, &lim, &r);
	CHECK(rc == 0 && r.solved && r.value == truth && r.depth >= 1 && r.depth <= length &&
	              (uint64_t)r.depth == r.counters.seldepth && r.iterations == 1 &&
	              r.iteration[0].depth == r.depth,
	      "game %d: one search with no depth: solved %d value %d (oracle %d), depth %d "
	      "(seldepth %llu, longest line %d), iteration depth %d",
	      index, r.solved, (int)r.value, (int)truth, r.depth,
	      (unsigned long long)r.counters.seldepth, length,
	      r.iterations ? r.iteration[0].depth : -1);
}

static void one_game(uint64_t *rng, int index, uint64_t *searched)
{
	cutoff_pgame_params_t p;
	cutoff_pgame_params_default(&p);
	p.cells = 6 + (int)(splitmix64(rng) % 7); /* 6 .. 12 */
	p.legal = 20 + (int)(splitmix64(rng) % 60);
	p.score = 1 + (int)(splitmix64(rng) % 100);
	p.seed = splitmix64(rng);
	cutoff_pgame_t *game = cutoff_pgame_new(&p, NULL);
	const cutoff_game_t *g = cutoff_pgame_game(game);
	cutoff_pgame_state_t root;
	cutoff_pgame_root(game, &root);
	int32_t truth;
	int length;
	CHECK(cutoff_pgame_solve(game, &root, &truth, &length) == 0, "oracle");
	cutoff_result_t r;
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.solve = true;
	lim.iterate = true;

	/* Deepening with no depth: every algorithm but minimax, with and without a table. */
	for (int a = CUTOFF_ALGO_ALPHABETA; a <= CUTOFF_ALGO_MTDF; a++)
		for (int mb = 0; mb <= 1; mb++) {
			if (a == CUTOFF_ALGO_MTDF && mb == 0)
				continue; /* MTD(f) needs its table */
			setup_t su = { (cutoff_algo_t)a, CUTOFF_DRIVER_SERIAL, 1, (size_t)mb * 4,
				       0 };
			int rc = search(g, &su, &root, &lim, &r);
			CHECK(rc == 0 && r.solved && r.value == truth &&
			              r.bound == CUTOFF_BOUND_EXACT && r.depth <= length &&
			              !r.stopped,
			      "game %d (%d cells, legal %d%%): %s tt %d: rc %d solved %d value %d "
			      "(oracle %d) depth %d (longest line %d)",
			      index, p.cells, p.legal, algo_names[a], mb, rc, r.solved,
			      (int)r.value, (int)truth, r.depth, length);
			if (mb)
				check_pv(g, &root, &r, index);
			++*searched;
		}

	/* Random windows, every algorithm; minimax only where the tree is small. */
	for (int k = 0; k < 4; k++) {
		int32_t lo = (int32_t)(splitmix64(rng) % (uint64_t)(2 * p.score + 3)) - p.score - 1;
		int32_t hi = lo + 1 + (int32_t)(splitmix64(rng) % 6);
		lim.alpha = lo;
		lim.beta = hi;
		for (int a = p.cells <= 8 ? 0 : 1; a <= CUTOFF_ALGO_MTDF; a++) {
			setup_t su = { (cutoff_algo_t)a, CUTOFF_DRIVER_SERIAL, 1,
				       a == CUTOFF_ALGO_MINIMAX ? 0 : 4, 0 };
			int rc = search(g, &su, &root, &lim, &r);
			CHECK(rc == 0 && r.solved && keeps_contract(r.value, lo, hi, truth),
			      "game %d: %s window (%d, %d): value %d solved %d, oracle %d", index,
			      algo_names[a], (int)lo, (int)hi, (int)r.value, r.solved, (int)truth);
			++*searched;
		}
	}
	lim.alpha = -CUTOFF_INF;
	lim.beta = CUTOFF_INF;

	/* Single searches: to the longest line, and shallower. */
	lim.iterate = false;
	for (int d = length; d >= 1 && d >= length - 4; d--) {
		setup_t su = { CUTOFF_ALGO_PVS, CUTOFF_DRIVER_SERIAL, 1, 4, 0 };
		lim.depth = d;
		int rc = search(g, &su, &root, &lim, &r);
		CHECK(rc == 0 && (d < length || r.solved) && (!r.solved || r.value == truth),
		      "game %d: one search at depth %d of %d: solved %d value %d (oracle %d)",
		      index, d, length, r.solved, (int)r.value, (int)truth);
		++*searched;
	}
	lim.depth = 0;
	lim.iterate = true;
	one_search_no_depth(g, &root, truth, length, index);
	++*searched;

	/* The parallel drivers, oversubscribed too. */
	for (int driver = CUTOFF_DRIVER_LAZYSMP; driver < cutoff_driver_count(); driver++)
		for (int threads = 2; threads <= 8; threads *= 2) {
			setup_t su = { CUTOFF_ALGO_PVS, (cutoff_driver_t)driver, threads, 4, 0 };
			int rc = search(g, &su, &root, &lim, &r);
			CHECK(rc == 0 && r.solved && r.value == truth &&
			              r.bound == CUTOFF_BOUND_EXACT,
			      "game %d: %s x%d: solved %d value %d (oracle %d)", index,
			      cutoff_driver_name((cutoff_driver_t)driver), threads, r.solved,
			      (int)r.value, (int)truth);
			++*searched;
		}

	/* Without solve: the plain depth-limited search, which never says solved. */
	lim.solve = false;
	lim.iterate = false;
	lim.depth = length;
	setup_t su = { CUTOFF_ALGO_PVS, CUTOFF_DRIVER_SERIAL, 1, 4, 0 };
	int rc = search(g, &su, &root, &lim, &r);
	CHECK(rc == 0 && !r.solved && r.value == truth,
	      "game %d: without solve, depth %d: value %d (oracle %d), solved %d", index, length,
	      (int)r.value, (int)truth, r.solved);
	++*searched;
	cutoff_pgame_free(game);
}

static void connect4(void)
{
	cutoff_connect4_state_t st;
	char err[128];
	CHECK(cutoff_connect4_parse("3246313", &st, err, sizeof err) == 0, "parse: %s", err);
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.solve = true;
	lim.alpha = -1;
	lim.beta = 1;
	setup_t su = { CUTOFF_ALGO_PVS, CUTOFF_DRIVER_SERIAL, 1, 4,
		       CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS }; /* the solver's ordering */
	cutoff_result_t r;
	int rc = search(cutoff_connect4_game(), &su, &st, &lim, &r);
	CHECK(rc == 0 && r.solved && r.value <= -1,
	      "connect4 3246313, weak solve with no depth: rc %d solved %d value %d depth %d", rc,
	      r.solved, (int)r.value, r.depth);
	printf("connect4 3246313: solved at depth %d, value %d, %llu nodes\n", r.depth,
	       (int)r.value, (unsigned long long)r.counters.nodes);
}

int main(void)
{
	uint64_t rng = 20261201, searched = 0;
	for (int i = 0; i < 30; i++)
		one_game(&rng, i, &searched);
	printf("%llu searches of 30 random games with passes against the oracle\n",
	       (unsigned long long)searched);
	connect4();
	return check_report();
}
