/* SPDX-License-Identifier: MIT */
/*
 * stockfish.h — Stockfish beside cutoff in `cutoff bench` (stockfish.c): found, its depth
 * per position chosen, then run at each thread count over UCI.
 */
#ifndef CUTOFF_LAB_STOCKFISH_H
#define CUTOFF_LAB_STOCKFISH_H

#include "lab/types.h"

/* The Stockfish binary: `opt` (a path, "off", or NULL for auto: $STOCKFISH, `stockfish`
 * on the PATH, /usr/games/stockfish). Returns a path in buf, or NULL. */
const char *bench_sf_find(const char *opt, char *buf, size_t size);

/* Stockfish at each thread count of the sweep, on the chess positions: first its depth
 * per position (the depth whose time comes closest to our serial time, at one thread),
 * then one run per thread count and repeat. False after one line of error when Stockfish fails. */
bool bench_sf_calibrate(bench_t *b, const double *target_s);
bool bench_sf_run(bench_t *b, bench_run_t *run);

#endif /* CUTOFF_LAB_STOCKFISH_H */
