/* SPDX-License-Identifier: MIT */
/*
 * cmd_bench.c — `cutoff bench`: how parallel search scales on this machine, the lab's
 * sweep on real threads (bench_main, lab/bench.h, which says what a sweep does). This
 * file holds the command's usage, and prints what the lab returned as its error.
 */
#include "cli/commands.h"
#include "kit/args.h"
#include "lab/bench.h"

/* clang-format off */
static const char bench_usage[] =
	"usage: cutoff bench [options]\n"
	"\n"
	"Measures how parallel search scales here: time to depth at each thread count for\n"
	"each driver, against the serial search at one thread on the same positions, with\n"
	"search overhead, node rates (whole and per thread), first-move cut-offs, effective\n"
	"branching factors, and, for chess, Stockfish beside it and the quality of the move\n"
	"at equal time. From the library's profiler: where each thread's time went\n"
	"(searching, idle, split wait, lock spin), node types, each driver's own counters\n"
	"(YBW's split points, ABDADA's deferred moves), the depths of threads that iterate\n"
	"(n/a when the library was built with CUTOFF_PROFILE=OFF).\n"
	"Before each repeat it measures the machine's ceilings: how a multiply loop, and\n"
	"random reads from and writes into one array of each workload's table size shared\n"
	"by the threads, scale at each thread count, and the latency of a load on each CPU;\n"
	"each speed-up is also given over the ceiling that applies to its workload.\n"
	"Prints the table, then writes a report folder (report.txt, results.json,\n"
	"results.csv, runs.csv, threads.csv, ceilings.csv, plots; report-files.txt lists\n"
	"them). A progress line goes to stderr. cutoff sim takes the same options (where a\n"
	"simulation differs, the text says so).\n";
/* clang-format on */

int cli_bench(int argc, char **argv)
{
	bench_error_t err = { .print = cli_error_text };
	int status = bench_main("bench", bench_usage, argc, argv, NULL, 0, NULL, NULL, &err);
	for (const char *m = NULL; (m = bench_error_next(&err, m));)
		cli_error("bench", "%s", m);
	return status;
}
