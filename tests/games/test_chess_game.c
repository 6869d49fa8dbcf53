/* SPDX-License-Identifier: MIT */
/*
 * Chess through the game interface: what the engine relies on.
 *
 *   - evaluate is symmetric: a position and its colour-flipped mirror (ranks reversed,
 *     colours and side to move swapped) evaluate the same, on the test positions and on
 *     every position of random games;
 *   - terminal: checkmate is -CUTOFF_WIN, stalemate, the fifty-move rule and insufficient
 *     material are draws, a mate on the hundredth ply is still a mate; and over random
 *     games played to their end, terminal() (which only asks whether a legal move exists)
 *     agrees with gen_moves (which lists them) at every position;
 *   - gen_noisy lists exactly the captures and promotions described in cutoff_chess.h;
 *     hints order captures by MVV-LVA, promotions to a queen first, quiet moves 0;
 *   - cutoff_chess_play accepts every generated move and refuses every other value;
 *   - play_null passes (false in check), and keys differ where positions differ;
 *   - an engine searches chess: it finds a mate in one and a mate in two.
 *
 * cutoff-test-labels: chess
 */
#include <ctype.h>
#include <string.h>

#include "check.h"
#include "cutoff_games.h"

static const char *const positions[] = {
	CUTOFF_CHESS_START_FEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
	"8/8/8/4k3/8/8/3PK3/8 w - - 0 40",
};

enum {
	NPOS = sizeof(positions) / sizeof(positions[0])
};

/* The colour-flipped mirror of a 6-field FEN. */
static void mirror_fen(const char *fen, char *out, size_t size)
{
	char placement[100], side[4], castling[8], ep[4];
	int half, full;
	sscanf(fen, "%99s %3s %7s %3s %d %d", placement, side, castling, ep, &half, &full);
	char ranks[8][16];
	int r = 0;
	for (char *tok = strtok(placement, "/"); tok && r < 8; tok = strtok(NULL, "/"))
		snprintf(ranks[r++], sizeof(ranks[0]), "%s", tok);
	char flipped[100] = "";
	for (int i = 7; i >= 0; i--) {
		for (char *c = ranks[i]; *c; c++)
			*c = isupper((unsigned char)*c) ? (char)tolower((unsigned char)*c)
			                                : (char)toupper((unsigned char)*c);
		strcat(flipped, ranks[i]);
		if (i)
			strcat(flipped, "/");
	}
	char rights[8] = "";
	if (strchr(castling, 'k'))
		strcat(rights, "K");
	if (strchr(castling, 'q'))
		strcat(rights, "Q");
	if (strchr(castling, 'K'))
		strcat(rights, "k");
	if (strchr(castling, 'Q'))
		strcat(rights, "q");
	if (!rights[0])
		strcpy(rights, "-");
	if (ep[0] != '-')
		ep[1] = (char)('1' + '8' - ep[1]);
	snprintf(out, size, "%s %s %s %s %d %d", flipped, side[0] == 'w' ? "b" : "w", rights, ep,
	         half, full);
}

static uint64_t rng = 88172645463325252u;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int check_mirror(const cutoff_chess_t *chess, const cutoff_chess_state_t *st)
{
	const cutoff_game_t *g = cutoff_chess_game(chess);
	char fen[CUTOFF_CHESS_FEN_SIZE], mfen[CUTOFF_CHESS_FEN_SIZE], msg[200];
	cutoff_chess_state_t m;
	cutoff_chess_fen(chess, st, fen, sizeof(fen));
	mirror_fen(fen, mfen, sizeof(mfen));
	if (cutoff_chess_parse_fen(chess, mfen, &m, msg, sizeof(msg)) != 0) {
		printf("  mirror of %s: '%s' is refused: %s\n", fen, mfen, msg);
		return 1;
	}
	int32_t a = g->evaluate(g->ctx, st), b = g->evaluate(g->ctx, &m);
	if (a != b) {
		printf("  %s evaluates %d, its mirror %s %d\n", fen, (int)a, mfen, (int)b);
		return 1;
	}
	if (a <= -CUTOFF_WIN_MIN || a >= CUTOFF_WIN_MIN)
		return 1;
	return 0;
}

static void parse(const cutoff_chess_t *chess, const char *fen, cutoff_chess_state_t *st)
{
	char msg[200];
	int rc = cutoff_chess_parse_fen(chess, fen, st, msg, sizeof(msg));
	CHECK(rc == 0, "'%s' is read (%s)", fen, msg);
}

