/* SPDX-License-Identifier: MIT */
/*
 * profile_nps.c — serial nodes per second, to measure what the profiler costs
 * (docs/measurements.md, section (f)). Built against a libcutoff.a by profile_overhead.sh;
 * prints "NODES CPU-NPS WALL-NPS", the rate per CPU-second of the searching thread
 * (CLOCK_THREAD_CPUTIME_ID, so that time-sharing with other jobs does not count) and per
 * wall-clock second (the library's time_s). With NPS_WRITERS set in the environment the
 * engine is made with config.profile_tt_writers.
 *
 *   profile_nps chess [D]   three positions, iterative deepening to D (default 7), PVS,
 *                           16 MiB table, the default ordering and extensions
 *   profile_nps tree-ab     20 random trees b=8 d=8, alpha-beta, no table, the tree's order
 *   profile_nps tree-pvs    20 random trees b=8 d=8, PVS, 16 MiB table, all ordering
 *   profile_nps connect4    the weak solve of 3246313 (PVS, 4 MiB, table move and
 *                           hints), 1.96 M nodes
 *   profile_nps ttt         plain negamax over the whole game of tic-tac-toe, 549,946
 *                           nodes
 * bench/instructions.sh also runs these workloads, to count their instructions.
 */
#include <cutoff.h>
#include <cutoff_chess.h>
#include <cutoff_connect4.h>
#include <cutoff_games.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "chess";
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.profile_tt_writers = getenv("NPS_WRITERS") != NULL;
	uint64_t nodes = 0;
	double t = 0, wall = 0;
	if (strcmp(mode, "chess") == 0) {
		int depth = argc > 2 ? atoi(argv[2]) : 7;
		const char *fens[] = {
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
			"r1bq1rk1/pp2bppp/2n2n2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8",
		};
		cutoff_chess_t *chess = cutoff_chess_new(NULL);
		cutoff_engine_t *e = cutoff_engine_new(cutoff_chess_game(chess), &cfg, NULL);
		for (int i = 0; i < 3; i++) {
			cutoff_chess_state_t st;
			cutoff_chess_parse_fen(chess, fens[i], &st, NULL, 0);
			cutoff_engine_clear(e);
			cutoff_limits_t lim;
			cutoff_limits_default(&lim);
			lim.depth = depth;
			lim.iterate = true;
			cutoff_result_t r;
			double c0 = cpu();
			if (cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) < 0)
				return 1;
			t += cpu() - c0;
			wall += r.time_s;
			nodes += r.counters.nodes;
		}
		cutoff_engine_free(e);
		cutoff_chess_free(chess);
	} else if (strcmp(mode, "connect4") == 0 || strcmp(mode, "ttt") == 0) {
		bool c4 = mode[0] == 'c';
		_Alignas(16) unsigned char root[64];
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		if (c4) {
			cutoff_connect4_parse("3246313", (cutoff_connect4_state_t *)root, NULL, 0);
			cfg.tt_mb = 4;
			cfg.ordering = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS;
			lim.alpha = -1;
			lim.beta = 1;
			lim.depth = cutoff_connect4_depth((cutoff_connect4_state_t *)root, -1, 1);
		} else {
			cutoff_ttt_start((cutoff_ttt_state_t *)root);
			cfg.algo = CUTOFF_ALGO_MINIMAX;
			cfg.tt_mb = 0;
			cfg.ordering = CUTOFF_ORDER_NONE;
			lim.depth = 9;
		}
		cutoff_engine_t *e =
			cutoff_engine_new(c4 ? cutoff_connect4_game() : cutoff_ttt_game(), &cfg, NULL);
		cutoff_result_t r;
		double c0 = cpu();
		if (!e || cutoff_engine_search(e, root, &lim, &r, NULL, NULL) < 0)
			return 1;
		t += cpu() - c0;
		wall += r.time_s;
		nodes += r.counters.nodes;
		cutoff_engine_free(e);
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
		cutoff_engine_t *e = cutoff_engine_new(cutoff_rtree_game(tree), &cfg, NULL);
		for (uint64_t seed = 1; seed <= 20; seed++) {
			cutoff_rtree_state_t root;
			cutoff_rtree_root(tree, seed, &root);
			cutoff_engine_clear(e);
			cutoff_limits_t lim;
			cutoff_limits_default(&lim);
			lim.depth = 8;
			cutoff_result_t r;
			double c0 = cpu();
			if (cutoff_engine_search(e, &root, &lim, &r, NULL, NULL) < 0)
				return 1;
			t += cpu() - c0;
			wall += r.time_s;
			nodes += r.counters.nodes;
		}
		cutoff_engine_free(e);
		cutoff_rtree_free(tree);
	}
	printf("%llu %.0f %.0f\n", (unsigned long long)nodes, nodes / t, nodes / wall);
	return 0;
}
