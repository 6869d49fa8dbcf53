/* SPDX-License-Identifier: MIT */
/*
 * test_connect4.c — the Connect Four adapter and solver against oracles.
 *
 * cutoff-test-labels: concurrent
 *
 * (concurrent: the sample below runs every parallel driver on a real game, so it is worth
 * a ThreadSanitizer run too: about 20 s there, 4 s in a release build.)
 *
 * Oracles (none of them shares code with src/games/connect4.c):
 *   - a naive board, a 7x6 array, with a four-in-a-row test that walks the four
 *     directions from every cell: win detection, winning columns, the moves gen_moves may
 *     give (exactly those after which the opponent cannot win at once), its hints (the
 *     winning cells a move makes), and the terminal values, all on random games;
 *   - a naive exact solver (plain alpha-beta over that array, scores in Pons' convention)
 *     for random endgames with 10 empty cells, against cutoff_connect4_solve;
 *   - the worked examples of ../shared/data/connect4/README.md (from Pons' tutorial):
 *     "4455" scores 18 and "44455554221" scores -15;
 *   - Pons' test sets (CUTOFF_DATA_DIR/connect4/Test_*), a sample of each, solved by every
 *     driver (serial, lazysmp, ybw) at 1, 2, 4 and 8 threads (with enhanced transposition
 *     cut-offs, `cutoff solve`'s default, at 1 and 4), and in weak mode (the sign).
 *     The lines are read from the files at run time (their README asks that they not be
 *     copied into source code). The sample: the first 20 lines of Test_L3_R1 and
 *     Test_L2_R1, the first 10 of Test_L1_R1, lines 4..12 of Test_L2_R2, lines 5 and 9..11
 *     of Test_L1_R2, and line 927 of Test_L1_R3 (a 12-stone position of Begin-Hard that
 *     takes about 150,000 nodes; most lines of that set take millions): chosen so that the
 *     whole test takes a few seconds. Without the data the sample is skipped ("skipped:
 *     data not found") and the test still passes.
 * Parse errors: every kind, each naming the position in the string.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cutoff.h"
#include "cutoff_games.h"
#include "random.h"

/* ---------------------------------------------------------------------------------------
 * The naive board
 * ------------------------------------------------------------------------------------- */

enum {
	NW = 7,
	NH = 6
};

typedef struct naive {
	int cell[NW][NH]; /* 0 empty, 1 first player, 2 second */
	int height[NW];
	int stones;
} naive_t;

static int naive_to_move(const naive_t *b) { return b->stones % 2 ? 2 : 1; }

static bool naive_line_through(const naive_t *b, int c, int r, int p)
{
	static const int dir[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };
	for (int d = 0; d < 4; d++) {
		int n = 1;
		for (int s = -1; s <= 1; s += 2)
			for (int k = 1; k < 4; k++) {
				int cc = c + s * k * dir[d][0], rr = r + s * k * dir[d][1];
				if (cc < 0 || cc >= NW || rr < 0 || rr >= NH ||
				    b->cell[cc][rr] != p)
					break;
				n++;
			}
		if (n >= 4)
			return true;
	}
	return false;
}

static bool naive_four(const naive_t *b, int p)
{
	for (int c = 0; c < NW; c++)
		for (int r = 0; r < NH; r++)
			if (b->cell[c][r] == p && naive_line_through(b, c, r, p))
				return true;
	return false;
}

/* True when the side to move wins by playing column c (which must have room). */
static bool naive_wins_with(const naive_t *b, int c)
{
	naive_t t = *b;
	int p = naive_to_move(b);
	t.cell[c][t.height[c]] = p;
	return naive_line_through(&t, c, t.height[c], p);
}

static void naive_play(naive_t *b, int c)
{
	b->cell[c][b->height[c]++] = naive_to_move(b);
	b->stones++;
}

/* Can the side to move win at once? */
static bool naive_can_win(const naive_t *b)
{
	for (int c = 0; c < NW; c++)
		if (b->height[c] < NH && naive_wins_with(b, c))
			return true;
	return false;
}

