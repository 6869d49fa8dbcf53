/* SPDX-License-Identifier: MIT */
/*
 * Chess SAN (Standard Algebraic Notation), written and read:
 *
 *   - round trips: for every legal move of every position of small perft trees (the start
 *     position, Kiwipete and Positions 3-6 of the Chess Programming Wiki's "Perft Results",
 *     https://www.chessprogramming.org/Perft_Results, and two positions made for
 *     disambiguation) and of random playouts, SAN(move) reads back as the same move, the
 *     SANs of one position are all different, '+' and '#' say exactly check and mate, the
 *     tolerated variants (no mark, no 'x', annotations, full origin) read back too, and the
 *     disambiguation is minimal (each character of it, removed, makes the move ambiguous);
 *   - known SANs with their moves: disambiguation by file, rank and both, pins, promotions
 *     with and without '=', en passant with and without "e.p.", castling with O and 0,
 *     checks and mates, and black to move;
 *   - errors: syntax, no such move, ambiguous (listing the candidates), a wrong 'x' or
 *     "e.p.", a missing or unexpected promotion piece, castling as a king move; each a
 *     one-line message starting "SAN '...':";
 *   - a fuzz: random bytes and mutations of valid SANs are refused cleanly or read as a
 *     legal move whose SAN reads back the same (run it under `make asan`).
 *
 * cutoff-test-labels: chess
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "cutoff_games.h"
#include "random.h"

/* Chess Programming Wiki, "Perft Results". */
static const char *const perft_fens[] = {
	CUTOFF_CHESS_START_FEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",   /* Kiwipete */
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                              /* Position 3 */
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",       /* Position 4 */
	"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",       /* 4 mirrored */
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",              /* Position 5 */
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P3/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", /* Position 6 */
	/* Made here: four knights, two rooks and three queens that share many squares. */
	"6k1/8/2N1N3/R6R/Q1N1N2Q/8/8/K6Q w - - 0 1",
	/* Made here: the same for black. */
	"k6q/8/8/q1n1n2q/r6r/2n1n3/1P4P1/6K1 b - - 0 1",
};
enum {
	NPERFT = sizeof(perft_fens) / sizeof(perft_fens[0])
};
static const int perft_depth[NPERFT] = { 3, 3, 4, 3, 3, 3, 3, 3, 3 };

/* What the round trips met, to show that every form was exercised. */
static long seen_file, seen_rank, seen_both, seen_promo, seen_ep, seen_castle, seen_check,
	seen_mate;

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rnd(void) { return splitmix64(&rng_state); }

static int rnd_below(int n) { return (int)(rnd() % (uint64_t)n); }

static bool is_ambiguous(const cutoff_chess_t *chess, const cutoff_chess_state_t *st,
                         const char *text)
{
	cutoff_move_t m;
	char msg[200];
	return cutoff_chess_parse_san(chess, st, text, &m, msg, sizeof(msg)) == CUTOFF_EINVAL &&
	       strstr(msg, "ambiguous") != NULL;
}

static bool reads_as(const cutoff_chess_t *chess, const cutoff_chess_state_t *st, const char *text,
                     cutoff_move_t want)
{
	cutoff_move_t m = CUTOFF_MOVE_NONE;
	char msg[200];
	int rc = cutoff_chess_parse_san(chess, st, text, &m, msg, sizeof(msg));
	if (rc != 0 || m != want) {
		char fen[CUTOFF_CHESS_FEN_SIZE];
		cutoff_chess_fen(chess, st, fen, sizeof(fen));
		printf("  '%s' in %s: rc %d, move %u (want %u): %s\n", text, fen, rc, (unsigned)m,
		       (unsigned)want, msg);
		return false;
	}
	return true;
}

