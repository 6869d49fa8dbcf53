/* SPDX-License-Identifier: MIT */
/*
 * test_cluster.c — the cluster layer (include/cutoff_cluster.h) under mpirun with 2-4
 * ranks on this machine (more ranks than cores: oversubscribed, where races show).
 *
 * Checks, every rank on the same positions:
 *   - random trees searched to the leaves (iterative, the full window) by every rank's
 *     lazy SMP (1 thread, and 2 threads a rank) together: the tree's true value
 *     (cutoff_rtree_value, a full negamax), bound exact, a best move that keeps it, and the same
 *     answer on every rank; with the exchange as a ring and to all; null windows at depths
 *     short of the leaves: the side of the serial value;
 *   - ABDADA inside each rank likewise;
 *   - Connect Four: exact scores of a sample of Pons' positions (../shared/data/connect4,
 *     "skipped: data not found" without it) by null-window bisection over cluster searches;
 *   - traffic: every message sent is received (entries sent = received, summed over the
 *     ranks), and the other ranks' entries are found (tt_hits_shared > 0 over the trees);
 *   - random stop times: rank 0 stops the cluster (cutoff_cluster_stop from a timer
 *     thread, or a time limit) at a random moment: every rank returns, with the same
 *     legal move, and the next search is exact again (nothing of the stopped one is left
 *     in flight);
 *   - the node limit is the sum over ranks; limits that differ between ranks are refused
 *     on every rank; the API's NULL arguments.
 * Rank 0 prints "N passed, N failed" with every rank's failures summed; every rank exits
 * non-zero on a failure anywhere.
 *
 * Usage: test_cluster [DATA_DIR]
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cutoff_cluster.h"
#include "cutoff_games.h"
#include "random.h"

static int rank, size, checks, failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		checks++;                                                                          \
		if (!(cond)) {                                                                     \
			failures++;                                                                \
			fprintf(stderr, "FAIL rank %d %s:%d: ", rank, __FILE__, __LINE__);         \
			fprintf(stderr, __VA_ARGS__);                                              \
			fprintf(stderr, "\n");                                                     \
		}                                                                                  \
	} while (0)

static cutoff_result_t result;

static cutoff_engine_t *make(cutoff_cluster_t *cl, const cutoff_game_t *g, cutoff_driver_t driver,
                             int threads, size_t mb)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = driver;
	cfg.threads = threads;
	cfg.tt_mb = mb;
	cfg.profile_tt_writers = true;
	CHECK(cutoff_cluster_configure(cl, &cfg) == 0, "configure");
	int err;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	CHECK(e != NULL, "engine: %s", cutoff_strerror(err));
	return e;
}

/* True when every rank has the same `v`. */
static bool same_everywhere(int64_t v)
{
	int64_t lo, hi;
	MPI_Allreduce(&v, &lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(&v, &hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
	return lo == hi;
}

static uint64_t shared_hits, sent_entries, received_entries;

static void add_traffic(cutoff_cluster_t *cl)
{
	for (int r = 0; r < size; r++) {
		cutoff_cluster_stats_t st;
		cutoff_cluster_stats(cl, r, &st);
		sent_entries += st.sent_entries;
		received_entries += st.received_entries;
		shared_hits += st.tt_hits_shared;
	}
}

static void test_trees(cutoff_cluster_t *cl, cutoff_driver_t driver, int threads, const char *name)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	uint64_t rng = 77;
	for (int t = 0; t < 8; t++) {
		p.branching = 3 + (int)(splitmix64(&rng) % 4);
		p.depth = 6 + (int)(splitmix64(&rng) % 3);
		cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
		const cutoff_game_t *g = cutoff_rtree_game(tree);
		cutoff_rtree_state_t root;
		cutoff_rtree_root(tree, 1000 + (uint64_t)t, &root);
		const int32_t truth = cutoff_rtree_value(tree, &root);
		cutoff_engine_t *e = make(cl, g, driver, threads, 1);

		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = p.depth;
		lim.iterate = true;
		int rc = cutoff_cluster_search(cl, e, &root, &lim, &result, NULL, NULL);
		CHECK(rc == 0, "%s tree %d: %s (%s)", name, t, cutoff_strerror(rc),
		      cutoff_cluster_error(cl));
		CHECK(result.value == truth && result.bound == CUTOFF_BOUND_EXACT &&
		              !result.stopped,
		      "%s tree %d (b %d, d %d): %d, want %d exact", name, t, p.branching, p.depth,
		      result.value, truth);
		cutoff_rtree_state_t child;
		g->play(g->ctx, &root, result.best_move, &child);
		CHECK(-cutoff_rtree_value(tree, &child) == truth,
		      "%s tree %d: the move keeps the value", name, t);
		CHECK(same_everywhere(result.best_move) && same_everywhere(result.value),
		      "%s tree %d: every rank answers the same", name, t);
		add_traffic(cl);

		/* Null windows short of the leaves: the side of the serial value. */
		cutoff_config_t scfg;
		cutoff_config_default(&scfg);
		scfg.tt_mb = 1;
		cutoff_engine_t *serial = cutoff_engine_new(g, &scfg, NULL);
		cutoff_limits_t sl;
		cutoff_limits_default(&sl);
		sl.depth = p.depth - 1 - t % 2;
		cutoff_engine_search(serial, &root, &sl, &result, NULL, NULL);
		const int32_t v = result.value;
		for (int k = -1; k <= 1; k++) {
			cutoff_limits_t nl = sl;
			nl.iterate = true;
			nl.alpha = v + k * 3 - 1;
			nl.beta = v + k * 3;
			cutoff_engine_clear(e);
			rc = cutoff_cluster_search(cl, e, &root, &nl, &result, NULL, NULL);
			bool side =
				nl.beta <= v ? result.value >= nl.beta : result.value <= nl.alpha;
			CHECK(rc == 0 && side &&
			              (nl.beta <= v ? result.value <= v : result.value >= v),
			      "%s tree %d: window (%d, %d) at depth %d gave %d, serial %d", name, t,
			      nl.alpha, nl.beta, nl.depth, result.value, v);
		}
		cutoff_engine_free(serial);
		cutoff_engine_free(e);
		cutoff_rtree_free(tree);
	}
}

/* The exact score of a Connect Four position by bisection over null-window cluster
 * searches, each at the depth its window needs. */
static int c4_score(cutoff_cluster_t *cl, cutoff_engine_t *e, const cutoff_connect4_state_t *st,
                    int stones)
{
	int lo = -(40 - stones) / 2, hi = (41 - stones) / 2;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.alpha = mid;
		lim.beta = mid + 1;
		lim.depth = cutoff_connect4_depth(st, mid, mid + 1);
		int rc = cutoff_cluster_search(cl, e, st, &lim, &result, NULL, NULL);
		if (rc != 0)
			return -99;
		if (result.value > mid)
			lo = result.value < hi ? (int)result.value : hi;
		else
			hi = result.value > lo ? (int)result.value : lo;
	}
	return lo;
}

