/* SPDX-License-Identifier: MIT */
/*
 * fields.c — every figure of a row, of a thread of a run, of a rank of a cluster run and
 * of a run, described once: its name (the JSON key and the CSV column), its unit, its
 * formats in CSV and in the text tables, and where its value comes from (an offsetof into
 * bench_row_t, bench_thread_t, bench_rank_t or bench_run_t, or a small getter). The text
 * tables, results.json and the CSV files (results.csv for a row; threads.csv and each
 * run's "per_thread" for a thread; the per-rank tables and each run's "ranks" for a rank;
 * runs.csv and results.json's "runs" for a run) walk these lists, so that a figure added
 * here shows in every output, with the same name and the same rounding.
 *
 * Invariants: a list's order is the CSV's column order, the JSON object's key order and
 * the order of the text columns it has; a value that does not apply is NAN and reads
 * "n/a" in text and CSV, null in JSON, never 0 (a run's value that was not measured is
 * n/a in CSV and left out of its JSON object). A row field has at most one column in
 * each of the three text tables (the workload's main table, its profile table, and the
 * closing "in short" table); a column may show several figures of the row in one cell
 * (the time's spread, the per-thread rates, idle+sync) through its own `text` function.
 * What a list cannot hold is its writer's: a run's nested JSON (its counters, threads,
 * ranks, positions and iterations, files.c) and the CSV's flat counters beside them.
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "lab/ceiling.h"
#include "lab/common.h"
#include "lab/fields.h"

/* What a value is: how each output writes it. */
typedef enum unit {
	UNIT_NAME,    /* a string from `name` (NULL: n/a, null) */
	UNIT_INT,     /* an int */
	UNIT_FLAG,    /* a bool: 0/1 in CSV and text, true/false in JSON */
	UNIT_SECONDS, /* a double: `fmt` in text */
	UNIT_COUNT,   /* nodes, or a count: 12.3 k in text */
	UNIT_RATE,    /* nodes per second: 12.3 k in text */
	UNIT_RATIO,   /* a plain ratio: `fmt` in text */
	UNIT_SHARE    /* a share of 1: `fmt` of 100 times it in text */
} unit_t;

/* A row field's column in one text table; the field is not in the table when head is
 * NULL. `text` writes the cell when it shows more than the field's own value. */
typedef const char *text_fn(const bench_row_t *r, char *buf, size_t size);
typedef struct column {
	const char *head;
	int width; /* negative: left-aligned */
	text_fn *text;
} column_t;

enum {
	OUT_JSON = 1,
	OUT_CSV = 2,
	OUT_BOTH = 3
};
#define NONE ((size_t)-1)
#define ROW(field) offsetof(bench_row_t, field)

typedef struct row_field {
	const char *key;
	unit_t unit;
	size_t at;                                                   /* into bench_row_t, or NONE */
	double (*get)(const bench_t *b, const bench_row_t *r);       /* a number, when at is NONE */
	const char *(*name)(const bench_t *b, const bench_row_t *r); /* UNIT_NAME */
	const char *csv;                                             /* a number in CSV */
	const char *fmt; /* a number in text (UNIT_SECONDS, _RATIO, _SHARE) */
	column_t col[BENCH_NTABLES];
	bool sparse;      /* its text column only where a row of the workload has a value */
	const char *help; /* its line in the legend under the header, or NULL */
	int out;          /* OUT_JSON, OUT_CSV or both */
} row_field_t;

static const char *workload_name(const bench_t *b, const bench_row_t *r)
{
	(void)b;
	return bench_workload_names[r->workload];
}

static const char *engine_name(const bench_t *b, const bench_row_t *r)
{
	(void)b;
	return bench_engine_name(r->stockfish, r->driver);
}

static const char *bound_name(const bench_t *b, const bench_row_t *r)
{
	(void)b;
	return bench_bound_name(r->ceiling_bound);
}

static double hog_count(const bench_t *b, const bench_row_t *r)
{
	(void)r;
	return b->set.hog;
}

/* "(0.120..0.131)": the time's spread over the repeats. */
static const char *spread_text(const bench_row_t *r, char *buf, size_t size)
{
	snprintf(buf, size, "(%.3f..%.3f)", r->time_min, r->time_max);
	return buf;
}

/* "1.2 M / 1.3 M / 1.4 M": the per-thread node rates, min / median / max. */
static const char *per_thread_text(const bench_row_t *r, char *buf, size_t size)
{
	char a[16], m[16], c[16];
	if (isnan(r->thr_nps_med))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "%s / %s / %s", bench_si(a, sizeof(a), r->thr_nps_min),
		         bench_si(m, sizeof(m), r->thr_nps_med),
		         bench_si(c, sizeof(c), r->thr_nps_max));
	return buf;
}

/* "3.1+0.4%": the threads' time idle, and in split wait or lock spin. */
static const char *idle_sync_text(const bench_row_t *r, char *buf, size_t size)
{
	if (isnan(r->idle_share) || isnan(r->sync_share))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "%.1f+%.1f%%", 100 * r->idle_share, 100 * r->sync_share);
	return buf;
}

