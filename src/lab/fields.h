/* SPDX-License-Identifier: MIT */
/*
 * fields.h — a row's figures, a thread's, a cluster rank's and a run's, each described
 * once (fields.c), and the writers that walk those descriptions: the text tables'
 * columns, the CSV lines and the JSON objects. Also the cells every report writes: a
 * number or "n/a", a node count with its unit.
 */
#ifndef CUTOFF_LAB_FIELDS_H
#define CUTOFF_LAB_FIELDS_H

#include "kit/json.h"
#include "lab/types.h"

/* The text tables of a workload: the main one, the profiler's under it, and the closing
 * "in short" table of the whole report. */
typedef enum bench_table {
	BENCH_TABLE_MAIN,
	BENCH_TABLE_PROFILE,
	BENCH_TABLE_BRIEF,
	BENCH_NTABLES
} bench_table_t;

/* results.csv: the header line, and one row's line. */
void bench_row_csv_head(FILE *f);
void bench_row_csv(const bench_t *b, const bench_row_t *r, FILE *f);
/* A row's fields as members of the JSON object being written. */
void bench_row_json(const bench_t *b, const bench_row_t *r, json_writer_t *j);
/* Table t's column headings (" %*s" each) for the rows of workload wk, and a row's cells:
 * the caller writes the row's label before and the line's end after. */
void bench_row_text_head(const bench_t *b, bench_table_t t, int wk, FILE *out);
void bench_row_text(const bench_t *b, const bench_row_t *r, bench_table_t t, FILE *out);
/* The legend of the drivers' own figures, a line each ("  head      what it is"). */
void bench_row_legend(FILE *out);

/* threads.csv: the header line, and thread k of run r; and thread k as a JSON object. */
void bench_thread_csv_head(FILE *f);
void bench_thread_csv(const bench_run_t *r, int k, FILE *f);
void bench_thread_json(const bench_run_t *r, int k, json_writer_t *j);
/* Thread k's share of its own time spent on `part` (NAN without the profile). */
double bench_thread_share(const bench_run_t *run, int k, double part);

/* runs.csv: the header line, and run r's line. And run r as a JSON object, whose nested
 * parts `arrays` writes (where the CSV has the column thread_nodes). */
void bench_run_csv_head(FILE *f);
void bench_run_csv(const bench_t *b, const bench_run_t *r, FILE *f);
typedef void bench_run_arrays_fn(json_writer_t *j, const bench_t *b, const bench_run_t *r);
void bench_run_json(const bench_t *b, const bench_run_t *r, json_writer_t *j,
                    bench_run_arrays_fn *arrays);

/* The per-rank table of a cluster run: its heading line, and rank k's line (p its sums);
 * and rank k as a JSON object (the members of each run's "ranks"). */
void bench_rank_text_head(FILE *out);
void bench_rank_text(const bench_rank_t *p, int k, FILE *out);
void bench_rank_json(const bench_rank_t *p, int k, json_writer_t *j);

/* v in printf format fmt, or "n/a" for NAN; nodes or node rates with a unit (12.3 M,
 * 456 k), or "n/a"; a CSV cell ",v" in fmt, or ",n/a". */
const char *bench_cell(char *buf, size_t size, const char *fmt, double v);
const char *bench_si(char *buf, size_t size, double v);
void bench_csv_num(FILE *f, const char *fmt, double v);

#endif /* CUTOFF_LAB_FIELDS_H */
