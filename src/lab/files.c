/* SPDX-License-Identifier: MIT */
/*
 * files.c — the report of `cutoff bench` for programs: results.json (everything: the
 * machine, the settings, the workloads and their positions, every run with its counters,
 * threads, ranks, positions and iterations, every row, the quality runs), results.csv
 * (the rows), runs.csv, threads.csv and positions.csv. A row's fields, a thread's, a
 * rank's and a run's flat values are fields.c's lists, walked by both JSON and CSV; this
 * file writes the rest (a run's nested parts among them); a figure that does not apply is
 * null in JSON and n/a in CSV.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "kit/args.h"
#include "kit/report.h"
#include "lab/ceiling.h"
#include "lab/common.h"
#include "lab/fields.h"
#include "lab/files.h"
#include "lab/probe.h"

static void json_config(json_writer_t *j, const cutoff_config_t *c)
{
	jw_begin_object(j, "engine");
	jw_string(j, "algo", cli_algo_names[c->algo]);
	jw_uint(j, "tt_mb", c->tt_mb);
	jw_uint(j, "ordering", c->ordering);
	jw_uint(j, "pruning", c->pruning);
	jw_uint(j, "extensions", c->extensions);
	jw_bool(j, "tt_cutoffs", c->tt_cutoffs);
	jw_int(j, "aspiration", c->aspiration);
	jw_string(j, "placement", cli_placement_names[c->placement]);
	cli_json_driver_options(j, "driver_options", c);
	jw_bool(j, "profile_tt_writers", c->profile_tt_writers);
	jw_end(j);
}

/* "machine": the hardware, the load, and every ceiling measured. */
static void json_machine(json_writer_t *j, const bench_t *b)
{
	jw_begin_object(j, "machine");
	jw_string(j, "cpu", b->mach.cpu_model);
	jw_int(j, "packages", b->mach.packages);
	jw_int(j, "numa_nodes", b->mach.numa);
	jw_int(j, "cores", b->mach.cores);
	jw_int(j, "ranks", b->mpi.ranks); /* the cluster's rows: mpirun -np ranks */
	jw_int(j, "pus", b->mach.pus);
	jw_double(j, "load_before", b->mach.load_before);
	jw_double(j, "load_after", b->mach.load_after);
	jw_begin_array(j, "ceiling");
	for (int c = 0; c < b->set.ncounts; c++) {
		double med, lo, hi;
		if (!bench_ceiling(b, c, &med, &lo, &hi))
			continue;
		jw_begin_object(j, NULL);
		jw_int(j, "threads", b->set.counts[c]);
		jw_double(j, "median", med);
		jw_double(j, "min", lo);
		jw_double(j, "max", hi);
		jw_begin_array(j, "per_repeat");
		for (int r = 0; r < b->set.repeat; r++)
			jw_double(j, NULL, b->mach.ceiling[c * b->set.repeat + r]);
		jw_end(j);
		jw_end(j);
	}
	jw_end(j);
	bench_ceiling_json(b, j);
	jw_end(j);
}

/* "settings": what the sweep was asked. */
static void json_settings(json_writer_t *j, const bench_t *b)
{
	jw_begin_object(j, "settings");
	jw_begin_array(j, "threads");
	for (int i = 0; i < b->set.ncounts; i++)
		jw_int(j, NULL, b->set.counts[i]);
	jw_end(j);
	jw_begin_array(j, "drivers");
	for (int d = 0; d < cutoff_driver_count(); d++)
		if (b->set.drivers[d])
			jw_string(j, NULL, bench_engine_name(false, d));
	jw_end(j);
	jw_string(j, "baseline", bench_engine_name(false, b->set.base));
	jw_int(j, "repeat", b->set.repeat);
	jw_int(j, "quality_ms", b->set.quality_ms);
	if (b->set.quality_suite)
		jw_string(j, "quality_suite", b->set.quality_suite);
	else
		jw_null(j, "quality_suite");
	jw_bool(j, "profile_tt_writers", b->set.tt_writers);
	jw_int(j, "hog", b->set.hog);
	jw_string(j, "stockfish", b->set.stockfish);
	jw_string(j, "stockfish_name", b->set.stockfish ? b->mach.stockfish_name : NULL);
	if (b->sim)
		jw_int(j, "jobs", b->res.jobs); /* the processes that measured the runs */
	jw_end(j);
}

