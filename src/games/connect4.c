/* SPDX-License-Identifier: MIT */
/*
 * connect4.c — Connect Four on bitboards, and the exact solver over the public API.
 *
 * Layout (include/cutoff_connect4.h): bit 7c + r is column c, row r from the bottom; bit
 * 7c + 6 is a sentinel, always clear. A state holds the stones of the side to move
 * (`current`) and of both sides (`mask`); the opponent's are current ^ mask. Two facts
 * of that layout do the work:
 *   - mask + BOTTOM has, in each column, exactly the lowest empty cell set (the carry runs
 *     up the column's stones); in a full column the carry stops in the sentinel, which
 *     BOARD masks off. So the playable cells are one addition.
 *   - a line of four is four cells at distance d apart, d = 1 (vertical), 7 (horizontal),
 *     6 and 8 (the diagonals). Shifting the stones by d, 2d, 3d lines them up. A shift
 *     that leaves the board on top or bottom of a column always passes through a sentinel
 *     cell (the row index runs ... 5, 6 = sentinel, 0 of the next column, and the other way
 *     round), which is clear, so no line is ever counted across two columns; shifts past
 *     the left or right edge fall off the 49 bits of the board, or land outside BOARD.
 *
 * Work per position. play() computes, once per position, what the search will ask about
 * it: whether its value is known without a search (terminal, see the header). That needs
 * the cells where each side would win with one more stone (win_cells: a few dozen shifts
 * and ands). Only the mover's are new: the other side's are the parent's `threats` less
 * the cell just filled, so play() computes one set, keeps it in the child as `threats`,
 * and terminal() then reads two bytes. gen_moves() derives the safe moves from `threats`
 * in a few instructions and, for hints, counts the winning cells each move makes (one
 * win_cells per move, two moves at a time in a vector register: the adapter's main
 * cost). The key is (current + mask) times an odd constant.
 *
 * The game has no context and no mutable data: the description is one static const
 * object shared by every engine and thread; every callback reads only its arguments.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cutoff_games.h"

#define C4_W CUTOFF_CONNECT4_WIDTH
#define C4_H CUTOFF_CONNECT4_HEIGHT
#define C4_CELLS CUTOFF_CONNECT4_CELLS
#define C4_H1 (C4_H + 1) /* bits per column, the sentinel included */

_Static_assert(64 >= C4_W * C4_H1, "the board fits in one 64-bit word");
_Static_assert(sizeof(cutoff_connect4_state_t) == 32, "a state is 32 bytes");

/* One bit at the bottom of every column. */
#define C4_BOTTOM UINT64_C(0x0040810204081)
/* Every cell of the board (no sentinel). */
#define C4_BOARD (C4_BOTTOM * UINT64_C(0x3f))

_Static_assert(C4_BOTTOM == ((UINT64_C(1) << 0) | (UINT64_C(1) << 7) | (UINT64_C(1) << 14) |
                             (UINT64_C(1) << 21) | (UINT64_C(1) << 28) | (UINT64_C(1) << 35) |
                             (UINT64_C(1) << 42)),
               "C4_BOTTOM has bit 7c for every column c");

/* The search tries columns centre first. */
static const int c4_order[C4_W] = { 3, 2, 4, 1, 5, 0, 6 };

/* The cells of column c. */
#define C4_COLUMN(c) (UINT64_C(0x3f) << (C4_H1 * (c)))

static inline uint64_t column_cells(int c) { return C4_COLUMN(c); }

/* column_cells(c4_order[i]): the columns' cells in the search's order. */
static const uint64_t c4_order_cells[C4_W] = { C4_COLUMN(3), C4_COLUMN(2), C4_COLUMN(4),
	                                       C4_COLUMN(1), C4_COLUMN(5), C4_COLUMN(0),
	                                       C4_COLUMN(6) };

static inline uint64_t playable(uint64_t mask) { return (mask + C4_BOTTOM) & C4_BOARD; }

