/* SPDX-License-Identifier: MIT */
/*
 * calibrate.c — this machine's cost model for the simulator (sim/sim.h), measured with
 * real threads: the lab's side of `cutoff sim --calibrate FILE` (cli/cmd_calibrate.c
 * parses the line and writes the file). Built into the real `cutoff` only.
 *
 * The figures are of this machine's threads, caches and kernel, which the simulated
 * library cannot see; each is printed as it is measured, with the load average then.
 *
 * What is measured, and how (each function below says more; docs/simulation.md, "The
 * default model", gives this machine's figures):
 *
 *   node.W          the serial search's time per node on workload W at one thread:
 *                   cutoff bench's run (lab/work.c) of the default driver at one thread
 *                   on the workload's positions, time / nodes, the median of 3 runs
 *   node            the median of the three workloads' figures: the cost of a workload
 *                   that has none of its own
 *   tt_store_other  a load and a store into a 64-byte line (what a table store does to
 *                   its bucket) when the other core wrote that line last, minus the same
 *                   when this core wrote it last: two threads pinned to two CPUs walk one
 *                   random cycle through 1024 lines in turns. Printed, but written as 0
 *                   (and lock_handoff likewise): line_transfer charges both now
 *   line_transfer   a contended line's hand-off: two pinned threads add to one counter
 *                   in turns (each waits for the other's addition), the time a turn,
 *                   minus `atomic`, over the two transfers the simulator charges a turn
 *   atomic          a fetch-and-add on a word this core holds (a locked instruction)
 *   sockets, numa_transfer  1 and 0: one socket here (docs/simulation.md gives figures
 *                   a user of a two-socket machine would put there)
 *   lock            a free test-and-set lock taken and released by the thread that
 *                   released it last
 *   lock_handoff    the same when the other core released it last, minus `lock`: two
 *                   pinned threads take turns with the lock, each timing its turn
 *   spin            one pause instruction (a spin-wait's look; nothing on a CPU without
 *                   one, as platform.h)
 *   yield           one sched_yield with no other thread waiting for the CPU (a spin-wait's
 *                   look after its pauses, platform.h): a loop of them
 *   wake            a futex wake-up: two pinned threads wake each other in turns, each
 *                   asleep in FUTEX_WAIT_PRIVATE; the median round trip / 2
 *   start           the pool's hand-over: the median time of a trivial search (tic-tac-toe,
 *                   depth 1) through an engine of 2 threads minus one of 1 thread, / 2
 *                   (the simulator charges it twice a job: to the worker's start and to
 *                   its hand-back)
 *   split, join     YBW's split point, by a micro-benchmark of what try_split and help
 *                   do to memory: the owner writes a split point (the lines its helper
 *                   read last) and books the helper, until those stores are seen (its
 *                   next locked instruction waits for that); the helper copies the node's state,
 *                   the path's keys and the split point's fields, which the other core
 *                   wrote; each side's median time. The locks around them are charged
 *                   apart (`lock`, `lock_handoff`), and the wake-up of a sleeping helper
 *                   too (`wake`).
 *   tt_probe, tt_store, tt_visible   0: the node cost, measured on one thread with the
 *                   table on, already holds the table's own work; a write's visibility to
 *                   the other core is the store buffer's drain, tens of nanoseconds,
 *                   below a node's cost
 *   quantum         the built-in one: a setting of the simulator, not of the machine
 *
 * Two threads need two CPUs: with only one in this process's affinity mask, the figures
 * that need a pair keep their built-in values, and the output says so.
 *
 * Shared memory: the pair of threads of a measurement shares only its `pair_t` (the
 * turn words, the lock, the lines walked), every access through the compiler's __atomic
 * builtins (src/base/atomic.h is internal to the library; lab/probe.c does the same); each
 * side's timings are its own, read by the caller after pthread_join (which orders them).
 * Nothing here is global.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_* */
#include "lab/calibrate.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/futex.h>
#include <sys/syscall.h>

#include "kit/args.h"
#include "lab/bench.h"

