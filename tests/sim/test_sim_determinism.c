/* SPDX-License-Identifier: MIT */
/*
 * test_sim_determinism.c — a simulated run is a function of its inputs (issue 15, item 6):
 * the same searches on a fresh simulator with the same model, schedule and seed give, bit
 * for bit, the same values, bounds, best moves and depths, the same counters (summed and
 * per thread), the same virtual times (each result's time_s, the simulator's clock after
 * the run) and the same simulator figures (cutoff_sim_stats: jobs, points, switches, spin
 * looks, sleeps, wakes, work, span, elapsed).
 *
 * A run: two iterated PVS searches of an incremental random tree (branching 6, depth 8, a
 * table of 1 MiB) and the solve of a Connect Four endgame (a seeded random playout to 16
 * empty cells), each on its own engine, made and freed inside the run. Compared twice:
 *   - YBW, lazy SMP and ABDADA at 2, 16 and 64 virtual threads under the default model and
 *     the clock schedule;
 *   - each of them at 16 threads under a model with delayed table writes (tt_visible) and
 *     a quantum (the store buffers and the run-ahead rule), and under the random schedule
 *     (seed 7);
 *   - each at 16 threads after the simulator has already run another engine's search
 *     ("a new engine starts afresh", sim/sched.c): the same run apart from the clock it
 *     starts at (compared without the absolute clock, the statistics reset before it).
 * The solve's own time_s is compared too: it reads the library's one clock (platform.h),
 * virtual time here.
 * And the random schedule does depend on its seed: at 16 threads, four seeds give more than
 * one run (else the schedule test, test_sim_random.c, would explore nothing).
 *
 * A difference prints the first field that differs, with both values.
 */
#include "test_sim_util.h"

enum {
	MAX_FIELDS = 16384,
	RUN_THREADS_MAX = 64
};

/* A run's figures, in order, each with its name (for the report of a difference). */
typedef struct record {
	int n;
	uint64_t v[MAX_FIELDS];
	const char *name[MAX_FIELDS];
	int thread[MAX_FIELDS]; /* -1: not a thread's */
} record_t;

static void put(record_t *rec, const char *name, int thread, uint64_t v)
{
	if (rec->n >= MAX_FIELDS) {
		CHECK(false, "the record of a run is full (%d fields)", rec->n);
		return;
	}
	rec->name[rec->n] = name;
	rec->thread[rec->n] = thread;
	rec->v[rec->n++] = v;
}

static void put_double(record_t *rec, const char *name, double d)
{
	uint64_t bits;
	memcpy(&bits, &d, sizeof(bits));
	put(rec, name, -1, bits);
}

/* Every counter of c (cutoff_counters_t is made of uint64_t alone). */
static void put_counters(record_t *rec, const char *name, int thread, const cutoff_counters_t *c)
{
	_Static_assert(sizeof(cutoff_counters_t) % sizeof(uint64_t) == 0, "counters of uint64_t");
	uint64_t v[sizeof(cutoff_counters_t) / sizeof(uint64_t)];
	memcpy(v, c, sizeof(v));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		put(rec, name, thread, v[i]);
}

static void put_result(record_t *rec, int rc, const cutoff_result_t *r)
{
	put(rec, "return code", -1, (uint64_t)(int64_t)rc);
	put(rec, "value", -1, (uint64_t)(int64_t)r->value);
	put(rec, "bound", -1, (uint64_t)r->bound);
	put(rec, "best move", -1, (uint64_t)r->best_move);
	put(rec, "depth", -1, (uint64_t)r->depth);
	put(rec, "stopped", -1, r->stopped);
	put_counters(rec, "counters", -1, &r->counters);
	put_double(rec, "time_s", r->time_s);
}

static void put_threads(record_t *rec, const cutoff_engine_t *e, int threads)
{
	for (int i = 0; i < threads; i++) {
		cutoff_counters_t c;
		int rc = cutoff_engine_thread_counters(e, i, &c);
		put(rec, "thread counters' return code", i, (uint64_t)(int64_t)rc);
		if (rc == 0)
			put_counters(rec, "thread counters", i, &c);
	}
}

