/* SPDX-License-Identifier: MIT */
/*
 * probe.c — the machine's ceilings for `cutoff bench`: what this machine, and
 * whatever else runs on it, lets n threads have, measured before every repeat of the
 * sweep (a shared virtual machine lends its CPUs unevenly, from minute to minute), so that
 * each speed-up can be read against what was possible when it was measured.
 *
 *   compute  a loop of integer multiplications that touches no memory
 *   reads    random 8-byte loads from one array of a workload's table size, shared by
 *            every thread (a table probe's access, without the search around it)
 *   writes   random 8-byte read-modify-writes into that array: a load and a plain store,
 *            as the table's stores are, not an atomic increment
 *   latency  dependent loads round one random cycle through the array's 64-byte lines
 *            (a pointer chase: each load's address is the previous load's value), on one
 *            thread pinned to each CPU the run uses, one CPU after the other
 *
 * An earlier loop of random reads over a shared 64 MiB array, tried beside the compute
 * loop, read differently inside a sweep and alone, and was not kept as a ceiling
 * (docs/measurements.md, "(j) Figures behind the code's choices"). The reads here are one
 * of three memory figures, each at a workload's own table size, and the rule of ceiling.c
 * weighs each by the share of a node's time that its kind of access takes, so that a
 * scaling moved by its context moves the ceiling that applies to a workload by little;
 * their spread over the repeats is shown.
 *
 * Compute, reads and writes are scalings: one thread does `work` rounds or accesses, n
 * threads each do as much at once, and the figure is n * T(1) / T(n), n on a machine of
 * its own for the compute loop. One thread is timed before the n and again after, and
 * T(1) is the mean of the two, so that a trend (a warming cache, a host that lends more or
 * less) falls on both sides alike. The work is set once, on first use, so that one thread
 * takes about 20 ms (compute) or 5 ms (memory). Latency is nanoseconds per load, over
 * 2^14 loads after an untimed walk of 2^15 (the whole cycle, when shorter) that warms that
 * CPU's caches and TLB; the read and write probes just before have touched every line.
 *
 * The arrays: one per table size that the run's workloads use (--hash, or each
 * workload's default), at most BENCH_PROBE_MAX_MB, made and filled once before the sweep
 * and kept to its end, as the table's memory is made (64-byte aligned, transparent huge
 * pages asked for), so that the probes meet the same caches and TLB. Word 0 of each line
 * is the chase's link to the next line, a random cyclic permutation of the lines
 * (Sattolo's shuffle), written at set-up and only read after; reads and writes use word 1
 * of a line, so that the cycle stays whole.
 *
 * Where the threads go: where the run's engines put theirs (--placement). Thread 0 is the
 * caller, never bound, as the engine's thread 0; thread i is bound to the PU that
 * cutoff_topology_plan() gives it; under `none` no thread is bound. The library binds
 * through hwloc, which is internal to it: this command knows only the public API, so it
 * binds with pthread_attr_setaffinity_np to the plan's PU numbers (operating-system
 * indices, which are the CPU numbers of an affinity mask). A thread that cannot be bound
 * (a synthetic topology's PU) runs unbound, as the engine's would; a latency CPU that
 * cannot be bound reads n/a. The CPUs of the latency probe are those the run's threads
 * may run on: every PU this process may use under `none`, the plan's first slots, one per
 * thread of the largest count, under a policy; at most BENCH_MAX_CPUS, in the plan's order.
 *
 * Shared memory. While a probe runs its threads share the array and nothing else: each
 * has its own job record, which the caller reads after pthread_join (which orders it).
 * Writes race by design: two threads may add to one word at once and one addition is
 * lost, which changes nothing measured. Every access to the array is one of the
 * compiler's __atomic builtins, relaxed: a plain load or store on x86-64 and ARM64, as the
 * table's own relaxed accesses are, and a race that is well-defined and visible as such
 * to ThreadSanitizer (src/base/atomic.h is internal to the library; cli/cmd_ttbench.c does
 * the same).
 *
 * Nothing here is global: the work sizes, arrays and figures live in the bench_t (its
 * machine part, b->mach).
 */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kit/args.h"
#include "lab/common.h"
#include "lab/probe.h"

