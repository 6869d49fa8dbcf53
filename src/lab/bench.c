/* SPDX-License-Identifier: MIT */
/*
 * bench.c — `cutoff bench`: how well parallel search scales on this machine and these
 * games, and which driver to use. Sweeps thread counts, drivers and workloads, with
 * repeats, and writes a report folder: the table (report.txt, also printed), every run and
 * every derived figure (results.json, results.csv, runs.csv, threads.csv), and plots drawn
 * by gnuplot. The folder is checked before the sweep (folder.c), and the table printed
 * before any file is written, so that minutes of results are never lost to the folder.
 *
 * The sweep interleaves: repeat 1 of every setting, then repeat 2, and so on, so that a
 * change in the machine's load spreads over every setting instead of landing on one. The
 * library's default driver (the serial search) at one thread always runs: it is the
 * baseline of every speed-up. The drivers come from the library's registry, so that a
 * driver added there is measured beside the others without an edit here.
 *
 * --hog N runs N child processes that spin beside the sweep, another program's load made
 * on purpose, to see what it does to the figures (the ceilings, measured before every
 * repeat, see it too). They are started just before the sweep and killed and reaped as
 * soon as it ends, on every path; a child asks the kernel for SIGKILL when the bench's
 * main thread (the one that forked it) ends, and then checks that the bench did not end
 * before it asked, so that none outlives the bench even when it is killed.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kit/args.h"
#include "kit/games.h"
#include "kit/ranks.h"
#include "lab/bench.h"
#include "lab/ceiling.h"
#include "lab/common.h"
#include "lab/files.h"
#include "lab/folder.h"
#include "lab/jobs.h"
#include "lab/plots.h"
#include "lab/probe.h"
#include "lab/rows.h"
#include "lab/stockfish.h"
#include "lab/text.h"

static const char *const plot_names[] = { "none", "svg", "png", NULL };

double bench_load_average(void)
{
	double v = NAN;
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = NAN;
		fclose(f);
	}
	return v;
}

void bench_cpu_model(char *buf, size_t size)
{
	char line[256];
	snprintf(buf, size, "unknown CPU");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (strncmp(line, "model name", 10) == 0 && colon) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, size, "%s", colon + 2);
			break;
		}
	}
	fclose(f);
}

/* The processes of --hog. */
typedef struct hog {
	pid_t *pids;
	int n;
} hog_t;

static _Noreturn void hog_spin(pid_t bench)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != bench)
		_exit(0);
	for (uint64_t x = 0;; x++)
		__asm__ volatile("" : "+r"(x));
}

/* Kills and reaps every process of the hog; nothing when there is none. */
static void hog_stop(hog_t *h)
{
	for (int i = 0; i < h->n; i++)
		kill(h->pids[i], SIGKILL);
	for (int i = 0; i < h->n; i++)
		while (waitpid(h->pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	free(h->pids);
	h->pids = NULL;
	h->n = 0;
}

/* Starts n spinning processes; false after one line of error (and none left running) on failure. */
static bool hog_start(bench_error_t *err, hog_t *h, int n)
{
	pid_t bench = getpid();
	h->n = 0;
	h->pids = n > 0 ? calloc((size_t)n, sizeof(*h->pids)) : NULL;
	if (n > 0 && !h->pids) {
		bench_fail(err, "--hog: out of memory");
		return false;
	}
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0)
			hog_spin(bench);
		if (p < 0) {
			bench_fail(err, "--hog: cannot start process %d of %d: %s", i + 1, n,
			           strerror(errno));
			hog_stop(h);
			return false;
		}
		h->pids[h->n++] = p;
	}
	return true;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* --threads: "1,2,4"; 1 added when missing; sorted. */
static bool parse_counts(bench_t *b, const char *text)
{
	char q[CLI_QUOTE_SIZE], item[32];
	const char *p = text;
	b->set.ncounts = 0;
	for (;;) {
		size_t n = strcspn(p, ",");
		int64_t v;
		snprintf(item, sizeof(item), "%.*s", (int)(n < 31 ? n : 31), p);
		if (n == 0 || n > 31 || !cli_int_value(item, 1, CUTOFF_MAX_THREADS, &v)) {
			bench_fail(
				b->err,
				"--threads: expected a comma-separated list of thread counts, each "
				"1..%d, got %s",
				CUTOFF_MAX_THREADS, cli_quote(q, sizeof(q), text));
			return false;
		}
		for (int i = 0; i < b->set.ncounts; i++) {
			if (b->set.counts[i] == v) {
				bench_fail(b->err, "--threads: %d is listed twice in %s", (int)v,
				           cli_quote(q, sizeof(q), text));
				return false;
			}
		}
		if (b->set.ncounts == BENCH_MAX_COUNTS - 1) {
			bench_fail(b->err, "--threads: at most %d thread counts",
			           BENCH_MAX_COUNTS - 1);
			return false;
		}
		b->set.counts[b->set.ncounts++] = (int)v;
		if (p[n] == '\0')
			break;
		p += n + 1;
	}
	bool one = false;
	for (int i = 0; i < b->set.ncounts; i++)
		one |= b->set.counts[i] == 1;
	if (!one)
		b->set.counts[b->set.ncounts++] = 1;
	qsort(b->set.counts, (size_t)b->set.ncounts, sizeof(int), cmp_int);
	return true;
}

/* --ranks: rank counts 1..world (NULL: 1 and world), sorted, each once. */
static bool parse_ranks(bench_t *b, const char *text, int world)
{
	b->mpi.nrank_counts = 0;
	if (!text) {
		b->mpi.rank_counts[b->mpi.nrank_counts++] = 1;
		if (world > 1 && world <= BENCH_MAX_RANKS)
			b->mpi.rank_counts[b->mpi.nrank_counts++] = world;
		return true;
	}
	int max = world < BENCH_MAX_RANKS ? world : BENCH_MAX_RANKS;
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", text);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int64_t v;
		if (!cli_parse_int(b->cmd, "ranks", t, 1, max, &v))
			return false;
		bool seen = false;
		for (int k = 0; k < b->mpi.nrank_counts; k++)
			seen |= b->mpi.rank_counts[k] == (int)v;
		if (!seen && b->mpi.nrank_counts < BENCH_MAX_RANKS)
			b->mpi.rank_counts[b->mpi.nrank_counts++] = (int)v;
	}
	if (b->mpi.nrank_counts == 0) {
		bench_fail(b->err, "--ranks: expected a list of rank counts such as 1,2");
		return false;
	}
	qsort(b->mpi.rank_counts, (size_t)b->mpi.nrank_counts, sizeof(int), cmp_int);
	return true;
}