/* True when the side to move in b has lost at once: it cannot win with its next stone,
 * and every column it can play lets the opponent win with the stone after (a full board
 * is a draw, not that). */
static bool naive_lost_at_once(const naive_t *b)
{
	if (b->stones >= NW * NH || naive_can_win(b))
		return false;
	for (int c = 0; c < NW; c++) {
		if (b->height[c] >= NH)
			continue;
		naive_t t = *b;
		naive_play(&t, c);
		if (!naive_can_win(&t))
			return false;
	}
	return true;
}

/* Empty cells where player p would have four with a stone there. */
static int naive_win_cells(const naive_t *b, int p)
{
	int n = 0;
	for (int c = 0; c < NW; c++)
		for (int r = 0; r < NH; r++) {
			if (b->cell[c][r])
				continue;
			naive_t t = *b;
			t.cell[c][r] = p;
			n += naive_line_through(&t, c, r, p);
		}
	return n;
}

static const int centre_first[NW] = { 3, 2, 4, 1, 5, 0, 6 };

/* The exact score in Pons' convention, for a position where nobody has four. */
static int naive_solve(const naive_t *b, int alpha, int beta)
{
	if (b->stones == NW * NH)
		return 0;
	for (int c = 0; c < NW; c++)
		if (b->height[c] < NH && naive_wins_with(b, c))
			return 21 - b->stones / 2; /* 22 minus the winner's stones, this one too */
	int best = -100;
	for (int i = 0; i < NW; i++) {
		int c = centre_first[i];
		if (b->height[c] >= NH)
			continue;
		naive_t t = *b;
		naive_play(&t, c);
		int v = -naive_solve(&t, -beta, -alpha);
		if (v > best)
			best = v;
		if (v > alpha)
			alpha = v;
		if (alpha >= beta)
			break;
	}
	return best;
}

/* A small deterministic generator (splitmix64). */
static uint64_t rng_state = 12345;
static uint64_t rng(void) { return splitmix64(&rng_state); }

/* ---------------------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------------------- */

static void expect_error(const char *moves, const char *message)
{
	cutoff_connect4_state_t st;
	char err[160];
	int rc = cutoff_connect4_parse(moves, &st, err, sizeof(err));
	CHECK(rc == CUTOFF_EINVAL && strcmp(err, message) == 0,
	      "parse('%s'): rc %d, message '%s', expected '%s'", moves, rc, err, message);
}

static void test_parse(void)
{
	/* A full board that nobody won (found by a random search with backtracking). */
	static const char full[] = "141724165222235463442116413773377573556656";
	cutoff_connect4_state_t st;
	char err[160];

	CHECK(cutoff_connect4_parse("", &st, err, sizeof(err)) == 0 && st.stones == 0 &&
	              st.mask == 0 && !st.known,
	      "the empty string is the empty board");
	CHECK(cutoff_connect4_parse("4453", &st, err, sizeof(err)) == 0 && st.stones == 4,
	      "4453 parses");
	expect_error("4458", "move 4 ('8'): column outside 1..7");
	expect_error("0", "move 1 ('0'): column outside 1..7");
	expect_error("12345679", "move 8 ('9'): column outside 1..7");
	expect_error("44x", "move 3 ('x'): not a column: expected a digit 1..7");
	expect_error("44 5", "move 3 (' '): not a column: expected a digit 1..7");
	expect_error("4\n", "move 2 ('\\x0a'): not a column: expected a digit 1..7");
	expect_error("4444444", "move 7 ('4'): column 4 is full");
	expect_error("12121212", "move 8 ('2'): the game is over: the first player has four in a "
	                         "row after move 7");
	expect_error("11223344",
	             "move 8 ('4'): the game is over: the first player has four in a row after "
	             "move 7");
	expect_error("121314751",
	             "move 9 ('1'): the game is over: the second player has four in a row "
	             "after move 8");
	char over[sizeof(full) + 1];
	snprintf(over, sizeof(over), "%s1", full);
	expect_error(over, "move 43 ('1'): the game is over: the board is full");

	CHECK(cutoff_connect4_parse(full, &st, err, sizeof(err)) == 0 && st.stones == 42 &&
	              st.known && st.value == 0 && !cutoff_connect4_has_four(&st),
	      "a full board nobody won: a draw, terminal");
	CHECK(cutoff_connect4_parse("1212121", &st, err, sizeof(err)) == 0 &&
	              cutoff_connect4_has_four(&st) && st.known && st.value == -(44 - 7) / 2,
	      "a last move that makes four is accepted; the position is lost for the side to "
	      "move: %d",
	      st.value);
	CHECK(cutoff_connect4_parse(NULL, &st, err, sizeof(err)) == CUTOFF_EINVAL &&
	              cutoff_connect4_parse("4", NULL, NULL, 0) == CUTOFF_EINVAL,
	      "NULL arguments");
	/* A failed parse leaves the state untouched; no room for a message is fine. */
	cutoff_connect4_state_t before = st;
	CHECK(cutoff_connect4_parse("48", &st, NULL, 0) == CUTOFF_EINVAL &&
	              memcmp(&before, &st, sizeof(st)) == 0,
	      "a failed parse writes nothing");
	cutoff_connect4_start(&st);
	CHECK(cutoff_connect4_play(&st, 7) == CUTOFF_EINVAL &&
	              cutoff_connect4_play(&st, -1) == CUTOFF_EINVAL &&
	              cutoff_connect4_play(&st, 3) == 0 && st.stones == 1,
	      "cutoff_connect4_play checks the column");
}

