/* SPDX-License-Identifier: MIT */
/*
 * cutoff_chess.h — the chess adapter (included by cutoff_games.h).
 *
 * Standard chess on bitboards: every rule of play (castling, en passant, promotion, check,
 * checkmate, stalemate, the fifty-move rule, insufficient material), FEN in and out, EPD
 * lines (a position and its operations), moves in UCI long algebraic notation and in SAN,
 * incremental Zobrist keys and an exact perft.
 *
 * Everything read-only that the rules need (attack tables, keys, evaluation tables, about
 * 1 MB) lives in a context object, cutoff_chess_t, made once by cutoff_chess_new(). The
 * context is never written after it is made: any number of threads, searches and engines
 * may share one. The game description returned by cutoff_chess_game() points to it
 * (game->ctx), so the context must outlive every engine made for that game.
 *
 * Moves. A cutoff_move_t of this game uses its low 16 bits:
 *
 *     bits  0..5   from square (a1 = 0, b1 = 1, ..., h8 = 63)
 *     bits  6..11  to square; castling is the king's move of two squares (e1g1)
 *     bits 12..13  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen
 *     bits 14..15  kind: 0 ordinary, 1 promotion, 2 en passant, 3 castling
 *
 * and 0 above. Move 0 is never legal, and CUTOFF_MOVE_NONE is never a move.
 *
 * Repetition. A state is one fixed-size position without the game that led to it, so
 * threefold repetition cannot be seen by the callbacks; it is left to the search core
 * (which knows the path) and to the game driver (which knows the positions played).
 */
#ifndef CUTOFF_CHESS_H
#define CUTOFF_CHESS_H

#include "cutoff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most moves a chess position has in the game's lists (its max_moves). */
#define CUTOFF_CHESS_MAX_MOVES 256

/* The context: attack tables, keys and evaluation tables, read-only once made. */
typedef struct cutoff_chess cutoff_chess_t;

/*
 * A position: the placement of the pieces, the side to move, castling rights, the
 * en-passant square, the halfmove clock and the fullmove number. Its contents are private
 * (read them through the functions below); copy it freely with = or memcpy. Two states of
 * the same position with the same rights have the same key, whatever their move counters:
 * the en-passant square is kept only when an en-passant capture is actually legal.
 */
typedef struct cutoff_chess_state {
	uint64_t opaque[10];
} cutoff_chess_state_t;

/* The longest FEN cutoff_chess_fen() writes, with its terminating NUL. */
#define CUTOFF_CHESS_FEN_SIZE 96

/* The longest UCI move with its terminating NUL ("e7e8q"). */
#define CUTOFF_CHESS_MOVE_SIZE 6

/* The start position as a FEN. */
#define CUTOFF_CHESS_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* The deepest perft cutoff_chess_perft() accepts. */
#define CUTOFF_CHESS_MAX_PERFT 32

/*
 * Makes the context: builds the attack tables (magic bitboards, found here with a fixed
 * seed, so every context is identical), the Zobrist keys (fixed seed: keys are the same in
 * every process) and the evaluation tables. Takes a few milliseconds. Returns NULL with
 * *err (when err is not NULL) set to CUTOFF_ENOMEM when memory cannot be had.
 */
CUTOFF_API cutoff_chess_t *cutoff_chess_new(int *err);

/* Frees the context. NULL is ignored. No engine made for its game may still exist. */
CUTOFF_API void cutoff_chess_free(cutoff_chess_t *chess);