enum {
	LINES = 1024,       /* the lines walked by the store probe (64 KiB: in L2) */
	STORE_ROUNDS = 200, /* walks of the cycle by each side */
	LOCK_ROUNDS = 200000,
	PINGS = 100000,    /* lock hand-offs by each side */
	PAUSES = 200000,   /* pause instructions timed, per repeat */
	YIELDS = 20000,    /* sched_yield calls timed, per repeat */
	WAKES = 2000,      /* futex round trips */
	SEARCHES = 4000,   /* trivial searches per engine */
	SPLITS = 20000,    /* split points made and joined */
	STATE_BYTES = 128, /* a node's state (every bundled adapter's fits: bench.h) */
	KEY_BYTES = 128,   /* the path's keys a helper copies (16 plies) */
	SPLIT_LINES = 4,   /* the split point's lines the owner writes (fields, pv) */
	REPEATS = 5        /* medians of this many for the one-thread loops */
};

/* One figure on stdout as it is measured: name, nanoseconds, how, the load average. */
static void report(const char *name, double ns, const char *how)
{
	printf("%-15s %10.3f ns   %s (load %.2f)\n", name, ns, how, bench_load_average());
	fflush(stdout);
}

/* A figure that keeps the built-in value, and why. */
static void report_kept(const char *name, uint64_t ps, const char *why)
{
	printf("%-15s %10.3f ns   kept built in: %s\n", name, (double)ps / 1e3, why);
	fflush(stdout);
}

static uint64_t to_ps(double ns) { return ns > 0 ? (uint64_t)llround(ns * 1e3) : 0; }

/* ------------------------------------------------------------------------------------ */
/* Node costs: cutoff bench's serial baseline, run here */

/* The median time per node (ns) of 3 runs of the default driver at one thread on
 * workload wk of b (loaded), or NAN after one line of error (bench_fail). */
static double node_cost(bench_t *b, int wk)
{
	double ns[3];
	for (int rep = 0; rep < 3; rep++) {
		bench_run_t *run = bench_run_new(b, wk, false, b->set.base, 1, rep + 1);
		if (!run) {
			bench_fail(b->err, "out of memory");
			return NAN;
		}
		if (!bench_run(b, run))
			return NAN;
		if (run->counters.nodes == 0) {
			bench_fail(b->err, "--calibrate: the %s search counted no nodes",
			           bench_workload_names[wk]);
			return NAN;
		}
		ns[rep] = run->time_s * 1e9 / (double)run->counters.nodes;
	}
	return bench_median(ns, 3);
}

/* Measures node.W for the workloads asked, into m; false after one line of error on failure. */
static bool measure_nodes(cutoff_sim_model_t *m, const bool *asked, int64_t positions,
                          bench_error_t *err)
{
	static bench_t b; /* large: kept off the stack */
	memset(&b, 0, sizeof(b));
	b.cmd = "sim";
	b.err = err;
	b.set.base = (int)cli_driver_default();
	cutoff_config_default(&b.set.cfg);
	b.mach.profiled = cutoff_profile_available();
	b.set.repeat = 3;
	uint64_t *field[BENCH_NWORKLOADS] = { &m->node_chess, &m->node_connect4, &m->node_rtree };
	bool ok = true;
	for (int wk = 0; ok && wk < BENCH_NWORKLOADS; wk++) {
		char name[32];
		snprintf(name, sizeof(name), "node.%s", bench_workload_names[wk]);
		if (!asked[wk]) {
			report_kept(name, *field[wk], "not in --workload");
			continue;
		}
		/* cutoff bench's defaults: random trees of branching 8 and depth 11, each
		 * workload's own table size */
		if (bench_workload_load(&b, wk, NULL, positions, 0, 8, 11, -1) != CLI_EXIT_OK) {
			ok = false;
			break;
		}
		double ns = node_cost(&b, wk);
		if (isnan(ns)) {
			ok = false;
			break;
		}
		char how[160];
		snprintf(how, sizeof(how),
		         "serial search, 1 thread, %d position%s of cutoff bench's: time / nodes, "
		         "median of 3",
		         b.res.work[wk].nitems, b.res.work[wk].nitems == 1 ? "" : "s");
		report(name, ns, how);
		*field[wk] = to_ps(ns);
	}
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
		bench_workload_free(&b.res.work[wk]);
	for (int i = 0; i < b.res.nruns; i++)
		bench_run_free(&b.res.runs[i]);
	free(b.res.runs);
	if (ok) {
		double v[3] = { (double)m->node_chess, (double)m->node_connect4,
			        (double)m->node_rtree };
		m->node = (uint64_t)bench_median(v, 3);
		report("node", (double)m->node / 1e3, "the median of the three workloads'");
	}
	return ok;
}