/* --drivers: names of the registry's drivers (NULL: every one); the baseline always. */
static bool parse_drivers(bench_t *b, const char *text)
{
	const char *names[BENCH_MAX_DRIVERS + 2];
	bool given[BENCH_MAX_DRIVERS + 1] = { false };
	int n = cutoff_driver_count();
	if (n >= BENCH_CLUSTER) {
		bench_fail(b->err, "the library has %d drivers, this command at most %d", n,
		           BENCH_CLUSTER - 1);
		return false;
	}
	for (int d = 0; d < n; d++)
		names[d] = cli_driver_name((cutoff_driver_t)d);
	names[n] = "cluster"; /* given[n], then b->set.drivers[BENCH_CLUSTER] */
	names[n + 1] = NULL;
	b->set.base = (int)cli_driver_default();
	if (text && !cli_parse_names(b->cmd, "drivers", text, names, given, n + 1))
		return false;
	for (int d = 0; d < n; d++)
		b->set.drivers[d] = !text || given[d] || d == b->set.base;
	b->set.drivers[BENCH_CLUSTER] = given[n]; /* by default only under mpirun (bench_main) */
	return true;
}

/* One setting of a workload's runs: a driver of the registry, or the cluster at R ranks
 * (BENCH_CLUSTER_ROW + R), at a thread count. */
typedef struct setting {
	int driver, threads;
} setting_t;

enum {
	MAX_SETTINGS = (BENCH_MAX_DRIVERS + BENCH_MAX_RANKS) * BENCH_MAX_COUNTS
};

/* The settings of each workload and repeat, in the sweep's order: the registry's drivers,
 * then the cluster at each rank count, each at every thread count (the baseline at one
 * thread only). Writes them into out[MAX_SETTINGS]; returns how many. The one place that
 * says which runs a sweep makes and in which order. */
static int settings(const bench_t *b, setting_t *out)
{
	int n = 0;
	const int drivers = cutoff_driver_count();
	const int engines = drivers + (b->set.drivers[BENCH_CLUSTER] ? b->mpi.nrank_counts : 0);
	for (int k = 0; k < engines; k++) {
		int d = k < drivers ? k : BENCH_CLUSTER_ROW + b->mpi.rank_counts[k - drivers];
		for (int c = 0; c < b->set.ncounts; c++)
			if ((bench_is_cluster(d) || b->set.drivers[d]) &&
			    (d != b->set.base || b->set.counts[c] == 1))
				out[n++] = (setting_t){ d, b->set.counts[c] };
	}
	return n;
}

static int total_steps(const bench_t *b, int nsettings)
{
	int per = 0;
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++) {
		if (!b->set.workloads[wk])
			continue;
		per += nsettings;
		if (wk == BENCH_CHESS && b->set.stockfish)
			per += b->set.ncounts;
	}
	return per * b->set.repeat;
}

/* Stockfish's runs of repeat `rep`, after ours of chess (at repeat 1 its depths first: as
 * long as our baseline search of each position). */
