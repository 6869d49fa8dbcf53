/* SPDX-License-Identifier: MIT */
/*
 * Many threads store and probe one small table at once, on purpose more threads than
 * cores, and every answer is checked: an entry torn by concurrent writers must never come
 * back as a hit (the XOR check of src/core/tt.c).
 *
 * How a hit can be checked: src/core/tt_oracle.h. Every entry is a function of its key (the
 * move, the value seen from the ply, the least depth), so a hit that is not its key's, a
 * "corrupt hit", is seen: a mix of two writes, or of two keys. `cutoff ttbench` counts the
 * same corrupt hits with the same oracle while it measures; this test is what decides.
 *
 * The fight. The keys come from a small pool of random keys that all land in a few
 * buckets of a 1 MiB table (the bucket of a key is (key * nbuckets) >> 64, as the opening
 * comment of src/core/tt.c says), 8 keys for the 4 entries of each bucket, so that threads
 * overwrite each other's entries all the time. Two shapes of pool:
 *   wide   4096 keys in 512 buckets: replacement among many keys, as in a full table;
 *   hot    32 keys in 4 buckets: every thread writes the same four cache lines, which is
 *          where a reader can catch a half-written entry. On x86 that is rare even there
 *          (both words of an entry share a cache line, and stores leave in order), so
 *          this shape is the one that catches a broken check.
 * For each, 2, 4, 8 and 16 threads, started together on a barrier, share 4 million
 * operations (one store for three probes); then one thread reads every key of the pool,
 * so that a corrupt entry left in the table is seen too. The same runs on a
 * CUTOFF_TT_LOCKED table, where no entry can be torn, give the figures to compare with.
 * Under a sanitizer the runs are 4 times shorter; the environment variable
 * CUTOFF_TORTURE_OPS sets the operations per run instead.
 *
 * The test can fail: it asserts that probes hit (hits > 0) besides the absence of corrupt
 * hits, and a table whose check ignores the data word (check = key instead of key XOR
 * data) fails it: a few to a few hundred corrupt hits per run of the hot shape on a
 * 2-core x86 machine.
 *
 * cutoff-test-labels: concurrent
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "core/tt_oracle.h"
#include "cutoff.h"
#include "sanitizer.h"

enum {
	TABLE_MB = 1,
	MAX_POOL = 4096
};

/* A pool of `keys` keys (a power of two: drawn with a mask) in buckets 0 .. buckets - 1. */
typedef struct shape {
	const char *name;
	int keys, buckets;
} shape_t;

static const shape_t shapes[] = { { "wide", 4096, 512 }, { "hot", 32, 4 } };

static const uint64_t OPS_PER_RUN = UNDER_SANITIZER ? 1000000 : 4000000;

static uint64_t next_u64(uint64_t *s) { return cutoff_oracle_mix(*s += 0x9e3779b97f4a7c15u); }

typedef struct run {
	cutoff_tt_t *tt;
	const uint64_t *pool;
	uint64_t pool_mask;
	uint64_t ops_per_thread;
	pthread_barrier_t start;
} run_t;

/* One thread's counters: plain fields in its own cache line, summed after the join. */
typedef struct worker {
	run_t *run;
	pthread_t thread;
	uint64_t rng;
	uint64_t stores, probes, hits, corrupt;
	uint64_t bad_key; /* the first corrupt hit's key, for the report */
	cutoff_tt_hit_t bad_hit;
} __attribute__((aligned(64))) worker_t;