static void put_stats(record_t *rec, const cutoff_sim_t *sim, bool clock)
{
	cutoff_sim_stats_t s;
	cutoff_sim_stats(sim, &s);
	put(rec, "stats.jobs", -1, s.jobs);
	put(rec, "stats.points", -1, s.points);
	put(rec, "stats.switches", -1, s.switches);
	put(rec, "stats.spin_looks", -1, s.spin_looks);
	put(rec, "stats.sleeps", -1, s.sleeps);
	put(rec, "stats.wakes", -1, s.wakes);
	put(rec, "stats.work", -1, s.work);
	put(rec, "stats.span", -1, s.span);
	put(rec, "stats.elapsed", -1, s.elapsed);
	put(rec, "stats.span_partial", -1, s.span_partial);
	if (clock)
		put(rec, "cutoff_sim_time_ns", -1, cutoff_sim_time_ns(sim));
}

/* ---------------------------------------------------------------------------------------
 * The run
 * ------------------------------------------------------------------------------------- */

static cutoff_rtree_t *tree;
static cutoff_connect4_state_t endgame;

static void run_searches(record_t *rec, cutoff_driver_t driver, int threads)
{
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	cutoff_config_t cfg = sim_config(driver, threads, CUTOFF_ALGO_PVS, 1);
	cutoff_engine_t *e = sim_engine(g, &cfg);
	static cutoff_result_t r;
	for (uint64_t seed = 1; e && seed <= 2; seed++) {
		cutoff_rtree_state_t root;
		cutoff_rtree_root(tree, seed, &root);
		int rc = sim_search(e, &root, 8, true, &r);
		put_result(rec, rc, &r);
		put_threads(rec, e, threads);
	}
	cutoff_engine_free(e);

	cfg = sim_config(driver, threads, CUTOFF_ALGO_PVS, 4);
	cfg.ordering = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS;
	e = sim_engine(cutoff_connect4_game(), &cfg);
	if (e) {
		cutoff_connect4_solution_t s;
		int rc = cutoff_connect4_solve(e, &endgame, false, CUTOFF_CONNECT4_BISECT, &s);
		put(rec, "connect four: return code", -1, (uint64_t)(int64_t)rc);
		put(rec, "connect four: score", -1, (uint64_t)(int64_t)s.score);
		put(rec, "connect four: best column", -1, (uint64_t)(int64_t)s.best_column);
		put(rec, "connect four: searches", -1, (uint64_t)s.searches);
		put(rec, "connect four: nodes", -1, s.nodes);
		put_double(rec, "connect four: time_s", s.time_s);
		put_threads(rec, e, threads);
	}
	cutoff_engine_free(e);
}

/* One run on a fresh simulator; `warm`: another engine's search runs on it first. */
static void run(record_t *rec, cutoff_driver_t driver, int threads, const cutoff_sim_model_t *model,
                cutoff_sim_schedule_t schedule, uint64_t seed, bool warm)
{
	rec->n = 0;
	cutoff_sim_t *sim = sim_start(model, schedule, seed);
	if (warm) {
		record_t *scratch = malloc(sizeof(*scratch));
		cutoff_driver_t other =
			driver == CUTOFF_DRIVER_YBW ? CUTOFF_DRIVER_LAZYSMP : CUTOFF_DRIVER_YBW;
		if (scratch) {
			scratch->n = 0;
			run_searches(scratch, other, threads + 3);
		}
		free(scratch);
		cutoff_sim_reset_stats(sim);
	}
	run_searches(rec, driver, threads);
	put_stats(rec, sim, !warm);
	sim_stop(sim);
}

/* True when a and b are equal; else prints where they first differ. */
static bool same(const record_t *a, const record_t *b, const char *what)
{
	if (a->n != b->n) {
		printf("  %s: %d figures, then %d\n", what, a->n, b->n);
		return false;
	}
	for (int i = 0; i < a->n; i++)
		if (a->v[i] != b->v[i]) {
			printf("  %s: figure %d (%s", what, i, a->name[i]);
			if (a->thread[i] >= 0)
				printf(", thread %d", a->thread[i]);
			printf(") is %llu, then %llu\n", (unsigned long long)a->v[i],
			       (unsigned long long)b->v[i]);
			return false;
		}
	return true;
}

static record_t first, second;

