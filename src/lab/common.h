/* SPDX-License-Identifier: MIT */
/*
 * common.h — the few things every file of the lab uses (common.c): the names of
 * the workloads and engines in every output, the progress line on stderr, and the record
 * of the lab's errors (types.h, bench_error_t). It calls none of the module's other files,
 * so that all of them may call it.
 */
#ifndef CUTOFF_LAB_COMMON_H
#define CUTOFF_LAB_COMMON_H

#include "kit/args.h" /* cli_log_t */
#include "lab/types.h"

extern const char *const bench_workload_names[]; /* indexed by BENCH_CHESS.., NULL-ended */

/* The workloads' names as --help says them, "chess, connect4 and rtree", into buf; buf. */
const char *bench_workload_words(char *buf, size_t size);

/* The name of a run's or row's engine in every output: "stockfish", "cluster/R", or the
 * driver's. */
const char *bench_engine_name(bool stockfish, int driver);

/* One progress line on stderr, "cutoff CMD: ...", when b->set.progress is on: redrawn in place
 * on a terminal (b->set.progress_tty), one line each otherwise. */
void bench_progress(bench_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records one message of error in e (types.h, bench_error_t): what cli_error would print
 * after "cutoff CMD: ", formatted as printf does; one line, its user text quoted with
 * cli_quote. Cut short when e is full, never past it. */
void bench_fail(bench_error_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cli_fail's line recorded in e: "WHAT: cutoff_strerror(code)", and " (WARNING)" when log
 * is not NULL and holds the library's last warning. */
void bench_fail_code(bench_error_t *e, const char *what, int code, const cli_log_t *log);

/* The message recorded after `prev` (NULL: the first), or NULL after the last: how the
 * command reads them, in order. */
const char *bench_error_next(const bench_error_t *e, const char *prev);

/* Hands each message of e to e->print as the command `cmd`, then empties it: for the
 * ways out that never return to the command (types.h). Nothing without a printer. */
void bench_error_flush(bench_error_t *e, const char *cmd);

/* The messages recorded in `from` appended to e's (a thread's, once joined). */
void bench_error_append(bench_error_t *e, const bench_error_t *from);

/* Ends every rank of b's cluster with `status` (cli_cluster_abort): that never returns, so
 * the errors recorded are handed to the command's printer first (bench_error_flush). */
void bench_abort_cluster(bench_t *b, int status);

/* The median of v[0 .. n) (NANs left out); NAN when none is left. Sorts v. */
double bench_median(double *v, int n);

/* snprintf(buf, size, fmt, v) for a format of this command's constant tables (a field's,
 * a probe's): fmt must hold exactly one conversion, of a double (%f, %e or %g, with flags,
 * width and precision), and any text and %% around it; any other format writes "?" and
 * nothing is read past v. The one place where a format is not a literal (-Wformat=2).
 * Returns buf. */
const char *bench_format_double(char *buf, size_t size, const char *fmt, double v);

/* The quality runs of one driver at one thread count, summed: positions, moves equal to
 * the reference's best (with the Wilson interval at 95 % of their share), the mean
 * centipawn loss (--quality-suite; with the half-width of its 95 % interval, normal
 * approximation, NAN under 2 positions) and how many losses are bounds, the mean depth
 * and nodes. */
typedef struct bench_quality_sum {
	int n, agree, refs, bounds;
	double agree_lo, agree_hi;
	double loss, loss_half;
	double depth, nodes;
} bench_quality_sum_t;

/* False when no quality run has that driver and thread count. Reads the results only. */
bool bench_quality_sum(const bench_results_t *res, int driver, int threads,
                       bench_quality_sum_t *out);

/* a / b; NAN when either is NAN or b is not positive. */
double bench_ratio(double a, double b);

/* The build in words, for every report's header: version, compiler, optimisation, asserts,
 * and a warning when sanitized. */
void bench_build_text(char *buf, size_t size);

#endif /* CUTOFF_LAB_COMMON_H */
