/* SPDX-License-Identifier: MIT */
/*
 * eval.c — a simple static evaluation and the draw by insufficient material.
 *
 * Material plus piece-square tables, each with a middlegame and an endgame value, blended
 * by the phase (knights and bishops 1, rooks 2, queens 4; 24 at the start). The tables
 * are computed from a few plain ideas rather than tuned: pawns gain as they advance and in
 * the centre, knights and bishops want the centre, rooks the seventh rank, the king its
 * corner shelter in the middlegame and the centre in the endgame. White's tables are read
 * at square s, black's at s ^ 56 (the same square seen from the other side), so a
 * position and its colour-flipped mirror evaluate the same.
 */
#include <stdlib.h>

#include "chess.h"

static const int16_t value_mg[6] = { 100, 320, 330, 500, 950, 0 };
static const int16_t value_eg[6] = { 120, 300, 320, 530, 950, 0 };
static const int phase_weight[6] = { 0, 1, 1, 2, 4, 0 };

enum {
	PHASE_MAX = 24
};

void chess_eval_init(cutoff_chess_t *t)
{
	for (int sq = 0; sq < 64; sq++) {
		int f = sq % 8, r = sq / 8;
		/* Distance from the centre, 0 (d4, e4, d5, e5) .. 6 (the corners). */
		int centre = (abs(2 * f - 7) + abs(2 * r - 7)) / 2 - 1;
		bool middle_files = f == 3 || f == 4;
		int mg[6], eg[6];

		mg[CHESS_PAWN] = (r - 1) * 5 + (middle_files && (r == 3 || r == 4) ? 15 : 0);
		eg[CHESS_PAWN] = (r - 1) * 12;
		if (r == 0 || r == 7)
			mg[CHESS_PAWN] = eg[CHESS_PAWN] = 0;
		mg[CHESS_KNIGHT] = -8 * centre + 12;
		eg[CHESS_KNIGHT] = -6 * centre + 9;
		mg[CHESS_BISHOP] = -4 * centre + 6;
		eg[CHESS_BISHOP] = -4 * centre + 6;
		mg[CHESS_ROOK] = (r == 6 ? 20 : 0) + (middle_files ? 5 : 0);
		eg[CHESS_ROOK] = r == 6 ? 10 : 0;
		mg[CHESS_QUEEN] = -2 * centre + 3;
		eg[CHESS_QUEEN] = -4 * centre + 6;
		mg[CHESS_KING] = -15 * r + (f == 1 || f == 2 || f == 6 ? 20
		                            : f == 0 || f == 7         ? 10
		                                                       : 0);
		eg[CHESS_KING] = -10 * centre + 15;

		for (int pt = 0; pt < 6; pt++) {
			t->pst_mg[pt][sq] = (int16_t)(value_mg[pt] + mg[pt]);
			t->pst_eg[pt][sq] = (int16_t)(value_eg[pt] + eg[pt]);
		}
	}
}

int32_t chess_evaluate(const cutoff_chess_t *t, const chess_pos_t *p)
{
	int mg = 0, eg = 0, phase = 0;
	for (int pt = CHESS_PAWN; pt <= CHESS_KING; pt++) {
		for (uint64_t b = p->type[pt] & p->colour[CHESS_WHITE]; b; b &= b - 1) {
			int sq = chess_lsb(b);
			mg += t->pst_mg[pt][sq];
			eg += t->pst_eg[pt][sq];
			phase += phase_weight[pt];
		}
		for (uint64_t b = p->type[pt] & p->colour[CHESS_BLACK]; b; b &= b - 1) {
			int sq = chess_lsb(b) ^ 56;
			mg -= t->pst_mg[pt][sq];
			eg -= t->pst_eg[pt][sq];
			phase += phase_weight[pt];
		}
	}
	if (phase > PHASE_MAX)
		phase = PHASE_MAX;
	/* Truncating toward zero keeps the blend symmetric under negation. */
	int score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
	return p->side == CHESS_WHITE ? score : -score;
}

#define DARK_SQUARES UINT64_C(0xaa55aa55aa55aa55)

bool chess_insufficient(const chess_pos_t *p)
{
	if (p->type[CHESS_PAWN] | p->type[CHESS_ROOK] | p->type[CHESS_QUEEN])
		return false;
	uint64_t minors = p->type[CHESS_KNIGHT] | p->type[CHESS_BISHOP];
	if (!chess_many(minors))
		return true;
	/* Only bishops, all on squares of one colour: no mate is possible. */
	if (p->type[CHESS_KNIGHT])
		return false;
	uint64_t bishops = p->type[CHESS_BISHOP];
	return !(bishops & DARK_SQUARES) || !(bishops & ~DARK_SQUARES);
}
