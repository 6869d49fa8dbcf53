/* SPDX-License-Identifier: MIT */
/*
 * model.c — the cost model's fields, defaults and files (sim.h).
 *
 * A file is plain text: one `name value` a line, the value in nanoseconds (at most three
 * decimals: the simulator counts picoseconds; node_jitter is a percentage and sockets a
 * whole number, both kept in thousandths the same way), `#` to the end of a line a comment, blank
 * lines ignored; a line may be of any length. A field not named keeps its default; a name
 * twice, an unknown name, a value that is not a decimal number in [0, 1e9] ns (hex, inf
 * and nan are not read), a NUL byte are errors that name the line; so is a value below
 * its field's least (yield, net_epoch: see the table), where the simulation would crawl.
 *
 * The defaults are one machine's of this project, from `cutoff sim --calibrate`
 * (docs/simulation.md gives the run and the machine): the node costs are a real serial
 * search's time per node on each workload, the others a measurement each (see the
 * calibration). They are parameters of the model, which a file replaces, not results.
 */
#include "sim/sim.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define FIELD(f, what_)                                                                            \
	{                                                                                          \
		.name = #f, .offset = offsetof(cutoff_sim_model_t, f), .unit = CUTOFF_SIM_NS,      \
		.what = what_                                                                      \
	}

const cutoff_sim_field_t cutoff_sim_fields[] = {
	FIELD(node, "one node, for a workload without its own"),
	{ .name = "node.chess",
	  .offset = offsetof(cutoff_sim_model_t, node_chess),
	  .unit = CUTOFF_SIM_NS,
	  .what = "one node of chess" },
	{ .name = "node.connect4",
	  .offset = offsetof(cutoff_sim_model_t, node_connect4),
	  .unit = CUTOFF_SIM_NS,
	  .what = "one node of Connect Four" },
	{ .name = "node.rtree",
	  .offset = offsetof(cutoff_sim_model_t, node_rtree),
	  .unit = CUTOFF_SIM_NS,
	  .what = "one node of a random tree" },
	{ .name = "node_jitter",
	  .offset = offsetof(cutoff_sim_model_t, node_jitter),
	  .unit = CUTOFF_SIM_PERCENT,
	  .what = "PERCENT, not ns: a node costs node +- up to this share, uniform" },
	FIELD(tt_probe, "a table probe, beyond the node's own cost"),
	FIELD(tt_store, "a table store that writes, beyond the node's own cost"),
	FIELD(tt_store_other, "more, when another thread wrote the bucket last (old model)"),
	FIELD(tt_visible, "a table write is seen by the other threads this much later"),
	FIELD(lock, "taking a free lock"),
	FIELD(lock_handoff, "more, when another thread released the lock last (old model)"),
	FIELD(spin, "one look of a spin-wait while it pauses (a pause instruction)"),
	/* A spin-wait that ends by the clock (YBW's 50 us before it sleeps) makes
	 * 50 us / yield looks when the threads it waits for sleep: at yield 0 (1 ps a look)
	 * a run took 125 s instead of 4 (issue 43). A real yield is a system call, 177 ns
	 * here; 10 ns keeps such a wait under 5,000 looks. */
	{ .name = "yield",
	  .offset = offsetof(cutoff_sim_model_t, yield),
	  .unit = CUTOFF_SIM_NS,
	  .what = "one look of a spin-wait after its pauses: a yield (a system call)",
	  .least = 10000,
	  .why_least =
	          "a yield is a system call (177 ns here); below 10 ns a spin-wait's 50-us window "
	          "takes thousands of looks and the simulation crawls" },
	FIELD(split, "making a split point and booking its helpers (YBW)"),
	FIELD(join, "a helper taking a split point's state (YBW)"),
	FIELD(wake, "from a wake-up to the sleeping thread running"),
	FIELD(start, "from the pool's hand-over to a worker running, and back"),
	FIELD(quantum, "how far a thread may run ahead of the earliest other (0: exact order)"),
	FIELD(line_transfer, "a cache line from another core, one transfer at a time a line"),
	FIELD(atomic, "a read-modify-write's own cost (a locked instruction)"),
	{ .name = "sockets",
	  .offset = offsetof(cutoff_sim_model_t, sockets),
	  .unit = CUTOFF_SIM_COUNT,
	  .what = "COUNT, not ns: the sockets the virtual threads are spread over, in blocks" },
	FIELD(numa_transfer, "more per transfer when the line comes from another socket"),
	FIELD(net_latency, "a simulated cluster's message, from its send to deliverable"),
	/* Each meeting is a real one of the ranks' OS threads (a mutex and a condition
	 * variable, tens of microseconds): at net_epoch 0 (1 ns) a cluster run took 27 s
	 * instead of 1.4 (issue 43); at 1 us, about twice the default's real time. */
	{ .name = "net_epoch",
	  .offset = offsetof(cutoff_sim_model_t, net_epoch),
	  .unit = CUTOFF_SIM_NS,
	  .what = "a simulated cluster's ranks meet this often (latency rounds up to it)",
	  .least = 1000000,
	  .why_least =
	          "the simulated ranks' threads meet every epoch (a real barrier); below 1 us the "
	          "meetings cost more than the search" },
	FIELD(fiber, "a fiber switch of a driver that runs its searches on fibers (DTS)"),
};
const int cutoff_sim_nfields = (int)(sizeof(cutoff_sim_fields) / sizeof(cutoff_sim_fields[0]));

