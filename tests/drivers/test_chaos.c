/* SPDX-License-Identifier: MIT */
/*
 * Chaos: searches with random drivers, algorithms, thread counts (1..16, more threads
 * than cores on purpose) and tables, each stopped by another thread at a random moment.
 * Every search must return (a watchdog fails the test if one takes longer than
 * HANG_SECONDS), must not crash, and must name a legal move; a search that completed
 * must have the true value, and one that returned before its stop was sent must have
 * completed (lazy SMP's vote, drawn for its engines, must not answer a finished search
 * with a shallower thread). It also measures how long a stop takes to end a search (the
 * stop latency), printed as median and maximum per driver; the figures are not a
 * criterion (the machine is shared), but a bound on the behaviour is: every stop is
 * answered within STOP_BOUND_S, oversubscribed too (a stop that is not heard until the
 * search ends takes many times longer: the deep tree is never finished).
 *
 * Usage: test_chaos [searches] [seed] [max_threads]
 *
 * cutoff-test-labels: concurrent
 * cutoff-test-timeout: 900
 */
#include <hwloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/topo.h"
#include "check.h"
#include "cutoff_games.h"
#include "random.h"
#include "sanitizer.h"

enum {
	MAX_THREADS = 16,
	DRIVERS = 8, /* room for the registry's drivers (checked) */
	HANG_SECONDS = 20
};

/* The longest a stop may take to end a search: generous, since a thread of an
 * oversubscribed search may wait for a CPU (16 threads on 2 CPUs), and wider under a
 * sanitizer, which makes every access several times dearer. */
static const double STOP_BOUND_S = UNDER_SANITIZER ? 10.0 : 2.0;

static hwloc_topology_t topology;
static uint64_t rng;