/* Every property of the SANs of every legal move of one position; returns the moves. */
static long check_position(const cutoff_chess_t *chess, const cutoff_chess_state_t *st)
{
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	char san[CUTOFF_MAX_MOVES][CUTOFF_CHESS_SAN_SIZE];
	int n = cutoff_chess_moves(chess, st, moves);
	for (int i = 0; i < n; i++) {
		int len = cutoff_chess_san(chess, st, moves[i], san[i], sizeof(san[i]));
		CHECK(len > 1 && len < CUTOFF_CHESS_SAN_SIZE && (size_t)len == strlen(san[i]),
		      "SAN of move %u: length %d", (unsigned)moves[i], len);
		if (len <= 1)
			continue;
		CHECK(reads_as(chess, st, san[i], moves[i]), "round trip of '%s'", san[i]);

		/* The mark says exactly check or mate. */
		cutoff_chess_state_t child;
		cutoff_move_t reply[CUTOFF_MAX_MOVES];
		cutoff_chess_play(chess, st, moves[i], &child);
		bool check = cutoff_chess_in_check(chess, &child);
		bool mate = check && cutoff_chess_moves(chess, &child, reply) == 0;
		char last = san[i][len - 1];
		CHECK((last == '+') == (check && !mate) && (last == '#') == mate,
		      "'%s': check %d, mate %d", san[i], check, mate);
		seen_check += last == '+';
		seen_mate += last == '#';
		seen_promo += strchr(san[i], '=') != NULL;
		seen_castle += san[i][0] == 'O';
		seen_ep += (moves[i] >> 14) == 2;

		/* Tolerated variants: no mark, no 'x', annotations. */
		char bare[16];
		snprintf(bare, sizeof(bare), "%s", san[i]);
		size_t blen = strlen(bare);
		if (bare[blen - 1] == '+' || bare[blen - 1] == '#')
			bare[--blen] = '\0';
		CHECK(reads_as(chess, st, bare, moves[i]), "without its mark: '%s'", bare);
		char variant[24];
		snprintf(variant, sizeof(variant), "%s!?", san[i]);
		CHECK(reads_as(chess, st, variant, moves[i]), "annotated: '%s'", variant);
		char *x = strchr(bare, 'x');
		if (x) {
			size_t at = (size_t)(x - bare);
			memcpy(variant, bare, at);
			snprintf(variant + at, sizeof(variant) - at, "%s", x + 1);
			CHECK(reads_as(chess, st, variant, moves[i]), "without 'x': '%s'", variant);
		}

		/* Disambiguation: minimal, and a full origin is always accepted. */
		if (strchr("NBRQK", bare[0])) {
			const char *dest = x ? x + 1 : bare + blen - 2;
			size_t extra = (size_t)(dest - bare) - 1 - (x ? 1 : 0);
			CHECK(extra <= 2, "'%s': %zu characters of disambiguation", san[i], extra);
			seen_both += extra == 2;
			seen_file += extra == 1 && bare[1] >= 'a' && bare[1] <= 'h';
			seen_rank += extra == 1 && bare[1] >= '1' && bare[1] <= '8';
			unsigned from = moves[i] & 63;
			char file = (char)('a' + from % 8), rank = (char)('1' + from / 8);
			snprintf(variant, sizeof(variant), "%c%c%c%s%s", bare[0], file, rank,
			         x ? "x" : "", dest);
			CHECK(reads_as(chess, st, variant, moves[i]), "full origin: '%s'", variant);
			if (extra >= 1) {
				/* Without any of it; with the one alternative not used. */
				snprintf(variant, sizeof(variant), "%c%s%s", bare[0], x ? "x" : "",
				         dest);
				CHECK(is_ambiguous(chess, st, variant), "'%s' is needed: '%s'",
				      san[i], variant);
			}
			if (extra == 1) {
				bool by_file = bare[1] >= 'a' && bare[1] <= 'h';
				snprintf(variant, sizeof(variant), "%c%c%s%s", bare[0],
				         by_file ? rank : file, x ? "x" : "", dest);
				/* A file when the file does the job; a rank only when it does not. */
				CHECK(by_file || is_ambiguous(chess, st, variant),
				      "'%s' by rank, but '%s' would do", san[i], variant);
			}
			if (extra == 2) {
				snprintf(variant, sizeof(variant), "%c%c%s%s", bare[0], file,
				         x ? "x" : "", dest);
				CHECK(is_ambiguous(chess, st, variant), "'%s': '%s' suffices",
				      san[i], variant);
				snprintf(variant, sizeof(variant), "%c%c%s%s", bare[0], rank,
				         x ? "x" : "", dest);
				CHECK(is_ambiguous(chess, st, variant), "'%s': '%s' suffices",
				      san[i], variant);
			}
		}
		for (int j = 0; j < i; j++)
			CHECK(strcmp(san[i], san[j]) != 0, "two moves are '%s'", san[i]);
	}
	return n;
}

