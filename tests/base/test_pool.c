/* SPDX-License-Identifier: MIT */
/*
 * The thread pool's job hand-over (pool.c), directly and through engines.
 *
 * Directly: every thread runs every job exactly once, sees what the caller wrote before
 * the call, and the caller sees what every thread wrote, at 1, 2, 3, 8 and 16 threads,
 * with spinning allowed (even at 16 threads on a small machine, to stress the spin path
 * where threads are preempted) and without; back to back, after gaps longer than the spin
 * window (so that workers sleep), with workers slower than the caller (so that the caller
 * sleeps), and freed right after a job or with none at all.
 *
 * Through engines: many back-to-back tiny searches (tic-tac-toe positions a few moves from
 * the end) with lazy SMP and YBW at 2, 3, 8 and 16 threads each give the serial value; an
 * engine freed right after its only search; two engines searching at once in one process.
 *
 * cutoff-test-labels: concurrent
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/pool.h"
#include "check.h"
#include "cutoff_games.h"
#include "random.h"

enum {
	MAX_THREADS = 16
};

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	nanosleep(&ts, NULL);
}

/* What a job reads and writes: `token` is written by the caller before each run, and each
 * thread copies it into its slot and counts its runs; plain memory, ordered by the pool
 * alone (ThreadSanitizer checks that). */
struct probe {
	int token;
	int slow; /* 0: none; 1: the workers sleep a little; 2: the caller does */
	int seen[MAX_THREADS];
	int runs[MAX_THREADS];
	int threads_arg[MAX_THREADS];
};

static void probe_job(void *arg, int index, int threads)
{
	struct probe *p = arg;
	if ((p->slow == 1 && index > 0) || (p->slow == 2 && index == 0))
		sleep_us(300);
	p->seen[index] = p->token;
	p->runs[index]++;
	p->threads_arg[index] = threads;
}

/* `jobs` runs of probe_job on a pool of `threads`; `pus` decides whether it spins. */
static void pool_runs(int threads, int pus, int jobs)
{
	cutoff_pool_t *pool;
	int failures = -1;
	int rc = cutoff_pool_new(threads, pus, NULL, NULL, &failures, &pool);
	CHECK(rc == 0 && pool, "pool_new(%d threads, %d pus): %d", threads, pus, rc);
	if (rc != 0)
		return;
	CHECK(failures == 0 && cutoff_pool_threads(pool) == threads,
	      "pool of %d: failures %d, threads %d", threads, failures, cutoff_pool_threads(pool));
	struct probe p;
	memset(&p, 0, sizeof(p));
	int bad = 0;
	for (int j = 0; j < jobs; j++) {
		/* Mostly back to back; now and then a gap longer than the spin window, a short
		 * gap, or a slow side. */
		p.slow = j % 50 == 7 ? 1 : j % 50 == 23 ? 2 : 0;
		if (j % 100 == 31)
			sleep_us(1000);
		else if (j % 100 == 67)
			sleep_us(50);
		p.token = j + 1;
		cutoff_pool_run(pool, probe_job, &p);
		for (int i = 0; i < threads; i++)
			bad += p.seen[i] != j + 1 || p.runs[i] != j + 1 ||
			       p.threads_arg[i] != threads;
	}
	CHECK(bad == 0, "pool of %d threads (%d pus): %d wrong slots in %d jobs", threads, pus, bad,
	      jobs);
	cutoff_pool_free(pool);
}

static void pool_direct(void)
{
	static const int counts[] = { 1, 2, 3, 8, 16 };
	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		int t = counts[k];
		int jobs = t <= 3 ? 2000 : 400;
		pool_runs(t, 0, jobs);           /* no spinning: the condition variables alone */
		pool_runs(t, MAX_THREADS, jobs); /* spinning, even oversubscribed */
	}
	/* Made and freed with no job, and freed right after one, many times. */
	int ok = 0;
	for (int n = 0; n < 100; n++) {
		cutoff_pool_t *pool;
		int t = 2 + n % 7;
		if (cutoff_pool_new(t, n % 2 ? MAX_THREADS : 0, NULL, NULL, NULL, &pool) != 0)
			continue;
		struct probe p;
		memset(&p, 0, sizeof(p));
		p.token = n;
		if (n % 3)
			cutoff_pool_run(pool, probe_job, &p);
		cutoff_pool_free(pool);
		ok += n % 3 == 0 || (p.seen[t - 1] == n && p.runs[t - 1] == 1);
	}
	CHECK(ok == 100, "pools freed at once or right after a job: %d of 100 right", ok);
	printf("pool: every job run once by every thread, hand-over both ways, at 1-16 threads\n");
}

/* Tic-tac-toe positions a few moves from the end, and their values from a serial
 * minimax search. */
enum {
	POSITIONS = 48
};
static cutoff_ttt_state_t positions[POSITIONS];
static int depths[POSITIONS];
static int32_t values[POSITIONS];

static uint64_t rng = 11;
static uint64_t rnd(void) { return splitmix64(&rng); }

