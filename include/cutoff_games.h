/* SPDX-License-Identifier: MIT */
/*
 * cutoff_games.h — the game adapters that ship with cutoff.
 *
 * Each adapter is written against include/cutoff.h alone, exactly as an outside user would
 * write one; they live in the library so that the command-line tool, the tests and the
 * benchmarks (and you) can use them. Every adapter's state is a plain fixed-size block
 * (game->state_size bytes); use a buffer of at least that size, suitably aligned (for
 * instance a uint64_t array), or the adapter's declared state type where one is given.
 */
#ifndef CUTOFF_GAMES_H
#define CUTOFF_GAMES_H

#include "cutoff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------
 * Tic-tac-toe
 *
 * Squares 0..8 row by row; a move is a square number. X moves first. gen_moves lists the
 * empty squares in square order with no hints. Terminal values are +1 / -1 / 0 (plain
 * scores, not distance-converted wins), so that counts match the classic figures:
 * a full negamax from the empty board visits 549,946 positions.
 * ------------------------------------------------------------------------------------- */

typedef struct cutoff_ttt_state {
	uint16_t x, o; /* bit i set: that side holds square i */
} cutoff_ttt_state_t;

/* The tic-tac-toe game description (static, immutable, shared). */
CUTOFF_API const cutoff_game_t *cutoff_ttt_game(void);

/* The empty board, X to move. Does nothing when state is NULL. */
CUTOFF_API void cutoff_ttt_start(cutoff_ttt_state_t *state);

/*
 * Reads a board from 9 characters, row by row: 'x' or 'X', 'o' or 'O', '.' or '-' for an
 * empty square. The side to move follows from the counts (X when equal). Returns
 * CUTOFF_EINVAL for a NULL argument, a wrong length, a bad character, or impossible
 * counts.
 */
CUTOFF_API int cutoff_ttt_parse(const char *text, cutoff_ttt_state_t *state);

/* ---------------------------------------------------------------------------------------
 * Synthetic uniform random trees
 *
 * Every inner node has exactly `branching` children and every leaf is at `depth` below the
 * root. A node is named by a 64-bit hash of (seed, path): the root's is mixed from the
 * seed, a child's from its parent's and its natural index, so any node can be rebuilt
 * without storing the tree. Two value models:
 *
 *   IID          every leaf's value is drawn uniformly from [value_min, value_max] by its
 *                hash, independently; inner nodes evaluate to a value drawn the same way,
 *                which says nothing about their true value (the classic model of Knuth
 *                and Moore: no structure for move ordering to learn).
 *   INCREMENTAL  every move adds a step drawn from [value_min, value_max] to the mover's
 *                score; a node's static value (at the leaves, and as the evaluation of an
 *                inner node) is the sum of the steps along its path, for the side to move.
 *                Shallow values predict deep ones, as in real games, so iterative
 *                deepening and the table have something to learn from.
 *
 * A move is the natural index of a child, 0 .. branching-1. gen_moves returns them in
 * the configured order:
 *   NATURAL  0, 1, ..., branching-1
 *   BEST     sorted by the child's true negamax value, best for the side to move first
 *            (an oracle: computed by searching the subtree to its leaves; stable on ties)
 *   WORST    the reverse of BEST
 * Hints: 0 for IID trees; for INCREMENTAL ones, the step each move gains at once (a cheap
 * static guess, as a real game would give).
 * The key of a node is its hash, so there are no transpositions.
 * ------------------------------------------------------------------------------------- */

typedef enum cutoff_rtree_order {
	CUTOFF_RTREE_NATURAL = 0,
	CUTOFF_RTREE_BEST = 1,
	CUTOFF_RTREE_WORST = 2
} cutoff_rtree_order_t;

typedef enum cutoff_rtree_model {
	CUTOFF_RTREE_IID = 0,
	CUTOFF_RTREE_INCREMENTAL = 1
} cutoff_rtree_model_t;

typedef struct cutoff_rtree_params {
	int branching;                /* 1 .. CUTOFF_MAX_MOVES */
	int depth;                    /* 0 .. CUTOFF_MAX_PLY - 1 */
	int32_t value_min, value_max; /* value_min <= value_max, both within
	                                 (-CUTOFF_WIN_MIN, CUTOFF_WIN_MIN); default -100, 100;
	                                 INCREMENTAL: the step range, and depth times the
	                                 largest step must stay below CUTOFF_WIN_MIN */
	cutoff_rtree_order_t order;
	cutoff_rtree_model_t model; /* default IID */
	int32_t noisy_step; /* INCREMENTAL, > 0: moves that gain at least this step are noisy
	                        (gen_noisy lists them, for quiescence search); 0 (default): the
	                        tree has no gen_noisy */
	bool null_moves;    /* INCREMENTAL: the tree has play_null (passing gains nothing, and
	                        the side to move changes), for null-move pruning; default false */
} cutoff_rtree_params_t;

typedef struct cutoff_rtree_state {
	uint64_t hash; /* names the node */
	uint32_t ply;  /* distance from the tree's root */
	int32_t sum;   /* INCREMENTAL: the path's score for the side to move; IID: 0 */
} cutoff_rtree_state_t;

typedef struct cutoff_rtree cutoff_rtree_t;

/* Defaults: branching 6, depth 6, values -100..100, natural order, IID values. Does
 * nothing when params is NULL. */
CUTOFF_API void cutoff_rtree_params_default(cutoff_rtree_params_t *params);

