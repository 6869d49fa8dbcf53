/* SPDX-License-Identifier: MIT */
/*
 * plots.c — the plots of `cutoff bench`, drawn by gnuplot when it is found: each
 * workload's speed-up against the ideal line (under `cutoff sim` with the published
 * curves beside it), each thread's node rate in the run of median time, and where each
 * thread's time went. The data files and plots.gp are written into the report folder in
 * any case, so that the plots can be drawn later; b->res.plot_note says what happened.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit/args.h"
#include "lab/common.h"
#include "lab/fields.h"
#include "lab/folder.h"
#include "lab/plots.h"
#include "lab/rows.h"

/* The report's file `name`, opened for writing (and recorded: folder.h). */
static FILE *open_in(bench_t *b, const char *name)
{
	char path[PATH_MAX];
	return bench_folder_file(b, name, path, sizeof(path)) ? fopen(path, "w") : NULL;
}

/* The speed-up panel of workload wk: its data file and its plot command. */
static bool speedup_panel(bench_t *b, FILE *gp, int wk, bool logs)
{
	char name[64];
	snprintf(name, sizeof(name), "speedup-%s.dat", bench_workload_names[wk]);
	FILE *f = open_in(b, name);
	if (!f)
		return false;
	/* A line for every engine with a row beyond one thread: each driver that ran
	 * there, in the registry's order, then Stockfish. */
	int line_of[BENCH_MAX_DRIVERS + 1], lines = 0;
	for (int e = 0; e <= cutoff_driver_count(); e++) {
		bool sf = e == cutoff_driver_count();
		for (int c = 0; c < b->set.ncounts; c++)
			if (b->set.counts[c] > 1 &&
			    bench_find_row(&b->res, wk, sf, e, b->set.counts[c])) {
				line_of[lines++] = e;
				break;
			}
	}
	fputs("# threads", f);
	for (int l = 0; l < lines; l++)
		fprintf(f, " %s",
		        bench_engine_name(line_of[l] == cutoff_driver_count(), line_of[l]));
	fputc('\n', f);
	for (int c = 0; c < b->set.ncounts; c++) {
		fprintf(f, "%d", b->set.counts[c]);
		for (int l = 0; l < lines; l++) {
			const bench_row_t *r =
				bench_find_row(&b->res, wk, line_of[l] == cutoff_driver_count(),
			                       line_of[l], b->set.counts[c]);
			if (r && !isnan(r->speedup))
				fprintf(f, " %.4f", r->speedup);
			else
				fputs(" n/a", f);
		}
		fputc('\n', f);
	}
	fclose(f);
	fputs("set xtics (", gp);
	for (int c = 0; c < b->set.ncounts; c++)
		fprintf(gp, "%s%d", c ? ", " : "", b->set.counts[c]);
	fputs(")\n", gp);
	if (logs)
		fprintf(gp,
		        "set title '%s'\nset xlabel 'threads'\nset ylabel 'speed-up'\n"
		        "set xrange [0.8:%g]\nset yrange [0.5:*]\n"
		        "plot x title 'ideal' with lines dashtype 2 lc rgb 'gray'",
		        bench_workload_names[wk], 1.25 * b->set.counts[b->set.ncounts - 1]);
	else
		fprintf(gp,
		        "set title '%s'\nset xlabel 'threads'\nset ylabel 'speed-up'\n"
		        "set xrange [0.5:%d.5]\nset yrange [0:*]\n"
		        "plot x title 'ideal' with lines dashtype 2 lc rgb 'gray'",
		        bench_workload_names[wk], b->set.counts[b->set.ncounts - 1]);
	for (int l = 0; l < lines; l++)
		fprintf(gp, ", '%s' using 1:%d title '%s' with linespoints lw 2", l ? "" : name,
		        l + 2, bench_engine_name(line_of[l] == cutoff_driver_count(), line_of[l]));
	if (b->sim)
		fputs(", 'published.dat' index 0 using 1:2 title 'DTS, Cray Blitz (chess)' "
		      "with points pt 7 ps 1.5 lc rgb 'black', '' index 1 using 1:2 title "
		      "'YBW, Zugzwang (chess)' with points pt 5 ps 1.5 lc rgb 'dark-red'",
		      gp);
	fputc('\n', gp);
	return true;
}