static bool is_noisy(const cutoff_chess_t *chess, const cutoff_chess_state_t *st, cutoff_move_t m)
{
	char fen[CUTOFF_CHESS_FEN_SIZE];
	cutoff_chess_fen(chess, st, fen, sizeof(fen));
	/* The board from the FEN: is the target square occupied? */
	int to = (int)((m >> 6) & 63), sq = 56;
	bool occupied = false;
	for (const char *c = fen; *c != ' '; c++) {
		if (*c == '/') {
			sq -= 16;
		} else if (isdigit((unsigned char)*c)) {
			sq += *c - '0';
		} else {
			if (sq == to)
				occupied = true;
			sq++;
		}
	}
	unsigned kind = m >> 14;
	bool queen = ((m >> 12) & 3) == 3;
	return occupied || kind == 2 || (kind == 1 && queen);
}

int main(void)
{
	int err;
	cutoff_chess_t *chess = cutoff_chess_new(&err);
	CHECK(chess != NULL, "cutoff_chess_new: %s", cutoff_strerror(err));
	if (!chess)
		return check_report();
	const cutoff_game_t *g = cutoff_chess_game(chess);
	CHECK(g && g->ctx == chess && g->state_size == sizeof(cutoff_chess_state_t) &&
	              g->max_moves == CUTOFF_CHESS_MAX_MOVES && g->gen_noisy && g->play_null,
	      "the game description");

	/* Symmetry on the fixed positions and along random games. */
	int asym = 0, evaluated = 0;
	for (int i = 0; i < NPOS; i++) {
		cutoff_chess_state_t st;
		parse(chess, positions[i], &st);
		asym += check_mirror(chess, &st);
		evaluated++;
	}
	for (int game = 0; game < 40; game++) {
		cutoff_chess_state_t st;
		cutoff_chess_start(chess, &st);
		for (int ply = 0; ply < 200; ply++) {
			int32_t v;
			if (g->terminal(g->ctx, &st, &v))
				break;
			cutoff_move_t moves[CUTOFF_MAX_MOVES];
			int n = g->gen_moves(g->ctx, &st, moves, NULL);
			cutoff_chess_state_t child;
			g->play(g->ctx, &st, moves[rnd() % (uint64_t)n], &child);
			st = child;
			asym += check_mirror(chess, &st);
			evaluated++;
		}
	}
	CHECK(asym == 0, "%d of %d positions evaluate unlike their mirror", asym, evaluated);

	/* terminal() against gen_moves, over random games to their end (mates and stalemates
	 * come often enough when the moves are random and the games long). */
	{
		int disagree = 0, mates = 0, stalemates = 0, positions_seen = 0;
		for (int game = 0; game < 3000; game++) {
			cutoff_chess_state_t st;
			cutoff_chess_start(chess, &st);
			for (int ply = 0; ply < 600; ply++) {
				int32_t v = 7;
				cutoff_move_t moves[CUTOFF_MAX_MOVES];
				bool over = g->terminal(g->ctx, &st, &v);
				int n = g->gen_moves(g->ctx, &st, moves, NULL);
				bool check = cutoff_chess_in_check(chess, &st);
				positions_seen++;
				if (n == 0) {
					/* No move: terminal, a mate in check, a draw otherwise (or a
					 * draw for insufficient material, decided first). */
					disagree += !over ||
					            (check ? v != -CUTOFF_WIN && v != 0 : v != 0);
					mates += check && v == -CUTOFF_WIN;
					stalemates += !check;
					break;
				}
				if (over) {
					/* Terminal with moves: only a draw by rule. */
					disagree += v != 0;
					break;
				}
				cutoff_chess_state_t child;
				g->play(g->ctx, &st, moves[rnd() % (uint64_t)n], &child);
				st = child;
			}
		}
		printf("terminal against gen_moves: %d positions, %d mates, %d stalemates\n",
		       positions_seen, mates, stalemates);
		CHECK(disagree == 0 && mates > 0 && stalemates > 0,
		      "terminal() disagrees with gen_moves at %d positions", disagree);
	}
	printf("evaluation: %d positions and their mirrors agree\n", evaluated);

	/* Terminal positions. */
	static const struct {
		const char *fen;
		bool over;
		int32_t value;
		const char *what;
	} term[] = {
		{ "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", true,
		  -CUTOFF_WIN, "fool's mate" },
		{ "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", true, 0, "stalemate" },
		{ "7k/8/6K1/8/8/8/8/5Q2 b - - 100 80", true, 0, "fifty-move rule" },
		{ "7k/8/6K1/8/8/8/8/5Q2 b - - 99 80", false, 0,
		  "one ply before the fifty-move rule" },
		{ "6Qk/8/6K1/8/8/8/8/8 b - - 100 80", true, 0,
		  "check but not mate on the hundredth ply: a draw" },
		{ "7k/6Q1/6K1/8/8/8/8/8 b - - 100 80", true, -CUTOFF_WIN,
		  "mate on the hundredth ply is mate" },
		{ "8/8/4k3/8/8/3K4/8/8 w - - 0 1", true, 0, "two kings" },
		{ "8/8/4k3/8/8/3K4/8/5N2 w - - 0 1", true, 0, "king and knight" },
		{ "8/8/4k3/8/8/3K4/8/5B2 b - - 0 1", true, 0, "king and bishop" },
		{ "8/8/4k3/7b/8/3K4/8/5B2 w - - 0 1", true, 0, "bishops on light squares" },
		{ "8/8/4k3/8/3b4/3K4/8/5B2 w - - 0 1", false, 0, "bishops on both colours" },
		{ "8/8/4k3/8/8/3K4/8/4NN2 w - - 0 1", false, 0, "two knights can mate" },
		{ "8/8/4k3/8/8/3K4/3P4/8 w - - 0 1", false, 0, "a pawn" },
		{ CUTOFF_CHESS_START_FEN, false, 0, "the start" },
	};
	for (size_t i = 0; i < sizeof(term) / sizeof(term[0]); i++) {
		cutoff_chess_state_t st;
		parse(chess, term[i].fen, &st);
		int32_t v = 12345;
		bool over = g->terminal(g->ctx, &st, &v);
		CHECK(over == term[i].over && (!over || v == term[i].value),
		      "%s: terminal %d value %d", term[i].what, over, (int)v);
	}

	/* gen_noisy and hints. */
	int noisy_checked = 0;
	for (int i = 0; i < NPOS; i++) {
		cutoff_chess_state_t st;
		parse(chess, positions[i], &st);
		cutoff_move_t all[CUTOFF_MAX_MOVES], noisy[CUTOFF_MAX_MOVES];
		int32_t hints[CUTOFF_MAX_MOVES], nhints[CUTOFF_MAX_MOVES];
		int n = g->gen_moves(g->ctx, &st, all, hints);
		int k = g->gen_noisy(g->ctx, &st, noisy, nhints);
		int expected = 0;
		for (int a = 0; a < n; a++) {
			bool want = is_noisy(chess, &st, all[a]);
			expected += want;
			bool found = false;
			for (int b = 0; b < k; b++) {
				if (noisy[b] == all[a]) {
					found = true;
					CHECK(nhints[b] == hints[a], "a noisy move keeps its hint");
				}
			}
			CHECK(found == want, "%s: move %u noisy %d, listed %d", positions[i],
			      (unsigned)all[a], want, found);
			CHECK(want ? hints[a] != 0 : hints[a] <= 0, "%s: move %u hint %d",
			      positions[i], (unsigned)all[a], (int)hints[a]);
			noisy_checked++;
		}
		CHECK(k == expected, "%s: %d noisy moves, expected %d", positions[i], k, expected);
	}
	printf("noisy moves and hints: %d moves checked\n", noisy_checked);
	{
		/* MVV-LVA: the pawn takes the queen before the queen does. */
		cutoff_chess_state_t st;
		parse(chess, "4k3/8/8/3q4/4P3/8/8/3QK3 w - - 0 1", &st);
		cutoff_move_t m;
		cutoff_chess_parse_move(chess, &st, "e4d5", &m, NULL, 0);
		cutoff_move_t moves[CUTOFF_MAX_MOVES];
		int32_t hints[CUTOFF_MAX_MOVES];
		int n = g->gen_moves(g->ctx, &st, moves, hints);
		int32_t pxq = 0, qxq = 0;
		for (int i = 0; i < n; i++) {
			if (moves[i] == m)
				pxq = hints[i];
			if ((moves[i] & 0xfff) == (3u | 35u << 6))
				qxq = hints[i];
		}
		CHECK(pxq == 1000 + 50 - 1 && qxq == 1000 + 50 - 5 && pxq > qxq,
		      "MVV-LVA: pawn takes queen %d before queen takes queen %d", (int)pxq,
		      (int)qxq);
		parse(chess, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", &st);
		n = g->gen_moves(g->ctx, &st, moves, hints);
		int queens = 0, unders = 0;
		for (int i = 0; i < n; i++) {
			if ((moves[i] >> 14) != 1)
				continue;
			if (((moves[i] >> 12) & 3) == 3)
				queens += hints[i] == 2000;
			else
				unders += hints[i] == -1;
		}
		CHECK(queens == 1 && unders == 3, "promotion hints: queen 2000, others -1");
	}

	/* cutoff_chess_play: every generated move, and no other 16-bit value. */
	{
		int wrong = 0;
		for (int i = 0; i < NPOS; i++) {
			cutoff_chess_state_t st;
			parse(chess, positions[i], &st);
			cutoff_move_t moves[CUTOFF_MAX_MOVES];
			int n = g->gen_moves(g->ctx, &st, moves, NULL);
			static bool listed[65536];
			memset(listed, 0, sizeof(listed));
			for (int k = 0; k < n; k++)
				listed[moves[k]] = true;
			cutoff_chess_state_t child;
			for (uint32_t m = 0; m < 65536; m++)
				wrong += (cutoff_chess_play(chess, &st, m, &child) == 0) !=
				         listed[m];
			wrong += cutoff_chess_play(chess, &st, CUTOFF_MOVE_NONE, &child) == 0;
			wrong += cutoff_chess_play(chess, &st, 0x10000u | moves[0], &child) == 0;
		}
		CHECK(wrong == 0, "cutoff_chess_play disagrees with gen_moves on %d values", wrong);
	}

	/* play_null and keys. */
	{
		cutoff_chess_state_t st, child, back;
		parse(chess, positions[6], &st); /* white to move, en passant d6 */
		CHECK(g->play_null(g->ctx, &st, &child), "a null move out of check");
		char fen[CUTOFF_CHESS_FEN_SIZE];
		cutoff_chess_fen(chess, &child, fen, sizeof(fen));
		CHECK(strcmp(fen, "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3") ==
		              0,
		      "the null move passes and forgets en passant (%s)", fen);
		parse(chess, fen, &back);
		CHECK(g->key(g->ctx, &child) == g->key(g->ctx, &back) &&
		              g->key(g->ctx, &child) != g->key(g->ctx, &st),
		      "the null move's key is the key of the position it makes");
		parse(chess, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", &st);
		CHECK(!g->play_null(g->ctx, &st, &child), "no null move in check");
		cutoff_chess_state_t a, b;
		parse(chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &a);
		parse(chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", &b);
		CHECK(g->key(g->ctx, &a) != g->key(g->ctx, &b), "castling rights are in the key");
		parse(chess, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", &b);
		CHECK(g->key(g->ctx, &a) != g->key(g->ctx, &b), "the side to move is in the key");
		parse(chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 57 90", &b);
		CHECK(g->key(g->ctx, &a) == g->key(g->ctx, &b), "the move counters are not");
	}

	/* An engine plays chess: mate in one and mate in two, found at their distance. */
	{
		static const struct {
			const char *fen, *best;
			int depth, plies;
		} mates[] = {
			{ "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", 3, 1 },
			{ "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
			  "h5f7", 3, 1 },
			{ "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1", 5, 3 },
		};
		cutoff_config_t cfg;
		cutoff_config_default(&cfg);
		cfg.tt_mb = 1;
		cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
		CHECK(e != NULL, "an engine for chess: %s", cutoff_strerror(err));
		for (size_t i = 0; e && i < sizeof(mates) / sizeof(mates[0]); i++) {
			cutoff_chess_state_t st;
			parse(chess, mates[i].fen, &st);
			cutoff_limits_t lim;
			cutoff_limits_default(&lim);
			lim.depth = mates[i].depth;
			lim.iterate = true;
			cutoff_result_t r;
			int rc = cutoff_engine_search(e, &st, &lim, &r, NULL, NULL);
			char text[CUTOFF_CHESS_MOVE_SIZE] = "";
			cutoff_chess_move_str(r.best_move, text, sizeof(text));
			CHECK(rc == 0 && r.value == CUTOFF_WIN - mates[i].plies &&
			              strcmp(text, mates[i].best) == 0,
			      "%s: %s mates in %d plies (got %s, value %d)", mates[i].fen,
			      mates[i].best, mates[i].plies, text, (int)r.value);
		}
		cutoff_engine_free(e);
	}

	cutoff_chess_free(chess);
	return check_report();
}
