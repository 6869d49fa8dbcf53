/* SPDX-License-Identifier: MIT */
/*
 * movegen.c — legal move generation, legal move counting and perft.
 *
 * The generator is legal by construction, with no make-and-test:
 *   - the king steps only to squares that no enemy piece attacks once the king has left
 *     its square (so that it cannot step back along a slider's ray);
 *   - in double check only the king moves; in single check every other piece must land
 *     on the checker or between it and the king (`mask`);
 *   - a pinned piece moves only along the line through its king and itself (and never
 *     while in check: a pinned piece cannot resolve a check);
 *   - en passant, whose two vacated squares can expose the king in ways no pin mask sees
 *     (the rank pin through both pawns), is tested by recomputing the king's attackers;
 *   - castling needs the right, empty squares between king and rook, and no attack on the
 *     king's square or the two it crosses.
 *
 * One body serves three uses, chosen by constant arguments so that the compiler makes a
 * specialised copy of each: listing every move, listing the noisy ones, and counting
 * without listing (popcount of each piece's target set: what perft's last ply needs).
 *
 * Perft and the move count are compiled twice: once for any x86-64, once with the POPCNT
 * and BMI instructions (chosen at run time when the CPU has them), because the portable
 * build must not assume them, and with a software popcount perft runs at half the speed.
 */
#include "chess.h"

CHESS_INLINE uint64_t shift_signed(uint64_t b, int d) { return d > 0 ? b << d : b >> -d; }

/* Emits (or counts) the moves from one square to every square of `targets`. */
#define ADD_FROM(from, targets)                                                                    \
	do {                                                                                       \
		uint64_t b_ = (targets);                                                           \
		if (list) {                                                                        \
			for (; b_; b_ &= b_ - 1)                                                   \
				list[n++] = chess_move((unsigned)(from), (unsigned)chess_lsb(b_),  \
				                       MOVE_NORMAL, CHESS_KNIGHT);                 \
		} else {                                                                           \
			n += chess_popcount(b_);                                                   \
			if (any && n)                                                              \
				return n;                                                          \
		}                                                                                  \
	} while (0)

/* Emits (or counts) pawn moves to every square of `targets`, each from `to - delta`. */
#define ADD_PAWNS(targets, delta)                                                                  \
	do {                                                                                       \
		uint64_t b_ = (targets);                                                           \
		if (list) {                                                                        \
			for (; b_; b_ &= b_ - 1) {                                                 \
				int to_ = chess_lsb(b_);                                           \
				list[n++] = chess_move((unsigned)(to_ - (delta)), (unsigned)to_,   \
				                       MOVE_NORMAL, CHESS_KNIGHT);                 \
			}                                                                          \
		} else {                                                                           \
			n += chess_popcount(b_);                                                   \
			if (any && n)                                                              \
				return n;                                                          \
		}                                                                                  \
	} while (0)

/* Promotions to every square of `targets` (only to a queen when `queen_only`). */
#define ADD_PROMOS(targets, delta, queen_only)                                                     \
	do {                                                                                       \
		uint64_t b_ = (targets);                                                           \
		if (list) {                                                                        \
			for (; b_; b_ &= b_ - 1) {                                                 \
				unsigned to_ = (unsigned)chess_lsb(b_);                            \
				unsigned from_ = (unsigned)((int)to_ - (delta));                   \
				list[n++] = chess_move(from_, to_, MOVE_PROMOTION, CHESS_QUEEN);   \
				if (!(queen_only)) {                                               \
					list[n++] = chess_move(from_, to_, MOVE_PROMOTION,         \
					                       CHESS_ROOK);                        \
					list[n++] = chess_move(from_, to_, MOVE_PROMOTION,         \
					                       CHESS_BISHOP);                      \
					list[n++] = chess_move(from_, to_, MOVE_PROMOTION,         \
					                       CHESS_KNIGHT);                      \
				}                                                                  \
			}                                                                          \
		} else {                                                                           \
			n += 4 * chess_popcount(b_);                                               \
			if (any && n)                                                              \
				return n;                                                          \
		}                                                                                  \
	} while (0)