/* ------------------------------------------------------------------------------------ */
/* Two threads pinned to two CPUs */

typedef struct line {
	_Alignas(64) uint64_t next; /* the cycle's next line (read only after set-up) */
	uint64_t value;             /* what the walks write */
} line_t;

typedef struct pair pair_t;
typedef void (*side_fn)(pair_t *p, int side);

/* What the two threads of one measurement share, and each one's results. */
struct pair {
	int cpu[2];
	side_fn fn;
	_Alignas(64) int turn;         /* whose turn it is: 0 or 1 (its own line) */
	_Alignas(64) int lock;         /* the test-and-set lock (its own line) */
	_Alignas(64) int arrived;      /* threads pinned (or failed to) and waiting */
	int barrier;                   /* the split probe's locked instruction (its value unused) */
	int go;                        /* 0: wait; 1: run; -1: give up (a thread was not made) */
	_Alignas(64) int word[2];      /* the futex words, one a side */
	_Alignas(64) uint64_t counter; /* the line probe's counter (its own line) */
	line_t *lines;                 /* the store probe's cycle, or a split point's lines */
	bench_error_t *err;            /* where a failure is recorded */
	int rounds;
	double *own;      /* the store probe: side 0's walks of lines it wrote last [rounds] */
	double *times[2]; /* each side's timings [rounds] */
};

typedef struct side_arg {
	pair_t *p;
	int side;
	int pin_error; /* 0, or errno of a failed pinning */
} side_arg_t;

static int pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0 ? 0 : errno; /* the calling thread */
}

static void *side_main(void *arg)
{
	side_arg_t *a = arg;
	pair_t *p = a->p;
	a->pin_error = pin(p->cpu[a->side]);
	__atomic_fetch_add(&p->arrived, 1, __ATOMIC_SEQ_CST);
	int go;
	while ((go = __atomic_load_n(&p->go, __ATOMIC_ACQUIRE)) == 0)
		;
	if (go < 0)
		return NULL; /* the other thread could not be made */
	/* Both pinned before either starts. */
	while (__atomic_load_n(&p->arrived, __ATOMIC_ACQUIRE) < 2)
		;
	p->fn(p, a->side);
	return NULL;
}

/* Runs p->fn on both sides, each thread pinned to its CPU. False after one line of error when
 * a thread cannot be made or pinned. */
static bool pair_run(pair_t *p)
{
	pthread_t t[2];
	side_arg_t a[2] = { { p, 0, 0 }, { p, 1, 0 } };
	p->arrived = 0;
	p->go = 0;
	p->turn = 0;
	p->lock = 0;
	p->word[0] = p->word[1] = 0;
	p->counter = 0;
	int made = 0;
	while (made < 2 && pthread_create(&t[made], NULL, side_main, &a[made]) == 0)
		made++;
	__atomic_store_n(&p->go, made == 2 ? 1 : -1, __ATOMIC_RELEASE);
	for (int i = 0; i < made; i++)
		pthread_join(t[i], NULL);
	if (made < 2) {
		bench_fail(p->err, "--calibrate: cannot make a thread");
		return false;
	}
	for (int i = 0; i < 2; i++) {
		if (a[i].pin_error) {
			bench_fail(p->err, "--calibrate: cannot pin a thread to CPU %d: %s",
			           p->cpu[i], strerror(a[i].pin_error));
			return false;
		}
	}
	return true;
}

static void wait_turn(pair_t *p, int side)
{
	while (__atomic_load_n(&p->turn, __ATOMIC_ACQUIRE) != side)
		;
}

static void give_turn(pair_t *p, int side)
{
	__atomic_store_n(&p->turn, 1 - side, __ATOMIC_RELEASE);
}

/* One walk of the cycle from line 0: at each line a load of its link and a store beside
 * it, each step depending on the last (a table store's load and store, one at a time).
 * Returns ns per line. */
