/* SPDX-License-Identifier: MIT */
/*
 * text.c — the report of `cutoff bench` for a reader: report.txt, also printed. The
 * header (the machine, its ceilings, the build, the settings), then each workload's table,
 * with the ceiling that applies, the simulation's figures under `cutoff sim`, the
 * profiler's table, the effective branching factors and the minimal tree; the cluster's
 * ranks, the quality at equal time and a closing table "in short". The rows' columns are
 * those of fields.c's list; this file writes what is not a row's figure.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "kit/args.h"
#include "kit/report.h"
#include "lab/ceiling.h"
#include "lab/common.h"
#include "lab/fields.h"
#include "lab/probe.h"
#include "lab/rows.h"
#include "lab/text.h"

/* "1,2,4": v[0 .. n) comma-separated into buf (cut at its size). */
static const char *join_ints(char *buf, size_t size, const int *v, int n)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%d", i ? "," : "", v[i]);
	return buf;
}

/* The report's title and the machine: its CPU, load, ceilings, the build and the note. */
static void print_machine(const bench_t *b, FILE *out)
{
	char build[256];
	bench_build_text(build, sizeof(build));
	fprintf(out, "cutoff %s — %s\n\n", b->cmd, b->mach.date);
	if (b->sim)
		cli_field(out, "simulation",
		          "%s; every time below is virtual (the cost model's), but the sweep's "
		          "and the simulator's real seconds",
		          b->sim->model);
	cli_field(out, "machine", "%s; %d package%s, %d NUMA node%s, %d cores, %d PUs (hwloc)",
	          b->mach.cpu_model, b->mach.packages, b->mach.packages == 1 ? "" : "s",
	          b->mach.numa, b->mach.numa == 1 ? "" : "s", b->mach.cores, b->mach.pus);
	cli_field(out, "load average", "%.2f before, %.2f after (1 minute)", b->mach.load_before,
	          b->mach.load_after);
	bench_ceiling_print(b, out);
	cli_field(out, "build", "%s", build);
	if (b->set.note)
		cli_field(out, "note", "%s", b->set.note);
}

/* What the sweep was asked: thread counts, drivers, the cluster's ranks, repeats, the
 * drivers' settings. */
static void print_settings(const bench_t *b, FILE *out)
{
	char counts[256], drivers[256] = "", settings[512];
	cli_field(out, "threads", "%s%s",
	          join_ints(counts, sizeof(counts), b->set.counts, b->set.ncounts),
	          !b->sim && b->set.counts[b->set.ncounts - 1] > b->mach.cores
	                  ? " (more than the cores: flagged *)"
	                  : "");
	size_t used = 0;
	for (int d = 0; d < cutoff_driver_count() && used < sizeof(drivers); d++)
		if (b->set.drivers[d])
			used += (size_t)snprintf(drivers + used, sizeof(drivers) - used, "%s%s",
			                         used ? " " : "", bench_engine_name(false, d));
	cli_field(out, "drivers", "%s (%s at 1 thread only: the baseline)", drivers,
	          bench_engine_name(false, b->set.base));
	if (b->set.drivers[BENCH_CLUSTER]) {
		char list[128];
		join_ints(list, sizeof(list), b->mpi.rank_counts, b->mpi.nrank_counts);
		if (b->sim)
			cli_field(out, "cluster",
			          "ranks %s, simulated (cluster/transport_sim.h: each rank its own "
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
			          list, b->mpi.ranks);
	}
	cli_field(out, "repeats", "%d, interleaved (medians, time spread min..max)", b->set.repeat);
	used = (size_t)snprintf(settings, sizeof(settings), "placement %s",
	                        cli_placement_names[b->set.cfg.placement]);
	for (int d = 0; d < cutoff_driver_count() && used < sizeof(settings); d++) {
		char text[256];
		if (b->set.drivers[d] &&
		    *cli_driver_options_text(&b->set.cfg, (cutoff_driver_t)d, text, sizeof(text)))
			used += (size_t)snprintf(settings + used, sizeof(settings) - used,
			                         "; %s: %s", bench_engine_name(false, d), text);
	}
	cli_field(out, "parallel settings", "%s", settings);
}