/* One workload: its settings, memory shares and positions. */
static void json_workload(json_writer_t *j, const bench_t *b, int wk)
{
	const bench_workload_t *w = &b->res.work[wk];
	jw_begin_object(j, NULL);
	jw_string(j, "name", bench_workload_names[wk]);
	jw_string(j, "source", w->source);
	jw_string(j, "settings", w->settings);
	json_config(j, &w->cfg);
	jw_double(j, "tt_probes_per_node", w->probes_per_node);
	jw_double(j, "tt_stores_per_node", w->stores_per_node);
	jw_double(j, "node_ns", w->node_ns);
	jw_double(j, "share_reads", w->share_reads);
	jw_double(j, "share_writes", w->share_writes);
	jw_begin_array(j, "positions");
	for (int i = 0; i < w->nitems; i++) {
		const bench_item_t *it = &w->items[i];
		jw_begin_object(j, NULL);
		jw_string(j, "id", it->label);
		jw_string(j, "position", it->text);
		jw_int(j, "depth", it->depth);
		jw_double(j, "branching", it->branching);
		if (wk == BENCH_CONNECT4)
			jw_int(j, "score", it->score);
		if (wk == BENCH_CHESS) {
			jw_string(j, "ref_move", it->ref_move[0] ? it->ref_move : NULL);
			jw_int(j, "ref_depth", it->ref_depth);
			jw_int(j, "sf_depth", it->sf_depth);
		}
		jw_end(j);
	}
	jw_end(j);
	jw_end(j);
}

/* A cluster run's "ranks": each rank's share (none for other runs). */
static void json_ranks(json_writer_t *j, const bench_run_t *r)
{
	if (r->nranks == 0)
		return;
	jw_begin_array(j, "ranks");
	for (int k = 0; k < r->nranks; k++)
		bench_rank_json(&r->rank_prof[k], k, j);
	jw_end(j);
}

/* A run's "positions" and, for ours, its "iterations". */
static void json_positions(json_writer_t *j, const bench_t *b, const bench_run_t *r)
{
	jw_begin_array(j, "positions");
	for (int k = 0; k < b->res.work[r->workload].nitems; k++) {
		jw_begin_object(j, NULL);
		jw_uint(j, "nodes", r->item_nodes[k]);
		jw_double(j, "time_s", r->item_time[k]);
		jw_int(j, "depth", r->item_depth[k]);
		jw_string(j, "move", r->item_move[k]);
		if (r->stockfish)
			jw_null(j, "value"); /* in its own units: not read */
		else
			jw_int(j, "value", r->item_value[k]);
		jw_end(j);
	}
	jw_end(j);
	if (r->stockfish)
		return;
	jw_begin_array(j, "iterations");
	for (int d = 1; d < CUTOFF_MAX_PLY; d++) {
		if (r->it_items[d] == 0)
			continue;
		jw_begin_object(j, NULL);
		jw_int(j, "depth", d);
		jw_int(j, "positions", r->it_items[d]);
		jw_uint(j, "nodes", r->it_nodes[d]);
		jw_uint(j, "leaves", r->it_leaves[d]);
		jw_end(j);
	}
	jw_end(j);
}

/* A run's nested parts, among fields.c's flat values: its counters, "thread_nodes",
 * its threads under "per_thread" (the count is "threads"), its ranks, positions and
 * iterations. */
static void json_run_arrays(json_writer_t *j, const bench_t *b, const bench_run_t *r)
{
	if (!r->stockfish)
		cli_json_counters(j, "counters", &r->counters);
	jw_begin_array(j, "thread_nodes");
	for (int k = 0; !r->incomplete_threads && k < r->threads; k++)
		jw_uint(j, NULL, r->thread_nodes[k]);
	jw_end(j);
	if (!r->stockfish) {
		jw_begin_array(j, "per_thread");
		for (int k = 0; !r->incomplete_threads && k < r->threads; k++)
			bench_thread_json(r, k, j);
		jw_end(j);
	}
	json_ranks(j, r);
	json_positions(j, b, r);
}

/* One row: fields.c's list, then the effective branching factors. */
static void json_row(json_writer_t *j, const bench_t *b, const bench_row_t *r)
{
	jw_begin_object(j, NULL);
	bench_row_json(b, r, j);
	jw_begin_array(j, "ebf");
	for (int d = r->ebf_from; r->ebf_from && d <= r->ebf_to; d++) {
		jw_begin_object(j, NULL);
		jw_int(j, "depth", d);
		jw_double(j, "ebf", r->ebf[d]);
		jw_end(j);
	}
	jw_end(j);
	jw_end(j);
}