static void *worker_main(void *arg)
{
	worker_t *w = arg;
	run_t *run = w->run;
	pthread_barrier_wait(&run->start);
	for (uint64_t op = 0; op < run->ops_per_thread; op++) {
		uint64_t r = next_u64(&w->rng);
		uint64_t key = run->pool[r & run->pool_mask];
		uint64_t h = cutoff_oracle_hash(key);
		int ply = (int)(r >> 16 & 31);
		if ((r >> 12 & 3) == 0) {
			cutoff_bound_t bound = (cutoff_bound_t)(1 + (r >> 21 & 0xff) % 3);
			cutoff_oracle_store(run->tt, key, h, (int)(r >> 14 & 3), ply, bound);
			w->stores++;
			continue;
		}
		int depth = cutoff_oracle_depth(h) + (int)(r >> 32 & 0xff) % 6;
		cutoff_tt_hit_t hit;
		bool found = cutoff_tt_probe(run->tt, key, depth, ply, &hit);
		w->probes++;
		w->hits += found;
		if (!cutoff_oracle_answer_ok(h, depth, ply, found, &hit) && w->corrupt++ == 0) {
			w->bad_key = key;
			w->bad_hit = hit;
		}
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs `threads` workers over the table; false when they could not be started (the
 * process then ends: the workers already made wait on the barrier for ever). */
static bool run_threads(cutoff_tt_t *tt, const char *kind, const shape_t *shape,
                        const uint64_t *pool, int threads, uint64_t ops)
{
	static worker_t workers[16];
	run_t run = { .tt = tt,
		      .pool = pool,
		      .pool_mask = (uint64_t)shape->keys - 1,
		      .ops_per_thread = ops / (uint64_t)threads };

	cutoff_tt_clear(tt);
	cutoff_tt_new_search(tt); /* generation 1: its bits are in the checked words too */
	pthread_barrier_init(&run.start, NULL, (unsigned)threads);
	for (int i = 0; i < threads; i++) {
		memset(&workers[i], 0, sizeof(workers[i]));
		workers[i].run = &run;
		workers[i].rng = 0x1234567u * (uint64_t)(i + 1) + (uint64_t)threads;
		int rc = pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
		CHECK(rc == 0, "%s, %d threads: thread %d not started (%s)", kind, threads, i,
		      strerror(rc));
		if (rc != 0)
			return false;
	}
	double t0 = now_s();
	uint64_t stores = 0, probes = 0, hits = 0, corrupt = 0;
	for (int i = 0; i < threads; i++) {
		pthread_join(workers[i].thread, NULL);
		stores += workers[i].stores;
		probes += workers[i].probes;
		hits += workers[i].hits;
		corrupt += workers[i].corrupt;
		if (workers[i].corrupt)
			printf("  thread %d: first corrupt hit: key %016" PRIx64 " -> [%d, %d], "
			       "move %u, depth %d\n",
			       i, workers[i].bad_key, (int)workers[i].bad_hit.lower,
			       (int)workers[i].bad_hit.upper, (unsigned)workers[i].bad_hit.move,
			       workers[i].bad_hit.depth);
	}
	double seconds = now_s() - t0;
	pthread_barrier_destroy(&run.start);

	/* What the threads left behind: every key of the pool, read by one thread. */
	uint64_t left = 0, left_corrupt = 0;
	for (int i = 0; i < shape->keys; i++) {
		uint64_t h = cutoff_oracle_hash(pool[i]);
		cutoff_tt_hit_t hit;
		bool found = cutoff_tt_probe(tt, pool[i], 0, 7, &hit);
		left += found;
		left_corrupt += !cutoff_oracle_answer_ok(h, 0, 7, found, &hit);
	}

	printf("%-9s %-4s %2d threads: %7" PRIu64 " stores %7" PRIu64 " probes %7" PRIu64
	       " hits %" PRIu64 " corrupt; then %4" PRIu64 " of %4d keys found, %" PRIu64
	       " corrupt (%.2f s)\n",
	       kind, shape->name, threads, stores, probes, hits, corrupt, left, shape->keys,
	       left_corrupt, seconds);
	fflush(stdout);
	CHECK(corrupt == 0, "%s, %s, %d threads: %" PRIu64 " corrupt hits", kind, shape->name,
	      threads, corrupt);
	CHECK(left_corrupt == 0, "%s, %s, %d threads: %" PRIu64 " corrupt entries left", kind,
	      shape->name, threads, left_corrupt);
	CHECK(hits > 0 && hits < probes,
	      "%s, %s, %d threads: %" PRIu64 " hits of %" PRIu64 " probes", kind, shape->name,
	      threads, hits, probes);
	CHECK(left > 0, "%s, %s, %d threads: the table keeps some keys", kind, shape->name,
	      threads);
	return true;
}

int main(void)
{
	static const int thread_counts[] = { 2, 4, 8, 16 };
	static const unsigned flags[] = { 0, CUTOFF_TT_LOCKED };
	static const char *const kinds[] = { "lock-free", "locked" };
	static uint64_t pool[MAX_POOL];

	uint64_t ops = OPS_PER_RUN;
	const char *env = getenv("CUTOFF_TORTURE_OPS");
	if (env && *env) {
		char *end;
		unsigned long long v = strtoull(env, &end, 10);
		if (*end == '\0' && v >= 16)
			ops = v;
	}
	printf("%" PRIu64 " operations per run (3 probes per store), %d MiB tables%s\n", ops,
	       TABLE_MB, UNDER_SANITIZER ? " (sanitizer build)" : "");

	for (int k = 0; k < 2; k++) {
		int err;
		cutoff_tt_t *tt = cutoff_tt_new(TABLE_MB, flags[k], &err);
		CHECK(tt != NULL, "%s: cutoff_tt_new: %s", kinds[k], cutoff_strerror(err));
		if (!tt)
			continue;
		uint64_t nbuckets = cutoff_tt_entries(tt) / 4;
		for (int s = 0; s < (int)(sizeof(shapes) / sizeof(shapes[0])); s++) {
			uint64_t rng = 42;
			for (int i = 0; i < shapes[s].keys;) {
				uint64_t key = next_u64(&rng);
				uint64_t b = (uint64_t)(((unsigned __int128)key * nbuckets) >> 64);
				if (b < (uint64_t)shapes[s].buckets)
					pool[i++] = key;
			}
			for (int t = 0; t < 4; t++) {
				if (!run_threads(tt, kinds[k], &shapes[s], pool, thread_counts[t],
				                 ops))
					return check_report();
			}
		}
		cutoff_tt_free(tt);
	}
	return check_report();
}
