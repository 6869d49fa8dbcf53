/* SPDX-License-Identifier: MIT */
/*
 * cmd_ttbench.c — `cutoff ttbench`: how many probes and stores per second the shared table
 * takes, with one thread and with N, on the lock-free table and on a table of the same
 * size made with CUTOFF_TT_LOCKED (a spinlock per bucket), in one run so that the ratio
 * of the two is measured under the same conditions. Built over the public API only, as
 * any outside user would measure the table.
 *
 * The work. Each thread repeats one random mix, three probes for one store, on keys drawn
 * uniformly from a pool of K keys, by default four times the table's entries, so that
 * entries are replaced and probes miss as in a real search. Key i of the pool is
 * cutoff_oracle_mix(i ^ salt), a bijection, so the pool takes no memory whatever its size.
 * Every entry is a function of its key (move, value, least depth; only the bound, the ply
 * and an extra depth of 0..3 vary): src/core/tt_oracle.h, the oracle of
 * tests/core/test_tt_torture.c, so that every answer is checked and a corrupt hit (a torn entry,
 * or another key's, returned as a hit) is counted. A benchmark measures and a test decides:
 * the count is reported, with a warning when it is not 0, and the exit status stays 0;
 * test_tt_torture is what fails on a corrupt hit. The check costs the same on both tables.
 *
 * Timing. The four measurements (lock-free and locked, 1 and N threads) run one after the
 * other, each on a cleared table, after an untimed warm-up of 0.1 s on each table. The
 * threads of a measurement are made first and then wait, with the main thread, on a
 * pthread barrier, which opens S seconds before the deadline. Every thread stops on a
 * shared flag, which the main thread raises at the deadline, and so does any thread that
 * finds the deadline passed (it reads CLOCK_MONOTONIC every 256 operations): with more
 * threads than processors the main thread may wait long for one. Each thread reads the
 * clock as it starts and as it stops, and the figure is all the operations over the span
 * from the first start to the last stop: the main thread's own clock would miss the work
 * done while it waited. The figures vary from run to run with what else the machine
 * does: run it several times.
 *
 * The stop flag is the only memory shared while the threads run, besides the table. The
 * library's atomics layer (src/base/atomic.h) is internal and this command knows only the
 * public API, so the flag is read and written here with the compiler's __atomic builtins,
 * relaxed: it publishes nothing (each thread's counters are read after pthread_join,
 * which orders them), it only has to be seen sooner or later, and an atomic access makes
 * the race well-defined, and visible as such to ThreadSanitizer, where a plain or
 * volatile int would be a data race.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/tt_oracle.h"
#include "cutoff.h"
#include "kit/args.h"
#include "kit/json.h"
#include "kit/report.h"

static const char ttbench_usage[] =
	"usage: cutoff ttbench [--threads N] [--mb M] [--seconds S] [--keys K] [--json]\n"
	"\n"
	"Measures probes and stores per second on the shared transposition table, with one\n"
	"thread and with N threads, on the lock-free table and on a table of the same size\n"
	"with a lock per bucket (CUTOFF_TT_LOCKED), and reports the lock-free / locked ratio.\n"
	"Each thread does three probes for one store, on keys drawn at random from a pool of\n"
	"K keys; every hit is checked against the key it was asked for, and the hits that do\n"
	"not belong to their key (corrupt hits: the table is broken) are counted and reported.\n";

enum {
	PROBES_PER_STORE = 3,
	BATCH = 256 /* operations between two reads of the stop flag */
};

static const double WARMUP_S = 0.1; /* per table, before the measurements */

static uint64_t next_u64(uint64_t *s) { return cutoff_oracle_mix(*s += 0x9e3779b97f4a7c15u); }

static uint64_t pool_key(uint64_t i) { return cutoff_oracle_mix(i ^ 0x2545f4914f6cdd1du); }

