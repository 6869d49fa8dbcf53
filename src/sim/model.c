/*
 * model.c — the cost model's fields, defaults and files (sim.h).
 *
 * A file is plain text: one `name value` a line, the value in nanoseconds (at most three
 * decimals: the simulator counts picoseconds; node_jitter alone is a percentage, kept in
 * thousandths the same way), `#` to the end of a line a comment, blank
 * lines ignored. A field not named keeps its default; a name twice, an unknown name, a
 * value that is not a number in [0, 1e9] ns are errors that name the line.
 *
 * The defaults are this machine's, from `cutoff sim --calibrate` (docs/simulation.md
 * gives the run): the node costs are a real serial search's time per node on each
 * workload, the others a measurement each (see the calibration). They are parameters of
 * the model, which a file replaces, not results.
 */
#include "sim/sim.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(f, what)                                                                             \
	{                                                                                          \
#f, offsetof(cutoff_sim_model_t, f), what                                          \
	}

const cutoff_sim_field_t cutoff_sim_fields[] = {
	FIELD(node, "one node, for a workload without its own"),
	{ "node.chess", offsetof(cutoff_sim_model_t, node_chess), "one node of chess" },
	{ "node.connect4", offsetof(cutoff_sim_model_t, node_connect4),
	  "one node of Connect Four" },
	{ "node.rtree", offsetof(cutoff_sim_model_t, node_rtree), "one node of a random tree" },
	FIELD(node_jitter, "PERCENT, not ns: a node costs node +- up to this share, uniform"),
	FIELD(tt_probe, "a table probe, beyond the node's own cost"),
	FIELD(tt_store, "a table store that writes, beyond the node's own cost"),
	FIELD(tt_store_other, "more, when another thread wrote the bucket last (coherence)"),
	FIELD(tt_visible, "a table write is seen by the other threads this much later"),
	FIELD(lock, "taking a free lock"),
	FIELD(lock_handoff, "more, when another thread released the lock last"),
	FIELD(spin, "one look of a spin-wait while it pauses (a pause instruction)"),
	FIELD(yield, "one look of a spin-wait after its pauses: a yield (a system call)"),
	FIELD(split, "making a split point and booking its helpers (YBW)"),
	FIELD(join, "a helper taking a split point's state (YBW)"),
	FIELD(wake, "from a wake-up to the sleeping thread running"),
	FIELD(start, "from the pool's hand-over to a worker running, and back"),
	FIELD(quantum, "how far a thread may run ahead of the earliest other (0: exact order)"),
	FIELD(net_latency, "a simulated cluster's message, from its send to deliverable"),
	FIELD(net_epoch, "a simulated cluster's ranks meet this often (latency rounds up to it)"),
};
const int cutoff_sim_nfields = (int)(sizeof(cutoff_sim_fields) / sizeof(cutoff_sim_fields[0]));

static uint64_t *field(cutoff_sim_model_t *m, int i)
{
	return (uint64_t *)((char *)m + cutoff_sim_fields[i].offset);
}

void cutoff_sim_model_default(cutoff_sim_model_t *m)
{
	/* Calibrated here (docs/simulation.md, "The default model"); picoseconds. From
	 * `cutoff sim --calibrate` on 2026-12-02 04:30 UTC, Intel Xeon (2 vCPUs, KVM), with
	 * 0.3 % of the CPUs used by anything else while it ran. */
	*m = (cutoff_sim_model_t){
		.node = 105051,
		.node_chess = 173092,
		.node_connect4 = 75990,
		.node_rtree = 105051,
		.node_jitter = 10000, /* 10 %: a modelling choice, docs/simulation.md */
		.tt_probe = 0,
		.tt_store = 0,
		.tt_store_other = 72595,
		.tt_visible = 0,
		.lock = 7088,
		.lock_handoff = 68912,
		.spin = 11080,
		.yield = 177104,
		.split = 86000,
		.join = 133000,
		.wake = 34090500,
		.start = 2197500,
		.quantum = 0,
		/* Ranks (sim/net.h): one 4 KiB batch one way between two ranks here
		 * (bench/mpi_probe.c, docs/cluster.md), and a lookahead of 50 us, a modelling
		 * choice: thread 0 polls about every 180 us of chess anyway. */
		.net_latency = 2400000,
		.net_epoch = 50000000,
	};
}

cutoff_sim_model_t cutoff_sim_model_for(const cutoff_sim_model_t *m, const char *workload)
{
	cutoff_sim_model_t r = *m;
	uint64_t own = 0;
	if (!strcmp(workload, "chess"))
		own = m->node_chess;
	else if (!strcmp(workload, "connect4"))
		own = m->node_connect4;
	else if (!strcmp(workload, "rtree"))
		own = m->node_rtree;
	if (own)
		r.node = own;
	return r;
}

bool cutoff_sim_model_read(const char *path, cutoff_sim_model_t *m, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read the cost model %s: %s", path, strerror(errno));
		return false;
	}
	bool seen[64] = { false };
	char line[512];
	int no = 0;
	bool ok = true;
	while (ok && fgets(line, sizeof(line), f)) {
		no++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char name[64], extra[8];
		double ns;
		int got = sscanf(line, "%63s %lf %7s", name, &ns, extra);
		if (got <= 0)
			continue; /* blank or comment */
		int i = 0;
		while (i < cutoff_sim_nfields && strcmp(cutoff_sim_fields[i].name, name))
			i++;
		bool pct = i < cutoff_sim_nfields &&
		           cutoff_sim_fields[i].offset == offsetof(cutoff_sim_model_t, node_jitter);
		if (got != 2 || i == cutoff_sim_nfields || seen[i] ||
		    !(ns >= 0 && ns <= (pct ? 100 : 1e9))) {
			snprintf(err, errlen, "%s:%d: %s", path, no,
			         got != 2                  ? "expected 'name value-in-ns'"
			         : i == cutoff_sim_nfields ? "unknown name (docs/simulation.md)"
			         : seen[i]                 ? "name given twice"
			         : pct                     ? "a percentage, 0 .. 100"
			                                   : "value not in 0 .. 1e9 ns");
			ok = false;
			break;
		}
		seen[i] = true;
		*field(m, i) = (uint64_t)llround(ns * 1000.0);
	}
	if (ok && ferror(f)) {
		snprintf(err, errlen, "cannot read the cost model %s", path);
		ok = false;
	}
	fclose(f);
	return ok;
}

void cutoff_sim_model_write(FILE *f, const cutoff_sim_model_t *m, const char *comment)
{
	fprintf(f, "# cutoff sim cost model: nanoseconds (docs/simulation.md)\n");
	if (comment && *comment)
		fprintf(f, "# %s\n", comment);
	cutoff_sim_model_t copy = *m;
	for (int i = 0; i < cutoff_sim_nfields; i++) {
		uint64_t ps = *field(&copy, i);
		fprintf(f, "%-15s %" PRIu64 ".%03" PRIu64 "   # %s\n", cutoff_sim_fields[i].name,
		        ps / 1000, ps % 1000, cutoff_sim_fields[i].what);
	}
}