static double walk(line_t *lines)
{
	double t0 = (double)cli_now_ns();
	uint64_t i = 0;
	for (int k = 0; k < LINES; k++) {
		uint64_t next = __atomic_load_n(&lines[i].next, __ATOMIC_RELAXED);
		__atomic_store_n(&lines[i].value, next + (uint64_t)k, __ATOMIC_RELAXED);
		i = next;
	}
	return ((double)cli_now_ns() - t0) / LINES;
}

/* The store probe: side 0 alone walks twice in a row, timing the second walk (lines it
 * wrote last), then the two sides walk in turns, each walk over lines the other wrote
 * last (side 0's first turn follows its own walks, and is left out). */
static void stores_side(pair_t *p, int side)
{
	if (side == 0) {
		for (int r = 0; r < p->rounds; r++) {
			walk(p->lines);
			p->own[r] = walk(p->lines);
		}
	}
	for (int r = 0; r < p->rounds; r++) {
		wait_turn(p, side);
		p->times[side][r] = walk(p->lines);
		give_turn(p, side);
	}
}

/* A random cycle through the lines (Sattolo's shuffle, a fixed seed); false when out of
 * memory. */
static bool make_cycle(line_t *lines, int n)
{
	uint64_t *perm = malloc((size_t)n * sizeof(*perm)), x = 0x9e3779b97f4a7c15u;
	if (!perm)
		return false;
	for (int i = 0; i < n; i++)
		perm[i] = (uint64_t)i;
	for (int i = n - 1; i > 0; i--) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		int j = (int)(x % (uint64_t)i);
		uint64_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (int i = 0; i < n; i++)
		lines[perm[i]].next = perm[(i + 1) % n];
	for (int i = 0; i < n; i++)
		lines[i].value = 0;
	free(perm);
	return true;
}

/* tt_store_other: a walk over lines the other core wrote last, minus one over lines this
 * core wrote last, per line; medians of STORE_ROUNDS walks each. A dependent chain, so
 * this is a miss's latency, not hidden behind other work: what a node that stores pays
 * at most (the search goes on past a store, and its own work may overlap part of it). */
static bool measure_store_other(pair_t *p, cutoff_sim_model_t *m)
{
	p->fn = stores_side;
	p->rounds = STORE_ROUNDS;
	if (!make_cycle(p->lines, LINES)) {
		bench_fail(p->err, "out of memory");
		return false;
	}
	if (!pair_run(p))
		return false;
	double other[2 * STORE_ROUNDS];
	int n = 0;
	for (int r = 1; r < STORE_ROUNDS; r++)
		other[n++] = p->times[0][r];
	for (int r = 0; r < STORE_ROUNDS; r++)
		other[n++] = p->times[1][r];
	double own = bench_median(p->own, STORE_ROUNDS), cross = bench_median(other, n);
	char how[200];
	snprintf(how, sizeof(how),
	         "load + store into a line the other core wrote last, %.1f ns, minus this "
	         "core's, %.1f ns (CPUs %d, %d; dependent walks of %d lines)",
	         cross, own, p->cpu[0], p->cpu[1], LINES);
	report("tt_store_other", cross - own, how);
	m->tt_store_other = to_ps(cross - own);
	return true;
}

static void lock_acquire(int *lock)
{
	while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(lock, __ATOMIC_RELAXED))
			;
}

static void lock_release(int *lock) { __atomic_store_n(lock, 0, __ATOMIC_RELEASE); }

/* The lock handed over: the turn goes back and forth, and each side takes and releases
 * the lock in its turn, so that the other core always released it last; each side times
 * that. */
static void handoff_side(pair_t *p, int side)
{
	for (int r = 0; r < p->rounds; r++) {
		wait_turn(p, side);
		double t0 = (double)cli_now_ns();
		lock_acquire(&p->lock);
		lock_release(&p->lock);
		p->times[side][r] = (double)cli_now_ns() - t0;
		give_turn(p, side);
	}
}