/* What ran beside the sweep and how: Stockfish, the profiler, the hog; the sweep's time. */
static void print_conditions(const bench_t *b, FILE *out)
{
	if (b->set.stockfish)
		cli_field(out, "stockfish", "%s (%s): same positions, thread counts, table size",
		          b->mach.stockfish_name[0] ? b->mach.stockfish_name : "?",
		          b->set.stockfish);
	else
		cli_field(out, "stockfish", "not run (not found, or --stockfish off)");
	if (!b->mach.profiled)
		cli_field(out, "profiler",
		          "n/a: the library was built without it (CUTOFF_PROFILE=OFF), so the "
		          "time split, node types, split points and depths read n/a%s",
		          b->set.tt_writers ? " (and --profile-tt-writers does nothing)" : "");
	else if (b->set.tt_writers)
		cli_field(out, "profiler",
		          "on, with the table writers (--profile-tt-writers): tt other measured, "
		          "at a cost of 6-10 %% of the node rate: times not comparable with a "
		          "sweep without it");
	else
		cli_field(out, "profiler",
		          "on; table writers off (tt other n/a: --profile-tt-writers measures "
		          "it, at a cost of 6-10 %% of the node rate)");
	if (b->set.hog > 0)
		cli_field(out, "hog",
		          "%d process%s spinning beside the sweep (another program's load): the "
		          "ceilings and every row were measured with %s running",
		          b->set.hog, b->set.hog == 1 ? "" : "es", b->set.hog == 1 ? "it" : "them");
	else
		cli_field(out, "hog", "none (--hog N runs N spinning processes beside the sweep)");
	if (b->sim)
		cli_field(
			out, "time",
			"%.1f s for the whole sweep, on %d process%s (--jobs; the virtual figures "
			"are the same on any number)",
			b->res.wall_s, b->res.jobs, b->res.jobs == 1 ? "" : "es");
	else
		cli_field(out, "time", "%.1f s for the whole sweep", b->res.wall_s);
}

/* What each column of the tables means. */
static void print_legend(const bench_t *b, FILE *out)
{
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
	        bench_engine_name(false, b->set.base), bench_engine_name(false, b->set.base),
	        bench_engine_name(false, b->set.base));
	fputs("The drivers' own figures, on the rows whose runs counted them (n/a elsewhere):\n",
	      out);
	bench_row_legend(out);
}

static void print_header(const bench_t *b, FILE *out)
{
	print_machine(b, out);
	print_settings(b, out);
	print_conditions(b, out);
	print_legend(b, out);
}

/* True when some thread but the first of the row's run of median time reached a depth of
 * its own: the driver has every thread iterate, whose depths are then worth a table. */