/* Columns: main table, profile table, "in short". */
#define MAIN(h, w)                                                                                 \
	{                                                                                          \
		{ h, w, NULL }, { NULL, 0, NULL }, { NULL, 0, NULL }                               \
	}
#define MAIN_TEXT(h, w, f)                                                                         \
	{                                                                                          \
		{ h, w, f }, { NULL, 0, NULL }, { NULL, 0, NULL }                                  \
	}
#define PROF(h, w)                                                                                 \
	{                                                                                          \
		{ NULL, 0, NULL }, { h, w, NULL }, { NULL, 0, NULL }                               \
	}
#define MAIN_BRIEF(h, w, hb)                                                                       \
	{                                                                                          \
		{ h, w, NULL }, { NULL, 0, NULL }, { hb, 9, NULL }                                 \
	}
#define NO_TEXT                                                                                    \
	{                                                                                          \
		{ NULL, 0, NULL }, { NULL, 0, NULL }, { NULL, 0, NULL }                            \
	}
/* A driver's own figure (types.h, BENCH_FIG_*): in the profile table where a row has it. */
#define FIG(k, key, head, unit, csv, help)                                                         \
	{                                                                                          \
		key, unit, ROW(fig[k]), NULL, NULL, csv, unit == UNIT_RATIO ? "%.2f" : "%.1f%%",   \
			PROF(head, 8), true, help, OUT_BOTH                                        \
	}

/*
 * A row: the text tables show the workload, engine and threads as the row's label, and
 * the JSON adds the effective branching factors (an array) after these.
 */
