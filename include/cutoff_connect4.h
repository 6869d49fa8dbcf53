/* SPDX-License-Identifier: MIT */
/*
 * cutoff_connect4.h — the Connect Four adapter and its exact solver (included by
 * cutoff_games.h). docs/connect4.md has the design, the measurements and the commands.
 *
 * The board is the standard 7 columns by 6 rows. A move is a column number 0..6, left to
 * right, as the engine sees it; move strings (cutoff_connect4_parse, the test sets, the
 * command line) number the columns 1..7, and cutoff_connect4_solution_t says which one it
 * holds.
 *
 * Values. The adapter speaks the score convention of Pascal Pons' test sets
 * (../shared/data/connect4/README.md), from the side to move, as plain scores (never
 * +-CUTOFF_WIN, so the engine converts nothing):
 *   a win with the winner's k-th stone (the winning stone counted)    +(22 - k)
 *   a loss, the opponent winning with his k-th stone                   k - 22
 *   a draw                                                             0
 * With n stones on the board, a win at once is worth (43 - n) / 2 and a position where
 * the player who just moved has four is worth -(44 - n) / 2 (integer division).
 *
 * `terminal` means "its exact value is known without a search", which is more than "the
 * game is over". It is true when
 *   - the player who just moved has four in a row: -(44 - n) / 2;
 *   - the board is full: 0;
 *   - the side to move can win at once: (43 - n) / 2;
 *   - every move of the side to move lets the opponent win at once (two open threats, or
 *     one whose only block lies under another): -(42 - n) / 2;
 *   - 40 or more stones are down and some move does not lose at once: 0 (the game can only
 *     end in a full board).
 * So the search never plays a winning move (the position before it is already scored)
 * and never meets a won position except at the root.
 *
 * Moves (gen_moves). Only the moves that do not let the opponent win at once, and when
 * the opponent threatens to win at once, only the block (Pons' "non-losing moves"): the
 * others lose at once, worth less than any move kept, so the value of the position is
 * the best of the moves kept. Columns come centre first (4, 3, 5, 2, 6, 1, 7 in 1-based
 * numbers); the hint of a move is the number of cells where its player would then win at
 * once (its threats), plus 256 when the opponent has then lost at once (it cannot block
 * every threat, or each of its moves opens one: the child is terminal), so that with
 * CUTOFF_ORDER_HINTS a move that wins by force at once comes first, then the moves that
 * make more threats, ties centre first. evaluate() is 0: it is reached only by depth-limited
 * searches (the solver searches to the end of the game).
 *
 * Key. current + mask (see the state) names the position uniquely (the side to move
 * follows from the stone count); it is multiplied by an odd constant, a bijection on 64
 * bits, so that every bit of it takes part in picking the table's bucket. The key of a
 * position is unique: the table never confuses two positions.
 *
 * Thread safety: the game description is static and immutable; every function below may
 * be called from any thread on distinct states, except cutoff_connect4_solve, which runs
 * searches of its engine (one at a time per engine, like cutoff_engine_search).
 */
#ifndef CUTOFF_CONNECT4_H
#define CUTOFF_CONNECT4_H

#include "cutoff.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUTOFF_CONNECT4_WIDTH 7
#define CUTOFF_CONNECT4_HEIGHT 6
#define CUTOFF_CONNECT4_CELLS 42

/*
 * A position, 32 bytes. Bit 7 * c + r stands for column c (0..6, left to right) and row r
 * (0..5, from the bottom); bit 7 * c + 6 is a sentinel row, always clear, so that
 * shifting a line of stones never runs from one column into the next. Make states only
 * with cutoff_connect4_start, cutoff_connect4_parse and cutoff_connect4_play: the fields
 * after `mask` are derived from the first two (computed once per position, when it is
 * made, so that the search's callbacks stay a few instructions long) and must agree with
 * them.
 */
typedef struct cutoff_connect4_state {
	uint64_t current; /* the stones of the side to move */
	uint64_t mask;    /* every stone on the board */
	/* Derived: the empty cells where the player who just moved would have four with one
	 * more stone (playable now or not). */
	uint64_t threats;
	int8_t value;        /* derived: the exact value when `known`, else 0 */
	uint8_t known;       /* derived: 1 when the value is known without a search (terminal) */
	uint8_t stones;      /* derived: stones on the board, 0..42 */
	uint8_t reserved[5]; /* zero */
} cutoff_connect4_state_t;

