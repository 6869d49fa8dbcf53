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
#include "sim/sim.h"
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
	"       cutoff sim --calibrate FILE [--workload LIST] [--positions K]\n"
	"\n"
	"Runs the library's drivers, table and search, unchanged, on N virtual threads: one\n"
	"OS thread switches between them as coroutines, in virtual time, under a cost model\n"
	"(what a node, a table store into a line another thread wrote, a lock, a wake-up...\n"
	"cost). The same workload, thread count, seed and model give the same nodes and\n"
	"times, bit for bit. The report is cutoff bench's (speed-up, efficiency, overhead,\n"
	"where each thread's time went, YBW's splits, ABDADA's deferrals, depths), every time\n"
	"virtual, with the work/span of each run beside it. docs/simulation.md. The options\n"
	"are cutoff bench's (where a simulation differs, the text says so), then the\n"
	"simulation's own.\n";
/* clang-format on */

/* --cost-model's help: the model's field names, their units and least values, from the
 * table that reads the file (sim/model.c). */
static void cost_model_help(char *buf, size_t size)
{
	static const char *const unit[] = { [CUTOFF_SIM_NS] = "",
		                            [CUTOFF_SIM_PERCENT] = " (a percentage)",
		                            [CUTOFF_SIM_COUNT] = " (a count)" };
	char least[256] = "";
	size_t n = (size_t)snprintf(buf, size,
	                            "the cost model ('name nanoseconds' lines; --calibrate writes "
	                            "one); default: this machine's, built in "
	                            "(docs/simulation.md). Names:");
	size_t nl = 0;
	for (int i = 0; i < cutoff_sim_nfields && n < size; i++) {
		const cutoff_sim_field_t *f = &cutoff_sim_fields[i];
		n += (size_t)snprintf(buf + n, size - n, " %s%s", f->name, unit[f->unit]);
		if (f->least && nl < sizeof(least))
			nl += (size_t)snprintf(least + nl, sizeof(least) - nl,
			                       "%s%s at least %g ns", nl ? " and " : "; ", f->name,
			                       (double)f->least / 1000);
	}
	if (n < size)
		snprintf(buf + n, size - n,
		         " (net_*: simulated ranks, --drivers cluster). Values 0..1e9 ns%s "
		         "(below, the simulation crawls)",
		         least);
}

int cli_sim(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--calibrate") || !strncmp(argv[i], "--calibrate=", 12))
			return sim_calibrate(argc, argv); /* says to run the real `cutoff` */
	bench_virtual_opts_t o = { .seed = 1 };
	const char *calibrate = NULL; /* never parsed: --calibrate is taken above */
	char cost_model[1024];
	cost_model_help(cost_model, sizeof(cost_model));
	cli_opt_t extra[] = {
		CLI_STRING_OPT("cost-model", &o.model_path, "FILE", cost_model),
		CLI_STRING_OPT("calibrate", &calibrate, "FILE",
		               "measure this machine (real threads) and write its cost model into "
		               "FILE, then stop ('cutoff sim --calibrate FILE --help')"),
		CLI_CHOICE_OPT("schedule", &o.schedule, bench_schedule_names,
		               "clock: the earliest virtual thread runs; random: a seeded random "
		               "choice among the runnable ones at every shared-memory access (to "
		               "test; its times mean little); default %d"),
		{ .name = "seed",
		  .kind = CLI_UINT64,
		  .dest.u = &o.seed,
		  .arg = "S",
		  .help = "the seed of the node costs' jitter and of the random schedule, %r; "
		          "default %d" },
		CLI_INT_OPT(
			"jobs", &o.jobs, 1, BENCH_MAX_JOBS, "N",
			"measure the runs (a run: one driver at one thread count, one repeat, "
			"over the positions) on N processes, %r, each simulating one run at a "
			"time, the longest expected first; the report is merged in the sweep's "
			"order, and every virtual figure is the same as with --jobs 1 (only the "
			"real seconds differ); simulated ranks (--drivers cluster) too; "
			"default: the CPUs this process may run on; 1: this process alone"),
	};
	bench_error_t err = { .print = cli_error_text };
	int status = bench_sim_main("sim", sim_usage, argc, argv, extra,
	                            (int)(sizeof(extra) / sizeof(extra[0])), &o, &err);
	for (const char *m = NULL; (m = bench_error_next(&err, m));)
		cli_error("sim", "%s", m);
	return status;
}

#endif /* CUTOFF_SIM */
