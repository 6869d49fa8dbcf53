/*
 * results.c — what `cutoff bench` makes of its runs: the derived figures (rows), the
 * table for the terminal (report.txt), results.json, results.csv and runs.csv, and the
 * plots drawn by gnuplot.
 *
 * Every figure of a row is the median over its repeats; the time also has its spread
 * (min..max). Speed-up is T(baseline: the default driver, 1 thread) / T(row), both medians
 * over the same positions; "own T1" is T(the row's driver, 1 thread) / T(row). For Stockfish every ratio
 * is against Stockfish at one thread. A figure that does not apply, or that the library
 * cannot give (the profiler's, when it was built without it), is NAN and reads "n/a" (null
 * in JSON), never 0.
 *
 * The profiler's figures: the time split is each part (searching, idle, split wait, lock
 * spin) summed over threads and positions, over the threads' time summed likewise, so
 * that the four shares of a run add up to 1; per thread the same over its own time
 * (threads.csv, results.json, time-split.svg). Node types and the drivers' own figures
 * are ratios of the run's summed counters (cutoff.h says what each counts).
 *
 * Nothing here names a driver: rows, columns and plot lines are made for every driver of
 * the library's registry that the sweep ran, and a driver's own figures (the table FIGS
 * below) show on the rows whose runs counted them.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "bench/ceiling.h"
#include "bench/common.h"
#include "bench/probe.h"
#include "bench/results.h"
#include "json.h"
#include "report.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of v[0..n) (NANs left out); NAN when none is left. Sorts v. */
static double median(double *v, int n)
{
	int m = 0;
	for (int i = 0; i < n; i++) {
		if (!isnan(v[i]))
			v[m++] = v[i];
	}
	if (m == 0)
		return NAN;
	qsort(v, (size_t)m, sizeof(*v), cmp_double);
	return m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}

static double minmax(const double *v, int n, bool max)
{
	double r = NAN;
	for (int i = 0; i < n; i++) {
		if (!isnan(v[i]) && (isnan(r) || (max ? v[i] > r : v[i] < r)))
			r = v[i];
	}
	return r;
}

static double ratio(double a, double b) { return b > 0 && !isnan(a) && !isnan(b) ? a / b : NAN; }

static bool same_engine(bool stockfish_a, int driver_a, bool stockfish_b, int driver_b)
{
	return stockfish_a == stockfish_b && (stockfish_a || driver_a == driver_b);
}

static bench_row_t *find_row(const bench_t *b, int workload, bool stockfish, int driver,
                             int threads)
{
	for (int i = 0; i < b->nrows; i++) {
		bench_row_t *r = &b->rows[i];
		if (r->workload == workload &&
		    same_engine(r->stockfish, r->driver, stockfish, driver) &&
		    r->threads == threads)
			return r;
	}
	return NULL;
}

/*
 * The drivers' own figures (types.h, BENCH_FIG_*), described once for the text table,
 * JSON and CSV: a counter of cutoff_counters_t, alone (a count summed over positions) or
 * over another. A row's figure is NAN unless one of its runs counted `shown_by`: each
 * driver's figures show on the rows of the drivers that count them.
 */
typedef enum fig_unit {
	FIG_COUNT, /* nodes-like: 12.3 k */
	FIG_RATIO, /* a plain ratio: 2.31 */
	FIG_SHARE  /* a share: 12.5% */
} fig_unit_t;

typedef struct driver_fig {
	const char *key;  /* JSON key and CSV column */
	const char *head; /* its column in the text table (8 wide) */
	const char *help; /* the legend */
	size_t count;     /* offsetof(cutoff_counters_t, ...) */
	size_t per;       /* the divisor's offset, or NO_DIVISOR */
	size_t shown_by;  /* shown where a run counted this */
	bool profiler;    /* counted only by the library's profiler */
	fig_unit_t unit;
	const char *csv; /* its format in CSV */
} driver_fig_t;

#define NO_DIVISOR ((size_t)-1)
#define CTR(field) offsetof(cutoff_counters_t, field)

static const driver_fig_t FIGS[BENCH_NFIGS] = {
	[BENCH_FIG_SPLITS] = { "splits", "splits", "split points made", CTR(splits), NO_DIVISOR,
	                       CTR(splits), false, FIG_COUNT, "%.0f" },
	[BENCH_FIG_HELPERS] = { "helpers_per_split", "helpers", "helpers per split point",
	                        CTR(split_helpers), CTR(splits), CTR(splits), true, FIG_RATIO,
	                        "%.3f" },
	[BENCH_FIG_SPLIT_CUT] = { "split_cutoff_rate", "sp cut", "split points cut off",
	                          CTR(split_cutoffs), CTR(splits), CTR(splits), true, FIG_SHARE,
	                          "%.4f" },
	[BENCH_FIG_LOST] = { "split_nodes_lost_share", "lost",
	                     "nodes thrown away (searched below a split point, voided by a "
	                     "cut-off) / nodes",
	                     CTR(split_nodes_lost), CTR(nodes), CTR(splits), true, FIG_SHARE,
	                     "%.4f" },
	[BENCH_FIG_AFTER_CUT] = { "split_nodes_after_cut_share", "aftercut",
	                          "nodes of moves done at a split point after the move that cut "
	                          "it / nodes",
	                          CTR(split_nodes_after_cut), CTR(nodes), CTR(splits), true,
	                          FIG_SHARE, "%.4f" },
	[BENCH_FIG_DEFERRED] = { "deferred", "deferred",
	                         "moves deferred because another thread was searching them",
	                         CTR(deferred), NO_DIVISOR, CTR(deferred), true, FIG_COUNT,
	                         "%.0f" },
	[BENCH_FIG_DEFERRED_TT] = { "deferred_tt_share", "def tt",
	                            "deferred moves the table answered when revisited",
	                            CTR(deferred_tt), CTR(deferred), CTR(deferred), true, FIG_SHARE,
	                            "%.4f" },
	[BENCH_FIG_DEFERRED_BUSY] = { "deferred_busy_share", "def busy",
	                              "deferred moves still busy when revisited",
	                              CTR(deferred_busy), CTR(deferred), CTR(deferred), true,
	                              FIG_SHARE, "%.4f" },
	[BENCH_FIG_SECOND_PASSES] = { "second_passes", "2nd pass",
	                              "nodes that came back to deferred moves", CTR(second_passes),
	                              NO_DIVISOR, CTR(deferred), true, FIG_COUNT, "%.0f" },
	[BENCH_FIG_BUSY_COLLISIONS] = { "busy_collisions", "collide",
	                                "busy marks that met another position's",
	                                CTR(busy_collisions), NO_DIVISOR, CTR(busy_collisions),
	                                true, FIG_COUNT, "%.0f" },
};

static uint64_t counter_at(const cutoff_counters_t *c, size_t offset)
{
	uint64_t v;
	memcpy(&v, (const char *)c + offset, sizeof(v));
	return v;
}

/* The figure `f` of one run's counters (NAN when it cannot be had). */
static double fig_of(const bench_t *b, const driver_fig_t *f, const cutoff_counters_t *c)
{
	if (f->profiler && !b->profiled)
		return NAN;
	double v = (double)counter_at(c, f->count);
	return f->per == NO_DIVISOR ? v : ratio(v, (double)counter_at(c, f->per));
}

/* The per-thread node rates of one run: min, median, max over its threads. */
static void thread_rates(const bench_run_t *run, double out[3])
{
	double v[CUTOFF_MAX_THREADS];
	out[0] = out[1] = out[2] = NAN;
	if (run->incomplete_threads || run->time_s <= 0)
		return;
	for (int k = 0; k < run->threads; k++)
		v[k] = (double)run->thread_nodes[k] / run->time_s;
	out[0] = minmax(v, run->threads, false);
	out[2] = minmax(v, run->threads, true);
	out[1] = median(v, run->threads);
}

