/* SPDX-License-Identifier: MIT */
/*
 * position.c — FEN in and out, keys from scratch, moves as text.
 *
 * The FEN reader is strict: it accepts only what a legal game could have produced as far
 * as cheap tests can tell (see cutoff_chess_parse_fen in cutoff_chess.h for the list),
 * names the field at fault in a one-line message, and never reads past the string's end.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "chess.h"

static const char piece_letters[] = "pnbrqk";

uint64_t chess_key_of(const cutoff_chess_t *t, const chess_pos_t *p)
{
	uint64_t key = 0;
	for (int c = 0; c < 2; c++) {
		for (int pt = 0; pt < 6; pt++) {
			for (uint64_t b = p->type[pt] & p->colour[c]; b; b &= b - 1)
				key ^= t->z_piece[c][pt][chess_lsb(b)];
		}
	}
	if (p->side == CHESS_BLACK)
		key ^= t->z_side;
	key ^= t->z_castling[p->castling];
	if (p->ep != CHESS_NO_SQ)
		key ^= t->z_ep[p->ep & 7];
	return key;
}

static int fen_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fen_error(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen > 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return CUTOFF_EINVAL;
}

/* A FEN field shown back in a message: at most 20 bytes, printable ASCII only. */
static void show(char *buf, size_t size, const char *text, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len && o + 5 < size; i++) {
		if (i == 20) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		unsigned char ch = (unsigned char)text[i];
		buf[o++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	buf[o] = '\0';
}

/* Reads a plain decimal number (digits only, at most 5 of them) in [min, max]. */
static bool read_number(const char *s, size_t len, int min, int max, int *out)
{
	if (len == 0 || len > 5)
		return false;
	int v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v < min || v > max)
		return false;
	*out = v;
	return true;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

enum {
	FEN_FIELDS = 6
};

static int parse_placement(const char *s, size_t len, chess_pos_t *p, char *err, size_t errlen)
{
	int rank = 7, file = 0;
	bool last_digit = false;
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		if (ch == '/') {
			if (file != 8)
				return fen_error(err, errlen,
				                 "piece placement: rank %d has %d squares, not 8",
				                 rank + 1, file);
			if (rank == 0)
				return fen_error(err, errlen, "piece placement: more than 8 ranks");
			rank--;
			file = 0;
			last_digit = false;
		} else if (ch >= '1' && ch <= '8') {
			if (last_digit)
				return fen_error(err, errlen,
				                 "piece placement: two digits in a row in rank %d",
				                 rank + 1);
			file += ch - '0';
			if (file > 8)
				return fen_error(err, errlen,
				                 "piece placement: rank %d has more than 8 squares",
				                 rank + 1);
			last_digit = true;
		} else {
			const char *lower = NULL;
			if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))
				lower = strchr(piece_letters, ch | 0x20);
			int colour = ch >= 'a' ? CHESS_BLACK : CHESS_WHITE;
			if (!lower)
				return fen_error(
					err, errlen,
					"piece placement: bad piece letter '%c' (expected one of "
					"pnbrqkPNBRQK, a digit 1-8 or '/')",
					ch >= 0x20 && ch < 0x7f ? ch : '?');
			if (file >= 8)
				return fen_error(err, errlen,
				                 "piece placement: rank %d has more than 8 squares",
				                 rank + 1);
			int sq = rank * 8 + file;
			int pt = (int)(lower - piece_letters);
			p->type[pt] |= BB(sq);
			p->colour[colour] |= BB(sq);
			file++;
			last_digit = false;
		}
	}
	if (file != 8)
		return fen_error(err, errlen, "piece placement: rank %d has %d squares, not 8",
		                 rank + 1, file);
	if (rank != 0)
		return fen_error(err, errlen, "piece placement: %d ranks, not 8", 8 - rank);
	return 0;
}

