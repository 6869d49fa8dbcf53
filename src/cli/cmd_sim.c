/* SPDX-License-Identifier: MIT */
/*
 * cmd_sim.c — `cutoff sim`: the drivers on many virtual threads (docs/simulation.md).
 *
 * The command is two programs. The simulation needs the library compiled with its
 * simulated backend (CUTOFF_SIM: virtual threads, virtual time), which cannot live in the
 * same program as the real one (the same functions, twice), so the build makes a second
 * program, cutoff-sim, from the same command-line sources over the simulated library.
 * In `cutoff` this command runs `cutoff-sim sim ...` from the folder of its own binary,
 * except --calibrate, which measures the real machine and so runs here (cmd_calibrate.c).
 * In cutoff-sim it is the sweep of `cutoff bench` on virtual threads (the lab's
 * bench_sim_main, lab/virtual.c): the same workloads, drivers, figures and report files,
 * with the simulator's own figures beside them, and the times virtual. This file holds the
 * command's usage and its own options, and prints the error the lab returns; the lab does
 * the rest.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "kit/args.h"
#include "lab/bench.h"

#ifdef CUTOFF_SIM
#include "lab/virtual.h"
#endif

#ifndef CUTOFF_SIM

/* The folder of this program, from /proc/self/exe; false when it cannot be read. */
static bool own_dir(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	if (n <= 0 || (size_t)n >= size - 1)
		return false;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}

int cli_sim(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--calibrate") || !strncmp(argv[i], "--calibrate=", 12))
			return sim_calibrate(argc, argv);
	char dir[PATH_MAX], path[PATH_MAX + 16];
	if (!own_dir(dir, sizeof(dir))) {
		cli_error("sim", "cannot find the folder of this program (/proc/self/exe)");
		return CLI_EXIT_FAIL;
	}
	snprintf(path, sizeof(path), "%s/cutoff-sim", dir);
	if (access(path, X_OK) != 0) {
		cli_error("sim",
		          "%s is not there: the simulator was not built (it needs Boost.Context: "
		          "on Debian apt-get install libboost-context-dev, then build again)",
		          path);
		return CLI_EXIT_FAIL;
	}
	char **args = calloc((size_t)argc + 2, sizeof(*args));
	if (!args) {
		cli_error("sim", "out of memory");
		return CLI_EXIT_FAIL;
	}
	args[0] = path;
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i]; /* argv[0] is "sim": cutoff-sim's command */
	fflush(NULL);
	execv(path, args);
	cli_error("sim", "cannot run %s: %s", path, strerror(errno));
	free(args);
	return CLI_EXIT_FAIL;
}

#else /* CUTOFF_SIM: cutoff-sim */

/* clang-format off */
static const char sim_usage[] =
	"usage: cutoff sim [options]\n"
	"\n"
	"Runs the library's drivers, table and search, unchanged, on N virtual threads: one\n"
	"OS thread switches between them as coroutines, in virtual time, under a cost model\n"
	"(what a node, a table store into a line another thread wrote, a lock, a wake-up...\n"
	"cost). The same workload, thread count, seed and model give the same nodes and\n"
	"times, bit for bit. The report is cutoff bench's (speed-up, efficiency, overhead,\n"
	"where each thread's time went, YBW's splits, ABDADA's deferrals, depths), every time\n"
	"virtual, with the work/span of each run beside it. docs/simulation.md.\n"
	"\n"
	"  --cost-model FILE  the cost model ('name nanoseconds' lines; --calibrate writes\n"
	"                     one); default: this machine's, built in (docs/simulation.md).\n"
	"                     Names: node node.chess node.connect4 node.rtree node_jitter\n"
	"                     (a percentage) tt_probe tt_store tt_store_other tt_visible\n"
	"                     lock lock_handoff spin yield split join wake start quantum\n"
	"                     line_transfer atomic sockets (a count) numa_transfer\n"
	"                     net_latency net_epoch (simulated ranks: --drivers cluster).\n"
	"                     Values 0..1e9 ns; yield at least 10 ns and net_epoch at\n"
	"                     least 1000 ns (below, the simulation crawls)\n"
	"  --ranks LIST       with --drivers cluster: simulated ranks, 1..32 each (a row\n"
	"                     cluster/R: R engines on a simulated network, docs/simulation.md);\n"
	"                     default 1,2,4,8\n"
	"  --calibrate FILE   measure this machine (real threads) and write its cost model\n"
	"                     into FILE, then stop\n"
	"  --schedule S       clock: the earliest virtual thread runs (default); random: a\n"
	"                     seeded random choice among the runnable ones at every\n"
	"                     shared-memory access (to test; its times mean little)\n"
	"  --seed S           the seed of the node costs' jitter and of the random\n"
	"                     schedule, 0..2^64-1; default 1\n"
	"  --threads LIST     virtual thread counts, 1..1024; default 1,2,4,...,256\n"
	"  --repeat K         runs of every setting, with seeds S, S+1, .. S+K-1 (the report\n"
	"                     gives medians and spreads over them); default 1\n"
	"  --jobs N           measure the runs (a run: one driver at one thread count, one\n"
	"                     repeat, over the positions) on N processes, 1..256, each\n"
	"                     simulating one run at a time, the longest expected first; the\n"
	"                     report is merged in the sweep's order, and every virtual\n"
	"                     figure is the same as with --jobs 1 (only the real seconds\n"
	"                     differ); simulated ranks (--drivers cluster) too; default: the\n"
	"                     CPUs this process may run on; 1: this process alone\n"
	"\n"
	"and cutoff bench's options for the workloads, drivers and report: --drivers,\n"
	"--workload, --positions, --chess-file, --chess-depth, --connect4-file,\n"
	"--rtree-branching, --rtree-depth, --hash, --out (default a new sim-report-DATE; a\n"
	"folder that holds a report, or that another run is writing, is refused),\n"
	"--replace, --plot, --note, --no-progress, --placement and the drivers' options\n"
	"('cutoff bench --help'). The progress line on stderr says the runs done, the real\n"
	"time spent and the time left (estimated from the runs done, docs/simulation.md).\n"
	"--quality-ms MS and --quality-suite FILE: the quality runs on the virtual clock\n"
	"(MS virtual milliseconds a position; default 0, off). Not --stockfish or --hog: they\n"
	"measure the real machine.\n";
/* clang-format on */

int cli_sim(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--calibrate") || !strncmp(argv[i], "--calibrate=", 12))
			return sim_calibrate(argc, argv); /* says to run the real `cutoff` */
	bench_virtual_opts_t o = { .seed = 1 };
	cli_opt_t extra[] = {
		{ .name = "cost-model", .kind = CLI_STRING, .dest.s = &o.model_path },
		{ .name = "schedule",
		  .kind = CLI_CHOICE,
		  .dest.choice = &o.schedule,
		  .choices = bench_schedule_names },
		{ .name = "seed", .kind = CLI_UINT64, .dest.u = &o.seed },
		{ .name = "jobs",
		  .kind = CLI_INT,
		  .dest.i = &o.jobs,
		  .min = 1,
		  .max = BENCH_MAX_JOBS },
	};
	bench_error_t err = { .print = cli_error_text };
	int status = bench_sim_main("sim", sim_usage, argc, argv, extra,
	                            (int)(sizeof(extra) / sizeof(extra[0])), &o, &err);
	for (const char *m = NULL; (m = bench_error_next(&err, m));)
		cli_error("sim", "%s", m);
	return status;
}

#endif /* CUTOFF_SIM */
