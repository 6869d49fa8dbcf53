/* SPDX-License-Identifier: MIT */
/*
 * rows.c — the rows of `cutoff bench`: each setting's runs over its repeats made into one
 * row of medians, and the figures derived against the baseline.
 *
 * Every figure of a row is the median over its repeats; the time also has its spread
 * (min..max). Speed-up is T(baseline: the default driver, 1 thread) / T(row), both medians
 * over the same positions; "own T1" is T(the row's driver, 1 thread) / T(row). For
 * Stockfish every ratio is against Stockfish at one thread. A figure that does not apply,
 * or that the library cannot give (the profiler's, when it was built without it), is NAN
 * and reads "n/a" (null in JSON), never 0.
 *
 * The profiler's figures: the time split is each part (searching, idle, split wait, lock
 * spin) summed over threads and positions, over the threads' time summed likewise, so
 * that the four shares of a run add up to 1. Node types and the drivers' own figures are
 * ratios of the run's summed counters (cutoff.h says what each counts).
 *
 * Nothing here names a driver: rows are made for every driver of the library's registry
 * that the sweep ran, and a driver's own figures (FIGS below) show on the rows whose runs
 * counted them.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lab/ceiling.h"
#include "lab/common.h"
#include "lab/rows.h"

static double minmax(const double *v, int n, bool max)
{
	double r = NAN;
	for (int i = 0; i < n; i++) {
		if (!isnan(v[i]) && (isnan(r) || (max ? v[i] > r : v[i] < r)))
			r = v[i];
	}
	return r;
}

static bool same_engine(bool stockfish_a, int driver_a, bool stockfish_b, int driver_b)
{
	return stockfish_a == stockfish_b && (stockfish_a || driver_a == driver_b);
}

bench_row_t *bench_find_row(const bench_results_t *res, int workload, bool stockfish, int driver,
                            int threads)
{
	for (int i = 0; i < res->nrows; i++) {
		bench_row_t *r = &res->rows[i];
		if (r->workload == workload &&
		    same_engine(r->stockfish, r->driver, stockfish, driver) &&
		    r->threads == threads)
			return r;
	}
	return NULL;
}

/*
 * How the drivers' own figures (types.h, BENCH_FIG_*) are counted: a counter of the
 * library's list (cutoff_counter_info), by name, alone (a count summed over positions) or
 * over another. A row's figure is NAN unless one of its runs counted `shown_by`: each
 * driver's figures show on the rows of the drivers that count them, and a profiler's
 * counter only with the profiler. Their names, units and formats are in fields.c; every
 * counter, these included, is also in each run's "counters" and runs.csv, by the list.
 */
typedef struct driver_fig {
	const char *count;    /* the counter */
	const char *per;      /* the divisor, or NULL */
	const char *shown_by; /* shown where a run counted this */
} driver_fig_t;

static const driver_fig_t FIGS[BENCH_NFIGS] = {
	[BENCH_FIG_SPLITS] = { "splits", NULL, "splits" },
	[BENCH_FIG_HELPERS] = { "split_helpers", "splits", "splits" },
	[BENCH_FIG_SPLIT_CUT] = { "split_cutoffs", "splits", "splits" },
	[BENCH_FIG_LOST] = { "split_nodes_lost", "nodes", "splits" },
	[BENCH_FIG_AFTER_CUT] = { "split_nodes_after_cut", "nodes", "splits" },
	[BENCH_FIG_DEFERRED] = { "deferred", NULL, "deferred" },
	[BENCH_FIG_DEFERRED_TT] = { "deferred_tt", "deferred", "deferred" },
	[BENCH_FIG_DEFERRED_BUSY] = { "deferred_busy", "deferred", "deferred" },
	[BENCH_FIG_SECOND_PASSES] = { "second_passes", NULL, "deferred" },
	[BENCH_FIG_BUSY_COLLISIONS] = { "busy_collisions", NULL, "busy_collisions" },
	[BENCH_FIG_LAZYSMP_IDLE] = { "lazysmp_idle", NULL, "lazysmp_idle" },
};

/* The counter `name` of c: NAN when the library has none of that name, or counts it only
 * with the profiler and this run had none. */
static double counter_named(const bench_t *b, const cutoff_counters_t *c, const char *name)
{
	int i = cutoff_counter_find(name);
	if (i < 0 || (cutoff_counter_info(i)->profiler && !b->mach.profiled))
		return NAN;
	return (double)cutoff_counter_value(c, i);
}

/* The figure `f` of one run's counters (NAN when it cannot be had). */
static double fig_of(const bench_t *b, const driver_fig_t *f, const cutoff_counters_t *c)
{
	double v = counter_named(b, c, f->count);
	return f->per ? bench_ratio(v, counter_named(b, c, f->per)) : v;
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
	out[1] = bench_median(v, run->threads);
}