static void derive_row(bench_t *b, bench_row_t *row)
{
	int n = 0;
	enum {
		T,
		NODES,
		NPS,
		TMIN,
		TMED,
		TMAX,
		FMC,
		SEARCH,
		IDLE,
		WAIT,
		LOCK,
		SYNC,
		CUT1,
		CUTW,
		ALLW,
		TTO,
		MINR,
		FIG0, /* the drivers' own figures, FIG0 + BENCH_FIG_* */
		NFIG = FIG0 + BENCH_NFIGS
	};
	/* Counter-based figures of the profiler: not for Stockfish nor without the profiler;
	 * tt other only with the writers array; the drivers' own where a run counted them. */
	bool prof = b->profiled && !row->stockfish;
	bool seen[BENCH_NFIGS] = { false };
	double buf[NFIG][256];
	int idx[256];
	for (int i = 0; i < b->nruns && n < 256; i++) {
		const bench_run_t *run = &b->runs[i];
		if (run->workload != row->workload ||
		    !same_engine(run->stockfish, run->driver, row->stockfish, row->driver) ||
		    run->threads != row->threads)
			continue;
		double tr[3];
		thread_rates(run, tr);
		idx[n] = i;
		buf[T][n] = run->time_s;
		buf[NODES][n] = (double)run->counters.nodes;
		buf[NPS][n] = ratio((double)run->counters.nodes, run->time_s);
		buf[TMIN][n] = tr[0];
		buf[TMED][n] = tr[1];
		buf[TMAX][n] = tr[2];
		buf[FMC][n] = row->stockfish ? NAN
		                             : ratio((double)run->counters.first_move_cutoffs,
		                                     (double)run->counters.cutoffs);
		const cutoff_counters_t *c = &run->counters;
		buf[SEARCH][n] = run->share_search;
		buf[IDLE][n] = run->share_idle;
		buf[WAIT][n] = run->share_split_wait;
		buf[LOCK][n] = run->share_lock_spin;
		buf[SYNC][n] = run->share_split_wait + run->share_lock_spin; /* NAN stays NAN */
		buf[CUT1][n] =
			prof ? ratio((double)c->cut_node_first_cutoffs, (double)c->cut_node_cutoffs)
			     : NAN;
		buf[CUTW][n] = prof ? ratio((double)c->cut_nodes_wrong, (double)c->nodes_cut) : NAN;
		buf[ALLW][n] = prof ? ratio((double)c->all_nodes_wrong, (double)c->nodes_all) : NAN;
		buf[TTO][n] = prof && b->tt_writers
		                      ? ratio((double)c->tt_hits_other, (double)c->tt_hits)
		                      : NAN;
		for (int k = 0; k < BENCH_NFIGS; k++) {
			buf[FIG0 + k][n] = row->stockfish ? NAN : fig_of(b, &FIGS[k], c);
			seen[k] |= !row->stockfish && counter_at(c, FIGS[k].shown_by) > 0;
		}
		/* The iterations' counters are thread 0's alone under the parallel drivers. */
		buf[MINR][n] = row->driver == b->base || row->threads == 1
		                       ? ratio(run->last_leaves, run->minimal)
		                       : NAN;
		row->mismatches += run->mismatches;
		n++;
	}
	row->nruns = n;
	if (n == 0)
		return;
	/* The run of median time, for the per-thread plot. */
	double best = INFINITY, med_t;
	double tcopy[256];
	memcpy(tcopy, buf[T], (size_t)n * sizeof(double));
	med_t = median(tcopy, n);
	for (int i = 0; i < n; i++) {
		if (fabs(buf[T][i] - med_t) < best) {
			best = fabs(buf[T][i] - med_t);
			row->median_run = idx[i];
		}
	}
	row->time_min = minmax(buf[T], n, false);
	row->time_max = minmax(buf[T], n, true);
	row->time_med = median(buf[T], n);
	row->nps_min = minmax(buf[NPS], n, false);
	row->nps_max = minmax(buf[NPS], n, true);
	row->nps_med = median(buf[NPS], n);
	row->nodes_med = median(buf[NODES], n);
	row->thr_nps_min = median(buf[TMIN], n);
	row->thr_nps_med = median(buf[TMED], n);
	row->thr_nps_max = median(buf[TMAX], n);
	row->fmc_rate = median(buf[FMC], n);
	row->search_share = median(buf[SEARCH], n);
	row->idle_share = median(buf[IDLE], n);
	row->split_wait_share = median(buf[WAIT], n);
	row->lock_share = median(buf[LOCK], n);
	row->sync_share = median(buf[SYNC], n);
	row->cut_first_rate = median(buf[CUT1], n);
	row->cut_wrong = median(buf[CUTW], n);
	row->all_wrong = median(buf[ALLW], n);
	row->tt_other = median(buf[TTO], n);
	for (int k = 0; k < BENCH_NFIGS; k++)
		row->fig[k] = seen[k] ? median(buf[FIG0 + k], n) : NAN;
	row->minimal_ratio = median(buf[MINR], n);
	{
		const bench_run_t *mr = &b->runs[row->median_run];
		double nodes = (double)mr->counters.nodes;
		row->parallelism = ratio(mr->sim_work_s, mr->sim_span_s);
		row->sim_nps = ratio(nodes, mr->sim_real_s);
		row->sim_switches_per_node = ratio(mr->sim_switches, nodes);
	}

	/* Effective branching factor per iteration, over the depths every position
	 * completed. */
	const bench_workload_t *w = &b->work[row->workload];
	row->ebf_from = row->ebf_to = 0;
	for (int d = 2; d < CUTOFF_MAX_PLY && !row->stockfish; d++) {
		double e[256];
		int m = 0;
		for (int i = 0; i < n; i++) {
			const bench_run_t *run = &b->runs[idx[i]];
			if (run->it_items[d] == w->nitems && run->it_items[d - 1] == w->nitems)
				e[m++] = ratio((double)run->it_nodes[d],
				               (double)run->it_nodes[d - 1]);
		}
		if (m == 0)
			continue;
		if (!row->ebf_from)
			row->ebf_from = d;
		row->ebf_to = d;
		row->ebf[d] = median(e, m);
	}
}

void bench_derive(bench_t *b)
{
	free(b->rows);
	b->nrows = 0;
	/* Every driver of the registry, then Stockfish, then the cluster at each rank count. */
	int engines = cutoff_driver_count() + 1 + b->nrank_counts;
	b->rows = calloc((size_t)(BENCH_NWORKLOADS * engines * b->ncounts), sizeof(*b->rows));
	if (!b->rows)
		return;
	for (int w = 0; w < BENCH_NWORKLOADS; w++) {
		for (int e = 0; e < engines; e++) {
			for (int c = 0; c < b->ncounts; c++) {
				bench_row_t *row = &b->rows[b->nrows];
				memset(row, 0, sizeof(*row));
				row->workload = w;
				int k = e - cutoff_driver_count() - 1; /* >= 0: a cluster row */
				row->stockfish = e == cutoff_driver_count();
				row->driver = row->stockfish ? 0
				              : k >= 0       ? BENCH_CLUSTER_ROW + b->rank_counts[k]
				                             : e;
				row->threads = b->counts[c];
				int procs = k >= 0 ? b->rank_counts[k] : 1;
				row->oversubscribed =
					!b->sim &&
					b->counts[c] * procs > b->cores; /* virtual: a core each */
				derive_row(b, row);
				if (row->nruns > 0)
					b->nrows++;
			}
		}
	}
	for (int i = 0; i < b->nrows; i++) {
		bench_row_t *row = &b->rows[i];
		const bench_row_t *base = find_row(b, row->workload, row->stockfish, b->base, 1);
		const bench_row_t *own = find_row(b, row->workload, row->stockfish, row->driver, 1);
		row->speedup = base ? ratio(base->time_med, row->time_med) : NAN;
		row->speedup_self = own ? ratio(own->time_med, row->time_med) : NAN;
		row->efficiency = row->speedup / row->threads;
		row->nps_scaling = base ? ratio(row->nps_med, base->nps_med) : NAN;
		row->overhead = base ? ratio(row->nodes_med, base->nodes_med) : NAN;
	}
	bench_ceiling_derive(b);
}

/* ---------------------------------------------------------------------------------------
 * Text
 * ------------------------------------------------------------------------------------- */

/* A number in a column: "n/a" for NAN. */
static const char *fmt(char *buf, size_t size, const char *f, double v)
{
	if (isnan(v))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, f, v);
	return buf;
}

/* Nodes or node rates, with a unit: 12.3 M, 456 k. */
static const char *si(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "n/a");
	else if (v >= 1e9)
		snprintf(buf, size, "%.2f G", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, size, "%.2f M", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, size, "%.1f k", v / 1e3);
	else
		snprintf(buf, size, "%.0f", v);
	return buf;
}

static void build_text(char *buf, size_t size)
{
	snprintf(buf, size, "cutoff %s, %s, %s%s%s", cutoff_version(),
#ifdef __VERSION__
	         "cc " __VERSION__,
#else
	         "cc (unknown)",
#endif
#ifdef __OPTIMIZE__
	         "optimised",
#else
	         "not optimised",
#endif
#ifdef NDEBUG
	         ", asserts off",
#else
	         ", asserts on",
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	         ", SANITIZED (times mean nothing)"
#else
	         ""
#endif
	);
}