static const row_field_t ROW_FIELDS[] = {
	{ "workload", UNIT_NAME, NONE, NULL, workload_name, NULL, NULL, NO_TEXT, false, NULL,
	  OUT_BOTH },
	{ "driver", UNIT_NAME, NONE, NULL, engine_name, NULL, NULL, NO_TEXT, false, NULL,
	  OUT_BOTH },
	{ "threads", UNIT_INT, ROW(threads), NULL, NULL, NULL, NULL, NO_TEXT, false, NULL,
	  OUT_BOTH },
	{ "oversubscribed", UNIT_FLAG, ROW(oversubscribed), NULL, NULL, NULL, NULL, NO_TEXT, false,
	  NULL, OUT_BOTH },
	{ "runs", UNIT_INT, ROW(nruns), NULL, NULL, NULL, NULL, NO_TEXT, false, NULL, OUT_BOTH },
	{ "time_median_s", UNIT_SECONDS, ROW(time_med), NULL, NULL, "%.6f", "%.3f",
	  MAIN("time s", 9), false, NULL, OUT_BOTH },
	{ "time_min_s", UNIT_SECONDS, ROW(time_min), NULL, NULL, "%.6f", "%.3f",
	  MAIN_TEXT("  (min..max)", -19, spread_text), false, NULL, OUT_BOTH },
	{ "time_max_s", UNIT_SECONDS, ROW(time_max), NULL, NULL, "%.6f", "%.3f", NO_TEXT, false,
	  NULL, OUT_BOTH },
	{ "speedup", UNIT_RATIO, ROW(speedup), NULL, NULL, "%.4f", "%.2f",
	  MAIN_BRIEF("speed-up", 8, "speed-up"), false, NULL, OUT_BOTH },
	{ "speedup_own", UNIT_RATIO, ROW(speedup_self), NULL, NULL, "%.4f", "%.2f",
	  MAIN("own T1", 7), false, NULL, OUT_BOTH },
	{ "efficiency", UNIT_RATIO, ROW(efficiency), NULL, NULL, "%.4f", "%.2f", MAIN("effic", 6),
	  false, NULL, OUT_BOTH },
	{ "nodes_median", UNIT_COUNT, ROW(nodes_med), NULL, NULL, "%.0f", NULL, MAIN("nodes", 10),
	  false, NULL, OUT_BOTH },
	{ "overhead", UNIT_RATIO, ROW(overhead), NULL, NULL, "%.4f", "%.2f",
	  MAIN_BRIEF("overhead", 8, "overhead"), false, NULL, OUT_BOTH },
	{ "nps_median", UNIT_RATE, ROW(nps_med), NULL, NULL, "%.0f", NULL, MAIN("nodes/s", 10),
	  false, NULL, OUT_BOTH },
	{ "nps_min", UNIT_RATE, ROW(nps_min), NULL, NULL, "%.0f", NULL, NO_TEXT, false, NULL,
	  OUT_BOTH },
	{ "nps_max", UNIT_RATE, ROW(nps_max), NULL, NULL, "%.0f", NULL, NO_TEXT, false, NULL,
	  OUT_BOTH },
	{ "nps_scaling", UNIT_RATIO, ROW(nps_scaling), NULL, NULL, "%.4f", "%.2f",
	  MAIN_BRIEF("scaling", 7, "nps-scale"), false, NULL, OUT_BOTH },
	{ "thread_nps_min", UNIT_RATE, ROW(thr_nps_min), NULL, NULL, "%.0f", NULL,
	  MAIN_TEXT("per-thread nodes/s", -26, per_thread_text), false, NULL, OUT_BOTH },
	{ "thread_nps_median", UNIT_RATE, ROW(thr_nps_med), NULL, NULL, "%.0f", NULL, NO_TEXT,
	  false, NULL, OUT_BOTH },
	{ "thread_nps_max", UNIT_RATE, ROW(thr_nps_max), NULL, NULL, "%.0f", NULL, NO_TEXT, false,
	  NULL, OUT_BOTH },
	{ "first_move_cutoff_rate", UNIT_SHARE, ROW(fmc_rate), NULL, NULL, "%.4f", "%.1f %%",
	  MAIN_BRIEF("1st-move", 8, "1st-move"), false, NULL, OUT_BOTH },
	{ "search_share", UNIT_SHARE, ROW(search_share), NULL, NULL, "%.4f", "%.1f%%",
	  PROF("search", 7), false, NULL, OUT_BOTH },
	{ "idle_share",
	  UNIT_SHARE,
	  ROW(idle_share),
	  NULL,
	  NULL,
	  "%.4f",
	  "%.1f%%",
	  { { "idle+sync", 10, idle_sync_text }, { "idle", 7, NULL }, { NULL, 0, NULL } },
	  false,
	  NULL,
	  OUT_BOTH },
	{ "split_wait_share", UNIT_SHARE, ROW(split_wait_share), NULL, NULL, "%.4f", "%.1f%%",
	  PROF("split-w", 7), false, NULL, OUT_BOTH },
	{ "lock_share", UNIT_SHARE, ROW(lock_share), NULL, NULL, "%.4f", "%.1f%%", PROF("lock", 7),
	  false, NULL, OUT_BOTH },
	{ "sync_share", UNIT_SHARE, ROW(sync_share), NULL, NULL, "%.4f", "%.1f%%", NO_TEXT, false,
	  NULL, OUT_BOTH },
	{ "cut_first_rate", UNIT_SHARE, ROW(cut_first_rate), NULL, NULL, "%.4f", "%.1f%%",
	  PROF("CUT 1st", 8), false, NULL, OUT_BOTH },
	{ "cut_nodes_wrong_rate", UNIT_SHARE, ROW(cut_wrong), NULL, NULL, "%.4f", "%.1f%%",
	  PROF("CUT wrong", 9), false, NULL, OUT_BOTH },
	{ "all_nodes_wrong_rate", UNIT_SHARE, ROW(all_wrong), NULL, NULL, "%.4f", "%.1f%%",
	  PROF("ALL wrong", 9), false, NULL, OUT_BOTH },
	{ "tt_hits_other_rate", UNIT_SHARE, ROW(tt_other), NULL, NULL, "%.4f", "%.1f%%",
	  PROF("tt other", 8), false, NULL, OUT_BOTH },
	FIG(BENCH_FIG_SPLITS, "splits", "splits", UNIT_COUNT, "%.0f", "split points made"),
	FIG(BENCH_FIG_HELPERS, "helpers_per_split", "helpers", UNIT_RATIO, "%.3f",
	    "helpers per split point"),
	FIG(BENCH_FIG_SPLIT_CUT, "split_cutoff_rate", "sp cut", UNIT_SHARE, "%.4f",
	    "split points cut off"),
	FIG(BENCH_FIG_LOST, "split_nodes_lost_share", "lost", UNIT_SHARE, "%.4f",
	    "nodes thrown away (searched below a split point, voided by a cut-off) / nodes"),
	FIG(BENCH_FIG_AFTER_CUT, "split_nodes_after_cut_share", "aftercut", UNIT_SHARE, "%.4f",
	    "nodes of moves done at a split point after the move that cut it / nodes"),
	FIG(BENCH_FIG_DEFERRED, "deferred", "deferred", UNIT_COUNT, "%.0f",
	    "moves deferred because another thread was searching them"),
	FIG(BENCH_FIG_DEFERRED_TT, "deferred_tt_share", "def tt", UNIT_SHARE, "%.4f",
	    "deferred moves the table answered when revisited"),
	FIG(BENCH_FIG_DEFERRED_BUSY, "deferred_busy_share", "def busy", UNIT_SHARE, "%.4f",
	    "deferred moves still busy when revisited"),
	FIG(BENCH_FIG_SECOND_PASSES, "second_passes", "2nd pass", UNIT_COUNT, "%.0f",
	    "nodes that came back to deferred moves"),
	FIG(BENCH_FIG_BUSY_COLLISIONS, "busy_collisions", "collide", UNIT_COUNT, "%.0f",
	    "busy marks that met another position's"),
	FIG(BENCH_FIG_LAZYSMP_IDLE, "lazysmp_idle", "idle thr", UNIT_COUNT, "%.0f",
	    "lazy SMP's helpers left idle in single-depth searches (they would only repeat the "
	    "main thread's), summed over positions"),
	{ "minimal_tree_ratio", UNIT_RATIO, ROW(minimal_ratio), NULL, NULL, "%.3f", "%.3g", NO_TEXT,
	  false, NULL, OUT_BOTH },
	{ "ceiling", UNIT_RATIO, ROW(ceiling), NULL, NULL, "%.4f", "%.2f", MAIN("ceiling", 7),
	  false, NULL, OUT_BOTH },
	{ "ceiling_bound", UNIT_NAME, NONE, NULL, bound_name, NULL, NULL, NO_TEXT, false, NULL,
	  OUT_BOTH },
	{ "speedup_of_ceiling", UNIT_RATIO, ROW(of_ceiling), NULL, NULL, "%.4f", "%.2f",
	  MAIN_BRIEF("of ceil", 7, "of ceil"), false, NULL, OUT_BOTH },
	/* In settings.hog of the JSON. */
	{ "hog", UNIT_INT, NONE, hog_count, NULL, NULL, NULL, NO_TEXT, false, NULL, OUT_CSV },
	{ "sim_parallelism", UNIT_RATIO, ROW(parallelism), NULL, NULL, "%.3f", "%.1f", NO_TEXT,
	  false, NULL, OUT_BOTH },
	{ "sim_nodes_per_real_s", UNIT_RATE, ROW(sim_nps), NULL, NULL, "%.0f", NULL, NO_TEXT, false,
	  NULL, OUT_BOTH },
	{ "sim_switches_per_node", UNIT_RATIO, ROW(sim_switches_per_node), NULL, NULL, "%.3f",
	  "%.2f", NO_TEXT, false, NULL, OUT_BOTH },
};

