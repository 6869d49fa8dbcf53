/* SPDX-License-Identifier: MIT */
/*
 * The pinned bench: exact serial node counts, values and best moves of fixed searches, as
 * Weiss's CI pins its bench. A serial search is deterministic, so these figures move only
 * when search behaviour changes: a pure refactor leaves every one of them as it is, and a
 * deliberate change of behaviour updates them in the same commit and says why.
 *
 * The figures were recorded from the searches themselves (run this test with --print to
 * see them), at commit f9a1bca (2026-12-01), before the count checks on gen_moves. They
 * are not oracles of correctness (test_contract is that): only of "nothing changed".
 *
 * Workloads: chess (two positions, iterative deepening with PVS and a 16 MiB table, once
 * exact and once with the engine's speculative pruning), Connect Four (a weak solve), and
 * random trees (alpha-beta without a table in the tree's order; PVS and MTD(f) with a
 * table and every ordering heuristic), and tic-tac-toe (negamax over the whole game; PVS
 * with a table, iterating).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cutoff_chess.h"
#include "cutoff_connect4.h"
#include "cutoff_games.h"

typedef struct pin {
	const char *name;
	uint64_t nodes;
	int32_t value;
	cutoff_move_t move;
} pin_t;

static bool print_only;

static void compare(const pin_t *want, const cutoff_result_t *r, int rc)
{
	if (print_only) {
		printf("\t{ \"%s\", %llu, %d, %u },\n", want->name,
		       (unsigned long long)r->counters.nodes, (int)r->value, r->best_move);
		return;
	}
	CHECK(rc == 0 && r->counters.nodes == want->nodes && r->value == want->value &&
	              r->best_move == want->move,
	      "%s: %llu nodes, value %d, move %u (pinned: %llu, %d, %u)", want->name,
	      (unsigned long long)r->counters.nodes, (int)r->value, r->best_move,
	      (unsigned long long)want->nodes, (int)want->value, want->move);
	printf("%-28s %10llu nodes, value %6d, move %u\n", want->name,
	       (unsigned long long)r->counters.nodes, (int)r->value, r->best_move);
}

static int run(const cutoff_game_t *game, const cutoff_config_t *cfg, const void *root,
               const cutoff_limits_t *lim, cutoff_result_t *r)
{
	int err = 0;
	cutoff_engine_t *e = cutoff_engine_new(game, cfg, &err);
	if (!e)
		return err;
	int rc = cutoff_engine_search(e, root, lim, r, NULL, NULL);
	cutoff_engine_free(e);
	return rc;
}

static const pin_t pins[] = {
	{ "chess startpos d7", 307187, 15, 1804 },
	{ "chess kiwipete d6", 756288, -11, 2851 },
	{ "chess startpos d8 pruning", 230089, 3, 1804 },
	{ "chess kiwipete d7 pruning", 1238705, -14, 2851 },
	{ "connect4 3246313 weak", 1653531, -1, 2 },
	{ "rtree iid ab b6 d8 s1", 115536, -56, 5 },
	{ "rtree inc pvs b8 d8 s2", 25162, -18, 1 },
	{ "rtree inc mtdf b8 d8 s3", 24565, 2, 7 },
	{ "ttt minimax", 549946, 0, 0 },
	{ "ttt pvs table", 6401, 0, 0 },
};

static void chess(int *next)
{
	cutoff_chess_t *chess = cutoff_chess_new(NULL);
	static const char *fens[] = {
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	};
	static const int depth[2][2] = { { 7, 6 }, { 8, 7 } };
	for (int pruning = 0; pruning < 2; pruning++)
		for (int i = 0; i < 2; i++) {
			cutoff_chess_state_t st;
			cutoff_result_t r;
			CHECK(cutoff_chess_parse_fen(chess, fens[i], &st, NULL, 0) == 0, "FEN %d",
			      i);
			cutoff_config_t cfg;
			cutoff_config_default(&cfg);
			cfg.pruning = pruning ? CUTOFF_PRUNE_ALL : CUTOFF_PRUNE_NONE;
			cutoff_limits_t lim;
			cutoff_limits_default(&lim);
			lim.depth = depth[pruning][i];
			lim.iterate = true;
			int rc = run(cutoff_chess_game(chess), &cfg, &st, &lim, &r);
			compare(&pins[(*next)++], &r, rc);
		}
	cutoff_chess_free(chess);
}

static void connect4(int *next)
{
	cutoff_connect4_state_t st;
	cutoff_result_t r;
	char err[128];
	CHECK(cutoff_connect4_parse("3246313", &st, err, sizeof err) == 0, "moves: %s", err);
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.tt_mb = 4;
	cfg.ordering = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS;
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.alpha = -1;
	lim.beta = 1;
	lim.depth = cutoff_connect4_depth(&st, -1, 1);
	int rc = run(cutoff_connect4_game(), &cfg, &st, &lim, &r);
	compare(&pins[(*next)++], &r, rc);
}

static void rtree(int *next, cutoff_rtree_model_t model, cutoff_algo_t algo, int branching,
                  uint64_t seed, size_t tt_mb, unsigned ordering)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = branching;
	p.depth = 8;
	p.model = model;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	cutoff_rtree_state_t root;
	cutoff_rtree_root(tree, seed, &root);
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.algo = algo;
	cfg.tt_mb = tt_mb;
	cfg.ordering = ordering;
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = 8;
	lim.iterate = tt_mb > 0;
	cutoff_result_t r;
	int rc = run(cutoff_rtree_game(tree), &cfg, &root, &lim, &r);
	compare(&pins[(*next)++], &r, rc);
	cutoff_rtree_free(tree);
}

/* Tic-tac-toe from the empty board: plain negamax in square order (the classic 549,946
 * positions), and PVS with a table and every ordering heuristic, iterating. */
static void ttt(int *next)
{
	cutoff_ttt_state_t st;
	cutoff_ttt_start(&st);
	for (int k = 0; k < 2; k++) {
		cutoff_config_t cfg;
		cutoff_config_default(&cfg);
		cfg.algo = k == 0 ? CUTOFF_ALGO_MINIMAX : CUTOFF_ALGO_PVS;
		cfg.tt_mb = k == 0 ? 0 : 1;
		cfg.ordering = k == 0 ? CUTOFF_ORDER_NONE : CUTOFF_ORDER_ALL;
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = 9;
		lim.iterate = k == 1;
		cutoff_result_t r;
		int rc = run(cutoff_ttt_game(), &cfg, &st, &lim, &r);
		compare(&pins[(*next)++], &r, rc);
	}
}

int main(int argc, char **argv)
{
	print_only = argc > 1 && strcmp(argv[1], "--print") == 0;
	int next = 0;
	chess(&next);
	connect4(&next);
	rtree(&next, CUTOFF_RTREE_IID, CUTOFF_ALGO_ALPHABETA, 6, 1, 0, CUTOFF_ORDER_NONE);
	rtree(&next, CUTOFF_RTREE_INCREMENTAL, CUTOFF_ALGO_PVS, 8, 2, 16, CUTOFF_ORDER_ALL);
	rtree(&next, CUTOFF_RTREE_INCREMENTAL, CUTOFF_ALGO_MTDF, 8, 3, 16, CUTOFF_ORDER_ALL);
	ttt(&next);
	CHECK(next == (int)(sizeof pins / sizeof pins[0]), "every pin was searched");
	return print_only ? 0 : check_report();
}