/* speedup.EXT: the speed-up against the ideal line, one panel per workload. */
static bool plot_speedup(bench_t *b, FILE *gp, const char *ext, const char *term, int nw)
{
	/* speed-up against the ideal line, one panel per workload */
	fprintf(gp, "set terminal %s size %d,420\nset output 'speedup.%s'\n", term, 420 * nw + 60,
	        ext);
	fprintf(gp,
	        "set multiplot layout 1,%d title 'time-to-depth speed-up over the %s "
	        "search at 1 thread (Stockfish: over itself)%s'\n",
	        nw, bench_engine_name(false, b->set.base), b->sim ? ", virtual threads" : "");
	/* cutoff sim: the published curves beside ours, on logarithmic axes (chess programs
	 * both: Hyatt's DTS in Cray Blitz, Feldmann's YBW in Zugzwang; docs/simulation.md). */
	bool logs = b->sim && b->set.counts[b->set.ncounts - 1] > 16;
	if (b->sim) {
		FILE *f = open_in(b, "published.dat");
		if (!f)
			return false;
		fputs("# threads speed-up: DTS in Cray Blitz (Hyatt 1994)\n"
		      "2 2.0\n4 3.7\n8 6.6\n16 11.1\n\n\n"
		      "# threads speed-up: YBW in Zugzwang (Feldmann 1993)\n16 11\n256 126\n",
		      f);
		fclose(f);
	}
	if (logs)
		fputs("set logscale xy 2\n", gp);
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
		if (b->set.workloads[wk] && !speedup_panel(b, gp, wk, logs))
			return false;
	fprintf(gp, "unset multiplot\nunset xrange\nunset yrange\nset xtics autofreq\n%s",
	        logs ? "unset logscale\n" : "");
	return true;
}

/* node-rate-per-thread.EXT: each thread's node rate in the run of median time. */
static bool plot_node_rate(bench_t *b, FILE *gp, const char *ext, const char *term, int nw)
{
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
		if (!b->set.workloads[wk])
			continue;
		char name[64];
		snprintf(name, sizeof(name), "node-rate-%s.dat", bench_workload_names[wk]);
		FILE *f = open_in(b, name);
		if (!f)
			return false;
		fprintf(f, "# setting/thread nodes_per_second\n");
		int lines = 0;
		for (int i = 0; i < b->res.nrows; i++) {
			const bench_row_t *r = &b->res.rows[i];
			if (r->workload != wk || r->stockfish)
				continue;
			const bench_run_t *run = &b->res.runs[r->median_run];
			if (run->incomplete_threads)
				continue;
			for (int k = 0; k < run->threads; k++, lines++)
				fprintf(f, "\"%s/%d t%d\" %.0f\n",
				        bench_engine_name(false, r->driver), r->threads, k,
				        bench_ratio((double)run->thread_nodes[k], run->time_s));
		}
		if (lines == 0)
			fprintf(f, "\"none\" 0\n");
		fclose(f);
		fprintf(gp, "set title '%s'\nplot '%s' using 0:2:xtic(1) notitle with boxes\n",
		        bench_workload_names[wk], name);
	}
	fprintf(gp, "unset multiplot\nset xtics norotate\n");
	return true;
}