enum {
	NROW_FIELDS = (int)(sizeof(ROW_FIELDS) / sizeof(ROW_FIELDS[0]))
};

const char *bench_cell(char *buf, size_t size, const char *fmt, double v)
{
	if (isnan(v))
		snprintf(buf, size, "n/a");
	else
		bench_format_double(buf, size, fmt, v);
	return buf;
}

const char *bench_si(char *buf, size_t size, double v)
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

void bench_csv_num(FILE *f, const char *fm, double v)
{
	char cell[64];
	fputc(',', f);
	fputs(isnan(v) ? "n/a" : bench_format_double(cell, sizeof(cell), fm, v), f);
}

/* A number field's value in row r. */
static double row_num(const bench_t *b, const row_field_t *f, const bench_row_t *r)
{
	if (f->at == NONE) /* before the offset is used: r + NONE is no pointer */
		return f->get(b, r);
	const char *p = (const char *)r + f->at;
	if (f->unit == UNIT_INT)
		return *(const int *)(const void *)p;
	if (f->unit == UNIT_FLAG)
		return *(const bool *)(const void *)p;
	return *(const double *)(const void *)p;
}

/* Field f's value in row r as the text tables write it. */
static const char *row_text(const bench_t *b, const row_field_t *f, const bench_row_t *r, char *buf,
                            size_t size)
{
	double v = f->unit == UNIT_NAME ? NAN : row_num(b, f, r);
	switch (f->unit) {
	case UNIT_NAME: {
		const char *s = f->name(b, r);
		snprintf(buf, size, "%s", s ? s : "n/a");
		return buf;
	}
	case UNIT_INT:
	case UNIT_FLAG:
		return bench_cell(buf, size, "%.0f", v);
	case UNIT_COUNT:
	case UNIT_RATE:
		return bench_si(buf, size, v);
	case UNIT_SHARE:
		return bench_cell(buf, size, f->fmt, 100 * v);
	case UNIT_SECONDS:
	case UNIT_RATIO:
		break;
	}
	return bench_cell(buf, size, f->fmt, v);
}

void bench_row_csv_head(FILE *f)
{
	for (int i = 0, n = 0; i < NROW_FIELDS; i++)
		if (ROW_FIELDS[i].out & OUT_CSV)
			fprintf(f, "%s%s", n++ ? "," : "", ROW_FIELDS[i].key);
	fputc('\n', f);
}

void bench_row_csv(const bench_t *b, const bench_row_t *r, FILE *f)
{
	for (int i = 0, n = 0; i < NROW_FIELDS; i++) {
		const row_field_t *x = &ROW_FIELDS[i];
		if (!(x->out & OUT_CSV))
			continue;
		if (x->unit == UNIT_NAME) {
			const char *s = x->name(b, r);
			fprintf(f, "%s%s", n ? "," : "", s ? s : "n/a");
		} else if (x->unit == UNIT_INT || x->unit == UNIT_FLAG) {
			fprintf(f, "%s%d", n ? "," : "", (int)row_num(b, x, r));
		} else {
			bench_csv_num(f, x->csv, row_num(b, x, r));
		}
		n++;
	}
	fputc('\n', f);
}

void bench_row_json(const bench_t *b, const bench_row_t *r, json_writer_t *j)
{
	for (int i = 0; i < NROW_FIELDS; i++) {
		const row_field_t *x = &ROW_FIELDS[i];
		if (!(x->out & OUT_JSON))
			continue;
		if (x->unit == UNIT_NAME)
			jw_string(j, x->key, x->name(b, r));
		else if (x->unit == UNIT_INT)
			jw_int(j, x->key, (int64_t)row_num(b, x, r));
		else if (x->unit == UNIT_FLAG)
			jw_bool(j, x->key, row_num(b, x, r) != 0);
		else
			jw_double(j, x->key, row_num(b, x, r));
	}
}

