/* SPDX-License-Identifier: MIT */
/*
 * plots.h — the plots of `cutoff bench` (plots.c).
 */
#ifndef CUTOFF_LAB_PLOTS_H
#define CUTOFF_LAB_PLOTS_H

#include "lab/types.h"

/* Writes the plots' data and script into the report folder and draws them with gnuplot
 * when it is found (--plot svg or png); b->res.plot_note says what happened. */
void bench_plots(bench_t *b);

#endif /* CUTOFF_LAB_PLOTS_H */