/* lock: a free lock taken and released by the thread that released it last, ns. */
static double measure_lock(void)
{
	int lock = 0;
	double v[REPEATS];
	for (int k = 0; k < REPEATS; k++) {
		double t0 = (double)cli_now_ns();
		for (int i = 0; i < LOCK_ROUNDS; i++) {
			lock_acquire(&lock);
			lock_release(&lock);
		}
		v[k] = ((double)cli_now_ns() - t0) / LOCK_ROUNDS;
	}
	return bench_median(v, REPEATS);
}

/* The clock's own cost, ns: the median of back-to-back reads. */
static double clock_cost(void)
{
	double v[1001];
	for (int i = 0; i < 1001; i++) {
		double t0 = (double)cli_now_ns();
		v[i] = (double)cli_now_ns() - t0;
	}
	return bench_median(v, 1001);
}

/* lock_handoff: a lock taken and released right after the other core released it, timed
 * around the two (the clock's cost taken off), minus `lock`: the median over both sides
 * of PINGS turns each. */
static bool measure_handoff(pair_t *p, cutoff_sim_model_t *m, double lock_ns)
{
	p->fn = handoff_side;
	p->rounds = PINGS;
	if (!pair_run(p))
		return false;
	/* side 1's timings after side 0's: one array of 2 * PINGS */
	double *all = malloc(sizeof(double) * 2 * PINGS);
	if (!all) {
		bench_fail(p->err, "out of memory");
		return false;
	}
	memcpy(all, p->times[0], sizeof(double) * PINGS);
	memcpy(all + PINGS, p->times[1], sizeof(double) * PINGS);
	double handed = bench_median(all, 2 * PINGS) - clock_cost();
	free(all);
	char how[200];
	snprintf(how, sizeof(how),
	         "a lock the other core released last, taken and released: %.1f ns (median of "
	         "%d, minus the clock's cost), minus `lock`",
	         handed, 2 * PINGS);
	report("lock_handoff", handed - lock_ns, how);
	m->lock_handoff = to_ps(handed - lock_ns);
	return true;
}

/* atomic: a fetch-and-add on a word this core holds, ns; median of REPEATS loops. */
static double measure_atomic(void)
{
	uint64_t word = 0;
	double v[REPEATS];
	for (int k = 0; k < REPEATS; k++) {
		double t0 = (double)cli_now_ns();
		for (int i = 0; i < LOCK_ROUNDS; i++)
			__atomic_fetch_add(&word, 1, __ATOMIC_SEQ_CST);
		v[k] = ((double)cli_now_ns() - t0) / LOCK_ROUNDS;
	}
	return bench_median(v, REPEATS);
}

/* The line probe: the two sides add to one counter in turns (side s adds when the count's
 * parity is s), so that every addition finds the line in the other core's cache. Side 0
 * times all the turns. */
static void line_side(pair_t *p, int side)
{
	double t0 = (double)cli_now_ns();
	for (int r = 0; r < p->rounds; r++) {
		while ((__atomic_load_n(&p->counter, __ATOMIC_ACQUIRE) & 1) != (uint64_t)side)
			;
		__atomic_fetch_add(&p->counter, 1, __ATOMIC_SEQ_CST);
	}
	if (side == 0)
		p->times[0][0] = ((double)cli_now_ns() - t0) / (2.0 * p->rounds);
}

/* line_transfer: a contended line's hand-off between the two cores: a turn of the line
 * probe, minus `atomic`, over 2, because the simulator charges a turn two transfers (the
 * waiter's read of the line the other core wrote, then its addition to a line the other
 * core still holds a copy of); the median of REPEATS probes of PINGS turns a side. */
static bool measure_line(pair_t *p, cutoff_sim_model_t *m, double atomic_ns)
{
	double v[REPEATS];
	for (int k = 0; k < REPEATS; k++) {
		p->fn = line_side;
		p->rounds = PINGS;
		if (!pair_run(p))
			return false;
		v[k] = p->times[0][0];
	}
	double turn = bench_median(v, REPEATS);
	char how[200];
	snprintf(how, sizeof(how),
	         "two cores add to one counter in turns: (%.1f ns a turn, median of %d probes "
	         "of %d turns a side, minus `atomic`) / 2 transfers",
	         turn, REPEATS, PINGS);
	report("line_transfer", (turn - atomic_ns) / 2, how);
	m->line_transfer = to_ps((turn - atomic_ns) / 2);
	return true;
}