/* True when field x has a column in table t for workload wk's rows: always, but for a
 * sparse field, which needs a row of the workload with a value. */
static bool shown(const bench_t *b, const row_field_t *x, bench_table_t t, int wk)
{
	if (!x->col[t].head)
		return false;
	for (int i = 0; x->sparse && i < b->res.nrows; i++)
		if (b->res.rows[i].workload == wk && !isnan(row_num(b, x, &b->res.rows[i])))
			return true;
	return !x->sparse;
}

void bench_row_text_head(const bench_t *b, bench_table_t t, int wk, FILE *out)
{
	for (int i = 0; i < NROW_FIELDS; i++)
		if (shown(b, &ROW_FIELDS[i], t, wk))
			fprintf(out, " %*s", ROW_FIELDS[i].col[t].width, ROW_FIELDS[i].col[t].head);
}

void bench_row_text(const bench_t *b, const bench_row_t *r, bench_table_t t, FILE *out)
{
	for (int i = 0; i < NROW_FIELDS; i++) {
		const row_field_t *x = &ROW_FIELDS[i];
		char buf[64];
		if (!shown(b, x, t, r->workload))
			continue;
		fprintf(out, " %*s", x->col[t].width,
		        x->col[t].text ? x->col[t].text(r, buf, sizeof(buf))
		                       : row_text(b, x, r, buf, sizeof(buf)));
	}
}

void bench_row_legend(FILE *out)
{
	for (int i = 0; i < NROW_FIELDS; i++)
		if (ROW_FIELDS[i].help)
			fprintf(out, "  %-9s %s\n", ROW_FIELDS[i].col[BENCH_TABLE_PROFILE].head,
			        ROW_FIELDS[i].help);
}

/* ---------------------------------------------------------------------------------------
 * A thread of a run: threads.csv and each run's "per_thread" in results.json.
 * ------------------------------------------------------------------------------------- */

double bench_thread_share(const bench_run_t *run, int k, double part)
{
	if (run->profiled == 0 || run->incomplete_threads)
		return NAN;
	return bench_ratio(part, run->thread_prof[k].time_s);
}

/* How a thread's value is had from its bench_thread_t field: as it is (times, without
 * the profile NAN), over the thread's time (shares), or over the run's profiled searches
 * (mean depths). */
typedef enum per {
	PER_NONE,
	PER_TIME,
	PER_SEARCH
} per_t;

typedef struct thread_field {
	const char *key;
	size_t at; /* offsetof(bench_thread_t, ...) */
	per_t per;
	const char *csv;
} thread_field_t;

#define THR(field) offsetof(bench_thread_t, field)

static const thread_field_t THREAD_FIELDS[] = {
	{ "time_s", THR(time_s), PER_NONE, "%.6f" },
	{ "search_s", THR(search_s), PER_NONE, "%.6f" },
	{ "idle_s", THR(idle_s), PER_NONE, "%.6f" },
	{ "split_wait_s", THR(split_wait_s), PER_NONE, "%.6f" },
	{ "lock_s", THR(lock_s), PER_NONE, "%.6f" },
	{ "share_search", THR(search_s), PER_TIME, "%.4f" },
	{ "share_idle", THR(idle_s), PER_TIME, "%.4f" },
	{ "share_split_wait", THR(split_wait_s), PER_TIME, "%.4f" },
	{ "share_lock_spin", THR(lock_s), PER_TIME, "%.4f" },
	{ "depth_reached_mean", THR(depth_reached), PER_SEARCH, "%.2f" },
	{ "depth_completed_mean", THR(depth_completed), PER_SEARCH, "%.2f" },
};

enum {
	NTHREAD_FIELDS = (int)(sizeof(THREAD_FIELDS) / sizeof(THREAD_FIELDS[0]))
};

/* Field x of thread k of run r (NAN without the profile). */
static double thread_value(const thread_field_t *x, const bench_run_t *r, int k)
{
	const bench_thread_t *t = &r->thread_prof[k];
	double v = *(const double *)(const void *)((const char *)t + x->at);
	switch (x->per) {
	case PER_TIME:
		return bench_thread_share(r, k, v);
	case PER_SEARCH:
		return r->profiled == 0 || r->incomplete_threads ? NAN : v / r->profiled;
	case PER_NONE:
		break;
	}
	return r->profiled > 0 ? v : NAN;
}

void bench_thread_csv_head(FILE *f)
{
	fputs("workload,driver,threads,repeat,thread,nodes", f);
	for (int i = 0; i < NTHREAD_FIELDS; i++)
		fprintf(f, ",%s", THREAD_FIELDS[i].key);
	fputc('\n', f);
}

