/* SPDX-License-Identifier: MIT */
/*
 * cmd_topo.c — `cutoff topo`: what hwloc sees of the CPUs this process may use, and where an
 * engine with N threads under a placement policy would put each of them. The plan is the
 * library's own (cutoff_topology_plan), the one the engine binds its workers by, so this
 * is the way to see it before a run, on this machine or on a synthetic one described by
 * HWLOC_SYNTHETIC.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cutoff.h"
#include "kit/args.h"
#include "kit/json.h"
#include "kit/report.h"

static const char topo_usage[] =
	"usage: cutoff topo [--threads N] [--placement POLICY] [--json]\n"
	"\n"
	"Prints the packages, NUMA nodes, cores and PUs (hardware threads) this process may\n"
	"use, as hwloc sees them, and the PU each thread of an engine would be bound to.\n"
	"Thread 0 is the caller, never bound; workers 1..N-1 take the plan's slots 1..N-1,\n"
	"wrapping around when there are more threads than PUs. HWLOC_SYNTHETIC (for instance\n"
	"\"package:2 numa:2 core:4 pu:2\") describes a machine to plan for instead of this one.\n";

typedef struct topo_plan {
	int threads;
	cutoff_placement_t policy;
	cutoff_topology_info_t info;
	int pu[CUTOFF_MAX_THREADS], core[CUTOFF_MAX_THREADS];
	int package[CUTOFF_MAX_THREADS], numa[CUTOFF_MAX_THREADS];
} topo_plan_t;

static int print_json(const topo_plan_t *p)
{
	json_writer_t w;

	jw_init(&w, stdout);
	jw_begin_object(&w, NULL);
	jw_int(&w, "packages", p->info.packages);
	jw_int(&w, "numa_nodes", p->info.numa_nodes);
	jw_int(&w, "cores", p->info.cores);
	jw_int(&w, "pus", p->info.pus);
	jw_int(&w, "threads", p->threads);
	jw_string(&w, "placement", cli_placement_names[p->policy]);
	jw_begin_array(&w, "plan");
	for (int i = 0; i < p->threads; i++) {
		jw_begin_object(&w, NULL);
		jw_int(&w, "thread", i);
		jw_int(&w, "pu", p->pu[i]);
		jw_int(&w, "core", p->core[i]);
		jw_int(&w, "package", p->package[i]);
		jw_int(&w, "numa", p->numa[i]);
		jw_end(&w);
	}
	jw_end(&w);
	jw_end(&w);
	return cli_json_finish(&w, "topo");
}

/* " (core 3, package 0, NUMA 1)", leaving out what hwloc does not know. */
static void where(char *buf, size_t size, int core, int package, int numa)
{
	const char *names[] = { "core", "package", "NUMA" };
	const int values[] = { core, package, numa };
	size_t used = 0;
	int shown = 0;

	buf[0] = '\0';
	for (int k = 0; k < 3 && used < size; k++) {
		if (values[k] < 0)
			continue;
		used += (size_t)snprintf(buf + used, size - used, "%s%s %d", shown ? ", " : " (",
		                         names[k], values[k]);
		shown++;
	}
	if (shown && used < size)
		snprintf(buf + used, size - used, ")");
}

static void print_text(const topo_plan_t *p)
{
	const char *synthetic = getenv("HWLOC_SYNTHETIC");
	char q[CLI_QUOTE_SIZE], place[80];
	int width = 1;

	if (synthetic && synthetic[0])
		cli_field(stdout, "topology", "HWLOC_SYNTHETIC=%s",
		          cli_quote(q, sizeof(q), synthetic));
	cli_field(stdout, "packages", "%d", p->info.packages);
	cli_field(stdout, "NUMA nodes", "%d", p->info.numa_nodes);
	cli_field(stdout, "cores", "%d", p->info.cores);
	cli_field(stdout, "PUs", "%d", p->info.pus);
	cli_field(stdout, "placement", "%s", cli_placement_names[p->policy]);
	cli_field(stdout, "threads", "%d", p->threads);
	for (int n = p->threads - 1; n >= 10; n /= 10)
		width++;
	for (int i = 0; i < p->threads; i++) {
		if (i == 0) {
			printf("thread %*d -> unbound (the caller)\n", width, i);
		} else if (p->pu[i] < 0) {
			printf("thread %*d -> unbound\n", width, i);
		} else {
			where(place, sizeof(place), p->core[i], p->package[i], p->numa[i]);
			printf("thread %*d -> PU %d%s\n", width, i, p->pu[i], place);
		}
	}
}

int cli_topo(int argc, char **argv)
{
	int64_t threads = 0;
	int placement = CUTOFF_PLACE_COMPACT;
	bool json = false;
	cli_opt_t opts[] = {
		CLI_THREADS_OPT(&threads, "threads, %r; default the number of PUs"),
		CLI_PLACEMENT_OPT(&placement,
		                  "none (unbound), compact (the cores of one package first, one "
		                  "thread per core before any second hardware thread) or scatter "
		                  "(round robin over NUMA nodes, or packages, one thread per core "
		                  "first); default %d"),
		CLI_FLAG_OPT("json", &json, "print one JSON object instead of the text report"),
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));

	cli_status_t st = cli_parse("topo", topo_usage, opts, nopts, argc, argv);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);

	topo_plan_t *p = malloc(sizeof(*p));
	if (!p) {
		cli_fail("topo", "cannot plan", CUTOFF_ENOMEM, NULL);
		return CLI_EXIT_FAIL;
	}
	int rc = cutoff_topology_describe(NULL, &p->info);
	if (rc < 0) {
		cli_fail("topo", "cannot read the topology", rc, NULL);
		free(p);
		return CLI_EXIT_FAIL;
	}
	if (!cli_given(opts, nopts, "threads")) {
		threads = p->info.pus;
		if (threads < 1)
			threads = 1;
		if (threads > CUTOFF_MAX_THREADS)
			threads = CUTOFF_MAX_THREADS;
	}
	p->threads = (int)threads;
	p->policy = (cutoff_placement_t)placement;
	rc = cutoff_topology_plan(NULL, p->threads, p->policy, p->pu, p->core, p->package, p->numa);
	if (rc < 0) {
		cli_fail("topo", "cannot plan the placement", rc, NULL);
		free(p);
		return CLI_EXIT_FAIL;
	}
	int status = CLI_EXIT_OK;
	if (json)
		status = print_json(p);
	else
		print_text(p);
	free(p);
	return status;
}
