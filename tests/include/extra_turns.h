/* SPDX-License-Identifier: MIT */
/*
 * extra_turns.h — a small game where a move may keep the turn, written for the tests of the
 * game's side hook (cutoff.h), and its brute-force oracle.
 *
 * The bank game. A row of `cells` cells (2 .. 16), each holding a value 1 .. 9 drawn from a
 * seed. Players 0 and 1 take turns taking a cell; the taker banks its value. Taking a cell
 * whose value is even gives the taker another move (the side to move stays), so that runs of
 * extra turns of any length happen. The game ends when every cell is taken: the side to
 * move scores its bank minus the other's (a plain score), or, with `wins`, +CUTOFF_WIN,
 * -CUTOFF_WIN or 0 by the sign of that difference (the engine turns those into distances).
 * The static evaluation is the bank difference so far, for the side to move.
 *
 * Hooks: gen_moves lists the free cells in index order, hinted by their values (so that the
 * ordering heuristics have something to do); with `noisy_min` > 0, gen_noisy lists the free
 * cells worth at least that much (quiescence); play_null passes the turn (null-move
 * pruning); side is the hook under test. The state packs into 49 bits (taken mask, side,
 * difference), and the key is a bijective mix of them: equal positions have equal keys,
 * distinct ones never collide, and positions reached in different orders transpose.
 *
 * bank_negamax is the oracle: plain negamax over the game interface, negating a child's
 * value only when the side changes, scoring a terminal win at the distance the engine uses
 * (CUTOFF_WIN - ply), and at depth 0 the evaluation, or with `quiescence`, the same
 * quiescence the engine defines (stand pat on the evaluation, then the noisy moves, to the
 * end: with an infinite window nothing is cut).
 */
#ifndef CUTOFF_TEST_EXTRA_TURNS_H
#define CUTOFF_TEST_EXTRA_TURNS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cutoff.h"
#include "random.h"

enum {
	BANK_MAX_CELLS = 16
};

typedef struct bank {
	int cells;
	int32_t value[BANK_MAX_CELLS];
	bool wins;     /* terminal values are +-CUTOFF_WIN or 0 */
	int noisy_min; /* > 0: gen_noisy lists the free cells worth at least this */
} bank_t;

typedef struct bank_state {
	uint32_t taken; /* bit i: cell i is taken */
	int32_t side;   /* 0 or 1: who moves */
	int32_t diff;   /* player 0's bank minus player 1's */
} bank_state_t;

static inline void bank_make(bank_t *b, int cells, uint64_t seed, bool wins, int noisy_min)
{
	uint64_t r = seed * 0x9e3779b97f4a7c15u + 1;
	memset(b, 0, sizeof *b);
	b->cells = cells;
	b->wins = wins;
	b->noisy_min = noisy_min;
	for (int i = 0; i < cells; i++)
		b->value[i] = 1 + (int32_t)(splitmix64(&r) % 9);
}

static inline int32_t bank_own(const bank_state_t *st)
{
	return st->side == 0 ? st->diff : -st->diff;
}

static inline bool bank_terminal(const void *ctx, const void *state, int32_t *value)
{
	const bank_t *b = ctx;
	const bank_state_t *st = state;
	if (st->taken != (1u << b->cells) - 1u)
		return false;
	int32_t d = bank_own(st);
	*value = !b->wins ? d : d > 0 ? CUTOFF_WIN : d < 0 ? -CUTOFF_WIN : 0;
	return true;
}

static inline int bank_list(const bank_t *b, const bank_state_t *st, int32_t min,
                            cutoff_move_t *moves, int32_t *hints)
{
	int n = 0;
	for (int i = 0; i < b->cells; i++) {
		if ((st->taken >> i & 1) || b->value[i] < min)
			continue;
		moves[n] = (cutoff_move_t)i;
		if (hints)
			hints[n] = b->value[i];
		n++;
	}
	return n;
}

static inline int bank_gen_moves(const void *ctx, const void *state, cutoff_move_t *moves,
                                 int32_t *hints)
{
	return bank_list(ctx, state, 0, moves, hints);
}

static inline int bank_gen_noisy(const void *ctx, const void *state, cutoff_move_t *moves,
                                 int32_t *hints)
{
	const bank_t *b = ctx;
	return bank_list(b, state, b->noisy_min, moves, hints);
}

static inline void bank_play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	const bank_t *b = ctx;
	const bank_state_t *st = state;
	bank_state_t *c = child;
	int32_t v = b->value[move];
	c->taken = st->taken | 1u << move;
	c->diff = st->diff + (st->side == 0 ? v : -v);
	c->side = v % 2 == 0 ? st->side : 1 - st->side;
}

static inline bool bank_play_null(const void *ctx, const void *state, void *child)
{
	(void)ctx;
	const bank_state_t *st = state;
	bank_state_t *c = child;
	*c = *st;
	c->side = 1 - st->side;
	return true;
}

static inline int32_t bank_evaluate(const void *ctx, const void *state)
{
	(void)ctx;
	return bank_own(state);
}