void bench_thread_csv(const bench_run_t *r, int k, FILE *f)
{
	fprintf(f, "%s,%s,%d,%d,%d,%" PRIu64, bench_workload_names[r->workload],
	        bench_engine_name(false, r->driver), r->threads, r->repeat, k, r->thread_nodes[k]);
	for (int i = 0; i < NTHREAD_FIELDS; i++)
		bench_csv_num(f, THREAD_FIELDS[i].csv, thread_value(&THREAD_FIELDS[i], r, k));
	fputc('\n', f);
}

void bench_thread_json(const bench_run_t *r, int k, json_writer_t *j)
{
	jw_begin_object(j, NULL);
	jw_int(j, "thread", k);
	jw_uint(j, "nodes", r->thread_nodes[k]);
	for (int i = 0; i < NTHREAD_FIELDS; i++)
		jw_double(j, THREAD_FIELDS[i].key, thread_value(&THREAD_FIELDS[i], r, k));
	jw_end(j);
}

/* ---------------------------------------------------------------------------------------
 * A rank of a cluster run: each run's "ranks" in results.json and the text's per-rank
 * tables. JSON has each rank's sums as they are; a text column shows a sum, or a sum
 * over another (mostly over the rank's time: a rate), times `times` over `over`.
 * ------------------------------------------------------------------------------------- */

typedef struct rank_field {
	const char *key;  /* the JSON key, or NULL: a text column only */
	size_t at;        /* offsetof(bench_rank_t, ...) */
	size_t per;       /* text: over this sum, or NONE */
	double times;     /* text: times this, */
	double over;      /* and over this */
	const char *head; /* the text column, or NULL: JSON only */
	int width, prec;  /* the text column: " %*s" heading, " %*.*f" cell */
} rank_field_t;

#define RANK(field) offsetof(bench_rank_t, field)

static const rank_field_t RANK_FIELDS[] = {
	{ "nodes", RANK(nodes), NONE, 1, 1, "nodes", 12, 0 },
	{ NULL, RANK(nodes), RANK(time_s), 1, 1e3, "knps", 9, 0 },
	{ "time_s", RANK(time_s), NONE, 1, 1, NULL, 0, 0 },
	{ "comm_s", RANK(comm_s), RANK(time_s), 100, 1, "comm%", 7, 1 },
	{ "sent_entries", RANK(sent_entries), RANK(time_s), 1, 1, "sent/s", 12, 0 },
	{ "received_entries", RANK(received_entries), RANK(time_s), 1, 1, "received/s", 12, 0 },
	{ "stored_entries", RANK(stored_entries), NONE, 1, 1, "stored", 12, 0 },
	{ "sent_bytes", RANK(sent_bytes), RANK(time_s), 1, 1e3, "KB/s sent", 10, 1 },
	{ "tt_hits_shared", RANK(tt_hits_shared), RANK(nodes), 1000, 1, "shared/knode", 12, 2 },
};

enum {
	NRANK_FIELDS = (int)(sizeof(RANK_FIELDS) / sizeof(RANK_FIELDS[0]))
};

static double rank_sum(const bench_rank_t *p, size_t at)
{
	return *(const double *)(const void *)((const char *)p + at);
}

void bench_rank_text_head(FILE *out)
{
	fprintf(out, "%5s", "rank");
	for (int i = 0; i < NRANK_FIELDS; i++)
		if (RANK_FIELDS[i].head)
			fprintf(out, " %*s", RANK_FIELDS[i].width, RANK_FIELDS[i].head);
	fputc('\n', out);
}

void bench_rank_text(const bench_rank_t *p, int k, FILE *out)
{
	fprintf(out, "%5d", k);
	for (int i = 0; i < NRANK_FIELDS; i++) {
		const rank_field_t *x = &RANK_FIELDS[i];
		if (!x->head)
			continue;
		double v = rank_sum(p, x->at);
		if (x->per != NONE)
			v = bench_ratio(v, rank_sum(p, x->per));
		fprintf(out, " %*.*f", x->width, x->prec, x->times * v / x->over);
	}
	fputc('\n', out);
}

void bench_rank_json(const bench_rank_t *p, int k, json_writer_t *j)
{
	jw_begin_object(j, NULL);
	jw_int(j, "rank", k);
	for (int i = 0; i < NRANK_FIELDS; i++)
		if (RANK_FIELDS[i].key)
			jw_double(j, RANK_FIELDS[i].key, rank_sum(p, RANK_FIELDS[i].at));
	jw_end(j);
}

/* ---------------------------------------------------------------------------------------
 * A run: runs.csv and the runs of results.json. Both have the run's flat values from this
 * list; the JSON has the run's counters, threads, ranks, positions and iterations as
 * nested objects and arrays (the caller's `arrays`, where the CSV has the thread_nodes
 * column), and the CSV has the profiler's counters as flat columns (CSV_ONLY: JSON has
 * them in "counters"). A value that is not measured for the run is n/a in CSV and left
 * out of the JSON.
 * ------------------------------------------------------------------------------------- */