#ifdef __linux__
static void futex_wait(int *word, int expected)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(int *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Round r: side 0 sets word[1] to r + 1 and wakes side 1, asleep on it, then sleeps on
 * word[0] until side 1 sets it and wakes it back. Each side goes to sleep right after its
 * wake-up call, tens of microseconds before the other runs, so each wake-up finds its
 * thread asleep. Side 0 times each round trip. */
static void wake_side(pair_t *p, int side)
{
	for (int r = 0; r < p->rounds; r++) {
		if (side == 0) {
			double t0 = (double)cli_now_ns();
			__atomic_store_n(&p->word[1], r + 1, __ATOMIC_SEQ_CST);
			futex_wake(&p->word[1]);
			while (__atomic_load_n(&p->word[0], __ATOMIC_SEQ_CST) != r + 1)
				futex_wait(&p->word[0], r);
			p->times[0][r] = (double)cli_now_ns() - t0;
		} else {
			while (__atomic_load_n(&p->word[1], __ATOMIC_SEQ_CST) != r + 1)
				futex_wait(&p->word[1], r);
			__atomic_store_n(&p->word[0], r + 1, __ATOMIC_SEQ_CST);
			futex_wake(&p->word[0]);
		}
	}
}

/* wake: the median round trip of WAKES / 2. */
static bool measure_wake(pair_t *p, cutoff_sim_model_t *m)
{
	p->fn = wake_side;
	p->rounds = WAKES;
	if (!pair_run(p))
		return false;
	double rt = bench_median(p->times[0], WAKES);
	char how[160];
	snprintf(how, sizeof(how), "futex round trips between CPUs %d and %d: median %.0f ns / 2",
	         p->cpu[0], p->cpu[1], rt);
	report("wake", rt / 2, how);
	m->wake = to_ps(rt / 2);
	return true;
}
#endif

/* The split point's memory (in p->lines): the owner's split point fields and pv, the
 * node's state and the path's keys (on the owner's stack), the helper's thread record. */
enum {
	SP_FIRST = 0,
	SP_STATE = SPLIT_LINES,
	SP_KEYS = SP_STATE + STATE_BYTES / 64,
	SP_BOOK = SP_KEYS + KEY_BYTES / 64,
	SP_LINES = SP_BOOK + 1
};

/* Round r: the owner (side 0) searches the node (writes its state and keys: untimed),
 * then makes the split point, timed: writes its lines, which the helper read last, and
 * books the helper in its record, and waits until those stores are visible (a fence: the
 * lock it takes next in book_helpers would wait as long, and the simulator charges that
 * lock apart). The helper (side 1) joins, timed: reads its record,
 * copies the split point's fields, the state and the keys (all written last by the
 * owner's core) into its own memory, and marks itself busy. */
static void split_side(pair_t *p, int side)
{
	unsigned char *base = (unsigned char *)p->lines;
	unsigned char *mine = (unsigned char *)(p->lines + SP_LINES * (side + 1));
	for (int r = 0; r < p->rounds; r++) {
		wait_turn(p, side);
		if (side == 0) {
			memset(base + 64 * SP_STATE, r & 0xff, STATE_BYTES + KEY_BYTES);
			double t0 = (double)cli_now_ns();
			memset(base + 64 * SP_FIRST, (r + 1) & 0xff, 64 * SPLIT_LINES);
			memset(base + 64 * SP_BOOK, (r + 2) & 0xff, 16);
			/* until the stores are seen: the owner's next locked instruction (the
			 * lock it takes to book) waits for that; a read-modify-write is one (a
			 * stand-alone fence is not supported under ThreadSanitizer) */
			__atomic_fetch_add(&p->barrier, 1, __ATOMIC_SEQ_CST);
			p->times[0][r] = (double)cli_now_ns() - t0;
		} else {
			double t0 = (double)cli_now_ns();
			memcpy(mine, base + 64 * SP_BOOK, 16);
			memcpy(mine + 64, base, 64 * SPLIT_LINES + STATE_BYTES + KEY_BYTES);
			memset(base + 64 * SP_BOOK + 16, r & 0xff, 16);
			p->times[1][r] = (double)cli_now_ns() - t0;
		}
		give_turn(p, side);
	}
}

/* split and join: each side's median over SPLITS rounds, minus the clock's cost. */
static bool measure_split(pair_t *p, cutoff_sim_model_t *m)
{
	p->fn = split_side;
	p->rounds = SPLITS;
	memset(p->lines, 0, sizeof(line_t) * (size_t)SP_LINES * 3);
	if (!pair_run(p))
		return false;
	double clk = clock_cost();
	double split = bench_median(p->times[0], SPLITS) - clk,
	       join = bench_median(p->times[1], SPLITS) - clk;
	char how[200];
	snprintf(how, sizeof(how),
	         "the owner writes %d lines of a split point the helper read last and books it "
	         "(its record's line), until seen; median, minus the clock's %.0f ns",
	         SPLIT_LINES, clk);
	report("split", split, how);
	snprintf(how, sizeof(how),
	         "the helper copies the split point (%d lines), the state (%d B) and the keys "
	         "(%d B) the owner's core wrote; median, minus the clock's",
	         SPLIT_LINES, STATE_BYTES, KEY_BYTES);
	report("join", join, how);
	m->split = to_ps(split);
	m->join = to_ps(join);
	return true;
}

/* The first two CPUs this process may run on, or false when it has fewer. */
static bool two_cpus(int cpu[2])
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return false;
	int n = 0;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpu[n++] = c;
	return n == 2;
}