/* The cell a stone played in column c lands in (none when the column is full: the carry
 * stops in the sentinel, outside the column's cells). */
static inline uint64_t drop_cell(uint64_t mask, int c)
{
	return (mask + C4_BOTTOM) & column_cells(c);
}

/* True when `p` holds four in a row. */
static inline bool four(uint64_t p)
{
	uint64_t v = p & (p >> 1), h = p & (p >> 7), d1 = p & (p >> 6), d2 = p & (p >> 8);
	return ((v & (v >> 2)) | (h & (h >> 14)) | (d1 & (d1 >> 12)) | (d2 & (d2 >> 16))) != 0;
}

/*
 * threats_along(p, d): the cells x where `p` would make four by adding x: three stones of
 * p on one line with x, x at either end of the four or inside it. Along a direction d,
 * the line holding x is one of x-3d..x, x-2d..x+d, x-d..x+2d, x..x+3d. Not restricted to
 * empty cells.
 * cells_in(p, empty): the cells of `empty` where p's player would win at once if a stone
 * got there (playable now or not).
 * Defined for one board (uint64_t) and for two at once (c4_pair_t, below): the same
 * shifts and masks, on every lane.
 */
#define C4_DEFINE_WIN_CELLS(T, threats_along, cells_in)                                            \
	static inline T threats_along(T p, int d)                                                  \
	{                                                                                          \
		T below = (p << d) & (p << 2 * d); /* stones at x-d and x-2d */                    \
		T above = (p >> d) & (p >> 2 * d); /* stones at x+d and x+2d */                    \
		return (below & ((p << 3 * d) | (p >> d))) | (above & ((p >> 3 * d) | (p << d)));  \
	}                                                                                          \
	static inline T cells_in(T p, T empty)                                                     \
	{                                                                                          \
		T r = (p << 1) & (p << 2) & (p << 3); /* vertical: three stones below */           \
		r |= threats_along(p, C4_H1);         /* horizontal */                             \
		r |= threats_along(p, C4_H1 - 1);     /* diagonal down to the right */             \
		r |= threats_along(p, C4_H1 + 1);     /* diagonal up to the right */               \
		return r & empty;                                                                  \
	}

C4_DEFINE_WIN_CELLS(uint64_t, threats_along, win_cells_in)

/* The empty cells where `p`'s player would win at once if a stone got there (playable
 * now or not). */
static inline uint64_t win_cells(uint64_t p, uint64_t mask)
{
	return win_cells_in(p, C4_BOARD ^ mask);
}

/* Two boards at once, in one vector register (SSE2 on x86-64, NEON on arm64, plain
 * words elsewhere: the compiler's generic vectors): the hints of two moves for the price
 * of about one. */
typedef uint64_t c4_pair_t __attribute__((vector_size(16)));
C4_DEFINE_WIN_CELLS(c4_pair_t, threats_along_pair, win_cells_pair)

/* The bits set in each lane, without the popcnt instruction (the build does not assume
 * it) and without a branch: sums of pairs, nibbles, bytes, then of the bytes by shifts
 * (a 64-bit multiply has no two-lane form in SSE2). */
static inline c4_pair_t bit_count_pair(c4_pair_t x)
{
	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	x += x >> 8;
	x += x >> 16;
	x += x >> 32;
	return x & 0x7f;
}

/* All bits set in each lane of x that is 0, none in the others, for lanes below 2^63 (every
 * set of cells is): x - 1 has its top bit set exactly when x is 0. `x == 0` would say the
 * same, but SSE2 has no 64-bit compare, and the compiler moves each lane out to a
 * general register and back for it: twelve instructions instead of three. */
static inline c4_pair_t zero_pair(c4_pair_t x)
{
	const c4_pair_t none = { 0, 0 };
	return none - ((x - 1) >> 63);
}

