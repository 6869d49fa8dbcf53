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

/* "machine": the hardware, the load, and every ceiling measured. */
static void json_machine(json_writer_t *j, const bench_t *b)
{
	json_begin_object(j, "machine");
	json_string(j, "cpu", b->cpu_model);
	json_int(j, "packages", b->packages);
	json_int(j, "numa_nodes", b->numa);
	json_int(j, "cores", b->cores);
	json_int(j, "ranks", b->ranks); /* the cluster's rows: mpirun -np ranks */
	json_int(j, "pus", b->pus);
	json_double(j, "load_before", b->load_before);
	json_double(j, "load_after", b->load_after);
	json_begin_array(j, "ceiling");
	for (int c = 0; c < b->ncounts; c++) {
		double med, lo, hi;
		if (!bench_ceiling(b, c, &med, &lo, &hi))
			continue;
		json_begin_object(j, NULL);
		json_int(j, "threads", b->counts[c]);
		json_double(j, "median", med);
		json_double(j, "min", lo);
		json_double(j, "max", hi);
		json_begin_array(j, "per_repeat");
		for (int r = 0; r < b->repeat; r++)
			json_double(j, NULL, b->ceiling[c * b->repeat + r]);
		json_end(j);
		json_end(j);
	}
	json_end(j);
	bench_ceiling_json(b, j);
	json_end(j);
}

/* "settings": what the sweep was asked. */
static void json_settings(json_writer_t *j, const bench_t *b)
{
	json_begin_object(j, "settings");
	json_begin_array(j, "threads");
	for (int i = 0; i < b->ncounts; i++)
		json_int(j, NULL, b->counts[i]);
	json_end(j);
	json_begin_array(j, "drivers");
	for (int d = 0; d < cutoff_driver_count(); d++)
		if (b->drivers[d])
			json_string(j, NULL, bench_engine_name(false, d));
	json_end(j);
	json_string(j, "baseline", bench_engine_name(false, b->base));
	json_int(j, "repeat", b->repeat);
	json_int(j, "quality_ms", b->quality_ms);
	if (b->quality_suite)
		json_string(j, "quality_suite", b->quality_suite);
	else
		json_null(j, "quality_suite");
	json_bool(j, "profile_tt_writers", b->tt_writers);
	json_int(j, "hog", b->hog);
	json_string(j, "stockfish", b->stockfish);
	json_string(j, "stockfish_name", b->stockfish ? b->stockfish_name : NULL);
	if (b->sim)
		json_int(j, "jobs", b->jobs); /* the processes that measured the runs */
	json_end(j);
}