static long walk(const cutoff_chess_t *chess, const cutoff_chess_state_t *st, int depth)
{
	long moves = check_position(chess, st);
	if (depth <= 1)
		return moves;
	cutoff_move_t list[CUTOFF_MAX_MOVES];
	int n = cutoff_chess_moves(chess, st, list);
	for (int i = 0; i < n; i++) {
		cutoff_chess_state_t child;
		cutoff_chess_play(chess, st, list[i], &child);
		moves += walk(chess, &child, depth - 1);
	}
	return moves;
}

static cutoff_move_t uci(const cutoff_chess_t *chess, const cutoff_chess_state_t *st,
                         const char *text)
{
	cutoff_move_t m = CUTOFF_MOVE_NONE;
	char msg[200];
	if (cutoff_chess_parse_move(chess, st, text, &m, msg, sizeof(msg)) != 0)
		printf("  test bug: %s\n", msg);
	return m;
}

typedef struct known {
	const char *fen;
	const char *san; /* as read */
	const char *uci; /* the move it names */
	const char *out; /* its SAN as written, or NULL: not checked */
} known_t;

#define KNIGHTS "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
#define ROOKS "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"
#define QUEENS "8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1"
#define PROMO "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1"
#define EP "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
#define CASTLE "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#define CASTLE_B "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"
#define NO_CASTLE "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"
#define SCHOLAR "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
#define PINNED "4r1k1/8/8/8/8/8/4N3/1N2K3 w - - 0 1"
#define BLACK "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
#define START CUTOFF_CHESS_START_FEN

static const known_t known[] = {
	{ START, "e4", "e2e4", "e4" },
	{ START, "Nf3", "g1f3", "Nf3" },
	{ START, " e4 ", "e2e4", NULL },
	{ START, "e4!", "e2e4", NULL },
	{ START, "e4?!", "e2e4", NULL },
	{ START, "Ng1f3", "g1f3", NULL },
	{ START, "Ngf3", "g1f3", NULL },
	{ KNIGHTS, "Nbd2", "b1d2", "Nbd2" },
	{ KNIGHTS, "Nfd2", "f3d2", "Nfd2" },
	{ KNIGHTS, "N1d2", "b1d2", NULL },
	{ KNIGHTS, "Nb1d2", "b1d2", NULL },
	{ KNIGHTS, "Nd4", "f3d4", "Nd4" },
	{ ROOKS, "R1a3", "a1a3", "R1a3" },
	{ ROOKS, "R5a3", "a5a3", "R5a3" },
	{ ROOKS, "Rb1", "a1b1", "Rb1" },
	{ QUEENS, "Qh4e1", "h4e1", "Qh4e1" },
	{ QUEENS, "Q1e1", "h1e1", "Q1e1" },
	{ QUEENS, "Qee1", "e4e1", "Qee1" },
	{ PINNED, "Nc3", "b1c3", "Nc3" },
	{ PROMO, "e8=Q+", "e7e8q", "e8=Q+" },
	{ PROMO, "e8Q", "e7e8q", NULL },
	{ PROMO, "e8=Q", "e7e8q", NULL },
	{ PROMO, "e8=N", "e7e8n", "e8=N" },
	{ PROMO, "e8=R+", "e7e8r", "e8=R+" },
	{ PROMO, "exd8=Q+", "e7d8q", "exd8=Q+" },
	{ PROMO, "exd8=B", "e7d8b", "exd8=B" },
	{ PROMO, "exd8N", "e7d8n", "exd8=N" },
	{ PROMO, "ed8=Q", "e7d8q", NULL },
	{ EP, "exd6", "e5d6", "exd6" },
	{ EP, "exd6 e.p.", "e5d6", NULL },
	{ EP, "exd6e.p.", "e5d6", NULL },
	{ EP, "ed6", "e5d6", NULL },
	{ EP, "e6", "e5e6", "e6" },
	{ CASTLE, "O-O", "e1g1", "O-O" },
	{ CASTLE, "O-O-O", "e1c1", "O-O-O" },
	{ CASTLE, "0-0", "e1g1", NULL },
	{ CASTLE, "0-0-0", "e1c1", NULL },
	{ CASTLE, "O-O+", "e1g1", NULL },
	{ CASTLE, "Rxa8+", "a1a8", "Rxa8+" },
	{ CASTLE_B, "O-O", "e8g8", "O-O" },
	{ CASTLE_B, "O-O-O", "e8c8", "O-O-O" },
	{ SCHOLAR, "Qxf7#", "h5f7", "Qxf7#" },
	{ SCHOLAR, "Qxf7", "h5f7", NULL },
	{ SCHOLAR, "Qf7", "h5f7", NULL },
	{ SCHOLAR, "Qxf7+", "h5f7", NULL },
	{ SCHOLAR, "Bxf7+", "c4f7", "Bxf7+" },
	{ BLACK, "e5", "e7e5", "e5" },
	{ BLACK, "Nf6", "g8f6", "Nf6" },
	{ BLACK, "Nc6", "b8c6", "Nc6" },
};
enum {
	NKNOWN = sizeof(known) / sizeof(known[0])
};