/*
 * The game description; it lives inside the context, ctx pointing to the context (NULL
 * for a NULL context).
 *
 *   state_size  sizeof(cutoff_chess_state_t)
 *   max_moves   CUTOFF_CHESS_MAX_MOVES, 256 (no position reachable in a game has more
 *               than 218)
 *   gen_moves   every legal move; hints: captures 1000 + 10 x victim - attacker (most
 *               valuable victim, least valuable attacker: pawn 1 .. queen 5, king 6),
 *               queen promotions 2000 more, under-promotions -1 when quiet, quiet moves 0
 *   play        copy-make; the keys are updated incrementally
 *   evaluate    material and piece-square tables, tapered between the middlegame and the
 *               endgame, in centipawns for the side to move; a position and its colour-
 *               flipped mirror evaluate the same
 *   terminal    checkmate: -CUTOFF_WIN; stalemate, the fifty-move rule (halfmove clock at
 *               100, unless the side to move is checkmated) and insufficient material
 *               (no pawns, rooks or queens, and at most one minor piece in all, or only
 *               bishops all on squares of one colour): 0
 *   key         the Zobrist key: pieces, side to move, castling rights, en-passant file
 *   gen_noisy   every capture (en passant included, with every promotion piece) and the
 *               non-capturing promotions to a queen
 *   play_null   false when the side to move is in check
 */
CUTOFF_API const cutoff_game_t *cutoff_chess_game(const cutoff_chess_t *chess);

/* The start position. Does nothing when an argument is NULL. */
CUTOFF_API void cutoff_chess_start(const cutoff_chess_t *chess, cutoff_chess_state_t *state);

/*
 * Reads a FEN: six fields (placement, side, castling, en passant, halfmove clock, fullmove
 * number) separated by blanks, or the first four alone (the counters are then 0 and 1).
 * Refused with CUTOFF_EINVAL, and a one-line message in err (when err is not NULL and
 * errlen > 0) that names the field: a wrong field count; a bad piece letter, a rank that
 * is not 8 squares long, not 8 ranks, two digits in a row; not exactly one king a side,
 * pawns on the first or last rank, more than 16 pieces or 8 pawns a side, more promoted
 * pieces than missing pawns; the side not to move in check, or the side to move in check
 * from more than two pieces, or from two that no move can give check with together (one
 * of them must be a bishop, rook or queen with a square between it and the king, and they
 * may not stand on one line on both sides of it; further impossible double checks, which
 * only a search for the last move would find, are accepted); a castling field that is
 * not '-' or a subset of "KQkq" in that order, or a right whose king or rook is not on
 * its square; an en-passant square on the wrong rank for the side to move, without the
 * pawn that has just made the double step in front of it, or with either of the squares
 * it crossed occupied; a halfmove clock outside 0..150, or not 0 beside an en-passant
 * square; a fullmove number outside 1..9999; anything that is not a plain decimal number.
 * *out is written only on success. An en-passant square on which no capture is legal is
 * accepted and dropped. A NULL chess, fen or out: CUTOFF_EINVAL, "FEN: a NULL argument".
 */
CUTOFF_API int cutoff_chess_parse_fen(const cutoff_chess_t *chess, const char *fen,
                                      cutoff_chess_state_t *out, char *err, size_t errlen);

/* Writes the FEN of `state` into buf (CUTOFF_CHESS_FEN_SIZE bytes are always enough).
 * Returns its length, or CUTOFF_EINVAL for a NULL argument or a buffer too small (buf then
 * holds "" when size > 0). */
CUTOFF_API int cutoff_chess_fen(const cutoff_chess_t *chess, const cutoff_chess_state_t *state,
                                char *buf, size_t size);

/*
 * Reads a move in UCI long algebraic notation ("e2e4", "e7e8q", castling as the king's
 * two-square move "e1g1") and checks that it is legal in `state`. Returns 0 with *move
 * set, or CUTOFF_EINVAL with a message in err (when err is not NULL and errlen > 0) naming
 * what is wrong: a NULL chess, state, text or move ("a NULL argument"), bad syntax (not 4
 * or 5 characters, a square out of a1..h8, a promotion letter other than q, r, b, n), a
 * missing or unexpected promotion piece, or a move that is not legal here.
 */
CUTOFF_API int cutoff_chess_parse_move(const cutoff_chess_t *chess,
                                       const cutoff_chess_state_t *state, const char *text,
                                       cutoff_move_t *move, char *err, size_t errlen);