enum {
	PROBE_LINE_WORDS = 8, /* 64-byte lines of 8-byte words */
	/* The chase: timed loads, after an untimed walk of at most this many (see the top) */
	PROBE_CHASE_STEPS = 1 << 14,
	PROBE_CHASE_WARM = 1 << 15
};

static const double COMPUTE_TARGET_S = 0.02, MEMORY_TARGET_S = 0.005;

/* One thread's part of a probe. */
typedef struct probe_job {
	uint64_t *words; /* the array (NULL for the compute loop) */
	uint64_t lines;  /* its 64-byte lines */
	uint64_t work;   /* rounds or accesses */
	uint64_t seed;
	uint64_t sink; /* what the loop computed, so that it is not left out */
	double time_s; /* the latency probe's own timing */
} probe_job_t;

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A line in 0 .. lines-1 (lines < 2^32) from 64 random bits, without a division. */
static uint64_t pick(uint64_t r, uint64_t lines) { return ((r >> 32) * lines) >> 32; }

static void *compute_loop(void *arg)
{
	probe_job_t *j = arg;
	/* Eight independent chains: enough to keep a core's multipliers busy, so that two
	 * threads on the two hardware threads of one core do not each run at full speed. */
	uint64_t x[8];
	for (int k = 0; k < 8; k++)
		x[k] = j->seed + (uint64_t)k;
	for (uint64_t i = 0; i < j->work; i++)
		for (int k = 0; k < 8; k++)
			x[k] = x[k] * 6364136223846793005u + 1442695040888963407u;
	for (int k = 0; k < 8; k++)
		j->sink += x[k];
	return NULL;
}

static void *read_loop(void *arg)
{
	probe_job_t *j = arg;
	uint64_t x = j->seed | 1, sum = 0;
	for (uint64_t i = 0; i < j->work; i++) {
		uint64_t *w = &j->words[pick(xorshift(&x), j->lines) * PROBE_LINE_WORDS + 1];
		sum += __atomic_load_n(w, __ATOMIC_RELAXED);
	}
	j->sink = sum;
	return NULL;
}

static void *write_loop(void *arg)
{
	probe_job_t *j = arg;
	uint64_t x = j->seed | 1;
	for (uint64_t i = 0; i < j->work; i++) {
		uint64_t *w = &j->words[pick(xorshift(&x), j->lines) * PROBE_LINE_WORDS + 1];
		__atomic_store_n(w, __atomic_load_n(w, __ATOMIC_RELAXED) + x, __ATOMIC_RELAXED);
	}
	j->sink = x;
	return NULL;
}

static void *chase_loop(void *arg)
{
	probe_job_t *j = arg;
	uint64_t i = j->seed % j->lines;
	uint64_t warm = j->lines < PROBE_CHASE_WARM ? j->lines : PROBE_CHASE_WARM;
	for (uint64_t k = 0; k < warm; k++)
		i = __atomic_load_n(&j->words[i * PROBE_LINE_WORDS], __ATOMIC_RELAXED);
	double t0 = cli_now_s();
	for (uint64_t k = 0; k < j->work; k++)
		i = __atomic_load_n(&j->words[i * PROBE_LINE_WORDS], __ATOMIC_RELAXED);
	j->time_s = cli_now_s() - t0;
	j->sink = i;
	return NULL;
}

/* Starts `loop` on a thread bound to CPU `pu` (-1: unbound). With `strict` a thread that
 * cannot be bound is not started; without, it runs unbound. 0 or an errno value. */
static int start_thread(pthread_t *t, int pu, bool strict, void *(*loop)(void *), void *arg)
{
	if (pu >= 0 && pu < CPU_SETSIZE) {
		pthread_attr_t attr;
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(pu, &set);
		int rc = pthread_attr_init(&attr);
		if (rc == 0) {
			rc = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
			if (rc == 0)
				rc = pthread_create(t, &attr, loop, arg);
			pthread_attr_destroy(&attr);
		}
		if (rc == 0 || strict)
			return rc;
	} else if (strict && pu >= 0) {
		return EINVAL;
	}
	return pthread_create(t, NULL, loop, arg);
}

/* The wall time of `loop` on n threads at once (at most BENCH_PROBE_THREADS), placed as the
 * run's engines place theirs, each on its own copy of `job` with a seed of its own; NAN
 * when a thread could not be started. */
