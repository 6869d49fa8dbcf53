/* SPDX-License-Identifier: MIT */
/*
 * Chess perft: the move generator counted against published figures.
 *
 *   1. Counts built in, so that the suite stands without the shared data:
 *      - the start position, depths 1-5, and "Kiwipete" (Peter McKenzie), depths 1-4,
 *        with Positions 3-6 at shallow depths: Chess Programming Wiki, "Perft Results",
 *        https://www.chessprogramming.org/Perft_Results;
 *      - Martin Sedlak's positions for the hard rules (illegal en passant through a pin,
 *        castling through or into check, promotions that give check, stalemates), as
 *        circulated on TalkChess; every one of these counts was recomputed with Stockfish
 *        15.1's `go perft` before being written here.
 *   2. Every position of CUTOFF_DATA_DIR/chess/perft.epd at every depth whose count is at
 *      most 5 million (the deeper ones are in test_chess_perft_slow); "skipped: data not
 *      found" when the file is missing.
 *   3. The game interface agrees: a perft walked through gen_moves and play (as the
 *      engine walks) gives the same counts, and so does the sum over the root moves
 *      (divide).
 *
 * cutoff-test-labels: chess
 */
#include <inttypes.h>

#include "check.h"
#include "chess_epd.h"
#include "cutoff_games.h"

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

typedef struct known {
	const char *name;
	const char *fen;
	int depth;
	uint64_t count;
} known_t;