/*
 * Reads a move in Standard Algebraic Notation, as EPD and PGN files write it ("e4", "Nbd7",
 * "R1e2", "Qh4xe1", "exd5", "e8=Q", "O-O-O"), and finds the one legal move of `state` it
 * names. Lenient where files differ: a missing 'x', check and mate marks (not checked),
 * trailing annotations '!' and '?', "e8Q" for "e8=Q", castling with zeros ("0-0"), an
 * "e.p." suffix on an en-passant capture, more disambiguation than needed, blanks around
 * the move. Returns 0 with *move set, or CUTOFF_EINVAL with a one-line message in err
 * (when err is not NULL and errlen > 0) that starts "SAN '<text>': " and says what is
 * wrong: a NULL chess, state, text or move ("a NULL argument"); bad syntax; no legal move
 * matches (a missing or unexpected promotion piece,
 * castling written as a king move, illegal castling said as such); ambiguous (the
 * matching moves are listed in SAN); an 'x' on a move that captures nothing, or "e.p." on
 * one that is not en passant. Reads `text` only up to its NUL and refuses more than 32
 * bytes; thread-safe.
 */
CUTOFF_API int cutoff_chess_parse_san(const cutoff_chess_t *chess,
                                      const cutoff_chess_state_t *state, const char *text,
                                      cutoff_move_t *move, char *err, size_t errlen);

/* The most operations cutoff_chess_parse_epd() reads from one line. */
#define CUTOFF_CHESS_EPD_MAX_OPS 64

/* What is wrong with a line that cutoff_chess_parse_epd() refused (its out->error). */
typedef enum cutoff_chess_epd_error {
	CUTOFF_CHESS_EPD_OK = 0,  /* the line was read */
	CUTOFF_CHESS_EPD_NULL,    /* a NULL chess, line or out */
	CUTOFF_CHESS_EPD_FIELDS,  /* fewer than 4 fields before the end or a ';' */
	CUTOFF_CHESS_EPD_FEN,     /* the fields are not a position cutoff_chess_parse_fen reads */
	CUTOFF_CHESS_EPD_OPCODE,  /* an opcode that is not a letter then letters, digits, '_' */
	CUTOFF_CHESS_EPD_QUOTE,   /* a string without its closing '"' */
	CUTOFF_CHESS_EPD_TOO_MANY /* more than CUTOFF_CHESS_EPD_MAX_OPS operations */
} cutoff_chess_epd_error_t;

/* One operation of a line: NUL-terminated pieces of the line itself. */
typedef struct cutoff_chess_epd_op {
	char *opcode;   /* "bm", "id", "D1" */
	char *operands; /* up to the ';', blanks around them left out ("Qg6 Qd3"); one quoted
	                   string without its quotes ("WAC.001"); "" when there are none */
	bool quoted;    /* the operands were one quoted string */
} cutoff_chess_epd_op_t;

/* A line read by cutoff_chess_parse_epd(). */
typedef struct cutoff_chess_epd {
	cutoff_chess_state_t state; /* the position */
	char *position;             /* its fields as the line has them, NUL-terminated */
	int fields;                 /* 4, or 6 with the move counters */
	int nops;                   /* op[0 .. nops), in the line's order */
	cutoff_chess_epd_op_t op[CUTOFF_CHESS_EPD_MAX_OPS];
	cutoff_chess_epd_error_t error; /* CUTOFF_CHESS_EPD_OK, or what is wrong */
} cutoff_chess_epd_t;