static void print_header(const bench_t *b, FILE *out)
{
	char build[256], counts[256] = "";
	size_t used = 0;
	for (int i = 0; i < b->ncounts && used < sizeof(counts); i++)
		used += (size_t)snprintf(counts + used, sizeof(counts) - used, "%s%d", i ? "," : "",
		                         b->counts[i]);
	build_text(build, sizeof(build));
	fprintf(out, "cutoff %s — %s\n\n", b->sim ? "sim" : "bench", b->date);
	if (b->sim)
		cli_field(out, "simulation",
		          "%s; every time below is virtual (the cost model's), but the sweep's "
		          "and the simulator's real seconds",
		          b->sim->model);
	cli_field(out, "machine", "%s; %d package%s, %d NUMA node%s, %d cores, %d PUs (hwloc)",
	          b->cpu_model, b->packages, b->packages == 1 ? "" : "s", b->numa,
	          b->numa == 1 ? "" : "s", b->cores, b->pus);
	cli_field(out, "load average", "%.2f before, %.2f after (1 minute)", b->load_before,
	          b->load_after);
	bench_ceiling_print(b, out);
	cli_field(out, "build", "%s", build);
	if (b->note)
		cli_field(out, "note", "%s", b->note);
	cli_field(out, "threads", "%s%s", counts,
	          !b->sim && b->counts[b->ncounts - 1] > b->cores
	                  ? " (more than the cores: flagged *)"
	                  : "");
	char drivers[256] = "", settings[512];
	used = 0;
	for (int d = 0; d < cutoff_driver_count() && used < sizeof(drivers); d++)
		if (b->drivers[d])
			used += (size_t)snprintf(drivers + used, sizeof(drivers) - used, "%s%s",
			                         used ? " " : "", bench_engine_name(false, d));
	cli_field(out, "drivers", "%s (%s at 1 thread only: the baseline)", drivers,
	          bench_engine_name(false, b->base));
	if (b->drivers[BENCH_CLUSTER]) {
		char list[128];
		size_t u = 0;
		for (int k = 0; k < b->nrank_counts && u < sizeof(list); k++)
			u += (size_t)snprintf(list + u, sizeof(list) - u, "%s%d", k ? "," : "",
			                      b->rank_counts[k]);
		if (b->sim)
			cli_field(out, "cluster",
			          "ranks %s, simulated (sim/net.h: each rank its own "
			          "simulator, a message latency): cluster/R, each rank lazy SMP on "
			          "the "
			          "row's threads over its own table, sharing deep entries around a "
			          "ring",
			          list);
		else
			cli_field(out, "cluster",
			          "ranks %s of %d (mpirun): cluster/R, each rank lazy SMP "
			          "on the row's threads over its own table, sharing deep entries "
			          "around "
			          "a ring",
			          list, b->ranks);
	}
	cli_field(out, "repeats", "%d, interleaved (medians, time spread min..max)", b->repeat);
	used = (size_t)snprintf(settings, sizeof(settings), "placement %s",
	                        cli_placement_names[b->placement]);
	for (int d = 0; d < cutoff_driver_count() && used < sizeof(settings); d++) {
		char text[256];
		if (b->drivers[d] &&
		    *cli_driver_options_text(&b->options, (cutoff_driver_t)d, text, sizeof(text)))
			used += (size_t)snprintf(settings + used, sizeof(settings) - used,
			                         "; %s: %s", bench_engine_name(false, d), text);
	}
	cli_field(out, "parallel settings", "%s", settings);
	if (b->stockfish)
		cli_field(out, "stockfish", "%s (%s): same positions, thread counts, table size",
		          b->stockfish_name[0] ? b->stockfish_name : "?", b->stockfish);
	else
		cli_field(out, "stockfish", "not run (not found, or --stockfish off)");
	if (!b->profiled)
		cli_field(out, "profiler",
		          "n/a: the library was built without it (CUTOFF_PROFILE=OFF), so the "
		          "time split, node types, split points and depths read n/a%s",
		          b->tt_writers ? " (and --profile-tt-writers does nothing)" : "");
	else if (b->tt_writers)
		cli_field(out, "profiler",
		          "on, with the table writers (--profile-tt-writers): tt other measured, "
		          "at a cost of 6-10 %% of the node rate: times not comparable with a "
		          "sweep without it");
	else
		cli_field(out, "profiler",
		          "on; table writers off (tt other n/a: --profile-tt-writers measures "
		          "it, at a cost of 6-10 %% of the node rate)");
	if (b->hog > 0)
		cli_field(out, "hog",
		          "%d process%s spinning beside the sweep (another program's load): the "
		          "ceilings and every row were measured with %s running",
		          b->hog, b->hog == 1 ? "" : "es", b->hog == 1 ? "it" : "them");
	else
		cli_field(out, "hog", "none (--hog N runs N spinning processes beside the sweep)");
	cli_field(out, "time", "%.1f s for the whole sweep", b->wall_s);
	fprintf(out,
	        "\nspeed-up: T(%s, 1 thread) / T(row), medians over the same positions; own T1:\n"
	        "T(the row's driver, 1 thread) / T(row); efficiency: speed-up / threads; "
	        "overhead:\n"
	        "nodes / nodes(%s, 1 thread); scaling: nodes per second / that of %s at 1\n"
	        "thread; per-thread: each thread's nodes / the run's time (min / median / max);\n"
	        "1st-move: first-move cut-offs / cut-offs. Stockfish's ratios are to Stockfish at\n"
	        "1 thread, at a depth of its own. idle+sync: the threads' time spent idle, and\n"
	        "waiting at a split point or spinning on a lock, in %% of their summed time.\n"
	        "\n"
	        "profile (the library's profiler; medians): search, idle, split-w(ait), lock: "
	        "where\n"
	        "the threads' summed time went (each thread is accounted the search's whole "
	        "span);\n"
	        "CUT 1st: cut-offs at expected CUT nodes made by the first move; CUT wrong:\n"
	        "expected CUT nodes that cut nothing / CUT nodes; ALL wrong: expected ALL nodes\n"
	        "that cut / ALL nodes; tt other: table hits on an entry another thread wrote.\n",
	        bench_engine_name(false, b->base), bench_engine_name(false, b->base),
	        bench_engine_name(false, b->base));
	fputs("The drivers' own figures, on the rows whose runs counted them (n/a elsewhere):\n",
	      out);
	for (int k = 0; k < BENCH_NFIGS; k++)
		fprintf(out, "  %-9s %s\n", FIGS[k].head, FIGS[k].help);
}

/* A share as a percentage, "n/a" for NAN. */
static const char *pct(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "%.1f%%", 100 * v);
	return buf;
}

/* A driver's figure as the text table shows it. */
static const char *fig_text(char *buf, size_t size, const driver_fig_t *f, double v)
{
	switch (f->unit) {
	case FIG_COUNT:
		return si(buf, size, v);
	case FIG_RATIO:
		return fmt(buf, size, "%.2f", v);
	case FIG_SHARE:
		break;
	}
	return pct(buf, size, v);
}

/* True when some thread but the first of the row's run of median time reached a depth of
 * its own: the driver has every thread iterate, whose depths are then worth a table. */
static bool helpers_iterate(const bench_t *b, const bench_row_t *r)
{
	const bench_run_t *run = &b->runs[r->median_run];
	if (r->stockfish || r->threads < 2 || run->profiled == 0 || run->incomplete_threads)
		return false;
	for (int k = 1; k < run->threads; k++)
		if (run->thread_prof[k].depth_reached > 0)
			return true;
	return false;
}

/* The profiler's table under a workload's main table, with a column for each driver figure
 * that some row of the workload has, and the depths per thread of the drivers whose every
 * thread iterates. */
static void print_profile(const bench_t *b, int wk, FILE *out)
{
	if (!b->profiled) {
		fputs("\n   profile: n/a (the library was built with CUTOFF_PROFILE=OFF)\n", out);
		return;
	}
	bool shown[BENCH_NFIGS] = { false };
	for (int i = 0; i < b->nrows; i++)
		for (int k = 0; k < BENCH_NFIGS; k++)
			shown[k] |= b->rows[i].workload == wk && !isnan(b->rows[i].fig[k]);
	fprintf(out, "\n   profile%*s %7s %7s %7s %7s %8s %9s %9s %8s", 7, "", "search", "idle",
	        "split-w", "lock", "CUT 1st", "CUT wrong", "ALL wrong", "tt other");
	for (int k = 0; k < BENCH_NFIGS; k++)
		if (shown[k])
			fprintf(out, " %8s", FIGS[k].head);
	fputc('\n', out);
	for (int i = 0; i < b->nrows; i++) {
		const bench_row_t *r = &b->rows[i];
		if (r->workload != wk || r->stockfish)
			continue;
		char t[8][32];
		fprintf(out, "   %-9s %3d%s %7s %7s %7s %7s %8s %9s %9s %8s",
		        bench_engine_name(false, r->driver), r->threads,
		        r->oversubscribed ? "*" : " ", pct(t[0], 32, r->search_share),
		        pct(t[1], 32, r->idle_share), pct(t[2], 32, r->split_wait_share),
		        pct(t[3], 32, r->lock_share), pct(t[4], 32, r->cut_first_rate),
		        pct(t[5], 32, r->cut_wrong), pct(t[6], 32, r->all_wrong),
		        pct(t[7], 32, r->tt_other));
		for (int k = 0; k < BENCH_NFIGS; k++)
			if (shown[k])
				fprintf(out, " %8s", fig_text(t[0], 32, &FIGS[k], r->fig[k]));
		fputc('\n', out);
	}
	bool any = false;
	for (int i = 0; i < b->nrows; i++) {
		const bench_row_t *r = &b->rows[i];
		if (r->workload != wk || !helpers_iterate(b, r))
			continue;
		const bench_run_t *run = &b->runs[r->median_run];
		if (!any)
			fputs("\n   depth per thread where every thread iterates, "
			      "reached/completed, "
			      "mean over\n   positions (the run of median time)\n",
			      out);
		any = true;
		fprintf(out, "   %-9s %3d%s", bench_engine_name(false, r->driver), r->threads,
		        r->oversubscribed ? "*" : " ");
		const int most = 8;
		for (int k = 0; k < run->threads && k < most; k++)
			fprintf(out, "  t%d %.2f/%.2f", k,
			        run->thread_prof[k].depth_reached / run->profiled,
			        run->thread_prof[k].depth_completed / run->profiled);
		if (run->threads > most)
			fprintf(out, "  ... (%d more in threads.csv)", run->threads - most);
		fputc('\n', out);
	}
}

/* `cutoff sim`: each row's work / span and what the simulation cost. */
static void print_sim(const bench_t *b, int wk, FILE *out)
{
	fputs("\n   simulation: work/span = the run's charged work over its critical path (the\n"
	      "   speed-up its dependencies allow); the simulator's real speed and switches\n",
	      out);
	fprintf(out, "   %-9s %4s %10s %12s %12s %14s\n", "driver", "thr", "work/span", "work s",
	        "span s", "sim nodes/s");
	for (int i = 0; i < b->nrows; i++) {
		const bench_row_t *r = &b->rows[i];
		if (r->workload != wk || r->stockfish)
			continue;
		const bench_run_t *run = &b->runs[r->median_run];
		char t[4][32];
		fprintf(out, "   %-9s %3d  %10s %12s %12s %14s  (%.2f switches a node)\n",
		        bench_engine_name(false, r->driver), r->threads,
		        fmt(t[0], 32, "%.1f", r->parallelism),
		        fmt(t[1], 32, "%.4f", run->sim_work_s),
		        fmt(t[2], 32, "%.4f", run->sim_span_s), si(t[3], 32, r->sim_nps),
		        r->sim_switches_per_node);
	}
}

