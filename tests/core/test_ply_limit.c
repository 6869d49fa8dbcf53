/* SPDX-License-Identifier: MIT */
/*
 * Games deeper than the ply limit, and why a solve is not solved (result.unsolved).
 *
 * The game: a line of `length` plies where each position has two moves, both leading to
 * the next position of the line (so the tree is a line with transpositions, cheap to
 * search to any depth); the last position is terminal, worth a point to the side to move
 * there, and every other position evaluates to 0. Its value is known: +1 at the root when
 * `length` is even.
 *
 * Checked: a solve of a line of 200 plies (past the default limit of CUTOFF_MAX_PLY) says
 * it is not solved, with CUTOFF_UNSOLVED_PLY_LIMIT and a message in cutoff_engine_error
 * (never an empty one); a line of 100 plies solves (unsolved 0, no message); a solve with a
 * depth shorter than the game says DEPTH, one cut by a node limit STOPPED. With the ply limit
 * raised (config.max_ply 254), the line of 200 plies solves, under every driver at 1 and 3
 * threads, its principal variation a proof line of all 200 moves; a depth of 200 is taken
 * there and refused under the default limit; max_ply 15 and 255 are refused by name.
 * Breadth: a random tree of 600 moves a position (more than the 256 that was the limit, as
 * wide as Kalah with a whole turn as one move) searched by every driver at 1 and 2 threads
 * gives the tree's true value.
 *
 * cutoff-test-labels: core
 */
#include <string.h>

#include "check.h"
#include "cutoff.h"
#include "cutoff_games.h"

typedef struct line_state {
	int ply;
} line_state_t;

static int gen_moves(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	(void)ctx;
	(void)state;
	moves[0] = 0, moves[1] = 1;
	if (hints)
		hints[0] = hints[1] = 0;
	return 2;
}

static void play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	(void)ctx;
	(void)move;
	((line_state_t *)child)->ply = ((const line_state_t *)state)->ply + 1;
}

static int32_t evaluate(const void *ctx, const void *state)
{
	(void)ctx;
	(void)state;
	return 0;
}

static bool terminal(const void *ctx, const void *state, int32_t *value)
{
	const int *length = ctx;
	if (((const line_state_t *)state)->ply < *length)
		return false;
	*value = 1; /* the side to move at the end wins a point */
	return true;
}

static uint64_t key(const void *ctx, const void *state)
{
	(void)ctx;
	return (uint64_t)((const line_state_t *)state)->ply * 0x9e3779b97f4a7c15u + 1;
}

static cutoff_engine_t *line_engine(const int *length, cutoff_game_t *g, int max_ply,
                                    cutoff_driver_t driver, int threads)
{
	*g = (cutoff_game_t){
		.name = "line",
		.state_size = sizeof(line_state_t),
		.max_moves = 2,
		.ctx = length,
		.gen_moves = gen_moves,
		.play = play,
		.evaluate = evaluate,
		.terminal = terminal,
		.key = key,
	};
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.tt_mb = 1;
	cfg.max_ply = max_ply;
	cfg.driver = driver;
	cfg.threads = threads;
	int err = 0;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	CHECK(e != NULL, "engine: %s", cutoff_strerror(err));
	return e;
}

/* Solves the line of `length` plies with the given depth and node limit. */
static int solve_with(int length, int depth, uint64_t nodes, int max_ply, cutoff_driver_t driver,
                      int threads, cutoff_result_t *r, char *error)
{
	cutoff_game_t g;
	cutoff_engine_t *e = line_engine(&length, &g, max_ply, driver, threads);
	if (!e)
		return -100;
	line_state_t root = { 0 };
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.solve = true;
	lim.depth = depth;
	lim.nodes = nodes;
	int rc = cutoff_engine_search(e, &root, &lim, r, NULL, NULL);
	snprintf(error, CUTOFF_ERROR_SIZE, "%s", cutoff_engine_error(e));
	cutoff_engine_free(e);
	return rc;
}

/* A game wider than the old limit of 256 moves a position. */
static void wide(void)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 600;
	p.depth = 2;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	CHECK(tree != NULL, "a random tree of 600 moves a position");
	if (!tree)
		return;
	cutoff_rtree_state_t root;
	cutoff_rtree_root(tree, 11, &root);
	int32_t truth = cutoff_rtree_value(tree, &root);
	for (int d = 0; d < cutoff_driver_count(); d++)
		for (int threads = 1; threads <= 2; threads++) {
			cutoff_config_t cfg;
			cutoff_config_default(&cfg);
			cfg.driver = (cutoff_driver_t)d;
			cfg.threads = threads;
			cfg.tt_mb = 1;
			cfg.ybw_min_split_depth = 1;
			cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
			cfg.dts_min_split_nodes = 1;
			cfg.abdada_min_depth = 1;
			int err = 0;
			cutoff_engine_t *e = cutoff_engine_new(cutoff_rtree_game(tree), &cfg, &err);
			CHECK(e != NULL, "engine for 600 moves: %s", cutoff_strerror(err));
			if (!e)
				continue;
			cutoff_limits_t lim;
			cutoff_limits_default(&lim);
			lim.depth = 2;
			cutoff_result_t r;
			int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
			CHECK(rc == 0 && r.value == truth && r.bound == CUTOFF_BOUND_EXACT,
			      "%s x%d, 600 moves a position: rc %d value %d (true %d)",
			      cutoff_driver_name((cutoff_driver_t)d), threads, rc, (int)r.value,
			      (int)truth);
			cutoff_engine_free(e);
		}
	cutoff_rtree_free(tree);
}