/* What a run's value is. */
typedef enum run_unit {
	RUN_NAME,   /* a string from `name` */
	RUN_INT,    /* an int */
	RUN_COUNT,  /* a uint64_t counter */
	RUN_NUMBER, /* a double, `csv` in CSV, from `get` when at is NONE */
	RUN_ARRAYS, /* CSV: the threads' nodes, ';'-joined; JSON: the caller's arrays */
	RUN_DRIVERS /* CSV: a column for each driver's counter of the library's list, whatever
	               the run's driver (JSON: in "counters") */
} run_unit_t;

/* Which runs have the value. */
typedef enum run_has {
	HAS_ALL,
	HAS_OURS,       /* not Stockfish's */
	HAS_PROFILED,   /* ours, with the library's profiler */
	HAS_TT_WRITERS, /* and with --profile-tt-writers: 0 without the writers array */
	HAS_CONNECT4    /* a Connect Four run */
} run_has_t;

typedef struct run_field {
	const char *key;
	run_unit_t unit;
	size_t at; /* into bench_run_t, or NONE */
	const char *(*name)(const bench_run_t *r);
	double (*get)(const bench_run_t *r);
	const char *csv;
	run_has_t has;
	int out; /* OUT_JSON, OUT_CSV or both */
} run_field_t;

static const char *run_workload(const bench_run_t *r) { return bench_workload_names[r->workload]; }

static const char *run_engine(const bench_run_t *r)
{
	return bench_engine_name(r->stockfish, r->driver);
}

static double run_nps(const bench_run_t *r)
{
	return bench_ratio((double)r->counters.nodes, r->time_s);
}

#define RUN(field) offsetof(bench_run_t, field)
#define RUN_CTR(field) (offsetof(bench_run_t, counters) + offsetof(cutoff_counters_t, field))
/* A counter of the profiler's: a column of runs.csv only. */
#define CSV_ONLY(field, has)                                                                       \
	{                                                                                          \
#field, RUN_COUNT, RUN_CTR(field), NULL, NULL, NULL, has, OUT_CSV                  \
	}

static const run_field_t RUN_FIELDS[] = {
	{ "workload", RUN_NAME, NONE, run_workload, NULL, NULL, HAS_ALL, OUT_BOTH },
	{ "driver", RUN_NAME, NONE, run_engine, NULL, NULL, HAS_ALL, OUT_BOTH },
	{ "threads", RUN_INT, RUN(threads), NULL, NULL, NULL, HAS_ALL, OUT_BOTH },
	{ "repeat", RUN_INT, RUN(repeat), NULL, NULL, NULL, HAS_ALL, OUT_BOTH },
	{ "time_s", RUN_NUMBER, RUN(time_s), NULL, NULL, "%.6f", HAS_ALL, OUT_BOTH },
	{ "nodes", RUN_COUNT, RUN_CTR(nodes), NULL, NULL, NULL, HAS_ALL, OUT_BOTH },
	{ "leaves", RUN_COUNT, RUN_CTR(leaves), NULL, NULL, NULL, HAS_ALL, OUT_CSV },
	{ "cutoffs", RUN_COUNT, RUN_CTR(cutoffs), NULL, NULL, NULL, HAS_ALL, OUT_CSV },
	{ "first_move_cutoffs", RUN_COUNT, RUN_CTR(first_move_cutoffs), NULL, NULL, NULL, HAS_ALL,
	  OUT_CSV },
	{ "nps", RUN_NUMBER, NONE, NULL, run_nps, "%.0f", HAS_ALL, OUT_BOTH },
	{ "thread_nodes", RUN_ARRAYS, NONE, NULL, NULL, NULL, HAS_ALL, OUT_BOTH },
	{ "share_search", RUN_NUMBER, RUN(share_search), NULL, NULL, "%.4f", HAS_ALL, OUT_BOTH },
	{ "share_idle", RUN_NUMBER, RUN(share_idle), NULL, NULL, "%.4f", HAS_ALL, OUT_BOTH },
	{ "share_split_wait", RUN_NUMBER, RUN(share_split_wait), NULL, NULL, "%.4f", HAS_ALL,
	  OUT_BOTH },
	{ "share_lock_spin", RUN_NUMBER, RUN(share_lock_spin), NULL, NULL, "%.4f", HAS_ALL,
	  OUT_BOTH },
	CSV_ONLY(nodes_pv, HAS_PROFILED),
	CSV_ONLY(nodes_cut, HAS_PROFILED),
	CSV_ONLY(nodes_all, HAS_PROFILED),
	CSV_ONLY(cut_nodes_wrong, HAS_PROFILED),
	CSV_ONLY(all_nodes_wrong, HAS_PROFILED),
	CSV_ONLY(cut_node_cutoffs, HAS_PROFILED),
	CSV_ONLY(cut_node_first_cutoffs, HAS_PROFILED),
	CSV_ONLY(tt_hits_other, HAS_TT_WRITERS),
	{ "driver counters", RUN_DRIVERS, NONE, NULL, NULL, NULL, HAS_OURS, OUT_CSV },
	{ "mismatches", RUN_INT, RUN(mismatches), NULL, NULL, NULL, HAS_CONNECT4, OUT_JSON },
};

