/* SPDX-License-Identifier: MIT */
/*
 * ABDADA's own behaviour, beside the exactness every driver gets elsewhere (test_parallel,
 * test_lazysmp_exact, test_chaos, test_connect4, test_chess_search, test_noalloc):
 *   - the mechanism works: on random trees searched by 1, 2, 4 and 16 threads every
 *     answer is the tree's true value, one thread never defers, and several threads
 *     defer moves others are searching and come back to them in second passes (whether
 *     two threads meet at a move depends on the scheduler: on a loaded machine the
 *     threads of one engine may seldom run at once, so this is asked of as many
 *     searches at 4 threads as 60 seconds allow, at least 200, where a thread preempted
 *     inside a move keeps its mark);
 *   - its figures add up: the deferred moves answered by the table, those still busy when
 *     revisited, and the second passes are each at most the deferred moves;
 *   - a mark never outlives its search: the driver asserts, before every search, that the
 *     side table is empty (in the builds with asserts, make asan and make tsan), and the
 *     stops below end searches in the middle of moves.
 *
 * cutoff-test-labels: concurrent
 */
#include <time.h>

#include "check.h"
#include "counter.h"
#include "cutoff_games.h"

static cutoff_engine_t *make(const cutoff_game_t *g, int threads, cutoff_abdada_variant_t variant,
                             int min_depth)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = CUTOFF_DRIVER_ABDADA;
	cfg.threads = threads;
	cfg.abdada_variant = variant;
	cfg.abdada_min_depth = min_depth;
	cfg.tt_mb = 2;
	int err;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	CHECK(e != NULL, "engine (%d threads): %s", threads, cutoff_strerror(err));
	return e;
}

static void mechanism(cutoff_abdada_variant_t variant)
{
	static const int thread_counts[] = { 1, 2, 4, 16 };
	const char *name = variant == CUTOFF_ABDADA_CLASSIC ? "classic" : "simplified";
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 8;
	p.depth = 8;
	p.model = CUTOFF_RTREE_INCREMENTAL;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	for (size_t ti = 0; ti < sizeof thread_counts / sizeof(int); ti++) {
		int threads = thread_counts[ti], wrong = 0;
		cutoff_counters_t sum = { 0 };
		cutoff_engine_t *e = make(g, threads, variant, 2);
		for (int seed = 1; e && seed <= 6; seed++) {
			cutoff_rtree_state_t root;
			cutoff_result_t r;
			cutoff_limits_t lim;
			cutoff_limits_default(&lim);
			lim.depth = p.depth;
			lim.iterate = seed % 2 == 0;
			cutoff_rtree_root(tree, (uint64_t)seed, &root);
			cutoff_engine_clear(e);
			int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
			wrong += rc != 0 || r.value != cutoff_rtree_value(tree, &root) ||
			         r.bound != CUTOFF_BOUND_EXACT;
			cutoff_counters_add(&sum, &r.counters);
		}
		cutoff_engine_free(e);
		printf("%s x%d: 6 searches, %d wrong; deferred %llu (answered by the table %llu, "
		       "still busy %llu), second passes %llu, collisions %llu\n",
		       name, threads, wrong, (unsigned long long)COUNTER(&sum, "deferred"),
		       (unsigned long long)COUNTER(&sum, "deferred_tt"),
		       (unsigned long long)COUNTER(&sum, "deferred_busy"),
		       (unsigned long long)COUNTER(&sum, "second_passes"),
		       (unsigned long long)COUNTER(&sum, "busy_collisions"));
		CHECK(wrong == 0, "%s x%d: every value is the tree's", name, threads);
		CHECK(COUNTER(&sum, "deferred_tt") <= COUNTER(&sum, "deferred") &&
		              COUNTER(&sum, "deferred_busy") <= COUNTER(&sum, "deferred") &&
		              COUNTER(&sum, "second_passes") <= COUNTER(&sum, "deferred"),
		      "%s x%d: the figures add up", name, threads);
		if (threads == 1)
			CHECK(COUNTER(&sum, "deferred") == 0, "%s: one thread never defers", name);
	}

	int searches = 0;
	cutoff_counters_t sum = { 0 };
	cutoff_engine_t *e = make(g, 4, variant, 2);
	const time_t give_up = time(NULL) + 60;
	for (; e && (searches < 200 || time(NULL) < give_up) &&
	       (COUNTER(&sum, "deferred") == 0 || COUNTER(&sum, "second_passes") == 0);
	     searches++) {
		cutoff_rtree_state_t root;
		cutoff_result_t r;
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = p.depth;
		cutoff_rtree_root(tree, (uint64_t)searches + 100, &root);
		cutoff_engine_clear(e);
		if (cutoff_engine_search(e, &root, &lim, &r, NULL, NULL) == 0)
			cutoff_counters_add(&sum, &r.counters);
	}
	cutoff_engine_free(e);
	printf("%s x4: moves deferred and revisited after %d searches\n", name, searches);
	CHECK(COUNTER(&sum, "deferred") > 0 && COUNTER(&sum, "second_passes") > 0,
	      "%s x4: threads defer moves others are searching (%d searches)", name, searches);
	cutoff_rtree_free(tree);
}

/* Searches stopped by a node limit, in the middle of moves, then a search that must find
 * the side table empty (the driver's assert) and still be exact. */
static void stops(void)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 6;
	p.depth = 9;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	int wrong = 0;
	for (int v = 0; v < 2; v++) {
		cutoff_engine_t *e =
			make(cutoff_rtree_game(tree), 8, (cutoff_abdada_variant_t)v, 1);
		for (int k = 0; e && k < 20; k++) {
			cutoff_rtree_state_t root;
			cutoff_result_t r;
			cutoff_limits_t lim;
			cutoff_limits_default(&lim);
			lim.depth = p.depth;
			lim.nodes = 500 + 997 * (uint64_t)k;
			cutoff_rtree_root(tree, (uint64_t)k, &root);
			wrong += cutoff_engine_search(e, &root, &lim, &r, NULL, NULL) != 0;
			lim.nodes = 0;
			wrong += cutoff_engine_search(e, &root, &lim, &r, NULL, NULL) != 0 ||
			         r.value != cutoff_rtree_value(tree, &root);
		}
		cutoff_engine_free(e);
	}
	printf("stopped searches then full ones: 40 pairs, %d wrong\n", wrong);
	CHECK(wrong == 0, "after stopped searches the next search is exact");
	cutoff_rtree_free(tree);
}

int main(void)
{
	mechanism(CUTOFF_ABDADA_CLASSIC);
	mechanism(CUTOFF_ABDADA_SIMPLIFIED);
	stops();
	return check_report();
}
