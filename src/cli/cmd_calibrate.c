/* SPDX-License-Identifier: MIT */
/*
 * cmd_calibrate.c — `cutoff sim --calibrate FILE`: this machine's cost model for the
 * simulator, measured with real threads (the lab's bench_calibrate, lab/calibrate.c, which
 * says what is measured and how), written as a cost model file.
 *
 * It runs in the real `cutoff` (cmd_sim.c hands it --calibrate before it would run
 * cutoff-sim): the figures are of this machine's threads, caches and kernel, which the
 * simulated library cannot see. Each figure is printed as it is measured, with the load
 * average then, and the file is written only when all are done (it is opened first, so
 * that a path that cannot be written fails before minutes of measuring). A failure of the
 * lab comes back as its error (bench_error_t) and is printed here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "kit/args.h"
#include "lab/bench.h"

#ifndef CUTOFF_SIM
#include "lab/calibrate.h"

/* clang-format off */
static const char calibrate_usage[] =
	"usage: cutoff sim --calibrate FILE [--workload LIST] [--positions K]\n"
	"\n"
	"Measures this machine with real threads and writes its cost model for the\n"
	"simulator into FILE ('name nanoseconds' lines, what --cost-model reads): each\n"
	"workload's time per node of the serial search at one thread (the median of 3\n"
	"runs of cutoff bench's positions) and, with two threads pinned to two CPUs, a\n"
	"store into a line the other core wrote last, a counter's line handed between\n"
	"them, a free lock and its hand-off from the other core, an atomic, a futex\n"
	"wake-up, the pool's hand-over, and YBW's split point made and joined; a pause\n"
	"instruction. Each figure is printed as it is measured,\n"
	"with the load average: calibrate on a quiet machine. docs/simulation.md.\n";
/* clang-format on */

/* ------------------------------------------------------------------------------------ */
/* The command */

/* The file's comment: when, where, the load, and the command that wrote it. */
static void file_comment(char *buf, size_t size, double load0, int argc, char **argv)
{
	char date[40], model[128];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm);
	bench_cpu_model(model, sizeof(model));
	int n = snprintf(buf, size, "calibrated %s on %s (%ld CPUs), load %.2f .. %.2f: cutoff",
	                 date, model, sysconf(_SC_NPROCESSORS_ONLN), load0, bench_load_average());
	for (int i = 0; i < argc && n > 0 && (size_t)n < size; i++)
		n += snprintf(buf + n, size - (size_t)n, " %s", argv[i]);
}

int sim_calibrate(int argc, char **argv)
{
	const char *path = NULL, *workload_text = "chess,connect4,rtree";
	int64_t positions = 0;
	char workload_help[192], words[64];
	snprintf(workload_help, sizeof(workload_help),
	         "the workloads whose node cost is measured, among %s; default all three; the "
	         "others keep the built-in figure",
	         bench_workload_words(words, sizeof(words)));
	cli_opt_t opts[] = {
		CLI_STRING_OPT("calibrate", &path, "FILE",
		               "where the model goes (written once everything is measured)"),
		CLI_STRING_OPT("workload", &workload_text, "LIST", workload_help),
		CLI_INT_OPT("positions", &positions, 1, BENCH_MAX_ITEMS, "K",
		            "the first K positions of each workload, %r; default all of cutoff "
		            "bench's"),
	};
	cli_status_t st = cli_parse("sim", calibrate_usage, opts,
	                            (int)(sizeof(opts) / sizeof(opts[0])), argc, argv);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);
	bool asked[BENCH_NWORKLOADS];
	if (!path || !*path) {
		cli_error("sim", "--calibrate: expected the file to write, got ''");
		return CLI_EXIT_USAGE;
	}
	if (!cli_parse_names("sim", "workload", workload_text, bench_workload_names, asked,
	                     BENCH_NWORKLOADS))
		return CLI_EXIT_USAGE;
	char q[CLI_QUOTE_SIZE];
	FILE *f = fopen(path, "w");
	if (!f) {
		cli_error("sim", "--calibrate %s: cannot write it: %s",
		          cli_quote(q, sizeof(q), path), strerror(errno));
		return CLI_EXIT_USAGE;
	}
	double load0 = bench_load_average();
	char model[128];
	bench_cpu_model(model, sizeof(model));
	printf("cutoff sim --calibrate: %s, %ld CPUs, load %.2f\n", model,
	       sysconf(_SC_NPROCESSORS_ONLN), load0);
	cutoff_sim_model_t m;
	cutoff_sim_model_default(&m);
	bench_error_t err = { .print = cli_error_text };
	if (!bench_calibrate(&m, asked, positions, &err)) {
		for (const char *e = NULL; (e = bench_error_next(&err, e));)
			cli_error("sim", "%s", e);
		fclose(f);
		remove(path);
		return CLI_EXIT_FAIL;
	}
	char comment[1024];
	file_comment(comment, sizeof(comment), load0, argc, argv);
	cutoff_sim_model_write(f, &m, comment);
	bool ok = fflush(f) == 0 && !ferror(f);
	ok = fclose(f) == 0 && ok;
	if (!ok) {
		cli_error("sim", "--calibrate %s: cannot write it: %s",
		          cli_quote(q, sizeof(q), path), strerror(errno));
		remove(path);
		return CLI_EXIT_FAIL;
	}
	printf("cost model written to %s\n", path);
	return CLI_EXIT_OK;
}

#else /* CUTOFF_SIM: cutoff-sim measures no real machine */

int sim_calibrate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("sim", "--calibrate: run it with the real cutoff, which measures this machine "
	                 "(cutoff-sim's threads are virtual)");
	return CLI_EXIT_USAGE;
}

#endif /* CUTOFF_SIM */