enum {
	NRUN_FIELDS = (int)(sizeof(RUN_FIELDS) / sizeof(RUN_FIELDS[0]))
};

static bool run_has(const bench_t *b, const run_field_t *x, const bench_run_t *r)
{
	switch (x->has) {
	case HAS_ALL:
		return true;
	case HAS_OURS:
		return !r->stockfish;
	case HAS_PROFILED:
		return b->mach.profiled && !r->stockfish;
	case HAS_TT_WRITERS:
		return b->mach.profiled && !r->stockfish && b->set.tt_writers;
	case HAS_CONNECT4:
		return r->workload == BENCH_CONNECT4;
	}
	return false;
}

static const void *run_at(const bench_run_t *r, size_t at) { return (const char *)r + at; }

static double run_number(const run_field_t *x, const bench_run_t *r)
{
	return x->at == NONE ? x->get(r) : *(const double *)run_at(r, x->at);
}

/* The drivers' counters of the library's list, each a column of runs.csv. */
static bool is_driver_counter(int i)
{
	return cutoff_counter_info(i)->counted_by == CUTOFF_COUNTED_BY_DRIVER;
}

void bench_run_csv_head(FILE *f)
{
	for (int i = 0, n = 0; i < NRUN_FIELDS; i++) {
		if (!(RUN_FIELDS[i].out & OUT_CSV))
			continue;
		if (RUN_FIELDS[i].unit != RUN_DRIVERS) {
			fprintf(f, "%s%s", n++ ? "," : "", RUN_FIELDS[i].key);
			continue;
		}
		for (int k = 0; k < cutoff_counter_count(); k++)
			if (is_driver_counter(k))
				fprintf(f, "%s%s", n++ ? "," : "", cutoff_counter_info(k)->name);
	}
	fputc('\n', f);
}

/* The drivers' counters' cells of run r (r NULL: every one n/a), commas between them; a
 * profiler's counter is n/a without the profiler. */
static void driver_cells(const bench_t *b, const bench_run_t *r, FILE *f)
{
	for (int k = 0, n = 0; k < cutoff_counter_count(); k++) {
		if (!is_driver_counter(k))
			continue;
		if (n++)
			fputc(',', f);
		if (!r || (cutoff_counter_info(k)->profiler && !b->mach.profiled))
			fputs("n/a", f);
		else
			fprintf(f, "%" PRIu64, cutoff_counter_value(&r->counters, k));
	}
}

/* Field x's cell of run r, after its comma (none before the first). */
static void run_csv_cell(const bench_t *b, const run_field_t *x, const bench_run_t *r, FILE *f)
{
	if (!run_has(b, x, r)) {
		if (x->unit == RUN_DRIVERS)
			driver_cells(b, NULL, f);
		else
			fputs("n/a", f);
		return;
	}
	switch (x->unit) {
	case RUN_NAME:
		fputs(x->name(r), f);
		break;
	case RUN_INT:
		fprintf(f, "%d", *(const int *)run_at(r, x->at));
		break;
	case RUN_COUNT:
		fprintf(f, "%" PRIu64, *(const uint64_t *)run_at(r, x->at));
		break;
	case RUN_NUMBER: {
		char buf[64];
		fputs(bench_cell(buf, sizeof(buf), x->csv, run_number(x, r)), f);
		break;
	}
	case RUN_ARRAYS:
		for (int k = 0; !r->incomplete_threads && k < r->threads; k++)
			fprintf(f, "%s%" PRIu64, k ? ";" : "", r->thread_nodes[k]);
		if (r->incomplete_threads)
			fputs("n/a", f);
		break;
	case RUN_DRIVERS:
		driver_cells(b, r, f);
		break;
	}
}

void bench_run_csv(const bench_t *b, const bench_run_t *r, FILE *f)
{
	for (int i = 0, n = 0; i < NRUN_FIELDS; i++) {
		if (!(RUN_FIELDS[i].out & OUT_CSV))
			continue;
		if (n++)
			fputc(',', f);
		run_csv_cell(b, &RUN_FIELDS[i], r, f);
	}
	fputc('\n', f);
}

void bench_run_json(const bench_t *b, const bench_run_t *r, json_writer_t *j,
                    bench_run_arrays_fn *arrays)
{
	jw_begin_object(j, NULL);
	for (int i = 0; i < NRUN_FIELDS; i++) {
		const run_field_t *x = &RUN_FIELDS[i];
		if (!(x->out & OUT_JSON) || !run_has(b, x, r))
			continue;
		switch (x->unit) {
		case RUN_NAME:
			jw_string(j, x->key, x->name(r));
			break;
		case RUN_INT:
			jw_int(j, x->key, *(const int *)run_at(r, x->at));
			break;
		case RUN_COUNT:
			jw_uint(j, x->key, *(const uint64_t *)run_at(r, x->at));
			break;
		case RUN_NUMBER:
			jw_double(j, x->key, run_number(x, r));
			break;
		case RUN_ARRAYS:
			arrays(j, b, r);
			break;
		case RUN_DRIVERS: /* in "counters" */
			break;
		}
	}
	jw_end(j);
}