/* ---------------------------------------------------------------------------------------
 * Win detection, moves, hints, terminal values and keys on random games
 * ------------------------------------------------------------------------------------- */

/* Checks one position (nobody has four in it unless `over`) against the naive board. */
static void check_position(const cutoff_game_t *g, const cutoff_connect4_state_t *st,
                           const naive_t *b, int *bad)
{
	int p = naive_to_move(b), q = 3 - p;
	bool four = naive_four(b, q);
	if (cutoff_connect4_has_four(st) != four)
		(*bad)++;
	int win_col = -1;
	for (int c = 0; c < NW && !four && b->stones < NW * NH; c++)
		if (b->height[c] < NH && naive_wins_with(b, c)) {
			win_col = c;
			break;
		}
	if (cutoff_connect4_winning_column(st) != win_col)
		(*bad)++;

	int32_t value;
	bool term = g->terminal(g->ctx, st, &value);
	int n = b->stones;
	/* Which moves lose at once (the opponent then wins at once)? */
	bool loses[NW] = { false };
	int legal = 0, safe = 0;
	for (int c = 0; c < NW && !four; c++) {
		if (b->height[c] >= NH)
			continue;
		legal++;
		naive_t t = *b;
		naive_play(&t, c);
		loses[c] = naive_can_win(&t);
		safe += !loses[c];
	}
	if (four)
		*bad += !(term && value == -(44 - n) / 2);
	else if (n == NW * NH)
		*bad += !(term && value == 0);
	else if (win_col >= 0)
		*bad += !(term && value == (43 - n) / 2);
	else if (safe == 0)
		*bad += !(term && value == -(42 - n) / 2);
	else if (n >= NW * NH - 2)
		*bad += !(term && value == 0);
	else
		*bad += term;
	if (term)
		return;

	/* gen_moves: exactly the moves that do not lose at once, centre first; the hint is
	 * the number of winning cells the move makes, and 256 more when the opponent has
	 * then lost at once; play writes what the public play does, and key_after gives
	 * the key of that child. */
	cutoff_move_t moves[NW];
	int32_t hints[NW];
	int k = g->gen_moves(g->ctx, st, moves, hints);
	int expect_i = 0;
	if (k != safe)
		(*bad)++;
	for (int i = 0; i < k; i++) {
		int c = (int)moves[i];
		while (expect_i < NW &&
		       (b->height[centre_first[expect_i]] >= NH || loses[centre_first[expect_i]]))
			expect_i++;
		if (expect_i >= NW || c != centre_first[expect_i++]) {
			(*bad)++;
			break;
		}
		naive_t t = *b;
		naive_play(&t, c);
		if (hints[i] != naive_win_cells(&t, p) + (naive_lost_at_once(&t) ? 256 : 0))
			(*bad)++;
		cutoff_connect4_state_t child;
		g->play(g->ctx, st, moves[i], &child);
		cutoff_connect4_state_t again = *st;
		if (cutoff_connect4_play(&again, c) != 0 ||
		    memcmp(&again, &child, sizeof(child)) != 0)
			(*bad)++; /* the engine's play and the public one agree */
		if (g->key_after(g->ctx, st, moves[i]) != g->key(g->ctx, &child))
			(*bad)++; /* key_after is the key of what play writes */
	}
	(void)legal;
}