typedef struct bad_san {
	const char *fen;
	const char *san;
	const char *needle; /* the message contains it */
} bad_san_t;

static const bad_san_t bad[] = {
	{ START, "", "no move" },
	{ START, "   ", "no move" },
	{ START, "+", "no move" },
	{ START, "Z", "bad syntax" },
	{ START, "e9", "bad syntax" },
	{ START, "i4", "bad syntax" },
	{ START, "e", "bad syntax" },
	{ START, "N", "bad syntax" },
	{ START, "xe4", "bad syntax" },
	{ START, "exe4", "changes file" },
	{ START, "eh4", "neighbouring file" },
	{ START, "e2e4", "bad syntax" },
	{ START, "e2-e4", "bad syntax" },
	{ START, "Ng1-f3", "bad syntax" },
	{ START, "nf3", "bad syntax" },
	{ START, "Pe4", "bad syntax" },
	{ START, "Nf3x", "bad syntax" },
	{ START, "Nf3=Q", "only a pawn promotes" },
	{ START, "e4e.p.e.p.", "bad syntax" },
	{ START, "O-O-O-O", "bad syntax" },
	{ START, "o-o", "bad syntax" },
	{ START, "O-0", "bad syntax" },
	{ START, "e4\n", "bad syntax" },
	{ START, "e4\x01", "bad syntax" },
	{ START, "Nf3Nc6", "bad syntax" },
	{ START, "e5", "no white pawn can move to e5" },
	{ START, "Nf4", "no white knight can move to f4" },
	{ START, "Ke2", "no white king can move to e2" },
	{ START, "Nxf3", "'x' but the move captures nothing" },
	{ START, "Nf3 e.p.", "'e.p.' but" },
	{ START, "O-O", "castling king side is not legal here" },
	{ START, "0-0-0", "castling queen side is not legal here" },
	{ START, "this is not a move at all, it is far too long", "too long" },
	{ KNIGHTS, "Nd2", "ambiguous: Nbd2 and Nfd2 both match" },
	{ KNIGHTS, "Ncd2", "no white knight on the c-file can move to d2" },
	{ KNIGHTS, "N2d2", "no white knight on rank 2 can move to d2" },
	{ ROOKS, "Ra3", "ambiguous: R1a3 and R5a3 both match" },
	{ ROOKS, "Raa3", "ambiguous" },
	{ QUEENS, "Qe1", "all match" },
	{ QUEENS, "Qhe1", "ambiguous: Qh4e1 and Q1e1 both match" },
	{ QUEENS, "Q4e1", "ambiguous: Qh4e1 and Qee1 both match" },
	{ QUEENS, "Qh4xe1", "'x' but the move captures nothing" },
	{ PINNED, "Nec3", "no white knight on the e-file can move to c3" },
	{ PROMO, "e8", "needs its promotion piece" },
	{ PROMO, "exd8", "needs its promotion piece" },
	{ PROMO, "e8=K", "bad syntax" },
	{ PROMO, "e8=P", "bad syntax" },
	{ PROMO, "e8=q", "bad syntax" },
	{ START, "e4=Q", "this move is not a promotion" },
	{ EP, "exf6", "no white pawn on the e-file can capture on f6" },
	{ EP, "e6 e.p.", "'e.p.' but" },
	{ START, "exd3", "no white pawn on the e-file can capture on d3" },
	{ CASTLE, "Kg1", "castling is written O-O or O-O-O" },
	{ CASTLE, "Kc1", "castling is written O-O or O-O-O" },
	{ NO_CASTLE, "O-O", "castling king side is not legal here" },
	{ BLACK, "e4", "no black pawn can move to e4" },
};
enum {
	NBAD = sizeof(bad) / sizeof(bad[0])
};