static int solve(int length, int depth, uint64_t nodes, cutoff_result_t *r, char *error)
{
	return solve_with(length, depth, nodes, 0, CUTOFF_DRIVER_SERIAL, 1, r, error);
}

/* config.max_ply: refused outside its range, naming the field. */
static void max_ply_range(void)
{
	int length = 10;
	cutoff_game_t g;
	cutoff_engine_t *e = line_engine(&length, &g, 0, CUTOFF_DRIVER_SERIAL, 1);
	cutoff_engine_free(e);
	for (int bad = 0; bad < 2; bad++) {
		cutoff_config_t cfg;
		cutoff_config_default(&cfg);
		cfg.max_ply = bad ? CUTOFF_PLY_LIMIT + 1 : 15;
		char msg[CUTOFF_ERROR_SIZE];
		int rc = cutoff_config_check(&cfg, &g, msg, sizeof msg);
		int err = 0;
		cutoff_engine_t *refused = cutoff_engine_new(&g, &cfg, &err);
		CHECK(rc == CUTOFF_EINVAL && !refused && err == CUTOFF_EINVAL &&
		              strstr(msg, "max_ply"),
		      "max_ply %d refused: rc %d '%s'", cfg.max_ply, rc, msg);
		cutoff_engine_free(refused);
	}
}

int main(void)
{
	cutoff_result_t r;
	char error[CUTOFF_ERROR_SIZE];

	int rc = solve(100, 0, 0, &r, error);
	CHECK(rc == 0 && r.solved && r.unsolved == 0 && r.value == 1 && error[0] == '\0',
	      "a line of 100 plies solves: rc %d solved %d unsolved %d value %d error '%s'", rc,
	      (int)r.solved, r.unsolved, (int)r.value, error);

	rc = solve(200, 0, 0, &r, error);
	CHECK(rc == 0 && !r.solved && r.unsolved == CUTOFF_UNSOLVED_PLY_LIMIT &&
	              strstr(error, "ply limit") != NULL,
	      "a line of 200 plies is not solved, for the ply limit: rc %d solved %d unsolved %d "
	      "error '%s'",
	      rc, (int)r.solved, r.unsolved, error);

	rc = solve(100, 20, 0, &r, error);
	CHECK(rc == 0 && !r.solved && r.unsolved == CUTOFF_UNSOLVED_DEPTH &&
	              strstr(error, "depth asked") != NULL,
	      "a solve to depth 20 of 100 plies says DEPTH: unsolved %d error '%s'", r.unsolved,
	      error);

	rc = solve(100, 0, 50, &r, error);
	CHECK(rc == 0 && !r.solved && r.unsolved == CUTOFF_UNSOLVED_STOPPED && error[0] != '\0',
	      "a solve cut by a node limit says STOPPED: unsolved %d error '%s'", r.unsolved,
	      error);
	max_ply_range();
	wide();
	for (int d = 0; d < cutoff_driver_count(); d++)
		for (int threads = 1; threads <= 3; threads += 2) {
			rc = solve_with(200, 0, 0, CUTOFF_PLY_LIMIT, (cutoff_driver_t)d, threads,
			                &r, error);
			bool line = r.pv_proof && r.pv_length == 200;
			for (int k = 0; line && k < 200; k++)
				line = r.pv[k] <= 1;
			CHECK(rc == 0 && r.solved && r.unsolved == 0 && r.value == 1 && line &&
			              error[0] == '\0',
			      "%s x%d, max_ply %d: a line of 200 plies solves (rc %d solved %d "
			      "value %d "
			      "pv %d proof %d error '%s')",
			      cutoff_driver_name((cutoff_driver_t)d), threads, CUTOFF_PLY_LIMIT, rc,
			      (int)r.solved, (int)r.value, r.pv_length, (int)r.pv_proof, error);
		}
	rc = solve_with(210, 200, 0, CUTOFF_PLY_LIMIT, CUTOFF_DRIVER_SERIAL, 1, &r, error);
	CHECK(rc == 0 && r.depth == 200 && r.unsolved == CUTOFF_UNSOLVED_DEPTH,
	      "depth 200 under max_ply 254: rc %d depth %d unsolved %d", rc, r.depth, r.unsolved);
	rc = solve(210, 200, 0, &r, error);
	CHECK(rc == CUTOFF_EINVAL && strstr(error, "depth 200"),
	      "depth 200 under the default limit is refused: rc %d '%s'", rc, error);
	return check_report();
}