/*
 * The generator for side `us` (a constant after inlining). `list` NULL: count every legal
 * move and return the count, or with `any` return as soon as one is found (a non-zero
 * count, not the whole count: terminal() asks only whether there is a move). Otherwise
 * write the moves (every one, or with `noisy` only the captures and the promotions) and
 * return their number.
 *
 * Long: one pass over the position whose steps share the check mask, the pins and the
 * early return of `any` (ADD_FROM and the pawn macros return from here); split, every
 * step would take those and hand its count back.
 */
CHESS_INLINE int generate(const cutoff_chess_t *t, const chess_pos_t *p, uint16_t *list, bool noisy,
                          const int us, const bool any)
{
	const int them = us ^ 1;
	const int up = us == CHESS_WHITE ? 8 : -8;
	const int up_west = us == CHESS_WHITE ? 7 : -9; /* toward the a-file */
	const int up_east = us == CHESS_WHITE ? 9 : -7; /* toward the h-file */
	const uint64_t last_rank = us == CHESS_WHITE ? RANK_8_BB : RANK_1_BB;
	const uint64_t third_rank = us == CHESS_WHITE ? RANK_3_BB : RANK_6_BB;

	const uint64_t own = p->colour[us], enemy = p->colour[them];
	const uint64_t occ = own | enemy;
	const uint64_t king = p->type[CHESS_KING] & own;
	const int ksq = chess_lsb(king);
	int n = 0;

	const uint64_t checkers = chess_attackers(t, p, ksq, occ) & enemy;

	/* The king, with itself removed from the board so that it sees through its square. */
	uint64_t kt = t->king[ksq] & (noisy ? enemy : ~own);
	for (; kt; kt &= kt - 1) {
		int to = chess_lsb(kt);
		if (!chess_attacked(t, p, to, them, occ ^ king)) {
			if (list)
				list[n++] = chess_move((unsigned)ksq, (unsigned)to, MOVE_NORMAL,
				                       CHESS_KNIGHT);
			else if (any)
				return 1;
			else
				n++;
		}
	}
	if (chess_many(checkers))
		return n;

	/* Where the other pieces may go. */
	const uint64_t mask = checkers ? t->between[ksq][chess_lsb(checkers)] | checkers : ~own;
	const uint64_t targets = noisy ? mask & enemy : mask;

	/* Pins: an enemy slider that would see the king through exactly one piece of ours. */
	const uint64_t rq = p->type[CHESS_ROOK] | p->type[CHESS_QUEEN];
	const uint64_t bq = p->type[CHESS_BISHOP] | p->type[CHESS_QUEEN];
	uint64_t pinned = 0;
	uint64_t snipers = ((chess_rook_attacks(t, ksq, enemy) & rq) |
	                    (chess_bishop_attacks(t, ksq, enemy) & bq)) &
	                   enemy;
	for (; snipers; snipers &= snipers - 1) {
		uint64_t b = t->between[ksq][chess_lsb(snipers)] & occ;
		if (b && !chess_many(b))
			pinned |= b;
	}
	pinned &= own;

	uint64_t b;
	for (b = p->type[CHESS_KNIGHT] & own & ~pinned; b; b &= b - 1) {
		int sq = chess_lsb(b);
		ADD_FROM(sq, t->knight[sq] & targets);
	}
	for (b = bq & own & ~pinned; b; b &= b - 1) {
		int sq = chess_lsb(b);
		ADD_FROM(sq, chess_bishop_attacks(t, sq, occ) & targets);
	}
	for (b = rq & own & ~pinned; b; b &= b - 1) {
		int sq = chess_lsb(b);
		ADD_FROM(sq, chess_rook_attacks(t, sq, occ) & targets);
	}
	if (!checkers) {
		for (b = bq & own & pinned; b; b &= b - 1) {
			int sq = chess_lsb(b);
			ADD_FROM(sq, chess_bishop_attacks(t, sq, occ) & targets & t->line[ksq][sq]);
		}
		for (b = rq & own & pinned; b; b &= b - 1) {
			int sq = chess_lsb(b);
			ADD_FROM(sq, chess_rook_attacks(t, sq, occ) & targets & t->line[ksq][sq]);
		}
	}

	/* Pawns that are not pinned, all at once. */
	const uint64_t pawns = p->type[CHESS_PAWN] & own;
	const uint64_t free_pawns = pawns & ~pinned;
	const uint64_t empty = ~occ;
	uint64_t push1 = shift_signed(free_pawns, up) & empty;
	uint64_t push2 = shift_signed(push1 & third_rank, up) & empty & mask;
	push1 &= mask;
	uint64_t west = shift_signed(free_pawns & ~FILE_A_BB, up_west) & enemy & mask;
	uint64_t east = shift_signed(free_pawns & ~FILE_H_BB, up_east) & enemy & mask;
	if (!noisy) {
		ADD_PAWNS(push1 & ~last_rank, up);
		ADD_PAWNS(push2, 2 * up);
	}
	ADD_PAWNS(west & ~last_rank, up_west);
	ADD_PAWNS(east & ~last_rank, up_east);
	ADD_PROMOS(push1 & last_rank, up, noisy);
	ADD_PROMOS(west & last_rank, up_west, false);
	ADD_PROMOS(east & last_rank, up_east, false);

	/* Pinned pawns, one by one, along their pin line (none moves in check). */
	for (b = checkers ? 0 : pawns & pinned; b; b &= b - 1) {
		int sq = chess_lsb(b);
		uint64_t along = t->line[ksq][sq];
		uint64_t one = shift_signed(BB(sq), up) & empty & along;
		uint64_t two = shift_signed(one & third_rank, up) & empty;
		uint64_t take = t->pawn[us][sq] & enemy & along; /* the pinner, at most */
		if (!noisy) {
			ADD_PAWNS(one & ~last_rank, up);
			ADD_PAWNS(two, 2 * up);
		}
		ADD_PROMOS(one & last_rank, up, noisy);
		if (take) {
			int delta = chess_lsb(take) - sq;
			ADD_PAWNS(take & ~last_rank, delta);
			ADD_PROMOS(take & last_rank, delta, false);
		}
	}

	/* En passant: set only when some capture is legal, but each capturer is tested. */
	if (p->ep != CHESS_NO_SQ) {
		const int ep = p->ep, victim = ep - up;
		const uint64_t occ_after = occ ^ BB(ep) ^ BB(victim);
		for (b = t->pawn[them][ep] & pawns; b; b &= b - 1) {
			int sq = chess_lsb(b);
			if (chess_attackers(t, p, ksq, occ_after ^ BB(sq)) & enemy & ~BB(victim))
				continue;
			if (list)
				list[n++] = chess_move((unsigned)sq, (unsigned)ep, MOVE_EN_PASSANT,
				                       CHESS_KNIGHT);
			else if (any)
				return 1;
			else
				n++;
		}
	}

	/* Castling: the rights guarantee the king and rook on their squares. */
	if (!checkers && !noisy) {
		const unsigned rights = p->castling >> (2 * us);
		const int base = us == CHESS_WHITE ? 0 : 56;
		if ((rights & 1) && !(occ & (BB(base + 5) | BB(base + 6))) &&
		    !chess_attacked(t, p, base + 5, them, occ) &&
		    !chess_attacked(t, p, base + 6, them, occ)) {
			if (list)
				list[n++] = chess_move((unsigned)base + 4, (unsigned)base + 6,
				                       MOVE_CASTLE, CHESS_KNIGHT);
			else
				n++;
		}
		if ((rights & 2) && !(occ & (BB(base + 1) | BB(base + 2) | BB(base + 3))) &&
		    !chess_attacked(t, p, base + 3, them, occ) &&
		    !chess_attacked(t, p, base + 2, them, occ)) {
			if (list)
				list[n++] = chess_move((unsigned)base + 4, (unsigned)base + 2,
				                       MOVE_CASTLE, CHESS_KNIGHT);
			else
				n++;
		}
	}
	return n;
}

