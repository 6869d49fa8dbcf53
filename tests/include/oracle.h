/* SPDX-License-Identifier: MIT */
/*
 * oracle.h — the tests' oracle for random trees: plain negamax over the game interface,
 * `depth` plies, sharing nothing with the engine (no table, no ordering, no window), so
 * that a search's value can be checked against it.
 */
#ifndef CUTOFF_TEST_ORACLE_H
#define CUTOFF_TEST_ORACLE_H

#include <stdint.h>

#include "cutoff_games.h"

/* The negamax value of `st`, a random tree's state (cutoff_rtree_state_t), to `depth`. */
static inline int32_t oracle_negamax(const cutoff_game_t *g, const void *st, int depth)
{
	int32_t v;
	if (g->terminal(g->ctx, st, &v))
		return v;
	if (depth == 0)
		return g->evaluate(g->ctx, st);
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	int n = g->gen_moves(g->ctx, st, moves, NULL);
	int32_t best = -CUTOFF_INF;
	for (int i = 0; i < n; i++) {
		cutoff_rtree_state_t child;
		g->play(g->ctx, st, moves[i], &child);
		int32_t c = -oracle_negamax(g, &child, depth - 1);
		if (c > best)
			best = c;
	}
	return best;
}

#endif /* CUTOFF_TEST_ORACLE_H */