static bool plot_time_split(bench_t *b, FILE *gp, const char *ext, const char *term, int nw)
{
	/* Where each thread's time went, stacked: the run of median time of every driver at the
	 * largest thread count, and the serial search beside them for scale. */
	int top = b->set.counts[b->set.ncounts - 1];
	fprintf(gp, "set terminal %s size %d,460\nset output 'time-split.%s'\n", term,
	        420 * nw + 60, ext);
	if (!b->mach.profiled) {
		fprintf(gp,
		        "unset xtics\nunset ytics\nunset border\nunset key\nunset grid\n"
		        "unset title\nunset ylabel\nset xrange [0:1]\nset yrange [0:1]\n"
		        "set label 1 'time split per thread: n/a' at 0.5,0.6 center font ',16'\n"
		        "set label 2 'the library was built without its profiler "
		        "(CUTOFF_PROFILE=OFF)' at 0.5,0.45 center noenhanced\n"
		        "plot 2 notitle\n");
		return true;
	}
	fprintf(gp,
	        "set multiplot layout 1,%d title 'where each thread''s time went, %d thread%s "
	        "(the run of median time; %s at 1 thread for scale)'\n",
	        nw, top, top == 1 ? "" : "s", bench_engine_name(false, b->set.base));
	fprintf(gp, "set style data histograms\nset style histogram rowstacked\n"
	            "set style fill solid 0.8 border -1\nset boxwidth 0.8\n"
	            "set xtics rotate by -60\nset yrange [0:1]\nunset xlabel\n"
	            "set ylabel 'share of the thread''s time'\nset key below\n");
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++) {
		if (!b->set.workloads[wk])
			continue;
		char name[64];
		snprintf(name, sizeof(name), "time-split-%s.dat", bench_workload_names[wk]);
		FILE *f = open_in(b, name);
		if (!f)
			return false;
		fprintf(f,
		        "# driver/threads thread: searching idle split-wait lock-spin (shares of "
		        "the thread's time)\n");
		int lines = 0;
		for (int i = 0; i < b->res.nrows; i++) {
			const bench_row_t *r = &b->res.rows[i];
			if (r->workload != wk || r->stockfish ||
			    (r->threads != top && r->driver != b->set.base))
				continue;
			const bench_run_t *run = &b->res.runs[r->median_run];
			if (run->profiled == 0 || run->incomplete_threads)
				continue;
			for (int k = 0; k < run->threads; k++, lines++) {
				const bench_thread_t *t = &run->thread_prof[k];
				char v[4][16];
				fprintf(f, "\"%s/%d t%d\" %s %s %s %s\n",
				        bench_engine_name(false, r->driver), r->threads, k,
				        bench_cell(v[0], 16, "%.4f",
				                   bench_thread_share(run, k, t->search_s)),
				        bench_cell(v[1], 16, "%.4f",
				                   bench_thread_share(run, k, t->idle_s)),
				        bench_cell(v[2], 16, "%.4f",
				                   bench_thread_share(run, k, t->split_wait_s)),
				        bench_cell(v[3], 16, "%.4f",
				                   bench_thread_share(run, k, t->lock_s)));
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
	return true;
}

/* quality.EXT (the quality runs, when there are any): per driver, the share of moves equal
 * to the reference's and the mean centipawn loss against the threads, with their 95 %
 * intervals; each driver's line starts at the baseline's point at 1 thread. */
static bool plot_quality(bench_t *b, FILE *gp, const char *ext, const char *term)
{
	if (b->res.nquality == 0)
		return true;
	FILE *f = open_in(b, "quality.dat");
	if (!f)
		return false;
	fputs("# per driver (a block each): threads agree lo95 hi95 loss_cp half95\n", f);
	bench_quality_sum_t base, s;
	const bool has_base = bench_quality_sum(&b->res, b->set.base, 1, &base);
	int block[BENCH_MAX_DRIVERS + 1], nblocks = 0;
	for (int d = 0; d <= cutoff_driver_count(); d++) {
		/* Each driver other than the baseline; the baseline alone (d past the last)
		 * when it is all there is. */
		bool alone = d == cutoff_driver_count();
		if (alone ? nblocks > 0 || !has_base : d == b->set.base || !b->set.drivers[d])
			continue;
		bool any = false;
		for (int c = 0; c < b->set.ncounts; c++) {
			int n = b->set.counts[c];
			if (n == 1 && has_base)
				s = base;
			else if (alone || !bench_quality_sum(&b->res, d, n, &s))
				continue;
			double share = s.refs ? (double)s.agree / s.refs : NAN;
			fprintf(f, "%d %.4f %.4f %.4f %.2f %.2f\n", n, share, s.agree_lo,
			        s.agree_hi, b->res.suite.n ? s.loss : NAN,
			        b->res.suite.n ? s.loss_half : NAN);
			any = true;
		}
		if (any) {
			fputs("\n\n", f);
			block[nblocks++] = alone ? b->set.base : d;
		}
	}
	fclose(f);
	fprintf(gp,
	        "reset\nset datafile missing 'n/a'\nset grid\nset key bottom left\n"
	        "set terminal %s size 960,440\nset output 'quality.%s'\n",
	        term, ext);
	fprintf(gp,
	        "set multiplot layout 1,2 title 'quality at equal time (%" PRId64
	        " ms a position; 95 %% intervals)'\nset logscale x 2\nset xlabel 'threads'\n"
	        "set xrange [0.8:%g]\n",
	        b->set.quality_ms, 1.25 * b->set.counts[b->set.ncounts - 1]);
	const char *panel[2][2] = { { "moves equal to the reference's best, %",
		                      "1:(100*$2):(100*$3):(100*$4)" },
		                    { "mean centipawn loss", "1:5:($5-$6):($5+$6)" } };
	for (int p = 0; p < (b->res.suite.n ? 2 : 1); p++) {
		fprintf(gp, "set ylabel \"%s\"\nplot ", panel[p][0]);
		for (int k = 0; k < nblocks; k++)
			fprintf(gp, "%s'quality.dat' index %d using %s with yerrorlines title '%s'",
			        k ? ", " : "", k, panel[p][1], bench_engine_name(false, block[k]));
		fputs("\n", gp);
	}
	fputs("unset multiplot\nunset logscale x\n", gp);
	return true;
}

/* The data files and the gnuplot script; false when a file cannot be written. */
static bool write_plot_files(bench_t *b, const char *ext, const char *term)
{
	int nw = 0;
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
		nw += b->set.workloads[wk];
	FILE *gp = open_in(b, "plots.gp");
	if (!gp)
		return false;
	fputs("# gnuplot script written by cutoff bench; run it in this folder\n", gp);
	fprintf(gp, "set datafile missing 'n/a'\nset key top left\nset grid\n");
	bool ok = plot_speedup(b, gp, ext, term, nw) && plot_node_rate(b, gp, ext, term, nw) &&
	          plot_time_split(b, gp, ext, term, nw) && plot_quality(b, gp, ext, term);
	return fclose(gp) == 0 && ok;
}

void bench_plots(bench_t *b)
{
	static const char *const ext[] = { NULL, "svg", "png" };
	static const char *const term[] = { NULL, "svg dynamic enhanced font 'sans,11'",
		                            "png font 'sans,10'" };
	char gnuplot[1024];
	if (b->set.plot == 0) {
		snprintf(b->res.plot_note, sizeof(b->res.plot_note), "none (--plot none)");
		return;
	}
	const char *env = getenv("GNUPLOT");
	if (env && *env)
		snprintf(gnuplot, sizeof(gnuplot), "%s", env);
	bool found = env && *env ? access(gnuplot, X_OK) == 0
	                         : cli_find_program("gnuplot", gnuplot, sizeof(gnuplot)) != NULL;
	if (!write_plot_files(b, ext[b->set.plot], term[b->set.plot])) {
		snprintf(b->res.plot_note, sizeof(b->res.plot_note),
		         "cannot write the plot files: %s", strerror(errno));
		return;
	}
	if (!found) {
		snprintf(b->res.plot_note, sizeof(b->res.plot_note),
		         "not drawn: gnuplot was not found (apt-get install gnuplot-nox); the data "
		         "and plots.gp are in the folder: run 'gnuplot plots.gp' there");
		return;
	}
	/* gnuplot writes these itself: recorded whether it draws them all or not. */
	char path[PATH_MAX], name[BENCH_FILE_NAME];
	static const char *const pictures[] = { "speedup", "node-rate-per-thread", "time-split" };
	bench_folder_file(b, "plots.log", path, sizeof(path));
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "%s.%s", pictures[i], ext[b->set.plot]);
		bench_folder_file(b, name, path, sizeof(path));
	}
	if (b->res.nquality) {
		snprintf(name, sizeof(name), "quality.%s", ext[b->set.plot]);
		bench_folder_file(b, name, path, sizeof(path));
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		if (chdir(b->set.out_dir) == 0) {
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
		snprintf(b->res.plot_note, sizeof(b->res.plot_note),
		         "gnuplot (%.150s) failed: see plots.log in the folder", gnuplot);
	else
		snprintf(b->res.plot_note, sizeof(b->res.plot_note),
		         "speedup.%s, node-rate-per-thread.%s, time-split.%s%s%s (gnuplot %.120s)",
		         ext[b->set.plot], ext[b->set.plot], ext[b->set.plot],
		         b->res.nquality ? ", quality." : "",
		         b->res.nquality ? ext[b->set.plot] : "", gnuplot);
}