static void print_workload(const bench_t *b, int wk, FILE *out)
{
	const bench_workload_t *w = &b->work[wk];
	char t[6][32];
	fprintf(out, "\n== %s: %d position%s — %s\n", bench_workload_names[wk], w->nitems,
	        w->nitems == 1 ? "" : "s", w->source);
	fprintf(out, "   %s; table %zu MiB; time to depth", w->settings, w->cfg.tt_mb);
	if (wk == BENCH_CHESS && b->stockfish) {
		fputs("; stockfish depths", out);
		for (int i = 0; i < w->nitems; i++)
			fprintf(out, "%s%d", i ? "," : " ", w->items[i].sf_depth);
		fputs(" (ours", out);
		for (int i = 0; i < w->nitems; i++)
			fprintf(out, "%s%d", i ? "," : " ", w->items[i].depth);
		fputs(")", out);
	}
	fputs("\n\n", out);
	fprintf(out, "%-10s %4s %9s %-19s %8s %7s %6s %10s %8s %10s %7s %-26s %8s %10s %7s %7s\n",
	        "driver", "thr", "time s", "  (min..max)", "speed-up", "own T1", "effic", "nodes",
	        "overhead", "nodes/s", "scaling", "per-thread nodes/s", "1st-move", "idle+sync",
	        "ceiling", "of ceil");
	for (int i = 0; i < b->nrows; i++) {
		const bench_row_t *r = &b->rows[i];
		if (r->workload != wk)
			continue;
		char spread[40], per[64], a[16], m[16], c[16];
		snprintf(spread, sizeof(spread), "(%.3f..%.3f)", r->time_min, r->time_max);
		if (isnan(r->thr_nps_med))
			snprintf(per, sizeof(per), "n/a");
		else
			snprintf(per, sizeof(per), "%s / %s / %s", si(a, sizeof(a), r->thr_nps_min),
			         si(m, sizeof(m), r->thr_nps_med),
			         si(c, sizeof(c), r->thr_nps_max));
		char idle[32];
		if (isnan(r->idle_share) || isnan(r->sync_share))
			snprintf(idle, sizeof(idle), "n/a");
		else
			snprintf(idle, sizeof(idle), "%.1f+%.1f%%", 100 * r->idle_share,
			         100 * r->sync_share);
		char ceil[2][16];
		fprintf(out,
		        "%-10s %3d%s %9.3f %-19s %8s %7s %6s %10s %8s %10s %7s %-26s %8s %10s %7s "
		        "%7s\n",
		        bench_engine_name(r->stockfish, r->driver), r->threads,
		        r->oversubscribed ? "*" : " ", r->time_med, spread,
		        fmt(t[0], 32, "%.2f", r->speedup), fmt(t[1], 32, "%.2f", r->speedup_self),
		        fmt(t[2], 32, "%.2f", r->efficiency), si(t[3], 32, r->nodes_med),
		        fmt(t[4], 32, "%.2f", r->overhead), si(t[5], 32, r->nps_med),
		        fmt(a, sizeof(a), "%.2f", r->nps_scaling), per,
		        isnan(r->fmc_rate)
		                ? "n/a"
		                : (snprintf(m, sizeof(m), "%.1f %%", 100 * r->fmc_rate), m),
		        idle, fmt(ceil[0], 16, "%.2f", r->ceiling),
		        fmt(ceil[1], 16, "%.2f", r->of_ceiling));
	}
	bench_ceiling_print_workload(b, wk, out);
	if (b->sim)
		print_sim(b, wk, out);
	print_profile(b, wk, out);
	/* Effective branching factor and the minimal tree. */
	bool any = false;
	for (int i = 0; i < b->nrows; i++) {
		const bench_row_t *r = &b->rows[i];
		if (r->workload != wk || !r->ebf_from)
			continue;
		if (!any)
			fprintf(out, "\n   effective branching factor, nodes(d) / nodes(d-1), by "
			             "depth d "
			             "(parallel rows: thread 0's iterations)\n");
		any = true;
		fprintf(out, "   %-9s %3d ", bench_engine_name(r->stockfish, r->driver),
		        r->threads);
		for (int d = r->ebf_from; d <= r->ebf_to; d++)
			fprintf(out, " d%d %.2f", d, r->ebf[d]);
		fputc('\n', out);
	}
	const bench_row_t *s1 = find_row(b, wk, false, b->base, 1);
	if (s1 && !isnan(s1->minimal_ratio)) {
		double bsum = 0;
		for (int i = 0; i < w->nitems; i++)
			bsum += w->items[i].branching;
		fprintf(out,
		        "\n   minimal tree: the baseline search's last iteration reads %.3g times "
		        "the "
		        "leaves of\n   b^ceil(d/2) + b^floor(d/2) - 1 at each position's depth d, "
		        "with b its measured\n   mean branching factor (root and children; mean "
		        "%.1f)%s\n",
		        s1->minimal_ratio, bsum / w->nitems,
		        wk == BENCH_CHESS ? "; chess leaves include quiescence, and pruning "
		                            "reads less than a full-width tree"
		                          : "");
	} else if (wk == BENCH_CONNECT4) {
		fputs("\n   minimal tree: n/a (solved to the end of the game: the tree is not "
		      "uniform)\n",
		      out);
	}
	if (wk == BENCH_CONNECT4) {
		int mm = 0;
		for (int i = 0; i < b->nrows; i++)
			if (b->rows[i].workload == wk)
				mm += b->rows[i].mismatches;
		fprintf(out, "   check: %d solve%s differ%s from the test set's win/draw/loss\n",
		        mm, mm == 1 ? "" : "s", mm == 1 ? "s" : "");
	}
}

static void print_quality(const bench_t *b, FILE *out)
{
	if (b->nquality == 0)
		return;
	const bench_workload_t *w = &b->work[BENCH_CHESS];
	fprintf(out,
	        "\n== quality at equal time: each chess position searched for %" PRId64
	        " ms; depth reached and\n   agreement of the move with a deeper serial search "
	        "(ref depths",
	        b->quality_ms);
	for (int i = 0; i < w->nitems; i++)
		fprintf(out, "%s%d", i ? "," : " ", w->items[i].ref_depth);
	fputs("); one run each\n\n", out);
	fprintf(out, "%-10s %4s %12s %10s %12s   %s\n", "driver", "thr", "mean depth", "agree",
	        "nodes", "depth/move per position");
	for (int d = 0; d < cutoff_driver_count(); d++) {
		for (int c = 0; c < b->ncounts; c++) {
			int n = 0, agree = 0, refs = 0;
			double depth = 0, nodes = 0;
			char per[512] = "";
			size_t used = 0;
			for (int i = 0; i < b->nquality; i++) {
				const bench_quality_t *q = &b->quality[i];
				if (q->driver != d || q->threads != b->counts[c])
					continue;
				n++;
				depth += q->depth;
				nodes += (double)q->nodes;
				refs += w->items[q->item].ref_move[0] != 0;
				agree += q->agree;
				if (used < sizeof(per))
					used += (size_t)snprintf(per + used, sizeof(per) - used,
					                         "%s%d %s", used ? ", " : "",
					                         q->depth, q->move);
			}
			if (n == 0)
				continue;
			char a[32], nn[16];
			snprintf(a, sizeof(a), "%d/%d", agree, refs);
			fprintf(out, "%-10s %3d%s %12.2f %10s %12s   %s\n",
			        bench_engine_name(false, d), b->counts[c],
			        b->counts[c] > b->cores ? "*" : " ", depth / n, a,
			        si(nn, sizeof(nn), nodes / n), per);
		}
	}
}

/* The cluster's rows (mpirun): each rank's share of the run of median time. */
static void print_cluster(const bench_t *b, FILE *out)
{
	bool any = false;
	for (int i = 0; i < b->nrows; i++) {
		const bench_row_t *r = &b->rows[i];
		if (!bench_is_cluster(r->driver) || r->stockfish)
			continue;
		const bench_run_t *run = &b->runs[r->median_run];
		if (!any)
			fprintf(out, "\n== the cluster: cluster/R is R ranks, each lazy SMP on the "
			             "row's "
			             "threads over its own table (the run of median time)\n");
		any = true;
		fprintf(out, "\n%s, %s, %d thread%s a rank:\n", bench_workload_names[r->workload],
		        bench_engine_name(false, r->driver), r->threads, r->threads > 1 ? "s" : "");
		fprintf(out, "%5s %12s %9s %7s %12s %12s %12s %10s %12s\n", "rank", "nodes", "knps",
		        "comm%", "sent/s", "received/s", "stored", "KB/s sent", "shared/knode");
		for (int k = 0; k < run->nranks; k++) {
			const bench_rank_t *p = &run->rank_prof[k];
			fprintf(out, "%5d %12.0f %9.0f %7.1f %12.0f %12.0f %12.0f %10.1f %12.2f\n",
			        k, p->nodes, ratio(p->nodes, p->time_s) / 1e3,
			        100 * ratio(p->comm_s, p->time_s),
			        ratio(p->sent_entries, p->time_s),
			        ratio(p->received_entries, p->time_s), p->stored_entries,
			        ratio(p->sent_bytes, p->time_s) / 1e3,
			        1000 * ratio(p->tt_hits_shared, p->nodes));
		}
	}
	if (any)
		fputs("(sent, received: table entries of 16 bytes a second; stored: received "
		      "entries written into the rank's table;\ncomm%: the rank's time in the "
		      "exchange, the rounds and the end; shared/knode: hits on another rank's\n"
		      "entries per thousand nodes, with --profile-tt-writers only; Connect Four: "
		      "the last search of each solve)\n",
		      out);
}