static void test_connect4(cutoff_cluster_t *cl, const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/connect4/Test_L3_R1", dir);
	FILE *f = fopen(path, "r");
	int have = f != NULL;
	MPI_Allreduce(MPI_IN_PLACE, &have, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!have) {
		if (rank == 0)
			printf("skipped: data not found (%s): the Connect Four sample\n", path);
		if (f)
			fclose(f);
		return;
	}
	cutoff_engine_t *e = make(cl, cutoff_connect4_game(), CUTOFF_DRIVER_LAZYSMP, 1, 16);
	char line[256], moves[128];
	int score, done = 0;
	while (done < 6 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %d", moves, &score) != 2)
			continue;
		cutoff_connect4_state_t st;
		if (cutoff_connect4_parse(moves, &st, NULL, 0) != 0)
			continue;
		int got = c4_score(cl, e, &st, (int)strlen(moves));
		CHECK(got == score, "Connect Four %s: %d, want %d", moves, got, score);
		done++;
	}
	fclose(f);
	cutoff_engine_free(e);
	if (rank == 0)
		printf("Connect Four: %d positions of Test_L3_R1 solved by %d ranks\n", done, size);
}

typedef struct timer {
	cutoff_cluster_t *cl;
	long us;
} timer_t_;

static void *stop_later(void *arg)
{
	timer_t_ *t = arg;
	struct timespec ts = { t->us / 1000000, (t->us % 1000000) * 1000 };
	nanosleep(&ts, NULL);
	cutoff_cluster_stop(t->cl);
	return NULL;
}