static uint64_t *field(cutoff_sim_model_t *m, int i)
{
	return (uint64_t *)((char *)m + cutoff_sim_fields[i].offset);
}

void cutoff_sim_model_default(cutoff_sim_model_t *m)
{
	/* Calibrated by `cutoff sim --calibrate` on one machine of this project, in
	 * picoseconds; docs/simulation.md, "The default model", gives the date, the machine,
	 * its load and how each field was measured. */
	*m = (cutoff_sim_model_t){
		.node = 105051,
		.node_chess = 173092,
		.node_connect4 = 75990,
		.node_rtree = 105051,
		.node_jitter = 10000, /* 10 %: a modelling choice, docs/simulation.md */
		.tt_probe = 0,
		.tt_store = 0,
		.tt_store_other = 0,
		.tt_visible = 0,
		.lock = 7088,
		.lock_handoff = 0,
		.spin = 11080,
		.yield = 177104,
		.split = 86000,
		.join = 133000,
		.wake = 34090500,
		.start = 2197500,
		.quantum = 0,
		/* The cache lines: a transfer is the store probe's figure (a line the
		 * other core wrote last), an atomic a free lock's (one locked exchange);
		 * one socket. They replace the old model's flat tt_store_other and
		 * lock_handoff, now 0 (docs/sim/model-0.2.txt keeps the old model). */
		.line_transfer = 72595,
		.atomic = 7088,
		.sockets = 1000,
		.numa_transfer = 0,
		/* Ranks (cluster/transport_sim.h): one 4 KiB batch one way between two ranks
		 * (bench/mpi_probe.c, docs/cluster.md), and a lookahead of 50 us, a modelling
		 * choice: thread 0 polls every 1024 nodes, longer than that at this model's
		 * chess node cost. */
		.net_latency = 2400000,
		/* Boost.Context's jump_fcontext, 4.3-4.4 ns here (docs/simulation.md, "The
		 * context switch"); a fiber that resumes on another thread also pays `join`
		 * (dts.c): its node's state moves to that thread's cache. */
		.fiber = 4400,
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

/* A value as the files write it: decimal digits with an optional sign, point and exponent
 * ("105.051", "-1", "1e3"), parsed into *v. strtod alone would also take hex ("0x10"),
 * "inf" and "nan", which no model file means. */
static bool decimal_value(const char *s, double *v)
{
	const char *p = s + (*s == '+' || *s == '-');
	size_t whole = strspn(p, "0123456789");
	p += whole;
	size_t frac = 0;
	if (*p == '.') {
		frac = strspn(p + 1, "0123456789");
		p += 1 + frac;
	}
	if (whole + frac == 0)
		return false;
	if (*p == 'e' || *p == 'E') {
		p += 1 + (p[1] == '+' || p[1] == '-');
		size_t exp = strspn(p, "0123456789");
		if (exp == 0)
			return false;
		p += exp;
	}
	if (*p != '\0')
		return false;
	*v = strtod(s, NULL);
	return true;
}

/* One line of a file (len bytes, its newline among them), into *m: NULL when it is a
 * field's value, blank or a comment, else what is wrong with it (in msg, or a constant). */
static const char *model_line(char *line, size_t len, cutoff_sim_model_t *m, bool seen[], char *msg,
                              size_t msglen)
{
	/* A NUL ends the line for every string function below: what follows it would be
	 * read as nothing, so the line is refused instead. */
	if (memchr(line, '\0', len))
		return "a NUL byte in the line (not a text file?)";
	char *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	static const char space[] = " \t\r\n\v\f";
	char *save = NULL;
	const char *name = strtok_r(line, space, &save);
	if (!name)
		return NULL; /* blank or comment */
	const char *value = strtok_r(NULL, space, &save);
	if (!value || strtok_r(NULL, space, &save))
		return "expected 'name value-in-ns'";
	int i = 0;
	while (i < cutoff_sim_nfields && strcmp(cutoff_sim_fields[i].name, name))
		i++;
	if (i == cutoff_sim_nfields)
		return "unknown name (docs/simulation.md)";
	if (seen[i])
		return "name given twice";
	cutoff_sim_unit_t unit = cutoff_sim_fields[i].unit;
	double ns;
	if (!decimal_value(value, &ns))
		return "the value is not a decimal number (such as 105.051; hex, inf and nan are "
		       "not read)";
	if (unit == CUTOFF_SIM_PERCENT && !(ns >= 0 && ns <= 100))
		return "a percentage, 0 .. 100";
	if (unit == CUTOFF_SIM_COUNT && !(ns >= 1 && ns <= 64 && ns == floor(ns)))
		return "a whole number, 1 .. 64";
	if (unit == CUTOFF_SIM_NS && !(ns >= 0 && ns <= 1e9))
		return "value not in 0 .. 1e9 ns";
	uint64_t ps = (uint64_t)llround(ns * 1000.0);
	const cutoff_sim_field_t *f = &cutoff_sim_fields[i];
	if (ps < f->least) {
		snprintf(msg, msglen,
		         "%s %s ns: below its least value, %g ns (range %g .. 1e9): %s", name,
		         value, (double)f->least / 1000.0, (double)f->least / 1000.0, f->why_least);
		return msg;
	}
	seen[i] = true;
	*field(m, i) = ps;
	return NULL;
}

bool cutoff_sim_model_read(const char *path, cutoff_sim_model_t *m, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read the cost model %s: %s", path, strerror(errno));
		return false;
	}
	bool seen[64] = { false };
	char *line = NULL; /* a line of any length (a comment may be long) */
	size_t cap = 0;
	ssize_t len;
	int no = 0;
	const char *wrong = NULL;
	char msg[256];
	errno = 0;
	while (!wrong && (len = getline(&line, &cap, f)) >= 0) {
		no++;
		wrong = model_line(line, (size_t)len, m, seen, msg, sizeof(msg));
		errno = 0;
	}
	/* getline's -1 is the end of the file, or a failure (a folder, an I/O error, memory). */
	int failed = 0;
	if (!wrong && (ferror(f) || !feof(f)))
		failed = errno ? errno : EIO;
	if (wrong)
		snprintf(err, errlen, "%s:%d: %s", path, no, wrong);
	else if (failed)
		snprintf(err, errlen, "cannot read the cost model %s: %s", path, strerror(failed));
	free(line);
	fclose(f);
	return !wrong && !failed;
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