typedef struct bench_run {
	cutoff_tt_t *tt;
	uint64_t keys;
	int stop;                /* raised at the deadline; __atomic, relaxed (see the top) */
	double deadline;         /* CLOCK_MONOTONIC, seconds; written before the barrier */
	bool abort;              /* under `gate`: a thread could not be made, do not start */
	pthread_mutex_t gate;    /* held while the threads are made */
	pthread_barrier_t start; /* the threads and the main thread */
} bench_run_t;

/* One thread's counters: plain fields in its own cache line, summed after the join. */
typedef struct bench_worker {
	bench_run_t *run;
	pthread_t thread;
	uint64_t rng;
	uint64_t ops, probes, hits, corrupt;
	double started, stopped; /* CLOCK_MONOTONIC, seconds */
} __attribute__((aligned(64))) bench_worker_t;

static void one_operation(bench_worker_t *w, cutoff_tt_t *tt, uint64_t keys)
{
	uint64_t r = next_u64(&w->rng);
	/* The high bits pick the key (Lemire's multiply: uniform enough for any K), the low
	 * ones the operation. */
	uint64_t key = pool_key((uint64_t)(((unsigned __int128)r * keys) >> 64));
	uint64_t h = cutoff_oracle_hash(key);
	int ply = (int)(r >> 2 & 31);
	if ((r & 3) == 0) {
		cutoff_bound_t bound = (cutoff_bound_t)(1 + (r >> 9 & 0xff) % 3);
		cutoff_oracle_store(tt, key, h, (int)(r >> 7 & 3), ply, bound);
		return;
	}
	int depth = cutoff_oracle_depth(h) + (int)(r >> 17 & 0xff) % 6;
	cutoff_tt_hit_t hit;
	bool found = cutoff_tt_probe(tt, key, depth, ply, &hit);
	w->probes++;
	w->hits += found;
	w->corrupt += !cutoff_oracle_answer_ok(h, depth, ply, found, &hit);
}