int chess_gen_legal(const cutoff_chess_t *t, const chess_pos_t *p, uint16_t *list, bool noisy)
{
	if (noisy)
		return p->side == CHESS_WHITE ? generate(t, p, list, true, CHESS_WHITE, false)
		                              : generate(t, p, list, true, CHESS_BLACK, false);
	return p->side == CHESS_WHITE ? generate(t, p, list, false, CHESS_WHITE, false)
	                              : generate(t, p, list, false, CHESS_BLACK, false);
}

int chess_count_legal(const cutoff_chess_t *t, const chess_pos_t *p) { return t->count(t, p); }

bool chess_has_legal(const cutoff_chess_t *t, const chess_pos_t *p) { return t->any(t, p) != 0; }

CHESS_INLINE int count_moves(const cutoff_chess_t *t, const chess_pos_t *p)
{
	return p->side == CHESS_WHITE ? generate(t, p, NULL, false, CHESS_WHITE, false)
	                              : generate(t, p, NULL, false, CHESS_BLACK, false);
}

/* Non-zero when the side to move has a legal move (stops at the first one found). */
CHESS_INLINE int any_moves(const cutoff_chess_t *t, const chess_pos_t *p)
{
	return p->side == CHESS_WHITE ? generate(t, p, NULL, false, CHESS_WHITE, true)
	                              : generate(t, p, NULL, false, CHESS_BLACK, true);
}