/*
 * lost_after_pair(wins, open): for two moves at once, all bits set in the lane of a move
 * after which the opponent has lost at once (its child is terminal, a loss for the side to
 * move there), given the mover's winning cells then (wins) and the opponent's playable
 * cells (open). The cases of settle() below: the opponent cannot win at once (the move was
 * safe); two playable threats cannot both be blocked; the one it must block, or, with
 * none, every move it has, lies under a threat. A full board (open empty) is a draw.
 */
static inline c4_pair_t lost_after_pair(c4_pair_t wins, c4_pair_t open)
{
	c4_pair_t forced = wins & open;
	c4_pair_t none = zero_pair(forced), one = zero_pair(forced & (forced - 1));
	c4_pair_t left = (open & none) | (forced & ~none & one); /* the moves that block */
	return zero_pair(left & ~(wins >> 1)) & ~zero_pair(open);
}

/* The hint's bonus for a move after which the opponent has lost at once (above any count
 * of threats, at most 42). */
enum {
	C4_HINT_WON = 256
};

/*
 * Sets known, value and stones of *s, whose current, mask and threats are set, given
 * `mine`, the empty cells where the side to move would win with one more stone. The
 * cases of the header's `terminal`, but four in a row, which the caller has ruled out.
 */
static inline void settle(cutoff_connect4_state_t *s, uint64_t mine, int stones)
{
	const uint64_t theirs = s->threats;
	uint64_t moves = playable(s->mask);
	s->stones = (uint8_t)stones;
	s->known = 1;
	if (mine & moves) {
		s->value = (int8_t)((43 - stones) / 2);
		return;
	}
	if (stones == C4_CELLS) {
		s->value = 0;
		return;
	}
	uint64_t forced = moves & theirs;
	if (forced) /* two open threats: lost whatever is played; one: it must be blocked */
		moves = forced & (forced - 1) ? 0 : forced;
	if (!(moves & ~(theirs >> 1))) { /* every move lets the opponent win at once */
		s->value = (int8_t)(-(42 - stones) / 2);
		return;
	}
	if (stones >= C4_CELLS - 2) {
		s->value = 0; /* a safe move exists, and at most one more stone follows: a draw */
		return;
	}
	s->known = 0;
	s->value = 0;
}

/* Sets every derived field of *s from current and mask, from scratch. */
static void derive(cutoff_connect4_state_t *s, int stones)
{
	const uint64_t me = s->current, mask = s->mask, opp = me ^ mask;
	memset(s->reserved, 0, sizeof(s->reserved));
	s->threats = win_cells(opp, mask);
	if (four(opp)) {
		s->stones = (uint8_t)stones;
		s->known = 1;
		s->value = (int8_t)(-(44 - stones) / 2);
		return;
	}
	settle(s, win_cells(me, mask), stones);
}

/* The moves the search may play in a position that is not terminal: the block of the
 * opponent's threat, if there is one, else every playable cell; never one under a cell
 * where the opponent would win. (At most one threat is playable, or it would be
 * terminal.) */
static inline uint64_t safe_moves(const cutoff_connect4_state_t *s)
{
	uint64_t moves = playable(s->mask);
	uint64_t forced = moves & s->threats;
	return (forced ? forced : moves) & ~(s->threats >> 1);
}

static inline const cutoff_connect4_state_t *as_state(const void *state)
{
	return (const cutoff_connect4_state_t *)state;
}

/* -------------------------------------------------------------------------------------
 * The callbacks. The engine aligns its states like max_align_t, so they are read in
 * place.
 * ----------------------------------------------------------------------------------- */