static bool one_line_message(const char *msg)
{
	return strncmp(msg, "SAN '", 5) == 0 && strchr(msg, '\n') == NULL;
}

static void check_known(const cutoff_chess_t *chess)
{
	for (int i = 0; i < NKNOWN; i++) {
		cutoff_chess_state_t st;
		int rc = cutoff_chess_parse_fen(chess, known[i].fen, &st, NULL, 0);
		CHECK(rc == 0, "test bug: FEN %s", known[i].fen);
		if (rc)
			continue;
		cutoff_move_t want = uci(chess, &st, known[i].uci);
		CHECK(reads_as(chess, &st, known[i].san, want), "'%s' is %s", known[i].san,
		      known[i].uci);
		if (known[i].out) {
			char out[CUTOFF_CHESS_SAN_SIZE];
			cutoff_chess_san(chess, &st, want, out, sizeof(out));
			CHECK(strcmp(out, known[i].out) == 0, "SAN of %s: '%s', expected '%s'",
			      known[i].uci, out, known[i].out);
		}
	}
	printf("known SANs: %d read, with their written forms\n", NKNOWN);

	for (int i = 0; i < NBAD; i++) {
		cutoff_chess_state_t st;
		int rc = cutoff_chess_parse_fen(chess, bad[i].fen, &st, NULL, 0);
		CHECK(rc == 0, "test bug: FEN %s", bad[i].fen);
		if (rc)
			continue;
		cutoff_move_t m = 12345;
		char msg[200];
		rc = cutoff_chess_parse_san(chess, &st, bad[i].san, &m, msg, sizeof(msg));
		CHECK(rc == CUTOFF_EINVAL && m == 12345 && one_line_message(msg) &&
		              strstr(msg, bad[i].needle),
		      "'%s': rc %d, message '%s' (expected '%s')", bad[i].san, rc, msg,
		      bad[i].needle);
	}
	printf("bad SANs: %d refused with their reason\n", NBAD);
}