static double team_time(const bench_t *b, void *(*loop)(void *), const probe_job_t *job, int n)
{
	pthread_t t[BENCH_PROBE_THREADS];
	probe_job_t jobs[BENCH_PROBE_THREADS];
	if (n > BENCH_PROBE_THREADS)
		n = BENCH_PROBE_THREADS;
	for (int i = 0; i < n; i++) {
		jobs[i] = *job;
		jobs[i].seed = job->seed + 0x9e3779b97f4a7c15u * (uint64_t)(i + 1);
	}
	double t0 = cli_now_s();
	int started = 0;
	while (started < n - 1 && start_thread(&t[started + 1], b->mach.probe_pu[started + 1],
	                                       false, loop, &jobs[started + 1]) == 0)
		started++;
	loop(&jobs[0]);
	for (int i = 1; i <= started; i++)
		pthread_join(t[i], NULL);
	double dt = cli_now_s() - t0;
	return started == n - 1 ? dt : NAN;
}

/* Sets job->work, on first use, so that one thread takes about `target` seconds. */
static void calibrate(const bench_t *b, void *(*loop)(void *), probe_job_t *job, uint64_t *work,
                      double target)
{
	if (!*work) {
		*work = 1u << 12;
		job->work = *work;
		while (team_time(b, loop, job, 1) < target && *work < (1ull << 40))
			job->work = *work *= 2;
	}
	job->work = *work;
}

/* n threads' scaling on `loop`, n * T(1) / T(n); *one_s gets T(1), the mean of the
 * timings before and after the n. */
static double scaling(const bench_t *b, void *(*loop)(void *), const probe_job_t *job, int n,
                      double *one_s)
{
	double one = team_time(b, loop, job, 1), many = team_time(b, loop, job, n);
	one = (one + team_time(b, loop, job, 1)) / 2;
	*one_s = one;
	if (n > BENCH_PROBE_THREADS)
		n = BENCH_PROBE_THREADS;
	return isnan(many) || many <= 0 ? NAN : n * one / many;
}

/* Nanoseconds per dependent load on CPU `pu`, NAN when it cannot be bound there. */
static double chase_ns(const bench_mem_t *m, int pu, uint64_t seed)
{
	probe_job_t job = {
		.words = m->words, .lines = m->lines, .work = PROBE_CHASE_STEPS, .seed = seed
	};
	pthread_t t;
	if (start_thread(&t, pu, true, chase_loop, &job) != 0)
		return NAN;
	pthread_join(t, NULL);
	return job.time_s * 1e9 / (double)job.work;
}

/* The CPUs of the latency probe and the PUs of the probes' threads (see the top). */
static bool plan_cpus(bench_t *b)
{
	int pu[CUTOFF_MAX_THREADS];
	cutoff_placement_t policy = b->set.cfg.placement == CUTOFF_PLACE_NONE
	                                    ? CUTOFF_PLACE_COMPACT
	                                    : b->set.cfg.placement;
	int most = b->set.counts[b->set.ncounts - 1];
	int nslots = b->mach.pus < CUTOFF_MAX_THREADS ? b->mach.pus : CUTOFF_MAX_THREADS;
	int asked = nslots < CUTOFF_MAX_THREADS ? nslots + 1 : nslots;
	if (nslots < 1 || cutoff_topology_plan(NULL, asked, policy, pu, NULL, NULL, NULL) < 0)
		return false;
	/* Thread i takes slot i % nslots and thread 0 is never bound: slot 0's PU is that of
	 * thread nslots, when the plan reaches it. */
	int used = b->set.cfg.placement == CUTOFF_PLACE_NONE || most > nslots ? nslots : most;
	b->mach.ncpus = 0;
	for (int s = 0; s < used && b->mach.ncpus < BENCH_MAX_CPUS; s++) {
		int p = s == 0 ? (asked > nslots ? pu[nslots] : -1) : pu[s];
		if (p >= 0)
			b->mach.cpus[b->mach.ncpus++] = p;
	}
	for (int i = 0; i < BENCH_PROBE_THREADS; i++)
		b->mach.probe_pu[i] = -1;
	if (b->set.cfg.placement == CUTOFF_PLACE_NONE)
		return true;
	int n = most < BENCH_PROBE_THREADS ? most : BENCH_PROBE_THREADS;
	if (cutoff_topology_plan(NULL, n, b->set.cfg.placement, pu, NULL, NULL, NULL) < 0)
		return false;
	for (int i = 1; i < n; i++)
		b->mach.probe_pu[i] = pu[i];
	return true;
}

