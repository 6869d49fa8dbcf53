/* SPDX-License-Identifier: MIT */
/*
 * files.h — the report of `cutoff bench` for programs (files.c): results.json and the
 * CSV files.
 */
#ifndef CUTOFF_LAB_FILES_H
#define CUTOFF_LAB_FILES_H

#include "lab/types.h"

/* Each false when a file cannot be written (errno says why). */
bool bench_write_json(const bench_t *b, const char *path);
/* results.csv (the rows), runs.csv and threads.csv. */
bool bench_write_csv(const bench_t *b, const char *rows_path, const char *runs_path,
                     const char *threads_path);
/* positions.csv: one line per position of every run (nodes, time, depth, move, value). */
bool bench_write_positions_csv(const bench_t *b, const char *path);
/* quality.csv: a line per driver and thread count of the quality runs (their sums), and
 * quality-positions.csv: a line per quality run of one position. */
bool bench_write_quality_csv(const bench_t *b, const char *path);
bool bench_write_quality_positions_csv(const bench_t *b, const char *path);

#endif /* CUTOFF_LAB_FILES_H */
