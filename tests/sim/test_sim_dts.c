/* SPDX-License-Identifier: MIT */
/*
 * test_sim_dts.c — the DTS driver's own mechanism on virtual threads (the library compiled
 * with CUTOFF_SIM, default cost model, clock schedule): that no thread waits at a join, and
 * that what it does instead keeps every value exact.
 *
 *   - random trees of depth 9 at 4, 16, 64 and 256 virtual threads: every value the
 *     brute-force oracle's, and over the runs at each count, helpers came (dts_helps),
 *     owners parked with helpers still busy (dts_parks), and parked searches were carried
 *     on by the helper that finished last (dts_steals): a driver whose owners waited for
 *     their helpers would count no park and no steal;
 *   - the same at 64 threads with 2 fibers a thread, the fewest (an idle thread that finds
 *     work but no free fiber counts dts_no_fiber and looks again): still exact;
 *   - Connect Four endgames solved with the window -1,1 at 16 threads: the serial value.
 */
#include "counter.h"
#include "test_sim_util.h"

#include "cutoff_connect4.h"

enum {
	ROOTS = 6,
	DEPTH = 9
};

/* The DTS counters summed over one search. */
typedef struct dts_sum {
	uint64_t helps, parks, steals, no_fiber;
} dts_sum_t;

static void add(dts_sum_t *s, const cutoff_result_t *r)
{
	s->helps += COUNTER(&r->counters, "dts_helps");
	s->parks += COUNTER(&r->counters, "dts_parks");
	s->steals += COUNTER(&r->counters, "dts_steals");
	s->no_fiber += COUNTER(&r->counters, "dts_no_fiber");
}

/* ROOTS random trees at `threads` virtual threads with `fibers` a thread; the wrong
 * answers, and the counters summed into *sum. */
static int trees(cutoff_rtree_t *tree, const int32_t *truth, int threads, int fibers,
                 dts_sum_t *sum)
{
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	cutoff_sim_t *sim = sim_start(NULL, CUTOFF_SIM_CLOCK, 1);
	cutoff_config_t cfg = sim_config(sim_driver("dts"), threads, CUTOFF_ALGO_PVS, 4);
	cfg.dts_min_split_depth = 2;
	cfg.dts_min_split_nodes = 1;
	cfg.dts_fibers = fibers;
	cutoff_engine_t *e = sim_engine(g, &cfg);
	int wrong = 0;
	static cutoff_result_t r;
	for (int k = 0; e && k < ROOTS; k++) {
		cutoff_rtree_state_t root;
		cutoff_rtree_root(tree, 100 + (uint64_t)k, &root);
		int rc = sim_search(e, &root, DEPTH, true, &r);
		const char *why = sim_rtree_wrong(g, &root, DEPTH, truth[k], rc, &r);
		if (why) {
			printf("  dts x%d (%d fibers) root %d: %s (value %d, truth %d)\n", threads,
			       fibers, k, why, (int)r.value, (int)truth[k]);
			wrong++;
		}
		add(sum, &r);
	}
	cutoff_engine_free(e);
	sim_stop(sim);
	return wrong;
}

int main(void)
{
	sim_topology_load();
	cutoff_rtree_params_t params;
	cutoff_rtree_params_default(&params);
	params.branching = 6;
	params.depth = DEPTH;
	cutoff_rtree_t *tree = cutoff_rtree_new(&params, NULL);
	CHECK(tree != NULL, "a random tree");
	if (!tree)
		return check_report();
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	int32_t truth[ROOTS];
	for (int k = 0; k < ROOTS; k++) {
		cutoff_rtree_state_t root;
		cutoff_rtree_root(tree, 100 + (uint64_t)k, &root);
		truth[k] = oracle_negamax(g, &root, DEPTH);
	}

	static const int counts[] = { 4, 16, 64, 256 };
	for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
		dts_sum_t sum = { 0 };
		int wrong = trees(tree, truth, counts[c], 4, &sum);
		CHECK(wrong == 0, "dts x%d: %d of %d random trees answered wrong", counts[c], wrong,
		      ROOTS);
		CHECK(sum.helps > 0 && sum.parks > 0 && sum.steals > 0,
		      "dts x%d: helpers came (%llu), owners parked (%llu) and the last helper "
		      "carried a parked search on (%llu)",
		      counts[c], (unsigned long long)sum.helps, (unsigned long long)sum.parks,
		      (unsigned long long)sum.steals);
		printf("dts x%d: %d trees exact; %llu visits, %llu parks, %llu carried on by the "
		       "last helper\n",
		       counts[c], ROOTS, (unsigned long long)sum.helps,
		       (unsigned long long)sum.parks, (unsigned long long)sum.steals);
	}

	dts_sum_t few = { 0 };
	int wrong = trees(tree, truth, 64, 2, &few);
	CHECK(wrong == 0, "dts x64 with 2 fibers a thread: %d of %d trees wrong", wrong, ROOTS);
	printf("dts x64, 2 fibers a thread: exact, %llu looks found no free fiber\n",
	       (unsigned long long)few.no_fiber);

	/* Connect Four: weak solves of endgames, the serial value at 16 threads. */
	uint64_t rng = 5;
	int solved = 0, differ = 0;
	for (int tries = 0; solved < 4 && tries < 1000; tries++) {
		cutoff_connect4_state_t p;
		cutoff_connect4_start(&p);
		while (!p.known && p.stones < CUTOFF_CONNECT4_CELLS - 18)
			cutoff_connect4_play(&p, (int)(splitmix64(&rng) % CUTOFF_CONNECT4_WIDTH));
		if (p.known)
			continue;
		int32_t v[2];
		for (int par = 0; par < 2; par++) {
			cutoff_sim_t *sim = sim_start(NULL, CUTOFF_SIM_CLOCK, 1);
			cutoff_config_t cfg =
				sim_config(par ? sim_driver("dts") : CUTOFF_DRIVER_SERIAL,
			                   par ? 16 : 1, CUTOFF_ALGO_PVS, 4);
			cfg.dts_min_split_depth = 4;
			cfg.dts_min_split_nodes = 1;
			cutoff_engine_t *e = sim_engine(cutoff_connect4_game(), &cfg);
			cutoff_limits_t lim;
			cutoff_limits_default(&lim);
			lim.alpha = -1;
			lim.beta = 1;
			lim.solve = true;
			static cutoff_result_t r;
			int rc = e ? cutoff_engine_search(e, &p, &lim, &r, NULL, NULL)
			           : CUTOFF_ENOMEM;
			v[par] = rc == CUTOFF_OK ? r.value : INT32_MIN;
			cutoff_engine_free(e);
			sim_stop(sim);
		}
		solved++;
		differ += v[0] == INT32_MIN || (v[0] > 0) != (v[1] > 0) || (v[0] < 0) != (v[1] < 0);
	}
	CHECK(solved > 0 && differ == 0, "dts x16: %d of %d Connect Four weak solves differ",
	      differ, solved);
	printf("connect four: %d weak solves at 16 threads, the serial result\n", solved);
	cutoff_rtree_free(tree);
	sim_topology_free();
	return check_report();
}
