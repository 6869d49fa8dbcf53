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
 * In cutoff-sim it is the sweep of `cutoff bench` (bench/bench.c) on virtual threads: the
 * same workloads, drivers, figures and report files, with the simulator's own figures
 * beside them, and the times virtual.
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
#include <pthread.h>

#include "cluster/cluster.h" /* cutoff_cluster_make: the protocol over the simulated network */
#include "cluster/transport_sim.h"
#include "kit/ranks.h"
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

#include "sim/sim.h"

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

static const char *const schedule_names[] = { "clock", "random", NULL };

typedef struct sim_cli {
	const char *model_path;
	int schedule;
	uint64_t seed;
	int64_t jobs; /* --jobs; 0: not given (the CPUs of the affinity mask) */
	cutoff_sim_model_t model;
	cutoff_sim_t *sim;
	bench_sim_t *hooks;
	double t0; /* cli_now_s() at the run's start */
} sim_cli_t;

static void deadlock(const char *what, void *arg)
{
	const sim_cli_t *s = arg;
	fprintf(stderr, "cutoff sim: %s (schedule %s, seed %" PRIu64 ")\n", what,
	        schedule_names[s->schedule], s->seed);
	abort();
}

static int ready(void *ctx, bench_t *b)
{
	(void)b;
	sim_cli_t *s = ctx;
	cutoff_sim_model_default(&s->model);
	if (s->model_path) {
		char err[512];
		if (!cutoff_sim_model_read(s->model_path, &s->model, err, sizeof(err))) {
			cli_error("sim", "--cost-model: %s", err);
			return CLI_EXIT_USAGE;
		}
	}
	s->sim = cutoff_sim_new(&s->model, (cutoff_sim_schedule_t)s->schedule, s->seed);
	if (!s->sim) {
		cli_error("sim", "out of memory");
		return CLI_EXIT_FAIL;
	}
	cutoff_sim_on_deadlock(s->sim, deadlock, s);
	const int cpus = cli_usable_cpus();
	s->hooks->jobs = s->jobs > 0 ? (int)s->jobs : cpus < BENCH_MAX_JOBS ? cpus : BENCH_MAX_JOBS;
	const cutoff_sim_model_t *m = &s->model;
	snprintf(s->hooks->model, sizeof(s->hooks->model),
	         "cost model %s: node chess %.1f, connect4 %.1f, rtree %.1f ns; table probe "
	         "%.1f, store %.1f, +%.1f into another's, seen after %.1f; lock %.1f, +%.1f "
	         "hand-off; spin look %.1f; split %.1f, join %.1f; wake %.1f, start %.1f; "
	         "quantum %.1f ns; lines: transfer %.1f, atomic %.1f, %d socket(s), +%.1f "
	         "across; ranks' messages %.1f ns, barriers every %.1f ns; schedule %s",
	         s->model_path ? s->model_path : "built in (this machine's)",
	         (double)(m->node_chess ? m->node_chess : m->node) / 1e3,
	         (double)(m->node_connect4 ? m->node_connect4 : m->node) / 1e3,
	         (double)(m->node_rtree ? m->node_rtree : m->node) / 1e3, (double)m->tt_probe / 1e3,
	         (double)m->tt_store / 1e3, (double)m->tt_store_other / 1e3,
	         (double)m->tt_visible / 1e3, (double)m->lock / 1e3, (double)m->lock_handoff / 1e3,
	         (double)m->spin / 1e3, (double)m->split / 1e3, (double)m->join / 1e3,
	         (double)m->wake / 1e3, (double)m->start / 1e3, (double)m->quantum / 1e3,
	         (double)m->line_transfer / 1e3, (double)m->atomic / 1e3,
	         m->sockets >= 2000 ? (int)(m->sockets / 1000) : 1, (double)m->numa_transfer / 1e3,
	         (double)m->net_latency / 1e3,
	         (double)cutoff_net_epoch(m->net_latency, m->net_epoch) / 1e3,
	         schedule_names[s->schedule]);
	if (s->schedule == CUTOFF_SIM_RANDOM) {
		size_t used = strlen(s->hooks->model);
		snprintf(s->hooks->model + used, sizeof(s->hooks->model) - used, ", seed %" PRIu64,
		         s->seed);
	}
	cutoff_sim_install(s->sim);
	return CLI_EXIT_OK;
}

