/* SPDX-License-Identifier: MIT */
/*
 * bench.h — the one header of the lab (src/lab/) for the rest of the command line: the
 * sweep of `cutoff bench` (bench_main), which `cutoff sim` runs on virtual threads through
 * the lab's own runner (virtual.h), and the workloads' single runs that `cutoff sim
 * --calibrate` measures (cli/cmd_calibrate.c). The command `cutoff bench` is cli/cmd_bench.c.
 *
 * The module's files, each calling only those below it:
 *
 *   virtual.c    the runner on virtual threads (cutoff-sim only): a simulator per run,
 *                the cost model, a cluster row's simulated ranks
 *   calibrate.c  the cost model measured with real threads (the real cutoff only)
 *   bench.c      the command: options, the sweep, --hog, the report folder
 *   jobs.c       `cutoff sim`'s runs: here, or on --jobs processes merged in the sweep's
 *                order; the progress line with the time left
 *   text.c       report.txt, also printed: the header and each workload's tables
 *   files.c      results.json, results.csv, runs.csv, threads.csv, positions.csv,
 *                quality.csv, quality-positions.csv (bench.c's write_report lists every
 *                file with its writer; work.c writes chess-positions.txt and
 *                searches.txt, plots.c the plots' files)
 *   plots.c      the plots' data, plots.gp, and gnuplot when it is found
 *   folder.c     the report folder: made and checked before the sweep, the names of
 *                its files and their list (report-files.txt), --replace
 *   fields.c     a row's figures and a thread's, each described once (name, unit,
 *                formats, source), walked by the text tables, the CSV and the JSON
 *   rows.c       the rows: each setting's runs made into medians and derived figures
 *   stockfish.c  Stockfish over UCI, on the same chess positions and thread counts
 *   ceiling.c    the probes' figures in the report, and each workload's ceiling
 *   work.c       the workloads (chess, connect4, rtree) and one measured run of one
 *                setting over a workload's positions; bench_take() is the one place
 *                that reads a search's figures out of the library
 *   probe.c      the machine's ceilings, measured before each repeat: a compute loop,
 *                shared-array reads and writes at each table size, per-CPU latency
 *   common.c     the workloads' and engines' names, the progress line, the errors'
 *                record (bench_fail), the build
 *   types.h      the types they share (no code of its own): the sweep's state,
 *                bench_t, in parts by lifetime, and bench_error_t, how the lab's
 *                errors come back to the command as values
 */
#ifndef CUTOFF_LAB_BENCH_H
#define CUTOFF_LAB_BENCH_H

#include "lab/common.h" /* the workloads' names */
#include "lab/types.h"
#include "lab/work.h" /* the workloads and runs that virtual.c and calibrate.c drive */

/* The command `cmd` (bench, or sim with its own usage, options and hooks: `extra` options
 * are parsed beside the bench's, then `ready(sim->ctx)` runs before anything else is
 * done; it returns an exit status, CLI_EXIT_OK to go on). Returns the exit status. A
 * failure's message is not printed but recorded in *err (empty when called; its `print`
 * the command's printer): types.h says how, and the command prints it. The parsers of the
 * command-line kit (cli_parse, cli_parse_names, cli_parse_int, cli_open_input,
 * cli_cluster_start) still print their own line, as for every command. */
struct cli_opt;
int bench_main(const char *cmd, const char *usage, int argc, char **argv,
               const struct cli_opt *extra, int nextra, bench_sim_t *sim,
               int (*ready)(void *ctx, struct bench *b), bench_error_t *err);

/* The 1-minute load average (NAN when /proc/loadavg cannot be read), and the CPU's model
 * name from /proc/cpuinfo ("unknown CPU" otherwise): the header of every report, and
 * beside each figure of `cutoff sim --calibrate`. */
double bench_load_average(void);
void bench_cpu_model(char *buf, size_t size);

#endif /* CUTOFF_LAB_BENCH_H */