/* The table's memory, as tt.c makes it: 64-byte aligned, transparent huge pages asked for
 * over its page-aligned part (only advice: without them nothing changes). */
static uint64_t *probe_alloc(size_t bytes)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, bytes) != 0)
		return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	long page = sysconf(_SC_PAGESIZE);
	if (page > 0) {
		uintptr_t start = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
		uintptr_t end = ((uintptr_t)p + bytes) & ~((uintptr_t)page - 1);
		if (end > start)
			(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
	}
#endif
	return p;
}

/* The array of one table size, its cycle made (see the top). */
static bool mem_make(bench_mem_t *m, int repeat, int ncounts, int ncpus)
{
	m->probe_mb = m->table_mb < BENCH_PROBE_MAX_MB ? m->table_mb : BENCH_PROBE_MAX_MB;
	size_t bytes = m->probe_mb << 20;
	m->lines = bytes / (PROBE_LINE_WORDS * sizeof(uint64_t));
	m->words = probe_alloc(bytes);
	size_t per = (size_t)repeat;
	m->read = malloc((size_t)ncounts * per * sizeof(double));
	m->write = malloc((size_t)ncounts * per * sizeof(double));
	m->read_ns = malloc(per * sizeof(double));
	m->write_ns = malloc(per * sizeof(double));
	m->latency = malloc((size_t)(ncpus ? ncpus : 1) * per * sizeof(double));
	if (!m->words || !m->read || !m->write || !m->read_ns || !m->write_ns || !m->latency)
		return false;
	memset(m->words, 0, bytes);
	for (uint64_t i = 0; i < m->lines; i++)
		m->words[i * PROBE_LINE_WORDS] = i;
	uint64_t x = 0x2545f4914f6cdd1du;
	for (uint64_t i = m->lines - 1; i > 0; i--) { /* Sattolo: one cycle through all */
		uint64_t j = xorshift(&x) % i, *a = &m->words[i * PROBE_LINE_WORDS];
		uint64_t *c = &m->words[j * PROBE_LINE_WORDS], t = *a;
		*a = *c;
		*c = t;
	}
	return true;
}

/* The per-repeat figures of every run, NAN until a probe measures them ("n/a"). */
static bool alloc_figures(bench_t *b)
{
	size_t per = (size_t)b->set.ncounts * (size_t)b->set.repeat;
	b->mach.ceiling = malloc(per * sizeof(*b->mach.ceiling));
	b->mach.probe_s = malloc((size_t)b->set.repeat * sizeof(*b->mach.probe_s));
	if (!b->mach.ceiling || !b->mach.probe_s) {
		bench_fail(b->err, "out of memory");
		return false;
	}
	for (size_t i = 0; i < per; i++)
		b->mach.ceiling[i] = NAN;
	for (int r = 0; r < b->set.repeat; r++)
		b->mach.probe_s[r] = NAN;
	return true;
}

bool bench_probe_setup(bench_t *b)
{
	b->mach.nmem = 0;
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++) {
		size_t mb = b->res.work[wk].cfg.tt_mb;
		bool seen = !b->set.workloads[wk] || mb == 0;
		for (int k = 0; k < b->mach.nmem && !seen; k++)
			seen = b->mach.mem[k].table_mb == mb;
		if (seen)
			continue;
		int k = b->mach.nmem++;
		for (; k > 0 && b->mach.mem[k - 1].table_mb > mb; k--) /* smallest first */
			b->mach.mem[k] = b->mach.mem[k - 1];
		b->mach.mem[k].table_mb = mb;
	}
	if (!alloc_figures(b))
		return false;
	if (!plan_cpus(b)) {
		bench_fail(b->err, "cannot plan where the probes' threads go (placement %s)",
		           cli_placement_names[b->set.cfg.placement]);
		return false;
	}
	for (int k = 0; k < b->mach.nmem; k++) {
		if (!mem_make(&b->mach.mem[k], b->set.repeat, b->set.ncounts, b->mach.ncpus)) {
			bench_fail(b->err, "out of memory for the memory probe of %zu MiB",
			           b->mach.mem[k].probe_mb);
			return false;
		}
	}
	return true;
}

