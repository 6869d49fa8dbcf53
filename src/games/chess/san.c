/* SPDX-License-Identifier: MIT */
/*
 * san.c — moves in Standard Algebraic Notation (SAN), as EPD test suites and PGN write them.
 *
 * Writing follows the PGN standard (section 8.2.3): the piece letter (none for a pawn), the
 * origin's file, rank, or both only when another piece of the same kind could reach the same
 * square legally (file first, then rank, then both), 'x' for a capture (a pawn capture names
 * its origin file), the destination, "=Q" for a promotion, then '+' for check or '#' for
 * mate; castling is "O-O" or "O-O-O".
 *
 * Reading is lenient where EPD files are known to differ and strict where a mistake could
 * pick the wrong move. Tolerated: a missing 'x'; check and mate marks, right or wrong;
 * annotations made of '!' and '?'; a promotion without '=' (e8Q); castling with zeros
 * (0-0); a suffix "e.p." on an en-passant capture; more disambiguation than needed (Ngf3
 * with one knight); blanks around the move. Refused: anything that two legal moves match
 * (the message lists them), a move no legal move matches, an 'x' on a move that captures
 * nothing, a promotion piece on a move that does not promote or none on one that does,
 * "e.p." on a move that is not an en-passant capture, and any other syntax. The input is
 * read only up to its terminating NUL and at most SAN_MAX_TEXT bytes of it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "chess.h"

/* Longer inputs are refused before they are looked at ("Qh4xe1+!?  e.p." is 15). */
#define SAN_MAX_TEXT 32

static const char san_piece_letters[] = "PNBRQK";

static chess_pos_t san_load(const cutoff_chess_state_t *state)
{
	chess_pos_t p;
	memcpy(&p, state, sizeof(p));
	return p;
}

static bool san_is_capture(const chess_pos_t *p, unsigned m)
{
	return move_kind(m) == MOVE_EN_PASSANT ||
	       (move_kind(m) != MOVE_CASTLE && (p->colour[p->side ^ 1] & BB(move_to(m))));
}

/*
 * The SAN of `m`, one of the n legal moves in list[] of *p, into buf (at least
 * CUTOFF_CHESS_SAN_SIZE bytes); returns its length.
 */
static int san_write(const cutoff_chess_t *t, const chess_pos_t *p, const uint16_t *list, int n,
                     unsigned m, char *buf)
{
	unsigned from = move_from(m), to = move_to(m), kind = move_kind(m);
	int o = 0;
	if (kind == MOVE_CASTLE) {
		memcpy(buf, to > from ? "O-O" : "O-O-O", to > from ? 3 : 5);
		o = to > from ? 3 : 5;
	} else {
		int pt = chess_piece_on(p, (int)from);
		bool capture = san_is_capture(p, m);
		if (pt == CHESS_PAWN) {
			if (capture)
				buf[o++] = (char)('a' + from % 8);
		} else {
			buf[o++] = san_piece_letters[pt];
			/* Disambiguation, from the other pieces of this kind that can go there. */
			bool others = false, same_file = false, same_rank = false;
			for (int i = 0; i < n; i++) {
				unsigned f = move_from(list[i]);
				if (f == from || move_to(list[i]) != to ||
				    move_kind(list[i]) == MOVE_CASTLE ||
				    chess_piece_on(p, (int)f) != pt)
					continue;
				others = true;
				same_file |= f % 8 == from % 8;
				same_rank |= f / 8 == from / 8;
			}
			if (others && (!same_file || same_rank))
				buf[o++] = (char)('a' + from % 8);
			if (others && same_file)
				buf[o++] = (char)('1' + from / 8);
		}
		if (capture)
			buf[o++] = 'x';
		buf[o++] = (char)('a' + to % 8);
		buf[o++] = (char)('1' + to / 8);
		if (kind == MOVE_PROMOTION) {
			buf[o++] = '=';
			buf[o++] = san_piece_letters[move_promo_piece(m)];
		}
	}
	chess_pos_t c;
	chess_make(t, p, m, &c);
	if (chess_in_check(t, &c))
		buf[o++] = chess_count_legal(t, &c) ? '+' : '#';
	buf[o] = '\0';
	return o;
}