static void print_closing(const bench_t *b, FILE *out)
{
	/* 2 threads when swept, else the largest count. */
	int n = b->counts[b->ncounts - 1];
	for (int c = 0; c < b->ncounts; c++)
		if (b->counts[c] == 2)
			n = 2;
	if (n == 1)
		return;
	fprintf(out, "\n== in short: %d threads against the %s search at 1 thread (medians)\n\n", n,
	        bench_engine_name(false, b->base));
	fprintf(out, "%-9s %-10s %9s %9s %9s %9s %9s\n", "workload", "driver", "speed-up",
	        "nps-scale", "overhead", "1st-move", "of ceil");
	for (int i = 0; i < b->nrows; i++) {
		const bench_row_t *r = &b->rows[i];
		if (r->threads != n)
			continue;
		char t[5][32];
		fprintf(out, "%-9s %-10s %9s %9s %9s %9s %9s\n", bench_workload_names[r->workload],
		        bench_engine_name(r->stockfish, r->driver),
		        fmt(t[0], 32, "%.2f", r->speedup), fmt(t[1], 32, "%.2f", r->nps_scaling),
		        fmt(t[2], 32, "%.2f", r->overhead),
		        isnan(r->fmc_rate) ? "n/a" : fmt(t[3], 32, "%.1f %%", 100 * r->fmc_rate),
		        fmt(t[4], 32, "%.2f", r->of_ceiling));
	}
	if (b->stockfish)
		fputs("(stockfish: its own time to its own depth, against itself at 1 thread)\n",
		      out);
	for (int c = 0; c < b->ncounts; c++) {
		double med, lo, hi;
		if (b->counts[c] == n && bench_ceiling(b, c, &med, &lo, &hi))
			fprintf(out,
			        "(the machine's ceiling at %d threads: %.2f, %.2f..%.2f over the "
			        "repeats, the speed-up of a multiply loop: what the host lent "
			        "us)\n",
			        n, med, lo, hi);
	}
}

void bench_print_text(const bench_t *b, FILE *out)
{
	print_header(b, out);
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
		if (b->workloads[wk])
			print_workload(b, wk, out);
	print_cluster(b, out);
	print_quality(b, out);
	print_closing(b, out);
	if (b->plot_note[0])
		fprintf(out, "\nplots: %s\n", b->plot_note);
}

/* ---------------------------------------------------------------------------------------
 * JSON and CSV
 * ------------------------------------------------------------------------------------- */

/* Thread k's share of its own time spent on `part` (NAN without the profile). */
static double thread_share(const bench_run_t *run, int k, double part)
{
	if (run->profiled == 0 || run->incomplete_threads)
		return NAN;
	return ratio(part, run->thread_prof[k].time_s);
}

/* The mean depth per position of thread k (NAN without the profile). */
static double thread_depth(const bench_run_t *run, double sum)
{
	if (run->profiled == 0 || run->incomplete_threads)
		return NAN;
	return sum / run->profiled;
}

/* Each thread of a run, under "threads": its nodes, profile times, shares and depths. */
static void json_threads(json_writer_t *j, const bench_run_t *r)
{
	json_begin_array(j, "threads");
	for (int k = 0; !r->incomplete_threads && k < r->threads; k++) {
		const bench_thread_t *t = &r->thread_prof[k];
		bool p = r->profiled > 0;
		json_begin_object(j, NULL);
		json_int(j, "thread", k);
		json_uint(j, "nodes", r->thread_nodes[k]);
		json_double(j, "time_s", p ? t->time_s : NAN);
		json_double(j, "search_s", p ? t->search_s : NAN);
		json_double(j, "idle_s", p ? t->idle_s : NAN);
		json_double(j, "split_wait_s", p ? t->split_wait_s : NAN);
		json_double(j, "lock_s", p ? t->lock_s : NAN);
		json_double(j, "share_search", thread_share(r, k, t->search_s));
		json_double(j, "share_idle", thread_share(r, k, t->idle_s));
		json_double(j, "share_split_wait", thread_share(r, k, t->split_wait_s));
		json_double(j, "share_lock_spin", thread_share(r, k, t->lock_s));
		json_double(j, "depth_reached_mean", thread_depth(r, t->depth_reached));
		json_double(j, "depth_completed_mean", thread_depth(r, t->depth_completed));
		json_end(j);
	}
	json_end(j);
}

static void json_config(json_writer_t *j, const cutoff_config_t *c)
{
	json_begin_object(j, "engine");
	json_string(j, "algo", cli_algo_names[c->algo]);
	json_uint(j, "tt_mb", c->tt_mb);
	json_uint(j, "ordering", c->ordering);
	json_uint(j, "pruning", c->pruning);
	json_uint(j, "extensions", c->extensions);
	json_bool(j, "tt_cutoffs", c->tt_cutoffs);
	json_int(j, "aspiration", c->aspiration);
	json_string(j, "placement", cli_placement_names[c->placement]);
	cli_json_driver_options(j, "driver_options", c);
	json_bool(j, "profile_tt_writers", c->profile_tt_writers);
	json_end(j);
}