/* Every run is simulated on a simulator of its own, made afresh: so a run starts from the
 * same state in any process and after any other run (--jobs, bench/jobs.c). Its virtual
 * clock starts at RUN_START_NS, not 0: a real monotonic clock never reads 0, and the
 * library's profiler takes a thread whose start reads 0 for one that took no part in the
 * search (engine.c, measure_span). Repeat r runs with seed + r - 1: the repeats are the
 * same run under other draws of the node costs' jitter (and of the random schedule). */
enum {
	RUN_START_NS = 1000000000
};

static bool before(void *ctx, const bench_t *b, bench_run_t *run)
{
	(void)b;
	sim_cli_t *s = ctx;
	cutoff_sim_model_t m = cutoff_sim_model_for(&s->model, bench_workload_names[run->workload]);
	cutoff_sim_t *sim = cutoff_sim_new(&m, (cutoff_sim_schedule_t)s->schedule,
	                                   s->seed + (uint64_t)run->repeat - 1);
	if (!sim) {
		cli_error("sim", "out of memory");
		return false;
	}
	cutoff_sim_on_deadlock(sim, deadlock, s);
	cutoff_sim_advance_to(sim, RUN_START_NS);
	cutoff_sim_install(sim);
	cutoff_sim_free(s->sim);
	s->sim = sim;
	s->t0 = cli_now_s();
	return true;
}

/* ---- ranks: a cluster of simulated engines on a simulated network (cluster/transport_sim.h) ------- */

/* One simulated rank other than 0: its own OS thread, simulator, engine and cluster. */
typedef struct rank_job {
	const sim_cli_t *s;
	const bench_t *b; /* rank 0's, read-only here */
	const bench_run_t *run0;
	cutoff_net_t *net;
	int rank;
	uint64_t start_ns;
	cutoff_sim_model_t model;
	uint64_t seed;
	bool ok;
	pthread_t thread;
} rank_job_t;

/* Rank r's cluster on the network, wrapped for the bench (cli_cluster_over). */
static cli_cluster_t *rank_cluster(cutoff_net_t *net, int rank)
{
	cutoff_transport_t tp;
	cutoff_net_transport(net, rank, &tp);
	int err;
	cutoff_cluster_t *cl = cutoff_cluster_make(&tp, NULL, &err);
	const cli_cluster_opts_t o = { 0, 0, -1 };
	cli_cluster_t *cc = cl ? cli_cluster_over(cl, &o) : NULL;
	if (cl && !cc)
		cutoff_cluster_free(cl);
	return cc;
}

static void *rank_main(void *arg)
{
	rank_job_t *j = arg;
	cutoff_sim_t *sim =
		cutoff_sim_new(&j->model, (cutoff_sim_schedule_t)j->s->schedule, j->seed);
	if (sim) {
		cutoff_sim_on_deadlock(sim, deadlock, (void *)j->s);
		cutoff_sim_install(sim);
		cutoff_sim_advance_to(sim, j->start_ns);
		bench_t b = *j->b; /* shares the positions; its own cluster */
		b.cluster = rank_cluster(j->net, j->rank);
		bench_run_t run;
		j->ok = b.cluster &&
		        bench_run_alloc(&b, &run, j->run0->workload, false, j->run0->driver,
		                        j->run0->threads, j->run0->repeat);
		if (j->ok) {
			j->ok = bench_run(&b, &run);
			bench_run_free(&run);
		}
		cutoff_net_leave(j->net, j->rank);
		cli_cluster_end(b.cluster);
		cutoff_sim_install(NULL);
		cutoff_sim_free(sim);
	} else {
		cutoff_net_leave(j->net, j->rank);
	}
	return NULL;
}