/* Material checks: kings, pawns on the back ranks, counts a game can reach. */
static int check_material(const chess_pos_t *p, char *err, size_t errlen)
{
	static const char *const colour_names[2] = { "white", "black" };
	if (p->type[CHESS_PAWN] & (RANK_1_BB | RANK_8_BB))
		return fen_error(err, errlen, "piece placement: a pawn on the first or last rank");
	for (int c = 0; c < 2; c++) {
		uint64_t own = p->colour[c];
		int kings = chess_popcount(p->type[CHESS_KING] & own);
		if (kings != 1)
			return fen_error(err, errlen, "piece placement: %s has %d kings, not 1",
			                 colour_names[c], kings);
		int pawns = chess_popcount(p->type[CHESS_PAWN] & own);
		if (pawns > 8)
			return fen_error(err, errlen,
			                 "piece placement: %s has %d pawns (at most 8)",
			                 colour_names[c], pawns);
		if (chess_popcount(own) > 16)
			return fen_error(err, errlen,
			                 "piece placement: %s has %d pieces (at most 16)",
			                 colour_names[c], chess_popcount(own));
		/* Pieces beyond the initial set must be promoted pawns. */
		static const int initial[5] = { 8, 2, 2, 2, 1 };
		int extra = 0;
		for (int pt = CHESS_KNIGHT; pt <= CHESS_QUEEN; pt++) {
			int k = chess_popcount(p->type[pt] & own);
			if (k > initial[pt])
				extra += k - initial[pt];
		}
		if (extra > 8 - pawns)
			return fen_error(err, errlen,
			                 "piece placement: %s has %d promoted pieces but only %d "
			                 "missing pawns",
			                 colour_names[c], extra, 8 - pawns);
	}
	return 0;
}

/*
 * Two checkers: what the last move can have done. Both checks are new (the side that made
 * it was not left in check), and a move gives check with at most one piece of its own —
 * the piece it moved, or the rook when castling. Any other check is discovered: a bishop,
 * rook or queen whose line to the king ran through a square the move emptied, which is
 * still empty, so there is a square between that checker and the king. Hence, for every
 * position a game can reach:
 *   - one of the two is a slider with a square between it and the king (two knights, two
 *     pawns, a knight and a pawn, or a piece next to the king with a knight or pawn are
 *     refused);
 *   - they are not on one line on both sides of the king: one was uncovered by a square
 *     emptied on its side, and the move would have had to bring the other from there to
 *     the far side — across the king, which no slider can, or by a pawn step, which never
 *     joins two squares on both sides of the king (a knight gives no check along a line).
 *     En passant and castling move two men, but the squares that matter are neighbours
 *     (the captured pawn's and the capturing pawn's; the king's and the rook's), and
 *     neighbours cannot lie on both sides of the king.
 * That is as far as the check goes: finding a last move that made both checks (a
 * retrograde analysis: un-moves, un-captures, un-promotions) is not attempted, so some
 * impossible double checks are still read, but no reachable position is refused.
 */
static int check_double_check(const cutoff_chess_t *t, const chess_pos_t *p, int ksq,
                              uint64_t checkers, char *err, size_t errlen)
{
	static const char *const names[6] = { "pawn", "knight", "bishop", "rook", "queen", "king" };
	int a = chess_lsb(checkers), b = chess_lsb(checkers & (checkers - 1));
	const char *na = names[chess_piece_on(p, a)], *nb = names[chess_piece_on(p, b)];
	char sa[3] = { (char)('a' + a % 8), (char)('1' + a / 8), 0 };
	char sb[3] = { (char)('a' + b % 8), (char)('1' + b / 8), 0 };
	if (!t->between[a][ksq] && !t->between[b][ksq])
		return fen_error(err, errlen,
		                 "piece placement: the side to move is in check from the %s on %s "
		                 "and the %s on %s, which no move can give together (one of two "
		                 "checks is discovered: a bishop, rook or queen with a square "
		                 "between it and the king)",
		                 na, sa, nb, sb);
	if (t->between[a][b] & BB(ksq))
		return fen_error(
			err, errlen,
			"piece placement: the side to move is in check from the %s on %s "
			"and the %s on %s, on one line on both sides of the king, which no "
			"move can give",
			na, sa, nb, sb);
	return 0;
}