static bool helpers_iterate(const bench_t *b, const bench_row_t *r)
{
	const bench_run_t *run = &b->res.runs[r->median_run];
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
	if (!b->mach.profiled) {
		fputs("\n   profile: n/a (the library was built with CUTOFF_PROFILE=OFF)\n", out);
		return;
	}
	fprintf(out, "\n   profile%*s", 7, "");
	bench_row_text_head(b, BENCH_TABLE_PROFILE, wk, out);
	fputc('\n', out);
	for (int i = 0; i < b->res.nrows; i++) {
		const bench_row_t *r = &b->res.rows[i];
		if (r->workload != wk || r->stockfish)
			continue;
		fprintf(out, "   %-9s %3d%s", bench_engine_name(false, r->driver), r->threads,
		        r->oversubscribed ? "*" : " ");
		bench_row_text(b, r, BENCH_TABLE_PROFILE, out);
		fputc('\n', out);
	}
	bool any = false;
	for (int i = 0; i < b->res.nrows; i++) {
		const bench_row_t *r = &b->res.rows[i];
		if (r->workload != wk || !helpers_iterate(b, r))
			continue;
		const bench_run_t *run = &b->res.runs[r->median_run];
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
	for (int i = 0; i < b->res.nrows; i++) {
		const bench_row_t *r = &b->res.rows[i];
		if (r->workload != wk || r->stockfish)
			continue;
		const bench_run_t *run = &b->res.runs[r->median_run];
		char t[4][32];
		fprintf(out, "   %-9s %3d  %10s %12s %12s %14s  (%.2f switches a node)\n",
		        bench_engine_name(false, r->driver), r->threads,
		        bench_cell(t[0], 32, "%.1f", r->parallelism),
		        bench_cell(t[1], 32, "%.4f", run->sim_work_s),
		        bench_cell(t[2], 32, "%.4f", run->sim_span_s),
		        bench_si(t[3], 32, r->sim_nps), r->sim_switches_per_node);
	}
}

static void print_workload(const bench_t *b, int wk, FILE *out)
{
	const bench_workload_t *w = &b->res.work[wk];
	fprintf(out, "\n== %s: %d position%s — %s\n", bench_workload_names[wk], w->nitems,
	        w->nitems == 1 ? "" : "s", w->source);
	fprintf(out, "   %s; table %zu MiB; time to depth", w->settings, w->cfg.tt_mb);
	if (wk == BENCH_CHESS && b->set.stockfish) {
		fputs("; stockfish depths", out);
		for (int i = 0; i < w->nitems; i++)
			fprintf(out, "%s%d", i ? "," : " ", w->items[i].sf_depth);
		fputs(" (ours", out);
		for (int i = 0; i < w->nitems; i++)
			fprintf(out, "%s%d", i ? "," : " ", w->items[i].depth);
		fputs(")", out);
	}
	fputs("\n\n", out);
	fprintf(out, "%-10s %4s", "driver", "thr");
	bench_row_text_head(b, BENCH_TABLE_MAIN, wk, out);
	fputc('\n', out);
	for (int i = 0; i < b->res.nrows; i++) {
		const bench_row_t *r = &b->res.rows[i];
		if (r->workload != wk)
			continue;
		fprintf(out, "%-10s %3d%s", bench_engine_name(r->stockfish, r->driver), r->threads,
		        r->oversubscribed ? "*" : " ");
		bench_row_text(b, r, BENCH_TABLE_MAIN, out);
		fputc('\n', out);
	}
	bench_ceiling_print_workload(b, wk, out);
	if (b->sim)
		print_sim(b, wk, out);
	print_profile(b, wk, out);
	/* Effective branching factor and the minimal tree. */
	bool any = false;
	for (int i = 0; i < b->res.nrows; i++) {
		const bench_row_t *r = &b->res.rows[i];
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
	const bench_row_t *s1 = bench_find_row(&b->res, wk, false, b->set.base, 1);
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
		for (int i = 0; i < b->res.nrows; i++)
			if (b->res.rows[i].workload == wk)
				mm += b->res.rows[i].mismatches;
		fprintf(out, "   check: %d solve%s differ%s from the test set's win/draw/loss\n",
		        mm, mm == 1 ? "" : "s", mm == 1 ? "s" : "");
	}
}

/* --quality-suite's table: a row per driver and thread count. */
static void print_quality_suite(const bench_t *b, FILE *out)
{
	fprintf(out,
	        "\n== quality at equal time: each of the %d positions of %s searched for "
	        "%" PRId64 " ms;\n   agree: the move is the reference's best (95 %% interval); "
	        "loss: mean centipawn loss\n   against the reference's scores, each clipped to "
	        "+-%d (95 %% interval; 'beyond': moves\n   outside the reference's list, counted "
	        "at the loss of its last); one run each\n\n",
	        b->res.suite.n, b->res.suite.path, b->set.quality_ms, BENCH_SUITE_CLIP);
	fprintf(out, "%-10s %4s %8s %18s %16s %7s %11s %10s\n", "driver", "thr", "agree",
	        "(95 % interval)", "loss cp", "beyond", "mean depth", "nodes");
	for (int d = 0; d < cutoff_driver_count(); d++) {
		for (int c = 0; c < b->set.ncounts; c++) {
			bench_quality_sum_t s;
			if (!bench_quality_sum(&b->res, d, b->set.counts[c], &s))
				continue;
			char iv[32], loss[32], nn[16];
			snprintf(iv, sizeof(iv), "(%.1f-%.1f %%)", 100 * s.agree_lo,
			         100 * s.agree_hi);
			snprintf(loss, sizeof(loss), "%.1f +- %.1f", s.loss, s.loss_half);
			fprintf(out, "%-10s %3d%s %7.1f%% %18s %16s %7d %11.2f %10s\n",
			        bench_engine_name(false, d), b->set.counts[c],
			        b->set.counts[c] > b->mach.cores ? "*" : " ", 100.0 * s.agree / s.n,
			        iv, loss, s.bounds, s.depth, bench_si(nn, sizeof(nn), s.nodes));
		}
	}
}

static void print_quality(const bench_t *b, FILE *out)
{
	if (b->res.nquality == 0)
		return;
	if (b->res.suite.n) {
		print_quality_suite(b, out);
		return;
	}
	const bench_workload_t *w = &b->res.work[BENCH_CHESS];
	fprintf(out,
	        "\n== quality at equal time: each chess position searched for %" PRId64
	        " ms; depth reached and\n   agreement of the move with a deeper serial search "
	        "(ref depths",
	        b->set.quality_ms);
	for (int i = 0; i < w->nitems; i++)
		fprintf(out, "%s%d", i ? "," : " ", w->items[i].ref_depth);
	fputs("); one run each\n\n", out);
	fprintf(out, "%-10s %4s %12s %10s %12s   %s\n", "driver", "thr", "mean depth", "agree",
	        "nodes", "depth/move per position");
	for (int d = 0; d < cutoff_driver_count(); d++) {
		for (int c = 0; c < b->set.ncounts; c++) {
			int n = 0, agree = 0, refs = 0;
			double depth = 0, nodes = 0;
			char per[512] = "";
			size_t used = 0;
			for (int i = 0; i < b->res.nquality; i++) {
				const bench_quality_t *q = &b->res.quality[i];
				if (q->driver != d || q->threads != b->set.counts[c])
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
			        bench_engine_name(false, d), b->set.counts[c],
			        b->set.counts[c] > b->mach.cores ? "*" : " ", depth / n, a,
			        bench_si(nn, sizeof(nn), nodes / n), per);
		}
	}
}

/* The cluster's rows (mpirun): each rank's share of the run of median time. */
static void print_cluster(const bench_t *b, FILE *out)
{
	bool any = false;
	for (int i = 0; i < b->res.nrows; i++) {
		const bench_row_t *r = &b->res.rows[i];
		if (!bench_is_cluster(r->driver) || r->stockfish)
			continue;
		const bench_run_t *run = &b->res.runs[r->median_run];
		if (!any)
			fprintf(out, "\n== the cluster: cluster/R is R ranks, each lazy SMP on the "
			             "row's "
			             "threads over its own table (the run of median time)\n");
		any = true;
		fprintf(out, "\n%s, %s, %d thread%s a rank:\n", bench_workload_names[r->workload],
		        bench_engine_name(false, r->driver), r->threads, r->threads > 1 ? "s" : "");
		bench_rank_text_head(out);
		for (int k = 0; k < run->nranks; k++)
			bench_rank_text(&run->rank_prof[k], k, out);
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
	int n = b->set.counts[b->set.ncounts - 1];
	for (int c = 0; c < b->set.ncounts; c++)
		if (b->set.counts[c] == 2)
			n = 2;
	if (n == 1)
		return;
	fprintf(out, "\n== in short: %d threads against the %s search at 1 thread (medians)\n\n", n,
	        bench_engine_name(false, b->set.base));
	fprintf(out, "%-9s %-10s", "workload", "driver");
	bench_row_text_head(b, BENCH_TABLE_BRIEF, -1, out);
	fputc('\n', out);
	for (int i = 0; i < b->res.nrows; i++) {
		const bench_row_t *r = &b->res.rows[i];
		if (r->threads != n)
			continue;
		fprintf(out, "%-9s %-10s", bench_workload_names[r->workload],
		        bench_engine_name(r->stockfish, r->driver));
		bench_row_text(b, r, BENCH_TABLE_BRIEF, out);
		fputc('\n', out);
	}
	if (b->set.stockfish)
		fputs("(stockfish: its own time to its own depth, against itself at 1 thread)\n",
		      out);
	for (int c = 0; c < b->set.ncounts; c++) {
		double med, lo, hi;
		if (b->set.counts[c] == n && bench_ceiling(b, c, &med, &lo, &hi))
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
		if (b->set.workloads[wk])
			print_workload(b, wk, out);
	print_cluster(b, out);
	print_quality(b, out);
	print_closing(b, out);
	if (b->res.plot_note[0])
		fprintf(out, "\nplots: %s\n", b->res.plot_note);
}
