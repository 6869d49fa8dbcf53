/* SPDX-License-Identifier: MIT */
/*
 * The principal variation of an exact solve is a proof line (result.pv_proof): every move of
 * it keeps the root's value, to the end of the game. A line that a null-window search
 * wrote (MTD(f)'s passes, PVS's probes) may hold a move of a node that failed low, which
 * does not reach the node's value; the engine proves each move after the solve and mends
 * such a line.
 *
 * Checked on solves (limits.solve, depth 0, the full window, a table) of:
 *   - random trees (independent and incremental values, branching 3 to 6, depth 4 to 8):
 *     along the line, each move's value, by brute-force negamax of the child, must be the
 *     value of the node it is played in, seen from its side, and the line must reach a
 *     leaf;
 *   - Connect Four endgames (random playouts to 12 and 16 empty cells, the game's hints
 *     ordering): each move's child, solved by another engine, must be worth minus the
 *     node's value, and the line must end with the game;
 *   - the bank game of extra_turns.h, where a move may keep the turn (the value then is
 *     not negated along the line);
 * with alpha-beta, PVS and MTD(f), under the serial driver and YBW and ABDADA at 2 threads.
 * A search that is not solved (a node limit) must not claim a proof.
 *
 * Usage: test_pv_proof [cases] [seed]
 * cutoff-test-labels: concurrent
 * cutoff-test-timeout: 600
 */
#include <stdlib.h>

#include "base/topo.h"
#include "check.h"
#include "cutoff_connect4.h"
#include "cutoff_games.h"
#include "extra_turns.h"
#include "oracle.h"

static void *topology;
static uint64_t rng_state;

static int rnd_int(int lo, int hi)
{
	return lo + (int)(splitmix64(&rng_state) % (uint64_t)(hi - lo + 1));
}

static const struct {
	cutoff_driver_t driver;
	int threads;
	cutoff_algo_t algo;
} setups[] = {
	{ CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_ALPHABETA },
	{ CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_PVS },
	{ CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_MTDF },
	{ CUTOFF_DRIVER_YBW, 2, CUTOFF_ALGO_MTDF },
	{ CUTOFF_DRIVER_ABDADA, 2, CUTOFF_ALGO_PVS },
	{ CUTOFF_DRIVER_DTS, 3, CUTOFF_ALGO_PVS }, /* YBW in a build without DTS */
};
enum {
	NSETUPS = sizeof setups / sizeof setups[0]
};

static cutoff_engine_t *engine(const cutoff_game_t *g, int setup, unsigned ordering)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver =
		cutoff_driver_name(setups[setup].driver) ? setups[setup].driver : CUTOFF_DRIVER_YBW;
	cfg.threads = setups[setup].threads;
	cfg.algo = setups[setup].algo;
	cfg.tt_mb = 4;
	cfg.ordering = ordering;
	cfg.topology = topology;
	cfg.ybw_min_split_depth = 2;
	cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
	cfg.dts_min_split_nodes = 1;
	cfg.abdada_min_depth = 2;
	int err = 0;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	CHECK(e != NULL, "engine: %s", cutoff_strerror(err));
	return e;
}

static int solve(cutoff_engine_t *e, const void *root, cutoff_result_t *r)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.solve = true;
	cutoff_engine_clear(e);
	return cutoff_engine_search(e, root, &lim, r, NULL, NULL);
}

typedef struct tally {
	int solves, bad_moves, short_lines, unproved, mended;
} tally_t;

static void print_tally(const char *what, const tally_t *t)
{
	printf("%-13s %4d solves: %d lines with a move that loses value, %d ending before the "
	       "game, %d without pv_proof\n",
	       what, t->solves, t->bad_moves, t->short_lines, t->unproved);
	CHECK(t->solves > 0 && t->bad_moves == 0 && t->short_lines == 0 && t->unproved == 0,
	      "%s: every solved line is a proof line to the end", what);
}

/* Random trees: every move of the line keeps the value, down to a leaf. */
static void trees(int cases)
{
	tally_t t = { 0 };
	for (int i = 0; i < cases; i++) {
		cutoff_rtree_params_t p;
		cutoff_rtree_params_default(&p);
		p.branching = rnd_int(3, 6);
		p.depth = rnd_int(4, p.branching > 4 ? 6 : 8);
		p.model = rnd_int(0, 1) ? CUTOFF_RTREE_INCREMENTAL : CUTOFF_RTREE_IID;
		if (p.model == CUTOFF_RTREE_INCREMENTAL)
			p.value_min = -20, p.value_max = 20;
		else
			p.value_min = -5, p.value_max = 5; /* many ties: many lines of one value */
		cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
		const cutoff_game_t *g = cutoff_rtree_game(tree);
		cutoff_rtree_state_t root;
		cutoff_rtree_root(tree, splitmix64(&rng_state), &root);
		int setup = i % NSETUPS;
		cutoff_engine_t *e = engine(g, setup, CUTOFF_ORDER_ALL);
		cutoff_result_t r;
		if (e && solve(e, &root, &r) == 0 && r.solved) {
			t.solves++;
			t.unproved += !r.pv_proof;
			t.short_lines += r.pv_length != p.depth;
			cutoff_rtree_state_t st = root;
			int32_t want = r.value;
			for (int k = 0; k < r.pv_length; k++) {
				cutoff_rtree_state_t child;
				g->play(g->ctx, &st, r.pv[k], &child);
				int32_t v = -oracle_negamax(g, &child, p.depth);
				if (v != want) {
					t.bad_moves++;
					break;
				}
				st = child;
				want = -want;
			}
		}
		cutoff_engine_free(e);
		cutoff_rtree_free(tree);
	}
	print_tally("random trees", &t);
}