static bool sweep_stockfish(bench_t *b, int rep, int *step, int total, double t0)
{
	if (rep == 1) {
		const bench_run_t *base = NULL;
		for (int i = 0; i < b->res.nruns && !base; i++)
			if (b->res.runs[i].workload == BENCH_CHESS && !b->res.runs[i].stockfish &&
			    b->res.runs[i].driver == b->set.base)
				base = &b->res.runs[i];
		if (!base || !bench_sf_calibrate(b, base->item_time))
			return false;
	}
	for (int c = 0; c < b->set.ncounts; c++) {
		int n = b->set.counts[c];
		bench_progress(b,
		               "[%d/%d, %.0f s] repeat %d of %d: chess, stockfish, "
		               "%d thread%s",
		               ++*step, total, cli_now_s() - t0, rep, b->set.repeat, n,
		               n > 1 ? "s" : "");
		bench_run_t *run = bench_run_new(b, BENCH_CHESS, true, 0, n, rep);
		if (!run) {
			bench_fail(b->err, "out of memory");
			return false;
		}
		if (!bench_sf_run(b, run))
			return false;
	}
	return true;
}

/* The quality runs at equal time (--quality-ms), after the rows: the baseline at 1 thread,
 * every other driver at the other counts. In a simulation each setting gets a simulator
 * made afresh (the sim's hook, as a run of the chess workload, repeat 1), so that its
 * time limit runs on a virtual clock of its own and the figures are the same in any
 * sweep. */
static bool sweep_quality(bench_t *b)
{
	if (!b->set.workloads[BENCH_CHESS] || b->set.quality_ms <= 0)
		return true;
	for (int d = 0; d < cutoff_driver_count(); d++) {
		for (int c = 0; c < b->set.ncounts; c++) {
			int n = b->set.counts[c];
			if (!b->set.drivers[d] || (d == b->set.base) != (n == 1))
				continue;
			bench_run_t setting = {
				.workload = BENCH_CHESS, .driver = d, .threads = n, .repeat = 1
			};
			if (b->sim && !b->sim->before(b->sim->ctx, b, &setting))
				return false;
			if (!bench_quality_run(b, d, n))
				return false;
		}
	}
	return true;
}

/* `cutoff sim`'s sweep: every run's record made in the sweep's order, then the runs
 * measured by jobs.c, here or on --jobs processes (no probes or Stockfish: the times are
 * virtual), then the quality runs here (sweep_quality). */
static bool sweep_sim(bench_t *b, const setting_t *set, int nset)
{
	const int first = b->res.nruns;
	if (!bench_probe_none(b))
		return false;
	for (int rep = 1; rep <= b->set.repeat; rep++)
		for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
			for (int i = 0; b->set.workloads[wk] && i < nset; i++)
				if (!bench_run_new(b, wk, false, set[i].driver, set[i].threads,
				                   rep)) {
					bench_fail(b->err, "out of memory");
					return false;
				}
	return bench_jobs_run(b, first, b->res.nruns - first) && sweep_quality(b);
}

/* The sweep: every setting, repeat by repeat. */
static bool sweep(bench_t *b)
{
	setting_t set[MAX_SETTINGS]; /* 24 KiB */
	const int nset = settings(b, set);
	if (b->sim)
		return sweep_sim(b, set, nset);
	int step = 0, total = total_steps(b, nset);
	double t0 = cli_now_s();
	if (!(b->mpi.follower ? bench_probe_none(b) : bench_probe_setup(b)))
		return false;
	for (int rep = 1; rep <= b->set.repeat; rep++) {
		if (!b->mpi.follower) {
			bench_progress(b, "[%d/%d, %.0f s] repeat %d of %d: the machine's ceilings",
			               step, total, cli_now_s() - t0, rep, b->set.repeat);
			bench_probe_repeat(b, rep);
		}
		for (int wk = 0; wk < BENCH_NWORKLOADS; wk++) {
			if (!b->set.workloads[wk])
				continue;
			for (int i = 0; i < nset; i++) {
				const int d = set[i].driver, n = set[i].threads;
				const bool cluster = bench_is_cluster(d);
				if (b->mpi.follower && !cluster)
					continue;
				/* Every rank meets rank 0 here; those outside the row's
				 * ranks go on to
				 * the next row of the cluster. */
				if (cluster) {
					cli_cluster_rendezvous(b->mpi.cluster);
					if (!cli_cluster_use(b->mpi.cluster, d - BENCH_CLUSTER_ROW))
						continue;
				}
				bench_progress(
					b, "[%d/%d, %.0f s] repeat %d of %d: %s, %s, %d thread%s",
					++step, total, cli_now_s() - t0, rep, b->set.repeat,
					bench_workload_names[wk], bench_engine_name(false, d), n,
					n > 1 ? "s" : "");
				bench_run_t *run = bench_run_new(b, wk, false, d, n, rep);
				if (!run) {
					bench_fail(b->err, "out of memory");
					return false;
				}
				if (!bench_run(b, run))
					return false;
			}
			if (wk != BENCH_CHESS || !b->set.stockfish)
				continue;
			if (!sweep_stockfish(b, rep, &step, total, t0))
				return false;
		}
	}
	return sweep_quality(b);
}

/* A report file written by a writer that takes its path. */
typedef struct report_file {
	const char *name;
	bool (*write)(const bench_t *b, const char *path);
} report_file_t;

static bool write_text(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bench_print_text(b, f);
	return fclose(f) == 0;
}

