/* SPDX-License-Identifier: MIT */
/*
 * ttt.c — tic-tac-toe, the smallest complete game adapter.
 *
 * A position is two 9-bit masks, one per side (bit i: square i, row by row). Nothing else
 * is stored: X is to move exactly when both sides hold the same number of squares, so the
 * side that moved last is O then and X otherwise.
 *
 * Invariants the callbacks rely on, kept by play() and checked by cutoff_ttt_parse():
 *   - the masks are disjoint and within 0x1ff;
 *   - popcount(x) == popcount(o) or popcount(x) == popcount(o) + 1;
 *   - the side to move never holds three in a row (the game would have ended a move ago).
 * Hence terminal() only has to look at the side that just moved: if it has a line, the
 * side to move has lost (-1); otherwise a full board is a draw (0).
 *
 * The game has no context and no mutable data: the description is one static const object
 * shared by every engine and thread. States are read and written through memcpy, so the
 * engine's state buffers need no particular alignment.
 */
#include <string.h>

#include "cutoff_games.h"

#define TTT_SQUARES 9
#define TTT_FULL 0x1ffu

/* The eight lines: three rows, three columns, two diagonals. */
static const uint16_t ttt_lines[8] = {
	0x007, 0x038, 0x1c0, /* rows */
	0x049, 0x092, 0x124, /* columns */
	0x111, 0x054         /* diagonals */
};

static inline cutoff_ttt_state_t ttt_load(const void *state)
{
	cutoff_ttt_state_t s;
	memcpy(&s, state, sizeof s);
	return s;
}

static inline int ttt_count(uint16_t mask) { return __builtin_popcount(mask); }

static inline bool ttt_x_to_move(cutoff_ttt_state_t s) { return ttt_count(s.x) == ttt_count(s.o); }

static bool ttt_has_line(uint16_t mask)
{
	for (int i = 0; i < 8; i++) {
		if ((mask & ttt_lines[i]) == ttt_lines[i])
			return true;
	}
	return false;
}

static int ttt_gen_moves(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	(void)ctx;
	cutoff_ttt_state_t s = ttt_load(state);
	uint16_t taken = (uint16_t)(s.x | s.o);
	int n = 0;

	for (cutoff_move_t sq = 0; sq < TTT_SQUARES; sq++) {
		if (taken & (1u << sq))
			continue;
		if (hints != NULL)
			hints[n] = 0;
		moves[n++] = sq;
	}
	return n;
}

static void ttt_play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	(void)ctx;
	cutoff_ttt_state_t s = ttt_load(state);

	if (ttt_x_to_move(s))
		s.x = (uint16_t)(s.x | (1u << move));
	else
		s.o = (uint16_t)(s.o | (1u << move));
	memcpy(child, &s, sizeof s);
}

static int32_t ttt_evaluate(const void *ctx, const void *state)
{
	(void)ctx;
	(void)state;
	return 0;
}

static bool ttt_terminal(const void *ctx, const void *state, int32_t *value)
{
	(void)ctx;
	cutoff_ttt_state_t s = ttt_load(state);
	uint16_t last = ttt_x_to_move(s) ? s.o : s.x;

	if (ttt_has_line(last)) {
		*value = -1;
		return true;
	}
	if ((s.x | s.o) == TTT_FULL) {
		*value = 0;
		return true;
	}
	return false;
}

static uint64_t ttt_key(const void *ctx, const void *state)
{
	(void)ctx;
	cutoff_ttt_state_t s = ttt_load(state);
	/* x | o << 9 names the position; multiplying by an odd constant is a bijection on
	 * 64 bits, so the spread-out key stays unique. */
	uint64_t k = (uint64_t)s.x | (uint64_t)s.o << TTT_SQUARES;
	return k * UINT64_C(0x9e3779b97f4a7c15);
}

static const cutoff_game_t ttt_game = {
	.name = "tic-tac-toe",
	.state_size = sizeof(cutoff_ttt_state_t),
	.max_moves = TTT_SQUARES,
	.ctx = NULL,
	.gen_moves = ttt_gen_moves,
	.play = ttt_play,
	.evaluate = ttt_evaluate,
	.terminal = ttt_terminal,
	.key = ttt_key,
	.gen_noisy = NULL,
	.play_null = NULL,
};

const cutoff_game_t *cutoff_ttt_game(void) { return &ttt_game; }

void cutoff_ttt_start(cutoff_ttt_state_t *state)
{
	if (state == NULL)
		return;
	state->x = 0;
	state->o = 0;
}

/*
 * Besides a bad length or character and impossible counts, a board where the side to move
 * already holds three in a row is refused: it cannot arise in play (the game would have
 * ended), and terminal() would not see it. This also refuses boards where both sides have
 * a line. *state is written only on success.
 */
int cutoff_ttt_parse(const char *text, cutoff_ttt_state_t *state)
{
	if (text == NULL || state == NULL)
		return CUTOFF_EINVAL;

	cutoff_ttt_state_t s = { 0, 0 };
	int i;
	for (i = 0; i < TTT_SQUARES && text[i] != '\0'; i++) {
		switch (text[i]) {
		case 'x':
		case 'X':
			s.x = (uint16_t)(s.x | (1u << i));
			break;
		case 'o':
		case 'O':
			s.o = (uint16_t)(s.o | (1u << i));
			break;
		case '.':
		case '-':
			break;
		default:
			return CUTOFF_EINVAL;
		}
	}
	if (i != TTT_SQUARES || text[TTT_SQUARES] != '\0')
		return CUTOFF_EINVAL;

	int nx = ttt_count(s.x), no = ttt_count(s.o);
	if (nx != no && nx != no + 1)
		return CUTOFF_EINVAL;
	if (ttt_has_line(ttt_x_to_move(s) ? s.x : s.o))
		return CUTOFF_EINVAL;

	*state = s;
	return CUTOFF_OK;
}
