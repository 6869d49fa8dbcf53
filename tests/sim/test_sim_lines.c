/* SPDX-License-Identifier: MIT */
/*
 * The simulator's cache lines (src/sim/sched.c, "lines"): what a hot word costs as the
 * virtual threads that touch it grow, measured in virtual time on the pool directly.
 *
 *   - N threads that each add K times to one shared counter take at least N K transfers
 *     end to end (the line moves one transfer at a time), while N threads on counters of
 *     their own take K atomics each, whatever N;
 *   - a word written once and read by many costs each reader one transfer at most (the
 *     first read after the write), not one per read;
 *   - a lock taken K times by each of N threads costs more per take as N grows (its
 *     waiters' re-reads and failed exchanges queue on its line), and nothing more than a
 *     free lock for one thread alone;
 *   - a model with no line cost (line_transfer, atomic, numa_transfer 0) charges none of
 *     this: the counter's virtual time does not grow with N (the old model's behaviour);
 *   - two sockets: a transfer from the other socket pays numa_transfer more;
 *   - each figure is the same twice (a run is a function of the model).
 */
#include <stdio.h>
#include <string.h>

#include "base/atomic.h"
#include "base/platform.h"
#include "base/pool.h"
#include "check.h"
#include "sim/sim.h"

enum {
	K = 200,
	MAX_N = 64
};

typedef struct job {
	uint64_t shared;
	uint64_t own[MAX_N][8]; /* a word each, 64 bytes apart */
	int flag;
	int reads; /* plain: each thread's own count is not needed, only a use of the load */
	cutoff_spinlock_t lock;
	int kind;
} job_t;

enum {
	SHARED,
	OWN,
	READERS,
	LOCK
};

static void run_job(void *arg, int index, int threads)
{
	job_t *j = arg;
	(void)threads;
	for (int k = 0; k < K; k++) {
		switch (j->kind) {
		case SHARED:
			cutoff_u64_faa(&j->shared, 1);
			break;
		case OWN:
			cutoff_u64_faa(&j->own[index][0], 1);
			break;
		case READERS:
			if (index == 0 && k == 0)
				cutoff_int_store_release(&j->flag, 1);
			else
				j->reads += cutoff_int_load_acquire(&j->flag) != 0;
			break;
		case LOCK:
			cutoff_spinlock_lock(&j->lock);
			j->shared++;
			cutoff_spinlock_unlock(&j->lock);
			break;
		}
	}
}

/* The virtual time (ps) of one job of `kind` on n threads under model m, and the
 * simulator's stats. */
static uint64_t run(const cutoff_sim_model_t *m, int n, int kind, cutoff_sim_stats_t *st)
{
	cutoff_sim_t *sim = cutoff_sim_new(m, CUTOFF_SIM_CLOCK, 1);
	CHECK(sim != NULL, "%s", "sim != NULL");
	cutoff_sim_install(sim);
	cutoff_pool_t *pool = NULL;
	CHECK(cutoff_pool_new(n, 0, NULL, NULL, NULL, &pool) == 0, "%s",
	      "cutoff_pool_new(n, 0, NULL, NULL, NULL, &pool) == 0");
	static job_t j;
	memset(&j, 0, sizeof(j));
	cutoff_spinlock_init(&j.lock);
	j.kind = kind;
	cutoff_pool_run(pool, run_job, &j);
	if (kind == SHARED)
		CHECK(j.shared == (uint64_t)n * K, "%s", "j.shared == (uint64_t)n * K");
	if (kind == LOCK)
		CHECK(j.shared == (uint64_t)n * K, "%s", "j.shared == (uint64_t)n * K");
	cutoff_sim_stats(sim, st);
	uint64_t t = st->elapsed;
	cutoff_pool_free(pool);
	cutoff_sim_install(NULL);
	cutoff_sim_free(sim);
	return t;
}

/* A model with nothing but the lines (and a start of 0: the elapsed time is theirs). */
static cutoff_sim_model_t lines_model(uint64_t transfer, uint64_t atomic)
{
	cutoff_sim_model_t m;
	cutoff_sim_model_default(&m);
	m.start = 0;
	m.wake = 0;
	m.line_transfer = transfer;
	m.atomic = atomic;
	m.tt_store_other = 0;
	m.lock_handoff = 0;
	return m;
}