/* The Connect Four game description (static, immutable, shared): state_size 32,
 * max_moves 7. */
CUTOFF_API const cutoff_game_t *cutoff_connect4_game(void);

/* The empty board, the first player to move. Does nothing when st is NULL. */
CUTOFF_API void cutoff_connect4_start(cutoff_connect4_state_t *st);

/*
 * Reads a move string: one digit 1..7 per move, the columns played from the empty board
 * (the notation of the test sets: "4453"); the empty string is the empty board. On
 * success writes *st and returns 0. Otherwise returns CUTOFF_EINVAL, leaves *st
 * untouched and, when err is not NULL and errlen > 0, writes one line (no newline) into
 * err naming the 1-based position of the offending character, for instance
 *     move 5 ('8'): column outside 1..7
 *     move 3 ('x'): not a column: expected a digit 1..7
 *     move 13 ('4'): column 4 is full
 *     move 8 ('2'): the game is over: the first player has four in a row after move 7
 *     move 43 ('1'): the game is over: the board is full
 * A string whose last move makes four in a row (or fills the board) is accepted: the
 * position is then over (terminal), and only a move after it is refused. NULL moves or
 * st: CUTOFF_EINVAL.
 */
CUTOFF_API int cutoff_connect4_parse(const char *moves, cutoff_connect4_state_t *st, char *err,
                                     size_t errlen);

/* Plays `column` (0..6) in *st. CUTOFF_EINVAL, *st untouched, when st is NULL, the column
 * is outside 0..6 or full, or the game is over (four in a row, or a full board). Any legal
 * move may be played, including one that the search would not try. */
CUTOFF_API int cutoff_connect4_play(cutoff_connect4_state_t *st, int column);

/* True when the player who just moved has four in a row (false for NULL). */
CUTOFF_API bool cutoff_connect4_has_four(const cutoff_connect4_state_t *st);

/* The column (0..6) where the side to move wins at once, the leftmost when several do, or
 * -1 when none does or the game is over (or st is NULL). */
CUTOFF_API int cutoff_connect4_winning_column(const cutoff_connect4_state_t *st);

/* ---------------------------------------------------------------------------------------
 * The solver
 * ------------------------------------------------------------------------------------- */

/* How the exact score is narrowed down: both run null-window searches over the table. */
typedef enum cutoff_connect4_method {
	/* MTD(f) from the guess 0: each search tests the last value it returned, moving a
	 * lower and an upper bound towards each other until they meet. */
	CUTOFF_CONNECT4_MTDF = 0,
	/* Bisection of [min, max], the range the score can have (Pons' solver): each search
	 * tests the middle, or half way to the range's end when that is further from 0 (a
	 * quicker test: the win it asks about must come sooner). */
	CUTOFF_CONNECT4_BISECT = 1
} cutoff_connect4_method_t;

typedef struct cutoff_connect4_solution {
	/* The exact score (strong), or -1, 0, +1 (weak: loss, draw, win); valid only when
	 * !stopped. What is proven: lower <= score <= upper, equal unless stopped. */
	int score, lower, upper;
	/* 0..6: a move that achieves the score (see cutoff_connect4_solve), or -1 when the
	 * game is over. */
	int best_column;
	bool weak;
	bool known;     /* the root's value was known without a search (no node searched) */
	bool stopped;   /* cutoff_engine_stop() ended a search early */
	int searches;   /* null-window (or, weak, (-1, 1)) searches made */
	uint64_t nodes; /* summed over the searches and the threads */
	double time_s;  /* the searches' time, summed (each result's time_s; 0 when known) */
	/* Children looked up in the table by enhanced transposition cut-offs (the engine's
	 * config.etc_min_depth; counters.etc_probes), summed like nodes: positions played and
	 * probed but not visited, so not in `nodes` */
	uint64_t etc_probes;
} cutoff_connect4_solution_t;

