/* SPDX-License-Identifier: MIT */
/*
 * Games deeper than the ply limit, and why a solve is not solved (result.unsolved).
 *
 * The game: a line of `length` plies where each position has two moves, both leading to
 * the next position of the line (so the tree is a line with transpositions, cheap to
 * search to any depth); the last position is terminal, won for the side to move when
 * `length` is even, and every other position evaluates to 0. Its value is known: +-1 by
 * the parity of the distance to the end.
 *
 * Checked: a solve of a line of 200 plies (past the default limit of CUTOFF_MAX_PLY) says
 * it is not solved, with CUTOFF_UNSOLVED_PLY_LIMIT and a message in cutoff_engine_error
 * (never an empty one); a line of 100 plies solves (unsolved 0, no message); a solve with a
 * depth shorter than the game says DEPTH, one cut by a node limit STOPPED.
 *
 * cutoff-test-labels: core
 */
#include <string.h>

#include "check.h"
#include "cutoff.h"

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

static cutoff_engine_t *line_engine(const int *length, cutoff_game_t *g)
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
	int err = 0;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	CHECK(e != NULL, "engine: %s", cutoff_strerror(err));
	return e;
}

/* Solves the line of `length` plies with the given depth and node limit. */
static int solve(int length, int depth, uint64_t nodes, cutoff_result_t *r, char *error)
{
	cutoff_game_t g;
	cutoff_engine_t *e = line_engine(&length, &g);
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
	return check_report();
}