/*
 * Reads one line of an EPD file, or a FEN followed by operations: the position, then its
 * operations, none of them interpreted (the caller picks the opcodes it knows, and an
 * opcode may come more than once). The position is the first four fields (placement,
 * side, castling, en passant), and the next two when both are plain decimal numbers (the
 * move counters); a field ends at a blank or a ';'. It is read by cutoff_chess_parse_fen;
 * a position where the game is over is not refused. Each operation is an opcode (a
 * letter, then letters, digits or '_'), then its operands up to the next ';' outside a
 * double-quoted string (which may hold ';'); the last ';' may be left out, and empty
 * operations (";;") are skipped. Blanks are spaces, tabs, carriage returns and newlines.
 *
 * The line is cut in place, as strtok cuts it: NULs are written into it (even when it is
 * refused), and out->position and the strings of out->op[] point into it, so the line
 * must outlive them (*out itself may be copied). No length limit; thread-safe (the
 * context is only read); keeps nothing.
 *
 * Returns 0 with *out filled (out->error CUTOFF_CHESS_EPD_OK), or CUTOFF_EINVAL with
 * out->error saying what is wrong (when out is not NULL) and a one-line message in err
 * (when err is not NULL and errlen > 0): "EPD: a NULL argument" for a NULL chess, line or
 * out; "expected a position of 4 fields (placement, side, castling, en passant), found
 * N"; the FEN reader's message, with out->position holding the fields it refused; "bad
 * opcode 'TEXT' (an opcode is a letter then letters, digits or '_')"; "OPCODE: a string
 * without its closing '"'"; "more than 64 operations". Nothing else of *out is
 * meaningful after a failure.
 */
CUTOFF_API int cutoff_chess_parse_epd(const cutoff_chess_t *chess, char *line,
                                      cutoff_chess_epd_t *out, char *err, size_t errlen);

/* The longest SAN cutoff_chess_san() writes, with its terminating NUL ("Qh4xe1+"). */
#define CUTOFF_CHESS_SAN_SIZE 8

/*
 * Writes the SAN of `move`, a legal move of `state`, into buf: disambiguated by the
 * origin's file, else its rank, else both, only when another piece of the same kind can
 * legally reach the same square; 'x' for captures; "=Q" for promotions; '+' after a check
 * and '#' after a mate; "O-O" and "O-O-O" for castling (CUTOFF_CHESS_SAN_SIZE bytes are
 * enough). Returns its length, or CUTOFF_EINVAL for a NULL argument, a move that is not
 * legal here, or a buffer too small (buf then holds "" when size > 0).
 */
CUTOFF_API int cutoff_chess_san(const cutoff_chess_t *chess, const cutoff_chess_state_t *state,
                                cutoff_move_t move, char *buf, size_t size);

/* Writes `move` in UCI notation into buf (CUTOFF_CHESS_MOVE_SIZE bytes are enough).
 * Returns its length, or CUTOFF_EINVAL for a NULL buf, a value that is not a chess move
 * (buf then holds "" when size > 0) or a buffer too small. */
CUTOFF_API int cutoff_chess_move_str(cutoff_move_t move, char *buf, size_t size);

/* Plays a legal `move` (checked) in `state` and writes the position after it into
 * *child (which may be `state` itself). CUTOFF_EINVAL for a NULL argument or an illegal
 * move (*child untouched). */
CUTOFF_API int cutoff_chess_play(const cutoff_chess_t *chess, const cutoff_chess_state_t *state,
                                 cutoff_move_t move, cutoff_chess_state_t *child);

/* The legal moves of `state` into moves[0 .. n), in the order gen_moves gives them;
 * returns n (0 .. CUTOFF_CHESS_MAX_MOVES), or CUTOFF_EINVAL for a NULL argument. */
CUTOFF_API int cutoff_chess_moves(const cutoff_chess_t *chess, const cutoff_chess_state_t *state,
                                  cutoff_move_t moves[CUTOFF_CHESS_MAX_MOVES]);

/* True when the side to move is in check (false for a NULL argument). */
CUTOFF_API bool cutoff_chess_in_check(const cutoff_chess_t *chess,
                                      const cutoff_chess_state_t *state);

/*
 * The number of leaves of the legal-move tree of `depth` plies below `state` (perft):
 * 1 at depth 0. The last ply is counted without being played. Single-threaded; call it
 * from several threads on different positions to go parallel. Returns 0 with *nodes
 * set, or CUTOFF_EINVAL for a NULL argument or a depth outside 0..CUTOFF_CHESS_MAX_PERFT.
 */
CUTOFF_API int cutoff_chess_perft(const cutoff_chess_t *chess, const cutoff_chess_state_t *state,
                                  int depth, uint64_t *nodes);

#ifdef __cplusplus
}
#endif

#endif /* CUTOFF_CHESS_H */