static void twice(cutoff_driver_t driver, int threads, const cutoff_sim_model_t *model,
                  const char *model_name, cutoff_sim_schedule_t schedule, uint64_t seed)
{
	char what[160];
	snprintf(what, sizeof(what), "%s x%d, %s model, %s schedule (seed %llu)",
	         cutoff_driver_name(driver), threads, model_name,
	         schedule == CUTOFF_SIM_CLOCK ? "clock" : "random", (unsigned long long)seed);
	run(&first, driver, threads, model, schedule, seed, false);
	run(&second, driver, threads, model, schedule, seed, false);
	bool ok = same(&first, &second, what);
	CHECK(ok, "%s: two runs differ", what);
	printf("%s: %s (%d figures)\n", what, ok ? "the same twice" : "DIFFERENT", first.n);
}

/* The same run on a simulator that has run something else before. */
static void afresh(cutoff_driver_t driver, int threads)
{
	char what[160];
	snprintf(what, sizeof(what), "%s x%d after another engine's search",
	         cutoff_driver_name(driver), threads);
	run(&first, driver, threads, NULL, CUTOFF_SIM_CLOCK, 1, false);
	first.n--; /* the absolute clock, last */
	run(&second, driver, threads, NULL, CUTOFF_SIM_CLOCK, 1, true);
	bool ok = same(&first, &second, what);
	CHECK(ok, "%s: not the run of a fresh simulator", what);
	printf("%s: %s\n", what, ok ? "the same as on a fresh simulator" : "DIFFERENT");
}

/* Random schedules with four seeds: not all the same run. */
static void seeds_matter(cutoff_driver_t driver, int threads)
{
	static record_t runs[4];
	int distinct = 1;
	for (int s = 0; s < 4; s++) {
		run(&runs[s], driver, threads, NULL, CUTOFF_SIM_RANDOM, (uint64_t)s + 1, false);
		bool seen = false;
		for (int t = 0; t < s && !seen; t++)
			seen = runs[t].n == runs[s].n &&
			       !memcmp(runs[t].v, runs[s].v, sizeof(uint64_t) * (size_t)runs[s].n);
		distinct += s > 0 && !seen;
	}
	CHECK(distinct > 1, "%s x%d: the random schedule gave one run for 4 seeds",
	      cutoff_driver_name(driver), threads);
	printf("%s x%d, random schedule: %d different runs from 4 seeds\n",
	       cutoff_driver_name(driver), threads, distinct);
}

int main(void)
{
	sim_topology_load();
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 6;
	p.depth = 8;
	p.model = CUTOFF_RTREE_INCREMENTAL;
	p.value_min = -20;
	p.value_max = 20;
	tree = cutoff_rtree_new(&p, NULL);
	CHECK(tree != NULL, "random tree");
	/* An endgame of 16 empty cells (a seeded playout that does not end before). */
	for (uint64_t rng = 42;;) {
		cutoff_connect4_start(&endgame);
		while (!endgame.known && endgame.stones < CUTOFF_CONNECT4_CELLS - 16)
			cutoff_connect4_play(&endgame,
			                     (int)(splitmix64(&rng) % CUTOFF_CONNECT4_WIDTH));
		if (!endgame.known)
			break;
	}
	if (!tree)
		return check_report();

	const char *names[] = { "ybw", "lazysmp", "abdada", "dts" };
	static const int counts[] = { 2, 16, 64 };
	cutoff_sim_model_t buffered;
	cutoff_sim_model_default(&buffered);
	buffered.tt_visible = 300000; /* 300 ns */
	buffered.quantum = 2000000;   /* 2 us */
	for (int d = 0; d < 4; d++) {
		cutoff_driver_t driver = sim_driver(names[d]);
		for (int k = 0; k < 3; k++)
			twice(driver, counts[k], NULL, "default", CUTOFF_SIM_CLOCK, 1);
		twice(driver, 16, &buffered, "delayed-writes", CUTOFF_SIM_CLOCK, 1);
		twice(driver, 16, NULL, "default", CUTOFF_SIM_RANDOM, 7);
		afresh(driver, 16);
		seeds_matter(driver, 16);
	}
	cutoff_rtree_free(tree);
	sim_topology_free();
	return check_report();
}