/* The CSV files of the rows, runs and threads: one writer, three paths. */
static bool write_csv(bench_t *b, char *failed, size_t size)
{
	static const char *const names[] = { "results.csv", "runs.csv", "threads.csv" };
	char path[3][PATH_MAX];
	for (int i = 0; i < 3; i++) {
		snprintf(failed, size, "%s", names[i]);
		if (!bench_folder_file(b, names[i], path[i], sizeof(path[i])))
			return false;
	}
	snprintf(failed, size, "results.csv, runs.csv or threads.csv");
	return bench_write_csv(b, path[0], path[1], path[2]);
}

/* The report's files (the plots' are written before, by bench_plots), then their list;
 * false after one line of error naming the file that could not be written. */
static bool write_report(bench_t *b)
{
	const report_file_t files[] = {
		{ "report.txt", write_text },
		{ "results.json", bench_write_json },
		{ "ceilings.csv", bench_ceiling_csv },
		{ "chess-positions.txt",
		  b->set.workloads[BENCH_CHESS] ? bench_write_chess_file : NULL },
		{ "positions.csv", bench_write_positions_csv },
		{ "quality.csv", b->res.nquality ? bench_write_quality_csv : NULL },
		{ "quality-positions.csv",
		  b->res.nquality ? bench_write_quality_positions_csv : NULL },
		{ "searches.txt", bench_write_searches },
	};
	char path[PATH_MAX], failed[64], q[CLI_QUOTE_SIZE];
	bool ok = true;
	for (size_t i = 0; ok && i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(failed, sizeof(failed), "%s", files[i].name);
		ok = !files[i].write || (bench_folder_file(b, files[i].name, path, sizeof(path)) &&
		                         files[i].write(b, path));
	}
	ok = ok && write_csv(b, failed, sizeof(failed));
	if (ok) {
		snprintf(failed, sizeof(failed), "%s", BENCH_FILE_LIST);
		ok = bench_folder_write_list(b);
	}
	if (!ok)
		bench_fail(b->err,
		           "cannot write %s into the report folder %s: %s (the table was printed "
		           "on stdout; the report's other files are lost)",
		           failed, cli_quote(q, sizeof(q), b->set.out_dir), strerror(errno));
	return ok;
}

/* The command line's values that are not a field of bench_t, and the buffers that
 * bench_t's strings may point into (they live as long as bench_main). */
typedef struct bench_opts {
	const char *threads, *drivers, *ranks; /* NULL: the defaults */
	const char *workload, *chess_file, *connect4_file, *stockfish;
	int64_t repeat, positions, chess_depth, rb, rd, hash, ref_extra, hog_n;
	bool no_progress, tt_writers;
	char sfbuf[1024]; /* b->set.stockfish */
} bench_opts_t;

/* bench_main's result while it goes on: not an exit status. */
enum {
	GO_ON = -1
};

/* The defaults of every option (a simulation's differ: one repeat, no Stockfish). */
static void default_options(bench_t *b, bench_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	o->workload = "chess,connect4,rtree";
	o->stockfish = b->sim ? "off" : "auto";
	b->set.stockfish_timeout_s = 60;
	o->repeat = b->sim ? 1 : 5;
	const cli_game_defaults_t *rtree = cli_game_defaults(CLI_GAME_RTREE, CLI_USE_SEARCH);
	o->rb = rtree->branching;
	o->rd = rtree->depth;
	o->hash = -1;
	o->ref_extra = 2;
	cutoff_config_default(&b->set.cfg);
	b->set.quality_ms = b->sim ? 0 : 500;
	b->set.plot = 1;
}

/* A simulation's defaults of --threads (1, 2, 4, .. this: virtual threads) and of
 * --ranks (simulated ranks, with --drivers cluster). */
enum {
	SIM_THREADS = 256
};
static const char sim_ranks[] = "1,2,4,8";

/* The --help texts that say more than their row knows: the limits of the lists that
 * apply_options and setup_cluster read, and the workloads' defaults (work.c), formatted
 * from the values the parser and the workloads use. */
typedef struct option_help {
	char threads[512], ranks[512], workload[128], positions[256], chess_file[256];
	char connect4_file[256], hash[256];
} option_help_t;

