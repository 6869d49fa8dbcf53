/* SPDX-License-Identifier: MIT */
/*
 * No allocation while a search runs: this test is linked with malloc, calloc, realloc and
 * aligned_alloc wrapped (-Wl,--wrap, tests/CMakeLists.txt), so every call the library
 * makes is counted; the count must not move during cutoff_engine_search — for every
 * driver and algorithm, with the table, quiescence, pruning and repetitions in play, on
 * several threads (more than cores). Engine creation allocates, and is outside the count.
 *
 * cutoff-test-labels: concurrent
 */
#include <stdlib.h>

#include "check.h"
#include "cutoff_games.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);

static int counting;
static int calls;

static void count(void)
{
	if (__atomic_load_n(&counting, __ATOMIC_RELAXED))
		__atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
}

void *__wrap_malloc(size_t n)
{
	count();
	return __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t size)
{
	count();
	return __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t n)
{
	count();
	return __real_realloc(p, n);
}
void *__wrap_aligned_alloc(size_t align, size_t n)
{
	count();
	return __real_aligned_alloc(align, n);
}

int main(void)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 6;
	p.depth = 8;
	p.model = CUTOFF_RTREE_INCREMENTAL;
	p.noisy_step = 60;
	p.null_moves = true;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	int searches = 0;
	for (int driver = CUTOFF_DRIVER_SERIAL; driver < cutoff_driver_count(); driver++)
		for (int algo = CUTOFF_ALGO_MINIMAX; algo <= CUTOFF_ALGO_MTDF; algo++) {
			cutoff_config_t cfg;
			cutoff_config_default(&cfg);
			cfg.driver = (cutoff_driver_t)driver;
			cfg.algo = (cutoff_algo_t)algo;
			cfg.threads = driver == CUTOFF_DRIVER_SERIAL ? 1 : 4;
			cfg.tt_mb = 1;
			cfg.pruning = CUTOFF_PRUNE_ALL;
			cfg.aspiration = 10;
			cfg.ybw_min_split_depth = 2;
			cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
			cfg.dts_min_split_nodes = 1;
			cutoff_engine_t *e = cutoff_engine_new(cutoff_rtree_game(tree), &cfg, NULL);
			for (int seed = 1; seed <= 3; seed++) {
				cutoff_rtree_state_t root;
				cutoff_rtree_root(tree, (uint64_t)seed, &root);
				cutoff_limits_t lim;
				cutoff_limits_default(&lim);
				lim.depth = algo == CUTOFF_ALGO_MINIMAX ? 5 : 7;
				lim.iterate = true;
				cutoff_result_t r;
				__atomic_store_n(&counting, 1, __ATOMIC_SEQ_CST);
				int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
				__atomic_store_n(&counting, 0, __ATOMIC_SEQ_CST);
				CHECK(rc == 0, "driver %d algo %d seed %d: rc %d", driver, algo,
				      seed, rc);
				searches++;
			}
			cutoff_engine_free(e);
		}
	printf("%d searches, %d allocations during them\n", searches, calls);
	CHECK(calls == 0, "no allocation while a search runs");
	cutoff_rtree_free(tree);
	return check_report();
}
