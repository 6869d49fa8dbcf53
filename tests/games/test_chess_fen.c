/* SPDX-License-Identifier: MIT */
/*
 * Chess FEN and UCI moves: every kind of malformed or impossible FEN is refused with a
 * message that starts with the name of the field at fault (and leaves the output alone);
 * valid FENs come back out unchanged; the en-passant square is kept exactly when a
 * capture there is legal; the incremental state of every node of small perft trees equals
 * the state read back from its own FEN (keys included); UCI moves are read and written,
 * and bad ones refused with a reason. Ends with a fuzz: random mutations of valid FENs
 * must be refused cleanly or read into positions that survive the round trip (run it
 * under `make asan`).
 *
 * cutoff-test-labels: chess
 */
#include <string.h>

#include "check.h"
#include "chess_epd.h"
#include "cutoff_games.h"

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

typedef struct bad_fen {
	const char *fen;
	const char *field; /* the message must start with "<field>:" */
	const char *why;
} bad_fen_t;

static const bad_fen_t bad[] = {
	{ "", "FEN", "empty" },
	{ "   ", "FEN", "blanks only" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "FEN", "5 fields" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "FEN", "3 fields" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "FEN", "7 fields" },
	{ "rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement",
	  "bad piece letter" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1R w KQkq - 0 1", "piece placement",
	  "rank of 9 squares" },
	{ "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement",
	  "rank of 7 squares" },
	{ "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement",
	  "digit 9" },
	{ "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement", "7 ranks" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement",
	  "9 ranks" },
	{ "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement",
	  "two digits in a row" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "piece placement",
	  "trailing slash" },
	{ "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "piece placement",
	  "black king missing" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w kq - 0 1", "piece placement",
	  "two white kings" },
	{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBPR w Qkq - 0 1", "piece placement",
	  "pawn on the first rank" },
	{ "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1", "piece placement",
	  "pawn on the last rank" },
	{ "rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement",
	  "9 white pawns" },
	{ "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement",
	  "17 white pieces" },
	{ "rnbqkbnr/pppppppp/8/8/8/QQQ5/PPPPPPP1/1NB1KBNR w kq - 0 1", "piece placement",
	  "2 promoted queens, 1 missing pawn" },
	{ "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move", "side x" },
	{ "4k3/8/8/8/8/8/8/4K3 W - - 0 1", "side to move", "side W" },
	{ "4k3/8/8/8/8/8/8/4K3 wb - - 0 1", "side to move", "side wb" },
	{ "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "side to move", "black in check, white to move" },
	{ "4k3/8/8/8/8/3n4/8/r3K1r1 w - - 0 1", "piece placement", "check from 3 pieces" },
	/* Double checks that no move gives (position.c, check_double_check). */
	{ "4k3/8/8/8/8/8/3nnn2/r3K2r w - - 0 1", "piece placement",
	  "two rooks on one rank, on both sides of the king" },
	{ "R3k2R/8/8/8/8/8/8/4K3 b - - 0 1", "piece placement",
	  "two rooks on both sides of the king, black to move" },
	{ "4k3/8/6b1/8/4K3/8/2b5/8 w - - 0 1", "piece placement",
	  "two bishops on one diagonal, on both sides of the king" },
	{ "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1", "piece placement", "check from two knights" },
	{ "4k3/8/8/3p1p2/4K3/8/8/8 w - - 0 1", "piece placement", "check from two pawns" },
	{ "4k3/8/8/3p4/4K3/2n5/8/8 w - - 0 1", "piece placement",
	  "check from a knight and a pawn" },
	{ "4k3/8/8/8/8/5n2/4q3/4K3 w - - 0 1", "piece placement",
	  "check from a queen next to the king and a knight" },
	{ "4k3/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", "castling", "duplicate right" },
	{ "4k3/8/8/8/8/8/8/R3K2R w QK - 0 1", "castling", "rights out of order" },
	{ "4k3/8/8/8/8/8/8/R3K2R w X - 0 1", "castling", "bad letter" },
	{ "4k3/8/8/8/8/8/8/R3K2R w HAha - 0 1", "castling", "Shredder-FEN letters" },
	{ "4k3/8/8/8/8/8/8/R2K3R w K - 0 1", "castling", "K without the king on e1" },
	{ "4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "castling", "K without the rook on h1" },
	{ "r3k3/8/8/8/8/8/8/4K3 w k - 0 1", "castling", "k without the rook on h8" },
	{ "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 2", "en passant",
	  "rank 3 with white to move" },
	{ "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1", "en passant",
	  "rank 6 with black to move" },
	{ "4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en passant", "square e9" },
	{ "4k3/8/8/8/8/8/8/4K3 w - z6 0 1", "en passant", "square z6" },
	{ "4k3/8/8/8/8/8/8/4K3 w - e66 0 1", "en passant", "three characters" },
	{ "4k3/8/8/8/8/8/8/4K3 w - d6 0 1", "en passant", "no black pawn on d5" },
	{ "4k3/3p4/8/3p4/8/8/8/4K3 w - d6 0 1", "en passant", "d7 occupied: no double step" },
	{ "4k3/8/3n4/3p4/8/8/8/4K3 w - d6 0 1", "en passant", "d6 occupied" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock", "negative" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - +3 1", "halfmove clock", "plus sign" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 151 1", "halfmove clock", "above 150" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 1.5 1", "halfmove clock", "not an integer" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1", "halfmove clock", "overflow" },
	{ "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 5 3", "halfmove clock",
	  "not 0 beside an en-passant square" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number", "zero" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 10000", "fullmove number", "above 9999" },
	{ "4k3/8/8/8/8/8/8/4K3 w - - 0 x", "fullmove number", "not a number" },
};

enum {
	NBAD = sizeof(bad) / sizeof(bad[0])
};

static const char *const good[] = {
	CUTOFF_CHESS_START_FEN,
	KIWIPETE,
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
	"rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
	"8/k1P5/8/1K6/8/8/8/8 w - - 99 150",
	/* Double checks a game can reach: Ng1-f3 uncovering the rook; exd1=R uncovering e8. */
	"4k3/8/8/8/8/5n2/8/4K2r w - - 0 1",
	"4r1k1/8/8/8/8/8/8/3rK3 w - - 0 1",
};

enum {
	NGOOD = sizeof(good) / sizeof(good[0])
};

static bool starts_with_field(const char *msg, const char *field)
{
	size_t n = strlen(field);
	return strncmp(msg, field, n) == 0 && msg[n] == ':';
}

/* Every node of the tree below *st to `depth`: its FEN read back is the same state. */
static int check_tree(const cutoff_chess_t *chess, const cutoff_chess_state_t *st, int depth,
                      int *nodes)
{
	char fen[CUTOFF_CHESS_FEN_SIZE], err[200];
	cutoff_chess_state_t back;
	const cutoff_game_t *g = cutoff_chess_game(chess);
	(*nodes)++;
	if (cutoff_chess_fen(chess, st, fen, sizeof(fen)) < 0)
		return 1;
	if (cutoff_chess_parse_fen(chess, fen, &back, err, sizeof(err)) != 0) {
		printf("  %s: %s\n", fen, err);
		return 1;
	}
	if (memcmp(&back, st, sizeof(back)) != 0 || g->key(g->ctx, &back) != g->key(g->ctx, st)) {
		printf("  %s: the incremental state differs from the one read back\n", fen);
		return 1;
	}
	if (depth == 0)
		return 0;
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	int n = cutoff_chess_moves(chess, st, moves);
	int bad_nodes = 0;
	for (int i = 0; i < n && bad_nodes < 3; i++) {
		cutoff_chess_state_t child;
		cutoff_chess_play(chess, st, moves[i], &child);
		bad_nodes += check_tree(chess, &child, depth - 1, nodes);
	}
	return bad_nodes;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static const char *const known_fields[] = {
	"FEN",        "piece placement", "side to move",   "castling",
	"en passant", "halfmove clock",  "fullmove number"
};

/* Random edits of valid FENs: refused with a field named, or read and written back. */
static void fuzz(const cutoff_chess_t *chess, int rounds)
{
	static const char alphabet[] = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0123456789 \t.x\x01";
	int accepted = 0, refused = 0, failures = 0;
	for (int r = 0; r < rounds && failures < 5; r++) {
		char buf[160];
		const char *base = good[rnd() % NGOOD];
		size_t len = strlen(base);
		memcpy(buf, base, len + 1);
		int edits = 1 + (int)(rnd() % 4);
		for (int e = 0; e < edits; e++) {
			size_t at = len ? (size_t)(rnd() % len) : 0;
			char ch = alphabet[rnd() % (sizeof(alphabet) - 1)];
			switch (rnd() % 4) {
			case 0: /* replace */
				if (len)
					buf[at] = ch;
				break;
			case 1: /* insert */
				if (len + 1 < sizeof(buf)) {
					memmove(buf + at + 1, buf + at, len - at + 1);
					buf[at] = ch;
					len++;
				}
				break;
			case 2: /* delete */
				if (len) {
					memmove(buf + at, buf + at + 1, len - at);
					len--;
				}
				break;
			default: /* swap two characters */
				if (len) {
					size_t other = (size_t)(rnd() % len);
					char tmp = buf[at];
					buf[at] = buf[other];
					buf[other] = tmp;
				}
				break;
			}
		}
		cutoff_chess_state_t st, back;
		char err[200], fen[CUTOFF_CHESS_FEN_SIZE];
		if (cutoff_chess_parse_fen(chess, buf, &st, err, sizeof(err)) != 0) {
			bool named = false;
			for (size_t k = 0; k < sizeof(known_fields) / sizeof(known_fields[0]); k++)
				named = named || starts_with_field(err, known_fields[k]);
			if (!named) {
				printf("  fuzz: '%s' refused without a field: '%s'\n", buf, err);
				failures++;
			}
			refused++;
			continue;
		}
		accepted++;
		uint64_t nodes;
		if (cutoff_chess_fen(chess, &st, fen, sizeof(fen)) < 0 ||
		    cutoff_chess_parse_fen(chess, fen, &back, err, sizeof(err)) != 0 ||
		    memcmp(&st, &back, sizeof(st)) != 0 ||
		    cutoff_chess_perft(chess, &st, 2, &nodes)) {
			printf("  fuzz: '%s' read but not written back the same ('%s')\n", buf,
			       fen);
			failures++;
		}
	}
	CHECK(failures == 0, "fuzz: %d failures", failures);
	printf("fuzz: %d mutated FENs, %d accepted, %d refused\n", rounds, accepted, refused);
}

int main(void)
{
	int err;
	cutoff_chess_t *chess = cutoff_chess_new(&err);
	CHECK(chess != NULL, "cutoff_chess_new: %s", cutoff_strerror(err));
	if (!chess)
		return check_report();

	/* Malformed and impossible FENs. */
	for (int i = 0; i < NBAD; i++) {
		cutoff_chess_state_t st, before;
		char msg[200];
		memset(&st, 0xa5, sizeof(st));
		before = st;
		int rc = cutoff_chess_parse_fen(chess, bad[i].fen, &st, msg, sizeof(msg));
		CHECK(rc == CUTOFF_EINVAL && starts_with_field(msg, bad[i].field) &&
		              memcmp(&st, &before, sizeof(st)) == 0,
		      "%s: '%s' gives rc %d and '%s' (expected the field '%s')", bad[i].why,
		      bad[i].fen, rc, msg, bad[i].field);
	}
	printf("malformed FENs: %d kinds refused\n", NBAD);
	{
		cutoff_chess_state_t st;
		char msg[8];
		CHECK(cutoff_chess_parse_fen(chess, "x", &st, NULL, 0) == CUTOFF_EINVAL,
		      "no message buffer: still refused");
		CHECK(cutoff_chess_parse_fen(chess, "x", &st, msg, sizeof(msg)) == CUTOFF_EINVAL &&
		              strlen(msg) == sizeof(msg) - 1,
		      "a short message buffer gets a truncated message");
		CHECK(cutoff_chess_parse_fen(chess, NULL, &st, msg, sizeof(msg)) == CUTOFF_EINVAL,
		      "NULL FEN");
		CHECK(cutoff_chess_parse_fen(NULL, CUTOFF_CHESS_START_FEN, &st, NULL, 0) ==
		              CUTOFF_EINVAL,
		      "NULL context");
		char fen[10];
		cutoff_chess_start(chess, &st);
		CHECK(cutoff_chess_fen(chess, &st, fen, sizeof(fen)) == CUTOFF_EINVAL &&
		              fen[0] == 0,
		      "cutoff_chess_fen refuses a short buffer");
	}
	{
		cutoff_chess_state_t st;
		char msg[300];
		CHECK(cutoff_chess_parse_fen(chess, "4k3/8/8/8/8/8/3nnn2/r3K2r w - - 0 1", &st, msg,
		                             sizeof(msg)) == CUTOFF_EINVAL &&
		              strstr(msg, "rook on a1") && strstr(msg, "rook on h1") &&
		              strstr(msg, "both sides of the king"),
		      "the two rooks' double check names them: '%s'", msg);
		CHECK(cutoff_chess_parse_fen(chess, "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1", &st, msg,
		                             sizeof(msg)) == CUTOFF_EINVAL &&
		              strstr(msg, "knight on d3") && strstr(msg, "knight on f3"),
		      "the two knights' double check names them: '%s'", msg);
	}

	/* Every kind of double check a move can give is read back: a knight uncovering a
	 * rook, en passant (pawn and uncovered rook), a promotion next to the king uncovering
	 * a rook. */
	{
		static const struct {
			const char *fen, *move;
		} gives[] = {
			{ "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4d6" },
			{ "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4f6" },
			{ "8/4k3/8/3pP3/8/8/8/4R2K w - d6 0 1", "e5d6" },
			{ "8/R5Pk/8/8/8/8/8/6K1 w - - 0 1", "g7g8q" },
			{ "8/R5Pk/8/8/8/8/8/6K1 w - - 0 1", "g7g8b" },
		};
		for (size_t i = 0; i < sizeof(gives) / sizeof(gives[0]); i++) {
			cutoff_chess_state_t st, child, back;
			cutoff_move_t m;
			char fen[CUTOFF_CHESS_FEN_SIZE], msg[300] = "";
			bool played =
				cutoff_chess_parse_fen(chess, gives[i].fen, &st, NULL, 0) == 0 &&
				cutoff_chess_parse_move(chess, &st, gives[i].move, &m, NULL, 0) ==
					0 &&
				cutoff_chess_play(chess, &st, m, &child) == 0 &&
				cutoff_chess_in_check(chess, &child) &&
				cutoff_chess_fen(chess, &child, fen, sizeof(fen)) > 0;
			CHECK(played &&
			              cutoff_chess_parse_fen(chess, fen, &back, msg, sizeof(msg)) ==
			                      0 &&
			              memcmp(&back, &child, sizeof(back)) == 0,
			      "%s after %s, a double check, is read back (%s)", gives[i].fen,
			      gives[i].move, msg);
		}
	}

	/* Round trips. */
	for (int i = 0; i < NGOOD; i++) {
		cutoff_chess_state_t st;
		char fen[CUTOFF_CHESS_FEN_SIZE], msg[200];
		int rc = cutoff_chess_parse_fen(chess, good[i], &st, msg, sizeof(msg));
		CHECK(rc == 0, "'%s' is read (%s)", good[i], msg);
		CHECK(rc == 0 && cutoff_chess_fen(chess, &st, fen, sizeof(fen)) > 0 &&
		              strcmp(fen, good[i]) == 0,
		      "'%s' comes back as '%s'", good[i], fen);
	}
	static epd_position_t pos[EPD_MAX_POSITIONS];
	int npos = epd_read_perft(chess, pos, EPD_MAX_POSITIONS);
	if (npos < 0)
		printf("perft.epd: skipped: data not found\n");
	for (int i = 0; i < npos; i++) {
		cutoff_chess_state_t st;
		char fen[CUTOFF_CHESS_FEN_SIZE];
		int rc = cutoff_chess_parse_fen(chess, pos[i].fen, &st, NULL, 0);
		CHECK(rc == 0 && cutoff_chess_fen(chess, &st, fen, sizeof(fen)) > 0 &&
		              strcmp(fen, pos[i].fen) == 0,
		      "perft.epd line %d comes back unchanged ('%s')", i + 1, fen);
	}
	{
		cutoff_chess_state_t st;
		char fen[CUTOFF_CHESS_FEN_SIZE];
		CHECK(cutoff_chess_parse_fen(chess, "  4k3/8/8/8/8/8/8/4K3   b   -  -  ", &st, NULL,
		                             0) == 0 &&
		              cutoff_chess_fen(chess, &st, fen, sizeof(fen)) > 0 &&
		              strcmp(fen, "4k3/8/8/8/8/8/8/4K3 b - - 0 1") == 0,
		      "four fields and extra blanks: counters 0 1 (%s)", fen);
	}

	/* The en-passant square is kept exactly when a capture is legal. */
	{
		static const struct {
			const char *in, *out_ep;
		} ep[] = {
			/* after 1. e4: no black pawn can take */
			{ "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "-" },
			/* d4xe3 is legal */
			{ "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", "e3" },
			/* bxc6 would leave the king on a5 to the rook on h5 (both pawns leave the rank) */
			{ "8/8/8/KPp4r/8/8/8/7k w - c6 0 1", "-" },
			/* the capturing pawn is pinned on the diagonal */
			{ "7k/6b1/8/3pP3/8/8/8/K7 w - d6 0 1", "-" },
			/* ... but the other one can take */
			{ "7k/6b1/8/2PpP3/8/8/8/K7 w - d6 0 1", "d6" },
			/* in check from the pawn that just moved: taking it en passant is legal */
			{ "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "d3" },
			/* in check from a knight: en passant does not help */
			{ "8/8/8/8/3Pp3/5k2/8/4K1N1 b - d3 0 1", "-" },
		};
		for (size_t i = 0; i < sizeof(ep) / sizeof(ep[0]); i++) {
			cutoff_chess_state_t st;
			char fen[CUTOFF_CHESS_FEN_SIZE], msg[200];
			int rc = cutoff_chess_parse_fen(chess, ep[i].in, &st, msg, sizeof(msg));
			cutoff_chess_fen(chess, &st, fen, sizeof(fen));
			const char *field = strchr(strchr(strchr(fen, ' ') + 1, ' ') + 1, ' ') + 1;
			CHECK(rc == 0 && strncmp(field, ep[i].out_ep, strlen(ep[i].out_ep)) == 0 &&
			              field[strlen(ep[i].out_ep)] == ' ',
			      "'%s': en passant %s expected, got '%s' (%s)", ep[i].in, ep[i].out_ep,
			      fen, msg);
		}
		/* Same position, with and without a useless en-passant square: same key. */
		cutoff_chess_state_t a, b;
		const cutoff_game_t *g = cutoff_chess_game(chess);
		cutoff_chess_parse_fen(
			chess, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", &a,
			NULL, 0);
		cutoff_chess_parse_fen(chess,
		                       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		                       &b, NULL, 0);
		CHECK(g->key(g->ctx, &a) == g->key(g->ctx, &b),
		      "a useless en-passant square does not change the key");
		/* Played into: 1. e4 a6 2. e5 d5 leaves d6 capturable. */
		cutoff_chess_state_t st;
		cutoff_chess_start(chess, &st);
		const char *line[] = { "e2e4", "a7a6", "e4e5", "d7d5" };
		for (int i = 0; i < 4; i++) {
			cutoff_move_t m;
			CHECK(cutoff_chess_parse_move(chess, &st, line[i], &m, NULL, 0) == 0 &&
			              cutoff_chess_play(chess, &st, m, &st) == 0,
			      "%s plays", line[i]);
		}
		char fen[CUTOFF_CHESS_FEN_SIZE];
		cutoff_chess_fen(chess, &st, fen, sizeof(fen));
		CHECK(strcmp(fen,
		             "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3") == 0,
		      "1. e4 a6 2. e5 d5 gives '%s'", fen);
	}

	/* Incremental state against the state read back from its FEN, node by node. */
	{
		int nodes = 0, failures = 0;
		for (int i = 0; i < NGOOD; i++) {
			cutoff_chess_state_t st;
			cutoff_chess_parse_fen(chess, good[i], &st, NULL, 0);
			failures += check_tree(chess, &st, i < 2 ? 3 : 2, &nodes);
		}
		CHECK(failures == 0, "%d nodes differ from their FEN read back", failures);
		printf("incremental states: %d nodes equal to their FEN read back\n", nodes);
	}

	/* UCI moves. */
	{
		cutoff_chess_state_t st, kiwi;
		cutoff_move_t m;
		char msg[200], text[CUTOFF_CHESS_MOVE_SIZE];
		cutoff_chess_start(chess, &st);
		cutoff_chess_parse_fen(chess, KIWIPETE, &kiwi, NULL, 0);
		CHECK(cutoff_chess_parse_move(chess, &st, "e2e4", &m, msg, sizeof(msg)) == 0 &&
		              cutoff_chess_move_str(m, text, sizeof(text)) == 4 &&
		              strcmp(text, "e2e4") == 0,
		      "e2e4 reads and writes back (%s)", msg);
		CHECK(cutoff_chess_parse_move(chess, &kiwi, "e1g1", &m, NULL, 0) == 0 &&
		              (m >> 14) == 3,
		      "kiwipete: e1g1 is castling");
		CHECK(cutoff_chess_parse_move(chess, &kiwi, "e1c1", &m, NULL, 0) == 0 &&
		              (m >> 14) == 3,
		      "kiwipete: e1c1 is castling");
		static const struct {
			const char *fen, *move, *why;
		} bad_moves[] = {
			{ CUTOFF_CHESS_START_FEN, "e2e5", "not a legal move" },
			{ CUTOFF_CHESS_START_FEN, "e1g1", "not a legal move" },
			{ CUTOFF_CHESS_START_FEN, "e7e5", "not a legal move" },
			{ CUTOFF_CHESS_START_FEN, "e2", "4 or 5 characters" },
			{ CUTOFF_CHESS_START_FEN, "e2e4e5", "4 or 5 characters" },
			{ CUTOFF_CHESS_START_FEN, "", "4 or 5 characters" },
			{ CUTOFF_CHESS_START_FEN, "i2i4", "a1..h8" },
			{ CUTOFF_CHESS_START_FEN, "E2E4", "a1..h8" },
			{ CUTOFF_CHESS_START_FEN, "e0e4", "a1..h8" },
			{ CUTOFF_CHESS_START_FEN, "e2e4x", "q, r, b or n" },
			{ CUTOFF_CHESS_START_FEN, "e2e4q", "not a promotion" },
			{ "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8", "needs its piece" },
			{ "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8k", "q, r, b or n" },
			{ "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8Q", "q, r, b or n" },
		};
		for (size_t i = 0; i < sizeof(bad_moves) / sizeof(bad_moves[0]); i++) {
			cutoff_chess_state_t pos_st;
			cutoff_chess_parse_fen(chess, bad_moves[i].fen, &pos_st, NULL, 0);
			m = 12345;
			int rc = cutoff_chess_parse_move(chess, &pos_st, bad_moves[i].move, &m, msg,
			                                 sizeof(msg));
			CHECK(rc == CUTOFF_EINVAL && m == 12345 && strstr(msg, bad_moves[i].why) &&
			              strncmp(msg, "move '", 6) == 0,
			      "'%s' is refused for '%s' (got '%s')", bad_moves[i].move,
			      bad_moves[i].why, msg);
		}
		cutoff_chess_parse_fen(chess, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", &st, NULL, 0);
		CHECK(cutoff_chess_parse_move(chess, &st, "b7b8n", &m, NULL, 0) == 0 &&
		              cutoff_chess_move_str(m, text, sizeof(text)) == 5 &&
		              strcmp(text, "b7b8n") == 0,
		      "b7b8n reads and writes back");
		/* Every legal move of the test positions writes and reads back to itself. */
		int moves_checked = 0, wrong = 0;
		for (int i = 0; i < NGOOD; i++) {
			cutoff_move_t list[CUTOFF_MAX_MOVES];
			cutoff_chess_parse_fen(chess, good[i], &st, NULL, 0);
			int n = cutoff_chess_moves(chess, &st, list);
			for (int k = 0; k < n; k++, moves_checked++) {
				if (cutoff_chess_move_str(list[k], text, sizeof(text)) < 0 ||
				    cutoff_chess_parse_move(chess, &st, text, &m, NULL, 0) != 0 ||
				    m != list[k])
					wrong++;
			}
		}
		CHECK(wrong == 0 && moves_checked > 200, "%d of %d moves do not read back", wrong,
		      moves_checked);
		CHECK(cutoff_chess_move_str(0, text, sizeof(text)) == CUTOFF_EINVAL && text[0] == 0,
		      "move 0 is not a move");
		CHECK(cutoff_chess_move_str(CUTOFF_MOVE_NONE, text, sizeof(text)) == CUTOFF_EINVAL,
		      "CUTOFF_MOVE_NONE is not a move");
		CHECK(cutoff_chess_move_str(m, text, 4) == CUTOFF_EINVAL,
		      "a short buffer is refused");
		cutoff_chess_start(chess, &st);
		CHECK(cutoff_chess_play(chess, &st, 12 | 36 << 6, &st) == CUTOFF_EINVAL,
		      "cutoff_chess_play refuses e2e5");
	}

	fuzz(chess, 100000);
	cutoff_chess_free(chess);
	return check_report();
}