/* Everything that needs two threads on two CPUs, into m; false after one line of error. */
static bool measure_pairs(cutoff_sim_model_t *m, double lock_ns, double atomic_ns,
                          bench_error_t *err)
{
	static pair_t p; /* aligned members: kept off the stack */
	memset(&p, 0, sizeof(p));
	p.err = err;
	if (!two_cpus(p.cpu)) {
		const char *why = "this process may run on one CPU only";
		report_kept("line_transfer", m->line_transfer, why);
		report_kept("wake", m->wake, why);
		report_kept("split", m->split, why);
		report_kept("join", m->join, why);
		return true;
	}
	int most = SPLITS > PINGS ? SPLITS : PINGS;
	p.lines = aligned_alloc(64, sizeof(line_t) * (LINES > 3 * SP_LINES ? LINES : 3 * SP_LINES));
	p.own = malloc(sizeof(double) * STORE_ROUNDS);
	p.times[0] = malloc(sizeof(double) * (size_t)most);
	p.times[1] = malloc(sizeof(double) * (size_t)most);
	bool ok = p.lines && p.own && p.times[0] && p.times[1];
	if (!ok)
		bench_fail(err, "out of memory");
	ok = ok && measure_line(&p, m, atomic_ns) && measure_store_other(&p, m) &&
	     measure_handoff(&p, m, lock_ns);
	if (ok) {
		/* The old model's flat figures, measured for comparison: the lines charge
		 * them now (a store into another's bucket, a lock's hand-off are transfers). */
		printf("tt_store_other, lock_handoff 0 in the model: line_transfer charges them "
		       "(their figures above are the old model's)\n");
		m->tt_store_other = m->lock_handoff = 0;
	}
#ifdef __linux__
	ok = ok && measure_wake(&p, m);
#else
	if (ok)
		report_kept("wake", m->wake, "no futex here");
#endif
	ok = ok && measure_split(&p, m);
	free(p.lines);
	free(p.own);
	free(p.times[0]);
	free(p.times[1]);
	return ok;
}

/* ------------------------------------------------------------------------------------ */
/* One thread: a pause, and the pool's hand-over through the public API */

static void pause_once(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* platform.h: no pause instruction */
#endif
}

/* spin: one look of a spin-wait, a pause; median of REPEATS loops of PAUSES. */
static void measure_spin(cutoff_sim_model_t *m)
{
	double v[REPEATS];
	for (int k = 0; k < REPEATS; k++) {
		double t0 = (double)cli_now_ns();
		for (int i = 0; i < PAUSES; i++)
			pause_once();
		v[k] = ((double)cli_now_ns() - t0) / PAUSES;
	}
	double ns = bench_median(v, REPEATS);
	report("spin", ns, "one pause instruction: a loop of them, median of 5");
	m->spin = to_ps(ns);
}