static void test_random_games(void)
{
	const cutoff_game_t *g = cutoff_connect4_game();
	int bad = 0, positions = 0, games = 400;
	CHECK(g->state_size == 32 && g->max_moves == 7 &&
	              g->state_size == sizeof(cutoff_connect4_state_t),
	      "state_size 32, max_moves 7");
	for (int game = 0; game < games; game++) {
		naive_t b;
		memset(&b, 0, sizeof(b));
		cutoff_connect4_state_t st;
		cutoff_connect4_start(&st);
		for (;;) {
			check_position(g, &st, &b, &bad);
			positions++;
			if (naive_four(&b, 3 - naive_to_move(&b)) || b.stones == NW * NH)
				break;
			int c;
			do
				c = (int)(rng() % NW);
			while (b.height[c] >= NH);
			naive_play(&b, c);
			if (cutoff_connect4_play(&st, c) != 0)
				bad++;
		}
		/* No move after the end. */
		for (int c = 0; c < NW; c++)
			bad += cutoff_connect4_play(&st, c) != CUTOFF_EINVAL;
	}
	CHECK(bad == 0, "%d disagreements with the naive board", bad);
	printf("random games: %d games, %d positions: four in a row, winning columns, terminal "
	       "values, moves, hints agree with the naive board\n",
	       games, positions);
}

/* Keys: a function of the position, and different for different positions. */
typedef struct keyed {
	uint64_t key, current, mask;
} keyed_t;

static int cmp_keyed(const void *a, const void *b)
{
	const keyed_t *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->mask != y->mask)
		return x->mask < y->mask ? -1 : 1;
	return x->current < y->current ? -1 : x->current > y->current;
}

static void collect(const cutoff_game_t *g, const cutoff_connect4_state_t *st, int depth,
                    keyed_t *out, size_t *n)
{
	out[(*n)++] = (keyed_t){ g->key(g->ctx, st), st->current, st->mask };
	if (depth == 0 || st->known)
		return;
	for (int c = 0; c < NW; c++) {
		cutoff_connect4_state_t t = *st;
		if (cutoff_connect4_play(&t, c) == 0)
			collect(g, &t, depth - 1, out, n);
	}
}

static void test_keys(void)
{
	const cutoff_game_t *g = cutoff_connect4_game();
	cutoff_connect4_state_t a, b;
	cutoff_connect4_parse("4453", &a, NULL, 0);
	cutoff_connect4_parse("5344", &b, NULL, 0);
	CHECK(g->key(NULL, &a) == g->key(NULL, &b) && memcmp(&a, &b, sizeof(a)) == 0,
	      "a transposition (4453, 5344) has the same state and key");
	cutoff_connect4_parse("4435", &b, NULL, 0);
	CHECK(g->key(NULL, &a) != g->key(NULL, &b), "4453 and 4435 differ");

	size_t cap = 200000, n = 0;
	keyed_t *k = malloc(cap * sizeof(*k));
	if (!k) {
		CHECK(false, "out of memory");
		return;
	}
	cutoff_connect4_state_t st;
	cutoff_connect4_start(&st);
	collect(g, &st, 6, k, &n); /* every position of up to 6 stones, by every path */
	qsort(k, n, sizeof(*k), cmp_keyed);
	size_t distinct = 0, clashes = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && k[i].key == k[i - 1].key) {
			clashes += k[i].mask != k[i - 1].mask || k[i].current != k[i - 1].current;
			continue;
		}
		distinct++;
	}
	CHECK(clashes == 0, "%zu positions share a key with a different position", clashes);
	printf("keys: %zu paths, %zu distinct positions of up to 6 stones, no two share a key\n", n,
	       distinct);
	free(k);
}

