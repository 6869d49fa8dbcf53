/* SPDX-License-Identifier: MIT */
/*
 * Tic-tac-toe through the library: the classic node counts from the empty board with
 * moves in square order and every visited position counted (the root included) —
 * 549,946 for plain negamax (the whole game tree) and 18,297 for fail-soft alpha-beta with
 * cut-offs at value >= beta — the game value 0 for every algorithm, and known values of a
 * few positions.
 */
#include <string.h>

#include "check.h"
#include "cutoff_games.h"

static int search(cutoff_algo_t algo, size_t tt_mb, const char *board, cutoff_result_t *r)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.algo = algo;
	cfg.tt_mb = tt_mb;
	cfg.ordering = CUTOFF_ORDER_NONE; /* square order, as the classic counts assume */
	cutoff_engine_t *e = cutoff_engine_new(cutoff_ttt_game(), &cfg, NULL);
	cutoff_ttt_state_t st;
	if (cutoff_ttt_parse(board, &st) != 0)
		return -100;
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = 9;
	int rc = cutoff_engine_search(e, &st, &lim, r, NULL, NULL);
	cutoff_engine_free(e);
	return rc;
}

int main(void)
{
	static const char *names[] = { "minimax", "alphabeta", "pvs", "mtdf" };
	cutoff_result_t r;

	CHECK(search(CUTOFF_ALGO_MINIMAX, 0, ".........", &r) == 0 && r.counters.nodes == 549946,
	      "minimax visits 549,946 positions (got %llu)", (unsigned long long)r.counters.nodes);
	CHECK(search(CUTOFF_ALGO_ALPHABETA, 0, ".........", &r) == 0 && r.counters.nodes == 18297,
	      "alpha-beta visits 18,297 positions (got %llu)",
	      (unsigned long long)r.counters.nodes);
	uint64_t ab_nodes = r.counters.nodes;
	for (int a = 0; a <= 3; a++) {
		size_t mb = a == CUTOFF_ALGO_MTDF ? 1 : 0;
		CHECK(search((cutoff_algo_t)a, mb, ".........", &r) == 0 && r.value == 0 &&
		              r.bound == CUTOFF_BOUND_EXACT,
		      "%s: the empty board is a draw (value %d)", names[a], (int)r.value);
		printf("%-9s %8llu nodes, value %d, best move %u\n", names[a],
		       (unsigned long long)r.counters.nodes, (int)r.value, r.best_move);
	}
	/* With a table, transpositions are searched once: same value, fewer nodes. */
	CHECK(search(CUTOFF_ALGO_ALPHABETA, 1, ".........", &r) == 0 && r.value == 0 &&
	              r.counters.nodes < ab_nodes,
	      "alpha-beta with a table: value 0 in fewer nodes (%llu)",
	      (unsigned long long)r.counters.nodes);

	/* X to move and wins by completing the top row at square 2. */
	CHECK(search(CUTOFF_ALGO_PVS, 0, "xx.oo....", &r) == 0 && r.value == 1 && r.best_move == 2,
	      "xx.oo....: X wins with 2 (value %d, move %u)", (int)r.value, r.best_move);
	/* O to move must block at 2, and then it is a draw. */
	CHECK(search(CUTOFF_ALGO_ALPHABETA, 0, "xx..o....", &r) == 0 && r.value == 0 &&
	              r.best_move == 2,
	      "xx..o....: O blocks at 2 and draws (value %d, move %u)", (int)r.value, r.best_move);
	/* X has a fork (squares 2 and 6): O to move loses whatever it does. */
	CHECK(search(CUTOFF_ALGO_MTDF, 1, "xx.xo...o", &r) == 0 && r.value == -1,
	      "xx.xo...o: O to move loses (value %d)", (int)r.value);
	/* Opposite corners against a centre: O draws (by an edge move). */
	CHECK(search(CUTOFF_ALGO_PVS, 0, "x...o...x", &r) == 0 && r.value == 0 &&
	              r.best_move % 2 == 1,
	      "x...o...x: O draws with an edge (value %d, move %u)", (int)r.value, r.best_move);
	/* A finished game: no move to search. */
	CHECK(search(CUTOFF_ALGO_PVS, 0, "xxxoo....", &r) == CUTOFF_ETERMINAL && r.value == -1 &&
	              r.best_move == CUTOFF_MOVE_NONE,
	      "xxxoo....: terminal, O to move has lost");
	return check_report();
}
