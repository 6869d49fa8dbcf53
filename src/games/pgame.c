/* SPDX-License-Identifier: MIT */
/*
 * pgame.c — a random game with passes (cutoff_games.h): a model of an Othello endgame.
 *
 * Naming. A position's key is a hash of (seed, empty cells, side to move, passed), so a
 * position reached by two orders of moves has one key, and distinct positions collide only
 * by 64-bit chance. Cell c is legal in a position when a second hash of (key, c) falls
 * below legal/100 of its range; the final score and the evaluation are two more hashes of
 * the key, salted apart, so that none of them is a function of another.
 *
 * The rules, as gen_moves and terminal apply them:
 *   - no cell empty: over;
 *   - the side to move has a legal cell: it must play one of them (cell order);
 *   - it has none and the last move was not a pass: it passes (the only move);
 *   - it has none and the last move was a pass: over (both passed).
 * terminal and gen_moves both need the legal cells; they are recomputed (cells hashes),
 * which costs less than a cache in the state would save on a game this small.
 *
 * The oracle (cutoff_pgame_solve) is a negamax over every position below the given one,
 * memoized by (empty cells, side, passed): 2^cells x 4 entries, so it is exact and fast
 * for the sizes the tests use, and refuses sizes whose memo would be large.
 */
#include <stdlib.h>
#include <string.h>

#include "cutoff_games.h"

#define PGAME_GOLDEN UINT64_C(0x9e3779b97f4a7c15)

struct cutoff_pgame {
	cutoff_pgame_params_t params;
	cutoff_game_t game; /* game.ctx points back at this struct */
};

/* splitmix64's finaliser. */
static inline uint64_t pgame_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline uint64_t pgame_key(uint64_t seed, uint32_t empty, unsigned side, unsigned passed)
{
	uint64_t p = (uint64_t)empty | (uint64_t)side << 32 | (uint64_t)passed << 33;
	return pgame_mix(seed * PGAME_GOLDEN ^ pgame_mix(p + PGAME_GOLDEN));
}

static inline cutoff_pgame_state_t pgame_load(const void *state)
{
	cutoff_pgame_state_t s;
	memcpy(&s, state, sizeof s);
	return s;
}

/* The legal cells of `s`, as a mask. */
static uint32_t pgame_legal(const cutoff_pgame_params_t *p, const cutoff_pgame_state_t *s)
{
	uint32_t legal = 0;
	for (int c = 0; c < p->cells; c++)
		if ((s->empty >> c & 1u) &&
		    pgame_mix(s->key + (uint64_t)(c + 1) * PGAME_GOLDEN) % 100 < (uint64_t)p->legal)
			legal |= 1u << c;
	return legal;
}

/* A value in -range .. range drawn from `key` with `salt`. */
static inline int32_t pgame_draw(uint64_t key, uint64_t salt, int32_t range)
{
	return (int32_t)(pgame_mix(key ^ salt) % (uint64_t)(2 * range + 1)) - range;
}

static bool pgame_over(const cutoff_pgame_params_t *p, const cutoff_pgame_state_t *s)
{
	return s->empty == 0 || (s->passed && pgame_legal(p, s) == 0);
}

static int32_t pgame_final(const cutoff_pgame_params_t *p, const cutoff_pgame_state_t *s)
{
	return pgame_draw(s->key, UINT64_C(0x66696e616c73636f), p->score);
}

static cutoff_pgame_state_t pgame_child(const cutoff_pgame_params_t *p,
                                        const cutoff_pgame_state_t *s, cutoff_move_t move)
{
	cutoff_pgame_state_t c = *s;
	c.side = (uint8_t)(s->side ^ 1u);
	c.passed = move == CUTOFF_PGAME_PASS;
	if (!c.passed)
		c.empty &= ~(1u << move);
	c.key = pgame_key(p->seed, c.empty, c.side, c.passed);
	return c;
}

static int pgame_gen_moves(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	const cutoff_pgame_t *g = ctx;
	cutoff_pgame_state_t s = pgame_load(state);
	uint32_t legal = pgame_legal(&g->params, &s);
	int n = 0;
	if (legal == 0)
		moves[n++] = CUTOFF_PGAME_PASS;
	for (int c = 0; c < g->params.cells; c++)
		if (legal >> c & 1u)
			moves[n++] = (cutoff_move_t)c;
	if (hints)
		memset(hints, 0, (size_t)n * sizeof(*hints));
	return n;
}

static void pgame_play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	const cutoff_pgame_t *g = ctx;
	cutoff_pgame_state_t s = pgame_load(state);
	cutoff_pgame_state_t c = pgame_child(&g->params, &s, move);
	memcpy(child, &c, sizeof c);
}