/* ---------------------------------------------------------------------------------------
 * Solving
 * ------------------------------------------------------------------------------------- */

/* etc: config.etc_min_depth (0: no enhanced transposition cut-offs). */
static cutoff_engine_t *make_engine_etc(cutoff_driver_t driver, int threads, size_t mb, int etc)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = driver;
	cfg.threads = threads;
	cfg.tt_mb = mb;
	cfg.ordering = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS;
	cfg.etc_min_depth = etc;
	int err;
	cutoff_engine_t *e = cutoff_engine_new(cutoff_connect4_game(), &cfg, &err);
	CHECK(e != NULL, "engine (driver %d, %d threads): %s", (int)driver, threads,
	      cutoff_strerror(err));
	return e;
}

static cutoff_engine_t *make_engine(cutoff_driver_t driver, int threads, size_t mb)
{
	return make_engine_etc(driver, threads, mb, 0);
}

/* The move reported must achieve the score: playing it gives the opponent -score. */
static bool best_move_ok(cutoff_engine_t *e, const cutoff_connect4_state_t *st,
                         const cutoff_connect4_solution_t *s)
{
	if (s->best_column < 0)
		return false;
	cutoff_connect4_state_t t = *st;
	if (cutoff_connect4_play(&t, s->best_column) != 0)
		return false;
	if (s->weak && s->score < 0)
		return true; /* every move loses */
	cutoff_connect4_solution_t child;
	if (cutoff_connect4_solve(e, &t, s->weak, CUTOFF_CONNECT4_BISECT, &child) != 0)
		return false;
	return child.score == -s->score;
}

static void test_known_values(void)
{
	static const struct {
		const char *moves;
		int score, best; /* best: the 0-based column, -1 for none */
		const char *source;
	} known[] = {
		{ "4455", 18, -1, "README worked example (Pons)" },
		{ "44455554221", -15, -1, "README worked example (Pons)" },
		{ "112233", 18, 3, "win at once with the 4th stone: 22 - 4" },
		{ "1122334", -18, -1, "the opponent has four with his 4th stone: 4 - 22" },
		{ "141724165222235463442116413773377573556656", 0, -1, "full board" },
	};
	cutoff_engine_t *e = make_engine(CUTOFF_DRIVER_SERIAL, 1, 4);
	if (!e)
		return;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		cutoff_connect4_state_t st;
		CHECK(cutoff_connect4_parse(known[i].moves, &st, NULL, 0) == 0, "parse %s",
		      known[i].moves);
		for (int method = 0; method <= 1; method++) {
			cutoff_connect4_solution_t s;
			int rc = cutoff_connect4_solve(e, &st, false, method, &s);
			CHECK(rc == 0 && s.score == known[i].score && s.lower == s.score &&
			              s.upper == s.score && !s.stopped,
			      "%s (%s): score %d, expected %d", known[i].moves, known[i].source,
			      s.score, known[i].score);
			if (known[i].best >= 0)
				CHECK(s.best_column == known[i].best, "%s: best column %d",
				      known[i].moves, s.best_column);
			else if (!st.known || !cutoff_connect4_has_four(&st))
				CHECK(st.stones == 42 || best_move_ok(e, &st, &s),
				      "%s: best column %d does not achieve %d", known[i].moves,
				      s.best_column, s.score);
		}
	}
	/* Over: no move. */
	cutoff_connect4_state_t st;
	cutoff_connect4_solution_t s;
	cutoff_connect4_parse("1122334", &st, NULL, 0);
	CHECK(cutoff_connect4_solve(e, &st, true, 0, &s) == 0 && s.score == -1 && s.known &&
	              s.best_column == -1 && s.searches == 0,
	      "a won position: weak -1, no move, no search");
	CHECK(cutoff_connect4_solve(NULL, &st, false, 0, &s) == CUTOFF_EINVAL &&
	              cutoff_connect4_solve(e, NULL, false, 0, &s) == CUTOFF_EINVAL &&
	              cutoff_connect4_solve(e, &st, false, 2, &s) == CUTOFF_EINVAL &&
	              cutoff_connect4_solve(e, &st, false, 0, NULL) == CUTOFF_EINVAL,
	      "bad arguments: CUTOFF_EINVAL");
	cutoff_engine_free(e);

	/* Speculative pruning would make the scores inexact: refused. */
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.pruning = CUTOFF_PRUNE_ALL;
	cutoff_engine_t *pruned = cutoff_engine_new(cutoff_connect4_game(), &cfg, NULL);
	cutoff_connect4_parse("4453", &st, NULL, 0);
	CHECK(pruned && cutoff_connect4_solve(pruned, &st, false, 0, &s) == CUTOFF_EINVAL,
	      "an engine with speculative pruning is refused");
	cutoff_engine_free(pruned);
	printf("known values: the README's examples, wins and losses at once, a full board\n");
}

