/* SPDX-License-Identifier: MIT */
/*
 * Chess through the parallel drivers: at a fixed depth, with quiescence and check
 * extensions (exact), without speculative pruning, and with the table used for move
 * ordering only (chess values through a cutting table depend on the path and on timing),
 * YBW and lazy SMP return exactly the serial value at 1, 2, 3, 4 and 8 threads; and
 * mates in 2 and in 3 are found, at their exact distance and with their one mating first
 * move, by every driver at every thread count, with speculative pruning off and on.
 *
 * Positions: the start position, "Kiwipete" and positions 3-5 of the Chess Programming
 * Wiki's perft page (https://www.chessprogramming.org/Perft_Results). The mates are common
 * puzzles, checked with Stockfish 15.1 (`go depth 16` with MultiPV 3: the only mating
 * first move, at that distance): 1. Nf6+ gxf6 2. Bxf7#; 1. Qd8+ Bxd8 2. Re8#; and
 * 1. Ra6 f6 (or anything) 2. Bxf6+ Rg7 3. Rxa8#.
 *
 * cutoff-test-labels: concurrent chess
 * cutoff-test-timeout: 600
 */
#include <string.h>

#include "base/topo.h"
#include "check.h"
#include "cutoff_games.h"

static const char *const positions[] = {
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
};