static int parse_castling(const char *s, size_t len, chess_pos_t *p, char *err, size_t errlen)
{
	char shown[32];
	show(shown, sizeof(shown), s, len);
	if (len == 1 && s[0] == '-')
		return 0;
	static const char order[] = "KQkq";
	size_t next = 0;
	for (size_t i = 0; i < len; i++) {
		const char *at = strchr(order + next, s[i]);
		if (s[i] == '\0' || !at)
			return fen_error(
				err, errlen,
				"castling: '%s' is not '-' or a subset of 'KQkq' in that order",
				shown);
		next = (size_t)(at - order) + 1;
		p->castling |= (uint8_t)(1u << (at - order));
	}
	/* Each right needs its king and rook at home. */
	static const struct {
		int right, colour, king, rook;
		char letter;
	} need[4] = { { CASTLE_WK, CHESS_WHITE, 4, 7, 'K' },
		      { CASTLE_WQ, CHESS_WHITE, 4, 0, 'Q' },
		      { CASTLE_BK, CHESS_BLACK, 60, 63, 'k' },
		      { CASTLE_BQ, CHESS_BLACK, 60, 56, 'q' } };
	for (int i = 0; i < 4; i++) {
		if (!(p->castling & need[i].right))
			continue;
		uint64_t own = p->colour[need[i].colour];
		if (!(p->type[CHESS_KING] & own & BB(need[i].king)))
			return fen_error(err, errlen,
			                 "castling: right '%c' but the %s king is not on %s",
			                 need[i].letter, need[i].colour ? "black" : "white",
			                 need[i].colour ? "e8" : "e1");
		if (!(p->type[CHESS_ROOK] & own & BB(need[i].rook)))
			return fen_error(err, errlen,
			                 "castling: right '%c' but there is no %s rook on %c%c",
			                 need[i].letter, need[i].colour ? "black" : "white",
			                 'a' + need[i].rook % 8, '1' + need[i].rook / 8);
	}
	return 0;
}

