/* SPDX-License-Identifier: MIT */
/*
 * chess.h — the chess adapter's internals: the position, the context's tables, the attack
 * look-ups and copy-make, all inline because perft and the search spend their time here.
 *
 * Board. Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63; bit s of a
 * bitboard is square s. A position is eight bitboards (one per piece type for both colours,
 * one per colour), the Zobrist key and five small fields — 80 bytes, copied whole by
 * copy-make:
 *
 *     type[6]      pawns, knights, bishops, rooks, queens, kings of both colours
 *     colour[2]    the squares of white, of black; type[] and colour[] partition alike
 *     key          Zobrist key of pieces, side, castling rights and en-passant file
 *     halfmove     plies since the last capture or pawn move (0 .. 150 from a FEN, then +1
 *                  a ply; only compared with 100)
 *     fullmove     1 .. 9999 from a FEN, +1 after each black move
 *     side         0 white, 1 black to move
 *     castling     CASTLE_* bits; a right implies the king and that rook on their squares
 *     ep           the en-passant target square, only when a capture there is legal;
 *                  CHESS_NO_SQ otherwise (so equal positions have equal keys)
 *
 * Invariants kept by make and checked by the FEN reader: one king a side, no pawn on the
 * first or last rank, the side not to move is not in check.
 *
 * Sliding attacks: "fancy" magic bitboards. For each square and slider, the relevant
 * occupancy (the rays without their last square) is multiplied by a magic number and
 * shifted right so that the product's top bits index that square's slice of one shared
 * attack table (102,400 rook and 5,248 bishop entries). The magics are found when the
 * context is made (cutoff_chess_new), from a fixed seed.
 *
 * The context is written once, by its constructor, and only read afterwards; every
 * function here takes it as `const cutoff_chess_t *`.
 */
#ifndef CUTOFF_CHESS_INTERNAL_H
#define CUTOFF_CHESS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cutoff_chess.h"

#define CHESS_INLINE static inline __attribute__((always_inline))

enum {
	CHESS_WHITE = 0,
	CHESS_BLACK = 1
};

enum {
	CHESS_PAWN = 0,
	CHESS_KNIGHT = 1,
	CHESS_BISHOP = 2,
	CHESS_ROOK = 3,
	CHESS_QUEEN = 4,
	CHESS_KING = 5,
	CHESS_NO_PIECE = 6
};

enum {
	CHESS_NO_SQ = 64
};

enum {
	CASTLE_WK = 1, /* white king side: e1g1, rook h1f1 */
	CASTLE_WQ = 2, /* white queen side: e1c1, rook a1d1 */
	CASTLE_BK = 4,
	CASTLE_BQ = 8
};

/* Move kinds, bits 14..15 of a move (see cutoff_chess.h). */
enum {
	MOVE_NORMAL = 0,
	MOVE_PROMOTION = 1,
	MOVE_EN_PASSANT = 2,
	MOVE_CASTLE = 3
};

/* Room for any generated list: no position, reachable or not, that the FEN reader accepts
 * has more than 9 x 27 + 2 x 14 + 2 x 13 + 2 x 8 + 10 = 323 legal moves (reachable ones
 * have at most 218). */
#define CHESS_LIST_CAP 336

#define CHESS_ROOK_ENTRIES 102400
#define CHESS_BISHOP_ENTRIES 5248

#define BB(sq) ((uint64_t)1 << (sq))
#define FILE_A_BB UINT64_C(0x0101010101010101)
#define FILE_H_BB UINT64_C(0x8080808080808080)
#define RANK_1_BB UINT64_C(0x00000000000000ff)
#define RANK_3_BB UINT64_C(0x0000000000ff0000)
#define RANK_6_BB UINT64_C(0x0000ff0000000000)
#define RANK_8_BB UINT64_C(0xff00000000000000)

typedef struct chess_pos {
	uint64_t type[6];
	uint64_t colour[2];
	uint64_t key;
	uint16_t halfmove;
	uint16_t fullmove;
	uint8_t side;
	uint8_t castling;
	uint8_t ep;
	uint8_t pad;
} chess_pos_t;