static inline uint64_t bank_key(const void *ctx, const void *state)
{
	(void)ctx;
	const bank_state_t *st = state;
	uint64_t z = (uint64_t)st->taken | (uint64_t)st->side << 16 |
	             (uint64_t)(uint32_t)(st->diff + 0x8000) << 17;
	/* splitmix64's finaliser: a bijection, so distinct positions never collide */
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline int bank_side(const void *ctx, const void *state)
{
	(void)ctx;
	return ((const bank_state_t *)state)->side;
}

/* The game over `b`, with quiescence's gen_noisy when b->noisy_min > 0. */
static inline cutoff_game_t bank_game(const bank_t *b)
{
	cutoff_game_t g = {
		.name = "bank",
		.state_size = sizeof(bank_state_t),
		.max_moves = BANK_MAX_CELLS,
		.ctx = b,
		.gen_moves = bank_gen_moves,
		.play = bank_play,
		.evaluate = bank_evaluate,
		.terminal = bank_terminal,
		.key = bank_key,
		.play_null = bank_play_null,
		.side = bank_side,
	};
	if (b->noisy_min > 0)
		g.gen_noisy = bank_gen_noisy;
	return g;
}

/* The position `plies` random moves from the start (fewer when one free cell is left). */
static inline bank_state_t bank_walk(const bank_t *b, uint64_t seed, int plies)
{
	bank_state_t st = { 0, 0, 0 };
	uint64_t r = seed;
	for (int p = 0; p < plies; p++) {
		cutoff_move_t m[BANK_MAX_CELLS];
		int n = bank_list(b, &st, 0, m, NULL);
		if (n <= 1)
			break;
		bank_state_t c;
		bank_play(b, &st, m[splitmix64(&r) % (uint64_t)n], &c);
		st = c;
	}
	return st;
}

static inline int32_t bank_terminal_at(int32_t v, int ply)
{
	return v >= CUTOFF_WIN_MIN ? v - ply : v <= -CUTOFF_WIN_MIN ? v + ply : v;
}

/* Quiescence with an infinite window: stand pat, then every noisy move to the end. */
static inline int32_t bank_quiesce(const bank_t *b, const bank_state_t *st, int ply)
{
	int32_t best = bank_evaluate(b, st);
	cutoff_move_t m[BANK_MAX_CELLS];
	int n = bank_gen_noisy(b, st, m, NULL);
	for (int i = 0; i < n; i++) {
		bank_state_t c;
		int32_t v;
		bank_play(b, st, m[i], &c);
		if (bank_terminal(b, &c, &v))
			v = bank_terminal_at(v, ply + 1);
		else
			v = bank_quiesce(b, &c, ply + 1);
		if (c.side != st->side)
			v = -v;
		if (v > best)
			best = v;
	}
	return best;
}

/* The oracle: the value of `st` at `ply` from the root, searched `depth` plies. */
static inline int32_t bank_negamax(const bank_t *b, const bank_state_t *st, int depth, int ply,
                                   bool quiescence)
{
	int32_t v;
	if (bank_terminal(b, st, &v))
		return bank_terminal_at(v, ply);
	if (depth <= 0)
		return quiescence && b->noisy_min > 0 ? bank_quiesce(b, st, ply)
		                                      : bank_evaluate(b, st);
	cutoff_move_t m[BANK_MAX_CELLS];
	int n = bank_gen_moves(b, st, m, NULL);
	int32_t best = -CUTOFF_INF;
	for (int i = 0; i < n; i++) {
		bank_state_t c;
		bank_play(b, st, m[i], &c);
		v = bank_negamax(b, &c, depth - 1, ply + 1, quiescence);
		if (c.side != st->side)
			v = -v;
		if (v > best)
			best = v;
	}
	return best;
}

/* The value that `move` gives the side to move in `st` (for checking a best move and a
 * principal variation): the child's oracle value, negated when the turn passes. */
static inline int32_t bank_move_value(const bank_t *b, const bank_state_t *st, cutoff_move_t move,
                                      int depth, int ply, bool quiescence)
{
	bank_state_t c;
	bank_play(b, st, move, &c);
	int32_t v = bank_negamax(b, &c, depth - 1, ply + 1, quiescence);
	return c.side != st->side ? -v : v;
}

/* What an exact search of `root`, `depth` plies (solve: to the end), must answer, given the
 * oracle's `truth`: success, that value, bound exact, and a best move whose own value is
 * the root's; and, solving, `solved`. NULL when it did, else what is wrong. */
static inline const char *bank_wrong(const bank_t *b, const bank_state_t *root, int depth,
                                     bool solve, int32_t truth, int rc, const cutoff_result_t *r)
{
	if (rc != CUTOFF_OK)
		return cutoff_strerror(rc);
	if (r->value != truth)
		return "a value that is not the oracle's";
	if (r->bound != CUTOFF_BOUND_EXACT)
		return "a bound that is not exact";
	if (solve && !r->solved)
		return "a solve that is not solved";
	if (r->best_move >= (cutoff_move_t)b->cells || (root->taken >> r->best_move & 1))
		return "a best move that is not a free cell";
	if (bank_move_value(b, root, r->best_move, solve ? b->cells + 1 : depth, 0, true) != truth)
		return "a best move whose value is not the root's";
	return NULL;
}

#endif /* CUTOFF_TEST_EXTRA_TURNS_H */