static const known_t known[] = {
	{ "start", CUTOFF_CHESS_START_FEN, 1, 20 },
	{ "start", CUTOFF_CHESS_START_FEN, 2, 400 },
	{ "start", CUTOFF_CHESS_START_FEN, 3, 8902 },
	{ "start", CUTOFF_CHESS_START_FEN, 4, 197281 },
	{ "start", CUTOFF_CHESS_START_FEN, 5, 4865609 },
	{ "kiwipete", KIWIPETE, 1, 48 },
	{ "kiwipete", KIWIPETE, 2, 2039 },
	{ "kiwipete", KIWIPETE, 3, 97862 },
	{ "kiwipete", KIWIPETE, 4, 4085603 },
	{ "position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624 },
	{ "position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4,
	  422333 },
	{ "position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379 },
	{ "position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	  3, 89890 },
	{ "illegal ep move #1", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1134888 },
	{ "illegal ep move #2", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1015133 },
	{ "ep capture checks opponent", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1440467 },
	{ "short castling gives check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661072 },
	{ "long castling gives check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803711 },
	{ "castle rights", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1274206 },
	{ "castling prevented", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1720476 },
	{ "promote out of check", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3821001 },
	{ "discovered check", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1004658 },
	{ "promote to give check", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217342 },
	{ "under-promote to give check", "8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683 },
	{ "self stalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2217 },
	{ "stalemate and checkmate", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567584 },
	{ "stalemate and checkmate #2", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23527 },
};

enum {
	NKNOWN = sizeof(known) / sizeof(known[0])
};

/* Data-file counts above this are left to test_chess_perft_slow. */
#define CORE_LIMIT UINT64_C(5000000)

static uint64_t perft(const cutoff_chess_t *chess, const char *fen, int depth)
{
	cutoff_chess_state_t st;
	char err[200];
	if (cutoff_chess_parse_fen(chess, fen, &st, err, sizeof(err)) != 0) {
		printf("cannot read %s: %s\n", fen, err);
		return UINT64_MAX;
	}
	uint64_t n = UINT64_MAX;
	if (cutoff_chess_perft(chess, &st, depth, &n) != 0)
		return UINT64_MAX;
	return n;
}

/* Perft as the engine walks: gen_moves, play, and terminal on every inner node. */
static uint64_t game_perft(const cutoff_game_t *g, const void *state, int depth)
{
	if (depth == 0)
		return 1;
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	int32_t hints[CUTOFF_MAX_MOVES];
	int n = g->gen_moves(g->ctx, state, moves, hints);
	int32_t value;
	bool over = g->terminal(g->ctx, state, &value);
	/* No moves means terminal (mate or stalemate). (Terminal with moves is the fifty-move
	 * rule or insufficient material; perft goes on through those.) */
	if (n == 0 && !over)
		return UINT64_MAX / 2;
	uint64_t total = 0;
	_Alignas(max_align_t) unsigned char child[sizeof(cutoff_chess_state_t)];
	for (int i = 0; i < n; i++) {
		g->play(g->ctx, state, moves[i], child);
		total += game_perft(g, child, depth - 1);
	}
	return total;
}

int main(void)
{
	int err;
	cutoff_chess_t *chess = cutoff_chess_new(&err);
	CHECK(chess != NULL, "cutoff_chess_new: %s", cutoff_strerror(err));
	if (!chess)
		return check_report();
	const cutoff_game_t *g = cutoff_chess_game(chess);

	/* 1. Built-in counts. */
	for (int i = 0; i < NKNOWN; i++) {
		uint64_t n = perft(chess, known[i].fen, known[i].depth);
		CHECK(n == known[i].count, "%s: perft %d is %" PRIu64 ", expected %" PRIu64,
		      known[i].name, known[i].depth, n, known[i].count);
	}
	printf("built-in counts: %d checked\n", NKNOWN);

	/* 2. The shared data file. */
	static epd_position_t pos[EPD_MAX_POSITIONS];
	int npos = epd_read_perft(chess, pos, EPD_MAX_POSITIONS);
	CHECK(npos != -2, "perft.epd is malformed");
	if (npos < 0) {
		printf("perft.epd: skipped: data not found (CUTOFF_DATA_DIR=%s)\n",
		       getenv("CUTOFF_DATA_DIR") ? getenv("CUTOFF_DATA_DIR") : "unset");
	} else {
		int checked = 0, left = 0;
		for (int i = 0; i < npos; i++) {
			for (int k = 0; k < pos[i].ndepths; k++) {
				if (pos[i].count[k] > CORE_LIMIT) {
					left++;
					continue;
				}
				uint64_t n = perft(chess, pos[i].fen, pos[i].depth[k]);
				CHECK(n == pos[i].count[k],
				      "perft.epd line %d (%s): perft %d is %" PRIu64
				      ", expected %" PRIu64,
				      i + 1, pos[i].fen, pos[i].depth[k], n, pos[i].count[k]);
				checked++;
			}
		}
		CHECK(npos >= 1 && checked >= 1, "perft.epd has counts to check");
		printf("perft.epd: %d positions, %d counts checked, %d deeper ones left to the "
		       "slow test\n",
		       npos, checked, left);
	}

	/* 3. The game interface and the root split agree with the library's perft. */
	for (int i = 0; i < NKNOWN; i++) {
		if (known[i].depth != 3 && !(known[i].depth == 4 && known[i].count < 30000))
			continue;
		cutoff_chess_state_t st;
		if (cutoff_chess_parse_fen(chess, known[i].fen, &st, NULL, 0) != 0)
			continue;
		uint64_t n = game_perft(g, &st, known[i].depth);
		CHECK(n == known[i].count,
		      "%s: perft %d through gen_moves and play is %" PRIu64 ", expected %" PRIu64,
		      known[i].name, known[i].depth, n, known[i].count);
	}
	{
		cutoff_chess_state_t st, child;
		cutoff_move_t moves[CUTOFF_MAX_MOVES];
		cutoff_chess_parse_fen(chess, KIWIPETE, &st, NULL, 0);
		int n = cutoff_chess_moves(chess, &st, moves);
		uint64_t sum = 0, c;
		for (int i = 0; i < n; i++) {
			CHECK(cutoff_chess_play(chess, &st, moves[i], &child) == 0,
			      "kiwipete: root move %d plays", i);
			CHECK(cutoff_chess_perft(chess, &child, 3, &c) == 0, "perft 3 of a child");
			sum += c;
		}
		CHECK(n == 48 && sum == 4085603,
		      "kiwipete: 48 root moves whose perft 3 add up to 4085603 (%d, %" PRIu64 ")",
		      n, sum);
		CHECK(cutoff_chess_perft(chess, &st, 0, &c) == 0 && c == 1, "perft 0 is 1");
		CHECK(cutoff_chess_perft(chess, &st, -1, &c) == CUTOFF_EINVAL,
		      "depth -1 is refused");
		CHECK(cutoff_chess_perft(chess, &st, CUTOFF_CHESS_MAX_PERFT + 1, &c) ==
		              CUTOFF_EINVAL,
		      "a depth beyond CUTOFF_CHESS_MAX_PERFT is refused");
		CHECK(cutoff_chess_perft(NULL, &st, 1, &c) == CUTOFF_EINVAL,
		      "NULL chess is refused");
	}
	cutoff_chess_free(chess);
	return check_report();
}