/* A Connect Four endgame: `empty` cells left, no four yet, played out at random. */
static bool c4_endgame(int empty, cutoff_connect4_state_t *st)
{
	cutoff_connect4_start(st);
	while (st->stones < CUTOFF_CONNECT4_CELLS - empty) {
		int c = rnd_int(0, 6);
		cutoff_connect4_state_t next = *st;
		if (cutoff_connect4_play(&next, c) != 0)
			continue;
		if (next.known)
			return false; /* over, or decided at once: draw another */
		*st = next;
	}
	return true;
}

static void connect4(int cases)
{
	const cutoff_game_t *g = cutoff_connect4_game();
	cutoff_engine_t *judge = engine(g, 2, CUTOFF_ORDER_ALL);
	tally_t t = { 0 };
	for (int i = 0; i < cases && judge; i++) {
		cutoff_connect4_state_t root;
		if (!c4_endgame(i % 2 ? 12 : 16, &root)) {
			i--;
			continue;
		}
		cutoff_engine_t *e = engine(g, i % NSETUPS, CUTOFF_ORDER_ALL);
		cutoff_result_t r;
		if (e && solve(e, &root, &r) == 0 && r.solved) {
			t.solves++;
			t.unproved += !r.pv_proof;
			cutoff_connect4_state_t st = root;
			int32_t want = r.value;
			for (int k = 0; k < r.pv_length; k++) {
				if (cutoff_connect4_play(&st, (int)r.pv[k]) != 0) {
					t.bad_moves++;
					break;
				}
				int32_t v;
				if (!g->terminal(g->ctx, &st, &v)) {
					cutoff_connect4_solution_t sol;
					cutoff_engine_clear(judge);
					cutoff_connect4_solve(judge, &st, false, 0, &sol);
					v = sol.score;
				}
				if (-v != want) {
					t.bad_moves++;
					break;
				}
				want = -want;
			}
			int32_t v;
			t.short_lines += !g->terminal(g->ctx, &st, &v);
		}
		cutoff_engine_free(e);
	}
	cutoff_engine_free(judge);
	print_tally("connect four", &t);
}

static void bank(int cases)
{
	tally_t t = { 0 };
	for (int i = 0; i < cases; i++) {
		bank_t b;
		bank_make(&b, rnd_int(5, 8), splitmix64(&rng_state), rnd_int(0, 1), 0);
		cutoff_game_t g = bank_game(&b);
		bank_state_t st = { 0, 0, 0 };
		cutoff_engine_t *e = engine(&g, i % NSETUPS, CUTOFF_ORDER_ALL);
		cutoff_result_t r;
		if (e && solve(e, &st, &r) == 0 && r.solved) {
			t.solves++;
			t.unproved += !r.pv_proof;
			t.short_lines += r.pv_length != b.cells;
			int32_t want = r.value;
			for (int k = 0; k < r.pv_length; k++) {
				if (bank_move_value(&b, &st, r.pv[k], b.cells + 1, k, true) !=
				    want) {
					t.bad_moves++;
					break;
				}
				bank_state_t c;
				bank_play(&b, &st, r.pv[k], &c);
				if (c.side != st.side)
					want = -want;
				st = c;
			}
		}
		cutoff_engine_free(e);
	}
	print_tally("extra turns", &t);
}

/* A search stopped short of the end proves nothing. */
static void unsolved(void)
{
	cutoff_connect4_state_t root;
	cutoff_connect4_start(&root);
	cutoff_engine_t *e = engine(cutoff_connect4_game(), 2, CUTOFF_ORDER_ALL);
	if (!e)
		return;
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.solve = true;
	lim.nodes = 20000;
	cutoff_result_t r;
	int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
	CHECK(rc == 0 && !r.solved && !r.pv_proof,
	      "an unsolved search (node limit) claims no proof: rc %d solved %d pv_proof %d", rc,
	      (int)r.solved, (int)r.pv_proof);
	cutoff_engine_free(e);
}

int main(int argc, char **argv)
{
	int cases = argc > 1 ? atoi(argv[1]) : 600;
	rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 20261206;
	cutoff_topology_load(&topology);
	printf("proof lines: %d solves of each game, seed %llu\n", cases,
	       (unsigned long long)rng_state);
	trees(cases);
	connect4(cases / 4);
	bank(cases);
	unsolved();
	cutoff_topology_free(topology);
	return check_report();
}