static void check_arguments(const cutoff_chess_t *chess)
{
	cutoff_chess_state_t st;
	cutoff_chess_start(chess, &st);
	cutoff_move_t m;
	char msg[200], buf[CUTOFF_CHESS_SAN_SIZE];
	CHECK(cutoff_chess_parse_san(NULL, &st, "e4", &m, msg, sizeof(msg)) == CUTOFF_EINVAL &&
	              one_line_message(msg),
	      "NULL context");
	CHECK(cutoff_chess_parse_san(chess, NULL, "e4", &m, NULL, 0) == CUTOFF_EINVAL,
	      "NULL state");
	CHECK(cutoff_chess_parse_san(chess, &st, NULL, &m, msg, sizeof(msg)) == CUTOFF_EINVAL,
	      "NULL text");
	CHECK(cutoff_chess_parse_san(chess, &st, "e4", NULL, msg, sizeof(msg)) == CUTOFF_EINVAL,
	      "NULL move");
	CHECK(cutoff_chess_parse_san(chess, &st, "e5", &m, NULL, 0) == CUTOFF_EINVAL,
	      "no message buffer: still refused");
	char small[10];
	CHECK(cutoff_chess_parse_san(chess, &st, "e5", &m, small, sizeof(small)) == CUTOFF_EINVAL &&
	              strlen(small) == sizeof(small) - 1,
	      "a short message buffer gets a truncated message");

	cutoff_move_t e4 = uci(chess, &st, "e2e4");
	CHECK(cutoff_chess_san(chess, &st, e4, buf, sizeof(buf)) == 2 && !strcmp(buf, "e4"),
	      "SAN of e2e4");
	CHECK(cutoff_chess_san(NULL, &st, e4, buf, sizeof(buf)) == CUTOFF_EINVAL && !buf[0],
	      "SAN: NULL context");
	CHECK(cutoff_chess_san(chess, NULL, e4, buf, sizeof(buf)) == CUTOFF_EINVAL, "NULL state");
	CHECK(cutoff_chess_san(chess, &st, e4, NULL, 8) == CUTOFF_EINVAL, "NULL buffer");
	CHECK(cutoff_chess_san(chess, &st, e4, buf, 2) == CUTOFF_EINVAL && !buf[0],
	      "a buffer of 2 is too small for 'e4'");
	CHECK(cutoff_chess_san(chess, &st, e4, buf, 3) == 2, "a buffer of 3 is enough for 'e4'");
	CHECK(cutoff_chess_san(chess, &st, 0, buf, sizeof(buf)) == CUTOFF_EINVAL && !buf[0],
	      "SAN of move 0");
	CHECK(cutoff_chess_san(chess, &st, CUTOFF_MOVE_NONE, buf, sizeof(buf)) == CUTOFF_EINVAL,
	      "SAN of CUTOFF_MOVE_NONE");
	/* e7e5 is well-formed but black's: not legal here. */
	cutoff_move_t e5 = (cutoff_move_t)(52 | 36 << 6);
	CHECK(cutoff_chess_san(chess, &st, e5, buf, sizeof(buf)) == CUTOFF_EINVAL,
	      "SAN of an illegal move");
	int illegal = 0;
	for (uint32_t v = 0; v <= 0xffff; v++) {
		cutoff_move_t list[CUTOFF_MAX_MOVES];
		int n = cutoff_chess_moves(chess, &st, list), legal = 0;
		for (int i = 0; i < n; i++)
			legal |= list[i] == v;
		if (!legal)
			illegal +=
				cutoff_chess_san(chess, &st, v, buf, sizeof(buf)) == CUTOFF_EINVAL;
	}
	CHECK(illegal == 65536 - 20, "SAN refuses all %d illegal 16-bit values, not %d", 65536 - 20,
	      illegal);
	printf("arguments: NULLs, small buffers and illegal moves refused\n");
}

/* Random games from the start; every position's moves checked, the positions kept. */
static long playouts(const cutoff_chess_t *chess, cutoff_chess_state_t *pool, int pool_size,
                     int *kept)
{
	long moves = 0;
	*kept = 0;
	for (int game = 0; game < 120; game++) {
		cutoff_chess_state_t st;
		cutoff_chess_start(chess, &st);
		for (int ply = 0; ply < 300; ply++) {
			cutoff_move_t list[CUTOFF_MAX_MOVES];
			int n = cutoff_chess_moves(chess, &st, list);
			if (n == 0)
				break;
			moves += check_position(chess, &st);
			if (*kept < pool_size)
				pool[(*kept)++] = st;
			else
				pool[rnd_below(pool_size)] = st;
			cutoff_chess_play(chess, &st, list[rnd_below(n)], &st);
		}
	}
	return moves;
}

static void fuzz_one(const cutoff_chess_t *chess, const cutoff_chess_state_t *st, const char *text,
                     long *accepted)
{
	cutoff_move_t m = CUTOFF_MOVE_NONE;
	char msg[120];
	int rc = cutoff_chess_parse_san(chess, st, text, &m, msg, sizeof(msg));
	if (rc == 0) {
		char san[CUTOFF_CHESS_SAN_SIZE];
		CHECK(cutoff_chess_san(chess, st, m, san, sizeof(san)) > 0 &&
		              reads_as(chess, st, san, m),
		      "fuzz: accepted move %u does not read back", (unsigned)m);
		(*accepted)++;
	} else {
		CHECK(rc == CUTOFF_EINVAL && one_line_message(msg), "fuzz: rc %d, message '%s'", rc,
		      msg);
	}
}