int cutoff_chess_san(const cutoff_chess_t *chess, const cutoff_chess_state_t *state,
                     cutoff_move_t move, char *buf, size_t size)
{
	if (buf && size > 0)
		buf[0] = '\0';
	if (!chess || !state || !buf || move > 0xffff)
		return CUTOFF_EINVAL;
	chess_pos_t p = san_load(state);
	uint16_t list[CHESS_LIST_CAP];
	int n = chess_gen_legal(chess, &p, list, false);
	for (int i = 0; i < n; i++) {
		if (list[i] != move)
			continue;
		char san[CUTOFF_CHESS_SAN_SIZE];
		int len = san_write(chess, &p, list, n, move, san);
		if ((size_t)len >= size)
			return CUTOFF_EINVAL;
		memcpy(buf, san, (size_t)len + 1);
		return len;
	}
	return CUTOFF_EINVAL;
}

/* ---- reading ---- */

static int san_error(char *err, size_t errlen, const char *text, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "SAN 'text': <what>", the text shown with non-printable bytes as '?' and cut at 20. */
static int san_error(char *err, size_t errlen, const char *text, const char *fmt, ...)
{
	if (!err || errlen == 0)
		return CUTOFF_EINVAL;
	char shown[32];
	size_t o = 0, len = strnlen(text, 21);
	for (size_t i = 0; i < len && i < 20; i++) {
		unsigned char ch = (unsigned char)text[i];
		shown[o++] = ch >= 0x20 && ch < 0x7f && ch != '\'' ? (char)ch : '?';
	}
	if (len > 20) {
		memcpy(shown + o, "...", 3);
		o += 3;
	}
	shown[o] = '\0';
	int k = snprintf(err, errlen, "SAN '%s': ", shown);
	if (k >= 0 && (size_t)k < errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return CUTOFF_EINVAL;
}

static const char *const san_piece_names[] = {
	"pawn", "knight", "bishop", "rook", "queen", "king"
};

/* What the text says, once its syntax is read. */
typedef struct san_parsed {
	int castle;   /* 0 no, 1 king side, 2 queen side */
	int piece;    /* CHESS_PAWN .. CHESS_KING */
	int to;       /* destination square */
	int file;     /* origin file 0..7, or -1 */
	int rank;     /* origin rank 0..7, or -1 */
	int promo;    /* CHESS_KNIGHT .. CHESS_QUEEN, or -1 */
	bool capture; /* an 'x' was written */
	bool ep;      /* an "e.p." suffix was written */
} san_parsed_t;

static bool is_file(char c) { return c >= 'a' && c <= 'h'; }
static bool is_rank(char c) { return c >= '1' && c <= '8'; }
static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static int promo_of(char c)
{
	const char *at = c ? strchr("NBRQ", c) : NULL;
	return at ? CHESS_KNIGHT + (int)(at - "NBRQ") : -1;
}

/* Reads the syntax of s[0 .. len) into *sp; returns NULL, or what is wrong. */
static const char *san_syntax(char *s, size_t len, san_parsed_t *sp)
{
	*sp = (san_parsed_t){ .piece = CHESS_PAWN, .to = -1, .file = -1, .rank = -1, .promo = -1 };

	/* Suffixes, from the end: marks, annotations and "e.p." in any order. */
	for (;;) {
		while (len > 0 && is_blank(s[len - 1]))
			len--;
		if (len > 0 && strchr("+#!?", s[len - 1])) {
			len--;
		} else if (len >= 4 && memcmp(s + len - 4, "e.p.", 4) == 0 && !sp->ep) {
			sp->ep = true;
			len -= 4;
		} else {
			break;
		}
	}
	s[len] = '\0';
	if (len == 0)
		return "no move (expected a move such as e4, Nf3, exd5, e8=Q or O-O)";

	if (!strcmp(s, "O-O") || !strcmp(s, "0-0")) {
		sp->castle = 1;
		return NULL;
	}
	if (!strcmp(s, "O-O-O") || !strcmp(s, "0-0-0")) {
		sp->castle = 2;
		return NULL;
	}

	size_t i = 0;
	const char *piece = strchr("NBRQK", s[0]);
	if (s[0] && piece) {
		sp->piece = CHESS_KNIGHT + (int)(piece - "NBRQK");
		i = 1;
	} else if (!is_file(s[0])) {
		return "bad syntax: a move starts with a piece letter K, Q, R, B, N, a file a-h, "
		       "or is O-O / O-O-O";
	}

	/* Promotion: "=Q" or "Q" at the end. */
	if (len - i >= 3 && promo_of(s[len - 1]) >= 0 &&
	    (s[len - 2] == '=' || is_rank(s[len - 2]))) {
		sp->promo = promo_of(s[len - 1]);
		len -= s[len - 2] == '=' ? 2 : 1;
		if (sp->piece != CHESS_PAWN)
			return "bad syntax: only a pawn promotes";
	}

	/* The destination: the last two characters. */
	if (len < i + 2 || !is_file(s[len - 2]) || !is_rank(s[len - 1]))
		return "bad syntax: expected a destination square a1..h8 at the end";
	sp->to = (s[len - 2] - 'a') + 8 * (s[len - 1] - '1');
	len -= 2;

	/* Between the piece and the destination: [file][rank][x]. */
	if (len > i && s[len - 1] == 'x') {
		sp->capture = true;
		len--;
	}
	if (i < len && is_file(s[i]))
		sp->file = s[i++] - 'a';
	if (i < len && is_rank(s[i]) && sp->piece != CHESS_PAWN)
		sp->rank = s[i++] - '1';
	if (i != len)
		return "bad syntax: expected [piece][origin file][origin rank][x]destination"
		       "[=promotion]";
	if (sp->piece == CHESS_PAWN) {
		if (sp->capture && sp->file < 0)
			return "bad syntax: a pawn capture names its file (exd5)";
		if (sp->file >= 0 && sp->file == sp->to % 8)
			return "bad syntax: a pawn that captures changes file";
		if (sp->file >= 0 && sp->file != sp->to % 8 + 1 && sp->file != sp->to % 8 - 1)
			return "bad syntax: a pawn captures on a neighbouring file";
		if (sp->file < 0)
			sp->file = sp->to % 8; /* a push stays on its file */
	}
	return NULL;
}

static bool san_matches(const chess_pos_t *p, const san_parsed_t *sp, unsigned m)
{
	unsigned from = move_from(m), kind = move_kind(m);
	if (sp->castle)
		return kind == MOVE_CASTLE && (sp->castle == 1) == (move_to(m) > from);
	if (kind == MOVE_CASTLE || (int)move_to(m) != sp->to)
		return false;
	if (chess_piece_on(p, (int)from) != sp->piece)
		return false;
	return (sp->file < 0 || (int)from % 8 == sp->file) &&
	       (sp->rank < 0 || (int)from / 8 == sp->rank);
}

/* Why no legal move matches the parsed text sp (n legal moves in list; `promotes`: one
 * matched but for its missing promotion piece; `not_promotion`: one matched but is not a
 * promotion), as san_error's answer. */
static int no_move_error(const chess_pos_t *p, const san_parsed_t *sp, const uint16_t *list, int n,
                         bool promotes, bool not_promotion, const char *text, char *err,
                         size_t errlen)
{
	if (promotes)
		return san_error(err, errlen, text,
		                 "a move to the last rank needs its promotion piece (e8=Q)");
	if (not_promotion)
		return san_error(err, errlen, text, "this move is not a promotion");
	if (sp->castle)
		return san_error(err, errlen, text, "castling %s side is not legal here",
		                 sp->castle == 1 ? "king" : "queen");
	if (sp->piece == CHESS_KING) {
		for (int i = 0; i < n; i++) {
			if (move_kind(list[i]) == MOVE_CASTLE && (int)move_to(list[i]) == sp->to)
				return san_error(err, errlen, text,
				                 "castling is written O-O or O-O-O");
		}
	}
	char origin[24] = "";
	if (sp->piece != CHESS_PAWN && sp->file >= 0 && sp->rank >= 0)
		snprintf(origin, sizeof(origin), " on %c%d", 'a' + sp->file, sp->rank + 1);
	else if (sp->piece != CHESS_PAWN && sp->file >= 0)
		snprintf(origin, sizeof(origin), " on the %c-file", 'a' + sp->file);
	else if (sp->rank >= 0)
		snprintf(origin, sizeof(origin), " on rank %d", sp->rank + 1);
	else if (sp->piece == CHESS_PAWN && sp->file != sp->to % 8)
		snprintf(origin, sizeof(origin), " on the %c-file", 'a' + sp->file);
	return san_error(err, errlen, text, "no %s %s%s can %s %c%d: not a legal move",
	                 p->side ? "black" : "white", san_piece_names[sp->piece], origin,
	                 sp->capture ? "capture on" : "move to", 'a' + sp->to % 8, sp->to / 8 + 1);
}

/* The moves list[found[0 .. nfound)] all match the text: san_error's answer names them. */
static int ambiguous_error(const cutoff_chess_t *chess, const chess_pos_t *p, const uint16_t *list,
                           int n, const int *found, int nfound, const char *text, char *err,
                           size_t errlen)
{
	char names[160];
	size_t o = 0;
	for (int k = 0; k < nfound && o + 16 < sizeof(names); k++) {
		char one[CUTOFF_CHESS_SAN_SIZE];
		san_write(chess, p, list, n, list[found[k]], one);
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s",
		                      k == 0            ? ""
		                      : k == nfound - 1 ? " and "
		                                        : ", ",
		                      one);
	}
	return san_error(err, errlen, text, "ambiguous: %s %s match", names,
	                 nfound == 2 ? "both" : "all");
}

int cutoff_chess_parse_san(const cutoff_chess_t *chess, const cutoff_chess_state_t *state,
                           const char *text, cutoff_move_t *move, char *err, size_t errlen)
{
	if (err && errlen > 0)
		err[0] = '\0';
	if (!chess || !state || !text || !move)
		return san_error(err, errlen, "", "a NULL argument");

	char s[SAN_MAX_TEXT + 1];
	size_t len = strnlen(text, SAN_MAX_TEXT + 1);
	if (len > SAN_MAX_TEXT)
		return san_error(err, errlen, text, "too long (at most %d characters)",
		                 SAN_MAX_TEXT);
	size_t start = 0;
	while (start < len && is_blank(text[start]))
		start++;
	memcpy(s, text + start, len - start);
	s[len - start] = '\0';

	san_parsed_t sp;
	const char *bad = san_syntax(s, len - start, &sp);
	if (bad)
		return san_error(err, errlen, text, "%s", bad);

	chess_pos_t p = san_load(state);
	uint16_t list[CHESS_LIST_CAP];
	int n = chess_gen_legal(chess, &p, list, false);
	int found[CHESS_LIST_CAP];
	int nfound = 0;
	bool promotes = false, not_promotion = false;
	for (int i = 0; i < n; i++) {
		if (!san_matches(&p, &sp, list[i]))
			continue;
		bool is_promo = move_kind(list[i]) == MOVE_PROMOTION;
		if (is_promo && sp.promo < 0) {
			promotes = true;
			continue;
		}
		if (!is_promo && sp.promo >= 0) {
			not_promotion = true;
			continue;
		}
		if (is_promo && move_promo_piece(list[i]) != sp.promo)
			continue;
		found[nfound++] = i;
	}

	if (nfound == 0)
		return no_move_error(&p, &sp, list, n, promotes, not_promotion, text, err, errlen);
	if (nfound > 1)
		return ambiguous_error(chess, &p, list, n, found, nfound, text, err, errlen);
	unsigned m = list[found[0]];
	if (sp.capture && !san_is_capture(&p, m))
		return san_error(err, errlen, text, "'x' but the move captures nothing");
	if (sp.ep && move_kind(m) != MOVE_EN_PASSANT)
		return san_error(err, errlen, text,
		                 "'e.p.' but the move is not an en-passant capture");
	*move = m;
	return 0;
}
