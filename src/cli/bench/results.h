/*
 * results.h — what `cutoff bench` makes of its runs (results.c): the rows, the text
 * table, results.json, the CSV files and the plots.
 */
#ifndef CUTOFF_CLI_BENCH_RESULTS_H
#define CUTOFF_CLI_BENCH_RESULTS_H

#include "bench/types.h"

/* Derives the rows from the runs. */
void bench_derive(bench_t *b);
void bench_print_text(const bench_t *b, FILE *out);
bool bench_write_json(const bench_t *b, const char *path);
bool bench_write_csv(const bench_t *b, const char *rows_path, const char *runs_path,
                     const char *threads_path);
/* positions.csv: one line per position of every run (nodes, time, depth, move, value). */
bool bench_write_positions_csv(const bench_t *b, const char *path);
/* Draws the plots with gnuplot when it is found; b->plot_note says what happened. */
void bench_plots(bench_t *b);

#endif /* CUTOFF_CLI_BENCH_RESULTS_H */