static int c4_gen_moves(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	(void)ctx;
	const cutoff_connect4_state_t *s = as_state(state);
	const uint64_t safe = safe_moves(s);
	int n = 0;

	if (!hints) {
		for (int i = 0; i < C4_W; i++) {
			int c = c4_order[i];
			if (safe & column_cells(c))
				moves[n++] = (cutoff_move_t)c;
		}
		return n;
	}
	/* A move's hint: the cells where the mover would then win with one more stone, and
	 * C4_HINT_WON more when the opponent has then lost at once (lost_after_pair): a move
	 * that wins by force comes first, a one-node search. No branch on what the position
	 * holds (which the processor cannot predict): every column is written, the next slot
	 * taken when it is safe; a pair's second count goes, when there is no second move,
	 * where the first then overwrites it. */
	uint64_t cells[C4_W + 1];
	for (int i = 0; i < C4_W; i++) {
		uint64_t cell = safe & c4_order_cells[i];
		moves[n] = (cutoff_move_t)c4_order[i];
		cells[n] = cell;
		n += cell != 0;
	}
	cells[n] = 0;
	const uint64_t me = s->current, mask = s->mask, empty = C4_BOARD ^ mask;
	for (int i = 0; i < n; i += 2) {
		c4_pair_t cell = { cells[i], cells[i + 1] };
		c4_pair_t wins = win_cells_pair(me | cell, empty & ~cell);
		c4_pair_t open = ((mask | cell) + C4_BOTTOM) & C4_BOARD; /* the opponent's moves */
		c4_pair_t count =
			bit_count_pair(wins) + (lost_after_pair(wins, open) & C4_HINT_WON);
		hints[i + 1 < n ? i + 1 : i] = (int32_t)count[1];
		hints[i] = (int32_t)count[0];
	}
	return n;
}

/*
 * The search plays only moves of gen_moves in positions that are not terminal, so the
 * mover cannot make four (it could not win at once) and the child's side to move — the
 * parent's opponent — keeps its winning cells but the one just filled: only the mover's
 * have to be computed.
 */
static void c4_play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	(void)ctx;
	const cutoff_connect4_state_t *s = as_state(state);
	cutoff_connect4_state_t *t = child;
	uint64_t cell = drop_cell(s->mask, (int)move);
	uint64_t mask = s->mask | cell;
	t->current = s->current ^ s->mask;
	t->mask = mask;
	t->threats = win_cells(s->current | cell, mask);
	memset(t->reserved, 0, sizeof(t->reserved));
	settle(t, s->threats & ~cell, s->stones + 1);
}

static int32_t c4_evaluate(const void *ctx, const void *state)
{
	(void)ctx;
	(void)state;
	return 0;
}

static bool c4_terminal(const void *ctx, const void *state, int32_t *value)
{
	(void)ctx;
	const cutoff_connect4_state_t *s = as_state(state);
	*value = s->value;
	return s->known;
}

/* The range of a non-terminal position's score (the header's table): neither side can win
 * at once (that would be terminal), so the side to move wins at the earliest with its
 * next stone but one, the opponent with its next stone but one after that. 0, the
 * horizon's value, lies inside it. */
static void c4_bounds(const void *ctx, const void *state, int32_t *lower, int32_t *upper)
{
	(void)ctx;
	const unsigned n = as_state(state)->stones; /* at most 39: 40 stones or more is terminal */
	*lower = -(int32_t)((40 - n) / 2);
	*upper = (int32_t)((41 - n) / 2);
}

/* The key of a position: current + mask is unique (Pons); an odd multiplier keeps it so
 * and spreads it. */
static inline uint64_t key_of(uint64_t current, uint64_t mask)
{
	return (current + mask) * UINT64_C(0x9e3779b97f4a7c15);
}

static uint64_t c4_key(const void *ctx, const void *state)
{
	(void)ctx;
	const cutoff_connect4_state_t *s = as_state(state);
	return key_of(s->current, s->mask);
}

/* c4_key of what c4_play writes: the child's side to move has the opponent's stones
 * (current ^ mask), and the mask gains the move's cell. */