/* Random endgames with 10 empty cells against the naive solver, both methods, weak and
 * strong, serial and YBW. */
/* Random moves until `empty` cells are left, on the naive board and the adapter's. False
 * when someone has four on the way or the adapter knows the value at once. */
static bool random_endgame(int empty, naive_t *b, cutoff_connect4_state_t *st)
{
	memset(b, 0, sizeof(*b));
	cutoff_connect4_start(st);
	while (b->stones < NW * NH - empty) {
		int c;
		do
			c = (int)(rng() % NW);
		while (b->height[c] >= NH);
		naive_play(b, c);
		cutoff_connect4_play(st, c);
		if (naive_four(b, 3 - naive_to_move(b)))
			return false;
	}
	return !st->known;
}

static void test_endgames(void)
{
	cutoff_engine_t *serial = make_engine(CUTOFF_DRIVER_SERIAL, 1, 4);
	cutoff_engine_t *ybw = make_engine(CUTOFF_DRIVER_YBW, 2, 4);
	if (!serial || !ybw) {
		cutoff_engine_free(serial);
		cutoff_engine_free(ybw);
		return;
	}
	int done = 0, bad = 0, moves_bad = 0, searched = 0;
	while (done < 40) {
		naive_t b;
		cutoff_connect4_state_t st;
		if (!random_endgame(10, &b, &st))
			continue; /* random endgames are often decided at once: keep the others */
		int truth = naive_solve(&b, -100, 100);
		for (int k = 0; k < 4; k++) {
			cutoff_engine_t *e = k % 2 ? ybw : serial;
			bool weak = k >= 2;
			cutoff_connect4_solution_t s;
			cutoff_engine_clear(e);
			int rc = cutoff_connect4_solve(e, &st, weak, done % 2, &s);
			int expect = weak ? (truth > 0) - (truth < 0) : truth;
			bad += rc != 0 || s.score != expect;
			searched += !s.known;
			if (!weak && rc == 0 && !best_move_ok(serial, &st, &s))
				moves_bad++;
		}
		done++;
	}
	CHECK(bad == 0, "%d endgame scores differ from the naive solver", bad);
	CHECK(moves_bad == 0, "%d best moves do not achieve the score", moves_bad);
	printf("endgames: %d random positions with 10 empty cells, none decided at once (%d "
	       "solves): exact and weak scores agree with a naive alpha-beta, serial and ybw x2, "
	       "both methods; every best move achieves the score\n",
	       done, searched);
	cutoff_engine_free(serial);
	cutoff_engine_free(ybw);
}

/*
 * cutoff_connect4_depth: a search with any window, to the depth it returns, keeps the
 * contract on the exact score (alpha < v < beta: v is the score; v <= alpha: score <=
 * alpha; v >= beta: score >= beta), on random endgames with random windows, against the
 * naive solver; and it asks for no more than the rest of the game.
 */