_Static_assert(sizeof(chess_pos_t) == 80, "a position is 80 bytes");
_Static_assert(sizeof(chess_pos_t) == sizeof(cutoff_chess_state_t),
               "the public state holds exactly one position");

/* One square's magic: attacks[((occ & mask) * magic) >> shift]. */
typedef struct chess_magic {
	const uint64_t *attacks;
	uint64_t mask;
	uint64_t magic;
	unsigned shift;
} chess_magic_t;

typedef uint64_t (*chess_perft_fn)(const struct cutoff_chess *t, const chess_pos_t *p, int depth);
typedef int (*chess_count_fn)(const struct cutoff_chess *t, const chess_pos_t *p);

struct cutoff_chess {
	cutoff_game_t game; /* game.ctx points back here */
	chess_magic_t rook[64];
	chess_magic_t bishop[64];
	uint64_t knight[64];
	uint64_t king[64];
	uint64_t pawn[2][64];     /* pawn[c][s]: squares a pawn of colour c on s attacks */
	uint64_t between[64][64]; /* squares strictly between two aligned squares, else 0 */
	uint64_t line[64][64];    /* the whole line through two aligned squares, else 0 */
	uint64_t z_piece[2][6][64];
	uint64_t z_castling[16];
	uint64_t z_ep[8];
	uint64_t z_side;
	uint8_t castle_keep[64]; /* castling rights kept when a move leaves or reaches s */
	int16_t pst_mg[6][64];   /* white's piece values with square bonus, middlegame */
	int16_t pst_eg[6][64];   /* likewise, endgame; black reads square s ^ 56 */
	chess_perft_fn perft;    /* the fastest perft this CPU runs (see movegen.c) */
	chess_count_fn count;    /* likewise, the legal-move count */
	chess_count_fn any;      /* likewise, non-zero when there is a legal move */
	uint64_t slider[CHESS_ROOK_ENTRIES + CHESS_BISHOP_ENTRIES];
};

/* ---- bit tricks ---- */

CHESS_INLINE int chess_lsb(uint64_t b) { return __builtin_ctzll(b); }
CHESS_INLINE int chess_popcount(uint64_t b) { return __builtin_popcountll(b); }
CHESS_INLINE bool chess_many(uint64_t b) { return (b & (b - 1)) != 0; }

/* ---- moves ---- */

CHESS_INLINE unsigned move_from(unsigned m) { return m & 63; }
CHESS_INLINE unsigned move_to(unsigned m) { return (m >> 6) & 63; }
CHESS_INLINE unsigned move_kind(unsigned m) { return (m >> 14) & 3; }
CHESS_INLINE int move_promo_piece(unsigned m) { return CHESS_KNIGHT + (int)((m >> 12) & 3); }

CHESS_INLINE uint16_t chess_move(unsigned from, unsigned to, unsigned kind, unsigned promo)
{
	return (uint16_t)(from | to << 6 | (promo - CHESS_KNIGHT) << 12 | kind << 14);
}

/* ---- attacks ---- */