/* The per-run values that a row's medians are taken over: buf[V][i] of the row's run i. */
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
enum {
	MAX_ROW_RUNS = 256 /* the runs of a row that are read */
};

/* One run's values into column n of buf. Counter-based figures of the profiler: not for
 * Stockfish nor without the profiler; tt other only with the writers array; the drivers'
 * own where a run counted them (seen[]). */
static void collect_run(const bench_t *b, const bench_row_t *row, const bench_run_t *run,
                        double (*buf)[MAX_ROW_RUNS], int n, bool *seen)
{
	const bool prof = b->mach.profiled && !row->stockfish;
	const cutoff_counters_t *c = &run->counters;
	double tr[3];
	thread_rates(run, tr);
	buf[T][n] = run->time_s;
	buf[NODES][n] = (double)c->nodes;
	buf[NPS][n] = bench_ratio((double)c->nodes, run->time_s);
	buf[TMIN][n] = tr[0];
	buf[TMED][n] = tr[1];
	buf[TMAX][n] = tr[2];
	buf[FMC][n] = row->stockfish
	                      ? NAN
	                      : bench_ratio((double)c->first_move_cutoffs, (double)c->cutoffs);
	buf[SEARCH][n] = run->share_search;
	buf[IDLE][n] = run->share_idle;
	buf[WAIT][n] = run->share_split_wait;
	buf[LOCK][n] = run->share_lock_spin;
	buf[SYNC][n] = run->share_split_wait + run->share_lock_spin; /* NAN stays NAN */
	buf[CUT1][n] =
		prof ? bench_ratio((double)c->cut_node_first_cutoffs, (double)c->cut_node_cutoffs)
		     : NAN;
	buf[CUTW][n] = prof ? bench_ratio((double)c->cut_nodes_wrong, (double)c->nodes_cut) : NAN;
	buf[ALLW][n] = prof ? bench_ratio((double)c->all_nodes_wrong, (double)c->nodes_all) : NAN;
	buf[TTO][n] = prof && b->set.tt_writers
	                      ? bench_ratio((double)c->tt_hits_other, (double)c->tt_hits)
	                      : NAN;
	for (int k = 0; k < BENCH_NFIGS; k++) {
		buf[FIG0 + k][n] = row->stockfish ? NAN : fig_of(b, &FIGS[k], c);
		seen[k] |= !row->stockfish && counter_named(b, c, FIGS[k].shown_by) > 0;
	}
	/* The iterations' counters are thread 0's alone under the parallel drivers. */
	buf[MINR][n] = row->driver == b->set.base || row->threads == 1
	                       ? bench_ratio(run->last_leaves, run->minimal)
	                       : NAN;
}

/* The row's runs (at most MAX_ROW_RUNS): their values into buf, their indices in b->res.runs
 * into idx; their mismatches are added to the row's. Returns their number. */
static int collect_runs(const bench_t *b, bench_row_t *row, double (*buf)[MAX_ROW_RUNS], int *idx,
                        bool *seen)
{
	int n = 0;
	for (int i = 0; i < b->res.nruns && n < MAX_ROW_RUNS; i++) {
		const bench_run_t *run = &b->res.runs[i];
		if (run->workload != row->workload ||
		    !same_engine(run->stockfish, run->driver, row->stockfish, row->driver) ||
		    run->threads != row->threads)
			continue;
		idx[n] = i;
		collect_run(b, row, run, buf, n, seen);
		row->mismatches += run->mismatches;
		n++;
	}
	return n;
}

/* The run of median time, for the per-thread plot and the simulation's figures. */
static int median_run(const double *t, const int *idx, int n)
{
	double best = INFINITY, tcopy[MAX_ROW_RUNS];
	memcpy(tcopy, t, (size_t)n * sizeof(double));
	double med_t = bench_median(tcopy, n);
	int at = 0;
	for (int i = 0; i < n; i++) {
		if (fabs(t[i] - med_t) < best) {
			best = fabs(t[i] - med_t);
			at = idx[i];
		}
	}
	return at;
}