static void test_window_depth(void)
{
	cutoff_engine_t *e = make_engine(CUTOFF_DRIVER_SERIAL, 1, 4);
	if (!e)
		return;
	cutoff_connect4_state_t st;
	cutoff_connect4_start(&st);
	CHECK(cutoff_connect4_depth(NULL, -1, 1) == CUTOFF_EINVAL, "depth of NULL");
	CHECK(cutoff_connect4_depth(&st, 1, 1) == CUTOFF_EINVAL, "depth of an empty window");
	/* The deepest question is about a win or a draw ("score >= 1?", "score >= 0?"): the
	 * full window needs what (-1, 1) needs; from the empty board, up to the second
	 * player's 21st stone, ply 42, minus the one a terminal win spares. */
	CHECK(cutoff_connect4_depth(&st, -CUTOFF_INF, CUTOFF_INF) == 41 &&
	              cutoff_connect4_depth(&st, -1, 1) == 41 &&
	              cutoff_connect4_depth(&st, 19, 20) < 10,
	      "window depths from the empty board: full %d, (-1, 1) %d, (19, 20) %d",
	      cutoff_connect4_depth(&st, -CUTOFF_INF, CUTOFF_INF),
	      cutoff_connect4_depth(&st, -1, 1), cutoff_connect4_depth(&st, 19, 20));
	int done = 0, bad = 0, shallower = 0;
	while (done < 60) {
		naive_t b;
		if (!random_endgame(12, &b, &st))
			continue;
		int truth = naive_solve(&b, -100, 100);
		for (int k = 0; k < 8; k++) {
			int32_t alpha = (int32_t)(rng() % 13) - 7,
				beta = alpha + 1 + (int32_t)(rng() % 6);
			if (k == 0) /* the null window at the score, and the full one */
				alpha = truth - 1, beta = truth;
			if (k == 1)
				alpha = -CUTOFF_INF, beta = CUTOFF_INF;
			int depth = cutoff_connect4_depth(&st, alpha, beta);
			bad += depth < 1 || depth > CUTOFF_CONNECT4_CELLS - st.stones + 1;
			shallower += depth < CUTOFF_CONNECT4_CELLS - st.stones + 1;
			cutoff_limits_t lim;
			cutoff_limits_default(&lim);
			lim.depth = depth;
			lim.alpha = alpha;
			lim.beta = beta;
			cutoff_result_t r;
			cutoff_engine_clear(e);
			int rc = cutoff_engine_search(e, &st, &lim, &r, NULL, NULL);
			bool kept = rc == 0 && (r.value <= alpha  ? truth <= alpha
			                        : r.value >= beta ? truth >= beta
			                                          : truth == r.value);
			if (!kept && bad < 5)
				printf("  window (%d, %d), depth %d: value %d, score %d\n",
				       (int)alpha, (int)beta, depth, (int)r.value, truth);
			bad += !kept;
		}
		done++;
	}
	CHECK(bad == 0, "%d searches at cutoff_connect4_depth broke the contract", bad);
	CHECK(shallower > 0, "the depth is never below the rest of the game");
	printf("window depth: %d endgames x 8 windows searched to cutoff_connect4_depth (%d of "
	       "them shallower than the rest of the game) keep the contract on the exact "
	       "score\n",
	       done, shallower);
	cutoff_engine_free(e);
}

/* ---------------------------------------------------------------------------------------
 * The test sets
 * ------------------------------------------------------------------------------------- */

typedef struct sample_line {
	cutoff_connect4_state_t st;
	int score;
	char where[64];
} sample_line_t;

enum {
	SAMPLE_MAX = 80
};