static void option_help(option_help_t *h)
{
	bench_workload_defaults_t d[BENCH_NWORKLOADS];
	char words[64];
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
		bench_workload_defaults(wk, &d[wk]);
	snprintf(h->threads, sizeof(h->threads),
	         "thread counts, e.g. 1,2,4,8 (1..%d each, at most %d counts; 1 is always "
	         "added: it is the baseline); default 1 .. the number of cores, more threads "
	         "than cores allowed and flagged with *; in a simulation virtual threads, "
	         "default 1,2,4,...,%d",
	         CUTOFF_MAX_THREADS, BENCH_MAX_COUNTS - 1, SIM_THREADS);
	snprintf(h->ranks, sizeof(h->ranks),
	         "the cluster's rank counts (--drivers cluster), each at most %d: a row "
	         "cluster/R runs on R ranks. Under mpirun -np W: ranks 0..R-1 of the W, each "
	         "count at most W; default 1,W. In a simulation: R engines on a simulated "
	         "network (docs/simulation.md); default %s",
	         BENCH_MAX_RANKS, sim_ranks);
	snprintf(h->workload, sizeof(h->workload), "%s; default all three",
	         bench_workload_words(words, sizeof(words)));
	char chess[32] = "all";
	if (d[BENCH_CHESS].positions)
		snprintf(chess, sizeof(chess), "%d", d[BENCH_CHESS].positions);
	snprintf(h->positions, sizeof(h->positions),
	         "chess and connect4: only the first K positions; rtree: K trees; %%r; default "
	         "%s chess positions, %d connect4 positions, %d trees",
	         chess, d[BENCH_CONNECT4].positions, d[BENCH_RTREE].positions);
	snprintf(h->chess_file, sizeof(h->chess_file),
	         "chess positions, one a line: 'FEN ; depth D ; ref MOVE D ; sf D ; id NAME' "
	         "(all but the FEN optional; the report folder's chess-positions.txt is one); "
	         "default %d built-in positions",
	         d[BENCH_CHESS].builtin);
	snprintf(h->connect4_file, sizeof(h->connect4_file),
	         "a test set of Pascal Pons ('<moves> <score>' lines); default "
	         "$CUTOFF_DATA_DIR/connect4/Test_L1_R2, else its first %d lines built in",
	         d[BENCH_CONNECT4].builtin);
	snprintf(h->hash, sizeof(h->hash),
	         "the table of every workload, %%r MiB (default: chess %zu, connect4 %zu, "
	         "rtree %zu)",
	         d[BENCH_CHESS].tt_mb, d[BENCH_CONNECT4].tt_mb, d[BENCH_RTREE].tt_mb);
}

/* Parses the command line (the bench's options, then the caller's `extra`) into b and o;
 * GO_ON, or the exit status after --help or a usage error.
 * Long: the option table, a row and its --help text per option, which points into b, o
 * and the help texts made for this call. */
static int parse_options(bench_t *b, bench_opts_t *o, const char *usage, int argc, char **argv,
                         const struct cli_opt *extra, int nextra)
{
	option_help_t h;
	option_help(&h);
	/* One text per option for bench and sim: where they differ, it says so. */
	cli_opt_t opts[64] = {
		CLI_STRING_OPT("threads", &o->threads, "LIST", h.threads),
		CLI_STRING_OPT(
			"drivers", &o->drivers, "LIST",
			"drivers of 'cutoff drivers', comma-separated; default every one (the "
			"default driver, serial, runs at 1 thread only, and always: the speed-ups "
			"are over it); and cluster: lazy SMP on every rank, the ranks sharing deep "
			"entries (docs/cluster.md), with a per-rank table, under mpirun -np R "
			"(R >= 2; rank 0 measures and writes everything, the other ranks only take "
			"part in the cluster's rows) or, in a simulation, on simulated ranks "
			"(--ranks)"),
		CLI_STRING_OPT("ranks", &o->ranks, "LIST", h.ranks),
		CLI_STRING_OPT("workload", &o->workload, "LIST", h.workload),
		CLI_INT_OPT(
			"repeat", &o->repeat, 1, 1000, "K",
			"runs of every setting, %r, interleaved (in a simulation with the seeds "
			"S, S+1, .. S+K-1); the report gives medians and the spread of the "
			"time; default %d"),
		CLI_INT_OPT("positions", &o->positions, 1, BENCH_MAX_ITEMS, "K", h.positions),
		CLI_STRING_OPT("chess-file", &o->chess_file, "PATH", h.chess_file),
		CLI_INT_OPT("chess-depth", &o->chess_depth, 1, 60, "D",
		            "search every chess position to D plies, %r (default: the file's "
		            "depth of each)"),
		CLI_STRING_OPT("connect4-file", &o->connect4_file, "PATH", h.connect4_file),
		CLI_INT_OPT("rtree-branching", &o->rb, 2, 64, "B",
		            "the random trees' children per inner node, %r; default %d"),
		CLI_INT_OPT("rtree-depth", &o->rd, 1, 30, "D",
		            "the random trees' depth, %r; default %d"),
		CLI_INT_OPT("hash", &o->hash, 0, 65536, "MB", h.hash),
		CLI_INT_OPT("quality-ms", &b->set.quality_ms, 0, 3600000, "MS",
		            "chess at equal time: each position searched MS ms (in a simulation "
		            "virtual ms) by every driver and thread count (one run), depth "
		            "reached and agreement with a deeper serial search; %r, 0 = off; "
		            "default %d"),
		CLI_STRING_OPT("quality-suite", &b->set.quality_suite, "FILE",
		               "the quality runs search the positions of FILE instead "
		               "(bench/quality-suite.epd: a reference engine's best moves and "
		               "scores) and report per driver and threads the share of moves "
		               "equal to its best (95 %% interval), the mean centipawn loss and "
		               "the mean depth; needs the chess workload"),
		CLI_INT_OPT("reference-extra", &o->ref_extra, 1, 10, "E",
		            "the reference search is E plies deeper than the position's depth, "
		            "%r, when the position has no reference; default %d"),
		CLI_STRING_OPT("stockfish", &o->stockfish, "S",
		               "the Stockfish binary, 'auto' ($STOCKFISH, stockfish on the PATH, "
		               "/usr/games/stockfish) or 'off'; default %d; not in a simulation "
		               "(it measures the real machine)"),
		CLI_INT_OPT("stockfish-timeout", &b->set.stockfish_timeout_s, 1, 3600, "S",
		            "the longest Stockfish may stay silent, in an answer or a search, "
		            "before the bench ends with an error, %r s; default %d"),
		CLI_STRING_OPT("out", &b->set.out_dir, "DIR",
		               "the report folder, made when it is not there, checked before the "
		               "sweep; default a new bench-report-YYYYMMDD-HHMMSS (sim: "
		               "sim-report-YYYYMMDD-HHMMSS; -2, -3, ... when that is taken). A "
		               "folder that holds a report is refused, unless --replace, and so is "
		               "one that another bench or sim is writing"),
		CLI_FLAG_OPT("replace", &b->set.replace,
		             "DIR may hold a report: after the sweep, that report's files (those "
		             "its report-files.txt lists) are removed, and nothing else, before "
		             "this one is written"),
		CLI_CHOICE_OPT("plot", &b->set.plot, plot_names,
		               "the plots' format, or none; default %d (needs gnuplot: without it "
		               "the report says how to get it, and still succeeds)"),
		CLI_STRING_OPT("note", &b->set.note, "TEXT",
		               "a line for the report (the commit, what else ran)"),
		CLI_INT_OPT("hog", &o->hog_n, 0, 1024, "N",
		            "run N processes, %r, that spin beside the sweep (another program's "
		            "load, made on purpose); the ceilings are measured with them running, "
		            "and the report says so; default %d; not in a simulation (it measures "
		            "the real machine)"),
		CLI_FLAG_OPT("no-progress", &o->no_progress,
		             "no progress line on stderr (in a simulation it says the runs done, "
		             "the real time spent and the time left, estimated from the runs done: "
		             "docs/simulation.md)"),
		CLI_FLAG_OPT("profile-tt-writers", &o->tt_writers,
		             "also count the table hits on entries that another thread wrote ('tt "
		             "other'). Off by default: it costs 6 to 10 %% of the node rate "
		             "(docs/measurements.md), so its times are not comparable with a sweep "
		             "without it"),
	};
	const cli_opt_t engine = CLI_ENGINE_OPTS(&b->set.cfg); /* --placement, the drivers'
	                                                           options (--threads: above) */
	int nopts = 0;
	while (opts[nopts].name)
		nopts++;
	for (int k = 0; k < nextra && nopts < 63; k++)
		opts[nopts++] = extra[k];
	opts[nopts++] = engine;
	cli_status_t st = cli_parse(b->cmd, usage, opts, nopts, argc, argv);
	return st == CLI_PARSED ? GO_ON : cli_parse_exit(st);
}