/* Makes a tree family (the game description plus its parameters). NULL with *err (when
 * err is not NULL) = CUTOFF_EINVAL for NULL or bad parameters, CUTOFF_ENOMEM when out of
 * memory. */
CUTOFF_API cutoff_rtree_t *cutoff_rtree_new(const cutoff_rtree_params_t *params, int *err);

/* Frees the tree family. NULL is ignored. */
CUTOFF_API void cutoff_rtree_free(cutoff_rtree_t *tree);

/* The game description; valid as long as the tree lives. NULL for NULL. */
CUTOFF_API const cutoff_game_t *cutoff_rtree_game(const cutoff_rtree_t *tree);

/* The root of the tree drawn with `seed`. Does nothing when an argument is NULL. */
CUTOFF_API void cutoff_rtree_root(const cutoff_rtree_t *tree, uint64_t seed,
                                  cutoff_rtree_state_t *root);

/* The true negamax value of `state` for its side to move, searched to the leaves; 0 when
 * an argument is NULL. */
CUTOFF_API int32_t cutoff_rtree_value(const cutoff_rtree_t *tree,
                                      const cutoff_rtree_state_t *state);

/* The minimal tree's leaf count b^ceil(d/2) + b^floor(d/2) - 1 (Knuth and Moore), or
 * UINT64_MAX when it does not fit in 64 bits; 0 for branching < 1 or depth < 0. */
CUTOFF_API uint64_t cutoff_minimal_tree(int branching, int depth);

/* ---------------------------------------------------------------------------------------
 * A random game with passes: a model of an Othello endgame, for the solve mode
 * (cutoff_limits_t.solve) and for testing games whose lines have no fixed length.
 *
 * A position is a set of empty cells, the side to move, and whether the last move was a
 * pass. Each empty cell is a legal move for the side to move with probability legal/100,
 * decided by a hash of the position and the cell; playing it fills the cell. A player
 * without a legal cell must pass (the pass is the only move generated, CUTOFF_PGAME_PASS);
 * the game is over when no cell is empty, or when a player who must pass follows a pass
 * (both passed). The final score is a plain value in -score .. score for the side to move,
 * drawn from the final position's hash (no win is distance-converted); evaluate is a
 * noisy guess in the same range. Positions reached by different orders of moves are the
 * same position (same key): the table sees transpositions, as in Othello. Lines are as
 * long as the cells filled plus the passes: a position with e empty cells can last up to
 * 2e plies, and lines of one position differ in length.
 *
 * Everything is a pure function of (seed, position); the only context is the read-only
 * cutoff_pgame_t. Moves are cell numbers 0 .. cells-1, in cell order; no hints.
 * ------------------------------------------------------------------------------------- */

typedef struct cutoff_pgame_params {
	int cells;     /* 1 .. CUTOFF_PGAME_MAX_CELLS, empty at the root; default 12 */
	int legal;     /* 1 .. 100: per cent of empty cells legal for a side; default 50 */
	int32_t score; /* 1 .. CUTOFF_WIN_MIN - 1: final scores lie in -score .. score;
	                  default 64 (the disc difference of an 8x8 board) */
	uint64_t seed; /* which game; default 1 */
} cutoff_pgame_params_t;

#define CUTOFF_PGAME_MAX_CELLS 24
#define CUTOFF_PGAME_PASS 255u

typedef struct cutoff_pgame_state {
	uint64_t key;   /* the position's key, kept up to date by play */
	uint32_t empty; /* bit c set: cell c is empty */
	uint8_t side;   /* 0 or 1, the side to move */
	uint8_t passed; /* 1: the last move was a pass */
	uint8_t pad[2];
} cutoff_pgame_state_t;

typedef struct cutoff_pgame cutoff_pgame_t;

/* Defaults as above. Does nothing when params is NULL. */
CUTOFF_API void cutoff_pgame_params_default(cutoff_pgame_params_t *params);

/* Makes a game, or NULL with *err (when err is not NULL): CUTOFF_EINVAL for NULL or a
 * parameter out of range, CUTOFF_ENOMEM. */
CUTOFF_API cutoff_pgame_t *cutoff_pgame_new(const cutoff_pgame_params_t *params, int *err);
CUTOFF_API void cutoff_pgame_free(cutoff_pgame_t *game); /* NULL is ignored */

/* The game description (inside `game`, which must outlive its engines); NULL for NULL. */
CUTOFF_API const cutoff_game_t *cutoff_pgame_game(const cutoff_pgame_t *game);

/* The start: every cell empty, side 0 to move. Does nothing when an argument is NULL. */
CUTOFF_API void cutoff_pgame_root(const cutoff_pgame_t *game, cutoff_pgame_state_t *root);

/*
 * The oracle: the exact value of `state` for the side to move under perfect play, and
 * the length of its longest line in plies (passes counted), by a negamax over every
 * position (memoized: 4 x 2^cells small entries, allocated and freed here; this is not a
 * search of the engine). Either output may be NULL. Returns 0, CUTOFF_EINVAL (NULL game
 * or state, a state with cells the game does not have, or more than 22 cells: the memo
 * would pass 64 MiB), or CUTOFF_ENOMEM.
 */
CUTOFF_API int cutoff_pgame_solve(const cutoff_pgame_t *game, const cutoff_pgame_state_t *state,
                                  int32_t *value, int *length);

#ifdef __cplusplus
}
#endif

/* The larger adapters have headers of their own. */
#include "cutoff_chess.h"
#include "cutoff_connect4.h"

#endif /* CUTOFF_GAMES_H */
