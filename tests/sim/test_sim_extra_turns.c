/* SPDX-License-Identifier: MIT */
/*
 * test_sim_extra_turns.c — games where a player may move again (the game's side hook) on
 * virtual threads: every driver of the registry at 1, 2, 7, 16, 64, 128 and 256 virtual
 * threads (the library compiled with CUTOFF_SIM, default cost model, clock schedule), on
 * the bank game of extra_turns.h, where taking a cell of even value keeps the turn. Exact
 * searches only: a depth-limited search of 10 cells (6 plies, iterative deepening, with
 * quiescence on one position) and a solve of 9 (to the end, wins by distance), each with
 * PVS and MTD(f) and a table; every answer must be the brute-force oracle's value, bound
 * exact (and solved), with a best move that reaches it.
 *
 * Usage: test_sim_extra_turns [--threads N,N,...]
 */
#include "extra_turns.h"
#include "test_sim_util.h"

static const int default_counts[] = { 1, 2, 7, 16, 64, 128, 256 };
enum {
	MAX_COUNTS = 16,
	POSITIONS = 2
};

int main(int argc, char **argv)
{
	int counts[MAX_COUNTS], ncounts = 0;
	if (argc > 2 && strcmp(argv[1], "--threads") == 0) {
		for (char *p = argv[2]; *p && ncounts < MAX_COUNTS; p++) {
			counts[ncounts++] = (int)strtol(p, &p, 10);
			if (!*p)
				break;
		}
	} else {
		for (size_t i = 0; i < sizeof default_counts / sizeof default_counts[0]; i++)
			counts[ncounts++] = default_counts[i];
	}
	sim_topology_load();
	bank_t deep[POSITIONS], solve[POSITIONS];
	bank_state_t roots[POSITIONS], start = { 0, 0, 0 };
	int32_t deep_truth[POSITIONS], solve_truth[POSITIONS];
	for (int k = 0; k < POSITIONS; k++) {
		bank_make(&deep[k], 10, 300 + (uint64_t)k, false, k == 1 ? 7 : 0);
		roots[k] = bank_walk(&deep[k], 400 + (uint64_t)k, 1);
		deep_truth[k] = bank_negamax(&deep[k], &roots[k], 6, 0, true);
		bank_make(&solve[k], 9, 500 + (uint64_t)k, true, 0);
		solve_truth[k] = bank_negamax(&solve[k], &start, 10, 0, true);
	}
	int searches = 0, wrong = 0;
	for (int c = 0; c < ncounts; c++) {
		for (int d = 0; d < cutoff_driver_count(); d++) {
			cutoff_sim_t *sim = sim_start(NULL, CUTOFF_SIM_CLOCK, 1);
			for (int algo = CUTOFF_ALGO_PVS; algo <= CUTOFF_ALGO_MTDF; algo++)
				for (int k = 0; k < POSITIONS; k++)
					for (int mode = 0; mode < 2; mode++) {
						const bank_t *b = mode ? &solve[k] : &deep[k];
						cutoff_game_t g = bank_game(b);
						cutoff_config_t cfg =
							sim_config((cutoff_driver_t)d, counts[c],
						                   (cutoff_algo_t)algo, 1);
						cfg.ybw_min_split_depth = 2;
						cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
						cfg.dts_min_split_nodes = 1;
						cfg.abdada_min_depth = 2;
						cutoff_engine_t *e = sim_engine(&g, &cfg);
						if (!e)
							continue;
						cutoff_limits_t lim;
						cutoff_limits_default(&lim);
						lim.depth = mode ? 0 : 6;
						lim.solve = mode;
						lim.iterate = !mode;
						const bank_state_t *root =
							mode ? &start : &roots[k];
						cutoff_result_t r;
						int rc = cutoff_engine_search(e, root, &lim, &r,
						                              NULL, NULL);
						int32_t truth =
							mode ? solve_truth[k] : deep_truth[k];
						const char *why =
							bank_wrong(b, root, 6, mode, truth, rc, &r);
						searches++;
						if (why) {
							wrong++;
							printf("  %s x%d algo %d position %d %s: "
							       "%s "
							       "(value %d, oracle %d)\n",
							       cutoff_driver_name(
								       (cutoff_driver_t)d),
							       counts[c], algo, k,
							       mode ? "solve" : "depth 6", why,
							       (int)r.value, (int)truth);
						}
						cutoff_engine_free(e);
					}
			sim_stop(sim);
		}
		printf("%3d virtual threads: every driver, %d searches so far, %d wrong\n",
		       counts[c], searches, wrong);
	}
	CHECK(wrong == 0, "%d of %d exact searches with extra turns on virtual threads wrong",
	      wrong, searches);
	sim_topology_free();
	return check_report();
}
