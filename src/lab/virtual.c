/* SPDX-License-Identifier: MIT */
/*
 * virtual.c — the lab's runner on virtual threads (cutoff-sim only): every run of the
 * sweep on a simulator of its own (sim/sim.h), the cost model read or built in, the
 * simulator's figures of each run (work, span, switches) taken after it, and a cluster
 * row's ranks as simulated engines on a simulated network (cluster/transport_sim.h).
 * bench_main drives it through bench_sim_t, the seam between the sweep and where its
 * runs' threads are (NULL: real threads); nothing here calls back into a command.
 *
 * State: one sim_cli_t per sweep (this file's, static in bench_sim_main: bench_main's
 * hooks point into it), written by the sweep's thread; a cluster row's rank threads read
 * it (the model, the schedule, the seed) and write only their own rank_job_t.
 */
#include "lab/virtual.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h" /* cutoff_cluster_make: the protocol over the simulated network */
#include "cluster/transport_sim.h"
#include "kit/args.h"
#include "kit/ranks.h"
#include "lab/bench.h"
#include "sim/sim.h"

const char *const bench_schedule_names[] = { "clock", "random", NULL };

typedef struct sim_cli {
	const bench_virtual_opts_t *o; /* the command's options, as parsed */
	const char *cmd;
	cutoff_sim_model_t model;
	cutoff_sim_t *sim;
	bench_sim_t *hooks;
	double t0; /* cli_now_s() at the run's start */
} sim_cli_t;

static void deadlock(const char *what, void *arg)
{
	const sim_cli_t *s = arg;
	fprintf(stderr, "cutoff %s: %s (schedule %s, seed %" PRIu64 ")\n", s->cmd, what,
	        bench_schedule_names[s->o->schedule], s->o->seed);
	abort();
}

static int ready(void *ctx, bench_t *b)
{
	sim_cli_t *s = ctx;
	cutoff_sim_model_default(&s->model);
	if (s->o->model_path) {
		char err[512];
		if (!cutoff_sim_model_read(s->o->model_path, &s->model, err, sizeof(err))) {
			bench_fail(b->err, "--cost-model: %s", err);
			return CLI_EXIT_USAGE;
		}
	}
	s->sim = cutoff_sim_new(&s->model, (cutoff_sim_schedule_t)s->o->schedule, s->o->seed);
	if (!s->sim) {
		bench_fail(b->err, "out of memory");
		return CLI_EXIT_FAIL;
	}
	cutoff_sim_on_deadlock(s->sim, deadlock, s);
	const int cpus = cli_usable_cpus();
	s->hooks->jobs = s->o->jobs > 0          ? (int)s->o->jobs
	                 : cpus < BENCH_MAX_JOBS ? cpus
	                                         : BENCH_MAX_JOBS;
	const cutoff_sim_model_t *m = &s->model;
	snprintf(s->hooks->model, sizeof(s->hooks->model),
	         "cost model %s: node chess %.1f, connect4 %.1f, rtree %.1f ns; table probe "
	         "%.1f, store %.1f, +%.1f into another's, seen after %.1f; lock %.1f, +%.1f "
	         "hand-off; spin look %.1f; split %.1f, join %.1f; wake %.1f, start %.1f; "
	         "quantum %.1f ns; lines: transfer %.1f, atomic %.1f, %d socket(s), +%.1f "
	         "across; ranks' messages %.1f ns, barriers every %.1f ns; schedule %s",
	         s->o->model_path ? s->o->model_path : "built in (this machine's)",
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
	         bench_schedule_names[s->o->schedule]);
	if (s->o->schedule == CUTOFF_SIM_RANDOM) {
		size_t used = strlen(s->hooks->model);
		snprintf(s->hooks->model + used, sizeof(s->hooks->model) - used, ", seed %" PRIu64,
		         s->o->seed);
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
	sim_cli_t *s = ctx;
	cutoff_sim_model_t m = cutoff_sim_model_for(&s->model, bench_workload_names[run->workload]);
	cutoff_sim_t *sim = cutoff_sim_new(&m, (cutoff_sim_schedule_t)s->o->schedule,
	                                   s->o->seed + (uint64_t)run->repeat - 1);
	if (!sim) {
		bench_fail(b->err, "out of memory");
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

/* ---- ranks: simulated engines on a simulated network (cluster/transport_sim.h) ---------- */

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
	bench_error_t err; /* its failures, appended to rank 0's once it is joined */
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
		cutoff_sim_new(&j->model, (cutoff_sim_schedule_t)j->s->o->schedule, j->seed);
	if (sim) {
		cutoff_sim_on_deadlock(sim, deadlock, (void *)j->s);
		cutoff_sim_install(sim);
		cutoff_sim_advance_to(sim, j->start_ns);
		bench_t b = *j->b; /* shares the positions; its own cluster and errors */
		b.err = &j->err;
		b.mpi.cluster = rank_cluster(j->net, j->rank);
		bench_run_t run;
		j->ok = b.mpi.cluster &&
		        bench_run_alloc(&b, &run, j->run0->workload, false, j->run0->driver,
		                        j->run0->threads, j->run0->repeat);
		if (j->ok) {
			j->ok = bench_run(&b, &run);
			bench_run_free(&run);
		}
		cutoff_net_leave(j->net, j->rank);
		cli_cluster_end(b.mpi.cluster);
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
		bench_fail(b->err, "out of memory");
		cutoff_net_free(net);
		free(jobs);
		return false;
	}
	uint64_t seed = s->o->seed + (uint64_t)run->repeat - 1;
	int started = 1;
	for (int r = 1; r < ranks; r++) {
		jobs[r] = (rank_job_t){ .s = s,
			                .b = b,
			                .run0 = run,
			                .net = net,
			                .rank = r,
			                .start_ns = start,
			                .model = *m,
			                .seed = seed + 0x9e3779b97f4a7c15u * (uint64_t)r,
			                .err = { .print = b->err->print } };
		if (pthread_create(&jobs[r].thread, NULL, rank_main, &jobs[r]) != 0) {
			bench_fail(b->err, "cannot start the thread of simulated rank %d", r);
			for (int q = r; q < ranks; q++)
				cutoff_net_leave(net, q); /* never to come */
			break;
		}
		started++;
	}
	b->mpi.cluster = started == ranks ? rank_cluster(net, 0) : NULL;
	bool ok = b->mpi.cluster && bench_run(b, run);
	cutoff_net_leave(net, 0);
	cli_cluster_end(b->mpi.cluster);
	b->mpi.cluster = NULL;
	for (int r = 1; r < started; r++) {
		pthread_join(jobs[r].thread, NULL);
		ok &= jobs[r].ok;
		bench_error_append(b->err, &jobs[r].err);
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

int bench_sim_main(const char *cmd, const char *usage, int argc, char **argv,
                   const struct cli_opt *extra, int nextra, const bench_virtual_opts_t *o,
                   bench_error_t *err)
{
	static sim_cli_t s;
	static bench_sim_t hooks;
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.cmd = cmd;
	hooks = (bench_sim_t){
		.ctx = &s, .before = before, .after = after, .cluster_run = cluster_run
	};
	s.hooks = &hooks;
	int status = bench_main(cmd, usage, argc, argv, extra, nextra, &hooks, ready, err);
	if (s.sim) {
		cutoff_sim_install(NULL);
		cutoff_sim_free(s.sim);
	}
	return status;
}