static uint64_t c4_key_after(const void *ctx, const void *state, cutoff_move_t move)
{
	(void)ctx;
	const cutoff_connect4_state_t *s = as_state(state);
	uint64_t mask = s->mask | drop_cell(s->mask, (int)move);
	return key_of(s->current ^ s->mask, mask);
}

static const cutoff_game_t c4_game = {
	.name = "connect4",
	.state_size = sizeof(cutoff_connect4_state_t),
	.max_moves = C4_W,
	.ctx = NULL,
	.gen_moves = c4_gen_moves,
	.play = c4_play,
	.evaluate = c4_evaluate,
	.terminal = c4_terminal,
	.key = c4_key,
	.bounds = c4_bounds,
	.gen_noisy = NULL,
	.play_null = NULL,
	.key_after = c4_key_after,
};

const cutoff_game_t *cutoff_connect4_game(void) { return &c4_game; }

/* -------------------------------------------------------------------------------------
 * Positions
 * ----------------------------------------------------------------------------------- */

void cutoff_connect4_start(cutoff_connect4_state_t *st)
{
	if (!st)
		return;
	memset(st, 0, sizeof(*st));
	derive(st, 0);
}

/* Why a column cannot be played. */
typedef enum refusal {
	PLAYABLE = 0,
	GAME_WON,   /* the player who just moved has four in a row */
	BOARD_FULL, /* 42 stones */
	COLUMN_FULL
} refusal_t;

static refusal_t refusal(const cutoff_connect4_state_t *st, int column)
{
	if (four(st->current ^ st->mask))
		return GAME_WON;
	if (st->stones >= C4_CELLS)
		return BOARD_FULL;
	if (!drop_cell(st->mask, column))
		return COLUMN_FULL;
	return PLAYABLE;
}

/* Any legal move, including one that lets the opponent win or makes four: from scratch. */
static void play_unchecked(cutoff_connect4_state_t *st, int column)
{
	uint64_t cell = drop_cell(st->mask, column);
	uint64_t mover = st->current | cell;
	st->mask |= cell;
	st->current = mover ^ st->mask;
	derive(st, st->stones + 1);
}

int cutoff_connect4_play(cutoff_connect4_state_t *st, int column)
{
	if (!st || column < 0 || column >= C4_W || refusal(st, column) != PLAYABLE)
		return CUTOFF_EINVAL;
	play_unchecked(st, column);
	return CUTOFF_OK;
}