/* "quality": each position searched at equal time. */
static void json_quality(json_writer_t *j, const bench_t *b)
{
	jw_begin_array(j, "quality");
	for (int i = 0; i < b->res.nquality; i++) {
		const bench_quality_t *q = &b->res.quality[i];
		jw_begin_object(j, NULL);
		jw_string(j, "driver", bench_engine_name(false, q->driver));
		jw_int(j, "threads", q->threads);
		jw_int(j, "position", q->item + 1);
		jw_int(j, "depth", q->depth);
		jw_string(j, "move", q->move);
		if (b->res.suite.n) {
			const bench_suite_entry_t *e = &b->res.suite.entries[q->item];
			jw_string(j, "id", e->id);
			jw_string(j, "ref_move", e->ref_text[0]);
			jw_int(j, "loss_cp", q->loss);
			jw_bool(j, "loss_bound", q->loss_bound);
		} else {
			jw_string(j, "ref_move", b->res.work[BENCH_CHESS].items[q->item].ref_move);
		}
		jw_bool(j, "agree", q->agree);
		jw_uint(j, "nodes", q->nodes);
		jw_end(j);
	}
	jw_end(j);
	jw_begin_array(j, "quality_rows");
	for (int d = 0; d < cutoff_driver_count(); d++)
		for (int c = 0; c < b->set.ncounts; c++) {
			bench_quality_sum_t s;
			if (!bench_quality_sum(&b->res, d, b->set.counts[c], &s))
				continue;
			jw_begin_object(j, NULL);
			jw_string(j, "driver", bench_engine_name(false, d));
			jw_int(j, "threads", b->set.counts[c]);
			jw_int(j, "positions", s.n);
			jw_int(j, "agree", s.agree);
			jw_int(j, "with_reference", s.refs);
			jw_double(j, "agree_lo95", s.agree_lo);
			jw_double(j, "agree_hi95", s.agree_hi);
			jw_double(j, "loss_cp", b->res.suite.n ? s.loss : NAN);
			jw_double(j, "loss_cp_half95", b->res.suite.n ? s.loss_half : NAN);
			jw_int(j, "loss_bounds", s.bounds);
			jw_double(j, "mean_depth", s.depth);
			jw_double(j, "mean_nodes", s.nodes);
			jw_end(j);
		}
	jw_end(j);
}

bool bench_write_json(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	char build[256];
	bench_build_text(build, sizeof(build));
	json_writer_t j;
	jw_init(&j, f);
	jw_begin_object(&j, NULL);
	jw_string(&j, "date", b->mach.date);
	json_machine(&j, b);
	jw_string(&j, "build", build);
	jw_bool(&j, "profiled", b->mach.profiled);
	jw_string(&j, "note", b->set.note);
	jw_string(&j, "simulation", b->sim ? b->sim->model : NULL);
	json_settings(&j, b);
	jw_double(&j, "wall_s", b->res.wall_s);
	jw_begin_array(&j, "workloads");
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
		if (b->set.workloads[wk])
			json_workload(&j, b, wk);
	jw_end(&j);
	jw_begin_array(&j, "runs");
	for (int i = 0; i < b->res.nruns; i++)
		bench_run_json(b, &b->res.runs[i], &j, json_run_arrays);
	jw_end(&j);
	jw_begin_array(&j, "rows");
	for (int i = 0; i < b->res.nrows; i++)
		json_row(&j, b, &b->res.rows[i]);
	jw_end(&j);
	json_quality(&j, b);
	jw_string(&j, "plots", b->res.plot_note);
	jw_end(&j);
	bool ok = jw_finish(&j) == 0;
	return fclose(f) == 0 && ok;
}

/* runs.csv: one line per run (fields.c's list). */
static bool write_runs_csv(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bench_run_csv_head(f);
	for (int i = 0; i < b->res.nruns; i++)
		bench_run_csv(b, &b->res.runs[i], f);
	return fclose(f) == 0;
}