static void test_stops(cutoff_cluster_t *cl)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 8;
	p.depth = 10;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	cutoff_rtree_state_t root;
	cutoff_rtree_root(tree, 4242, &root);
	cutoff_engine_t *e = make(cl, g, CUTOFF_DRIVER_LAZYSMP, 2, 4);
	uint64_t rng = 99;
	for (int i = 0; i < 12; i++) {
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = 10;
		lim.iterate = true;
		long us = (long)(splitmix64(&rng) % 200000);
		pthread_t th;
		timer_t_ t = { cl, us };
		bool timer = i % 3 != 2;
		if (!timer)
			lim.time_ms = 1 + us / 1000; /* rank 0's clock */
		if (timer && rank == 0)
			pthread_create(&th, NULL, stop_later, &t);
		cutoff_engine_clear(e);
		int rc = cutoff_cluster_search(cl, e, &root, &lim, &result, NULL, NULL);
		if (timer && rank == 0)
			pthread_join(th, NULL);
		CHECK(rc == 0, "stop %d after %ld us: %s (%s)", i, us, cutoff_strerror(rc),
		      cutoff_cluster_error(cl));
		bool legal = result.best_move < (cutoff_move_t)p.branching;
		CHECK(legal && same_everywhere(result.best_move) && same_everywhere(result.depth),
		      "stop %d: a legal move (%u), the same on every rank", i, result.best_move);
		/* A stop that came after the end withdrawn, as a front end does. */
		cutoff_cluster_cancel_stop(cl);
		MPI_Barrier(MPI_COMM_WORLD);
	}
	/* The next search is whole and exact: nothing of the stopped ones is left. */
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = 7;
	lim.iterate = true;
	cutoff_engine_clear(e);
	int rc = cutoff_cluster_search(cl, e, &root, &lim, &result, NULL, NULL);
	cutoff_config_t scfg;
	cutoff_config_default(&scfg);
	cutoff_engine_t *serial = cutoff_engine_new(g, &scfg, NULL);
	static cutoff_result_t sr;
	cutoff_engine_search(serial, &root, &lim, &sr, NULL, NULL);
	CHECK(rc == 0 && !result.stopped && result.value == sr.value,
	      "after the stops: %d, serial %d", result.value, sr.value);

	/* The node limit is the sum over ranks. */
	lim.depth = 10;
	lim.nodes = 200000;
	cutoff_engine_clear(e);
	rc = cutoff_cluster_search(cl, e, &root, &lim, &result, NULL, NULL);
	CHECK(rc == 0 && result.stopped && result.counters.nodes >= lim.nodes &&
	              result.counters.nodes < lim.nodes + (uint64_t)size * 2 * 200000,
	      "node limit %llu: %llu nodes over %d ranks", (unsigned long long)lim.nodes,
	      (unsigned long long)result.counters.nodes, size);

	/* Limits that differ are refused everywhere. */
	lim.nodes = 0;
	lim.depth = 5 + (rank == size - 1);
	rc = cutoff_cluster_search(cl, e, &root, &lim, &result, NULL, NULL);
	CHECK(rc == CUTOFF_EINVAL && strstr(cutoff_cluster_error(cl), "different limits"),
	      "different depths: %s (%s)", cutoff_strerror(rc), cutoff_cluster_error(cl));
	lim.depth = 5;
	lim.poll = (cutoff_poll_fn)(void (*)(void))stop_later;
	CHECK(cutoff_cluster_search(cl, e, &root, &lim, &result, NULL, NULL) == CUTOFF_EINVAL,
	      "a caller's poll hook is refused");
	cutoff_engine_free(serial);
	cutoff_engine_free(e);
	cutoff_rtree_free(tree);
}

static void test_null(void)
{
	cutoff_cluster_config_t c;
	cutoff_cluster_config_default(NULL);
	cutoff_cluster_config_default(&c);
	c.batch = 8;
	int err = 0;
	CHECK(!cutoff_cluster_new(MPI_COMM_WORLD, &c, &err) && err == CUTOFF_EINVAL,
	      "batch 8 refused");
	CHECK(cutoff_cluster_rank(NULL) == -1 && cutoff_cluster_size(NULL) == -1,
	      "rank, size of NULL");
	CHECK(cutoff_cluster_configure(NULL, NULL) == CUTOFF_EINVAL, "configure(NULL)");
	CHECK(cutoff_cluster_search(NULL, NULL, NULL, NULL, NULL, NULL, NULL) == CUTOFF_EINVAL,
	      "search(NULL)");
	CHECK(cutoff_cluster_stats(NULL, 0, NULL) == CUTOFF_EINVAL, "stats(NULL)");
	CHECK(strcmp(cutoff_cluster_error(NULL), "") == 0, "error(NULL)");
	cutoff_cluster_stop(NULL);
	cutoff_cluster_cancel_stop(NULL);
	cutoff_cluster_free(NULL);
}

int main(int argc, char **argv)
{
	int provided;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	const char *dir = argc > 1 ? argv[1] : "../shared/data";

	test_null();
	int err;
	cutoff_cluster_t *cl = cutoff_cluster_new(MPI_COMM_WORLD, NULL, &err);
	CHECK(cl != NULL, "cluster: %s", cutoff_strerror(err));
	if (cl) {
		test_trees(cl, CUTOFF_DRIVER_LAZYSMP, 1, "lazysmp x1 ring");
		test_trees(cl, CUTOFF_DRIVER_LAZYSMP, 2, "lazysmp x2 ring");
		test_trees(cl, CUTOFF_DRIVER_ABDADA, 2, "abdada x2 ring");
		cutoff_cluster_free(cl);
		cutoff_cluster_config_t c;
		cutoff_cluster_config_default(&c);
		c.exchange = CUTOFF_CLUSTER_ALL;
		c.batch = 32;
		c.in_flight = 2;
		c.min_depth = 1;
		cl = cutoff_cluster_new(MPI_COMM_WORLD, &c, &err);
		test_trees(cl, CUTOFF_DRIVER_LAZYSMP, 1, "lazysmp x1 all, small batches");
		CHECK(sent_entries > 0 && sent_entries == received_entries,
		      "every entry sent was received: %llu sent, %llu received",
		      (unsigned long long)sent_entries, (unsigned long long)received_entries);
		CHECK(shared_hits > 0, "the other ranks' entries were found: %llu hits",
		      (unsigned long long)shared_hits);
		test_stops(cl);
		test_connect4(cl, dir);
		cutoff_cluster_free(cl);
	}
	int all[2] = { checks, failures };
	MPI_Allreduce(MPI_IN_PLACE, all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%d ranks: %d passed, %d failed\n", size, all[0] - all[1], all[1]);
	MPI_Finalize();
	return all[1] ? 1 : 0;
}