static int parse_error(char *err, size_t errlen, int pos, char ch, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int parse_error(char *err, size_t errlen, int pos, char ch, const char *fmt, ...)
{
	if (!err || errlen == 0)
		return CUTOFF_EINVAL;
	char shown[8];
	unsigned char u = (unsigned char)ch;
	if (u >= 0x20 && u < 0x7f && u != '\'' && u != '\\')
		snprintf(shown, sizeof(shown), "%c", ch);
	else
		snprintf(shown, sizeof(shown), "\\x%02x", u);
	int k = snprintf(err, errlen, "move %d ('%s'): ", pos, shown);
	if (k >= 0 && (size_t)k < errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return CUTOFF_EINVAL;
}

int cutoff_connect4_parse(const char *moves, cutoff_connect4_state_t *st, char *err, size_t errlen)
{
	if (err && errlen > 0)
		err[0] = '\0';
	if (!moves || !st) {
		if (err && errlen > 0)
			snprintf(err, errlen, "%s", moves ? "no state to write" : "no move string");
		return CUTOFF_EINVAL;
	}
	cutoff_connect4_state_t s;
	cutoff_connect4_start(&s);
	for (int i = 0; moves[i] != '\0'; i++) {
		char ch = moves[i];
		int pos = i + 1;
		if (ch < '0' || ch > '9')
			return parse_error(err, errlen, pos, ch,
			                   "not a column: expected a digit 1..7");
		if (ch < '1' || ch > '7')
			return parse_error(err, errlen, pos, ch, "column outside 1..7");
		int column = ch - '1';
		switch (refusal(&s, column)) {
		case GAME_WON:
			return parse_error(
				err, errlen, pos, ch,
				"the game is over: the %s player has four in a row after "
				"move %d",
				s.stones % 2 ? "first" : "second", s.stones);
		case BOARD_FULL:
			return parse_error(err, errlen, pos, ch,
			                   "the game is over: the board is full");
		case COLUMN_FULL:
			return parse_error(err, errlen, pos, ch, "column %c is full", ch);
		case PLAYABLE:
			break;
		}
		play_unchecked(&s, column);
	}
	*st = s;
	return CUTOFF_OK;
}

bool cutoff_connect4_has_four(const cutoff_connect4_state_t *st)
{
	return st && four(st->current ^ st->mask);
}

int cutoff_connect4_winning_column(const cutoff_connect4_state_t *st)
{
	if (!st || four(st->current ^ st->mask))
		return -1;
	uint64_t wins = win_cells(st->current, st->mask) & playable(st->mask);
	for (int c = 0; c < C4_W; c++)
		if (wins & column_cells(c))
			return c;
	return -1;
}

/* -------------------------------------------------------------------------------------
 * The solver
 * ----------------------------------------------------------------------------------- */

/* The answer for a root whose value is known without a search. */
static void solve_known(const cutoff_connect4_state_t *st, bool weak,
                        cutoff_connect4_solution_t *out)
{
	int v = st->value;
	out->known = true;
	out->score = weak ? (v > 0) - (v < 0) : v;
	out->lower = out->upper = out->score;
	out->best_column = -1;
	if (four(st->current ^ st->mask) || st->stones >= C4_CELLS)
		return;
	out->best_column = cutoff_connect4_winning_column(st);
	if (out->best_column >= 0)
		return;
	/* Lost at once, or a draw near the end: a block first, then any legal column. */
	uint64_t moves = playable(st->mask);
	uint64_t block = moves & st->threats, safe = moves & ~(st->threats >> 1);
	uint64_t pick = block ? block : safe ? safe : moves;
	for (int i = 0; i < C4_W; i++)
		if (pick & column_cells(c4_order[i])) {
			out->best_column = c4_order[i];
			return;
		}
}

/*
 * How deep a search must go to decide "score >= t" exactly when the horizon scores 0
 * (evaluate), for cutoff_connect4_depth. For t > 0 the question is whether the side to
 * move can force a win with its stone number 22 - t or earlier; for t <= 0, whether the
 * opponent can force one with its stone number 21 + t or earlier (the score is then t - 1
 * or less). Either way a deadline: that stone's ply. A search to the ply before it sees
 * every such win, since a position where a side can win at once is terminal with its
 * exact value; any later end of the game, and the horizon's 0 (a draw), fall on the same
 * side of t. So for any depth d >= depth_for(n, t):  V_d >= t  <=>  V >= t, where V_d is
 * the depth-limited value. (The solver below searches to the end instead, and the game's
 * `bounds` hook stops it where this deadline would: docs/connect4.md.)
 */
static int depth_for(int stones, int t)
{
	int mine = stones / 2, theirs = stones - mine; /* stones of the side to move, the other */
	int d = t > 0 ? 2 * (22 - t - mine) - 2 : 2 * (21 + t - theirs) - 1;
	int full = C4_CELLS - stones + 1;
	return d < 1 ? 1 : d > full ? full : d;
}

int cutoff_connect4_depth(const cutoff_connect4_state_t *st, int32_t alpha, int32_t beta)
{
	if (!st || alpha >= beta)
		return CUTOFF_EINVAL;
	/* Thresholds t in [alpha + 1, beta], clamped to the scores a game can have. depth_for
	 * falls as t moves away from 0 on either side, so the deepest need is at t = 1 or
	 * t = 0 when the window holds them, else at its end nearest 0. */
	int lo = alpha + 1 < -C4_CELLS ? -C4_CELLS : alpha + 1 > C4_CELLS ? C4_CELLS : alpha + 1;
	int hi = beta < -C4_CELLS ? -C4_CELLS : beta > C4_CELLS ? C4_CELLS : beta;
	int d = 1;
	int candidates[4] = { lo, hi, 0, 1 };
	for (int i = 0; i < 4; i++) {
		int t = candidates[i];
		if (t >= lo && t <= hi && depth_for(st->stones, t) > d)
			d = depth_for(st->stones, t);
	}
	return d;
}

/* The solver's depth: past the end of the game, so that no search meets the horizon and
 * every value is a bound on the true score, and every table entry one too, at the one
 * depth every search of the solve asks of that position (its empty cells + 1): what one
 * question proves, the next one uses. The bounds hook (c4_bounds) ends a line as soon as
 * the win the window needs can no longer come, which is where a depth-limited search to
 * the deadline (depth_for) would end it. */
static int full_depth(const cutoff_connect4_state_t *st) { return C4_CELLS - st->stones + 1; }

/* How much further than the a priori range the bisection aims its first tests (below). */
enum {
	REACH = 2
};

/* The t of the next question "is the score >= t?" about a score known to lie in [lower,
 * upper] (lower < upper), which was [lowest, highest] before the first search; `guess`:
 * MTD(f)'s, the last value a search returned. */
static int next_test(int method, int lower, int upper, int lowest, int highest, int guess)
{
	if (method == CUTOFF_CONNECT4_MTDF)
		return guess <= lower ? lower + 1 : guess > upper ? upper : guess;
	/* Pons' bisection: the middle, but when the range spans more than half of one sign,
	 * half way to that bound instead: a test far from 0 is cheap (the win it asks for
	 * must come early), so the range shrinks cheaply first. An end no search has moved
	 * yet is taken REACH further out, which aims the first tests further from 0 still;
	 * t stays inside the range (docs/connect4.md compares the choices). */
	int lo = lower == lowest ? lower - REACH : lower;
	int hi = upper == highest ? upper + REACH : upper;
	int mid = lo + (hi - lo) / 2;
	if (mid <= 0 && lo / 2 < mid)
		mid = lo / 2;
	else if (mid >= 0 && hi / 2 > mid)
		mid = hi / 2;
	return mid + 1 <= lower ? lower + 1 : mid + 1 > upper ? upper : mid + 1;
}

/* The engine, and who runs its searches (cutoff_connect4_solve_with). */
typedef struct solver {
	cutoff_engine_t *e;
	cutoff_connect4_search_fn search; /* NULL: cutoff_engine_search */
	void *user;
} solver_t;

/* One search of st with the window (alpha, beta) to `depth`. */
static int probe(const solver_t *sv, const cutoff_connect4_state_t *st, int depth, int32_t alpha,
                 int32_t beta, cutoff_connect4_solution_t *out, cutoff_result_t *r)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = depth;
	lim.iterate = false;
	lim.alpha = alpha;
	lim.beta = beta;
	lim.guess = beta; /* under the engine's own MTD(f): one pass, at this window */
	int rc = sv->search ? sv->search(sv->user, sv->e, st, &lim, r)
	                    : cutoff_engine_search(sv->e, st, &lim, r, NULL, NULL);
	if (rc < 0)
		return rc;
	out->searches++;
	out->nodes += r->counters.nodes;
	out->etc_probes += r->counters.etc_probes;
	out->time_s += r->time_s; /* the engine's clock: virtual time in the simulator */
	if (r->stopped || r->bound == CUTOFF_BOUND_NONE)
		out->stopped = true;
	return CUTOFF_OK;
}

/* Asks "score >= t?" of st. True with *lower raised when yes, false with *upper lowered
 * when no; *move is the move that proved a yes. The search is exact to the end of the
 * game (full_depth), so its fail-soft value bounds the score: v >= t proves score >= v,
 * v < t proves score <= v. */
static int test_score(const solver_t *sv, const cutoff_connect4_state_t *st, int t, int *lower,
                      int *upper, int *move, bool *yes, cutoff_connect4_solution_t *out)
{
	cutoff_result_t r;
	int rc = probe(sv, st, full_depth(st), t - 1, t, out, &r);
	if (rc < 0 || out->stopped)
		return rc;
	int v = (int)r.value;
	*yes = v >= t;
	if (*yes) {
		*lower = v < *upper ? v : *upper;
		*move = (int)r.best_move;
	} else {
		*upper = v > *lower ? v : *lower;
	}
	return CUTOFF_OK;
}

int cutoff_connect4_solve(cutoff_engine_t *e, const cutoff_connect4_state_t *st, bool weak,
                          int method, cutoff_connect4_solution_t *out)
{
	return cutoff_connect4_solve_with(e, st, weak, method, NULL, NULL, out);
}

int cutoff_connect4_solve_with(cutoff_engine_t *e, const cutoff_connect4_state_t *st, bool weak,
                               int method, cutoff_connect4_search_fn search, void *user,
                               cutoff_connect4_solution_t *out)
{
	const solver_t solver = { e, search, user }, *sv = &solver;
	cutoff_config_t cfg;
	if (!e || !st || !out ||
	    (method != CUTOFF_CONNECT4_MTDF && method != CUTOFF_CONNECT4_BISECT))
		return CUTOFF_EINVAL;
	if (cutoff_engine_config(e, &cfg) < 0 || cfg.pruning != CUTOFF_PRUNE_NONE)
		return CUTOFF_EINVAL; /* speculative pruning: the scores would not be exact */
	memset(out, 0, sizeof(*out));
	out->weak = weak;
	out->best_column = -1;
	if (st->known) {
		solve_known(st, weak, out);
		return CUTOFF_OK;
	}

	int rc = CUTOFF_OK;
	if (weak) {
		/* One search of (-1, 1) to the end: fail-soft, >= 1 a win, <= -1 a loss, else
		 * exactly 0. */
		cutoff_result_t r;
		out->lower = -1;
		out->upper = 1;
		if ((rc = probe(sv, st, full_depth(st), -1, 1, out, &r)) < 0 || out->stopped)
			goto done;
		out->best_column = (int)r.best_move;
		out->score = r.value >= 1 ? 1 : r.value <= -1 ? -1 : 0;
		out->lower = out->upper = out->score;
		goto done;
	}

	/* The score's range for a position that is not terminal (see the header). */
	int lower = -(40 - st->stones) / 2, upper = (41 - st->stones) / 2;
	const int lowest = lower, highest = upper;
	int move = -1, move_lower = lower - 1; /* the last yes: its move, and what it proved */
	int guess = 0;
	while (lower < upper) {
		int t = next_test(method, lower, upper, lowest, highest, guess);
		bool yes;
		int m = -1;
		if ((rc = test_score(sv, st, t, &lower, &upper, &m, &yes, out)) < 0 || out->stopped)
			goto stopped;
		if (yes) {
			move = m;
			move_lower = lower;
			guess = lower + 1;
		} else {
			guess = upper;
		}
	}
	out->score = out->lower = out->upper = lower;
	if (move_lower < lower) {
		/* No yes proved the final lower bound (a no brought the upper bound down
		 * to it, or it is the range's minimum): a search that does names the move. */
		bool yes;
		if ((rc = test_score(sv, st, lower, &lower, &upper, &move, &yes, out)) < 0 ||
		    out->stopped)
			goto stopped;
	}
	out->best_column = move;
	goto done;
stopped:
	out->lower = lower;
	out->upper = upper;
done:
	return rc < 0 ? rc : CUTOFF_OK;
}