static int parse_ep(const char *s, size_t len, chess_pos_t *p, char *err, size_t errlen)
{
	char shown[32];
	show(shown, sizeof(shown), s, len);
	p->ep = CHESS_NO_SQ;
	if (len == 1 && s[0] == '-')
		return 0;
	if (len != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
		return fen_error(err, errlen, "en passant: '%s' is not '-' or a square a1..h8",
		                 shown);
	int file = s[0] - 'a', rank = s[1] - '1';
	int us = p->side, them = us ^ 1;
	int want = us == CHESS_WHITE ? 5 : 2;
	if (rank != want)
		return fen_error(
			err, errlen,
			"en passant: %s is not on rank %d, where a double step just made by "
			"%s would leave it",
			shown, want + 1, them ? "black" : "white");
	int ep = rank * 8 + file;
	int victim = us == CHESS_WHITE ? ep - 8 : ep + 8;
	int origin = us == CHESS_WHITE ? ep + 8 : ep - 8;
	if (!(p->type[CHESS_PAWN] & p->colour[them] & BB(victim)))
		return fen_error(err, errlen,
		                 "en passant: %s but no %s pawn on %c%d that could just have "
		                 "made a double step",
		                 shown, them ? "black" : "white", 'a' + file, victim / 8 + 1);
	if (chess_occupied(p) & (BB(ep) | BB(origin)))
		return fen_error(err, errlen,
		                 "en passant: %s but %c%d or %c%d, which the pawn just crossed, is "
		                 "occupied",
		                 shown, 'a' + file, ep / 8 + 1, 'a' + file, origin / 8 + 1);
	p->ep = (uint8_t)ep;
	return 0;
}

/* Splits a FEN into its blank-separated fields: the first FEN_FIELDS + 1 into field[] and
 * flen[]; returns how many there are (which may be more). */
static int split_fields(const char *fen, const char **field, size_t *flen)
{
	int nfields = 0;
	const char *s = fen;
	while (*s) {
		while (is_blank(*s))
			s++;
		if (!*s)
			break;
		const char *start = s;
		while (*s && !is_blank(*s))
			s++;
		if (nfields <= FEN_FIELDS) {
			field[nfields] = start;
			flen[nfields] = (size_t)(s - start);
		}
		nfields++;
	}
	return nfields;
}

/* The checks a legal position allows: the side not to move is not in check, and the side
 * to move is in check from at most two pieces, which one move can have made. */
static int check_checks(const cutoff_chess_t *t, const chess_pos_t *p, char *err, size_t errlen)
{
	int them = p->side ^ 1;
	if (chess_attacked(t, p, chess_king_sq(p, them), p->side, chess_occupied(p)))
		return fen_error(err, errlen,
		                 "side to move: %s is to move but %s, not to move, is in check",
		                 p->side ? "black" : "white", them ? "black" : "white");
	int ksq = chess_king_sq(p, p->side);
	uint64_t checkers = chess_attackers(t, p, ksq, chess_occupied(p)) & p->colour[them];
	if (chess_popcount(checkers) > 2)
		return fen_error(err, errlen,
		                 "piece placement: the side to move is in check from %d pieces "
		                 "(at most 2)",
		                 chess_popcount(checkers));
	if (chess_popcount(checkers) == 2)
		return check_double_check(t, p, ksq, checkers, err, errlen);
	return 0;
}

/* The halfmove clock and the fullmove number (field[0] and field[1]) into *p, after its
 * en-passant square: a pawn that has just moved leaves the clock at 0. */
static int parse_clocks(const char **field, const size_t *flen, chess_pos_t *p, char *err,
                        size_t errlen)
{
	char shown[32];
	int halfmove = 0, fullmove = 1;
	if (!read_number(field[0], flen[0], 0, 150, &halfmove)) {
		show(shown, sizeof(shown), field[0], flen[0]);
		return fen_error(err, errlen,
		                 "halfmove clock: expected a number in 0..150, got '%s'", shown);
	}
	if (!read_number(field[1], flen[1], 1, 9999, &fullmove)) {
		show(shown, sizeof(shown), field[1], flen[1]);
		return fen_error(err, errlen,
		                 "fullmove number: expected a number in 1..9999, got '%s'", shown);
	}
	if (p->ep != CHESS_NO_SQ && halfmove != 0)
		return fen_error(err, errlen,
		                 "halfmove clock: %d, but an en-passant square says a pawn has "
		                 "just moved (0)",
		                 halfmove);
	p->halfmove = (uint16_t)halfmove;
	p->fullmove = (uint16_t)fullmove;
	return 0;
}

int chess_parse_fen(const cutoff_chess_t *t, const char *fen, chess_pos_t *out, char *err,
                    size_t errlen)
{
	if (err && errlen > 0)
		err[0] = '\0';
	if (!t || !fen || !out)
		return fen_error(err, errlen, "FEN: a NULL argument");

	const char *field[FEN_FIELDS + 1];
	size_t flen[FEN_FIELDS + 1];
	int nfields = split_fields(fen, field, flen);
	if (nfields != FEN_FIELDS && nfields != 4)
		return fen_error(err, errlen,
		                 "FEN: %d fields, expected 6 (placement, side, castling, en "
		                 "passant, halfmove clock, fullmove number) or the first 4",
		                 nfields);

	chess_pos_t p;
	memset(&p, 0, sizeof(p));
	p.ep = CHESS_NO_SQ;
	p.fullmove = 1; /* the clocks of a FEN of 4 fields: 0 and 1 */
	int rc = parse_placement(field[0], flen[0], &p, err, errlen);
	if (rc)
		return rc;
	rc = check_material(&p, err, errlen);
	if (rc)
		return rc;

	char shown[32];
	if (flen[1] != 1 || (field[1][0] != 'w' && field[1][0] != 'b')) {
		show(shown, sizeof(shown), field[1], flen[1]);
		return fen_error(err, errlen, "side to move: expected 'w' or 'b', got '%s'", shown);
	}
	p.side = field[1][0] == 'w' ? CHESS_WHITE : CHESS_BLACK;

	/* Check before castling and en passant: their messages assume a sane position. */
	rc = check_checks(t, &p, err, errlen);
	if (rc)
		return rc;
	rc = parse_castling(field[2], flen[2], &p, err, errlen);
	if (rc)
		return rc;
	rc = parse_ep(field[3], flen[3], &p, err, errlen);
	if (rc)
		return rc;

	if (nfields == FEN_FIELDS && (rc = parse_clocks(field + 4, flen + 4, &p, err, errlen)) != 0)
		return rc;

	/* Keep the en-passant square only when a capture there is legal. */
	if (p.ep != CHESS_NO_SQ && !chess_ep_legal(t, &p, p.ep, p.side ? p.ep + 8 : p.ep - 8))
		p.ep = CHESS_NO_SQ;
	p.key = chess_key_of(t, &p);
	*out = p;
	return 0;
}

int chess_write_fen(const chess_pos_t *p, char *buf, size_t size)
{
	char fen[CUTOFF_CHESS_FEN_SIZE];
	size_t o = 0;
	for (int rank = 7; rank >= 0; rank--) {
		int empty = 0;
		for (int file = 0; file < 8; file++) {
			int sq = rank * 8 + file;
			int pt = chess_piece_on(p, sq);
			if (pt == CHESS_NO_PIECE) {
				empty++;
				continue;
			}
			if (empty)
				fen[o++] = (char)('0' + empty);
			empty = 0;
			char letter = piece_letters[pt];
			fen[o++] = (p->colour[CHESS_WHITE] & BB(sq)) ? (char)(letter - 'a' + 'A')
			                                             : letter;
		}
		if (empty)
			fen[o++] = (char)('0' + empty);
		if (rank)
			fen[o++] = '/';
	}
	fen[o++] = ' ';
	fen[o++] = p->side == CHESS_WHITE ? 'w' : 'b';
	fen[o++] = ' ';
	if (!p->castling)
		fen[o++] = '-';
	for (int i = 0; i < 4; i++) {
		if (p->castling & (1 << i))
			fen[o++] = "KQkq"[i];
	}
	fen[o++] = ' ';
	if (p->ep == CHESS_NO_SQ) {
		fen[o++] = '-';
	} else {
		fen[o++] = (char)('a' + p->ep % 8);
		fen[o++] = (char)('1' + p->ep / 8);
	}
	/* At most 64 + 7 + 12 bytes so far; the counters add at most 12. */
	int k = snprintf(fen + o, sizeof(fen) - o, " %u %u", (unsigned)p->halfmove,
	                 (unsigned)p->fullmove);
	if (k < 0 || (size_t)k >= sizeof(fen) - o || o + (size_t)k + 1 > size) {
		if (size > 0)
			buf[0] = '\0';
		return CUTOFF_EINVAL;
	}
	o += (size_t)k;
	memcpy(buf, fen, o + 1);
	return (int)o;
}

int chess_move_text(unsigned m, char *buf, size_t size)
{
	unsigned from = move_from(m), to = move_to(m), kind = move_kind(m);
	bool ok = m != 0 && m <= 0xffff && from != to &&
	          (kind == MOVE_PROMOTION || ((m >> 12) & 3) == 0);
	size_t len = kind == MOVE_PROMOTION ? 5 : 4;
	if (!ok || size < len + 1) {
		if (size > 0)
			buf[0] = '\0';
		return CUTOFF_EINVAL;
	}
	buf[0] = (char)('a' + from % 8);
	buf[1] = (char)('1' + from / 8);
	buf[2] = (char)('a' + to % 8);
	buf[3] = (char)('1' + to / 8);
	if (kind == MOVE_PROMOTION)
		buf[4] = "nbrq"[(m >> 12) & 3];
	buf[len] = '\0';
	return (int)len;
}

void chess_start_pos(const cutoff_chess_t *t, chess_pos_t *p)
{
	int rc = chess_parse_fen(t, CUTOFF_CHESS_START_FEN, p, NULL, 0);
	(void)rc; /* the start position always parses */
}
