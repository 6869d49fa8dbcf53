/* SPDX-License-Identifier: MIT */
/*
 * test_ybw_oversubscribed.c — YBW with many more threads than CPUs (issue 43, item 9):
 * about as many threads search at once as the process has CPUs, the others sleep.
 *
 * Before, 64 threads on 2 CPUs took 30 times the 2-thread time: every split point booked
 * up to 8 helpers, most of them waiting for a CPU, and its owner waited for the slowest.
 * Checked without a clock, by the split points: the process is pinned to K CPUs
 * (sched_setaffinity, before the engine is made, so that its threads inherit it) and an
 * engine of 64 YBW threads searches random trees to their leaves, 4 times each:
 *   - every search answers the tree's true value (cutoff_rtree_value);
 *   - on 1 CPU no split point is ever made (the searching thread is the one CPU's);
 *   - on 2 CPUs (when the process may run on 2) no split point books more than one
 *     helper (split_helpers <= splits, the owner being the other searching thread).
 * Before the fix, 1 CPU made split points in every search and booked up to 8 helpers each.
 *
 * cutoff-test-labels: concurrent
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_* */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "counter.h"
#include "cutoff.h"
#include "cutoff_games.h"

enum {
	THREADS = 64,
	SEARCHES = 4
};

/* Pins the process to the first k CPUs of `all`: false when it has fewer. */
static bool pin(int k, const cpu_set_t *all)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	int n = 0;
	for (int c = 0; c < CPU_SETSIZE && n < k; c++)
		if (CPU_ISSET(c, all)) {
			CPU_SET(c, &set);
			n++;
		}
	return n == k && sched_setaffinity(0, sizeof(set), &set) == 0;
}

/* SEARCHES searches of the tree by 64 YBW threads on `cpus` CPUs. */
static void oversubscribed(int cpus, const cutoff_rtree_t *tree, int depth)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = CUTOFF_DRIVER_YBW;
	cfg.threads = THREADS;
	cfg.ybw_min_split_depth = 2;
	cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
	cfg.dts_min_split_nodes = 1;
	uint64_t splits = 0, helpers = 0;
	for (int k = 0; k < SEARCHES; k++) {
		cutoff_engine_t *e = cutoff_engine_new(cutoff_rtree_game(tree), &cfg, NULL);
		CHECK(e != NULL, "an engine of %d YBW threads", THREADS);
		if (!e)
			return;
		cutoff_rtree_state_t root;
		cutoff_rtree_root(tree, 100 + (uint64_t)k, &root);
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = depth;
		cutoff_result_t r;
		memset(&r, 0, sizeof(r));
		int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
		int32_t truth = cutoff_rtree_value(tree, &root);
		CHECK(rc == CUTOFF_OK && r.value == truth && r.bound == CUTOFF_BOUND_EXACT,
		      "%d CPU(s), search %d: rc %d, value %d (want %d)", cpus, k, rc, (int)r.value,
		      (int)truth);
		splits += COUNTER(&r.counters, "splits");
		helpers += COUNTER(&r.counters, "split_helpers");
		cutoff_engine_free(e);
	}
	if (cpus == 1)
		CHECK(splits == 0, "1 CPU, %d threads: %llu split points in %d searches (want 0)",
		      THREADS, (unsigned long long)splits, SEARCHES);
	else
		CHECK(helpers <= splits * (uint64_t)(cpus - 1),
		      "%d CPUs, %d threads: %llu helpers booked at %llu split points (want at most "
		      "%d each)",
		      cpus, THREADS, (unsigned long long)helpers, (unsigned long long)splits,
		      cpus - 1);
	printf("%d CPU(s), %d YBW threads: %llu split points, %llu helpers booked\n", cpus, THREADS,
	       (unsigned long long)splits, (unsigned long long)helpers);
}

int main(void)
{
	cpu_set_t all;
	CHECK(sched_getaffinity(0, sizeof(all), &all) == 0, "sched_getaffinity");
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 6;
	p.depth = 7;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	CHECK(tree != NULL, "tree");
	if (tree) {
		for (int cpus = 1; cpus <= 2; cpus++) {
			if (pin(cpus, &all))
				oversubscribed(cpus, tree, p.depth);
			else
				printf("%d CPUs: not available to this process, skipped\n", cpus);
		}
		cutoff_rtree_free(tree);
	}
	sched_setaffinity(0, sizeof(all), &all);
	return check_report();
}