/* One workload: its settings, memory shares and positions. */
static void json_workload(json_writer_t *j, const bench_t *b, int wk)
{
	const bench_workload_t *w = &b->work[wk];
	json_begin_object(j, NULL);
	json_string(j, "name", bench_workload_names[wk]);
	json_string(j, "source", w->source);
	json_string(j, "settings", w->settings);
	json_config(j, &w->cfg);
	json_double(j, "tt_probes_per_node", w->probes_per_node);
	json_double(j, "tt_stores_per_node", w->stores_per_node);
	json_double(j, "node_ns", w->node_ns);
	json_double(j, "share_reads", w->share_reads);
	json_double(j, "share_writes", w->share_writes);
	json_begin_array(j, "positions");
	for (int i = 0; i < w->nitems; i++) {
		const bench_item_t *it = &w->items[i];
		json_begin_object(j, NULL);
		json_string(j, "id", it->label);
		json_string(j, "position", it->text);
		json_int(j, "depth", it->depth);
		json_double(j, "branching", it->branching);
		if (wk == BENCH_CONNECT4)
			json_int(j, "score", it->score);
		if (wk == BENCH_CHESS) {
			json_string(j, "ref_move", it->ref_move[0] ? it->ref_move : NULL);
			json_int(j, "ref_depth", it->ref_depth);
			json_int(j, "sf_depth", it->sf_depth);
		}
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

/* A cluster run's "ranks": each rank's share (none for other runs). */
static void json_ranks(json_writer_t *j, const bench_run_t *r)
{
	if (r->nranks == 0)
		return;
	json_begin_array(j, "ranks");
	for (int k = 0; k < r->nranks; k++)
		bench_rank_json(&r->rank_prof[k], k, j);
	json_end(j);
}

/* A run's "positions" and, for ours, its "iterations". */
static void json_positions(json_writer_t *j, const bench_t *b, const bench_run_t *r)
{
	json_begin_array(j, "positions");
	for (int k = 0; k < b->work[r->workload].nitems; k++) {
		json_begin_object(j, NULL);
		json_uint(j, "nodes", r->item_nodes[k]);
		json_double(j, "time_s", r->item_time[k]);
		json_int(j, "depth", r->item_depth[k]);
		json_string(j, "move", r->item_move[k]);
		if (r->stockfish)
			json_null(j, "value"); /* in its own units: not read */
		else
			json_int(j, "value", r->item_value[k]);
		json_end(j);
	}
	json_end(j);
	if (r->stockfish)
		return;
	json_begin_array(j, "iterations");
	for (int d = 1; d < CUTOFF_MAX_PLY; d++) {
		if (r->it_items[d] == 0)
			continue;
		json_begin_object(j, NULL);
		json_int(j, "depth", d);
		json_int(j, "positions", r->it_items[d]);
		json_uint(j, "nodes", r->it_nodes[d]);
		json_uint(j, "leaves", r->it_leaves[d]);
		json_end(j);
	}
	json_end(j);
}

/* A run's nested parts, among fields.c's flat values: its counters, "thread_nodes",
 * its threads under "per_thread" (the count is "threads"), its ranks, positions and
 * iterations. */
static void json_run_arrays(json_writer_t *j, const bench_t *b, const bench_run_t *r)
{
	if (!r->stockfish)
		cli_json_counters(j, "counters", &r->counters);
	json_begin_array(j, "thread_nodes");
	for (int k = 0; !r->incomplete_threads && k < r->threads; k++)
		json_uint(j, NULL, r->thread_nodes[k]);
	json_end(j);
	if (!r->stockfish) {
		json_begin_array(j, "per_thread");
		for (int k = 0; !r->incomplete_threads && k < r->threads; k++)
			bench_thread_json(r, k, j);
		json_end(j);
	}
	json_ranks(j, r);
	json_positions(j, b, r);
}

/* One row: fields.c's list, then the effective branching factors. */
static void json_row(json_writer_t *j, const bench_t *b, const bench_row_t *r)
{
	json_begin_object(j, NULL);
	bench_row_json(b, r, j);
	json_begin_array(j, "ebf");
	for (int d = r->ebf_from; r->ebf_from && d <= r->ebf_to; d++) {
		json_begin_object(j, NULL);
		json_int(j, "depth", d);
		json_double(j, "ebf", r->ebf[d]);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

/* "quality": each position searched at equal time. */
static void json_quality(json_writer_t *j, const bench_t *b)
{
	json_begin_array(j, "quality");
	for (int i = 0; i < b->nquality; i++) {
		const bench_quality_t *q = &b->quality[i];
		json_begin_object(j, NULL);
		json_string(j, "driver", bench_engine_name(false, q->driver));
		json_int(j, "threads", q->threads);
		json_int(j, "position", q->item + 1);
		json_int(j, "depth", q->depth);
		json_string(j, "move", q->move);
		if (b->suite.n) {
			const bench_suite_entry_t *e = &b->suite.entries[q->item];
			json_string(j, "id", e->id);
			json_string(j, "ref_move", e->ref_text[0]);
			json_int(j, "loss_cp", q->loss);
			json_bool(j, "loss_bound", q->loss_bound);
		} else {
			json_string(j, "ref_move", b->work[BENCH_CHESS].items[q->item].ref_move);
		}
		json_bool(j, "agree", q->agree);
		json_uint(j, "nodes", q->nodes);
		json_end(j);
	}
	json_end(j);
	json_begin_array(j, "quality_rows");
	for (int d = 0; d < cutoff_driver_count(); d++)
		for (int c = 0; c < b->ncounts; c++) {
			bench_quality_sum_t s;
			if (!bench_quality_sum(b, d, b->counts[c], &s))
				continue;
			json_begin_object(j, NULL);
			json_string(j, "driver", bench_engine_name(false, d));
			json_int(j, "threads", b->counts[c]);
			json_int(j, "positions", s.n);
			json_int(j, "agree", s.agree);
			json_int(j, "with_reference", s.refs);
			json_double(j, "agree_lo95", s.agree_lo);
			json_double(j, "agree_hi95", s.agree_hi);
			json_double(j, "loss_cp", b->suite.n ? s.loss : NAN);
			json_double(j, "loss_cp_half95", b->suite.n ? s.loss_half : NAN);
			json_int(j, "loss_bounds", s.bounds);
			json_double(j, "mean_depth", s.depth);
			json_double(j, "mean_nodes", s.nodes);
			json_end(j);
		}
	json_end(j);
}

bool bench_write_json(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	char build[256];
	bench_build_text(build, sizeof(build));
	json_writer_t j;
	json_init(&j, f);
	json_begin_object(&j, NULL);
	json_string(&j, "date", b->date);
	json_machine(&j, b);
	json_string(&j, "build", build);
	json_bool(&j, "profiled", b->profiled);
	json_string(&j, "note", b->note);
	json_string(&j, "simulation", b->sim ? b->sim->model : NULL);
	json_settings(&j, b);
	json_double(&j, "wall_s", b->wall_s);
	json_begin_array(&j, "workloads");
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
		if (b->workloads[wk])
			json_workload(&j, b, wk);
	json_end(&j);
	json_begin_array(&j, "runs");
	for (int i = 0; i < b->nruns; i++)
		bench_run_json(b, &b->runs[i], &j, json_run_arrays);
	json_end(&j);
	json_begin_array(&j, "rows");
	for (int i = 0; i < b->nrows; i++)
		json_row(&j, b, &b->rows[i]);
	json_end(&j);
	json_quality(&j, b);
	json_string(&j, "plots", b->plot_note);
	json_end(&j);
	bool ok = json_finish(&j) == 0;
	return fclose(f) == 0 && ok;
}

/* runs.csv: one line per run (fields.c's list). */
static bool write_runs_csv(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bench_run_csv_head(f);
	for (int i = 0; i < b->nruns; i++)
		bench_run_csv(b, &b->runs[i], f);
	return fclose(f) == 0;
}

bool bench_write_csv(const bench_t *b, const char *rows_path, const char *runs_path,
                     const char *threads_path)
{
	FILE *f = fopen(rows_path, "w");
	if (!f)
		return false;
	bench_row_csv_head(f);
	for (int i = 0; i < b->nrows; i++)
		bench_row_csv(b, &b->rows[i], f);
	bool ok = fclose(f) == 0;
	if (!write_runs_csv(b, runs_path))
		return false;
	/* One line per thread of every run of ours. */
	f = fopen(threads_path, "w");
	if (!f)
		return false;
	bench_thread_csv_head(f);
	for (int i = 0; i < b->nruns; i++) {
		const bench_run_t *r = &b->runs[i];
		for (int k = 0; !r->stockfish && !r->incomplete_threads && k < r->threads; k++)
			bench_thread_csv(r, k, f);
	}
	return fclose(f) == 0 && ok;
}

/* text, a name from a file (an "id" field), made a CSV field in buf: commas, quotes and
 * control characters become blanks. Returns buf. */
static const char *csv_name(char *buf, size_t size, const char *text)
{
	snprintf(buf, size, "%s", text);
	for (char *c = buf; *c; c++)
		if (*c == ',' || *c == '"' || (unsigned char)*c < ' ')
			*c = ' ';
	return buf;
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
			char id[sizeof(w->items[k].label)];
			csv_name(id, sizeof(id), w->items[k].label);
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

bool bench_write_quality_csv(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fputs("driver,threads,ms,positions,agree,with_reference,agree_share,agree_lo95,"
	      "agree_hi95,loss_cp,loss_cp_half95,loss_bounds,mean_depth,mean_nodes\n",
	      f);
	for (int d = 0; d < cutoff_driver_count(); d++)
		for (int c = 0; c < b->ncounts; c++) {
			bench_quality_sum_t s;
			if (!bench_quality_sum(b, d, b->counts[c], &s))
				continue;
			fprintf(f, "%s,%d,%" PRId64 ",%d,%d,%d,%.4f,%.4f,%.4f,",
			        bench_engine_name(false, d), b->counts[c], b->quality_ms, s.n,
			        s.agree, s.refs, s.refs ? (double)s.agree / s.refs : NAN,
			        s.agree_lo, s.agree_hi);
			if (b->suite.n)
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
	for (int i = 0; i < b->nquality; i++) {
		const bench_quality_t *q = &b->quality[i];
		/* The suite's position, or the chess workload's item. */
		const bench_suite_entry_t *e = b->suite.n ? &b->suite.entries[q->item] : NULL;
		const bench_item_t *it = e ? NULL : &b->work[BENCH_CHESS].items[q->item];
		char id[sizeof(it->label)];
		csv_name(id, sizeof(id), e ? e->id : it->label);
		const char *ref = e ? e->ref_text[0] : it->ref_move;
		fprintf(f, "%s,%d,%d,%s,%d,%" PRIu64 ",%s,%s,%d,",
		        bench_engine_name(false, q->driver), q->threads, q->item + 1, id, q->depth,
		        q->nodes, q->move, ref, q->agree);
		if (b->suite.n)
			fprintf(f, "%d,%d\n", q->loss, q->loss_bound);
		else
			fputs(",\n", f);
	}
	return fclose(f) == 0;
}