/* The options into b, with the machine's topology: the thread counts, the drivers, the
 * workloads and Stockfish; GO_ON, or the exit status after one line of error. */
static int apply_options(bench_t *b, bench_opts_t *o)
{
	const char *cmd = b->cmd;
	b->set.repeat = (int)o->repeat;
	b->mach.profiled = cutoff_profile_available();
	b->set.tt_writers = o->tt_writers;
	b->set.hog = (int)o->hog_n;
	b->set.progress = !o->no_progress;
	b->res.jobs = 1;
	b->set.progress_tty = isatty(2);

	cutoff_topology_info_t topo;
	int rc = cutoff_topology_describe(NULL, &topo);
	if (rc < 0) {
		bench_fail_code(b->err, "cannot read the machine's topology", rc, NULL);
		return CLI_EXIT_FAIL;
	}
	b->mach.cores = topo.cores;
	b->mach.pus = topo.pus;
	b->mach.packages = topo.packages;
	b->mach.numa = topo.numa_nodes;
	if (o->threads) {
		if (!parse_counts(b, o->threads))
			return CLI_EXIT_USAGE;
	} else if (b->sim) {
		for (int n = 1; n <= SIM_THREADS; n *= 2)
			b->set.counts[b->set.ncounts++] = n;
	} else {
		for (int n = 1; n <= b->mach.cores && n < BENCH_MAX_COUNTS; n++)
			b->set.counts[b->set.ncounts++] = n;
	}
	if (!parse_drivers(b, o->drivers) ||
	    !cli_parse_names(cmd, "workload", o->workload, bench_workload_names, b->set.workloads,
	                     BENCH_NWORKLOADS))
		return CLI_EXIT_USAGE;
	if (strcmp(o->stockfish, "off") != 0 && strcmp(o->stockfish, "auto") != 0 &&
	    !bench_sf_find(o->stockfish, o->sfbuf, sizeof(o->sfbuf))) {
		char q[CLI_QUOTE_SIZE];
		bench_fail(b->err, "--stockfish: expected 'auto', 'off' or an executable, got %s",
		           cli_quote(q, sizeof(q), o->stockfish));
		return CLI_EXIT_USAGE;
	}
	b->set.stockfish = b->set.workloads[BENCH_CHESS]
	                           ? bench_sf_find(o->stockfish, o->sfbuf, sizeof(o->sfbuf))
	                           : NULL;
	return GO_ON;
}

