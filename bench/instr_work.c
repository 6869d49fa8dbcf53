/*
 * instr_work.c — fixed serial workloads whose instructions instructions.sh counts under
 * callgrind, to compare two builds of the library (a change's cost per node where timing
 * is too noisy to tell: callgrind's counts do not depend on the machine's load). Built
 * against a libcutoff.a by instructions.sh; prints "NODES" for the workload named by its
 * argument:
 *
 *   chess      three positions, iterative deepening to depth 6, PVS, 16 MiB table, the
 *              default ordering and extensions, no pruning
 *   connect4   the weak solve of 3246313 (PVS, 4 MiB, table move and hints), 1.96 M nodes
 *   tree-ab    20 random trees b=8 d=8, alpha-beta, no table, the tree's order
 *   tree-pvs   20 random trees b=8 d=8, PVS, 16 MiB table, all ordering
 *   ttt        plain negamax over the whole game of tic-tac-toe, 549,946 nodes
 */
#include <cutoff.h>
#include <cutoff_chess.h>
#include <cutoff_connect4.h>
#include <cutoff_games.h>
#include <stdio.h>
#include <string.h>

static cutoff_result_t r;

static uint64_t run(const cutoff_game_t *g, const cutoff_config_t *cfg, const void *root,
                    const cutoff_limits_t *lim)
{
	cutoff_engine_t *e = cutoff_engine_new(g, cfg, NULL);
	if (!e || cutoff_engine_search(e, root, lim, &r, NULL, NULL) < 0)
		return 0;
	cutoff_engine_free(e);
	return r.counters.nodes;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "chess";
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	uint64_t nodes = 0;
	if (strcmp(mode, "chess") == 0) {
		const char *fens[] = {
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
			"r1bq1rk1/pp2bppp/2n2n2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8",
		};
		cutoff_chess_t *chess = cutoff_chess_new(NULL);
		lim.depth = 6;
		lim.iterate = true;
		for (int i = 0; i < 3; i++) {
			cutoff_chess_state_t st;
			cutoff_chess_parse_fen(chess, fens[i], &st, NULL, 0);
			nodes += run(cutoff_chess_game(chess), &cfg, &st, &lim);
		}
		cutoff_chess_free(chess);
	} else if (strcmp(mode, "connect4") == 0) {
		cutoff_connect4_state_t st;
		cutoff_connect4_parse("3246313", &st, NULL, 0);
		cfg.tt_mb = 4;
		cfg.ordering = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS;
		lim.alpha = -1;
		lim.beta = 1;
		lim.depth = cutoff_connect4_depth(&st, -1, 1);
		nodes = run(cutoff_connect4_game(), &cfg, &st, &lim);
	} else if (strcmp(mode, "ttt") == 0) {
		cutoff_ttt_state_t st;
		cutoff_ttt_start(&st);
		cfg.algo = CUTOFF_ALGO_MINIMAX;
		cfg.tt_mb = 0;
		cfg.ordering = CUTOFF_ORDER_NONE;
		lim.depth = 9;
		nodes = run(cutoff_ttt_game(), &cfg, &st, &lim);
	} else {
		bool ab = strcmp(mode, "tree-ab") == 0;
		cutoff_rtree_params_t p;
		cutoff_rtree_params_default(&p);
		p.branching = 8;
		p.depth = 8;
		cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
		cfg.algo = ab ? CUTOFF_ALGO_ALPHABETA : CUTOFF_ALGO_PVS;
		cfg.tt_mb = ab ? 0 : 16;
		cfg.ordering = ab ? CUTOFF_ORDER_NONE : CUTOFF_ORDER_ALL;
		lim.depth = 8;
		for (uint64_t seed = 1; seed <= 20; seed++) {
			cutoff_rtree_state_t root;
			cutoff_rtree_root(tree, seed, &root);
			nodes += run(cutoff_rtree_game(tree), &cfg, &root, &lim);
		}
		cutoff_rtree_free(tree);
	}
	printf("%llu\n", (unsigned long long)nodes);
	return nodes ? 0 : 1;
}