/* The row's figures: medians (and the spreads) over its n runs' values. Sorts buf. */
static void set_medians(const bench_t *b, bench_row_t *row, double (*buf)[MAX_ROW_RUNS], int n,
                        const bool *seen)
{
	row->time_min = minmax(buf[T], n, false);
	row->time_max = minmax(buf[T], n, true);
	row->time_med = bench_median(buf[T], n);
	row->nps_min = minmax(buf[NPS], n, false);
	row->nps_max = minmax(buf[NPS], n, true);
	row->nps_med = bench_median(buf[NPS], n);
	row->nodes_med = bench_median(buf[NODES], n);
	row->thr_nps_min = bench_median(buf[TMIN], n);
	row->thr_nps_med = bench_median(buf[TMED], n);
	row->thr_nps_max = bench_median(buf[TMAX], n);
	row->fmc_rate = bench_median(buf[FMC], n);
	row->search_share = bench_median(buf[SEARCH], n);
	row->idle_share = bench_median(buf[IDLE], n);
	row->split_wait_share = bench_median(buf[WAIT], n);
	row->lock_share = bench_median(buf[LOCK], n);
	row->sync_share = bench_median(buf[SYNC], n);
	row->cut_first_rate = bench_median(buf[CUT1], n);
	row->cut_wrong = bench_median(buf[CUTW], n);
	row->all_wrong = bench_median(buf[ALLW], n);
	row->tt_other = bench_median(buf[TTO], n);
	for (int k = 0; k < BENCH_NFIGS; k++)
		row->fig[k] = seen[k] ? bench_median(buf[FIG0 + k], n) : NAN;
	row->minimal_ratio = bench_median(buf[MINR], n);
	const bench_run_t *mr = &b->res.runs[row->median_run];
	double nodes = (double)mr->counters.nodes;
	row->parallelism = bench_ratio(mr->sim_work_s, mr->sim_span_s);
	row->sim_nps = bench_ratio(nodes, mr->sim_real_s);
	row->sim_switches_per_node = bench_ratio(mr->sim_switches, nodes);
}

/* Effective branching factor per iteration, over the depths every position completed in
 * the row's runs idx[0 .. n). */
static void set_ebf(const bench_t *b, bench_row_t *row, const int *idx, int n)
{
	const bench_workload_t *w = &b->res.work[row->workload];
	row->ebf_from = row->ebf_to = 0;
	for (int d = 2; d < CUTOFF_MAX_PLY && !row->stockfish; d++) {
		double e[MAX_ROW_RUNS];
		int m = 0;
		for (int i = 0; i < n; i++) {
			const bench_run_t *run = &b->res.runs[idx[i]];
			if (run->it_items[d] == w->nitems && run->it_items[d - 1] == w->nitems)
				e[m++] = bench_ratio((double)run->it_nodes[d],
				                     (double)run->it_nodes[d - 1]);
		}
		if (m == 0)
			continue;
		if (!row->ebf_from)
			row->ebf_from = d;
		row->ebf_to = d;
		row->ebf[d] = bench_median(e, m);
	}
}

static void derive_row(bench_t *b, bench_row_t *row)
{
	bool seen[BENCH_NFIGS] = { false };
	double buf[NFIG][MAX_ROW_RUNS];
	int idx[MAX_ROW_RUNS];
	int n = collect_runs(b, row, buf, idx, seen);
	row->nruns = n;
	if (n == 0)
		return;
	row->median_run = median_run(buf[T], idx, n);
	set_medians(b, row, buf, n, seen);
	set_ebf(b, row, idx, n);
}

void bench_derive(bench_t *b)
{
	free(b->res.rows);
	b->res.nrows = 0;
	/* Every driver of the registry, then Stockfish, then the cluster at each rank count. */
	int engines = cutoff_driver_count() + 1 + b->mpi.nrank_counts;
	b->res.rows =
		calloc((size_t)(BENCH_NWORKLOADS * engines * b->set.ncounts), sizeof(*b->res.rows));
	if (!b->res.rows)
		return;
	for (int w = 0; w < BENCH_NWORKLOADS; w++) {
		for (int e = 0; e < engines; e++) {
			for (int c = 0; c < b->set.ncounts; c++) {
				bench_row_t *row = &b->res.rows[b->res.nrows];
				memset(row, 0, sizeof(*row));
				row->workload = w;
				int k = e - cutoff_driver_count() - 1; /* >= 0: a cluster row */
				row->stockfish = e == cutoff_driver_count();
				row->driver = row->stockfish ? 0
				              : k >= 0 ? BENCH_CLUSTER_ROW + b->mpi.rank_counts[k]
				                       : e;
				row->threads = b->set.counts[c];
				int procs = k >= 0 ? b->mpi.rank_counts[k] : 1;
				row->oversubscribed =
					!b->sim && b->set.counts[c] * procs >
							   b->mach.cores; /* virtual: a core each */
				derive_row(b, row);
				if (row->nruns > 0)
					b->res.nrows++;
			}
		}
	}
	for (int i = 0; i < b->res.nrows; i++) {
		bench_row_t *row = &b->res.rows[i];
		const bench_row_t *base =
			bench_find_row(&b->res, row->workload, row->stockfish, b->set.base, 1);
		const bench_row_t *own =
			bench_find_row(&b->res, row->workload, row->stockfish, row->driver, 1);
		row->speedup = base ? bench_ratio(base->time_med, row->time_med) : NAN;
		row->speedup_self = own ? bench_ratio(own->time_med, row->time_med) : NAN;
		row->efficiency = row->speedup / row->threads;
		row->nps_scaling = base ? bench_ratio(row->nps_med, base->nps_med) : NAN;
		row->overhead = base ? bench_ratio(row->nodes_med, base->nodes_med) : NAN;
	}
	bench_ceiling_derive(b);
}