static int32_t pgame_evaluate(const void *ctx, const void *state)
{
	const cutoff_pgame_t *g = ctx;
	return pgame_draw(pgame_load(state).key, UINT64_C(0x6775657373657661), g->params.score);
}

static bool pgame_terminal(const void *ctx, const void *state, int32_t *value)
{
	const cutoff_pgame_t *g = ctx;
	cutoff_pgame_state_t s = pgame_load(state);
	if (!pgame_over(&g->params, &s))
		return false;
	*value = pgame_final(&g->params, &s);
	return true;
}

static uint64_t pgame_key_of(const void *ctx, const void *state)
{
	(void)ctx;
	return pgame_load(state).key;
}

void cutoff_pgame_params_default(cutoff_pgame_params_t *params)
{
	if (!params)
		return;
	params->cells = 12;
	params->legal = 50;
	params->score = 64;
	params->seed = 1;
}

cutoff_pgame_t *cutoff_pgame_new(const cutoff_pgame_params_t *params, int *err)
{
	int dummy;
	if (!err)
		err = &dummy;
	if (!params || params->cells < 1 || params->cells > CUTOFF_PGAME_MAX_CELLS ||
	    params->legal < 1 || params->legal > 100 || params->score < 1 ||
	    params->score >= CUTOFF_WIN_MIN) {
		*err = CUTOFF_EINVAL;
		return NULL;
	}
	cutoff_pgame_t *g = malloc(sizeof *g);
	if (!g) {
		*err = CUTOFF_ENOMEM;
		return NULL;
	}
	g->params = *params;
	g->game = (cutoff_game_t){
		.name = "pgame",
		.state_size = sizeof(cutoff_pgame_state_t),
		.max_moves = params->cells,
		.ctx = g,
		.gen_moves = pgame_gen_moves,
		.play = pgame_play,
		.evaluate = pgame_evaluate,
		.terminal = pgame_terminal,
		.key = pgame_key_of,
	};
	*err = CUTOFF_OK;
	return g;
}

void cutoff_pgame_free(cutoff_pgame_t *game) { free(game); }

const cutoff_game_t *cutoff_pgame_game(const cutoff_pgame_t *game)
{
	return game ? &game->game : NULL;
}

void cutoff_pgame_root(const cutoff_pgame_t *game, cutoff_pgame_state_t *root)
{
	if (!game || !root)
		return;
	memset(root, 0, sizeof *root);
	root->empty = (1u << game->params.cells) - 1u; /* cells <= 24 */
	root->key = pgame_key(game->params.seed, root->empty, 0, 0);
}

/* One memo entry: the value and the longest line of a position, once known. */
typedef struct pgame_memo {
	int16_t value;
	uint8_t length;
	uint8_t known;
} pgame_memo_t;

static pgame_memo_t pgame_exact(const cutoff_pgame_params_t *p, const cutoff_pgame_state_t *s,
                                pgame_memo_t *memo)
{
	pgame_memo_t *m = &memo[(size_t)s->empty << 2 | (size_t)s->side << 1 | s->passed];
	if (m->known)
		return *m;
	pgame_memo_t r = { 0, 0, 1 };
	if (pgame_over(p, s)) {
		r.value = (int16_t)pgame_final(p, s);
	} else {
		uint32_t legal = pgame_legal(p, s);
		int32_t best = -CUTOFF_INF;
		for (int c = legal ? 0 : -1; c < p->cells; c++) {
			if (c >= 0 && !(legal >> c & 1u))
				continue;
			cutoff_move_t move = c < 0 ? CUTOFF_PGAME_PASS : (cutoff_move_t)c;
			cutoff_pgame_state_t child = pgame_child(p, s, move);
			pgame_memo_t below = pgame_exact(p, &child, memo);
			if (-below.value > best)
				best = -below.value;
			if (below.length + 1 > r.length)
				r.length = (uint8_t)(below.length + 1);
			if (c < 0)
				break; /* a pass is the only move */
		}
		r.value = (int16_t)best;
	}
	*m = r;
	return r;
}

int cutoff_pgame_solve(const cutoff_pgame_t *game, const cutoff_pgame_state_t *state,
                       int32_t *value, int *length)
{
	if (!game || !state || game->params.cells > 22 || state->empty >> game->params.cells)
		return CUTOFF_EINVAL;
	pgame_memo_t *memo = calloc((size_t)4 << game->params.cells, sizeof *memo);
	if (!memo)
		return CUTOFF_ENOMEM;
	pgame_memo_t r = pgame_exact(&game->params, state, memo);
	free(memo);
	if (value)
		*value = r.value;
	if (length)
		*length = r.length;
	return CUTOFF_OK;
}