static void *worker_main(void *arg)
{
	bench_worker_t *w = arg;
	bench_run_t *run = w->run;

	pthread_mutex_lock(&run->gate);
	bool go = !run->abort;
	pthread_mutex_unlock(&run->gate);
	if (!go)
		return NULL;
	pthread_barrier_wait(&run->start);
	w->started = cli_now_s();
	for (;;) {
		for (int i = 0; i < BATCH; i++)
			one_operation(w, run->tt, run->keys);
		w->ops += BATCH;
		w->stopped = cli_now_s();
		if (__atomic_load_n(&run->stop, __ATOMIC_RELAXED))
			break;
		if (w->stopped >= run->deadline) {
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	return NULL;
}

static void sleep_until(double when)
{
	struct timespec until;
	until.tv_sec = (time_t)when;
	until.tv_nsec = (long)((when - (double)until.tv_sec) * 1e9);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		continue;
}

/* The figures of one measurement. */
typedef struct measure {
	double ops_per_s;
	uint64_t ops, probes, hits, corrupt;
} measure_t;

/* Runs `threads` threads on `tt` for `seconds`. False, after the error line, when the
 * threads could not be made. */
static bool measure(cutoff_tt_t *tt, int threads, double seconds, uint64_t keys, measure_t *m)
{
	bench_run_t run = { .tt = tt, .keys = keys };
	bench_worker_t *w =
		aligned_alloc(sizeof(bench_worker_t), (size_t)threads * sizeof(bench_worker_t));
	if (!w) {
		cli_error("ttbench", "cannot allocate the state of %d threads", threads);
		return false;
	}
	memset(w, 0, (size_t)threads * sizeof(*w));
	memset(m, 0, sizeof(*m));
	cutoff_tt_clear(tt);
	int rc = pthread_barrier_init(&run.start, NULL, (unsigned)threads + 1);
	if (rc != 0) {
		free(w);
		cli_error("ttbench", "cannot make a barrier for %d threads: %s", threads,
		          strerror(rc));
		return false;
	}
	pthread_mutex_init(&run.gate, NULL);

	/* The gate stays shut while the threads are made, so that none waits on the barrier
	 * before all exist: should one fail, the others are told to leave instead. */
	pthread_mutex_lock(&run.gate);
	int made = 0;
	for (; made < threads; made++) {
		w[made].run = &run;
		w[made].rng = 0x9e3779b97f4a7c15u * (uint64_t)(made + 1) ^ (uint64_t)threads;
		rc = pthread_create(&w[made].thread, NULL, worker_main, &w[made]);
		if (rc != 0)
			break;
	}
	run.abort = made < threads;
	pthread_mutex_unlock(&run.gate);

	if (!run.abort) {
		run.deadline = cli_now_s() + seconds;
		pthread_barrier_wait(&run.start);
		sleep_until(run.deadline);
		__atomic_store_n(&run.stop, 1, __ATOMIC_RELAXED);
	}
	double t0 = 0, t1 = 0;
	for (int i = 0; i < made; i++) {
		pthread_join(w[i].thread, NULL);
		m->ops += w[i].ops;
		m->probes += w[i].probes;
		m->hits += w[i].hits;
		m->corrupt += w[i].corrupt;
		if (i == 0 || w[i].started < t0)
			t0 = w[i].started;
		if (i == 0 || w[i].stopped > t1)
			t1 = w[i].stopped;
	}
	pthread_barrier_destroy(&run.start);
	pthread_mutex_destroy(&run.gate);
	free(w);
	if (made < threads) {
		cli_error("ttbench", "cannot start thread %d of %d: %s", made + 1, threads,
		          strerror(rc));
		return false;
	}
	m->ops_per_s = t1 > t0 ? (double)m->ops / (t1 - t0) : 0.0;
	return true;
}

/* --seconds: a plain decimal number (digits, at most one point), 0.1 .. 600. */
/* --seconds: the length of each measurement, decimals allowed. */
#define SECONDS_MIN 0.1
#define SECONDS_MAX 600.0
#define SECONDS_DEFAULT 1.0

static bool parse_seconds(const char *text, double *out)
{
	char q[CLI_QUOTE_SIZE];
	size_t whole = strspn(text, "0123456789"), frac = 0;
	const char *p = text + whole;

	if (*p == '.') {
		frac = strspn(p + 1, "0123456789");
		p += 1 + frac;
	}
	if (*p == '\0' && whole + frac > 0) {
		/* No setlocale() in this program: strtod reads '.' as the C locale does. */
		double v = strtod(text, NULL);
		if (v >= SECONDS_MIN && v <= SECONDS_MAX) {
			*out = v;
			return true;
		}
	}
	cli_error("ttbench",
	          "--seconds: expected a number of seconds in %g..%g (like 2 or 0.5), got %s",
	          SECONDS_MIN, SECONDS_MAX, cli_quote(q, sizeof(q), text));
	return false;
}

/* --keys: an integer in 1 .. 2^64 - 1 (cli_parse_uint64 would take 0 and name 0 in its
 * message). */
static bool parse_keys(const char *text, uint64_t *out)
{
	char q[CLI_QUOTE_SIZE];
	char *end;
	unsigned long long v = 0;

	if (text[0] >= '0' && text[0] <= '9') {
		errno = 0;
		v = strtoull(text, &end, 10);
		if (errno == 0 && *end == '\0' && v >= 1) {
			*out = (uint64_t)v;
			return true;
		}
	}
	cli_error("ttbench", "--keys: expected an integer in 1..%" PRIu64 ", got %s", UINT64_MAX,
	          cli_quote(q, sizeof(q), text));
	return false;
}

/* The CPUs this process may run on (`taskset` included), at least 2 and at most
 * CUTOFF_MAX_THREADS. */
static int default_threads(void)
{
	int n = cli_usable_cpus();
	if (n < 2)
		return 2;
	return n > CUTOFF_MAX_THREADS ? CUTOFF_MAX_THREADS : n;
}

typedef struct bench_report {
	int threads;
	int64_t mb;
	double seconds;
	uint64_t keys, entries;
	measure_t lockfree_1, locked_1, lockfree_n, locked_n;
	uint64_t warmup_corrupt; /* the warm-up's answers are checked too */
} bench_report_t;

static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

/* The sum of a counter over the measurements made (with one thread, two of them). */
#define SUM_MEASURED(r, field)                                                                     \
	((r)->lockfree_1.field + (r)->locked_1.field +                                             \
	 ((r)->threads > 1 ? (r)->lockfree_n.field + (r)->locked_n.field : 0))

static uint64_t total_corrupt(const bench_report_t *r)
{
	return SUM_MEASURED(r, corrupt) + r->warmup_corrupt;
}

static int print_json(const bench_report_t *r)
{
	json_writer_t w;
	uint64_t probes = SUM_MEASURED(r, probes), hits = SUM_MEASURED(r, hits);

	jw_init(&w, stdout);
	jw_begin_object(&w, NULL);
	jw_int(&w, "threads", r->threads);
	jw_int(&w, "mb", r->mb);
	jw_double(&w, "seconds", r->seconds);
	jw_uint(&w, "keys", r->keys);
	jw_uint(&w, "entries", r->entries);
	jw_int(&w, "probes_per_store", PROBES_PER_STORE);
	jw_double(&w, "lockfree_ops_per_s_1", r->lockfree_1.ops_per_s);
	jw_double(&w, "locked_ops_per_s_1", r->locked_1.ops_per_s);
	jw_double(&w, "ratio_1", ratio(r->lockfree_1.ops_per_s, r->locked_1.ops_per_s));
	jw_double(&w, "lockfree_ops_per_s", r->lockfree_n.ops_per_s);
	jw_double(&w, "locked_ops_per_s", r->locked_n.ops_per_s);
	jw_double(&w, "ratio", ratio(r->lockfree_n.ops_per_s, r->locked_n.ops_per_s));
	jw_uint(&w, "probes", probes);
	jw_uint(&w, "hits", hits);
	jw_uint(&w, "corrupt_hits", total_corrupt(r));
	jw_end(&w);
	return cli_json_finish(&w, "ttbench");
}

static void print_text(const bench_report_t *r)
{
	char head[32], a[32], b[32];

	cli_field(stdout, "table", "%" PRId64 " MiB, %" PRIu64 " entries, lock-free and locked",
	          r->mb, r->entries);
	cli_field(stdout, "keys", "%" PRIu64 ", %d probes per store", r->keys, PROBES_PER_STORE);
	cli_field(stdout, "time", "%g s per measurement", r->seconds);
	snprintf(head, sizeof(head), "%d thread%s", r->threads, r->threads > 1 ? "s" : "");
	cli_field(stdout, "", "%-18s%s", "1 thread", head);
	snprintf(a, sizeof(a), "%.2f M", r->lockfree_1.ops_per_s / 1e6);
	snprintf(b, sizeof(b), "%.2f M", r->lockfree_n.ops_per_s / 1e6);
	cli_field(stdout, "lock-free ops/s", "%-18s%s", a, b);
	snprintf(a, sizeof(a), "%.2f M", r->locked_1.ops_per_s / 1e6);
	snprintf(b, sizeof(b), "%.2f M", r->locked_n.ops_per_s / 1e6);
	cli_field(stdout, "locked ops/s", "%-18s%s", a, b);
	snprintf(a, sizeof(a), "%.3f", ratio(r->lockfree_1.ops_per_s, r->locked_1.ops_per_s));
	snprintf(b, sizeof(b), "%.3f", ratio(r->lockfree_n.ops_per_s, r->locked_n.ops_per_s));
	cli_field(stdout, "lock-free / locked", "%-18s%s", a, b);
	snprintf(a, sizeof(a), "%.1f %%",
	         100.0 * ratio((double)r->lockfree_1.hits, (double)r->lockfree_1.probes));
	snprintf(b, sizeof(b), "%.1f %%",
	         100.0 * ratio((double)r->lockfree_n.hits, (double)r->lockfree_n.probes));
	cli_field(stdout, "probe hit rate", "%-18s%s", a, b);
	cli_field(stdout, "corrupt hits", "%" PRIu64, total_corrupt(r));
}

int cli_ttbench(int argc, char **argv)
{
	int64_t threads = default_threads(), mb = 16;
	const char *seconds_text = NULL, *keys_text = NULL;
	bool json = false;
	char seconds_help[160];
	snprintf(seconds_help, sizeof(seconds_help),
	         "length of each of the four measurements, %g..%g (decimals allowed); default %g",
	         SECONDS_MIN, SECONDS_MAX, SECONDS_DEFAULT);
	cli_opt_t opts[] = {
		CLI_THREADS_OPT(&threads, "threads of the second measurement, %r; default the CPUs "
		                          "this process may use (taskset), at least 2 (with 1 the "
		                          "measurement is the first)"),
		CLI_INT_OPT("mb", &mb, 1, 65536, "M",
		            "size of each of the two tables in MiB, %r; default %d"),
		CLI_STRING_OPT("seconds", &seconds_text, "S", seconds_help),
		CLI_STRING_OPT("keys", &keys_text, "K",
		               "keys in the pool, at least 1; default 4 x the table's entries"),
		CLI_FLAG_OPT("json", &json, "print one JSON object instead of the text report"),
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));

	cli_status_t st = cli_parse("ttbench", ttbench_usage, opts, nopts, argc, argv);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);
	bench_report_t r = { .threads = (int)threads, .mb = mb, .seconds = SECONDS_DEFAULT };
	if (seconds_text && !parse_seconds(seconds_text, &r.seconds))
		return CLI_EXIT_USAGE;
	if (keys_text && !parse_keys(keys_text, &r.keys))
		return CLI_EXIT_USAGE;

	/* Both tables at once, so that the measurements can alternate between them. */
	int err;
	cutoff_tt_t *lockfree = cutoff_tt_new((size_t)mb, 0, &err);
	if (!lockfree) {
		cli_fail("ttbench", "cannot make the lock-free table", err, NULL);
		return CLI_EXIT_FAIL;
	}
	cutoff_tt_t *locked = cutoff_tt_new((size_t)mb, CUTOFF_TT_LOCKED, &err);
	if (!locked) {
		cutoff_tt_free(lockfree);
		cli_fail("ttbench", "cannot make the locked table", err, NULL);
		return CLI_EXIT_FAIL;
	}
	r.entries = cutoff_tt_entries(lockfree);
	if (!keys_text)
		r.keys = r.entries * 4;

	/* An untimed warm-up on each table first: otherwise the first measurement is the one
	 * that wakes the processor up (clock speed, caches, TLB) and reads low. */
	measure_t warm;
	bool ok = measure(lockfree, 1, WARMUP_S, r.keys, &warm);
	r.warmup_corrupt += ok ? warm.corrupt : 0;
	ok = ok && measure(locked, 1, WARMUP_S, r.keys, &warm);
	r.warmup_corrupt += ok ? warm.corrupt : 0;
	ok = ok && measure(lockfree, 1, r.seconds, r.keys, &r.lockfree_1) &&
	     measure(locked, 1, r.seconds, r.keys, &r.locked_1);
	if (ok && r.threads > 1)
		ok = measure(lockfree, r.threads, r.seconds, r.keys, &r.lockfree_n) &&
		     measure(locked, r.threads, r.seconds, r.keys, &r.locked_n);
	else if (ok) {
		r.lockfree_n = r.lockfree_1;
		r.locked_n = r.locked_1;
	}
	cutoff_tt_free(lockfree);
	cutoff_tt_free(locked);
	if (!ok)
		return CLI_EXIT_FAIL;

	int status = CLI_EXIT_OK;
	if (json)
		status = print_json(&r);
	else
		print_text(&r);
	if (status == CLI_EXIT_OK && total_corrupt(&r) > 0)
		cli_error("ttbench",
		          "warning: %" PRIu64
		          " hits did not belong to the key probed: the table is broken "
		          "(tests/core/test_tt_torture.c is the test that decides)",
		          total_corrupt(&r));
	return status;
}