CHESS_INLINE uint64_t chess_rook_attacks(const cutoff_chess_t *t, int sq, uint64_t occ)
{
	const chess_magic_t *m = &t->rook[sq];
	return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

CHESS_INLINE uint64_t chess_bishop_attacks(const cutoff_chess_t *t, int sq, uint64_t occ)
{
	const chess_magic_t *m = &t->bishop[sq];
	return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

/* Pieces of both colours attacking `sq`, with the sliders seeing through `occ`. */
CHESS_INLINE uint64_t chess_attackers(const cutoff_chess_t *t, const chess_pos_t *p, int sq,
                                      uint64_t occ)
{
	uint64_t rq = p->type[CHESS_ROOK] | p->type[CHESS_QUEEN];
	uint64_t bq = p->type[CHESS_BISHOP] | p->type[CHESS_QUEEN];
	return (t->pawn[CHESS_WHITE][sq] & p->type[CHESS_PAWN] & p->colour[CHESS_BLACK]) |
	       (t->pawn[CHESS_BLACK][sq] & p->type[CHESS_PAWN] & p->colour[CHESS_WHITE]) |
	       (t->knight[sq] & p->type[CHESS_KNIGHT]) | (t->king[sq] & p->type[CHESS_KING]) |
	       (chess_bishop_attacks(t, sq, occ) & bq) | (chess_rook_attacks(t, sq, occ) & rq);
}

/* Whether a piece of colour `by` attacks `sq` with the board occupied as `occ`; cheap
 * tests first. */
CHESS_INLINE bool chess_attacked(const cutoff_chess_t *t, const chess_pos_t *p, int sq, int by,
                                 uint64_t occ)
{
	uint64_t them = p->colour[by];
	if (t->pawn[by ^ 1][sq] & p->type[CHESS_PAWN] & them)
		return true;
	if (t->knight[sq] & p->type[CHESS_KNIGHT] & them)
		return true;
	if (t->king[sq] & p->type[CHESS_KING] & them)
		return true;
	uint64_t bq = (p->type[CHESS_BISHOP] | p->type[CHESS_QUEEN]) & them;
	if (bq && (chess_bishop_attacks(t, sq, occ) & bq))
		return true;
	uint64_t rq = (p->type[CHESS_ROOK] | p->type[CHESS_QUEEN]) & them;
	return rq && (chess_rook_attacks(t, sq, occ) & rq);
}

CHESS_INLINE int chess_king_sq(const chess_pos_t *p, int colour)
{
	return chess_lsb(p->type[CHESS_KING] & p->colour[colour]);
}

CHESS_INLINE uint64_t chess_occupied(const chess_pos_t *p)
{
	return p->colour[CHESS_WHITE] | p->colour[CHESS_BLACK];
}

CHESS_INLINE bool chess_in_check(const cutoff_chess_t *t, const chess_pos_t *p)
{
	return chess_attacked(t, p, chess_king_sq(p, p->side), p->side ^ 1, chess_occupied(p));
}

/* The type of the piece on `sq`, or CHESS_NO_PIECE. */
CHESS_INLINE int chess_piece_on(const chess_pos_t *p, int sq)
{
	uint64_t b = BB(sq);
	for (int pt = CHESS_PAWN; pt <= CHESS_KING; pt++) {
		if (p->type[pt] & b)
			return pt;
	}
	return CHESS_NO_PIECE;
}

/*
 * Whether the side to move in `p` has a legal en-passant capture onto `ep` (an empty
 * square just crossed by the opponent's double step, whose pawn stands on `victim`). A
 * capturing pawn is legal when, with it moved and the victim gone, no piece of the other
 * side but the victim attacks the king: that covers every pin, the rank pin through both
 * pawns, and checks the capture does or does not resolve.
 */
CHESS_INLINE bool chess_ep_legal(const cutoff_chess_t *t, const chess_pos_t *p, int ep, int victim)
{
	int us = p->side;
	uint64_t capturers = t->pawn[us ^ 1][ep] & p->type[CHESS_PAWN] & p->colour[us];
	if (!capturers)
		return false;
	int ksq = chess_king_sq(p, us);
	uint64_t occ = chess_occupied(p) ^ BB(victim) ^ BB(ep);
	for (; capturers; capturers &= capturers - 1) {
		uint64_t from = capturers & -capturers;
		if (!(chess_attackers(t, p, ksq, occ ^ from) & p->colour[us ^ 1] & ~BB(victim)))
			return true;
	}
	return false;
}

/* Moves piece `pt` of colour `c` from `from` to `to` (both bitboard and key). */
CHESS_INLINE void chess_move_piece(const cutoff_chess_t *t, chess_pos_t *c, int colour, int pt,
                                   int from, int to)
{
	uint64_t ft = BB(from) | BB(to);
	c->type[pt] ^= ft;
	c->colour[colour] ^= ft;
	c->key ^= t->z_piece[colour][pt][from] ^ t->z_piece[colour][pt][to];
}

CHESS_INLINE void chess_toggle_piece(const cutoff_chess_t *t, chess_pos_t *c, int colour, int pt,
                                     int sq)
{
	c->type[pt] ^= BB(sq);
	c->colour[colour] ^= BB(sq);
	c->key ^= t->z_piece[colour][pt][sq];
}

/*
 * Copy-make: *c = the position after the legal move `m` in *p (c != p). Everything is
 * updated incrementally, the key included; the en-passant square is set after a double
 * step only when the reply can capture en passant legally.
 */
CHESS_INLINE void chess_make(const cutoff_chess_t *t, const chess_pos_t *p, unsigned m,
                             chess_pos_t *c)
{
	*c = *p;
	const int us = p->side, them = us ^ 1;
	const int from = (int)move_from(m), to = (int)move_to(m);
	const unsigned kind = move_kind(m);

	c->key ^= t->z_side;
	if (p->ep != CHESS_NO_SQ) {
		c->key ^= t->z_ep[p->ep & 7];
		c->ep = CHESS_NO_SQ;
	}
	c->halfmove++;
	c->fullmove = (uint16_t)(c->fullmove + us);
	c->side = (uint8_t)them;

	if (kind == MOVE_CASTLE) {
		/* King side: the rook goes from h to f; queen side from a to d. */
		int rfrom = to > from ? to + 1 : to - 2;
		int rto = to > from ? to - 1 : to + 1;
		chess_move_piece(t, c, us, CHESS_KING, from, to);
		chess_move_piece(t, c, us, CHESS_ROOK, rfrom, rto);
	} else {
		const int pt = chess_piece_on(p, from);
		if (kind == MOVE_EN_PASSANT) {
			chess_toggle_piece(t, c, them, CHESS_PAWN, to ^ 8);
		} else if (p->colour[them] & BB(to)) {
			chess_toggle_piece(t, c, them, chess_piece_on(p, to), to);
			c->halfmove = 0;
		}
		if (kind == MOVE_PROMOTION) {
			chess_toggle_piece(t, c, us, CHESS_PAWN, from);
			chess_toggle_piece(t, c, us, move_promo_piece(m), to);
		} else {
			chess_move_piece(t, c, us, pt, from, to);
		}
		if (pt == CHESS_PAWN) {
			c->halfmove = 0;
			if ((from ^ to) == 16) {
				int ep = (from + to) >> 1;
				if (chess_ep_legal(t, c, ep, to)) {
					c->ep = (uint8_t)ep;
					c->key ^= t->z_ep[ep & 7];
				}
			}
		}
	}
	uint8_t rights = (uint8_t)(p->castling & t->castle_keep[from] & t->castle_keep[to]);
	if (rights != p->castling) {
		c->key ^= t->z_castling[p->castling] ^ t->z_castling[rights];
		c->castling = rights;
	}
}

/* ---- functions of the other files ---- */

/* attacks.c: fills every table of *t but the evaluation's and the game description. */
void chess_tables_init(cutoff_chess_t *t);

/* movegen.c */
/* The legal moves of *p into list (CHESS_LIST_CAP entries); returns their number. With
 * `noisy`, only captures and promotions (as gen_noisy describes them). */
int chess_gen_legal(const cutoff_chess_t *t, const chess_pos_t *p, uint16_t *list, bool noisy);
/* The number of legal moves of *p, without listing them. */
int chess_count_legal(const cutoff_chess_t *t, const chess_pos_t *p);
/* True when the side to move has a legal move (faster than counting them). */
bool chess_has_legal(const cutoff_chess_t *t, const chess_pos_t *p);
/* Sets t->perft, t->count and t->any to the versions this CPU runs fastest. */
void chess_dispatch_init(cutoff_chess_t *t);

/* position.c */
uint64_t chess_key_of(const cutoff_chess_t *t, const chess_pos_t *p);
int chess_parse_fen(const cutoff_chess_t *t, const char *fen, chess_pos_t *out, char *err,
                    size_t errlen);
int chess_write_fen(const chess_pos_t *p, char *buf, size_t size);
int chess_move_text(unsigned m, char *buf, size_t size);
void chess_start_pos(const cutoff_chess_t *t, chess_pos_t *p);

/* eval.c */
void chess_eval_init(cutoff_chess_t *t);
int32_t chess_evaluate(const cutoff_chess_t *t, const chess_pos_t *p);
bool chess_insufficient(const chess_pos_t *p);

#endif /* CUTOFF_CHESS_INTERNAL_H */