/* Reads lines [from, to] (1-based) of data/connect4/<name>. -1: the file is missing. */
static int read_lines(const char *dir, const char *name, int from, int to, sample_line_t *out,
                      int *n)
{
	char path[1024], line[256];
	snprintf(path, sizeof(path), "%s/connect4/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	for (int no = 1; fgets(line, sizeof(line), f) && no <= to; no++) {
		if (no < from)
			continue;
		char moves[128];
		int score;
		if (*n >= SAMPLE_MAX || sscanf(line, "%127s %d", moves, &score) != 2 ||
		    cutoff_connect4_parse(moves, &out[*n].st, NULL, 0) != 0) {
			CHECK(false, "%s line %d is not '<moves> <score>'", name, no);
			continue;
		}
		out[*n].score = score;
		snprintf(out[*n].where, sizeof(out[*n].where), "%s:%d", name, no);
		(*n)++;
	}
	fclose(f);
	return 0;
}

static void test_sets(void)
{
	const char *dir = getenv("CUTOFF_DATA_DIR");
	static const struct {
		const char *name;
		int from, to;
	} ranges[] = {
		{ "Test_L3_R1", 1, 20 },    { "Test_L2_R1", 1, 20 }, { "Test_L1_R1", 1, 10 },
		{ "Test_L2_R2", 4, 12 },    { "Test_L1_R2", 5, 5 },  { "Test_L1_R2", 9, 11 },
		{ "Test_L1_R3", 927, 927 },
	};
	static sample_line_t lines[SAMPLE_MAX];
	int n = 0;
	for (size_t i = 0; dir && i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		if (read_lines(dir, ranges[i].name, ranges[i].from, ranges[i].to, lines, &n) < 0) {
			dir = NULL;
			break;
		}
	}
	if (!dir) {
		printf("test sets: skipped: data not found (CUTOFF_DATA_DIR/connect4)\n");
		return;
	}
	CHECK(n == 20 + 20 + 10 + 9 + 1 + 3 + 1, "the sample has %d lines", n);

	static const int threads[] = { 1, 2, 4, 8 };
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const char *name = cutoff_driver_name((cutoff_driver_t)d);
		for (int t = 0; t < 4; t++) {
			/* `cutoff solve`'s enhanced transposition cut-offs at 1 and 4 threads */
			int etc = t % 2 ? 0 : 6;
			cutoff_engine_t *e =
				make_engine_etc((cutoff_driver_t)d, threads[t], 4, etc);
			if (!e)
				continue;
			int bad = 0;
			uint64_t nodes = 0;
			for (int i = 0; i < n; i++) {
				cutoff_connect4_solution_t s;
				cutoff_engine_clear(e);
				int rc = cutoff_connect4_solve(e, &lines[i].st, false, (i + t) % 2,
				                               &s);
				nodes += s.nodes;
				if (rc != 0 || s.score != lines[i].score) {
					bad++;
					printf("  %s x%d: %s: score %d, the file says %d\n", name,
					       threads[t], lines[i].where, s.score, lines[i].score);
				}
			}
			CHECK(bad == 0, "%s x%d: %d of %d scores differ", name, threads[t], bad, n);
			printf("test sets: %s x%d%s: %d positions agree with the files (%.0f nodes "
			       "a "
			       "position)\n",
			       name, threads[t], etc ? " etc" : "", n - bad, (double)nodes / n);
			cutoff_engine_free(e);
		}
	}

	cutoff_engine_t *e = make_engine_etc(CUTOFF_DRIVER_SERIAL, 1, 4, 6);
	int bad = 0;
	for (int i = 0; e && i < n; i++) {
		cutoff_connect4_solution_t s;
		int rc = cutoff_connect4_solve(e, &lines[i].st, true, 0, &s);
		int expect = (lines[i].score > 0) - (lines[i].score < 0);
		bad += rc != 0 || s.score != expect;
	}
	CHECK(bad == 0, "weak: %d of %d signs differ", bad, n);
	printf("test sets: weak mode: %d signs agree\n", n - bad);
	cutoff_engine_free(e);
}

int main(void)
{
	test_parse();
	printf("parse: every kind of error names its position\n");
	test_random_games();
	test_keys();
	test_known_values();
	test_endgames();
	test_window_depth();
	test_sets();
	return check_report();
}