bool bench_write_csv(const bench_t *b, const char *rows_path, const char *runs_path,
                     const char *threads_path)
{
	FILE *f = fopen(rows_path, "w");
	if (!f)
		return false;
	bench_row_csv_head(f);
	for (int i = 0; i < b->res.nrows; i++)
		bench_row_csv(b, &b->res.rows[i], f);
	bool ok = fclose(f) == 0;
	if (!write_runs_csv(b, runs_path))
		return false;
	/* One line per thread of every run of ours. */
	f = fopen(threads_path, "w");
	if (!f)
		return false;
	bench_thread_csv_head(f);
	for (int i = 0; i < b->res.nruns; i++) {
		const bench_run_t *r = &b->res.runs[i];
		for (int k = 0; !r->stockfish && !r->incomplete_threads && k < r->threads; k++)
			bench_thread_csv(r, k, f);
	}
	return fclose(f) == 0 && ok;
}

/* text, a name from a file (an "id" field), written as one CSV field (RFC 4180): in
 * double quotes, each quote doubled, when it holds a comma or a quote; a control byte
 * (which no line of an input file holds but a tab) is written as a blank. */
static void csv_text(FILE *f, const char *text)
{
	bool quote = strpbrk(text, ",\"") != NULL;
	if (quote)
		fputc('"', f);
	for (const char *c = text; *c; c++) {
		if (*c == '"')
			fputc('"', f);
		fputc((unsigned char)*c < ' ' ? ' ' : *c, f);
	}
	if (quote)
		fputc('"', f);
}

bool bench_write_positions_csv(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fputs("workload,driver,threads,repeat,position,id,nodes,time_s,depth,move,value\n", f);
	for (int i = 0; i < b->res.nruns; i++) {
		const bench_run_t *r = &b->res.runs[i];
		const bench_workload_t *w = &b->res.work[r->workload];
		for (int k = 0; k < w->nitems; k++) {
			fprintf(f, "%s,%s,%d,%d,%d,", bench_workload_names[r->workload],
			        bench_engine_name(r->stockfish, r->driver), r->threads, r->repeat,
			        k + 1);
			csv_text(f, w->items[k].label);
			fprintf(f, ",%" PRIu64 ",%.6f,%d,%s,", r->item_nodes[k], r->item_time[k],
			        r->item_depth[k], r->item_move[k]);
			if (r->stockfish)
				fputs("n/a\n", f);
			else
				fprintf(f, "%" PRId32 "\n", r->item_value[k]);
		}
	}
	return fclose(f) == 0;
}

bool bench_write_quality_csv(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fputs("driver,threads,ms,positions,agree,with_reference,agree_share,agree_lo95,"
	      "agree_hi95,loss_cp,loss_cp_half95,loss_bounds,mean_depth,mean_nodes\n",
	      f);
	for (int d = 0; d < cutoff_driver_count(); d++)
		for (int c = 0; c < b->set.ncounts; c++) {
			bench_quality_sum_t s;
			if (!bench_quality_sum(&b->res, d, b->set.counts[c], &s))
				continue;
			fprintf(f, "%s,%d,%" PRId64 ",%d,%d,%d,%.4f,%.4f,%.4f,",
			        bench_engine_name(false, d), b->set.counts[c], b->set.quality_ms,
			        s.n, s.agree, s.refs, s.refs ? (double)s.agree / s.refs : NAN,
			        s.agree_lo, s.agree_hi);
			if (b->res.suite.n)
				fprintf(f, "%.2f,%.2f,%d,", s.loss, s.loss_half, s.bounds);
			else
				fputs(",,,", f);
			fprintf(f, "%.3f,%.0f\n", s.depth, s.nodes);
		}
	return fclose(f) == 0;
}

bool bench_write_quality_positions_csv(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fputs("driver,threads,position,id,depth,nodes,move,ref_move,agree,loss_cp,loss_bound\n", f);
	for (int i = 0; i < b->res.nquality; i++) {
		const bench_quality_t *q = &b->res.quality[i];
		/* The suite's position, or the chess workload's item. */
		const bench_suite_entry_t *e =
			b->res.suite.n ? &b->res.suite.entries[q->item] : NULL;
		const bench_item_t *it = e ? NULL : &b->res.work[BENCH_CHESS].items[q->item];
		const char *ref = e ? e->ref_text[0] : it->ref_move;
		fprintf(f, "%s,%d,%d,", bench_engine_name(false, q->driver), q->threads,
		        q->item + 1);
		csv_text(f, e ? e->id : it->label);
		fprintf(f, ",%d,%" PRIu64 ",%s,%s,%d,", q->depth, q->nodes, q->move, ref, q->agree);
		if (b->res.suite.n)
			fprintf(f, "%d,%d\n", q->loss, q->loss_bound);
		else
			fputs(",\n", f);
	}
	return fclose(f) == 0;
}