/* yield: a look of a spin-wait after its pauses; median of REPEATS loops of YIELDS. */
static void measure_yield(cutoff_sim_model_t *m)
{
	double v[REPEATS];
	for (int k = 0; k < REPEATS; k++) {
		double t0 = (double)cli_now_ns();
		for (int i = 0; i < YIELDS; i++)
			sched_yield();
		v[k] = ((double)cli_now_ns() - t0) / YIELDS;
	}
	double ns = bench_median(v, REPEATS);
	report("yield", ns,
	       "one sched_yield, no other thread waiting: a loop of them, median of 5");
	m->yield = to_ps(ns);
}

/* The median time (ns) of SEARCHES depth-1 searches of tic-tac-toe's start by the
 * default driver through an engine of `threads` threads, or NAN after one line of error. */
static double trivial_search(int threads, bench_error_t *fail)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.threads = threads;
	cfg.tt_mb = 1;
	cli_log_t log = { "" };
	cfg.log = cli_log_keep;
	cfg.log_user = &log;
	int err;
	cutoff_engine_t *e = cutoff_engine_new(cutoff_ttt_game(), &cfg, &err);
	if (!e) {
		bench_fail_code(fail, "--calibrate: cannot make the engine", err, &log);
		return NAN;
	}
	cutoff_ttt_state_t root;
	cutoff_ttt_start(&root);
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = 1;
	double *v = malloc(sizeof(double) * SEARCHES), ns = NAN;
	for (int i = 0; v && i < SEARCHES; i++) {
		cutoff_result_t r;
		double t0 = (double)cli_now_ns();
		int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
		v[i] = (double)cli_now_ns() - t0;
		if (rc < 0) {
			bench_fail_code(fail, "--calibrate: the search failed", rc, &log);
			break;
		}
		if (i == SEARCHES - 1)
			ns = bench_median(v, SEARCHES);
	}
	if (!v)
		bench_fail(fail, "out of memory");
	free(v);
	cutoff_engine_free(e);
	return ns;
}

/* start: (a trivial search through 2 threads - through 1) / 2. Searches back to back,
 * so the worker is within its spin window (pool.c) at each hand-over; after a longer
 * idle time a worker sleeps and its start costs a `wake` instead. */
static bool measure_start(cutoff_sim_model_t *m, bench_error_t *err)
{
	double one = trivial_search(1, err), two = trivial_search(2, err);
	if (isnan(one) || isnan(two))
		return false;
	char how[200];
	snprintf(how, sizeof(how),
	         "(a depth-1 tic-tac-toe search through 2 threads, %.0f ns, - through 1, %.0f "
	         "ns) / 2, medians of %d",
	         two, one, SEARCHES);
	report("start", (two - one) / 2, how);
	m->start = to_ps((two - one) / 2);
	return true;
}

bool bench_calibrate(cutoff_sim_model_t *m, const bool *asked, int64_t positions,
                     bench_error_t *err)
{
	if (!measure_nodes(m, asked, positions, err))
		return false;
	double lock_ns = measure_lock();
	report("lock", lock_ns, "test-and-set acquire + release by one thread, median of 5 loops");
	m->lock = to_ps(lock_ns);
	double atomic_ns = measure_atomic();
	report("atomic", atomic_ns, "a fetch-and-add on a word this core holds, median of 5 loops");
	m->atomic = to_ps(atomic_ns);
	if (!measure_pairs(m, lock_ns, atomic_ns, err))
		return false;
	m->sockets = 1000;
	m->numa_transfer = 0;
	printf("sockets 1, numa_transfer 0: this machine's model is one socket "
	       "(docs/simulation.md gives figures for two)\n");
	measure_spin(m);
	measure_yield(m);
	if (!measure_start(m, err))
		return false;
	m->tt_probe = m->tt_store = m->tt_visible = 0;
	printf("tt_probe, tt_store, tt_visible 0: the node costs hold the table's work on one "
	       "thread; a store is seen by the other core after the store buffer drains, tens "
	       "of ns, below a node\n");
	return true;
}