static void fuzz(const cutoff_chess_t *chess, const cutoff_chess_state_t *pool, int npool)
{
	static const char alphabet[] = "KQRBNPabcdefgh12345678xX=+#!?-O0. ep";
	long accepted = 0, tries = 0;
	for (int i = 0; i < 200000; i++) {
		const cutoff_chess_state_t *st = &pool[rnd_below(npool)];
		char text[40];
		int len = rnd_below(14);
		for (int k = 0; k < len; k++) {
			text[k] = rnd_below(10) == 0
			                  ? (char)(1 + rnd_below(255))
			                  : alphabet[rnd_below((int)sizeof(alphabet) - 1)];
		}
		text[len] = '\0';
		fuzz_one(chess, st, text, &accepted);
		tries++;
	}
	/* Mutations of real SANs: a character deleted, replaced or inserted. */
	for (int i = 0; i < 200000; i++) {
		const cutoff_chess_state_t *st = &pool[rnd_below(npool)];
		cutoff_move_t list[CUTOFF_MAX_MOVES];
		int n = cutoff_chess_moves(chess, st, list);
		if (n == 0)
			continue;
		char text[40];
		int len = cutoff_chess_san(chess, st, list[rnd_below(n)], text, sizeof(text));
		int at = rnd_below(len + 1);
		char ch = rnd_below(4) == 0 ? (char)(1 + rnd_below(255))
		                            : alphabet[rnd_below((int)sizeof(alphabet) - 1)];
		switch (rnd_below(3)) {
		case 0:
			if (at < len)
				memmove(text + at, text + at + 1, (size_t)(len - at));
			break;
		case 1:
			if (at < len)
				text[at] = ch;
			break;
		default:
			memmove(text + at + 1, text + at, (size_t)(len - at + 1));
			text[at] = ch;
			break;
		}
		fuzz_one(chess, st, text, &accepted);
		tries++;
	}
	printf("fuzz: %ld inputs, %ld read as legal moves, the rest refused cleanly\n", tries,
	       accepted);
}

int main(void)
{
	int err;
	cutoff_chess_t *chess = cutoff_chess_new(&err);
	CHECK(chess != NULL, "cutoff_chess_new: %s", cutoff_strerror(err));
	if (!chess)
		return check_report();

	check_known(chess);
	check_arguments(chess);

	long total = 0;
	for (int i = 0; i < NPERFT; i++) {
		cutoff_chess_state_t st;
		char msg[200];
		int rc = cutoff_chess_parse_fen(chess, perft_fens[i], &st, msg, sizeof(msg));
		CHECK(rc == 0, "test bug: %s: %s", perft_fens[i], msg);
		if (rc)
			continue;
		long n = walk(chess, &st, perft_depth[i]);
		total += n;
		printf("round trips: %ld moves below %s (depth %d)\n", n, perft_fens[i],
		       perft_depth[i]);
	}

	static cutoff_chess_state_t pool[4096];
	int npool;
	long n = playouts(chess, pool, 4096, &npool);
	total += n;
	printf("round trips: %ld moves of 120 random games\n", n);
	printf("round trips: %ld moves in all: disambiguated by file %ld, by rank %ld, by both "
	       "%ld; promotions %ld, en passant %ld, castling %ld, checks %ld, mates %ld\n",
	       total, seen_file, seen_rank, seen_both, seen_promo, seen_ep, seen_castle, seen_check,
	       seen_mate);
	CHECK(seen_file && seen_rank && seen_both && seen_promo && seen_ep && seen_castle &&
	              seen_check && seen_mate,
	      "every form of SAN was met");

	fuzz(chess, pool, npool);

	cutoff_chess_free(chess);
	return check_report();
}
