/* SPDX-License-Identifier: MIT */
/*
 * rows.h — the rows of `cutoff bench` (rows.c): each setting's runs made into one row of
 * medians and derived figures.
 */
#ifndef CUTOFF_LAB_ROWS_H
#define CUTOFF_LAB_ROWS_H

#include "lab/types.h"

/* Derives b->res.rows from b->res.runs (and each row's ceiling, ceiling.c); b->res.nrows
 * stays 0 when out of memory. */
void bench_derive(bench_t *b);

/* The row of (workload, engine, threads) among the results' rows, or NULL. */
bench_row_t *bench_find_row(const bench_results_t *res, int workload, bool stockfish, int driver,
                            int threads);

#endif /* CUTOFF_LAB_ROWS_H */