static uint64_t rnd(void) { return splitmix64(&rng); }
static int rnd_int(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The watchdog: the main thread stamps `started` before each search; a search running
 * longer than HANG_SECONDS ends the process with a message. */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static double started;
static int watch_search;

static void *watchdog(void *arg)
{
	(void)arg;
	for (;;) {
		sleep(1);
		pthread_mutex_lock(&watch_lock);
		double t = started;
		int k = watch_search;
		pthread_mutex_unlock(&watch_lock);
		if (t > 0 && now() - t > HANG_SECONDS) {
			printf("FAIL: search %d has run for more than %d s: a hang\n", k,
			       HANG_SECONDS);
			fflush(stdout);
			_exit(1);
		}
	}
	return NULL;
}

struct stopper {
	cutoff_engine_t *engine;
	unsigned delay_us;
	double stopped_at;
};

static void *stop_later(void *arg)
{
	struct stopper *st = arg;
	usleep(st->delay_us);
	st->stopped_at = now();
	cutoff_engine_stop(st->engine);
	return NULL;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int searches = argc > 1 ? atoi(argv[1]) : 1000;
	rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 2026;
	int max_threads = argc > 3 ? atoi(argv[3]) : MAX_THREADS;
	if (max_threads < 1 || max_threads > MAX_THREADS)
		max_threads = MAX_THREADS;
	cutoff_topology_load((void **)&topology); /* quiet where sysfs is missing */
	pthread_t dog;
	pthread_create(&dog, NULL, watchdog, NULL);

	/* Two trees: a small one whose true value is cheap to check, and a deep one that no
	 * search finishes before its stop. */
	cutoff_rtree_t *trees[2];
	for (int t = 0; t < 2; t++) {
		cutoff_rtree_params_t p;
		cutoff_rtree_params_default(&p);
		p.branching = t ? 6 : 5;
		p.depth = t ? 24 : 7;
		p.model = CUTOFF_RTREE_INCREMENTAL;
		p.value_min = -50;
		p.value_max = 50;
		trees[t] = cutoff_rtree_new(&p, NULL);
	}

	/* Engines are made lazily and reused: one per (tree, driver, threads, algo, table). */
	static cutoff_engine_t *engines[2][DRIVERS][MAX_THREADS + 1][4][2];
	double *latency[DRIVERS];
	int nlat[DRIVERS] = { 0 };
	CHECK(cutoff_driver_count() <= DRIVERS, "DRIVERS covers the registry's %d drivers",
	      cutoff_driver_count());
	for (int d = 0; d < DRIVERS; d++)
		latency[d] = calloc((size_t)searches, sizeof(double));

	int illegal = 0, wrong = 0, failed = 0, completed = 0, false_stops = 0;
	for (int k = 0; k < searches; k++) {
		int deep = rnd_int(0, 1), driver = rnd_int(0, cutoff_driver_count() - 1),
		    threads = rnd_int(1, max_threads);
		cutoff_rtree_t *tree = trees[deep];
		const cutoff_game_t *g = cutoff_rtree_game(tree);
		int branching = deep ? 6 : 5, depth = deep ? 24 : 7;
		int algo = rnd_int(CUTOFF_ALGO_ALPHABETA, CUTOFF_ALGO_MTDF), table = rnd_int(0, 1);
		if (algo == CUTOFF_ALGO_MTDF)
			table = 1;
		cutoff_engine_t **slot = &engines[deep][driver][threads][algo][table];
		if (!*slot) {
			cutoff_config_t cfg;
			cutoff_config_default(&cfg);
			cfg.driver = (cutoff_driver_t)driver;
			cfg.threads = threads;
			cfg.algo = (cutoff_algo_t)algo;
			cfg.tt_mb = (size_t)table;
			cfg.aspiration = rnd_int(0, 1) * 10;
			cfg.ybw_min_split_depth = rnd_int(1, 4);
			cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
			cfg.dts_min_split_nodes = rnd_int(0, 2) == 0 ? 0 : 1; /* 0: the default */
			cfg.ybw_max_helpers = rnd_int(1, MAX_THREADS);
			cfg.ybw_split_after = rnd_int(1, 3);
			cfg.ybw_late_join = rnd_int(0, 3) != 0;
			cfg.ybw_split_nodes = (cutoff_ybw_split_nodes_t)rnd_int(0, 2);
			cfg.dts_split_nodes = (cutoff_ybw_split_nodes_t)rnd_int(0, 2);
			cfg.ybw_max_splits = rnd_int(0, 1) ? CUTOFF_MAX_PLY : rnd_int(1, 3);
			cfg.dts_fibers = rnd_int(2, 4);
			cfg.lazysmp_vote = rnd_int(0, 1);
			cfg.topology = topology;
			*slot = cutoff_engine_new(g, &cfg, NULL);
		}
		cutoff_engine_t *e = *slot;

		cutoff_rtree_state_t root;
		cutoff_rtree_root(tree, rnd(), &root);
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = depth;
		lim.iterate = rnd_int(0, 3) > 0;

		struct stopper st = { e, (unsigned)rnd_int(0, 30000), 0 };
		pthread_t stopper;
		pthread_create(&stopper, NULL, stop_later, &st);
		pthread_mutex_lock(&watch_lock);
		started = now();
		watch_search = k;
		pthread_mutex_unlock(&watch_lock);

		cutoff_result_t r;
		int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
		double returned = now();
		pthread_mutex_lock(&watch_lock);
		started = 0;
		pthread_mutex_unlock(&watch_lock);
		pthread_join(stopper, NULL);

		if (rc != 0) {
			failed++;
			printf("  search %d: rc %d (%s)\n", k, rc, cutoff_strerror(rc));
			continue;
		}
		if (r.best_move >= (cutoff_move_t)branching)
			illegal++;
		/* No limit but the stop: a search that returned before it was sent finished. */
		if (r.stopped && st.stopped_at > returned) {
			false_stops++;
			printf("  search %d: driver %d, %d threads: stopped at depth %d before "
			       "its stop\n",
			       k, driver, threads, r.depth);
		}
		if (!r.stopped) {
			completed++;
			int32_t truth = cutoff_rtree_value(tree, &root);
			if (r.value != truth || r.bound != CUTOFF_BOUND_EXACT) {
				wrong++;
				printf("  search %d: driver %d, %d threads, algo %d, table %d: "
				       "value %d, "
				       "true %d\n",
				       k, driver, threads, algo, table, (int)r.value, (int)truth);
			}
		} else if (st.stopped_at > 0 && returned >= st.stopped_at) {
			latency[driver][nlat[driver]++] = returned - st.stopped_at;
		}
		/* A stop that came after the search ended would stop the next one at once (the
		 * documented rule): spend it here so that every search starts clean. */
		if (!r.stopped) {
			cutoff_limits_t one;
			cutoff_limits_default(&one);
			one.depth = 1;
			cutoff_engine_search(e, &root, &one, &r, NULL, NULL);
		}
		/* Under ThreadSanitizer each of DTS's fibers costs several mappings of its own,
		 * and every DTS engine kept would pass vm.max_map_count: made afresh there. */
		if (UNDER_SANITIZER && driver == CUTOFF_DRIVER_DTS) {
			cutoff_engine_free(e);
			*slot = NULL;
		}
	}

	printf("chaos: %d searches, %d completed, %d stopped early; %d failed, %d illegal moves, "
	       "%d wrong values\n",
	       searches, completed, searches - completed - failed, failed, illegal, wrong);
	double worst = 0;
	for (int d = 0; d < DRIVERS; d++) {
		if (nlat[d] == 0)
			continue;
		qsort(latency[d], (size_t)nlat[d], sizeof(double), compare_double);
		if (latency[d][nlat[d] - 1] > worst)
			worst = latency[d][nlat[d] - 1];
		printf("stop latency %-8s %4d stops: median %.3f ms, 95%% %.3f ms, max %.3f ms\n",
		       cutoff_driver_name((cutoff_driver_t)d), nlat[d],
		       1e3 * latency[d][nlat[d] / 2], 1e3 * latency[d][nlat[d] * 95 / 100],
		       1e3 * latency[d][nlat[d] - 1]);
	}
	CHECK(failed == 0, "every search returned 0");
	CHECK(illegal == 0, "every search named a legal move");
	CHECK(wrong == 0, "every completed search has the true value");
	CHECK(false_stops == 0, "%d searches that no stop reached reported stopped", false_stops);
	CHECK(completed > 0 && completed < searches - failed,
	      "both completed and stopped searches");
	printf("stop latency, the worst: %.3f ms (bound %.0f ms)\n", 1e3 * worst,
	       1e3 * STOP_BOUND_S);
	CHECK(worst <= STOP_BOUND_S, "a stop took %.3f s to end its search, over %.1f s", worst,
	      STOP_BOUND_S);

	for (int d = 0; d < DRIVERS; d++)
		free(latency[d]);
	for (int t = 0; t < 2; t++) {
		for (int d = 0; d < DRIVERS; d++)
			for (int n = 0; n <= MAX_THREADS; n++)
				for (int a = 0; a < 4; a++)
					for (int tb = 0; tb < 2; tb++)
						cutoff_engine_free(engines[t][d][n][a][tb]);
		cutoff_rtree_free(trees[t]);
	}
	cutoff_topology_free(topology);
	return check_report();
}