static const struct {
	const char *fen;
	int plies; /* to the mate: the value is CUTOFF_WIN - plies */
	const char *move;
} mates[] = {
	{ "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 3, "d5f6" },
	{ "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", 3, "d5d8" },
	{ "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 5, "f6a6" },
};

static void *topology;

static int32_t search(const cutoff_chess_t *chess, cutoff_driver_t driver, int threads,
                      cutoff_algo_t algo, unsigned pruning, const cutoff_chess_state_t *root,
                      int depth, cutoff_move_t *best)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = driver;
	cfg.threads = threads;
	cfg.algo = algo;
	cfg.tt_mb = 4;
	/* Exactness: no pruning, the table for ordering only. Play (pruning on): the table
	 * cuts too, as it does for a chess engine. */
	cfg.tt_cutoffs = pruning != CUTOFF_PRUNE_NONE;
	cfg.pruning = pruning;
	cfg.topology = topology;
	cutoff_engine_t *e = cutoff_engine_new(cutoff_chess_game(chess), &cfg, NULL);
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = depth;
	lim.iterate = true;
	cutoff_result_t r;
	int rc = e ? cutoff_engine_search(e, root, &lim, &r, NULL, NULL) : -1;
	cutoff_engine_free(e);
	if (best)
		*best = rc == 0 ? r.best_move : CUTOFF_MOVE_NONE;
	return rc == 0 && r.bound == CUTOFF_BOUND_EXACT ? r.value : -99999;
}

int main(void)
{
	static const int threads[] = { 1, 2, 3, 4, 8 };
	cutoff_topology_load(&topology);
	cutoff_chess_t *chess = cutoff_chess_new(NULL);
	char err[128];
	int runs = 0, wrong = 0;

	for (size_t p = 0; p < sizeof(positions) / sizeof(positions[0]); p++) {
		cutoff_chess_state_t root;
		CHECK(cutoff_chess_parse_fen(chess, positions[p], &root, err, sizeof(err)) == 0,
		      "FEN %zu: %s", p, err);
		for (int algo = CUTOFF_ALGO_ALPHABETA; algo <= CUTOFF_ALGO_PVS; algo++) {
			int32_t serial = search(chess, CUTOFF_DRIVER_SERIAL, 1, (cutoff_algo_t)algo,
			                        CUTOFF_PRUNE_NONE, &root, 4, NULL);
			for (int d = CUTOFF_DRIVER_LAZYSMP; d < cutoff_driver_count(); d++)
				for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
					int32_t v = search(chess, (cutoff_driver_t)d, threads[t],
					                   (cutoff_algo_t)algo, CUTOFF_PRUNE_NONE,
					                   &root, 4, NULL);
					runs++;
					if (v != serial) {
						wrong++;
						printf("  position %zu algo %d driver %d threads "
						       "%d: %d, serial %d\n",
						       p, algo, d, threads[t], (int)v, (int)serial);
					}
				}
			printf("position %zu algo %d: serial value %d at depth 4\n", p, algo,
			       (int)serial);
		}
	}
	printf("chess exactness: %d parallel searches, %d differ from the serial value\n", runs,
	       wrong);
	CHECK(wrong == 0, "YBW and lazy SMP equal the serial value on chess at depth 4");

	/* Mates: every driver and thread count, exact and as played (pruning on, the table
	 * cutting: a mate's distance must survive both), two plies beyond the mate. */
	int searched = 0, misses = 0;
	for (size_t m = 0; m < sizeof(mates) / sizeof(mates[0]); m++) {
		cutoff_chess_state_t root;
		CHECK(cutoff_chess_parse_fen(chess, mates[m].fen, &root, err, sizeof(err)) == 0,
		      "mate FEN %zu: %s", m, err);
		for (unsigned pruning = CUTOFF_PRUNE_NONE; pruning <= CUTOFF_PRUNE_ALL;
		     pruning += CUTOFF_PRUNE_ALL)
			for (int d = CUTOFF_DRIVER_SERIAL; d < cutoff_driver_count(); d++)
				for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
					if (d == CUTOFF_DRIVER_SERIAL && threads[t] > 1)
						continue;
					cutoff_move_t best;
					int32_t v = search(chess, (cutoff_driver_t)d, threads[t],
					                   CUTOFF_ALGO_PVS, pruning, &root,
					                   mates[m].plies + 2, &best);
					char text[8] = "";
					cutoff_chess_move_str(best, text, sizeof(text));
					searched++;
					if (v != CUTOFF_WIN - mates[m].plies ||
					    strcmp(text, mates[m].move) != 0) {
						misses++;
						printf("  mate %zu: pruning %u driver %d threads "
						       "%d: value %d, "
						       "move %s\n",
						       m, pruning, d, threads[t], (int)v, text);
					}
				}
		printf("mate in %d (%s): found\n", (mates[m].plies + 1) / 2, mates[m].move);
	}
	printf("mates: %d searches, %d missed\n", searched, misses);
	CHECK(misses == 0, "every driver finds the mates in 2 and 3 at their distance");

	/* A proven mate ends the iterations: asked for depth 20, the search of a mate in 2
	 * (3 plies) stops after depth 3 without pruning, depth 6 with it, for every driver. */
	{
		cutoff_chess_state_t root;
		CHECK(cutoff_chess_parse_fen(chess, mates[0].fen, &root, err, sizeof(err)) == 0,
		      "%s", err);
		for (unsigned pruning = CUTOFF_PRUNE_NONE; pruning <= CUTOFF_PRUNE_ALL;
		     pruning += CUTOFF_PRUNE_ALL)
			for (int d = CUTOFF_DRIVER_SERIAL; d < cutoff_driver_count(); d++) {
				cutoff_config_t cfg;
				cutoff_config_default(&cfg);
				cfg.driver = (cutoff_driver_t)d;
				cfg.threads = d == CUTOFF_DRIVER_SERIAL ? 1 : 3;
				cfg.pruning = pruning;
				cfg.tt_mb = 4;
				cfg.topology = topology;
				cutoff_engine_t *e =
					cutoff_engine_new(cutoff_chess_game(chess), &cfg, NULL);
				cutoff_limits_t lim;
				cutoff_limits_default(&lim);
				lim.depth = 20;
				lim.iterate = true;
				cutoff_result_t r;
				int rc = e ? cutoff_engine_search(e, &root, &lim, &r, NULL, NULL)
				           : -1;
				/* Lazy SMP answers with the thread that proved it first, which may
				 * have skipped that depth and proved it one or two deeper. */
				int want = pruning ? 6 : 3;
				int slack = d == CUTOFF_DRIVER_LAZYSMP ? 2 : 0;
				CHECK(rc == 0 && !r.stopped && r.value == CUTOFF_WIN - 3 &&
				              r.depth >= want && r.depth <= want + slack,
				      "driver %d pruning %u: a proven mate ends the search at "
				      "depth %d (rc %d, "
				      "depth %d, value %d)",
				      d, pruning, want, rc, rc == 0 ? r.depth : -1,
				      rc == 0 ? (int)r.value : 0);
				cutoff_engine_free(e);
			}
	}

	cutoff_chess_free(chess);
	cutoff_topology_free(topology);
	return check_report();
}