static cutoff_engine_t *make(cutoff_driver_t driver, int threads, cutoff_algo_t algo)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = driver;
	cfg.threads = threads;
	cfg.algo = algo;
	cfg.tt_mb = 1;
	cfg.ybw_min_split_depth = 2;
	cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
	cfg.dts_min_split_nodes = 1;
	int err;
	cutoff_engine_t *e = cutoff_engine_new(cutoff_ttt_game(), &cfg, &err);
	if (!e)
		printf("engine: %s\n", cutoff_strerror(err));
	return e;
}

static int32_t search(cutoff_engine_t *e, int k)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = depths[k];
	cutoff_result_t r;
	int rc = cutoff_engine_search(e, &positions[k], &lim, &r, NULL, NULL);
	return rc == 0 ? r.value : -99999;
}

static void make_positions(void)
{
	const cutoff_game_t *g = cutoff_ttt_game();
	cutoff_engine_t *serial = make(CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_MINIMAX);
	for (int k = 0; k < POSITIONS;) {
		cutoff_ttt_state_t st, child;
		cutoff_ttt_start(&st);
		int played = 3 + (int)(rnd() % 4), n = 0;
		int32_t v;
		for (; n < played && !g->terminal(g->ctx, &st, &v); n++) {
			cutoff_move_t moves[9];
			int count = g->gen_moves(g->ctx, &st, moves, NULL);
			g->play(g->ctx, &st, moves[rnd() % (uint64_t)count], &child);
			st = child;
		}
		if (g->terminal(g->ctx, &st, &v))
			continue;
		positions[k] = st;
		depths[k] = 9 - n;
		values[k] = search(serial, k);
		k++;
	}
	cutoff_engine_free(serial);
}

/* Back-to-back tiny searches through each parallel driver: always the serial value. */
static void tiny_searches(void)
{
	static const int counts[] = { 2, 3, 8, 16 };
	for (int d = CUTOFF_DRIVER_LAZYSMP; d < cutoff_driver_count(); d++) {
		for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
			cutoff_engine_t *e = make((cutoff_driver_t)d, counts[k], CUTOFF_ALGO_PVS);
			if (!e) {
				CHECK(false, "engine of %d threads", counts[k]);
				continue;
			}
			int rounds = counts[k] <= 3 ? 6 : 2, wrong = 0;
			for (int r = 0; r < rounds; r++)
				for (int i = 0; i < POSITIONS; i++)
					wrong += search(e, i) != values[i];
			CHECK(wrong == 0, "%s x%d: %d of %d tiny searches wrong",
			      cutoff_driver_name((cutoff_driver_t)d), counts[k], wrong,
			      rounds * POSITIONS);
			cutoff_engine_free(e);
		}
	}
	printf("tiny searches back to back: lazysmp and ybw at 2, 3, 8, 16 threads give the "
	       "serial value\n");
}

/* An engine freed right after its only search: the workers may still be finishing their
 * hand-over when the caller returns. */
static void free_after_search(void)
{
	int wrong = 0;
	for (int n = 0; n < 40; n++) {
		int threads = n % 2 ? 2 : 8;
		cutoff_engine_t *e = make(n % 4 < 2 ? CUTOFF_DRIVER_YBW : CUTOFF_DRIVER_LAZYSMP,
		                          threads, CUTOFF_ALGO_PVS);
		if (!e) {
			wrong++;
			continue;
		}
		wrong += search(e, n % POSITIONS) != values[n % POSITIONS];
		cutoff_engine_free(e);
	}
	CHECK(wrong == 0, "engines freed right after one search: %d of 40 wrong", wrong);
	printf("engines freed right after their search\n");
}

/* Two engines in one process at once, each from its own thread. */
struct side {
	cutoff_driver_t driver;
	int threads;
	int wrong;
	int searches;
};

static void *side_main(void *arg)
{
	struct side *s = arg;
	cutoff_engine_t *e = make(s->driver, s->threads, CUTOFF_ALGO_PVS);
	if (!e) {
		s->wrong = -1;
		return NULL;
	}
	for (int r = 0; r < 5; r++)
		for (int i = 0; i < POSITIONS; i++, s->searches++)
			s->wrong += search(e, i) != values[i];
	cutoff_engine_free(e);
	return NULL;
}

static void two_engines(void)
{
	struct side sides[2] = { { CUTOFF_DRIVER_YBW, 2, 0, 0 },
		                 { CUTOFF_DRIVER_LAZYSMP, 3, 0, 0 } };
	pthread_t t[2];
	int started = 0;
	for (int i = 0; i < 2; i++)
		started += pthread_create(&t[i], NULL, side_main, &sides[i]) == 0;
	CHECK(started == 2, "two engines: %d threads started", started);
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < started; i++)
		CHECK(sides[i].wrong == 0 && sides[i].searches == 5 * POSITIONS,
		      "engine %d of two at once: %d wrong of %d", i, sides[i].wrong,
		      sides[i].searches);
	printf("two engines searching at once: ybw x2 and lazysmp x3, serial values\n");
}

int main(void)
{
	pool_direct();
	make_positions();
	tiny_searches();
	free_after_search();
	two_engines();
	return check_report();
}