int main(void)
{
	const uint64_t T = 100000, A = 10000; /* 100 ns, 10 ns */
	cutoff_sim_model_t m = lines_model(T, A);
	cutoff_sim_stats_t st, st2;

	/* One hot counter: at least n K transfers end to end; own counters: K atomics. */
	for (int n = 2; n <= MAX_N; n *= 4) {
		uint64_t hot = run(&m, n, SHARED, &st);
		uint64_t hot2 = run(&m, n, SHARED, &st2);
		CHECK(hot == hot2 && st.transfers == st2.transfers, "%s",
		      "hot == hot2 && st.transfers == st2.transfers");
		printf("shared counter, %d threads: %.1f us, %llu transfers\n", n,
		       (double)hot / 1e6, (unsigned long long)st.transfers);
		CHECK(hot >= (uint64_t)(n * K - 1) * T, "%s", "hot >= (uint64_t)(n * K - 1) * T");
		CHECK(st.transfers >= (uint64_t)(n * K - 1), "%s",
		      "st.transfers >= (uint64_t)(n * K - 1)");
		uint64_t own = run(&m, n, OWN, &st);
		printf("own counters,   %d threads: %.1f us, %llu transfers\n", n,
		       (double)own / 1e6, (unsigned long long)st.transfers);
		CHECK(st.transfers == 0, "%s", "st.transfers == 0");
		CHECK(own <= (uint64_t)K * A + 1000 * 1000, "%s",
		      "own <= (uint64_t)K * A + 1000 * 1000"); /* K atomics, the job's edges */
	}

	/* One write, many reads: a transfer per reader at most. */
	{
		int n = 16;
		uint64_t t = run(&m, n, READERS, &st);
		printf("one writer, %d readers of %d looks each: %llu transfers, %.1f us\n", n, K,
		       (unsigned long long)st.transfers, (double)t / 1e6);
		CHECK(st.transfers >= 1, "%s", "st.transfers >= 1");
		CHECK(st.transfers <= (uint64_t)n, "%s", "st.transfers <= (uint64_t)n");
		CHECK(t < (uint64_t)K * T, "%s", "t < (uint64_t)K * T");
	}

	/* A lock: dearer per take as its waiters grow; one thread pays `lock` alone. */
	{
		uint64_t one = run(&m, 1, LOCK, &st);
		CHECK(st.transfers == 0, "%s", "st.transfers == 0");
		uint64_t per_prev = 0;
		for (int n = 2; n <= MAX_N; n *= 4) {
			uint64_t t = run(&m, n, LOCK, &st);
			uint64_t per = t / ((uint64_t)n * K);
			printf("lock, %d threads: %.1f ns a take (%llu transfers)\n", n,
			       (double)per / 1e3, (unsigned long long)st.transfers);
			CHECK(per > per_prev, "%s", "per > per_prev");
			CHECK(n < 8 || per >= T, "%s", "n < 8 || per >= T");
			per_prev = per;
		}
		CHECK(one / K <= m.lock + 1000, "%s", "one / K <= m.lock + 1000");
	}

	/* No line costs: the hot counter costs no more at 64 threads than at 2. */
	{
		cutoff_sim_model_t off = lines_model(0, 0);
		off.numa_transfer = 0;
		uint64_t t2 = run(&off, 2, SHARED, &st);
		CHECK(st.transfers == 0, "%s", "st.transfers == 0");
		uint64_t t64 = run(&off, 64, SHARED, &st);
		printf("no line costs: %.1f us at 2 threads, %.1f us at 64\n", (double)t2 / 1e6,
		       (double)t64 / 1e6);
		CHECK(t64 <= t2 + 64 * 1000, "%s", "t64 <= t2 + 64 * 1000");
	}

	/* Two sockets: the hot counter's transfers between them pay numa_transfer more. */
	{
		cutoff_sim_model_t two = m;
		two.sockets = 2000;
		two.numa_transfer = 200000;
		uint64_t one_socket = run(&m, 16, SHARED, &st);
		uint64_t two_sockets = run(&two, 16, SHARED, &st2);
		printf("16 threads, one socket %.1f us, two %.1f us\n", (double)one_socket / 1e6,
		       (double)two_sockets / 1e6);
		CHECK(two_sockets > one_socket, "%s", "two_sockets > one_socket");
		CHECK(st2.line_work > st.line_work, "%s", "st2.line_work > st.line_work");
	}
	return check_report();
}