/* --drivers cluster and --ranks against how the bench was started (mpirun, cutoff sim);
 * GO_ON, or CLI_EXIT_USAGE after one line of error. */
static int check_cluster(const bench_t *b, const bench_opts_t *o, bool under_mpi)
{
	if (b->set.drivers[BENCH_CLUSTER] && !under_mpi && !b->sim) {
		bench_fail(b->err, "--drivers cluster: run the bench under mpirun with 2 ranks or "
		                   "more (mpirun -np 2 cutoff bench ...)");
		return CLI_EXIT_USAGE;
	}
	if (under_mpi && o->drivers && !b->set.drivers[BENCH_CLUSTER]) {
		bench_fail(b->err,
		           "under mpirun the bench measures the cluster: add cluster to "
		           "--drivers (the ranks would otherwise each run the whole sweep)");
		return CLI_EXIT_USAGE;
	}
	if (o->ranks && !under_mpi && !(b->sim && b->set.drivers[BENCH_CLUSTER])) {
		if (b->sim)
			bench_fail(b->err,
			           "--ranks goes with the cluster: add cluster to --drivers "
			           "(simulated ranks)");
		else
			bench_fail(b->err,
			           "--ranks: run the bench under mpirun with 2 ranks or more "
			           "(mpirun -np 2 cutoff bench ...)");
		return CLI_EXIT_USAGE;
	}
	return GO_ON;
}

/* The cluster's ranks: simulated ones under `cutoff sim`, or, under mpirun, MPI started
 * and the ranks' communicators made, with the ranks but 0 made followers (rank 0
 * measures, writes and speaks). GO_ON, or the exit status after one line of error. */
static int setup_cluster(bench_t *b, const bench_opts_t *o)
{
	/* Open MPI says in the environment that it started us. */
	const char *world = getenv("OMPI_COMM_WORLD_SIZE");
	const bool under_mpi = !b->sim && world && atoi(world) > 1;
	int st = check_cluster(b, o, under_mpi);
	if (st != GO_ON)
		return st;
	b->mpi.ranks = 1;
	if (b->sim && b->set.drivers[BENCH_CLUSTER]) { /* simulated ranks (virtual.c) */
		if (!parse_ranks(b, o->ranks ? o->ranks : sim_ranks, BENCH_MAX_RANKS))
			return CLI_EXIT_USAGE;
		b->mpi.ranks = b->mpi.rank_counts[b->mpi.nrank_counts - 1];
	}
	if (!under_mpi)
		return GO_ON;
	b->set.drivers[BENCH_CLUSTER] = true;
	if (!parse_ranks(b, o->ranks, atoi(world)))
		return CLI_EXIT_USAGE;
	cli_cluster_opts_t co = { 0, 0, -1 };
	if (!(b->mpi.cluster = cli_cluster_start(b->cmd, &co)))
		return CLI_EXIT_FAIL;
	if (!cli_cluster_prepare(b->mpi.cluster, b->mpi.rank_counts, b->mpi.nrank_counts)) {
		bench_fail(b->err, "--ranks: the ranks' communicators could not be made");
		bench_abort_cluster(b, CLI_EXIT_FAIL);
	}
	b->mpi.ranks = cli_cluster_size(b->mpi.cluster);
	b->mpi.follower = cli_cluster_rank(b->mpi.cluster) != 0;
	if (b->mpi.follower) {
		b->set.progress = false;
		b->set.stockfish = NULL;
		b->set.quality_ms = 0;
		b->set.hog = 0;
	}
	return GO_ON;
}

/* The report's date and folder (without --out, a new bench-report-... or sim-report-...,
 * made by folder.c), and the CPU's name. */
static void name_report(bench_t *b)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(b->mach.date, sizeof(b->mach.date), "%Y-%m-%d %H:%M:%S UTC", &tm);
	if (!b->set.out_dir) {
		b->folder.stem_len = strftime(
			b->folder.out_name, sizeof(b->folder.out_name),
			b->sim ? "sim-report-%Y%m%d-%H%M%S" : "bench-report-%Y%m%d-%H%M%S", &tm);
		b->folder.out_fresh = true;
		b->set.out_dir = b->folder.out_name;
	}
	bench_cpu_model(b->mach.cpu_model, sizeof(b->mach.cpu_model));
}

/* --quality-suite's positions, read and checked whole (suite.c), over the chess
 * workload's adapter; GO_ON, or the exit status. */
static int load_suite(bench_t *b)
{
	if (!b->set.quality_suite)
		return GO_ON;
	if (!b->set.workloads[BENCH_CHESS] || b->set.quality_ms <= 0) {
		bench_fail(b->err,
		           "--quality-suite needs the chess workload (--workload chess) and "
		           "--quality-ms above 0");
		return CLI_EXIT_USAGE;
	}
	char err[768];
	if (!bench_suite_load(b->res.work[BENCH_CHESS].chess, b->set.quality_suite, &b->res.suite,
	                      err, sizeof(err))) {
		bench_fail(b->err, "--quality-suite: %s", err);
		return CLI_EXIT_FAIL;
	}
	return GO_ON;
}