/* The memory probes of one array before repeat r (from 0). */
static void probe_mem(bench_t *b, bench_mem_t *m, int r)
{
	probe_job_t job = { .words = m->words, .lines = m->lines, .seed = (uint64_t)r + 1 };
	probe_job_t wjob = job;
	calibrate(b, read_loop, &job, &m->read_work, MEMORY_TARGET_S);
	calibrate(b, write_loop, &wjob, &m->write_work, MEMORY_TARGET_S);
	double rone = NAN, wone = NAN;
	for (int c = 0; c < b->set.ncounts; c++) {
		int n = b->set.counts[c], at = c * b->set.repeat + r;
		m->read[at] = m->write[at] = NAN;
		if (n < 2)
			continue;
		double one;
		m->read[at] = scaling(b, read_loop, &job, n, &one);
		rone = isnan(rone) ? one : rone;
		m->write[at] = scaling(b, write_loop, &wjob, n, &one);
		wone = isnan(wone) ? one : wone;
	}
	if (isnan(rone))
		rone = team_time(b, read_loop, &job, 1);
	if (isnan(wone))
		wone = team_time(b, write_loop, &wjob, 1);
	m->read_ns[r] = rone * 1e9 / (double)job.work;
	m->write_ns[r] = wone * 1e9 / (double)wjob.work;
	for (int k = 0; k < b->mach.ncpus; k++)
		m->latency[k * b->set.repeat + r] =
			chase_ns(m, b->mach.cpus[k], (uint64_t)(r * 64 + k));
}

void bench_probe_repeat(bench_t *b, int rep)
{
	double t0 = cli_now_s();
	int r = rep - 1;
	probe_job_t job = { .seed = 1 };
	for (int c = 0; c < b->set.ncounts; c++) {
		double one;
		int n = b->set.counts[c];
		if (n > 1)
			calibrate(b, compute_loop, &job, &b->mach.spin_work, COMPUTE_TARGET_S);
		b->mach.ceiling[c * b->set.repeat + r] =
			n > 1 ? scaling(b, compute_loop, &job, n, &one) : NAN;
	}
	for (int k = 0; k < b->mach.nmem; k++)
		probe_mem(b, &b->mach.mem[k], r);
	b->mach.probe_s[r] = cli_now_s() - t0;
}

bool bench_probe_none(bench_t *b)
{
	b->mach.nmem = 0;
	b->mach.ncpus = 0;
	return alloc_figures(b);
}

void bench_probe_free(bench_t *b)
{
	for (int k = 0; k < b->mach.nmem; k++) {
		bench_mem_t *m = &b->mach.mem[k];
		free(m->words);
		free(m->read);
		free(m->write);
		free(m->read_ns);
		free(m->write_ns);
		free(m->latency);
		memset(m, 0, sizeof(*m));
	}
	b->mach.nmem = 0;
	free(b->mach.ceiling);
	free(b->mach.probe_s);
	b->mach.ceiling = b->mach.probe_s = NULL;
}

bool bench_spread(const double *v, int n, int stride, double *median, double *min, double *max)
{
	double s[1000];
	int k = 0;
	for (int i = 0; v && i < n && k < 1000; i++)
		if (!isnan(v[i * stride]))
			s[k++] = v[i * stride];
	if (k == 0)
		return false;
	for (int i = 1; i < k; i++) /* insertion sort: a few values */
		for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
			double t = s[j];
			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	*median = k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
	*min = s[0];
	*max = s[k - 1];
	return true;
}

bool bench_ceiling(const bench_t *b, int c, double *median, double *min, double *max)
{
	return b->mach.ceiling && bench_spread(b->mach.ceiling + c * b->set.repeat, b->set.repeat,
	                                       1, median, min, max);
}

const bench_mem_t *bench_mem_of(const bench_t *b, int wk)
{
	for (int k = 0; k < b->mach.nmem; k++)
		if (b->mach.mem[k].table_mb == b->res.work[wk].cfg.tt_mb)
			return &b->mach.mem[k];
	return NULL;
}
