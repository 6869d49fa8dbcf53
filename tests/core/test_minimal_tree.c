/* SPDX-License-Identifier: MIT */
/*
 * The minimal-tree identity (Knuth and Moore, 1975): with perfect move ordering, fail-soft
 * alpha-beta over a uniform tree of branching b and depth d reads exactly
 * b^ceil(d/2) + b^floor(d/2) - 1 leaves. Checked for every b in 2..8 and d in 1..7 on
 * random trees whose children come in oracle order, for alpha-beta and PVS (which reads
 * the same tree when the first move is always best), on several seeds, with the value
 * checked against the oracle too.
 */
#include <hwloc.h>

#include "base/topo.h"
#include "check.h"
#include "cutoff_games.h"

static hwloc_topology_t topology;

int main(void)
{
	int combos = 0;
	cutoff_topology_load((void **)&topology); /* quiet where sysfs is missing */
	for (int b = 2; b <= 8; b++)
		for (int d = 1; d <= 7; d++) {
			cutoff_rtree_params_t p;
			cutoff_rtree_params_default(&p);
			p.branching = b;
			p.depth = d;
			p.order = CUTOFF_RTREE_BEST;
			cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
			uint64_t minimal = cutoff_minimal_tree(b, d);
			for (int algo = CUTOFF_ALGO_ALPHABETA; algo <= CUTOFF_ALGO_PVS; algo++) {
				cutoff_config_t cfg;
				cutoff_config_default(&cfg);
				cfg.algo = (cutoff_algo_t)algo;
				cfg.tt_mb = 0;
				cfg.ordering =
					CUTOFF_ORDER_NONE; /* the oracle's order, untouched */
				cfg.topology =
					topology; /* loaded once: engines are made by the thousand */
				cutoff_engine_t *e =
					cutoff_engine_new(cutoff_rtree_game(tree), &cfg, NULL);
				int seeds = b * d > 40 ? 2 : 5;
				for (int seed = 1; seed <= seeds; seed++) {
					cutoff_rtree_state_t root;
					cutoff_limits_t lim;
					cutoff_result_t r;
					cutoff_rtree_root(tree, (uint64_t)seed, &root);
					cutoff_limits_default(&lim);
					lim.depth = d;
					int rc = cutoff_engine_search(e, &root, &lim, &r, NULL,
					                              NULL);
					CHECK(rc == 0 && r.counters.leaves == minimal,
					      "%s b=%d d=%d seed=%d: %llu leaves, minimal tree "
					      "%llu",
					      algo == CUTOFF_ALGO_PVS ? "pvs" : "alphabeta", b, d,
					      seed, (unsigned long long)r.counters.leaves,
					      (unsigned long long)minimal);
					CHECK(r.value == cutoff_rtree_value(tree, &root),
					      "b=%d d=%d seed=%d: value", b, d, seed);
				}
				cutoff_engine_free(e);
			}
			cutoff_rtree_free(tree);
			combos++;
		}
	printf("minimal tree: %d (b, d) pairs, alpha-beta and PVS with oracle order\n", combos);
	cutoff_topology_free(topology);
	return check_report();
}