/*
 * Solves `st` with engine `e`, which must have been made for cutoff_connect4_game() (any
 * driver, algorithm and thread count; it needs a table to be fast). Each search runs
 * cutoff_engine_search() with iterate false, a narrow window and the depth of the rest
 * of the game; the game's bounds hook ends each line as soon as the score the window asks
 * about can no longer come (docs/connect4.md), so every value is a bound on the exact
 * score and every table entry holds for every later search:
 *
 *   strong (weak false): the score is known to lie in [-(40 - n) / 2, (41 - n) / 2] (the
 *     side to move cannot win at once, and has a move after which the opponent cannot);
 *     null-window searches (b - 1, b) narrow that range until it is one value, by
 *     `method` (a cutoff_connect4_method_t);
 *   weak: one search with the window (-1, 1), which says win, draw or loss. Under an
 *     engine whose algorithm is MTD(f) (config.algo) that search asks Pons' two
 *     questions: a win, (0, 1)? then, unless its bound already says a loss, a draw,
 *     (-1, 0)? On the hard test set a tenth fewer nodes than PVS (`cutoff solve`'s
 *     default: docs/connect4.md, "Weak mode").
 *
 * The table is never cleared here: what the first searches of a position prove (lower and
 * upper bounds of its subtrees) the later ones use. Whether to clear it between positions
 * (cutoff_engine_clear) is the caller's decision; its entries stay true across positions,
 * since each position is always searched to the end of the game. With several threads, the
 * parallel drivers give the same exact score as the serial one (node counts vary).
 *
 * The best move is taken from the search that proved the score's lower bound: a search
 * that failed high at a value v >= score names the move that proved it, which is then
 * worth exactly the score. When no search did (the score was the range's minimum, or
 * every search failed low), one more search with the window (score - 1, score) proves it
 * and names the move. In weak mode: the move of the (-1, 1) search (in a lost position,
 * every move loses, and it is the one whose bound was highest). A position whose value is
 * known without a search gives: a winning column, when the side to move can win at once;
 * else some legal column (the block of an opponent's threat first); -1 when the game is
 * over.
 *
 * Returns 0 with *out filled; CUTOFF_EINVAL for NULL arguments, an unknown method or an
 * engine with speculative pruning (config.pruning, which would make the scores inexact); the
 * error of cutoff_engine_search() otherwise (CUTOFF_EBUSY when the engine is searching).
 * When cutoff_engine_stop() ends a search early, returns 0 with out->stopped set and
 * out->lower, out->upper the bounds proven so far.
 */
CUTOFF_API int cutoff_connect4_solve(cutoff_engine_t *e, const cutoff_connect4_state_t *st,
                                     bool weak, int method, cutoff_connect4_solution_t *out);

/* Who runs a search for cutoff_connect4_solve_with: cutoff_engine_search's arguments and
 * answer (no info callback); `user` is passed on. */
typedef int (*cutoff_connect4_search_fn)(void *user, cutoff_engine_t *e, const void *root,
                                         const cutoff_limits_t *limits, cutoff_result_t *result);

/* cutoff_connect4_solve, each of whose searches is made by `search` (NULL:
 * cutoff_engine_search), for instance a cluster's search of every rank together
 * (cutoff_cluster.h), which every rank then solves in step. Same contract otherwise. */
CUTOFF_API int cutoff_connect4_solve_with(cutoff_engine_t *e, const cutoff_connect4_state_t *st,
                                          bool weak, int method, cutoff_connect4_search_fn search,
                                          void *user, cutoff_connect4_solution_t *out);

/*
 * The depth a search of `st` with the window (alpha, beta) needs to decide that window on
 * the position's exact score, the horizon scoring 0 (the game's evaluate): a result v
 * with alpha < v < beta is the score; v <= alpha proves score <= alpha, v >= beta proves
 * score >= beta. A question "score >= t?" about a win needs only the plies up to the
 * stone that win must come with (docs/connect4.md, "deadline"), so narrow windows far from
 * 0 need shallow searches; (-1, 1) needs the most of a null window near 0. Between 1 and
 * the empty cells plus one. (cutoff_connect4_solve searches to the end instead: the game's
 * bounds hook stops it where this depth would.) CUTOFF_EINVAL for NULL or alpha >= beta.
 */
CUTOFF_API int cutoff_connect4_depth(const cutoff_connect4_state_t *st, int32_t alpha,
                                     int32_t beta);

#ifdef __cplusplus
}
#endif

#endif /* CUTOFF_CONNECT4_H */