/* A cluster row's run (bench_sim_t.cluster_run): R ranks from this simulator's time,
 * rank 0 on this thread into `run`, the others on their own threads with the same model
 * and their own seeds. Every rank's searches are the same collective calls, so they run
 * in step, and the network's barriers keep their virtual times together. */
static bool cluster_run(void *ctx, bench_t *b, bench_run_t *run)
{
	sim_cli_t *s = ctx;
	const int ranks = run->nranks;
	const cutoff_sim_model_t *m = cutoff_sim_model(s->sim);
	const uint64_t start = cutoff_sim_time_ns(s->sim);
	cutoff_net_t *net = cutoff_net_new(ranks, m->net_latency / 1000,
	                                   m->net_epoch / 1000 ? m->net_epoch / 1000 : 1, start);
	rank_job_t *jobs = calloc((size_t)ranks, sizeof(*jobs));
	if (!net || !jobs) {
		cli_error("sim", "out of memory");
		cutoff_net_free(net);
		free(jobs);
		return false;
	}
	uint64_t seed = s->seed + (uint64_t)run->repeat - 1;
	int started = 1;
	for (int r = 1; r < ranks; r++) {
		jobs[r] = (rank_job_t){ .s = s,
			                .b = b,
			                .run0 = run,
			                .net = net,
			                .rank = r,
			                .start_ns = start,
			                .model = *m,
			                .seed = seed + 0x9e3779b97f4a7c15u * (uint64_t)r };
		if (pthread_create(&jobs[r].thread, NULL, rank_main, &jobs[r]) != 0) {
			cli_error("sim", "cannot start the thread of simulated rank %d", r);
			for (int q = r; q < ranks; q++)
				cutoff_net_leave(net, q); /* never to come */
			break;
		}
		started++;
	}
	b->cluster = started == ranks ? rank_cluster(net, 0) : NULL;
	bool ok = b->cluster && bench_run(b, run);
	cutoff_net_leave(net, 0);
	cli_cluster_end(b->cluster);
	b->cluster = NULL;
	for (int r = 1; r < started; r++) {
		pthread_join(jobs[r].thread, NULL);
		ok &= jobs[r].ok;
	}
	free(jobs);
	cutoff_net_free(net);
	return ok;
}

static void after(void *ctx, const bench_t *b, bench_run_t *run)
{
	(void)b;
	sim_cli_t *s = ctx;
	cutoff_sim_stats_t st;
	cutoff_sim_stats(s->sim, &st);
	run->sim_work_s = (double)st.work / 1e12;
	run->sim_span_s = st.span_partial ? NAN : (double)st.span / 1e12;
	run->sim_switches = (double)st.switches;
	run->sim_real_s = cli_now_s() - s->t0;
}

int cli_sim(int argc, char **argv)
{
	static sim_cli_t s;
	static bench_sim_t hooks;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--calibrate") || !strncmp(argv[i], "--calibrate=", 12))
			return sim_calibrate(argc, argv); /* says to run the real `cutoff` */
	memset(&s, 0, sizeof(s));
	s.seed = 1;
	cli_opt_t extra[] = {
		{ .name = "cost-model", .kind = CLI_STRING, .dest.s = &s.model_path },
		{ .name = "schedule",
		  .kind = CLI_CHOICE,
		  .dest.choice = &s.schedule,
		  .choices = schedule_names },
		{ .name = "seed", .kind = CLI_UINT64, .dest.u = &s.seed },
		{ .name = "jobs",
		  .kind = CLI_INT,
		  .dest.i = &s.jobs,
		  .min = 1,
		  .max = BENCH_MAX_JOBS },
	};
	hooks = (bench_sim_t){
		.ctx = &s, .before = before, .after = after, .cluster_run = cluster_run
	};
	s.hooks = &hooks;
	int status = bench_main("sim", sim_usage, argc, argv, extra,
	                        (int)(sizeof(extra) / sizeof(extra[0])), &hooks, ready);
	if (s.sim) {
		cutoff_sim_install(NULL);
		cutoff_sim_free(s.sim);
	}
	return status;
}

#endif /* CUTOFF_SIM */