bool bench_write_json(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	char build[256];
	build_text(build, sizeof(build));
	json_writer_t j;
	json_init(&j, f);
	json_begin_object(&j, NULL);
	json_string(&j, "date", b->date);
	json_begin_object(&j, "machine");
	json_string(&j, "cpu", b->cpu_model);
	json_int(&j, "packages", b->packages);
	json_int(&j, "numa_nodes", b->numa);
	json_int(&j, "cores", b->cores);
	json_int(&j, "ranks", b->ranks); /* the cluster's rows: mpirun -np ranks */
	json_int(&j, "pus", b->pus);
	json_double(&j, "load_before", b->load_before);
	json_double(&j, "load_after", b->load_after);
	json_begin_array(&j, "ceiling");
	for (int c = 0; c < b->ncounts; c++) {
		double med, lo, hi;
		if (!bench_ceiling(b, c, &med, &lo, &hi))
			continue;
		json_begin_object(&j, NULL);
		json_int(&j, "threads", b->counts[c]);
		json_double(&j, "median", med);
		json_double(&j, "min", lo);
		json_double(&j, "max", hi);
		json_begin_array(&j, "per_repeat");
		for (int r = 0; r < b->repeat; r++)
			json_double(&j, NULL, b->ceiling[c * b->repeat + r]);
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
	bench_ceiling_json(b, &j);
	json_end(&j);
	json_string(&j, "build", build);
	json_bool(&j, "profiled", b->profiled);
	json_string(&j, "note", b->note);
	json_string(&j, "simulation", b->sim ? b->sim->model : NULL);
	json_begin_object(&j, "settings");
	json_begin_array(&j, "threads");
	for (int i = 0; i < b->ncounts; i++)
		json_int(&j, NULL, b->counts[i]);
	json_end(&j);
	json_begin_array(&j, "drivers");
	for (int d = 0; d < cutoff_driver_count(); d++)
		if (b->drivers[d])
			json_string(&j, NULL, bench_engine_name(false, d));
	json_end(&j);
	json_string(&j, "baseline", bench_engine_name(false, b->base));
	json_int(&j, "repeat", b->repeat);
	json_int(&j, "quality_ms", b->quality_ms);
	json_bool(&j, "profile_tt_writers", b->tt_writers);
	json_int(&j, "hog", b->hog);
	json_string(&j, "stockfish", b->stockfish);
	json_string(&j, "stockfish_name", b->stockfish ? b->stockfish_name : NULL);
	json_end(&j);
	json_double(&j, "wall_s", b->wall_s);
	json_begin_array(&j, "workloads");
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++) {
		const bench_workload_t *w = &b->work[wk];
		if (!b->workloads[wk])
			continue;
		json_begin_object(&j, NULL);
		json_string(&j, "name", bench_workload_names[wk]);
		json_string(&j, "source", w->source);
		json_string(&j, "settings", w->settings);
		json_config(&j, &w->cfg);
		json_double(&j, "tt_probes_per_node", w->probes_per_node);
		json_double(&j, "tt_stores_per_node", w->stores_per_node);
		json_double(&j, "node_ns", w->node_ns);
		json_double(&j, "share_reads", w->share_reads);
		json_double(&j, "share_writes", w->share_writes);
		json_begin_array(&j, "positions");
		for (int i = 0; i < w->nitems; i++) {
			const bench_item_t *it = &w->items[i];
			json_begin_object(&j, NULL);
			json_string(&j, "id", it->label);
			json_string(&j, "position", it->text);
			json_int(&j, "depth", it->depth);
			json_double(&j, "branching", it->branching);
			if (wk == BENCH_CONNECT4)
				json_int(&j, "score", it->score);
			if (wk == BENCH_CHESS) {
				json_string(&j, "ref_move", it->ref_move[0] ? it->ref_move : NULL);
				json_int(&j, "ref_depth", it->ref_depth);
				json_int(&j, "sf_depth", it->sf_depth);
			}
			json_end(&j);
		}
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
	json_begin_array(&j, "runs");
	for (int i = 0; i < b->nruns; i++) {
		const bench_run_t *r = &b->runs[i];
		const bench_workload_t *w = &b->work[r->workload];
		json_begin_object(&j, NULL);
		json_string(&j, "workload", bench_workload_names[r->workload]);
		json_string(&j, "driver", bench_engine_name(r->stockfish, r->driver));
		json_int(&j, "threads", r->threads);
		json_int(&j, "repeat", r->repeat);
		json_double(&j, "time_s", r->time_s);
		json_uint(&j, "nodes", r->counters.nodes);
		json_double(&j, "nps", ratio((double)r->counters.nodes, r->time_s));
		if (!r->stockfish)
			cli_json_counters(&j, "counters", &r->counters);
		json_begin_array(&j, "thread_nodes");
		for (int k = 0; !r->incomplete_threads && k < r->threads; k++)
			json_uint(&j, NULL, r->thread_nodes[k]);
		json_end(&j);
		if (!r->stockfish)
			json_threads(&j, r);
		if (r->nranks > 0) {
			json_begin_array(&j, "ranks");
			for (int k = 0; k < r->nranks; k++) {
				const bench_rank_t *p = &r->rank_prof[k];
				json_begin_object(&j, NULL);
				json_int(&j, "rank", k);
				json_double(&j, "nodes", p->nodes);
				json_double(&j, "time_s", p->time_s);
				json_double(&j, "comm_s", p->comm_s);
				json_double(&j, "sent_entries", p->sent_entries);
				json_double(&j, "received_entries", p->received_entries);
				json_double(&j, "stored_entries", p->stored_entries);
				json_double(&j, "sent_bytes", p->sent_bytes);
				json_double(&j, "tt_hits_shared", p->tt_hits_shared);
				json_end(&j);
			}
			json_end(&j);
		}
		json_begin_array(&j, "positions");
		for (int k = 0; k < w->nitems; k++) {
			json_begin_object(&j, NULL);
			json_uint(&j, "nodes", r->item_nodes[k]);
			json_double(&j, "time_s", r->item_time[k]);
			json_int(&j, "depth", r->item_depth[k]);
			json_string(&j, "move", r->item_move[k]);
			if (r->stockfish)
				json_null(&j, "value"); /* in its own units: not read */
			else
				json_int(&j, "value", r->item_value[k]);
			json_end(&j);
		}
		json_end(&j);
		if (!r->stockfish) {
			json_begin_array(&j, "iterations");
			for (int d = 1; d < CUTOFF_MAX_PLY; d++) {
				if (r->it_items[d] == 0)
					continue;
				json_begin_object(&j, NULL);
				json_int(&j, "depth", d);
				json_int(&j, "positions", r->it_items[d]);
				json_uint(&j, "nodes", r->it_nodes[d]);
				json_uint(&j, "leaves", r->it_leaves[d]);
				json_end(&j);
			}
			json_end(&j);
		}
		json_double(&j, "share_search", r->share_search);
		json_double(&j, "share_idle", r->share_idle);
		json_double(&j, "share_split_wait", r->share_split_wait);
		json_double(&j, "share_lock_spin", r->share_lock_spin);
		if (r->workload == BENCH_CONNECT4)
			json_int(&j, "mismatches", r->mismatches);
		json_end(&j);
	}
	json_end(&j);
	json_begin_array(&j, "rows");
	for (int i = 0; i < b->nrows; i++) {
		const bench_row_t *r = &b->rows[i];
		json_begin_object(&j, NULL);
		json_string(&j, "workload", bench_workload_names[r->workload]);
		json_string(&j, "driver", bench_engine_name(r->stockfish, r->driver));
		json_int(&j, "threads", r->threads);
		json_bool(&j, "oversubscribed", r->oversubscribed);
		json_int(&j, "runs", r->nruns);
		json_double(&j, "time_median_s", r->time_med);
		json_double(&j, "time_min_s", r->time_min);
		json_double(&j, "time_max_s", r->time_max);
		json_double(&j, "nodes_median", r->nodes_med);
		json_double(&j, "nps_median", r->nps_med);
		json_double(&j, "nps_min", r->nps_min);
		json_double(&j, "nps_max", r->nps_max);
		json_double(&j, "speedup", r->speedup);
		json_double(&j, "speedup_own", r->speedup_self);
		json_double(&j, "efficiency", r->efficiency);
		json_double(&j, "nps_scaling", r->nps_scaling);
		json_double(&j, "overhead", r->overhead);
		json_double(&j, "thread_nps_min", r->thr_nps_min);
		json_double(&j, "thread_nps_median", r->thr_nps_med);
		json_double(&j, "thread_nps_max", r->thr_nps_max);
		json_double(&j, "first_move_cutoff_rate", r->fmc_rate);
		json_double(&j, "search_share", r->search_share);
		json_double(&j, "idle_share", r->idle_share);
		json_double(&j, "split_wait_share", r->split_wait_share);
		json_double(&j, "lock_share", r->lock_share);
		json_double(&j, "sync_share", r->sync_share);
		json_double(&j, "cut_first_rate", r->cut_first_rate);
		json_double(&j, "cut_nodes_wrong_rate", r->cut_wrong);
		json_double(&j, "all_nodes_wrong_rate", r->all_wrong);
		json_double(&j, "tt_hits_other_rate", r->tt_other);
		for (int k = 0; k < BENCH_NFIGS; k++)
			json_double(&j, FIGS[k].key, r->fig[k]);
		json_double(&j, "minimal_tree_ratio", r->minimal_ratio);
		json_double(&j, "ceiling", r->ceiling);
		json_string(&j, "ceiling_bound", bench_bound_name(r->ceiling_bound));
		json_double(&j, "speedup_of_ceiling", r->of_ceiling);
		json_double(&j, "sim_parallelism", r->parallelism);
		json_double(&j, "sim_nodes_per_real_s", r->sim_nps);
		json_double(&j, "sim_switches_per_node", r->sim_switches_per_node);
		json_begin_array(&j, "ebf");
		for (int d = r->ebf_from; r->ebf_from && d <= r->ebf_to; d++) {
			json_begin_object(&j, NULL);
			json_int(&j, "depth", d);
			json_double(&j, "ebf", r->ebf[d]);
			json_end(&j);
		}
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
	json_begin_array(&j, "quality");
	for (int i = 0; i < b->nquality; i++) {
		const bench_quality_t *q = &b->quality[i];
		json_begin_object(&j, NULL);
		json_string(&j, "driver", bench_engine_name(false, q->driver));
		json_int(&j, "threads", q->threads);
		json_int(&j, "position", q->item + 1);
		json_int(&j, "depth", q->depth);
		json_string(&j, "move", q->move);
		json_string(&j, "ref_move", b->work[BENCH_CHESS].items[q->item].ref_move);
		json_bool(&j, "agree", q->agree);
		json_uint(&j, "nodes", q->nodes);
		json_end(&j);
	}
	json_end(&j);
	json_string(&j, "plots", b->plot_note);
	json_end(&j);
	bool ok = json_finish(&j) == 0;
	return fclose(f) == 0 && ok;
}

static void csv_num(FILE *f, const char *fm, double v)
{
	if (isnan(v))
		fputs(",n/a", f);
	else {
		fputc(',', f);
		fprintf(f, fm, v);
	}
}

/* A counter in a column, or "n/a" when it is not measured. */
static void csv_count(FILE *f, bool have, uint64_t v)
{
	if (have)
		fprintf(f, ",%" PRIu64, v);
	else
		fputs(",n/a", f);
}

bool bench_write_csv(const bench_t *b, const char *rows_path, const char *runs_path,
                     const char *threads_path)
{
	FILE *f = fopen(rows_path, "w");
	if (!f)
		return false;
	fputs("workload,driver,threads,oversubscribed,runs,time_median_s,time_min_s,time_max_s,"
	      "nodes_median,nps_median,speedup,speedup_own,efficiency,nps_scaling,overhead,"
	      "thread_nps_min,thread_nps_median,thread_nps_max,first_move_cutoff_rate,idle_share,"
	      "sync_share,minimal_tree_ratio,search_share,split_wait_share,lock_share,"
	      "cut_first_rate,cut_nodes_wrong_rate,all_nodes_wrong_rate,tt_hits_other_rate",
	      f);
	for (int k = 0; k < BENCH_NFIGS; k++)
		fprintf(f, ",%s", FIGS[k].key);
	fputs(",ceiling,ceiling_bound,speedup_of_ceiling,hog,sim_parallelism,"
	      "sim_nodes_per_real_s,sim_switches_per_node\n",
	      f);
	for (int i = 0; i < b->nrows; i++) {
		const bench_row_t *r = &b->rows[i];
		fprintf(f, "%s,%s,%d,%d,%d", bench_workload_names[r->workload],
		        bench_engine_name(r->stockfish, r->driver), r->threads, r->oversubscribed,
		        r->nruns);
		csv_num(f, "%.6f", r->time_med);
		csv_num(f, "%.6f", r->time_min);
		csv_num(f, "%.6f", r->time_max);
		csv_num(f, "%.0f", r->nodes_med);
		csv_num(f, "%.0f", r->nps_med);
		csv_num(f, "%.4f", r->speedup);
		csv_num(f, "%.4f", r->speedup_self);
		csv_num(f, "%.4f", r->efficiency);
		csv_num(f, "%.4f", r->nps_scaling);
		csv_num(f, "%.4f", r->overhead);
		csv_num(f, "%.0f", r->thr_nps_min);
		csv_num(f, "%.0f", r->thr_nps_med);
		csv_num(f, "%.0f", r->thr_nps_max);
		csv_num(f, "%.4f", r->fmc_rate);
		csv_num(f, "%.4f", r->idle_share);
		csv_num(f, "%.4f", r->sync_share);
		csv_num(f, "%.3f", r->minimal_ratio);
		csv_num(f, "%.4f", r->search_share);
		csv_num(f, "%.4f", r->split_wait_share);
		csv_num(f, "%.4f", r->lock_share);
		csv_num(f, "%.4f", r->cut_first_rate);
		csv_num(f, "%.4f", r->cut_wrong);
		csv_num(f, "%.4f", r->all_wrong);
		csv_num(f, "%.4f", r->tt_other);
		for (int k = 0; k < BENCH_NFIGS; k++)
			csv_num(f, FIGS[k].csv, r->fig[k]);
		csv_num(f, "%.4f", r->ceiling);
		const char *bound = bench_bound_name(r->ceiling_bound);
		fprintf(f, ",%s", bound ? bound : "n/a");
		csv_num(f, "%.4f", r->of_ceiling);
		fprintf(f, ",%d", b->hog);
		csv_num(f, "%.3f", r->parallelism);
		csv_num(f, "%.0f", r->sim_nps);
		csv_num(f, "%.3f", r->sim_switches_per_node);
		fputc('\n', f);
	}
	bool ok = fclose(f) == 0;
	f = fopen(runs_path, "w");
	if (!f)
		return false;
	/* The profiler's counters after thread_nodes (n/a for Stockfish and without it). */
	fputs("workload,driver,threads,repeat,time_s,nodes,leaves,cutoffs,first_move_cutoffs,"
	      "nps,thread_nodes,share_search,share_idle,share_split_wait,share_lock_spin,"
	      "nodes_pv,nodes_cut,nodes_all,cut_nodes_wrong,all_nodes_wrong,cut_node_cutoffs,"
	      "cut_node_first_cutoffs,tt_hits_other,splits,split_helpers,split_cutoffs,"
	      "split_nodes_lost,split_nodes_after_cut,deferred,deferred_tt,deferred_busy,"
	      "second_passes,busy_collisions\n",
	      f);
	for (int i = 0; i < b->nruns; i++) {
		const bench_run_t *r = &b->runs[i];
		fprintf(f, "%s,%s,%d,%d,%.6f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
		        bench_workload_names[r->workload],
		        bench_engine_name(r->stockfish, r->driver), r->threads, r->repeat,
		        r->time_s, r->counters.nodes, r->counters.leaves, r->counters.cutoffs,
		        r->counters.first_move_cutoffs);
		csv_num(f, "%.0f", ratio((double)r->counters.nodes, r->time_s));
		fputc(',', f);
		for (int k = 0; !r->incomplete_threads && k < r->threads; k++)
			fprintf(f, "%s%" PRIu64, k ? ";" : "", r->thread_nodes[k]);
		if (r->incomplete_threads)
			fputs("n/a", f);
		csv_num(f, "%.4f", r->share_search);
		csv_num(f, "%.4f", r->share_idle);
		csv_num(f, "%.4f", r->share_split_wait);
		csv_num(f, "%.4f", r->share_lock_spin);
		const cutoff_counters_t *c = &r->counters;
		bool have = b->profiled && !r->stockfish;
		csv_count(f, have, c->nodes_pv);
		csv_count(f, have, c->nodes_cut);
		csv_count(f, have, c->nodes_all);
		csv_count(f, have, c->cut_nodes_wrong);
		csv_count(f, have, c->all_nodes_wrong);
		csv_count(f, have, c->cut_node_cutoffs);
		csv_count(f, have, c->cut_node_first_cutoffs);
		/* 0 without the writers array: n/a, not 0. */
		csv_count(f, have && b->tt_writers, c->tt_hits_other);
		csv_count(f, !r->stockfish, c->splits);
		csv_count(f, have, c->split_helpers);
		csv_count(f, have, c->split_cutoffs);
		csv_count(f, have, c->split_nodes_lost);
		csv_count(f, have, c->split_nodes_after_cut);
		csv_count(f, have, c->deferred);
		csv_count(f, have, c->deferred_tt);
		csv_count(f, have, c->deferred_busy);
		csv_count(f, have, c->second_passes);
		csv_count(f, have, c->busy_collisions);
		fputc('\n', f);
	}
	ok = fclose(f) == 0 && ok;

	/* One line per thread of every run of ours. */
	f = fopen(threads_path, "w");
	if (!f)
		return false;
	fputs("workload,driver,threads,repeat,thread,nodes,time_s,search_s,idle_s,split_wait_s,"
	      "lock_s,share_search,share_idle,share_split_wait,share_lock_spin,"
	      "depth_reached_mean,depth_completed_mean\n",
	      f);
	for (int i = 0; i < b->nruns; i++) {
		const bench_run_t *r = &b->runs[i];
		if (r->stockfish || r->incomplete_threads)
			continue;
		for (int k = 0; k < r->threads; k++) {
			const bench_thread_t *t = &r->thread_prof[k];
			bool p = r->profiled > 0;
			fprintf(f, "%s,%s,%d,%d,%d,%" PRIu64, bench_workload_names[r->workload],
			        bench_engine_name(false, r->driver), r->threads, r->repeat, k,
			        r->thread_nodes[k]);
			csv_num(f, "%.6f", p ? t->time_s : NAN);
			csv_num(f, "%.6f", p ? t->search_s : NAN);
			csv_num(f, "%.6f", p ? t->idle_s : NAN);
			csv_num(f, "%.6f", p ? t->split_wait_s : NAN);
			csv_num(f, "%.6f", p ? t->lock_s : NAN);
			csv_num(f, "%.4f", thread_share(r, k, t->search_s));
			csv_num(f, "%.4f", thread_share(r, k, t->idle_s));
			csv_num(f, "%.4f", thread_share(r, k, t->split_wait_s));
			csv_num(f, "%.4f", thread_share(r, k, t->lock_s));
			csv_num(f, "%.2f", thread_depth(r, t->depth_reached));
			csv_num(f, "%.2f", thread_depth(r, t->depth_completed));
			fputc('\n', f);
		}
	}
	return fclose(f) == 0 && ok;
}

bool bench_write_positions_csv(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fputs("workload,driver,threads,repeat,position,id,nodes,time_s,depth,move,value\n", f);
	for (int i = 0; i < b->nruns; i++) {
		const bench_run_t *r = &b->runs[i];
		const bench_workload_t *w = &b->work[r->workload];
		for (int k = 0; k < w->nitems; k++) {
			/* A label comes from a file's "id" field: commas and quotes become blanks. */
			char id[sizeof(w->items[k].label)];
			snprintf(id, sizeof(id), "%s", w->items[k].label);
			for (char *c = id; *c; c++)
				if (*c == ',' || *c == '"' || (unsigned char)*c < ' ')
					*c = ' ';
			fprintf(f, "%s,%s,%d,%d,%d,%s,%" PRIu64 ",%.6f,%d,%s,",
			        bench_workload_names[r->workload],
			        bench_engine_name(r->stockfish, r->driver), r->threads, r->repeat,
			        k + 1, id, r->item_nodes[k], r->item_time[k], r->item_depth[k],
			        r->item_move[k]);
			if (r->stockfish)
				fputs("n/a\n", f);
			else
				fprintf(f, "%" PRId32 "\n", r->item_value[k]);
		}
	}
	return fclose(f) == 0;
}

/* ---------------------------------------------------------------------------------------
 * Plots
 * ------------------------------------------------------------------------------------- */

static bool find_program(const char *name, char *buf, size_t size)
{
	const char *path = getenv("PATH");
	while (path && *path) {
		size_t n = strcspn(path, ":");
		if (n > 0) {
			snprintf(buf, size, "%.*s/%s", (int)n, path, name);
			if (access(buf, X_OK) == 0)
				return true;
		}
		path += n + (path[n] == ':');
	}
	return false;
}

static FILE *open_in(const bench_t *b, const char *name)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", b->out_dir, name);
	return fopen(path, "w");
}

/* The data files and the gnuplot script; false when a file cannot be written. */
static bool write_plot_files(const bench_t *b, const char *ext, const char *term)
{
	int nw = 0;
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
		nw += b->workloads[wk];
	FILE *gp = open_in(b, "plots.gp");
	if (!gp)
		return false;
	fprintf(gp, "# gnuplot script written by cutoff bench; run it in this folder\n");
	fprintf(gp, "set datafile missing 'n/a'\nset key top left\nset grid\n");
	/* speed-up against the ideal line, one panel per workload */
	fprintf(gp, "set terminal %s size %d,420\nset output 'speedup.%s'\n", term, 420 * nw + 60,
	        ext);
	fprintf(gp,
	        "set multiplot layout 1,%d title 'time-to-depth speed-up over the %s "
	        "search at 1 thread (Stockfish: over itself)%s'\n",
	        nw, bench_engine_name(false, b->base), b->sim ? ", virtual threads" : "");
	/* cutoff sim: the published curves beside ours, on logarithmic axes (chess programs
	 * both: Hyatt's DTS in Cray Blitz, Feldmann's YBW in Zugzwang; docs/simulation.md). */
	bool logs = b->sim && b->counts[b->ncounts - 1] > 16;
	if (b->sim) {
		FILE *f = open_in(b, "published.dat");
		if (!f) {
			fclose(gp);
			return false;
		}
		fputs("# threads speed-up: DTS in Cray Blitz (Hyatt 1994)\n"
		      "2 2.0\n4 3.7\n8 6.6\n16 11.1\n\n\n"
		      "# threads speed-up: YBW in Zugzwang (Feldmann 1993)\n16 11\n256 126\n",
		      f);
		fclose(f);
	}
	if (logs)
		fputs("set logscale xy 2\n", gp);
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++) {
		if (!b->workloads[wk])
			continue;
		char name[64];
		snprintf(name, sizeof(name), "speedup-%s.dat", bench_workload_names[wk]);
		FILE *f = open_in(b, name);
		if (!f) {
			fclose(gp);
			return false;
		}
		/* A line for every engine with a row beyond one thread: each driver that ran
		 * there, in the registry's order, then Stockfish. */
		int line_of[BENCH_MAX_DRIVERS + 1], lines = 0;
		for (int e = 0; e <= cutoff_driver_count(); e++) {
			bool sf = e == cutoff_driver_count();
			for (int c = 0; c < b->ncounts; c++)
				if (b->counts[c] > 1 && find_row(b, wk, sf, e, b->counts[c])) {
					line_of[lines++] = e;
					break;
				}
		}
		fputs("# threads", f);
		for (int l = 0; l < lines; l++)
			fprintf(f, " %s",
			        bench_engine_name(line_of[l] == cutoff_driver_count(), line_of[l]));
		fputc('\n', f);
		for (int c = 0; c < b->ncounts; c++) {
			fprintf(f, "%d", b->counts[c]);
			for (int l = 0; l < lines; l++) {
				const bench_row_t *r =
					find_row(b, wk, line_of[l] == cutoff_driver_count(),
				                 line_of[l], b->counts[c]);
				if (r && !isnan(r->speedup))
					fprintf(f, " %.4f", r->speedup);
				else
					fputs(" n/a", f);
			}
			fputc('\n', f);
		}
		fclose(f);
		fputs("set xtics (", gp);
		for (int c = 0; c < b->ncounts; c++)
			fprintf(gp, "%s%d", c ? ", " : "", b->counts[c]);
		fputs(")\n", gp);
		if (logs)
			fprintf(gp,
			        "set title '%s'\nset xlabel 'threads'\nset ylabel 'speed-up'\n"
			        "set xrange [0.8:%g]\nset yrange [0.5:*]\n"
			        "plot x title 'ideal' with lines dashtype 2 lc rgb 'gray'",
			        bench_workload_names[wk], 1.25 * b->counts[b->ncounts - 1]);
		else
			fprintf(gp,
			        "set title '%s'\nset xlabel 'threads'\nset ylabel 'speed-up'\n"
			        "set xrange [0.5:%d.5]\nset yrange [0:*]\n"
			        "plot x title 'ideal' with lines dashtype 2 lc rgb 'gray'",
			        bench_workload_names[wk], b->counts[b->ncounts - 1]);
		for (int l = 0; l < lines; l++)
			fprintf(gp, ", '%s' using 1:%d title '%s' with linespoints lw 2",
			        l ? "" : name, l + 2,
			        bench_engine_name(line_of[l] == cutoff_driver_count(), line_of[l]));
		if (b->sim)
			fputs(", 'published.dat' index 0 using 1:2 title 'DTS, Cray Blitz (chess)' "
			      "with points pt 7 ps 1.5 lc rgb 'black', '' index 1 using 1:2 title "
			      "'YBW, Zugzwang (chess)' with points pt 5 ps 1.5 lc rgb 'dark-red'",
			      gp);
		fputc('\n', gp);
	}
	fprintf(gp, "unset multiplot\nunset xrange\nunset yrange\nset xtics autofreq\n%s",
	        logs ? "unset logscale\n" : "");

	/* per-thread node rate of the run of median time, for every setting */
	fprintf(gp, "set terminal %s size %d,460\nset output 'node-rate-per-thread.%s'\n", term,
	        420 * nw + 60, ext);
	fprintf(gp,
	        "set multiplot layout 1,%d title 'nodes per second of each thread (the run "
	        "of median time)'\n",
	        nw);
	fprintf(gp, "set style fill solid 0.7\nset boxwidth 0.8\nset xtics rotate by -60\n"
	            "set ylabel 'nodes/s'\nunset xlabel\nset yrange [0:*]\n");
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++) {
		if (!b->workloads[wk])
			continue;
		char name[64];
		snprintf(name, sizeof(name), "node-rate-%s.dat", bench_workload_names[wk]);
		FILE *f = open_in(b, name);
		if (!f) {
			fclose(gp);
			return false;
		}
		fprintf(f, "# setting/thread nodes_per_second\n");
		int lines = 0;
		for (int i = 0; i < b->nrows; i++) {
			const bench_row_t *r = &b->rows[i];
			if (r->workload != wk || r->stockfish)
				continue;
			const bench_run_t *run = &b->runs[r->median_run];
			if (run->incomplete_threads)
				continue;
			for (int k = 0; k < run->threads; k++, lines++)
				fprintf(f, "\"%s/%d t%d\" %.0f\n",
				        bench_engine_name(false, r->driver), r->threads, k,
				        ratio((double)run->thread_nodes[k], run->time_s));
		}
		if (lines == 0)
			fprintf(f, "\"none\" 0\n");
		fclose(f);
		fprintf(gp, "set title '%s'\nplot '%s' using 0:2:xtic(1) notitle with boxes\n",
		        bench_workload_names[wk], name);
	}
	fprintf(gp, "unset multiplot\nset xtics norotate\n");

	/* Where each thread's time went, stacked: the run of median time of every driver at the
	 * largest thread count, and the serial search beside them for scale. */
	int top = b->counts[b->ncounts - 1];
	fprintf(gp, "set terminal %s size %d,460\nset output 'time-split.%s'\n", term,
	        420 * nw + 60, ext);
	if (!b->profiled) {
		fprintf(gp,
		        "unset xtics\nunset ytics\nunset border\nunset key\nunset grid\n"
		        "unset title\nunset ylabel\nset xrange [0:1]\nset yrange [0:1]\n"
		        "set label 1 'time split per thread: n/a' at 0.5,0.6 center font ',16'\n"
		        "set label 2 'the library was built without its profiler "
		        "(CUTOFF_PROFILE=OFF)' at 0.5,0.45 center noenhanced\n"
		        "plot 2 notitle\n");
		return fclose(gp) == 0;
	}
	fprintf(gp,
	        "set multiplot layout 1,%d title 'where each thread''s time went, %d thread%s "
	        "(the run of median time; %s at 1 thread for scale)'\n",
	        nw, top, top == 1 ? "" : "s", bench_engine_name(false, b->base));
	fprintf(gp, "set style data histograms\nset style histogram rowstacked\n"
	            "set style fill solid 0.8 border -1\nset boxwidth 0.8\n"
	            "set xtics rotate by -60\nset yrange [0:1]\nunset xlabel\n"
	            "set ylabel 'share of the thread''s time'\nset key below\n");
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++) {
		if (!b->workloads[wk])
			continue;
		char name[64];
		snprintf(name, sizeof(name), "time-split-%s.dat", bench_workload_names[wk]);
		FILE *f = open_in(b, name);
		if (!f) {
			fclose(gp);
			return false;
		}
		fprintf(f,
		        "# driver/threads thread: searching idle split-wait lock-spin (shares of "
		        "the thread's time)\n");
		int lines = 0;
		for (int i = 0; i < b->nrows; i++) {
			const bench_row_t *r = &b->rows[i];
			if (r->workload != wk || r->stockfish ||
			    (r->threads != top && r->driver != b->base))
				continue;
			const bench_run_t *run = &b->runs[r->median_run];
			if (run->profiled == 0 || run->incomplete_threads)
				continue;
			for (int k = 0; k < run->threads; k++, lines++) {
				const bench_thread_t *t = &run->thread_prof[k];
				char v[4][16];
				fprintf(f, "\"%s/%d t%d\" %s %s %s %s\n",
				        bench_engine_name(false, r->driver), r->threads, k,
				        fmt(v[0], 16, "%.4f", thread_share(run, k, t->search_s)),
				        fmt(v[1], 16, "%.4f", thread_share(run, k, t->idle_s)),
				        fmt(v[2], 16, "%.4f",
				            thread_share(run, k, t->split_wait_s)),
				        fmt(v[3], 16, "%.4f", thread_share(run, k, t->lock_s)));
			}
		}
		if (lines == 0)
			fprintf(f, "\"none\" 0 0 0 0\n");
		fclose(f);
		fprintf(gp,
		        "set title '%s'\nplot '%s' using 2:xtic(1) title 'searching' lc rgb "
		        "'#4e79a7', '' using 3 title 'idle' lc rgb '#bab0ac', '' using 4 title "
		        "'split wait' lc rgb '#f28e2b', '' using 5 title 'lock spin' lc rgb "
		        "'#e15759'\n",
		        bench_workload_names[wk], name);
	}
	fprintf(gp, "unset multiplot\n");
	return fclose(gp) == 0;
}