/* The positions of every workload asked for; GO_ON, or the exit status. */
static int load_workloads(bench_t *b, const bench_opts_t *o)
{
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++) {
		if (!b->set.workloads[wk])
			continue;
		const char *file = wk == BENCH_CHESS      ? o->chess_file
		                   : wk == BENCH_CONNECT4 ? o->connect4_file
		                                          : NULL;
		int loaded = bench_workload_load(b, wk, file, o->positions, o->chess_depth, o->rb,
		                                 o->rd, o->hash);
		if (loaded != CLI_EXIT_OK)
			return loaded;
	}
	return load_suite(b);
}

/* After the sweep: the earlier report's files removed (--replace), the plots drawn (the
 * table says what became of them), the table printed before any other file is written,
 * so that it is had whatever becomes of the folder, then the report's files. The exit
 * status. */
static int publish(bench_t *b)
{
	bool cleared = bench_folder_clear(b);
	if (cleared)
		bench_plots(b);
	else
		snprintf(b->res.plot_note, sizeof(b->res.plot_note),
		         "not written: the earlier report could not be removed");
	bench_print_text(b, stdout);
	fflush(stdout);
	if (!cleared || !write_report(b))
		return CLI_EXIT_FAIL;
	printf("\nreport folder: %s\n", b->set.out_dir);
	return CLI_EXIT_OK;
}

/* Rank 0's whole bench once the workloads are loaded: the references, the sweep beside
 * the hog, the rows, the plots and the report, written and printed. The exit status. */
static int measure_and_report(bench_t *b, const bench_opts_t *o, hog_t *hog)
{
	int st = bench_folder_check(b);
	if (st != CLI_EXIT_OK)
		return st;
	signal(SIGPIPE, SIG_IGN); /* a Stockfish that dies is reported, not fatal */
	b->mach.load_before = bench_load_average();
	double t0 = cli_now_s();
	if (b->set.workloads[BENCH_CHESS] && b->set.quality_ms > 0 && b->res.suite.n == 0 &&
	    !bench_references(b, (int)o->ref_extra))
		return CLI_EXIT_FAIL;
	if (!hog_start(b->err, hog, b->set.hog))
		return CLI_EXIT_FAIL;
	bool swept = sweep(b);
	hog_stop(hog);
	if (!swept)
		return CLI_EXIT_FAIL;
	b->res.wall_s = cli_now_s() - t0;
	b->mach.load_after = bench_load_average();
	if (b->set.progress && b->set.progress_tty)
		fputs("\r\033[K", stderr);
	bench_derive(b);
	return publish(b);
}

/* Frees everything the bench holds and ends the cluster (aborting it on a failure: the
 * other ranks may be waiting for us); returns status. */
static int bench_end(bench_t *b, hog_t *hog, int status)
{
	hog_stop(hog);
	bench_folder_release(b);
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
		bench_workload_free(&b->res.work[wk]);
	for (int i = 0; i < b->res.nruns; i++)
		bench_run_free(&b->res.runs[i]);
	free(b->res.runs);
	bench_probe_free(b);
	free(b->res.rows);
	free(b->res.quality);
	bench_suite_free(&b->res.suite);
	if (b->mpi.cluster && status != CLI_EXIT_OK)
		bench_abort_cluster(b, status);
	cli_cluster_end(b->mpi.cluster);
	return status;
}

int bench_main(const char *cmd, const char *usage, int argc, char **argv,
               const struct cli_opt *extra, int nextra, bench_sim_t *sim,
               int (*ready)(void *ctx, struct bench *b), bench_error_t *err)
{
	static bench_t b;
	bench_opts_t o;
	hog_t hog = { NULL, 0 };
	memset(&b, 0, sizeof(b));
	b.folder.claim_fd = -1;
	b.cmd = cmd;
	b.sim = sim;
	b.err = err;
	default_options(&b, &o);
	int st = parse_options(&b, &o, usage, argc, argv, extra, nextra);
	if (st != GO_ON)
		return st;
	if (sim && (o.hog_n > 0 || strcmp(o.stockfish, "off") != 0)) {
		bench_fail(err, "--hog and --stockfish measure the real machine: not in a "
		                "simulation");
		return CLI_EXIT_USAGE;
	}
	if (ready && (st = ready(sim->ctx, &b)) != CLI_EXIT_OK)
		return st;
	if ((st = apply_options(&b, &o)) != GO_ON || (st = setup_cluster(&b, &o)) != GO_ON)
		return st;
	name_report(&b);
	st = load_workloads(&b, &o);
	if (st == GO_ON && b.mpi.follower) /* the cluster's rows only, in step with rank 0 */
		st = sweep(&b) ? CLI_EXIT_OK : CLI_EXIT_FAIL;
	else if (st == GO_ON)
		st = measure_and_report(&b, &o, &hog);
	return bench_end(&b, &hog, st);
}