/*
 * Perft by copy-make, the last ply counted in bulk. `self` is the function being defined
 * (a constant once inlined, so the recursion is a direct call): the same body is compiled
 * under two sets of target instructions below.
 */
CHESS_INLINE uint64_t perft_node(const cutoff_chess_t *t, const chess_pos_t *p, int depth,
                                 chess_perft_fn self)
{
	if (depth <= 1)
		return depth == 0 ? 1 : (uint64_t)count_moves(t, p);
	uint16_t list[CHESS_LIST_CAP];
	int n = p->side == CHESS_WHITE ? generate(t, p, list, false, CHESS_WHITE, false)
	                               : generate(t, p, list, false, CHESS_BLACK, false);
	uint64_t total = 0;
	chess_pos_t child;
	for (int i = 0; i < n; i++) {
		chess_make(t, p, list[i], &child);
		total += self(t, &child, depth - 1);
	}
	return total;
}

static uint64_t perft_generic(const cutoff_chess_t *t, const chess_pos_t *p, int depth)
{
	return perft_node(t, p, depth, perft_generic);
}

static int count_generic(const cutoff_chess_t *t, const chess_pos_t *p)
{
	return count_moves(t, p);
}

static int any_generic(const cutoff_chess_t *t, const chess_pos_t *p) { return any_moves(t, p); }

#if defined(__x86_64__) && defined(__GNUC__)
#define CHESS_HAVE_POPCNT 1
#define CHESS_POPCNT_TARGET __attribute__((target("popcnt,bmi,bmi2")))

CHESS_POPCNT_TARGET static uint64_t perft_popcnt(const cutoff_chess_t *t, const chess_pos_t *p,
                                                 int depth)
{
	return perft_node(t, p, depth, perft_popcnt);
}

CHESS_POPCNT_TARGET static int count_popcnt(const cutoff_chess_t *t, const chess_pos_t *p)
{
	return count_moves(t, p);
}

CHESS_POPCNT_TARGET static int any_popcnt(const cutoff_chess_t *t, const chess_pos_t *p)
{
	return any_moves(t, p);
}
#endif

void chess_dispatch_init(cutoff_chess_t *t)
{
	t->perft = perft_generic;
	t->count = count_generic;
	t->any = any_generic;
#ifdef CHESS_HAVE_POPCNT
	/* (libgcc and compiler-rt fill in the CPU model before main: no __builtin_cpu_init.) */
	if (__builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
	    __builtin_cpu_supports("bmi2")) {
		t->perft = perft_popcnt;
		t->count = count_popcnt;
		t->any = any_popcnt;
	}
#endif
}