void bench_plots(bench_t *b)
{
	static const char *const ext[] = { NULL, "svg", "png" };
	static const char *const term[] = { NULL, "svg dynamic enhanced font 'sans,11'",
		                            "png font 'sans,10'" };
	char gnuplot[1024];
	if (b->plot == 0) {
		snprintf(b->plot_note, sizeof(b->plot_note), "none (--plot none)");
		return;
	}
	const char *env = getenv("GNUPLOT");
	if (env && *env)
		snprintf(gnuplot, sizeof(gnuplot), "%s", env);
	bool found = env && *env ? access(gnuplot, X_OK) == 0
	                         : find_program("gnuplot", gnuplot, sizeof(gnuplot));
	if (!write_plot_files(b, ext[b->plot], term[b->plot])) {
		snprintf(b->plot_note, sizeof(b->plot_note), "cannot write the plot files: %s",
		         strerror(errno));
		return;
	}
	if (!found) {
		snprintf(b->plot_note, sizeof(b->plot_note),
		         "not drawn: gnuplot was not found (apt-get install gnuplot-nox); the data "
		         "and plots.gp are in the folder: run 'gnuplot plots.gp' there");
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		if (chdir(b->out_dir) == 0) {
			FILE *log = freopen("plots.log", "w", stdout);
			if (log)
				dup2(fileno(stdout), 2);
			execl(gnuplot, gnuplot, "plots.gp", (char *)NULL);
		}
		_exit(127);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		snprintf(b->plot_note, sizeof(b->plot_note),
		         "gnuplot (%.150s) failed: see plots.log in the folder", gnuplot);
	else
		snprintf(b->plot_note, sizeof(b->plot_note),
		         "speedup.%s, node-rate-per-thread.%s, time-split.%s (gnuplot %.150s)",
		         ext[b->plot], ext[b->plot], ext[b->plot], gnuplot);
}
